//! The distributed transposition table on the simulated machine: Zugzwang's placement,
//! where the entry of hash h is held by processor h mod p (`tt::Placement::Distributed`)
//! and every access to another processor's part is a routed message.
//!
//! # The model
//! - **Lookup.** When a searcher enters a node of another processor's part, its processor
//!   sends a `tt-request` to the owner first thing in the step and goes on with the
//!   node's own work (generating and ordering moves, evaluating) while the request
//!   travels; the owner sends a `tt-answer` back. The step ends when both the work and the
//!   answer are done: the wait is overlapped with the work of that node, as Zugzwang
//!   overlapped its table requests with the node's expansion. Any wait beyond the work is
//!   idle time (traced as `waiting`). The overlap is therefore the node's own work time:
//!   the preset's node time (`node_ns`, with its load and jitter), no new constant. A
//!   preset whose program waited for its reads (`Preset::overlaps_table_reads` off: the
//!   CM-5's StarTech) sends the request after the node's work and waits the whole round
//!   trip: the step lasts as long as work followed by the wait.
//! - **Store.** A finished node's result goes to the owner as a `tt-put`, sent after the
//!   step's work like any other message; nobody waits for it.
//! - **The owner** serves a message when it arrives, interrupting its own work as the
//!   Transputer's high-priority communication processes did: serving costs a step that
//!   visits no node (the preset's `step_ns`: finding the bucket, reading or writing it),
//!   plus, for a request, the send overhead of its answer (`send_overhead_ns`). A busy
//!   owner's work is delayed by that much; an idle one serves at once.
//! - **Messages** are real simulator messages: routed along the network's shortest route,
//!   queueing for links, counted by kind, traced (`send`, `hop`, `deliver`). They are
//!   delivered to the machine's table service, never to the program's mailbox.
//! - **The data** is read from and written to the owner's part at the moment of the
//!   access (the searcher needs the entry to go on; in the machine being modelled it
//!   would arrive with the answer, and a store would land when its put arrives). So only
//!   the costs travel, not the entries: values a distributed table would return a little
//!   later are seen a little earlier. Accesses to the processor's own part are free.

use crate::machine::MessageKind;
use crate::tt::{owner, Access, AccessKind};

/// A message the machine sends on the programs' behalf to reach a table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TableMessage {
    /// A lookup, to the entry's owner.
    Request,
    /// The owner's reply to a lookup.
    Answer,
    /// A store, to the entry's owner.
    Put,
}

impl TableMessage {
    pub(super) fn kind(self) -> MessageKind {
        match self {
            TableMessage::Request => MessageKind::TtRequest,
            TableMessage::Answer => MessageKind::TtAnswer,
            TableMessage::Put => MessageKind::TtPut,
        }
    }
}

/// The owners of the other processors' entries one step looked up and stored (buffers
/// kept across steps).
#[derive(Debug, Default)]
pub(super) struct RemoteAccesses {
    /// Owners asked for an entry: one request each.
    pub(super) probes: Vec<usize>,
    /// Owners sent a result: one put each.
    pub(super) puts: Vec<usize>,
}

impl RemoteAccesses {
    /// Keeps the accesses of processor `me` (of `count`) that reach another processor's part.
    pub(super) fn note(&mut self, me: usize, count: usize, accesses: &[Access]) {
        for access in accesses {
            let holder = owner(access.hash, count);
            if holder != me {
                match access.kind {
                    AccessKind::Probe => self.probes.push(holder),
                    AccessKind::Store => self.puts.push(holder),
                }
            }
        }
    }

    pub(super) fn clear(&mut self) {
        self.probes.clear();
        self.puts.clear();
    }
}

/// What serving `message` costs the processor it reaches, whose step without nodes costs
/// `step_ns` (an answer is taken in by its waiting requester as part of that node's work).
pub(super) fn serving_ns(message: TableMessage, step_ns: u64, send_overhead_ns: u64) -> u64 {
    match message {
        TableMessage::Request => step_ns + send_overhead_ns,
        TableMessage::Put => step_ns,
        TableMessage::Answer => 0,
    }
}
