//! Which positions some processor is searching right now: the shared state of ABDADA
//! ("simplified ABDADA", after Weill's ABDADA, 1996). A processor marks a node when it
//! starts searching it and unmarks it when done; another processor reaching the same
//! position as a later move defers it, and searches something else first.
//!
//! Race contract: slots are single `AtomicU64` hashes, written and cleared without locks.
//! A lost mark or a stale one only changes the order in which moves are tried, never a
//! result, so Relaxed ordering suffices.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A small direct-mapped set of position hashes.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl BusyTable {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> BusyTable {
        BusyTable { slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash as usize) & (self.slots.len() - 1)]
    }

    /// Marks `hash` as being searched; `false` if the slot was taken (then the caller
    /// must not unmark it).
    pub fn mark(&self, hash: u64) -> bool {
        self.slot(hash).compare_exchange(0, hash, Relaxed, Relaxed).is_ok()
    }

    /// Clears a mark made by [`BusyTable::mark`].
    pub fn unmark(&self, hash: u64) {
        let _ = self.slot(hash).compare_exchange(hash, 0, Relaxed, Relaxed);
    }

    /// Whether `hash` is being searched by some processor.
    pub fn is_busy(&self, hash: u64) -> bool {
        self.slot(hash).load(Relaxed) == hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_unmarks() {
        let t = BusyTable::new(4);
        assert!(t.mark(0x1234));
        assert!(t.is_busy(0x1234));
        assert!(!t.mark(0x1234 + 16), "the slot is taken");
        assert!(!t.is_busy(0x1234 + 16));
        t.unmark(0x1234);
        assert!(!t.is_busy(0x1234));
    }
}
