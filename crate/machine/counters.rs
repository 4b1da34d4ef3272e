//! Per-processor counters kept in shared memory: the search writes them now and then,
//! and anyone (the UI, the UCI layer) samples them while it runs, without locks, so
//! watching never slows the search.

use super::message::MessageKind;
use super::Note;
use crate::search::TreePath;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// One processor's counters, on cache lines of its own (a processor writing its counters
/// must not stall its neighbour writing theirs).
#[derive(Default)]
#[repr(align(128))]
struct Slot {
    nodes: AtomicU64,
    busy_us: AtomicU64,
    idle_us: AtomicU64,
    working: AtomicBool,
    sent: [AtomicU64; MessageKind::COUNT],
    received: [AtomicU64; MessageKind::COUNT],
    splits: AtomicU64,
    aborted_nodes: AtomicU64,
    asked_ahead: AtomicU64,
    /// The line it is on: [`TreePath::packed`] with [`LINE_PRESENT`] set, or 0 for none.
    line: AtomicU64,
}

/// Marks a stored line (a packed path never uses the top bit).
const LINE_PRESENT: u64 = 1 << 63;

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
    /// Microseconds spent idle or waiting for others in the current search.
    pub idle_us: u64,
    /// Whether it is working right now.
    pub working: bool,
    /// Messages sent, by kind (indexed by [`MessageKind::index`]).
    pub sent: [u64; MessageKind::COUNT],
    /// Messages received, by kind.
    pub received: [u64; MessageKind::COUNT],
    /// Times it handed part of its tree to another processor.
    pub splits: u64,
    /// Nodes of subproblems abandoned because a cutoff made them useless.
    pub aborted_nodes: u64,
    /// Work requests sent before its job had ended ([`Note::AskedAhead`]), counted where
    /// the program runs (a cluster's ranks and a class's members do not report them).
    pub asked_ahead: u64,
    /// The first plies of the line it was on when last sampled, from the root.
    pub line: Option<TreePath>,
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
            for counter in [&s.nodes, &s.busy_us, &s.idle_us, &s.splits, &s.aborted_nodes, &s.asked_ahead, &s.line].into_iter().chain(&s.sent).chain(&s.received) {
                counter.store(0, Relaxed);
            }
            s.working.store(false, Relaxed);
        }
    }

    pub(super) fn set_nodes(&self, id: usize, nodes: u64) {
        self.slots[id].nodes.store(nodes, Relaxed);
    }

    pub(super) fn set_line(&self, id: usize, line: Option<TreePath>) {
        self.slots[id].line.store(line.map_or(0, |l| l.packed() | LINE_PRESENT), Relaxed);
    }

    pub(super) fn set_working(&self, id: usize, working: bool) {
        self.slots[id].working.store(working, Relaxed);
    }

    pub(super) fn add_busy(&self, id: usize, us: u64) {
        self.slots[id].busy_us.fetch_add(us, Relaxed);
    }

    pub(super) fn add_idle(&self, id: usize, us: u64) {
        self.slots[id].idle_us.fetch_add(us, Relaxed);
    }

    pub(super) fn count_sent(&self, id: usize, kind: MessageKind) {
        self.slots[id].sent[kind.index()].fetch_add(1, Relaxed);
    }

    pub(super) fn count_received(&self, id: usize, kind: MessageKind) {
        self.slots[id].received[kind.index()].fetch_add(1, Relaxed);
    }

    /// Adds messages of `kind` that processor `id` sent and received outside its program
    /// (a cluster's table lookups, made inside a searcher's step).
    #[cfg_attr(not(feature = "cluster"), allow(dead_code))]
    pub(super) fn add_messages(&self, id: usize, kind: MessageKind, sent: u64, received: u64) {
        self.slots[id].sent[kind.index()].fetch_add(sent, Relaxed);
        self.slots[id].received[kind.index()].fetch_add(received, Relaxed);
    }

    pub(super) fn note(&self, id: usize, note: Note) {
        match note {
            Note::Split => self.slots[id].splits.fetch_add(1, Relaxed),
            Note::Aborted(nodes) => self.slots[id].aborted_nodes.fetch_add(nodes, Relaxed),
            Note::AskedAhead => self.slots[id].asked_ahead.fetch_add(1, Relaxed),
        };
    }

    /// Sets processor `id`'s counters to `s` (a cluster's rank reports its own at the end
    /// of a search; its line is not reported).
    #[cfg_attr(not(feature = "cluster"), allow(dead_code))]
    pub(super) fn set_snapshot(&self, id: usize, s: &ProcessorSnapshot) {
        let slot = &self.slots[id];
        for (counter, value) in [(&slot.nodes, s.nodes), (&slot.busy_us, s.busy_us), (&slot.idle_us, s.idle_us), (&slot.splits, s.splits), (&slot.aborted_nodes, s.aborted_nodes)] {
            counter.store(value, Relaxed);
        }
        for (counter, &value) in slot.sent.iter().zip(&s.sent).chain(slot.received.iter().zip(&s.received)) {
            counter.store(value, Relaxed);
        }
        slot.working.store(false, Relaxed);
    }

    /// Positions visited by all processors.
    pub fn total_nodes(&self) -> u64 {
        self.slots.iter().map(|s| s.nodes.load(Relaxed)).sum()
    }

    /// A copy of every processor's counters.
    pub fn snapshot(&self) -> Vec<ProcessorSnapshot> {
        let load = |counters: &[AtomicU64; MessageKind::COUNT]| std::array::from_fn(|k| counters[k].load(Relaxed));
        self.slots
            .iter()
            .map(|s| ProcessorSnapshot {
                nodes: s.nodes.load(Relaxed),
                busy_us: s.busy_us.load(Relaxed),
                idle_us: s.idle_us.load(Relaxed),
                working: s.working.load(Relaxed),
                sent: load(&s.sent),
                received: load(&s.received),
                splits: s.splits.load(Relaxed),
                aborted_nodes: s.aborted_nodes.load(Relaxed),
                asked_ahead: s.asked_ahead.load(Relaxed),
                line: match s.line.load(Relaxed) {
                    0 => None,
                    packed => Some(TreePath::from_packed(packed & !LINE_PRESENT)),
                },
            })
            .collect()
    }
}
