//! Per-processor counters kept in shared memory: the search writes them now and then,
//! and anyone (the UI, the UCI layer) samples them while it runs, without locks, so
//! watching never slows the search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// One processor's counters.
#[derive(Default)]
struct Slot {
    nodes: AtomicU64,
    busy_us: AtomicU64,
    idle_us: AtomicU64,
    working: AtomicBool,
}

/// Counters of every processor of a machine.
pub struct Counters {
    slots: Box<[Slot]>,
}

/// A copy of one processor's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessorSnapshot {
    /// Positions visited in the current search.
    pub nodes: u64,
    /// Microseconds spent working in the current search.
    pub busy_us: u64,
    /// Microseconds spent waiting for the others in the current search.
    pub idle_us: u64,
    /// Whether it is working right now.
    pub working: bool,
}

impl Counters {
    /// Counters for up to `processors` processors.
    pub fn new(processors: usize) -> Counters {
        Counters { slots: (0..processors.max(1)).map(|_| Slot::default()).collect() }
    }

    /// How many processors the counters cover.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no processors (never: at least one slot exists).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Zeroes every counter for a new search.
    pub fn reset(&self) {
        for s in self.slots.iter() {
            s.nodes.store(0, Relaxed);
            s.busy_us.store(0, Relaxed);
            s.idle_us.store(0, Relaxed);
            s.working.store(false, Relaxed);
        }
    }

    pub(super) fn set_nodes(&self, id: usize, nodes: u64) {
        self.slots[id].nodes.store(nodes, Relaxed);
    }

    pub(super) fn set_working(&self, id: usize, working: bool) {
        self.slots[id].working.store(working, Relaxed);
    }

    pub(super) fn add_time(&self, id: usize, busy_us: u64, idle_us: u64) {
        self.slots[id].busy_us.fetch_add(busy_us, Relaxed);
        self.slots[id].idle_us.fetch_add(idle_us, Relaxed);
    }

    /// Positions visited by all processors.
    pub fn total_nodes(&self) -> u64 {
        self.slots.iter().map(|s| s.nodes.load(Relaxed)).sum()
    }

    /// A copy of every processor's counters.
    pub fn snapshot(&self) -> Vec<ProcessorSnapshot> {
        self.slots
            .iter()
            .map(|s| ProcessorSnapshot {
                nodes: s.nodes.load(Relaxed),
                busy_us: s.busy_us.load(Relaxed),
                idle_us: s.idle_us.load(Relaxed),
                working: s.working.load(Relaxed),
            })
            .collect()
    }
}
