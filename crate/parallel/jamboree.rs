//! Jamboree search, as StarTech ran it. Bradley C. Kuszmaul, "The StarTech Massively
//! Parallel Chess Program", MIT Laboratory for Computer Science, January 11, 1995.
//!
//! The idea: a parallel Scout. A node searches its first child for a value; if that does
//! not cut, it tests all its other children in parallel with a zero window. A test that
//! reaches beta aborts the node and every subtree still running under it
//! (abort-and-return); a test that fails high waits until the tests before it in the
//! list (the earlier iterations of the parallel loop) are back, and is then searched
//! again with the full window, one at a time. Idle processors steal posted tests from a
//! processor chosen at random, nearest the root first.
//!
//! StarTech's improvements, all on here (`search::StarTechRules`):
//! - recursive iterative deepening: a node without a best move in the table from a search
//!   at least one ply shallower first searches itself one ply shallower to find one (in
//!   Pure mode, the period's search; the modern search reduces such a node instead);
//! - the serialization heuristic (with recursive deepening, so in Pure mode too): a type-2
//!   node (expected to be cut) whose shallower search beat alpha but whose first child
//!   fails low searches a second child alone before going parallel;
//! - deferred reads: a processor reaching a position another processor is searching waits
//!   for it to finish rather than search it beside it (the busy table ABDADA uses,
//!   `tt::BusyTable`; on a distributed table the mark travels with the lookup and the
//!   store, and each look while waiting is one more lookup).
//!
//! Invariants: in Pure mode the root's value is the serial minimax value (the rules above
//! change the order and the timing of moves, never which moves a value depends on); a
//! failed test's re-search starts only when no test before it is out; a node cuts only on a
//! proven value (`search::searcher::split`).
//!
//! Departures from StarTech (docs/work-splitting.md):
//! - the search under it is the engine's own (killers, history, and, outside Pure mode,
//!   null move and reductions), where StarTech had none of them; `meshmate reproduce
//!   startech` orders by the table alone as StarTech did (`SearchOptions::table_ordering_only`);
//! - a wait for a deferred read ends after a bounded number of looks (two processors can
//!   wait for each other through a transposition), and a processor that waits looks for
//!   other work meanwhile, as our work-splitting processors do whenever their searches wait;
//! - deferred reads need one memory for the busy table: a cluster's processes search
//!   without them;
//! - on a machine with shared memory idle processors read the offer board rather than
//!   stealing at random, a processor that returns a test's value takes the next test of
//!   the same node, and the processors share one history table;
//! - a subproblem carries its giver's killers for its first plies.

use super::split::{nearest_the_root, Policy, Seek};
use crate::search::{SplitWindow, StarTechRules};

/// StarTech's choices: steal near the root first; re-search failed tests in order; its
/// move ordering, serialization and deferred reads.
pub(super) const POLICY: Policy = Policy {
    window: SplitWindow::Test,
    seek: Seek::AskRandom,
    merit: nearest_the_root,
    tests_first: true,
    startech: StarTechRules { recursive_deepening: true, serialize: true, deferred_reads: true },
    eager_all_nodes: false,
};
