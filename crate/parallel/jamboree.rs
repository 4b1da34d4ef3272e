//! Jamboree search (Kuszmaul: StarTech). A node values its first child, then tests all
//! the others in parallel with a zero window; tests that fail high are searched again
//! serially, after the node's tests are all back; a child that cuts aborts its brothers
//! (abort-and-return). Idle processors steal posted tests at random, nearest the root first.
//!
//! Shared state: only the table; killers and history per processor (a subproblem carries
//! its giver's killers for its first plies).

use super::split::{Policy, Seek, MIN_SPLIT_DEPTH};
use crate::search::{SplitCandidate, SplitWindow};

/// Steal near the root first.
fn merit(c: &SplitCandidate) -> Option<i32> {
    (c.depth >= MIN_SPLIT_DEPTH).then_some(-(c.frame as i32))
}

/// StarTech's choices.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit, tests_first: true };
