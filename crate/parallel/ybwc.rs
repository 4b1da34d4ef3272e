//! Young Brothers Wait (Feldmann, Monien and Mysliwietz: Zugzwang). Every processor is
//! equal: an idle one asks a processor chosen at random for work; the owner gives away
//! the highest unsearched young brother whose eldest brother is done; NEWBOUND and CUTOFF
//! follow the subproblem to its helpers and theirs; the owner takes the values back and
//! re-searches on fail high itself.
//!
//! Departures from Zugzwang (docs/work-splitting.md says why and what each is worth):
//! - young brothers of a principal-variation node are searched with the zero window of
//!   principal variation search, as our serial search does, and searched again by the
//!   owner when they fail high (Zugzwang's plain alpha-beta gave them the node's window);
//! - on a machine with shared memory an idle processor reads the offer board rather than
//!   asking at random, and a helper that returns a value asks for the next brother at the
//!   same node (`split`); on message-passing machines it asks at random, as Zugzwang did;
//! - in one memory the processors share one history table (`crate::parallel`).
//!
//! A subproblem carries its giver's killers for its first plies (see `crate::parallel`).

use super::split::{nearest_the_root, Policy, Seek};
use crate::search::{SplitWindow, StarTechRules};

/// Zugzwang's choices: the highest level first, the split point nearest the root.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit: nearest_the_root, tests_first: false, startech: StarTechRules::OFF };
