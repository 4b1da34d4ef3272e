//! What a step costs each simulated processor: its own node time, slowed by a background
//! load that varies over time (the other users of a LAN's workstations, as in the
//! CPU-availability experiments of PV-splitting). Everything is integer nanoseconds and
//! a deterministic function of (processor, time), so runs repeat on every platform.

use crate::random::{mix, seeded};

/// Keeps the jitter's draws apart from the background load's (moved by the run's seed).
const JITTER_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// A background load: in each window of `period_ns` the processor gets a share of its
/// CPU between `min_permille` and `max_permille`, drawn by a hash of (processor, window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    /// Length of a window of constant availability.
    pub period_ns: u64,
    /// The least share of the CPU left to the search, per mille (1..=1000).
    pub min_permille: u32,
    /// The largest share, per mille (min..=1000).
    pub max_permille: u32,
}

impl Load {
    /// The share of its CPU processor `id` gives the search at time `t`, per mille.
    pub fn availability(&self, id: usize, t: u64) -> u32 {
        let window = t / self.period_ns.max(1);
        let spread = (self.max_permille - self.min_permille + 1) as u64;
        self.min_permille + (mix(id as u64, window) % spread) as u32
    }
}

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
