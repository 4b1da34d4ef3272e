//! The loop that steps one program on a processor of a real machine (a thread, or a
//! cluster's rank) and keeps its counters: busy time while it works, idle time while it
//! waits for messages, its node count and line now and then.

use super::{Activity, Counters, Payload, Processor, Program};
use crate::clock::now_ms;
use crate::search::TreePath;

/// Steps between two updates of a processor's node counter.
const PUBLISH_INTERVAL: u32 = 256;

/// What the driver needs of a real machine's processor besides being one.
pub(super) trait Driven<M>: Processor<M> {
    /// Waits briefly for a message (the program has nothing to do until one comes).
    fn wait(&mut self);
    /// The program's node count and line, now and then (a cluster's rank passes them on
    /// to rank 0).
    fn nodes_published(&mut self, _nodes: u64, _line: Option<TreePath>) {}
}

/// Steps `program` on `processor` to its end, keeping its counters in `counters`;
/// returns the time it finished.
pub(super) fn drive<M: Payload>(program: &mut dyn Program<Message = M>, processor: &mut impl Driven<M>, counters: &Counters) -> f64 {
    let mut drive = Drive::begin(processor.id(), counters);
    while let Some(activity) = drive.step(program, processor, counters) {
        if activity == Activity::Waiting {
            processor.wait();
        }
    }
    drive.end(program, counters)
}

/// The bookkeeping of one program's run between its steps: whether it works, since
/// when, and when its node count is next published. [`drive`] runs it to the end on a
/// thread that may block; a host that must go back to its event loop between steps (the
/// browser's single build) steps it in slices.
pub(super) struct Drive {
    id: usize,
    working: bool,
    since: f64,
    until_publish: u32,
}

impl Drive {
    /// Processor `id` starts its program (working until its first step says otherwise).
    pub(super) fn begin(id: usize, counters: &Counters) -> Drive {
        counters.set_working(id, true);
        Drive { id, working: true, since: now_ms(), until_publish: PUBLISH_INTERVAL }
    }

    /// One step of `program`: what it left behind, or `None` once it has finished (then
    /// call [`Drive::end`]). After [`Activity::Waiting`] the caller waits for a message.
    pub(super) fn step<M: Payload>(&mut self, program: &mut dyn Program<Message = M>, processor: &mut impl Driven<M>, counters: &Counters) -> Option<Activity> {
        // A waiting processor's step that finds work works from its start: a step does
        // up to a few dozen nodes, which would otherwise count as idle time.
        let started = if self.working { None } else { Some(now_ms()) };
        let activity = program.step(processor);
        if activity == Activity::Finished {
            return None;
        }
        let now_working = activity == Activity::Working;
        if now_working != self.working {
            let now = started.filter(|_| now_working).unwrap_or_else(now_ms);
            add_time(counters, self.id, self.working, now - self.since);
            (self.working, self.since) = (now_working, now);
            counters.set_working(self.id, self.working);
        }
        self.until_publish -= 1;
        if self.until_publish == 0 {
            let line = if self.working { program.line() } else { None };
            counters.set_nodes(self.id, program.nodes());
            counters.set_line(self.id, line);
            processor.nodes_published(program.nodes(), line);
            self.until_publish = PUBLISH_INTERVAL;
        }
        Some(activity)
    }

    /// The program has finished: its last times and count into the counters; returns
    /// the time it finished.
    pub(super) fn end<M: Payload>(self, program: &dyn Program<Message = M>, counters: &Counters) -> f64 {
        let end = now_ms();
        add_time(counters, self.id, self.working, end - self.since);
        counters.set_nodes(self.id, program.nodes());
        counters.set_line(self.id, None);
        counters.set_working(self.id, false);
        end
    }
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
