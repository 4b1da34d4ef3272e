//! What each rayon pool thread is doing, for the UI's worker view: whether it runs engine
//! work now, and the node count the search on it last reported. Kept in shared memory and
//! sampled by the engine worker, so watching never slows the search.
//!
//! Nodes come from the `info ... nodes N` lines a search emits on its own thread, so they
//! are per thread but only as fresh as the last report (once per iteration).
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::Serialize;

use super::events::{self, Event};

/// Most pool threads tracked (the engine worker starts at most this many).
const MAX_POOL_THREADS: usize = 64;

struct Slot {
    busy: AtomicBool,
    nodes: AtomicU64,
}

#[allow(clippy::declare_interior_mutable_const)]
const IDLE: Slot = Slot { busy: AtomicBool::new(false), nodes: AtomicU64::new(0) };
static SLOTS: [Slot; MAX_POOL_THREADS] = [IDLE; MAX_POOL_THREADS];

fn current_slot() -> Option<&'static Slot> {
    rayon::current_thread_index().and_then(|i| SLOTS.get(i))
}

/// Runs `job` with the current pool thread marked busy, its node count starting at 0.
pub fn tracked(job: impl FnOnce()) {
    let slot = current_slot();
    if let Some(slot) = slot {
        slot.nodes.store(0, Ordering::Relaxed);
        slot.busy.store(true, Ordering::Relaxed);
    }
    job();
    if let Some(slot) = slot {
        slot.busy.store(false, Ordering::Relaxed);
    }
}

/// Takes the node count from an `info` line emitted on a pool thread.
pub fn record(line: &str) {
    if let (Some(slot), Some(Event::Info { nodes: Some(nodes), .. })) = (current_slot(), events::parse(line)) {
        slot.nodes.store(nodes, Ordering::Relaxed);
    }
}

/// One pool thread as the UI shows it.
#[derive(Serialize)]
pub struct WorkerActivity {
    /// Running engine work now.
    pub busy: bool,
    /// Nodes its current (or last) search reported.
    pub nodes: u64,
}

/// Every pool thread, in pool order.
pub fn snapshot() -> Vec<WorkerActivity> {
    SLOTS[..rayon::current_num_threads().min(MAX_POOL_THREADS)]
        .iter()
        .map(|s| WorkerActivity { busy: s.busy.load(Ordering::Relaxed), nodes: s.nodes.load(Ordering::Relaxed) })
        .collect()
}
