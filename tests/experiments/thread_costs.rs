//! What a message costs on the threads machine, measured: the source of the `multicore`
//! preset's message and wake-up constants (crate/machine/sim/presets.rs).
//!
//!     cargo run --release --example thread-costs
//!
//! Processor 0 works (spins on the clock) for an interval, then sends a ping to processor
//! 1, which answers at once; processor 0 times the round trip. Processor 1 has waited for
//! the whole interval, so short intervals find it still looking at its mailbox and long
//! ones find it asleep: the round trip less the spinning one is the price of waking it.
//! The machine should be quiet (both cores free).

use meshmate::machine::{Activity, Counters, Machine, MessageKind, Payload, Processor, Program, Threads};
use meshmate::machine::wire::WireError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

/// Processor 0: `rounds` times, works for `interval`, pings and waits for the answer.
struct Pinger<'a> {
    done: &'a AtomicBool,
    interval: Duration,
    rounds: usize,
    sent_at: Option<Instant>,
    round_trips: Vec<Duration>,
}

impl Program for Pinger<'_> {
    type Message = Ping;
    fn step(&mut self, processor: &mut dyn Processor<Ping>) -> Activity {
        if let Some(sent) = self.sent_at {
            if processor.receive().is_none() {
                return Activity::Waiting;
            }
            self.round_trips.push(sent.elapsed());
            self.sent_at = None;
        }
        if self.round_trips.len() == self.rounds {
            self.done.store(true, Ordering::Relaxed);
            return Activity::Finished;
        }
        let working = Instant::now();
        while working.elapsed() < self.interval {
            std::hint::spin_loop();
        }
        self.sent_at = Some(Instant::now());
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

/// The median and the mean round trip after `interval` of waiting, in microseconds.
fn round_trip(machine: &mut Threads, interval: Duration, rounds: usize) -> (f64, f64) {
    let counters = Counters::new(2);
    let done = AtomicBool::new(false);
    let mut pinger = Pinger { done: &done, interval, rounds, sent_at: None, round_trips: Vec::with_capacity(rounds) };
    machine.run(&mut pinger, vec![Box::new(Answerer { done: &done })], &counters);
    let mut trips: Vec<f64> = pinger.round_trips.iter().map(|t| t.as_secs_f64() * 1e6).collect();
    trips.sort_by(f64::total_cmp);
    (trips[trips.len() / 2], trips.iter().sum::<f64>() / trips.len() as f64)
}

fn main() {
    let mut machine = Threads::default();
    println!("{:>12} {:>12} {:>12} {:>20}", "waited µs", "median µs", "mean µs", "mean wake-up µs");
    let (median, spinning) = round_trip(&mut machine, Duration::ZERO, 20_000);
    println!("{:>12} {:>12.2} {:>12.2}", 0, median, spinning);
    for waited in [10, 20, 40, 60, 70, 80, 90, 100, 120, 140, 160, 200, 300, 500, 1000, 2000] {
        let rounds = (400_000 / waited).clamp(300, 10_000);
        let (median, mean) = round_trip(&mut machine, Duration::from_micros(waited), rounds as usize);
        println!("{:>12} {:>12.2} {:>12.2} {:>20.2}", waited, median, mean, mean - spinning);
    }
}
