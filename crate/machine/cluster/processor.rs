//! One rank's processor: the program's view of the cluster ([`Processor`]), stepped by
//! the real machines' driver (`machine::drive`) as a thread's is.

use super::transport::{frame, Frame, FrameKind, Wire};
use crate::clock::now_ms;
use crate::random::Random;
use crate::machine::wire::{Reader, WireError, Writer};
use crate::machine::drive::Driven;
use crate::machine::{Counters, MessageKind, Note, Payload, Processor, ProcessorSnapshot};
use crate::search::Control;
use std::collections::VecDeque;
use std::time::Duration;

/// How often a rank tells rank 0 its node count (for `info nodes` and `go nodes`).
const NODES_REPORT_MS: f64 = 100.0;

/// Looks for a frame before a waiting processor sleeps (an answer often comes within
/// microseconds; a nap costs more than a small subtree's search).
const SPINS: u32 = 2_000;

/// How long a waiting processor sleeps between looks.
const NAP: Duration = Duration::from_micros(50);

/// A rank's processor during one search.
pub(super) struct MpiProcessor<'a, M> {
    wire: &'a mut Wire,
    id: usize,
    count: usize,
    search: u32,
    counters: &'a Counters,
    /// Program messages taken off the wire and not yet handed to the program.
    inbox: VecDeque<(usize, M)>,
    /// A helper's stop signal, set when rank 0 says FINISHED (`None` on rank 0).
    stop: Option<&'a Control>,
    finished: bool,
    /// Its own stream (any seed does: a cluster is not reproducible anyway).
    random: Random,
    last_nodes_report: f64,
}

impl<'a, M: Payload> MpiProcessor<'a, M> {
    pub fn new(wire: &'a mut Wire, search: u32, counters: &'a Counters, stop: Option<&'a Control>) -> Self {
        let (id, count) = (wire.rank(), wire.size());
        let random = Random::new(0, id);
        MpiProcessor { wire, id, count, search, counters, inbox: VecDeque::new(), stop, finished: false, random, last_nodes_report: now_ms() }
    }

    /// Whether rank 0 has said FINISHED.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Takes what has arrived: program messages into the inbox, FINISHED into the stop
    /// signal, node counts into the counters. Returns whether anything did.
    fn poll(&mut self) -> bool {
        let mut any = false;
        while let Some(frame) = self.wire.receive() {
            any = true;
            self.take(frame);
        }
        self.wire.finish_sends();
        any
    }

    /// Takes one frame that has arrived (see [`MpiProcessor::poll`]); a table frame is
    /// served at once.
    pub fn take(&mut self, frame: Frame) {
        if frame.search != self.search {
            return;
        }
        match frame.kind {
            FrameKind::Program => match M::decode(&frame.body) {
                Ok(message) => self.inbox.push_back((frame.from, message)),
                Err(e) => eprintln!("meshmate-cluster: rank {}: a message from rank {} dropped: {e}", self.id, frame.from),
            },
            FrameKind::TableRequest | FrameKind::TablePut | FrameKind::TableAnswer => super::table::serve(self.wire, &frame),
            FrameKind::Finished => {
                super::table::end();
                self.finished = true;
                if let Some(stop) = self.stop {
                    stop.stop();
                }
            }
            FrameKind::Nodes => take_nodes(&frame, self.counters),
            FrameKind::Start | FrameKind::Done | FrameKind::Quit => {}
        }
    }
}

impl<M: Payload> Processor<M> for MpiProcessor<'_, M> {
    fn id(&self) -> usize {
        self.id
    }

    fn count(&self) -> usize {
        self.count
    }

    fn send(&mut self, to: usize, message: M) {
        self.counters.count_sent(self.id, message.kind());
        if to == self.id {
            self.inbox.push_back((to, message));
            return;
        }
        let mut body = Vec::new();
        message.encode(&mut body);
        self.wire.send(to, frame(FrameKind::Program, self.search, &body));
    }

    fn receive(&mut self) -> Option<(usize, M)> {
        if self.inbox.is_empty() {
            self.poll();
        }
        let envelope = self.inbox.pop_front()?;
        self.counters.count_received(self.id, envelope.1.kind());
        Some(envelope)
    }

    fn may_go_on(&self) -> bool {
        self.inbox.is_empty()
    }

    fn random(&mut self) -> u64 {
        self.random.next_u64()
    }

    fn note(&mut self, note: Note) {
        self.counters.note(self.id, note);
    }
}

impl<M: Payload> Driven<M> for MpiProcessor<'_, M> {
    /// Waits briefly for a frame.
    fn wait(&mut self) {
        if !self.inbox.is_empty() {
            return;
        }
        for _ in 0..SPINS {
            if self.poll() {
                return;
            }
            std::hint::spin_loop();
        }
        std::thread::sleep(NAP);
    }

    /// A helper tells rank 0 its node count now and then.
    fn nodes_published(&mut self, nodes: u64) {
        let now = now_ms();
        if self.id == 0 || now - self.last_nodes_report < NODES_REPORT_MS {
            return;
        }
        self.last_nodes_report = now;
        let mut body = Vec::new();
        Writer(&mut body).u64(nodes);
        self.wire.send(0, frame(FrameKind::Nodes, self.search, &body));
    }
}

/// A NODES frame's count into the counters of its sender.
pub(super) fn take_nodes(frame: &Frame, counters: &Counters) {
    let mut r = Reader::new(&frame.body);
    if let (Ok(nodes), true) = (r.u64(), frame.from < counters.len()) {
        counters.set_nodes(frame.from, nodes);
    }
}

/// A processor's counters as DONE carries them.
pub(super) fn encode_snapshot(s: &ProcessorSnapshot) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut w = Writer(&mut bytes);
    for v in [s.nodes, s.busy_us, s.idle_us, s.splits, s.aborted_nodes].into_iter().chain(s.sent).chain(s.received) {
        w.u64(v);
    }
    bytes
}

pub(super) fn decode_snapshot(bytes: &[u8]) -> Result<ProcessorSnapshot, WireError> {
    let mut r = Reader::new(bytes);
    let mut s = ProcessorSnapshot { nodes: r.u64()?, busy_us: r.u64()?, idle_us: r.u64()?, splits: r.u64()?, aborted_nodes: r.u64()?, ..ProcessorSnapshot::default() };
    for k in 0..MessageKind::COUNT {
        s.sent[k] = r.u64()?;
    }
    for k in 0..MessageKind::COUNT {
        s.received[k] = r.u64()?;
    }
    r.finish()?;
    Ok(s)
}
