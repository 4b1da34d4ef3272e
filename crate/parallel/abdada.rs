//! ABDADA (Weill 1996, in the simplified form of a busy table): processors search the
//! same iterations over the shared table; entering a node marks its position busy, and a
//! processor that meets a busy position as a later move at some node defers it to the end
//! of that node's move list, by when the other processor's result is usually in the table.
//!
//! Odd helpers start one ply ahead, as in Lazy SMP: a helper that reaches an iteration
//! first leaves table entries the others skip through, and the busy table then spreads
//! them over different moves. On the simulator's 2-core machine this beat ABDADA with
//! every processor on the same iteration in 5 of 6 suite, depth and table-size settings
//! (mean SPE 1.70 against 1.56; Lazy SMP 1.60).
//!
//! Shared state: the table and the busy table (`crate::tt::BusyTable`). Invariants:
//! a deferred move is still searched (only order changes); processor 0 decides the move.

pub(super) use super::lazysmp::depth_offset;
use crate::search::Searcher;
use crate::tt::{BusyMarks, BusyTable};
use std::sync::Arc;

/// Busy-table slots per processor. Only the nodes on a processor's path are marked, a few
/// dozen at once, so with this many a mark is rarely refused for a taken slot. On 2
/// processors the table is 2^10 slots (8 KiB) and stays in the first-level cache, where
/// the look at every later move costs no miss; 2^16 slots (512 KiB) cost ABDADA 5 % of
/// serial's speed on one thread.
const SLOTS_PER_PROCESSOR: usize = 512;

/// Bits of the busy table for `processors`. They also hold each slot's marking processor
/// (its number plus one, in the bits the slot index implies).
fn busy_bits(processors: usize) -> u32 {
    (processors * SLOTS_PER_PROCESSOR).next_power_of_two().trailing_zeros()
}

/// Gives every processor the same fresh busy table (all start at depth 1).
pub(super) fn share_busy_table(main: &mut Searcher, helpers: &mut [Searcher]) {
    let busy = Arc::new(BusyTable::new(busy_bits(helpers.len() + 1)));
    main.set_busy_table(Some(BusyMarks::new(busy.clone(), 0)));
    for (i, h) in helpers.iter_mut().enumerate() {
        h.set_busy_table(Some(BusyMarks::new(busy.clone(), i + 1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_processor_of_the_largest_machines_has_marks_of_its_own() {
        for processors in [1, 2, 1023, 1024] {
            let table = Arc::new(BusyTable::new(busy_bits(processors)));
            let last = BusyMarks::new(table.clone(), processors - 1);
            let first = BusyMarks::new(table, 0);
            let hash = 0x5eed_1234_5678_9abc;
            assert!(last.mark(hash), "{processors} processors");
            assert!(!last.busy_elsewhere(hash), "{processors} processors: its own mark");
            assert_eq!(first.busy_elsewhere(hash), processors > 1, "{processors} processors: another's mark");
        }
    }
}
