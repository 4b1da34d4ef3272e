//! The loop that steps one program on a processor of a real machine (a thread, or a
//! cluster's rank) and keeps its counters: busy time while it works, idle time while it
//! waits for messages, its node count and line now and then.

use super::{Activity, Counters, Payload, Processor, Program};
use crate::clock::now_ms;

/// Steps between two updates of a processor's node counter.
const PUBLISH_INTERVAL: u32 = 256;

/// What the driver needs of a real machine's processor besides being one.
pub(super) trait Driven<M>: Processor<M> {
    /// Waits briefly for a message (the program has nothing to do until one comes).
    fn wait(&mut self);
    /// The program's node count, now and then (a cluster's rank passes it on to rank 0).
    fn nodes_published(&mut self, _nodes: u64) {}
}

/// Steps `program` on `processor` to its end, keeping its counters in `counters`;
/// returns the time it finished.
pub(super) fn drive<M: Payload>(program: &mut dyn Program<Message = M>, processor: &mut impl Driven<M>, counters: &Counters) -> f64 {
    let id = processor.id();
    counters.set_working(id, true);
    let mut working = true;
    let mut since = now_ms();
    let mut until_publish = PUBLISH_INTERVAL;
    loop {
        // A waiting processor's step that finds work works from its start: a step does
        // up to a few dozen nodes, which would otherwise count as idle time.
        let started = if working { None } else { Some(now_ms()) };
        let activity = program.step(processor);
        if activity == Activity::Finished {
            break;
        }
        let now_working = activity == Activity::Working;
        if now_working != working {
            let now = started.filter(|_| now_working).unwrap_or_else(now_ms);
            add_time(counters, id, working, now - since);
            (working, since) = (now_working, now);
            counters.set_working(id, working);
        }
        if !working {
            processor.wait();
        }
        until_publish -= 1;
        if until_publish == 0 {
            counters.set_nodes(id, program.nodes());
            counters.set_line(id, if working { program.line() } else { None });
            processor.nodes_published(program.nodes());
            until_publish = PUBLISH_INTERVAL;
        }
    }
    let end = now_ms();
    add_time(counters, id, working, end - since);
    counters.set_nodes(id, program.nodes());
    counters.set_line(id, None);
    counters.set_working(id, false);
    end
}

/// Adds `ms` to processor `id`'s busy time if it was working, else to its idle time.
pub(super) fn add_time(counters: &Counters, id: usize, working: bool, ms: f64) {
    let us = (ms.max(0.0) * 1000.0) as u64;
    if working {
        counters.add_busy(id, us);
    } else {
        counters.add_idle(id, us);
    }
}
