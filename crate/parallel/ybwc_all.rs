//! YBWC-ALL, a hybrid of Young Brothers Wait and dynamic tree splitting: Zugzwang's
//! program (`ybwc`: any node may split, idle processors ask one at random, the split
//! point nearest the root goes first) with one rule of Cray Blitz's (`dts`): an expected
//! ALL node may split as soon as its eldest son is under way, not only once it is back.
//!
//! Why: at an ALL node every move must be searched anyway, and the eldest son's value
//! rarely narrows the window the others are searched with, so waiting for it leaves
//! processors idle for nothing. On the simulator the rule raised 6 of 8 of YBWC's and
//! Jamboree's speedups, by up to 38 % (docs/work-splitting.md). An expected ALL node that
//! turns out to be a CUT node wastes what its young brothers searched: the search
//! overhead this hybrid trades for idle time.
//!
//! It is not Zugzwang's algorithm (YBWC waits for the eldest brother by definition), so
//! it carries a name of its own. Like YBWC it needs no shared memory: it runs on threads,
//! on the simulator, over MPI and in a class.

use super::split::{nearest_the_root, Policy, Seek};
use crate::search::{SplitWindow, StarTechRules};

/// YBWC's choices with DTS's rule for expected ALL nodes.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit: nearest_the_root, tests_first: false, startech: StarTechRules::OFF, eager_all_nodes: true };

#[cfg(test)]
mod tests {
    use super::*;

    /// The hybrid is Zugzwang's program with DTS's ALL-node rule, and nothing else.
    #[test]
    fn ybwc_all_is_ybwc_with_the_all_node_rule_only() {
        let ybwc = &crate::parallel::ybwc::POLICY;
        assert!(POLICY.eager_all_nodes && !ybwc.eager_all_nodes);
        assert_eq!((POLICY.window, POLICY.seek, POLICY.tests_first, POLICY.startech), (ybwc.window, ybwc.seek, ybwc.tests_first, ybwc.startech));
        assert_eq!(POLICY.merit as usize, ybwc.merit as usize);
    }
}
