//! A workstation's background load as processes on each logical processor's run queue,
//! and the CPU share a new CPU-bound process (a search worker) gets beside them.
//!
//! CITE: the static availability model of M. Beltrán, A. Guzmán and J. L. Bosque, "A new
//! CPU availability prediction model for time-shared systems", IEEE Transactions on
//! Computers 57(7), 2008, as K. S. Hasan's PV-splitting on unequal PCs prints it
//! ("A Distributed Chess Playing Software System Model Using Dynamic CPU Availability
//! Prediction", University of Oklahoma, Equations (1) and (2); see
//! ../shared/data/published-figures.md, section 3). The simulator takes this model as the
//! truth: a worker gets the share the equations give for its run queue now, and Hasan's
//! monitor, which reads the queues every period T, predicts from the queue it last read.

use crate::random::mix;

/// Keeps the load's draws apart from other uses of the same (processor, window) hash.
const LOAD_SALT: u64 = 0x3c6e_f372_fe94_f82b;

/// I/O-bound processes a run queue holds at most (a fixed array: the simulator draws a
/// queue at every step, and allocates nothing to do so).
pub const MAX_IO_BOUND: usize = 8;

/// The background processes on one logical processor's run queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunQueue {
    /// CPU-bound processes (always ready to run): `n` in Equation (1).
    pub cpu_bound: u32,
    /// Unloaded CPU usage Û of each I/O-bound process (0..1), the first `io_count`.
    io_slots: [f64; MAX_IO_BOUND],
    io_count: usize,
}

impl RunQueue {
    /// A queue of `cpu_bound` CPU-bound processes and I/O-bound ones of unloaded usages
    /// `io_usage` (at most [`MAX_IO_BOUND`]; more are left out).
    pub fn new(cpu_bound: u32, io_usage: &[f64]) -> RunQueue {
        let io_count = io_usage.len().min(MAX_IO_BOUND);
        let mut io_slots = [0.0; MAX_IO_BOUND];
        io_slots[..io_count].copy_from_slice(&io_usage[..io_count]);
        RunQueue { cpu_bound, io_slots, io_count }
    }

    /// The unloaded usages Û of the I/O-bound processes: `m` of them.
    pub fn io_usage(&self) -> &[f64] {
        &self.io_slots[..self.io_count]
    }

    /// Equation (2): the CPU usage U_i of I/O-bound process `i` once a new CPU-bound
    /// process shares the processor, from the unloaded usages Û:
    /// U_i = Û_i / (1 + Σ_j Û_j) + Û_i² / (m + 1) · Σ_{j≠i} (1 − Û_j).
    /// (The first sum runs over all m processes as printed: the 1 is the new process's
    /// demand, so a lone I/O-bound process gives up part of its usage to it.)
    pub fn shared_io_usage(&self, i: usize) -> f64 {
        let u = self.io_usage();
        let m = u.len() as f64;
        let total: f64 = u.iter().sum();
        let others: f64 = u.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &uj)| 1.0 - uj).sum();
        u[i] / (1.0 + total) + u[i] * u[i] / (m + 1.0) * others
    }

    /// Equation (1): the share of the processor a new CPU-bound process gets,
    /// α = (1 − Σ U_i) / (n + 1) over the m I/O-bound processes, at least 1 / (n + m + 1).
    pub fn availability(&self) -> f64 {
        let (n, m) = (self.cpu_bound as f64, self.io_count as f64);
        let io: f64 = (0..self.io_count).map(|i| self.shared_io_usage(i)).sum();
        ((1.0 - io) / (n + 1.0)).max(1.0 / (n + m + 1.0))
    }

    /// [`RunQueue::availability`] in per mille (1..=1000), as the simulator charges it.
    pub fn availability_permille(&self) -> u32 {
        ((self.availability() * 1000.0).round() as u32).clamp(1, 1000)
    }
}

/// A background load that changes over time: in each window of `period_ns` the run queue
/// of each logical processor is drawn afresh (by a hash of processor and window), and a
/// monitor reads every queue each `monitor_period_ns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    /// How long a run queue keeps its processes.
    pub period_ns: u64,
    /// Chance per mille that a window's queue holds one CPU-bound process (else none).
    pub cpu_bound_permille: u32,
    /// I/O-bound processes on a queue: 0 to this many, evenly (at most [`MAX_IO_BOUND`]).
    pub max_io_bound: u32,
    /// The range of an I/O-bound process's unloaded usage Û, per mille.
    pub io_usage_permille: (u32, u32),
    /// The monitor's period T: its prediction is the availability of the queue it read
    /// last, at the latest multiple of T.
    pub monitor_period_ns: u64,
}

