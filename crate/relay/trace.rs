//! A session's trace: every join, leave, loss, search and frame, on the relay's own clock
//! (microseconds since the session was created), for the Lab to draw. Written to a file as
//! JSON lines when the relay has a trace folder, streamed to the owner in batches, and the
//! latest [`KEPT`] events kept in memory for `GET /class/<code>/trace`: a long class never
//! grows the relay's memory past that.

use super::protocol::Event;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

/// The most events a session keeps in memory; older ones are dropped (and counted).
pub const KEPT: usize = 200_000;

/// The most events one batch to the owner carries; the rest are counted, not streamed.
const BATCH: usize = 20_000;

/// A session's events: kept, pending for the owner's next batch, and written to a file.
pub struct Trace {
    created: Instant,
    kept: VecDeque<Event>,
    /// Events dropped from `kept` to bound it.
    dropped: u64,
    pending: Vec<Event>,
    /// Events left out of the owner's batches.
    unsent: u64,
    file: Option<BufWriter<File>>,
}

impl Trace {
    /// An empty trace whose clock starts at `created`, written to `file` if given.
    pub fn new(created: Instant, file: Option<File>) -> Trace {
        Trace {
            created,
            kept: VecDeque::new(),
            dropped: 0,
            pending: Vec::new(),
            unsent: 0,
            file: file.map(BufWriter::new),
        }
    }

    /// Stamps `event` with the time now and records it.
    pub fn record(&mut self, mut event: Event) {
        event.t = u64::try_from(self.created.elapsed().as_micros()).unwrap_or(u64::MAX);
        if let Some(file) = &mut self.file {
            let written = serde_json::to_writer(&mut *file, &event)
                .map_err(std::io::Error::from)
                .and_then(|()| file.write_all(b"\n"));
            if let Err(e) = written {
                eprintln!("relay: the trace file stops: {e}");
                self.file = None;
            }
        }
        if self.pending.len() < BATCH {
            self.pending.push(event.clone());
        } else {
            self.unsent += 1;
        }
        if self.kept.len() == KEPT {
            self.kept.pop_front();
            self.dropped += 1;
        }
        self.kept.push_back(event);
    }

    /// The events since the last batch and how many the batches have left out so far, if
    /// there are any new ones.
    pub fn batch(&mut self) -> Option<(Vec<Event>, u64)> {
        (!self.pending.is_empty()).then(|| (std::mem::take(&mut self.pending), self.unsent))
    }

    /// Counts a batch of `count` events the owner could not be sent.
    pub fn left_out(&mut self, count: u64) {
        self.unsent += count;
    }

    /// Writes what the file's buffer holds.
    pub fn flush(&mut self) {
        if let Some(Err(e)) = self.file.as_mut().map(BufWriter::flush) {
            eprintln!("relay: the trace file stops: {e}");
            self.file = None;
        }
    }

    /// A copy of the kept events, and how many older ones were dropped.
    pub fn snapshot(&self) -> (Vec<Event>, u64) {
        (self.kept.iter().cloned().collect(), self.dropped)
    }
}

/// `events` as JSON lines.
pub fn lines(events: &[Event]) -> String {
    let mut text = String::new();
    for event in events {
        text.push_str(&serde_json::to_string(event).unwrap_or_default());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relay::protocol::Ev;

    #[test]
    fn the_trace_keeps_the_latest_events_and_batches_what_is_new() {
        let mut trace = Trace::new(Instant::now(), None);
        for member in 0..KEPT as u32 + 3 {
            trace.record(Event { member: Some(member), ..Event::new(Ev::Join) });
        }
        let (kept, dropped) = trace.snapshot();
        let lines = lines(&kept);
        assert_eq!((lines.lines().count(), dropped), (KEPT, 3));
        assert!(
            lines.starts_with(r#"{"t":"#)
                && lines.lines().next().is_some_and(|l| l.ends_with(r#""ev":"join","member":3}"#)),
            "{}",
            &lines[..80]
        );
        let (events, unsent) = trace.batch().unwrap();
        assert_eq!((events.len(), unsent), (BATCH, KEPT as u64 + 3 - BATCH as u64));
        assert!(trace.batch().is_none(), "nothing new");
    }
}
