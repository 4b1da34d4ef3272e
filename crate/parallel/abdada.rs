//! ABDADA: processors that search the same iterations over one shared table, and defer
//! a move another processor is searching at that moment.
//!
//! Paper: J.-C. Weill, "The ABDADA distributed minimax search algorithm", Proceedings of
//! the 1996 ACM Computer Science Conference (CSC '96), and ICCA Journal 19(1), 1996.
//!
//! The idea: every processor runs the whole iterative deepening, as in Lazy SMP, but a
//! processor entering a node marks its position busy, and at a node's later moves a
//! child that another processor is searching is put off to the end of the move list. By
//! the time it comes up again, the other processor's value is usually in the table, so
//! the processors spread over different moves instead of searching the same subtree
//! twice. The first processor to complete an iteration answers it for all
//! (`program::Deepest`); processor 0 reports.
//!
//! Invariants:
//! - deferring changes only the order of a node's moves: every deferred move is still
//!   searched (or cut by a value that is in the table by then), so in pure mode the value
//!   is the serial search's;
//! - a busy mark is set by the processor entering the node and cleared when it leaves it;
//!   marks are hints, read racily (`crate::tt::BusyTable` states its race contract), and a
//!   wrong reading costs only order, never a value;
//! - processor 0 alone decides the move and reports.
//!
//! Shared state: the table, the busy table and, with one global table, the history
//! (`Algorithm::shares_history`): the processors walk one tree, so a cutoff one of them
//! finds orders the others' moves as the serial search's own history would.
//!
//! Where ours departs from Weill's:
//! - busy marks live in a separate busy table keyed by position, not in a count of
//!   processors kept in each table entry; nodes with less than two plies left are not
//!   marked, and a node defers at most `MAX_DEFERRED` moves (the searcher's), searching
//!   further busy ones at once;
//! - a deferred move whose subtree the other processor has finished goes next, as soon as
//!   it is done, rather than on a second pass over the list (its value may cut the node
//!   before the rest is searched for nothing);
//! - at a node expected to need all its moves (an ALL node) the first move is deferred
//!   too, so a processor meeting another takes that node's other moves rather than
//!   following it down to the smallest subtrees on its path (Weill always lets every
//!   processor search the eldest son);
//! - odd helpers start one iteration ahead, as in Lazy SMP ([`depth_offset`]), and the
//!   first processor to complete an iteration answers it for all;
//! - the processors share one history table in one memory.
//!
//! What each of these was worth, measured: docs/tuning-log.md.

pub(super) use super::lazysmp::depth_offset;
use crate::search::Searcher;
use crate::tt::{BusyMarks, BusyTable};
use std::sync::Arc;

/// Gives every processor the same fresh busy table (all start at depth 1). A processor
/// alone gets none: nothing can be busy elsewhere, so it searches as the serial search
/// does, at its speed.
pub(super) fn share_busy_table(main: &mut Searcher, helpers: &mut [Searcher]) {
    if helpers.is_empty() {
        return;
    }
    let busy = Arc::new(BusyTable::for_processors(helpers.len() + 1));
    main.set_busy_table(Some(BusyMarks::new(busy.clone(), 0)));
    for (i, h) in helpers.iter_mut().enumerate() {
        h.set_busy_table(Some(BusyMarks::new(busy.clone(), i + 1)));
    }
}
