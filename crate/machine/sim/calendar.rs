//! The order of events in virtual time: a binary heap of (time, order) keys, so each step
//! costs O(log p) however many processors there are.
//!
//! Ties at the same nanosecond are broken by `order`: messages first (by sending order),
//! then departures and their notices, then processors (by id). So a message that arrives
//! at the instant a processor steps is in its mailbox for that step, and equal inputs give
//! one order on every platform.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Keys at or above this are processors; below, messages (by sequence number).
const PROCESSOR: u64 = 1 << 63;

/// The key of a processor leaving, and of the others hearing it (by departure, in `slot`).
const LEAVE: u64 = PROCESSOR - 2;
const NOTICE: u64 = PROCESSOR - 1;

/// What an entry of the calendar is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// Processor `id` steps.
    Step(usize),
    /// The message in flight slot `slot` reaches its next node.
    Flight(usize),
    /// Departure number `i` happens: its processor leaves.
    Leave(usize),
    /// The others hear that departure number `i`'s processor is gone.
    Notice(usize),
}

/// Future events by time.
#[derive(Debug, Default)]
pub(super) struct Calendar {
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
}

impl Calendar {
    /// Processor `id` steps at `time`.
    pub(super) fn step_at(&mut self, time: u64, id: usize) {
        self.heap.push(Reverse((time, PROCESSOR | id as u64, 0)));
    }

    /// Message number `sequence`, kept in flight slot `slot`, reaches its next node at `time`.
    pub(super) fn flight_at(&mut self, time: u64, sequence: u64, slot: usize) {
        debug_assert!(sequence < LEAVE);
        self.heap.push(Reverse((time, sequence, slot as u32)));
    }

    /// Departure number `index` happens at `time`.
    pub(super) fn leave_at(&mut self, time: u64, index: usize) {
        self.heap.push(Reverse((time, LEAVE, index as u32)));
    }

    /// The others hear of departure number `index` at `time`.
    pub(super) fn notice_at(&mut self, time: u64, index: usize) {
        self.heap.push(Reverse((time, NOTICE, index as u32)));
    }

    /// The earliest event, removed.
    pub(super) fn pop(&mut self) -> Option<(u64, Due)> {
        let Reverse((time, order, slot)) = self.heap.pop()?;
        let due = match order {
            PROCESSOR.. => Due::Step((order - PROCESSOR) as usize),
            LEAVE => Due::Leave(slot as usize),
            NOTICE => Due::Notice(slot as usize),
            _ => Due::Flight(slot as usize),
        };
        Some((time, due))
    }

    /// Whether processor `id` stepping at `time` comes before everything in the calendar
    /// (then it may step at once, without a trip through the heap).
    pub(super) fn step_is_next(&self, time: u64, id: usize) -> bool {
        self.heap.peek().is_none_or(|&Reverse((t, order, _))| (time, PROCESSOR | id as u64) < (t, order))
    }
}
