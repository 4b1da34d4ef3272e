//! The order of events in virtual time: a binary heap of (time, order) keys, so each step
//! costs O(log p) however many processors there are, beside a queue of keys that came in
//! ascending order. Most events are a message's next hop, due a fixed hop time after the
//! one before where it did not queue for the link, so they arrive sorted and skip the
//! heap: pushing and taking them is O(1).
//!
//! Ties at the same nanosecond are broken by `order`: messages first (by sending order),
//! then departures and their notices, then processors (by id). So a message that arrives
//! at the instant a processor steps is in its mailbox for that step, and equal inputs give
//! one order on every platform.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

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

/// An entry: (time, order, slot). Keys are unique, so the order of events is total.
type Key = (u64, u64, u32);

/// Future events by time: the earliest is the first of `sorted` or the top of `heap`.
#[derive(Debug, Default)]
pub(super) struct Calendar {
    heap: BinaryHeap<Reverse<Key>>,
    /// Keys that came no earlier than the last one here, in ascending order.
    sorted: VecDeque<Key>,
}

impl Calendar {
    fn push(&mut self, key: Key) {
        self.heap.push(Reverse(key));
    }

    /// The earliest key, left in place.
    fn peek(&self) -> Option<Key> {
        match (self.sorted.front(), self.heap.peek()) {
            (Some(&a), Some(&Reverse(b))) => Some(a.min(b)),
            (a, b) => a.copied().or(b.map(|r| r.0)),
        }
    }

    /// Processor `id` steps at `time`.
    pub(super) fn step_at(&mut self, time: u64, id: usize) {
        self.push((time, PROCESSOR | id as u64, 0));
    }

    /// Message number `sequence`, kept in flight slot `slot`, reaches its next node at `time`.
    pub(super) fn flight_at(&mut self, time: u64, sequence: u64, slot: usize) {
        debug_assert!(sequence < LEAVE);
        self.push((time, sequence, slot as u32));
    }

    /// Message number `sequence` crossed a link without queueing and reaches the next node
    /// at `time`: a fixed hop time after now, so these come in ascending order.
    pub(super) fn hop_at(&mut self, time: u64, sequence: u64, slot: usize) {
        let key = (time, sequence, slot as u32);
        if self.sorted.back().is_none_or(|&last| last <= key) {
            self.sorted.push_back(key);
        } else {
            self.heap.push(Reverse(key));
        }
    }

    /// Departure number `index` happens at `time`.
    pub(super) fn leave_at(&mut self, time: u64, index: usize) {
        self.push((time, LEAVE, index as u32));
    }

    /// The others hear of departure number `index` at `time`.
    pub(super) fn notice_at(&mut self, time: u64, index: usize) {
        self.push((time, NOTICE, index as u32));
    }

    /// The earliest event, removed.
    pub(super) fn pop(&mut self) -> Option<(u64, Due)> {
        let from_sorted = match (self.sorted.front(), self.heap.peek()) {
            (Some(a), Some(Reverse(b))) => a < b,
            (front, _) => front.is_some(),
        };
        let (time, order, slot) = if from_sorted { self.sorted.pop_front() } else { self.heap.pop().map(|r| r.0) }?;
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
        self.peek().is_none_or(|(t, order, _)| (time, PROCESSOR | id as u64) < (t, order))
    }
}
