//! One processor of the cluster machine: the program's view of it ([`Processor`]) over a
//! [`Link`], stepped by the real machines' driver (`machine::drive`) as a thread's is.

use super::link::{Arrival, Link};
use crate::machine::frame::{frame, Frame, FrameKind};
use crate::clock::now_ms;
use crate::random::Random;
use crate::machine::wire::{Reader, WireError, Writer};
use crate::machine::drive::Driven;
use crate::machine::{Counters, MessageKind, Note, Payload, Processor, ProcessorSnapshot};
use crate::search::{Control, TreePath};
use std::collections::VecDeque;
use std::time::Duration;

/// How often a rank tells rank 0 its node count (for `info nodes` and `go nodes`) and the
/// line it is on (for a class's lecturer, who sees the top of the tree).
const NODES_REPORT_MS: f64 = 100.0;

/// Looks for a frame before a waiting processor sleeps, on a link that cannot block (an
/// MPI answer often comes within microseconds; a nap costs more than a small subtree's
/// search).
const SPINS: u32 = 2_000;

/// How long a waiting processor sleeps between looks, on a link that cannot block.
const NAP: Duration = Duration::from_micros(50);

/// How long a waiting processor blocks on a link that can ([`Link::await_arrival`])
/// before its program looks at its clock and stop signal again. A frame wakes it at once.
const BLOCK: Duration = Duration::from_millis(1);

/// How many unreadable messages a search names on stderr: a hostile member can send
/// thousands, and a log that holds them all hides everything else.
const DROPS_NAMED: u32 = 3;

/// A processor during one search.
pub(super) struct LinkProcessor<'a, L, M> {
    link: &'a mut L,
    id: usize,
    count: usize,
    search: u32,
    counters: &'a Counters,
    /// Program messages taken off the wire and not yet handed to the program.
    inbox: VecDeque<(usize, M)>,
    /// A helper's stop signal, set when rank 0 says FINISHED (`None` on rank 0).
    stop: Option<&'a Control>,
    finished: bool,
    /// Processors the link declared lost during this search.
    gone: Vec<usize>,
    /// Unreadable program messages dropped during this search.
    dropped: u32,
    /// Its own stream (any seed does: a cluster is not reproducible anyway).
    random: Random,
    last_nodes_report: f64,
    /// Processor 0's measures of a slow link's round trip and its members' speeds
    /// (`None`: the link is fast, or this is another processor).
    measures: Option<NetworkMeasures>,
}

/// What processor 0 measures of a class's network while a search starts and runs, for
/// [`Processor::round_trip_ns`] and [`Processor::node_ns`]: each member answers START at
/// once with a NODES frame ([`echo_start`]), so the time from START to that answer is a
/// round trip through the relay; the NODES frames each member sends every
/// [`NODES_REPORT_MS`] give its speed, and processor 0's own published counts its own.
struct NetworkMeasures {
    /// When START went out, in milliseconds.
    started_ms: f64,
    /// The shortest round trip measured, in milliseconds, and which members have answered.
    round_trip_ms: Option<f64>,
    answered: Vec<bool>,
    /// Per processor (processor 0 too): its speed so far.
    speeds: Vec<Speed>,
}

/// A processor's speed from its node counts now and then: the fastest window of at least
/// [`NODES_REPORT_MS`] seen, since a processor that waited for work during part of a window
/// searched fewer nodes, not slower ones (a class searching little measured its members at
/// 10-30 nodes a millisecond, a hundredth of their speed, by their average).
#[derive(Clone, Copy, Default)]
struct Speed {
    /// The open window's start (time, nodes).
    window: Option<(f64, u64)>,
    /// Nodes per millisecond.
    fastest: f64,
}

impl Speed {
    fn counted(&mut self, nodes: u64, now_ms: f64) {
        match self.window {
            Some((then, before)) if now_ms - then >= NODES_REPORT_MS => {
                self.fastest = self.fastest.max(nodes.saturating_sub(before) as f64 / (now_ms - then));
                self.window = Some((now_ms, nodes));
            }
            Some(_) => {}
            None => self.window = Some((now_ms, nodes)),
        }
    }
}

impl NetworkMeasures {
    fn new(processors: usize, started_ms: f64) -> Self {
        NetworkMeasures { started_ms, round_trip_ms: None, answered: vec![false; processors], speeds: vec![Speed::default(); processors] }
    }

    /// Processor `from` said it had searched `nodes` at `now_ms`. A member's first word
    /// in a search is its echo of START: a round trip. The shortest is kept, as a member
    /// late to read START (busy ending the last search, or descheduled) answers tens of
    /// milliseconds late on a loaded machine.
    fn heard(&mut self, from: usize, nodes: u64, now_ms: f64) {
        let Some(answered) = self.answered.get_mut(from) else { return };
        if from != 0 && !*answered {
            *answered = true;
            let trip = now_ms - self.started_ms;
            self.round_trip_ms = Some(self.round_trip_ms.map_or(trip, |shortest| shortest.min(trip)));
        }
        self.speeds[from].counted(nodes, now_ms);
    }

