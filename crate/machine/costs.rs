//! What a message costs on the threads machine, measured: the source of the `multicore`
//! and `browser` presets' message and wake-up constants (crate/machine/sim/presets.rs).
//! Natively `cargo run --release --example thread-costs` prints it; in the browser the
//! threaded wasm build's `threadCosts` export runs the same code on its web workers
//! (`node www/tests/thread-costs-wasm.mjs`).
//!
//! Processor 0 works (spins on the clock) for an interval, then sends a ping to processor
//! 1, which answers at once; processor 0 times the round trip, looking at its mailbox
//! without ever sleeping. Processor 1 has waited for the whole interval, so short
//! intervals find it still looking at its mailbox and long ones find it asleep (natively
//! a parked thread, in the browser a worker blocked in `memory.atomic.wait32`): the round
//! trip less the one at no interval is the price of waking it. The machine should be
//! quiet (both cores free); on a shared one the trimmed mean leaves out the round trips
//! another process's time slice lengthened.

use super::wire::WireError;
use super::{Activity, Counters, Machine, MessageKind, Payload, Processor, Program, Threads};
use crate::clock::now_us;
use std::sync::atomic::{AtomicBool, Ordering};

/// The intervals of waiting measured, microseconds: short ones where the waiting
/// processor still looks at its mailbox (`SPINS` in threads.rs), long ones where it
/// sleeps.
pub const WAITS_US: [u64; 22] = [0, 1, 2, 3, 5, 10, 20, 40, 60, 70, 80, 90, 100, 120, 140, 160, 200, 300, 500, 1000, 2000, 5000];

/// Round trips after one interval of waiting.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct RoundTrips {
    /// How long the answering processor waited before each ping, microseconds.
    pub waited_us: u64,
    /// How many round trips were timed.
    pub rounds: usize,
    /// Their median, microseconds.
    pub median_us: f64,
    /// Their mean, microseconds (in the browser the clock is coarsened with jitter, to
    /// 5 µs in a cross-origin isolated page: the mean of many stays true, a median does not).
    pub mean_us: f64,
    /// The mean of the fastest nine tenths, microseconds.
    pub trimmed_us: f64,
    /// The share of round trips under [`CAUGHT_US`]: how often the answering processor
    /// was still looking at its mailbox.
    pub caught_share: f64,
    /// The mean of those round trips, microseconds (0 when there were none).
    pub caught_mean_us: f64,
}

/// A round trip shorter than this found the answering processor looking at its mailbox:
/// far above a round trip between two looking processors (0.3–1.4 µs natively) and the
/// browser's clock grain (5 µs), below any wake-up measured (17 µs and more).
pub const CAUGHT_US: f64 = 10.0;

/// How many round trips to time after `waited_us` of waiting: many when they are quick,
/// a few hundred when each takes milliseconds (about 0.4 s of waiting per interval).
pub fn rounds_for(waited_us: u64) -> usize {
    match 400_000u64.checked_div(waited_us) {
        None => 20_000,
        Some(rounds) => rounds.clamp(300, 10_000) as usize,
    }
}

/// Round trips on `machine` for every interval of [`WAITS_US`].
pub fn measure(machine: &mut Threads) -> Vec<RoundTrips> {
    WAITS_US.iter().map(|&waited| round_trips(machine, waited, rounds_for(waited))).collect()
}

/// `rounds` round trips between two processors of `machine`, the answering one having
/// waited `waited_us` before each.
pub fn round_trips(machine: &mut Threads, waited_us: u64, rounds: usize) -> RoundTrips {
    assert!(rounds > 0, "at least one round trip");
    let counters = Counters::new(2);
    let done = AtomicBool::new(false);
    let mut pinger = Pinger { done: &done, interval_us: waited_us as f64, rounds, sent_at: None, round_trips: Vec::with_capacity(rounds) };
    machine.run(&mut pinger, vec![Box::new(Answerer { done: &done })], &counters);
    let mut trips = pinger.round_trips;
    trips.sort_by(f64::total_cmp);
    let mean = |trips: &[f64]| trips.iter().sum::<f64>() / trips.len() as f64;
    let fastest = &trips[..(trips.len() * 9).div_ceil(10)];
    let caught = &trips[..trips.partition_point(|&t| t < CAUGHT_US)];
    RoundTrips {
        waited_us,
        rounds: trips.len(),
        median_us: trips[trips.len() / 2],
        mean_us: mean(&trips),
        trimmed_us: mean(fastest),
        caught_share: caught.len() as f64 / trips.len() as f64,
        caught_mean_us: if caught.is_empty() { 0.0 } else { mean(caught) },
    }
}

/// The one message: a ping, or its answer.
struct Ping;

impl Payload for Ping {
    fn kind(&self) -> MessageKind {
        MessageKind::Work
    }
    fn encode(&self, out: &mut Vec<u8>) {
        out.push(0);
    }
    fn decode(_bytes: &[u8]) -> Result<Self, WireError> {
        Ok(Ping)
    }
}

/// Processor 0: `rounds` times, works for `interval_us`, pings and waits for the answer.
struct Pinger<'a> {
    done: &'a AtomicBool,
    interval_us: f64,
    rounds: usize,
    sent_at: Option<f64>,
    round_trips: Vec<f64>,
}

impl Program for Pinger<'_> {
    type Message = Ping;
    fn step(&mut self, processor: &mut dyn Processor<Ping>) -> Activity {
        if let Some(sent) = self.sent_at {
            // Still working, so that the machine never puts it to sleep: only
            // processor 1's waiting is measured.
            if processor.receive().is_none() {
                return Activity::Working;
            }
            self.round_trips.push(now_us() - sent);
            self.sent_at = None;
        }
        if self.round_trips.len() == self.rounds {
            self.done.store(true, Ordering::Relaxed);
            return Activity::Finished;
        }
        let working = now_us();
        while now_us() - working < self.interval_us {
            std::hint::spin_loop();
        }
        self.sent_at = Some(now_us());
        processor.send(1, Ping);
        Activity::Working
    }
    fn nodes(&self) -> u64 {
        0
    }
}

/// Processor 1: answers every ping until the pinger has finished.
struct Answerer<'a> {
    done: &'a AtomicBool,
}

impl Program for Answerer<'_> {
    type Message = Ping;
    fn step(&mut self, processor: &mut dyn Processor<Ping>) -> Activity {
        if self.done.load(Ordering::Relaxed) {
            return Activity::Finished;
        }
        match processor.receive() {
            Some((from, Ping)) => {
                processor.send(from, Ping);
                Activity::Working
            }
            None => Activity::Waiting,
        }
    }
    fn nodes(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_are_timed_and_take_at_least_the_time_to_answer() {
        let rows = round_trips(&mut Threads::default(), 0, 200);
        assert_eq!(rows.rounds, 200);
        assert!(rows.mean_us > 0.0 && rows.median_us > 0.0 && rows.mean_us.is_finite(), "{rows:?}");
        assert!(rows.trimmed_us <= rows.mean_us && rows.trimmed_us > 0.0, "the fastest nine tenths are no slower than all: {rows:?}");
        assert!((0.0..=1.0).contains(&rows.caught_share), "{rows:?}");
        assert!(rows.caught_mean_us < CAUGHT_US, "{rows:?}");
    }

    #[test]
    fn rounds_shrink_with_the_wait_but_never_below_three_hundred() {
        assert_eq!(rounds_for(0), 20_000);
        assert_eq!(rounds_for(1), 10_000);
        assert_eq!(rounds_for(1000), 400);
        assert_eq!(rounds_for(5000), 300);
    }
}
