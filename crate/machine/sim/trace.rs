//! The simulator's event stream: what the Lab UI animates and what measures are computed
//! from. Recording is optional; when it is off the simulator pays one branch per event.
//!
//! # JSON lines schema (version 1; field names are stable, the UI depends on them)
//!
//! Times (`t`, `start`, `end`) are integer nanoseconds of virtual time since the start of
//! the run; processors are `p`/`from`/`to` numbers `0..processors`; network nodes in `hop`
//! events may also be switches (`processors..`). One JSON object per line:
//!
//! | `ev`      | fields | meaning |
//! |-----------|--------|---------|
//! | `machine` | `version`, `preset`, `net`, `processors`, `nodes`, `links`, `seed` | header, before the runs of one simulated machine |
//! | `run`     | `run`, `label` | a search starts (times restart at 0) |
//! | `state`   | `t`, `p`, `state` (`busy`, `waiting`, `done`), `nodes` | a processor changed state; `waiting` covers idle and waiting for results (or a table answer) |
//! | `send`    | `t`, `msg`, `from`, `to`, `kind`, `hops` | a message leaves its sender (after the send overhead) |
//! | `hop`     | `msg`, `link`, `from`, `to`, `start`, `end` | it crosses a link; `start` later than its arrival means it queued |
//! | `deliver` | `t`, `msg`, `to` | it is in the receiver's mailbox (`tt-*` of a distributed table: at its table service) |
//! | `note`    | `t`, `p`, `note` (`split`, `aborted`, `asked-ahead`), `nodes` (for `aborted`) | what the program reported |
//! | `nodes`   | `t`, `p`, `nodes` | a processor's node count after its step at `t`, whenever it grew by 1/[`NODE_SAMPLE_GROWTH`] |
//! | `end`     | `run`, `t`, `end` | processor 0 finished at `t`, the last processor at `end` |
//! | `node`    | `t`, `p`, `path`, `depth`, `alpha`, `beta`, `type` (`pv`, `cut`, `all`), `received` | a processor entered a node of the top [`TREE_PLIES`] plies |
//! | `leave`   | `t`, `p`, `path`, `value`, `cut`, `tt`, `aborted` | it is done with that node |
//! | `split`   | `t`, `p`, `path`, `to` | that node gave a move to processor `to` |
//!
//! `msg` numbers messages within a run; `kind` is a [`MessageKind::name`]; `path` is the
//! list of UCI moves from the root of the search to the node.
//!
//! The stream is kept whole ([`TraceMode::Full`]), or handed event by event to a
//! [`TraceSink`] ([`Trace::streaming`]) so that memory stays bounded however long the run.

use crate::machine::{MessageKind, Note};
use crate::search::{NodeKind, TreeEvent, TreePath};
use serde::Serialize;
use std::io::Write;

/// Nodes of plies `0..TREE_PLIES` are traced as `node`, `leave` and `split` lines.
pub const TREE_PLIES: usize = 4;

/// A processor's node count is recorded each time it has grown by this fraction (1/16)
/// since the last record, and at least by one node: a few hundred records per processor
/// from a handful of nodes to millions, so the Lab's chart moves on a Transputer (2 ms a
/// node, where a sample every 1024 nodes stayed at zero for most of a replay) as on a
/// multicore machine.
pub const NODE_SAMPLE_GROWTH: u64 = 16;

/// A processor's state as traced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessorState {
    /// Stepping its program.
    Busy,
    /// Asleep until a message arrives (idle, or waiting for results).
    Waiting,
    /// Finished with this search.
    Done,
}

impl ProcessorState {
    /// The name used in the trace.
    pub fn name(self) -> &'static str {
        match self {
            ProcessorState::Busy => "busy",
            ProcessorState::Waiting => "waiting",
            ProcessorState::Done => "done",
        }
    }
}

