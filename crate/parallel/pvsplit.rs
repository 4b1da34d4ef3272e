//! Principal variation splitting.
//!
//! CITE: T. A. Marsland and F. Popowich, "Parallel game-tree search", IEEE Transactions on
//! Pattern Analysis and Machine Intelligence 7(4), 1985 (PV-splitting); as distributed
//! over a LAN of unequal PCs by K. S. Hasan, "A Distributed Chess Playing Software System
//! Model Using Dynamic CPU Availability Prediction", School of Computer Science,
//! University of Oklahoma (no year printed; after the author's PDPTA 2010 paper).
//!
//! The idea: parallelism only along the principal variation, where the tree is sure to
//! be searched whole. A node on it searches its eldest son first (recursively, so the
//! first bound comes up the leftmost path); then its other sons go out one per idle
//! processor with the node's own window (alpha, beta), and the node waits for them,
//! narrowing its window as values return. Everywhere off the principal variation the
//! search is serial.
//!
//! Invariants: only principal-variation nodes with at least `MIN_SPLIT_DEPTH` plies left
//! are split, the one nearest the root first; a son is given away only after the eldest
//! son's value is in; given sons are searched with the full window, so pure mode returns
//! the serial minimax value.
//!
//! Departures from Hasan's paper: (a) idle processors ask one processor at random for
//! work and a helper may split principal-variation nodes of its own subtree, where
//! Hasan's master alone splits and hands siblings to a pool of idle workers (that pool is
//! `pvsplit_available`); (b) the paper's "maximum PV-split depth" (no value printed) is
//! here `MIN_SPLIT_DEPTH` plies above the leaves; (c) workers run this engine's searcher:
//! with `--pure` (the period's search) no null move, reductions or table cutoffs, but
//! still NegaScout's zero windows below a given son, and the table's, killers' and
//! history's move ordering, where Hasan's workers ran plain alpha-beta with no table.
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
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Full, seek: Seek::AskRandom, merit, tests_first: false, startech: StarTechRules::OFF, eager_all_nodes: false };
