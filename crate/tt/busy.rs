//! Which positions some processor is searching right now: the shared state of ABDADA
//! ("simplified ABDADA", after Weill's ABDADA, 1996). A processor marks a node when it
//! starts searching it and unmarks it when done; another processor reaching the same
//! position as a later move defers it, and searches something else first. A processor's
//! own marks never defer its own moves, so on one processor ABDADA is the serial search.
//!
//! Race contract: slots are single `AtomicU64` words, written and cleared without locks.
//! A lost mark or a stale one only changes the order in which moves are tried, never a
//! result, so Relaxed ordering suffices.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// A small direct-mapped set of position hashes, each with the processor that marked it.
///
/// A slot is chosen by the hash's low bits, so a slot holds the hash's other bits and, in
/// place of the low bits it makes redundant, the marking processor's number plus one
/// (0 is an empty slot).
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

/// Slots per processor. Only the nodes on a processor's path are marked, a few dozen at
/// once, so with this many a mark is rarely refused for a taken slot. For 2 processors the
/// table is 2^10 slots (8 KiB) and stays in the first-level cache, where ABDADA's look at
/// every later move costs no miss; 2^16 slots (512 KiB) cost it 5 % of serial's speed on
/// one thread.
const SLOTS_PER_PROCESSOR: usize = 512;

impl BusyTable {
    /// A table of `2^bits` slots, for processors numbered below `2^bits - 1`.
    pub fn new(bits: u32) -> BusyTable {
        BusyTable { slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect() }
    }

    /// A table sized for `processors` (numbered from 0), which its slots can all name.
    pub fn for_processors(processors: usize) -> BusyTable {
        BusyTable::new((processors * SLOTS_PER_PROCESSOR).next_power_of_two().trailing_zeros())
    }

    fn low_bits(&self) -> u64 {
        self.slots.len() as u64 - 1
    }

    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash & self.low_bits()) as usize]
    }

    /// The slot's word for `hash` marked by `processor`.
    fn word(&self, hash: u64, processor: usize) -> u64 {
        debug_assert!((processor as u64) < self.low_bits(), "processor {processor} does not fit the busy table");
        (hash & !self.low_bits()) | (processor as u64 + 1)
    }
}

/// One processor's hold on a shared busy table.
#[derive(Clone)]
pub struct BusyMarks {
    table: Arc<BusyTable>,
    processor: usize,
}

impl BusyMarks {
    /// `processor`'s marks in `table`.
    pub fn new(table: Arc<BusyTable>, processor: usize) -> BusyMarks {
        BusyMarks { table, processor }
    }

    /// Marks `hash` as being searched; `false` if the slot was taken (then the caller
    /// must not unmark it).
    pub fn mark(&self, hash: u64) -> bool {
        let word = self.table.word(hash, self.processor);
        self.table.slot(hash).compare_exchange(0, word, Relaxed, Relaxed).is_ok()
    }

    /// Clears a mark made by [`BusyMarks::mark`].
    pub fn unmark(&self, hash: u64) {
        let word = self.table.word(hash, self.processor);
        let _ = self.table.slot(hash).compare_exchange(word, 0, Relaxed, Relaxed);
    }

    /// Whether another processor is searching `hash`.
    pub fn busy_elsewhere(&self, hash: u64) -> bool {
        let word = self.table.slot(hash).load(Relaxed);
        let high = !self.table.low_bits();
        word != 0 && word & high == hash & high && word != self.table.word(hash, self.processor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_busy_for_the_others_only() {
        let table = Arc::new(BusyTable::new(4));
        let (p0, p1) = (BusyMarks::new(table.clone(), 0), BusyMarks::new(table, 1));
        assert!(p0.mark(0x1234));
        assert!(p1.busy_elsewhere(0x1234));
        assert!(!p0.busy_elsewhere(0x1234), "its own mark does not defer its own moves");
        assert!(!p1.mark(0x1234 + 16), "the slot is taken");
        assert!(!p1.busy_elsewhere(0x1234 + 16), "another position in the same slot");
        p1.unmark(0x1234);
        assert!(p1.busy_elsewhere(0x1234), "only the marking processor clears its mark");
        p0.unmark(0x1234);
        assert!(!p1.busy_elsewhere(0x1234));
    }

    #[test]
    fn every_processor_of_the_largest_machines_has_marks_of_its_own() {
        for processors in [1, 2, 1023, 1024] {
            let table = Arc::new(BusyTable::for_processors(processors));
            let last = BusyMarks::new(table.clone(), processors - 1);
            let first = BusyMarks::new(table, 0);
            let hash = 0x5eed_1234_5678_9abc;
            assert!(last.mark(hash), "{processors} processors");
            assert!(!last.busy_elsewhere(hash), "{processors} processors: its own mark");
            assert_eq!(first.busy_elsewhere(hash), processors > 1, "{processors} processors: another's mark");
        }
    }
}
