//! ABDADA (Weill 1996, in the simplified form of a busy table): processors search the
//! same iterations over the shared table; entering a node marks its position busy, and a
//! processor that meets a busy position as a later move at some node defers it to the end
//! of that node's move list, by when the other processor's result is usually in the table.
//! A deferred move the other processor finishes earlier goes next (its value is in the
//! table then, and may cut the node off before the rest of the list is searched for
//! nothing). Natively, on Bratko-Kopec at depth 15 with 2 threads (runs of both rules
//! taken in turn, 25 rounds each), it took the search overhead from 0.20 to 0.13 and the
//! speedup from 1.60 to 1.70 (about 1.66 over 100 rounds in six batches); the
//! simulator's timing hides it (1.76 both ways over 16 seeds). A node's first move is
//! deferred too when the node is expected to need all its moves (an ALL node), so a
//! processor meeting the other one takes that node's other moves instead of following it
//! down to the smallest subtrees on its path (natively 1.65 to 1.69 over 80 rounds in
//! three batches, search overhead 0.139 to 0.127).
//!
//! Most of the search overhead left then was not ABDADA's but the searcher's: it reduced
//! every node without a table move by a ply (internal iterative reduction), so the
//! entries one processor left changed the depth the other searched nodes to, and the
//! parallel tree drifted from the serial one. Expected ALL nodes, whose moves are all
//! searched whatever their order, now keep their depth (`Searcher::enter`); natively
//! that took ABDADA from 1.65 to 1.81 (15 rounds each, search overhead 0.138 to 0.067).
//!
//! Odd helpers start one ply ahead, as in Lazy SMP: a helper that reaches an iteration
//! first leaves table entries the others skip through, and the busy table then spreads
//! them over different moves. On the simulator's 2-core machine this beat ABDADA with
//! every processor on the same iteration in 5 of 6 suite, depth and table-size settings
//! (mean SPE 1.70 against 1.56; Lazy SMP 1.60).
//!
//! With one global table the processors also train one history table, processor 0's
//! (`Algorithm::shares_history`): they walk the same tree, so a cutoff one of them
//! finds orders the other's moves as the serial search's own history would. On the
//! simulator's 2-core machine (Bratko-Kopec, 64 MiB) it took 3 % off the parallel time
//! at depth 15 (24 seeds, SPE 1.70 to 1.76) and 4 % at depth 17 (6 seeds, 1.63 to
//! 1.70); natively the host's noise hides a gain that small. Lazy SMP keeps a table per
//! processor: sharing one there made its processors' trees alike and doubled its search
//! overhead.
//!
//! Shared state: the table, the busy table (`crate::tt::BusyTable`) and the history.
//! Invariants: a deferred move is still searched (only order changes); processor 0
//! decides the move.

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