/// One thing that happened in virtual time (see the module documentation; fields are
/// named as in the JSON lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A search starts.
    Run {
        /// Its number, an index into [`Trace::labels`].
        run: u32,
    },
    /// A processor changed state.
    State {
        /// When.
        t: u64,
        /// Which processor.
        p: u32,
        /// Its new state.
        state: ProcessorState,
        /// Its node count then.
        nodes: u64,
    },
    /// A message left its sender.
    Send {
        /// When it left (its send overhead paid).
        t: u64,
        /// Its number within the run.
        msg: u32,
        /// The sender.
        from: u32,
        /// The receiver.
        to: u32,
        /// Its kind.
        kind: MessageKind,
        /// Links on its route.
        hops: u32,
    },
    /// A message crossed a link between two network nodes.
    Hop {
        /// The message.
        msg: u32,
        /// The link's id in the topology.
        link: u32,
        /// The node it left (a processor or a switch).
        from: u32,
        /// The node it reached.
        to: u32,
        /// When it started crossing (after queueing, if the link was busy).
        start: u64,
        /// When it was across.
        end: u64,
    },
    /// A message reached the receiver's mailbox.
    Deliver {
        /// When.
        t: u64,
        /// The message.
        msg: u32,
        /// The receiver.
        to: u32,
    },
    /// A program's note.
    Note {
        /// When the step that made it began.
        t: u64,
        /// The processor.
        p: u32,
        /// What it said.
        note: Note,
    },
    /// A node count sample.
    Nodes {
        /// When.
        t: u64,
        /// The processor.
        p: u32,
        /// Its node count.
        nodes: u64,
    },
    /// A node of the top plies entered, left or split.
    Tree {
        /// When the step that did it began.
        t: u64,
        /// The processor.
        p: u32,
        /// What happened.
        event: TreeEvent,
    },
    /// The run is over.
    End {
        /// Its number.
        run: u32,
        /// The time to the result (`RunReport::elapsed_ns`).
        t: u64,
        /// When the last processor finished, or the result was in if later.
        end: u64,
    },
}

impl Event {
    /// The event as numbers, for the hash.
    fn words(&self) -> [u64; 6] {
        match *self {
            Event::Run { run } => [1, run as u64, 0, 0, 0, 0],
            Event::State { t, p, state, nodes } => [2, t, p as u64, state as u64, nodes, 0],
            Event::Send { t, msg, from, to, kind, hops } => [3, t, msg as u64, (from as u64) << 32 | to as u64, kind.index() as u64, hops as u64],
            Event::Hop { msg, link, from, to, start, end } => [4, msg as u64, link as u64, (from as u64) << 32 | to as u64, start, end],
            Event::Deliver { t, msg, to } => [5, t, msg as u64, to as u64, 0, 0],
            Event::Note { t, p, note } => match note {
                Note::Split => [6, t, p as u64, 0, 0, 0],
                Note::Aborted(nodes) => [6, t, p as u64, 1, nodes, 0],
                Note::AskedAhead => [6, t, p as u64, 2, 0, 0],
            },
            Event::Nodes { t, p, nodes } => [7, t, p as u64, nodes, 0, 0],
            Event::End { run, t, end } => [8, run as u64, t, end, 0, 0],
            Event::Tree { t, p, event } => {
                let p = (p as u64) << 32;
                let signed = |v: i32| v as i64 as u64;
                match event {
                    TreeEvent::Node { path, depth, alpha, beta, kind, received } => {
                        [9, t, p | (depth as u8 as u64) << 8 | (node_kind_index(kind) as u64) << 1 | received as u64, path.packed(), signed(alpha), signed(beta)]
                    }
                    TreeEvent::Leave { path, value, cut, tt, aborted } => [10, t, p | cut as u64 | (tt as u64) << 1 | (aborted as u64) << 2, path.packed(), signed(value), 0],
                    TreeEvent::Split { path, to } => [11, t, p | to as u64, path.packed(), 0, 0],
                }
            }
        }
    }

    /// The event as one line of JSON (without the newline), as the schema above names it.
    pub fn to_json(&self, labels: &[String]) -> String {
        serde_json::to_string(&self.line(labels)).expect("numbers and names are always JSON")
    }

    /// The event as the trace writes it.
    fn line<'a>(&self, labels: &'a [String]) -> Line<'a> {
        match *self {
            Event::Run { run } => Line::Run { run, label: labels.get(run as usize).map_or("", String::as_str) },
            Event::State { t, p, state, nodes } => Line::State { t, p, state: state.name(), nodes },
            Event::Send { t, msg, from, to, kind, hops } => Line::Send { t, msg, from, to, kind: kind.name(), hops },
            Event::Hop { msg, link, from, to, start, end } => Line::Hop { msg, link, from, to, start, end },
            Event::Deliver { t, msg, to } => Line::Deliver { t, msg, to },
            Event::Note { t, p, note: Note::Split } => Line::Note { t, p, note: "split", nodes: None },
            Event::Note { t, p, note: Note::Aborted(nodes) } => Line::Note { t, p, note: "aborted", nodes: Some(nodes) },
            Event::Note { t, p, note: Note::AskedAhead } => Line::Note { t, p, note: "asked-ahead", nodes: None },
            Event::Nodes { t, p, nodes } => Line::Nodes { t, p, nodes },
            Event::End { run, t, end } => Line::End { run, t, end },
            Event::Tree { t, p, event } => match event {
                TreeEvent::Node { path, depth, alpha, beta, kind, received } => {
                    Line::Node { t, p, path: path_moves(&path), depth, alpha, beta, kind: NODE_KIND_NAMES[node_kind_index(kind)], received }
                }
                TreeEvent::Leave { path, value, cut, tt, aborted } => Line::Leave { t, p, path: path_moves(&path), value, cut, tt, aborted },
                TreeEvent::Split { path, to } => Line::Split { t, p, path: path_moves(&path), to },
            },
        }
    }
}