impl Load {
    /// The run queue of logical processor `id` at time `t`.
    pub fn run_queue(&self, id: usize, t: u64) -> RunQueue {
        let window = t / self.period_ns.max(1);
        let draw = |k: u64| mix(mix(id as u64 ^ LOAD_SALT, window), k);
        let cpu_bound = u32::from(draw(0) % 1000 < self.cpu_bound_permille as u64);
        let io_count = (draw(1) % (self.max_io_bound as u64 + 1)) as usize;
        let (low, high) = self.io_usage_permille;
        let mut io_slots = [0.0; MAX_IO_BOUND];
        for (k, slot) in io_slots.iter_mut().enumerate().take(io_count.min(MAX_IO_BOUND)) {
            *slot = (low as u64 + draw(2 + k as u64) % (high.saturating_sub(low) as u64 + 1)) as f64 / 1000.0;
        }
        RunQueue { cpu_bound, io_slots, io_count: io_count.min(MAX_IO_BOUND) }
    }

    /// The share of its CPU processor `id` gives the search at time `t`, per mille.
    pub fn availability(&self, id: usize, t: u64) -> u32 {
        self.run_queue(id, t).availability_permille()
    }

    /// What the monitor predicts at time `t` for processor `id`, per mille: the
    /// availability of the queue it read at the last multiple of its period.
    pub fn predicted(&self, id: usize, t: u64) -> u32 {
        let period = self.monitor_period_ns.max(1);
        self.availability(id, t / period * period)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(cpu_bound: u32, io_usage: &[f64]) -> RunQueue {
        RunQueue::new(cpu_bound, io_usage)
    }

    /// Equations (1) and (2) on queues worked by hand.
    #[test]
    fn availability_follows_equations_1_and_2() {
        // An empty queue leaves the whole processor; two CPU-bound processes a third.
        assert_eq!(queue(0, &[]).availability(), 1.0);
        assert!((queue(2, &[]).availability() - 1.0 / 3.0).abs() < 1e-12);
        // n = 1, Û = 0.2 and 0.1: U_1 = 0.2/1.3 + 0.04/3 * 0.9 = 0.165846...,
        // U_2 = 0.1/1.3 + 0.01/3 * 0.8 = 0.079590..., α = (1 - 0.245436) / 2 = 0.377282.
        let q = queue(1, &[0.2, 0.1]);
        assert!((q.shared_io_usage(0) - 0.165_846_2).abs() < 1e-6);
        assert!((q.shared_io_usage(1) - 0.079_589_7).abs() < 1e-6);
        assert!((q.availability() - 0.377_282).abs() < 1e-6);
        assert_eq!(q.availability_permille(), 377);
        // A lone I/O-bound process of Û = 0.25 keeps 0.25/1.25 = 0.2: α = 0.8.
        assert!((queue(0, &[0.25]).availability() - 0.8).abs() < 1e-12);
        // Three busy I/O-bound processes (Û = 0.9): U_i = 0.9/3.7 + 0.81/4 * 0.2 = 0.283743,
        // 1 - ΣU = 0.148770 falls under the floor 1/(0 + 3 + 1).
        assert_eq!(queue(0, &[0.9, 0.9, 0.9]).availability(), 0.25);
    }

    /// The load is a function of (processor, window); the monitor lags by up to T.
    #[test]
    fn the_monitor_predicts_from_the_queue_it_read_last() {
        let load = Load { period_ns: 1_000, cpu_bound_permille: 500, max_io_bound: 3, io_usage_permille: (10, 300), monitor_period_ns: 400 };
        assert_eq!(load.run_queue(3, 1_000), load.run_queue(3, 1_999));
        // At 2_100 the monitor last read at 2_000, so it sees the window then running.
        assert_eq!(load.predicted(1, 2_100), load.availability(1, 2_000));
        // Between a change of window and the next reading the prediction is the old one.
        for id in 0..8 {
            assert_eq!(load.predicted(id, 3_050), load.availability(id, 2_999));
        }
        let queues: Vec<RunQueue> = (0..64).map(|w| load.run_queue(0, w * 1_000)).collect();
        assert!(queues.iter().any(|q| q.cpu_bound == 1) && queues.iter().any(|q| q.cpu_bound == 0));
        assert!(queues.iter().all(|q| q.io_usage().len() <= 3 && q.io_usage().iter().all(|&u| (0.01..=0.3).contains(&u))));
    }
}
