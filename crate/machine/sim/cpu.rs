//! What a step costs each simulated processor: its own node time, slowed by a background
//! load that varies over time (the other processes on a LAN workstation's run queues, as
//! in the CPU-availability experiments of PV-splitting; see `run_queue`). Node times are
//! integer nanoseconds and a deterministic function of (processor, time), so runs repeat
//! on every platform.

use super::run_queue::Load;
use crate::random::{mix, seeded};

/// Keeps the jitter's draws apart from the background load's (moved by the run's seed).
const JITTER_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// The processors' speeds.
#[derive(Clone, Debug)]
pub(super) struct Cpus {
    /// Nanoseconds per node, per processor.
    node_ns: Vec<u64>,
    /// Cost of a step that visited no node (handling messages, bookkeeping); at least 1
    /// so that virtual time always advances.
    step_ns: u64,
    load: Option<Load>,
    jitter_permille: u32,
    /// The jitter's draws for this run's seed: the same seed, the same node times.
    jitter_salt: u64,
}

impl Cpus {
    /// `processors` processors whose node times cycle through `pattern`, their jitter
    /// drawn for `seed`.
    pub(super) fn new(processors: usize, pattern: &[u64], step_ns: u64, load: Option<Load>, jitter_permille: u32, seed: u64) -> Cpus {
        let node_ns = (0..processors).map(|id| pattern[id % pattern.len()]).collect();
        Cpus { node_ns, step_ns: step_ns.max(1), load, jitter_permille: jitter_permille.min(999), jitter_salt: seeded(JITTER_SALT, seed) }
    }

    /// Processor `id`'s time per node when it has the whole CPU.
    pub(super) fn node_ns(&self, id: usize) -> u64 {
        self.node_ns[id]
    }

    /// What the machine's monitor predicts for processor `id`'s CPU share at time `t`,
    /// per mille (`None` on a machine without background load, whose CPUs are all the
    /// search's).
    pub(super) fn predicted_availability(&self, id: usize, t: u64) -> Option<u32> {
        self.load.map(|load| load.predicted(id, t))
    }

    /// What a step that visited `nodes` nodes, started at `t`, costs processor `id`.
    pub(super) fn cost(&self, id: usize, t: u64, nodes: u64) -> u64 {
        if nodes == 0 {
            return self.step_ns;
        }
        let mut full_speed = nodes * self.node_ns[id];
        if self.jitter_permille > 0 {
            let spread = 2 * self.jitter_permille as u64 + 1;
            let permille = 1000 - self.jitter_permille as u64 + mix(id as u64 ^ self.jitter_salt, t) % spread;
            full_speed = (full_speed * permille / 1000).max(1);
        }
        match self.load {
            None => full_speed,
            Some(load) => full_speed * 1000 / load.availability(id, t) as u64,
        }
    }
}
