//! Jamboree search (Kuszmaul: StarTech). A node values its first child, then tests all
//! the others in parallel with a zero window; tests that fail high are searched again
//! serially, after the node's tests are all back; a child that cuts aborts its brothers
//! (abort-and-return). Idle processors steal posted tests at random, nearest the root first.
//!
//! Departures from StarTech (docs/work-splitting.md): a failed test waits for all the
//! node's tests rather than only the earlier ones; no deferred reads and no serialization
//! heuristic at type-2 nodes; on a machine with shared memory idle processors read the
//! offer board rather than stealing at random, and a processor that returns a test's
//! value takes the next test of the same node; in one memory the processors share one
//! history table. A subproblem carries its giver's killers for its first plies.

use super::split::{nearest_the_root, Policy, Seek};
use crate::search::SplitWindow;

/// StarTech's choices: steal near the root first.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::AskRandom, merit: nearest_the_root, tests_first: true };