    fn round_trip_ns(&self) -> Option<u64> {
        self.round_trip_ms.map(|ms| (ms * 1e6) as u64)
    }

    /// Processor `of`'s time per node: its fastest window, never taken slower than
    /// processor 0's own (a member that has searched no full window yet, or only in
    /// pieces, is taken to be as fast as the lecturer's machine); `None` before processor
    /// 0 has a window of its own.
    fn node_ns(&self, of: usize) -> Option<u64> {
        let own = self.speeds[0].fastest;
        let speed = self.speeds.get(of).map_or(own, |s| s.fastest.max(own));
        (own > 0.0).then(|| (1e6 / speed).max(1.0) as u64)
    }
}

/// A member's answer to START, sent before it builds its program: a NODES frame of none,
/// whose arrival gives processor 0 a round trip ([`NetworkMeasures`]).
pub(super) fn echo_start(link: &mut impl Link, search: u32) {
    link.send(0, nodes_frame(search, 0, None));
}

/// A NODES frame of search `search`: `nodes` searched, on `line`.
fn nodes_frame(search: u32, nodes: u64, line: Option<TreePath>) -> Vec<u8> {
    let mut body = Vec::new();
    let mut w = Writer(&mut body);
    w.u64(nodes);
    w.u64(line.map_or(NO_LINE, |line| line.packed()));
    frame(FrameKind::Nodes, search, &body)
}

impl<'a, L: Link, M: Payload> LinkProcessor<'a, L, M> {
    pub fn new(link: &'a mut L, search: u32, counters: &'a Counters, stop: Option<&'a Control>) -> Self {
        let (id, count) = (link.rank(), link.size());
        let random = Random::new(0, id);
        LinkProcessor { link, id, count, search, counters, inbox: VecDeque::new(), stop, finished: false, gone: Vec::new(), dropped: 0, random, last_nodes_report: now_ms(), measures: None }
    }

    /// Processor 0 measures the round trip and the members' speeds of a link whose round
    /// trip matters ([`Link::round_trip_matters`]), from `started_ms`, when START went out.
    pub fn measure_network(&mut self, started_ms: f64) {
        if self.id == 0 && self.link.round_trip_matters() {
            self.measures = Some(NetworkMeasures::new(self.count, started_ms));
        }
    }

    /// The processors the link declared lost during this search (they owe no DONE).
    pub fn gone(&self) -> &[usize] {
        &self.gone
    }

    /// Whether rank 0 has said FINISHED.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Takes what has arrived: program messages into the inbox, FINISHED into the stop
    /// signal, node counts into the counters. Returns whether anything did.
    fn poll(&mut self) -> bool {
        let mut any = false;
        while let Some(arrival) = self.link.receive() {
            any = true;
            match arrival {
                Arrival::Frame(frame) => self.take(frame),
                Arrival::Lost(processor) => self.lose(processor),
            }
        }
        self.link.finish_sends();
        any
    }

    /// A processor is gone. The program hears it as one message, where its messages can
    /// say so (its answer: search again what it gave that processor, drop what that
    /// processor owned). A helper whose processor 0 is gone stops: nobody waits for it.
    fn lose(&mut self, processor: usize) {
        self.gone.push(processor);
        if processor == 0 {
            self.finished = true;
            if let Some(stop) = self.stop {
                stop.stop();
            }
        } else if let Some(message) = M::lost(processor) {
            self.inbox.push_back((processor, message));
        }
    }

    /// Takes one frame that has arrived (see [`LinkProcessor::poll`]); a table frame is
    /// served at once.
    pub fn take(&mut self, frame: Frame) {
        if frame.search != self.search {
            return;
        }
        match frame.kind {
            FrameKind::Program => match M::decode(&frame.body) {
                Ok(message) => self.inbox.push_back((frame.from, message)),
                Err(e) => {
                    self.dropped += 1;
                    if self.dropped <= DROPS_NAMED {
                        eprintln!("meshmate: processor {}: a message from processor {} dropped: {e}", self.id, frame.from);
                    }
                    if self.dropped == DROPS_NAMED {
                        eprintln!("meshmate: processor {}: further unreadable messages in search {} are dropped unnamed", self.id, self.search);
                    }
                }
            },
            FrameKind::TableRequest | FrameKind::TablePut | FrameKind::TableAnswer => self.link.serve_table(&frame),
            FrameKind::Finished => {
                self.link.table_search(None);
                self.finished = true;
                if let Some(stop) = self.stop {
                    stop.stop();
                }
            }
            FrameKind::Nodes => {
                if let (Some(nodes), Some(measures)) = (take_nodes(&frame, self.counters), self.measures.as_mut()) {
                    measures.heard(frame.from, nodes, now_ms());
                }
            }
            FrameKind::Start | FrameKind::Done | FrameKind::Quit => {}
        }
    }
}