/// One line of the trace: the event's name in `ev`, then its fields in the schema's order.
#[derive(Serialize)]
#[serde(tag = "ev", rename_all = "lowercase")]
enum Line<'a> {
    Run { run: u32, label: &'a str },
    State { t: u64, p: u32, state: &'static str, nodes: u64 },
    Send { t: u64, msg: u32, from: u32, to: u32, kind: &'static str, hops: u32 },
    Hop { msg: u32, link: u32, from: u32, to: u32, start: u64, end: u64 },
    Deliver { t: u64, msg: u32, to: u32 },
    Note {
        t: u64,
        p: u32,
        note: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
    },
    Nodes { t: u64, p: u32, nodes: u64 },
    End { run: u32, t: u64, end: u64 },
    Node { t: u64, p: u32, path: Vec<String>, depth: i32, alpha: i32, beta: i32, #[serde(rename = "type")] kind: &'static str, received: bool },
    Leave { t: u64, p: u32, path: Vec<String>, value: i32, cut: bool, tt: bool, aborted: bool },
    Split { t: u64, p: u32, path: Vec<String>, to: u32 },
}

/// A path as the list of its UCI moves.
fn path_moves(path: &TreePath) -> Vec<String> {
    path.moves().map(|m| m.to_string()).collect()
}

/// Node types as the trace names them, by [`node_kind_index`].
pub const NODE_KIND_NAMES: [&str; 3] = ["pv", "cut", "all"];

/// A node type's index in [`NODE_KIND_NAMES`].
pub fn node_kind_index(kind: NodeKind) -> usize {
    match kind {
        NodeKind::Pv => 0,
        NodeKind::Cut => 1,
        NodeKind::All => 2,
    }
}

/// What to keep of the event stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TraceMode {
    /// Nothing (the default).
    #[default]
    Off,
    /// Only the hash of the events (determinism checks without the memory).
    Hash,
    /// Every event, and the hash.
    Full,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Where a streaming trace puts each event as it is recorded.
pub trait TraceSink {
    /// Takes `event`; `labels` names the runs so far (for [`Event::to_json`]).
    fn event(&mut self, event: &Event, labels: &[String]);
}

/// The recorded stream of every run of one simulated machine, and its FNV-1a hash.
pub struct Trace {
    events: Option<Vec<Event>>,
    sink: Option<Box<dyn TraceSink>>,
    labels: Vec<String>,
    hash: u64,
    recorded: u64,
}

impl Trace {
    /// An empty trace keeping what `mode` says (`None` when it is off).
    pub(super) fn new(mode: TraceMode) -> Option<Trace> {
        match mode {
            TraceMode::Off => None,
            TraceMode::Hash => Some(Trace { events: None, sink: None, labels: Vec::new(), hash: FNV_OFFSET, recorded: 0 }),
            TraceMode::Full => Some(Trace { events: Some(Vec::new()), sink: None, labels: Vec::new(), hash: FNV_OFFSET, recorded: 0 }),
        }
    }

    /// A trace that hands every event to `sink` and keeps only the hash and the count.
    pub(super) fn streaming(sink: Box<dyn TraceSink>) -> Trace {
        Trace { events: None, sink: Some(sink), labels: Vec::new(), hash: FNV_OFFSET, recorded: 0 }
    }

    /// Records `event`.
    pub(super) fn record(&mut self, event: Event) {
        for word in event.words() {
            for byte in word.to_le_bytes() {
                self.hash = (self.hash ^ byte as u64).wrapping_mul(FNV_PRIME);
            }
        }
        self.recorded += 1;
        if let Some(events) = self.events.as_mut() {
            events.push(event);
        }
        if let Some(sink) = self.sink.as_mut() {
            sink.event(&event, &self.labels);
        }
    }

    /// Events recorded so far, whether kept, streamed or only hashed.
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// Starts run number `labels().len()` with a label (position, algorithm...).
    pub(super) fn start_run(&mut self, label: String) -> u32 {
        let run = self.labels.len() as u32;
        self.labels.push(label);
        self.record(Event::Run { run });
        run
    }

    /// FNV-1a over every event recorded so far: equal streams, equal hashes.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The events (empty when only the hash is kept or they were streamed).
    pub fn events(&self) -> &[Event] {
        self.events.as_deref().unwrap_or(&[])
    }

    /// The label of each run, by run number.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Writes the events as JSON lines.
    pub fn write_jsonl(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for event in self.events() {
            writeln!(out, "{}", event.to_json(&self.labels))?;
        }
        Ok(())
    }
}
