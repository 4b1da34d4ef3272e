//! The offer board: one slot per processor in memory every processor reads, where each
//! posts the size (remaining depth) of the largest job it could hand out now. An idle
//! processor reads the board and asks the best offer for work instead of polling
//! processors at random or broadcasting for help: the published split points of
//! shared-memory engines (Crafty, Stockfish before Lazy SMP, DTS's shared tree state).
//! Only machines with shared memory have one (see [`super::Processor::best_offer`]).
//!
//! Race contract: slots are written only by their processor and read racily by the
//! others; an offer read may be gone by the time its owner is asked, and the owner then
//! answers NO-WORK or holds the request, as for any work request.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// A slot's value when its processor offers nothing.
const NOTHING: i32 = i32::MIN;

/// Slots of four bytes share a cache line of 64.
const SLOTS_PER_LINE: usize = 16;

/// One offer slot per processor.
pub(crate) struct OfferBoard {
    slots: Vec<AtomicI32>,
}

impl OfferBoard {
    /// A board for `count` processors, all offering nothing.
    pub(crate) fn new(count: usize) -> OfferBoard {
        OfferBoard { slots: (0..count).map(|_| AtomicI32::new(NOTHING)).collect() }
    }

    /// Processor `id` offers a job of `offer` plies (`None`: nothing). Returns whether the
    /// slot changed (a write other processors' caches must see).
    pub(crate) fn post(&self, id: usize, offer: Option<i32>) -> bool {
        let value = offer.unwrap_or(NOTHING);
        self.slots[id].load(Relaxed) != value && {
            self.slots[id].store(value, Relaxed);
            true
        }
    }

    /// The processor other than `id` with the largest offer (the lowest numbered among
    /// equals) and its offer, if anyone offers anything.
    pub(crate) fn best_other(&self, id: usize) -> Option<(usize, i32)> {
        let offers = self.slots.iter().map(|s| s.load(Relaxed)).enumerate().filter(|&(p, v)| p != id && v != NOTHING);
        offers.max_by_key(|&(p, v)| (v, std::cmp::Reverse(p)))
    }

    /// Cache lines a reader of the whole board reads.
    pub(crate) fn lines(&self) -> u64 {
        self.slots.len().div_ceil(SLOTS_PER_LINE) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_offer_is_the_largest_other_than_ones_own() {
        let board = OfferBoard::new(40);
        assert_eq!(board.best_other(0), None);
        assert!(board.post(3, Some(5)));
        assert!(!board.post(3, Some(5)), "posting the same offer again changes nothing");
        assert!(board.post(7, Some(9)));
        assert!(board.post(9, Some(9)));
        assert_eq!(board.best_other(0), Some((7, 9)));
        assert_eq!(board.best_other(7), Some((9, 9)));
        assert!(board.post(7, None));
        assert_eq!(board.best_other(9), Some((3, 5)));
        assert_eq!(board.lines(), 3);
    }
}