impl<L: Link, M: Payload> Processor<M> for LinkProcessor<'_, L, M> {
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
        self.link.send(to, frame(FrameKind::Program, self.search, &body));
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

    fn round_trip_ns(&self) -> Option<u64> {
        self.measures.as_ref()?.round_trip_ns()
    }

    fn node_ns(&self, of: usize) -> Option<u64> {
        self.measures.as_ref()?.node_ns(of)
    }
}

impl<L: Link, M: Payload> Driven<M> for LinkProcessor<'_, L, M> {
    /// Waits briefly for a frame: blocked on the link where it can, else looking again and
    /// again, then napping.
    fn wait(&mut self) {
        if !self.inbox.is_empty() || self.link.await_arrival(BLOCK) {
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

    /// A helper tells rank 0 its node count and line now and then.
    fn nodes_published(&mut self, nodes: u64, line: Option<TreePath>) {
        let now = now_ms();
        if let Some(measures) = self.measures.as_mut() {
            measures.heard(0, nodes, now);
        }
        if self.id == 0 || now - self.last_nodes_report < NODES_REPORT_MS {
            return;
        }
        self.last_nodes_report = now;
        self.link.send(0, nodes_frame(self.search, nodes, line));
    }
}

/// A NODES frame's line when its sender is on none (no packed path has every bit set).
const NO_LINE: u64 = u64::MAX;

/// A NODES frame's count and line into the counters of its sender; returns the count
/// taken. A frame whose line is no path, or whose sender the counters do not hold, is
/// dropped.
pub(super) fn take_nodes(frame: &Frame, counters: &Counters) -> Option<u64> {
    let mut r = Reader::new(&frame.body);
    let (Ok(nodes), Ok(line), Ok(())) = (r.u64(), r.u64(), r.finish()) else { return None };
    let line = match line {
        NO_LINE => None,
        packed => Some(TreePath::checked_from_packed(packed)?),
    };
    if frame.from >= counters.len() {
        return None;
    }
    counters.set_nodes(frame.from, nodes);
    counters.set_line(frame.from, line);
    Some(nodes)
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

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::{Move, Square};

    #[test]
    fn the_shortest_echo_is_the_round_trip_and_speeds_are_the_fastest_windows() {
        let mut m = NetworkMeasures::new(3, 1_000.0);
        assert_eq!(m.round_trip_ns(), None);
        m.heard(2, 0, 1_063.0);
        m.heard(1, 0, 1_005.0);
        m.heard(1, 500, 1_050.0);
        assert_eq!(m.round_trip_ns(), Some(5_000_000), "the late echo (63 ms) is not the round trip, nor a later report");
        assert_eq!(m.node_ns(1), None, "nothing is given before processor 0 has a window of its own");
        m.heard(0, 0, 1_000.0);
        m.heard(0, 100_000, 1_100.0);
        m.heard(0, 150_000, 1_200.0);
        assert_eq!(m.node_ns(0), Some(1_000), "its fastest window: 1,000 nodes a millisecond, not the 500 of the next");
        assert_eq!(m.node_ns(2), Some(1_000), "a member idle all along is taken as fast as processor 0");
        m.heard(1, 300_000, 1_105.0);
        assert_eq!(m.node_ns(1), Some(333), "3,000 nodes a millisecond over its window of 100 ms");
    }

    fn nodes_frame(from: usize, nodes: u64, line: u64) -> Frame {
        let mut body = Vec::new();
        let mut w = Writer(&mut body);
        w.u64(nodes);
        w.u64(line);
        Frame::parse(from, frame(FrameKind::Nodes, 1, &body)).unwrap()
    }

    #[test]
    fn a_nodes_frame_gives_its_senders_count_and_line_and_a_line_that_is_no_path_is_refused() {
        let counters = Counters::new(3);
        let mut line = TreePath::default();
        line.push(Move { from: Square::E2, to: Square::E4, promotion: None });
        line.push(Move { from: Square::E7, to: Square::E5, promotion: None });
        take_nodes(&nodes_frame(1, 500, line.packed()), &counters);
        assert_eq!((counters.snapshot()[1].nodes, counters.snapshot()[1].line), (500, Some(line)));
        take_nodes(&nodes_frame(2, 40, NO_LINE), &counters);
        assert_eq!((counters.snapshot()[2].nodes, counters.snapshot()[2].line), (40, None));
        // A promotion code no move has (7), and bits beyond the line's length: refused,
        // the counters as they were.
        for forged in [line.packed() | 7 << 12, line.packed() | 1 << 40] {
            take_nodes(&nodes_frame(1, 9, forged), &counters);
            assert_eq!(counters.snapshot()[1].nodes, 500, "{forged:#x}");
        }
        // A body cut short, and a sender the counters do not hold: nothing taken.
        take_nodes(&Frame::parse(1, frame(FrameKind::Nodes, 1, &[1, 2, 3])).unwrap(), &counters);
        take_nodes(&nodes_frame(7, 9, NO_LINE), &counters);
        assert_eq!(counters.snapshot()[1].nodes, 500);
    }
}
