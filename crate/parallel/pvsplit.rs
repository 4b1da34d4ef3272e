//! Principal variation splitting (Marsland and Campbell; Hasan's distributed variant):
//! parallelism only along the principal variation. A node on it searches its eldest son
//! first; then its other sons go to the idle processors with the node's window, and the
//! node waits for them. Everywhere off the principal variation the search is serial.
//!
//! Shared state: only the table; killers and history per processor (a subproblem carries
//! its giver's killers for its first plies).

use super::split::{Policy, Seek, MIN_SPLIT_DEPTH};
use crate::search::{NodeKind, SplitCandidate, SplitWindow, StarTechRules};

/// Only principal-variation nodes, the one nearest the root first.
fn merit(c: &SplitCandidate) -> Option<i32> {
    (c.kind == NodeKind::Pv && c.depth >= MIN_SPLIT_DEPTH).then_some(-(c.frame as i32))
}

/// The principal variation's choices.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Full, seek: Seek::AskRandom, merit, tests_first: false, startech: StarTechRules::OFF };
