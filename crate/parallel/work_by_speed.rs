//! Work sized by speed: each processor measures its own speed, and an owner gives a slower
//! requester a smaller subtree, about one ply deeper for each factor [`BRANCHING`] it is
//! slower. The assignment of `pvsplit-aware` (see `pvsplit_aware` for the idea, its source
//! and the measurements behind the constants), kept apart so that the work-splitting
//! program (`split`) uses it without importing a policy, which imports `split`.

use crate::search::SplitCandidate;

/// How many times the tree grows per ply, as the assignment assumes (the effective
/// branching factor of an alpha-beta search with this engine's pruning is about 2 to 3;
/// the value chosen by measurement on the old `lan` preset, docs/tdsab-and-pvsplit.md).
const BRANCHING: f64 = 2.0;

/// Nodes a processor must search before its speed is measured again.
const WINDOW_NODES: u64 = 256;

/// A processor's recent speed, from its node count and its busy time.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Speedometer {
    /// Nodes and busy time at the start of the current window.
    start: (u64, u64),
    /// Nodes per millisecond over the last full window.
    rate: Option<u32>,
}

impl Speedometer {
    /// Takes the processor's node count and busy clock now; closes a window every
    /// [`WINDOW_NODES`] nodes.
    pub(super) fn update(&mut self, nodes: u64, busy_ns: u64) {
        let (nodes_then, busy_then) = self.start;
        if nodes < nodes_then || busy_ns < busy_then {
            self.start = (nodes, busy_ns);
        } else if nodes - nodes_then >= WINDOW_NODES && busy_ns > busy_then {
            let per_ms = (nodes - nodes_then) * 1_000_000 / (busy_ns - busy_then);
            self.rate = Some(per_ms.clamp(1, u32::MAX as u64) as u32);
            self.start = (nodes, busy_ns);
        }
    }

    /// Nodes per millisecond of busy time over the last window, once one was measured.
    pub(super) fn rate(&self) -> Option<u32> {
        self.rate
    }
}

/// The split point to give a requester of speed `asker` when the owner runs at `own`:
/// among the candidates (merit, context, candidate), the one nearest the root whose
/// remaining depth is at most the largest one minus the plies the requester is slower
/// by; `None` when none is that small.
pub(super) fn choose(candidates: impl Iterator<Item = (i32, usize, SplitCandidate)>, asker: u32, own: u32) -> Option<(i32, usize, usize)> {
    let candidates: Vec<(i32, usize, SplitCandidate)> = candidates.collect();
    let largest = candidates.iter().map(|(_, _, c)| c.depth).max()?;
    let slower_by = own as f64 / asker.max(1) as f64;
    let plies = if slower_by > 1.0 { (slower_by.ln() / BRANCHING.ln()).round() as i32 } else { 0 };
    let fits = |c: &SplitCandidate| c.depth <= largest - plies;
    let by_order = |&(m, i, c): &(i32, usize, SplitCandidate)| (m, std::cmp::Reverse((i, c.frame)));
    candidates.iter().filter(|(_, _, c)| fits(c)).max_by_key(|x| by_order(x)).map(|&(m, i, c)| (m, i, c.frame))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NodeKind;

    fn candidate(frame: usize, depth: i32) -> (i32, usize, SplitCandidate) {
        (-(frame as i32), 0, SplitCandidate { frame, depth, kind: NodeKind::Pv, moves_searched: 1 })
    }

    /// An equal requester gets the root's split point; one three times slower a point
    /// one or two plies deeper; one far slower nothing.
    #[test]
    fn slower_requesters_get_smaller_subtrees() {
        let stack = || [candidate(0, 8), candidate(1, 7), candidate(2, 6)].into_iter();
        assert_eq!(choose(stack(), 100, 100).map(|c| c.2), Some(0));
        assert_eq!(choose(stack(), 200, 100).map(|c| c.2), Some(0));
        assert_eq!(choose(stack(), 60, 100).map(|c| c.2), Some(1));
        assert_eq!(choose(stack(), 33, 100).map(|c| c.2), Some(2));
        assert_eq!(choose(stack(), 1, 100), None);
        assert_eq!(choose(std::iter::empty(), 1, 100), None);
    }

    /// The speed is nodes per millisecond of busy time, measured over whole windows.
    #[test]
    fn speedometer_measures_whole_windows() {
        let mut s = Speedometer::default();
        s.update(0, 0);
        s.update(100, 1_000_000);
        assert_eq!(s.rate(), None);
        s.update(512, 2_000_000);
        assert_eq!(s.rate(), Some(256));
    }
}
