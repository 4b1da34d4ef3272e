//! Young Brothers Wait: any node may be split once its eldest son is done; every
//! processor is equal and idle ones ask others for work.
//!
//! Paper: R. Feldmann, P. Mysliwietz and B. Monien, "A Fully Distributed Chess Program",
//! University of Paderborn (program ZUGZWANG; the copy carries no year and cites work up
//! to 1990).
//!
//! The idea: a node's later moves (its young brothers) may be searched in parallel only
//! after its first move (the eldest brother) has returned a value, which gives the node
//! its window and, at a CUT node, usually its cutoff. An idle processor asks a processor
//! chosen at random for work; the owner gives away the highest unsearched young brother
//! whose eldest brother is done; NEWBOUND and CUTOFF follow the subproblem to its helpers
//! and theirs; the owner takes the values back and searches again on a fail high itself.
//!
//! Invariants: no node gives a move away before its first move is done (the searcher's
//! `can_split`), nor with fewer than `MIN_SPLIT_DEPTH` plies left; the split point nearest
//! the root goes first; the owner of a split point takes every value back and finishes
//! it, so in pure mode the value is the serial search's.
//!
//! Where ours departs from Zugzwang's (docs/work-splitting.md says why and what each is
//! worth):
//! - young brothers of a principal-variation node are searched with the zero window of
//!   principal variation search, as our serial search does, and searched again by the
//!   owner when they fail high (Zugzwang's plain alpha-beta gave them the node's window);
//! - on a machine with shared memory an idle processor reads the offer board rather than
//!   asking at random, and a helper that returns a value asks for the next brother at the
//!   same node (`split`); on message-passing machines it asks at random, as Zugzwang did;
//! - in one memory the processors share one history table (`crate::parallel`); killers
//!   stay per processor, and a subproblem carries its giver's killers for its first plies.

use super::split::{nearest_the_root, Policy, Seek};
use crate::search::{SplitWindow, StarTechRules};

/// Zugzwang's choices: the highest level first, the split point nearest the root.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit: nearest_the_root, tests_first: false, startech: StarTechRules::OFF, eager_all_nodes: false };
