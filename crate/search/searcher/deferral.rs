//! Moves put off and taken up again: ABDADA's deferral of positions another processor is
//! searching, StarTech's deferred reads, and the second pass over deferred moves (where
//! Jamboree's re-searches of failed tests also wait their turn).

use super::frame::MAX_DEFERRED;
use super::*;

/// Looks a node takes at a deferred move another processor still searches before it
/// searches the move itself: two processors can wait for each other's positions (a
/// transposition leads each into the other's path), and this ends such a wait.
const MAX_BUSY_POLLS: u32 = 256;

/// Nodes this shallow are not worth marking in the busy table.
pub(super) const MIN_BUSY_DEPTH: i32 = 2;

/// ABDADA: a deferred move of `f` whose position the other processor has finished since,
/// taken off the deferred list. It goes next: its value is in the table by now, and it
/// may cut this node off before the rest of the list is searched for nothing (the serial
/// search would have searched it in its place).
pub(super) fn take_finished_elsewhere(f: &mut Frame, busy: &BusyMarks) -> Option<Move> {
    // A hash of 0 marks a move sent back for a re-search, not a busy position.
    let i = (f.deferred_taken..f.deferred_count).find(|&i| f.deferred_hashes[i] != 0 && !busy.busy_elsewhere(f.deferred_hashes[i]))?;
    f.swap_deferred(i, f.deferred_taken);
    f.deferred_taken += 1;
    Some(f.deferred[f.deferred_taken - 1])
}

impl Searcher {
    /// The second pass: the next deferred move of the node at `top`, or `None` when it must
    /// wait. Jamboree takes the earliest in the list first, once every test before it in
    /// the list is back (the earlier iterations of its parallel loop), so that full-window
    /// re-searches go one at a time, in order. With deferred reads, a move another
    /// processor still searches is waited for (a bounded number of looks).
    pub(super) fn take_deferred(&mut self, top: usize) -> Option<Move> {
        let f = &mut self.frames[top];
        let next = f.deferred_taken;
        if self.tests_first {
            let earliest = (next..f.deferred_count).min_by_key(|&i| f.deferred_order[i]).expect("a deferred move is left");
            f.swap_deferred(earliest, next);
            let (serial, order) = (f.serial, f.deferred_order[next]);
            if self.remotes.iter().any(|r| r.is_earlier_test(top, serial, order)) {
                return None;
            }
        }
        let hash = f.deferred_hashes[next];
        if self.startech.deferred_reads && f.busy_polls < MAX_BUSY_POLLS && hash != 0 && self.busy.as_ref().is_some_and(|b| b.busy_elsewhere(hash)) {
            // A deferred read: wait for the other processor's search of this move. Each
            // look reads the position's entry (where StarTech kept the mark) again.
            f.busy_polls += 1;
            f.polling = true;
            self.deferred_read_polls += 1;
            if self.record_accesses {
                self.accesses.push(Access { kind: AccessKind::Probe, hash });
            }
            return None;
        }
        f.deferred_taken += 1;
        Some(f.deferred[next])
    }

    /// Whether move `mv` of the node at `top`, started `order`th and leading to the position
    /// `hash`, is put off for the second pass.
    pub(super) fn defer_if_busy(&mut self, top: usize, mv: Move, order: u16, hash: u64) -> bool {
        let Some(busy) = &self.busy else { return false };
        let f = &mut self.frames[top];
        // ABDADA: a move whose position another processor is searching waits until
        // the first pass is done; by then its result is likely in the table. The
        // first move waits only at a node expected to need all its moves: at a PV node
        // it sets the bound and at a CUT node it is the likely refutation, so there
        // the processor joins the other one in it instead of guessing further moves.
        // Children of shallower nodes are too shallow to be marked (but for a check
        // extension): looking would cost a shared cache line per move for nothing.
        let markable = f.depth > MIN_BUSY_DEPTH;
        let may_wait = f.moves_searched > 0 || f.kind == NodeKind::All;
        if markable && may_wait && !f.second_pass && f.deferred_count < MAX_DEFERRED && busy.busy_elsewhere(hash) {
            f.deferred[f.deferred_count] = mv;
            f.deferred_hashes[f.deferred_count] = hash;
            f.deferred_order[f.deferred_count] = order;
            f.deferred_bound[f.deferred_count] = -INFINITY;
            f.deferred_count += 1;
            if self.startech.deferred_reads && self.record_accesses {
                // StarTech kept the mark in the position's table entry: finding it
                // busy took a read there (a read that finds it free is the child's own).
                self.accesses.push(Access { kind: AccessKind::Probe, hash });
            }
            true
        } else {
            false
        }
    }
}
