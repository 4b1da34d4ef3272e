//! Young Brothers Wait (Feldmann, Monien and Mysliwietz: Zugzwang). Every processor is
//! equal: an idle one asks a processor chosen at random for work; the owner gives away
//! the highest unsearched young brother whose eldest brother is done, searched with the
//! node's window; NEWBOUND and CUTOFF follow the subproblem to its helpers and theirs;
//! the owner takes the values back and re-searches on fail high itself.
//!
//! Shared state: only the table. Killers and history stay per processor: they describe
//! one processor's walk of the tree, and Zugzwang's processors kept them locally too.
//! A subproblem carries its giver's killers for its first plies (see `crate::parallel`).

use super::split::{Policy, Seek, MIN_SPLIT_DEPTH};
use crate::search::{SplitCandidate, SplitWindow};

/// Highest level first: the split point nearest the root.
fn merit(c: &SplitCandidate) -> Option<i32> {
    (c.depth >= MIN_SPLIT_DEPTH).then_some(-(c.frame as i32))
}

/// Zugzwang's choices.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit, tests_first: false };
