//! A program's view of its simulated processor during one step: what the [`Processor`]
//! trait asks of a machine, answered from the run's state (its mailbox, the messages the
//! step sends, its notes, the offer board, the counters).

use super::super::cpu::Cpus;
use super::super::table::RemoteAccesses;
use crate::machine::offers::OfferBoard;
use crate::machine::{Counters, Note, Payload, Processor};
use crate::random::Random;
use crate::search::TreeEvent;
use crate::tt::Access;
use std::collections::VecDeque;

/// A program's view of its simulated processor during one step.
pub(super) struct View<'v, M> {
    pub(super) id: usize,
    pub(super) count: usize,
    pub(super) mailbox: &'v mut VecDeque<(usize, M)>,
    pub(super) outbox: &'v mut Vec<(usize, M)>,
    pub(super) notes: &'v mut Vec<Note>,
    /// Tree events of the step (asked for only while tracing).
    pub(super) trees: &'v mut Vec<TreeEvent>,
    pub(super) random: &'v mut Random,
    pub(super) counters: &'v Counters,
    pub(super) remote: &'v mut RemoteAccesses,
    /// The processor's busy time before this step.
    pub(super) busy_ns: u64,
    /// Messages it took from its mailbox in this step.
    pub(super) received: usize,
    pub(super) critical_path_nodes: &'v mut Option<u64>,
    pub(super) offers: Option<&'v OfferBoard>,
    /// Cache lines of shared memory the step moved (offer board reads and writes).
    pub(super) shared_lines: u64,
    /// The processors' speeds and background load, and when this step started (for the
    /// load monitor's predictions).
    pub(super) cpus: &'v Cpus,
    pub(super) time: u64,
    /// A message's round trip, on machines whose programs are told it.
    pub(super) round_trip_ns: Option<u64>,
}

impl<M: Payload> Processor<M> for View<'_, M> {
    fn id(&self) -> usize {
        self.id
    }

    fn count(&self) -> usize {
        self.count
    }

    fn send(&mut self, to: usize, message: M) {
        assert!(to < self.count, "processor {} sent to processor {to} of {}", self.id, self.count);
        self.counters.count_sent(self.id, message.kind());
        self.outbox.push((to, message));
    }

    fn receive(&mut self) -> Option<(usize, M)> {
        let envelope = self.mailbox.pop_front()?;
        self.received += 1;
        self.counters.count_received(self.id, envelope.1.kind());
        Some(envelope)
    }

    fn random(&mut self) -> u64 {
        self.random.next_u64()
    }

    fn note(&mut self, note: Note) {
        self.counters.note(self.id, note);
        self.notes.push(note);
    }

    fn table_accesses(&mut self, accesses: &[Access]) {
        self.remote.note(self.id, self.count, accesses);
    }

    fn tree(&mut self, event: TreeEvent) {
        self.trees.push(event);
    }

    fn busy_ns(&self) -> Option<u64> {
        Some(self.busy_ns)
    }

    fn predicted_availability(&self, of: usize) -> Option<u32> {
        self.cpus.predicted_availability(of, self.time)
    }

    fn round_trip_ns(&self) -> Option<u64> {
        self.round_trip_ns
    }

    fn node_ns(&self, of: usize) -> Option<u64> {
        self.round_trip_ns.map(|_| self.cpus.node_ns(of))
    }

    fn report_critical_path(&mut self, nodes: u64) {
        if self.id == 0 {
            *self.critical_path_nodes = Some(nodes);
        }
    }

    fn post_offer(&mut self, offer: Option<i32>) {
        if let Some(board) = self.offers {
            self.shared_lines += u64::from(board.post(self.id, offer));
        }
    }

    fn has_offer_board(&self) -> bool {
        self.offers.is_some()
    }

    fn best_offer(&mut self) -> Option<(usize, i32)> {
        let board = self.offers?;
        self.shared_lines += board.lines();
        board.best_other(self.id)
    }
}
