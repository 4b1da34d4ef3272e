//! One run of processor programs in virtual time: the discrete-event loop.
//!
//! The rules, in the order the loop applies them:
//! 1. The earliest event happens next ([`Calendar`]): a processor's step or a message
//!    reaching a node. A processor whose next step still comes first steps again at once.
//! 2. A step costs the nodes it visited times the processor's node time (slowed by any
//!    background load), or a small fixed cost if it visited none, plus the send overhead
//!    of each message it sent. Its messages leave one overhead apart, in sending order.
//! 3. A message crosses its route's links one after the other, holding a lane of each for
//!    the hop time and queueing for a busy one ([`Links`]), then taking the latency of
//!    each hop, which holds nothing; at the end of its route it is put in the receiver's
//!    mailbox.
//! 4. A program that returns [`Activity::Waiting`] with an empty mailbox sleeps: it takes
//!    no steps until a message is delivered to it, and its clock jumps to the delivery.
//! 5. When processor 0 finishes, every sleeping processor is woken, and from then on a
//!    waiting processor is stepped again after each step until it finishes (the
//!    contract of [`crate::machine::Machine::run`]).
//! 6. A step that looked up entries of a distributed table held by other processors
//!    stalls until their answers are back; the table's messages are served by their
//!    owners as they arrive (the model is in `table.rs`).
//! 7. A processor that leaves ([`Departure`]) takes no more steps and gets no more
//!    messages; the others hear it as one message, after the machine's notice delay and
//!    after every message it sent them (the rules are in `churn.rs`).
//! 8. On a machine that announces its task (`Preset::announces_task`), processor 0 sends
//!    it to the others in turn at time 0 and each starts when it arrives (messages to it
//!    wait in its mailbox until then); the result is in when the last DONE is back, each
//!    sent once FINISHED has reached its processor and its program has finished.

use super::calendar::{Calendar, Due};
use super::churn::{Departure, LossNotice};
use super::cpu::Cpus;
use super::links::Links;
use crate::random::Random;
use super::table::{serving_ns, RemoteAccesses, TableMessage};
use super::trace::{Event, ProcessorState, Trace, NODE_SAMPLE_GROWTH};
use super::RunReport;
use crate::machine::offers::OfferBoard;
use crate::machine::{Activity, Counters, MessageKind, Note, Payload, Program};
use crate::search::TreeEvent;
use crate::net::{Node, Topology};
use std::collections::VecDeque;

mod departures;
mod view;

use view::View;

/// The machine's fixed parts a run uses.
pub(super) struct Hardware<'h> {
    pub(super) topology: &'h Topology,
    pub(super) cpus: &'h Cpus,
    pub(super) links: &'h mut Links,
    pub(super) send_overhead_ns: u64,
    pub(super) hop_ns: u64,
    /// Added to each hop after the link is free again (see `Preset::latency_ns`).
    pub(super) latency_ns: u64,
    /// Cost of moving one cache line between processors, if they share memory (the
    /// offer board is read and written at this price); `None`: no shared memory.
    pub(super) line_ns: Option<u64>,
    /// Whether a step's work overlaps its lookups in other processors' table parts.
    pub(super) overlaps_table_reads: bool,
    /// How long a waiting processor looks at its mailbox before it sleeps, and what
    /// waking it then costs (`None`: nothing).
    pub(super) sleep: Option<super::Sleep>,
    pub(super) seed: u64,
    /// Processors that leave during the run, and how late the others hear it.
    pub(super) departures: &'h [Departure],
    pub(super) loss_notice: Option<LossNotice>,
    /// Whether the run starts and ends with START, FINISHED and DONE messages (rule 8).
    pub(super) announces_task: bool,
    /// Whether its programs are told the round trip (`Preset::paced`).
    pub(super) paced: bool,
}

/// Where a processor stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Processor 0's task is still on its way to it (rule 8); its start is in the calendar.
    Unstarted,
    /// It has a step in the calendar.
    Scheduled,
    /// It sleeps until a message arrives, since `asleep_since`.
    Asleep,
    /// Its last step waits for table answers; then it carries on as the step said.
    Stalled(Activity),
    /// It is done.
    Finished,
    /// It left the run (a class's processor gone).
    Gone,
}

/// One processor's bookkeeping.
struct Proc {
    phase: Phase,
    /// When its last step ended (when it fell asleep, if asleep).
    clock: u64,
    /// Its program's node count after its last step.
    nodes: u64,
    /// The node count at which the next `nodes` event is due.
    next_sample: u64,
    busy_ns: u64,
    idle_ns: u64,
    /// Busy time spent handling messages: send overheads, and steps that visited no node
    /// but received messages (TDSAB's communication overhead).
    handling_ns: u64,
    /// Busy and idle microseconds already added to the shared counters.
    published_us: (u64, u64),
    steps: u64,
    random: Random,
    /// Table answers its last step still waits for.
    awaiting: u32,
    /// Time spent serving table messages while busy, added to its next step.
    debt_ns: u64,
}

/// What a message carries: a program's message, or the machine's own for a table entry.
enum Cargo<M> {
    Program(M),
    Table(TableMessage),
}

impl<M: Payload> Cargo<M> {
    fn kind(&self) -> MessageKind {
        match self {
            Cargo::Program(message) => message.kind(),
            Cargo::Table(message) => message.kind(),
        }
    }
}

/// A message on its way.
struct Flight<M> {
    sequence: u64,
    from: usize,
    to: usize,
    message: Cargo<M>,
    /// The node it has reached on its route.
    at: Node,
}

/// The state of one run.
pub(super) struct Run<'r, 'h, M> {
    hardware: Hardware<'h>,
    programs: Vec<&'r mut dyn Program<Message = M>>,
    counters: &'r Counters,
    trace: Option<&'r mut Trace>,
    procs: Vec<Proc>,
    mailboxes: Vec<VecDeque<(usize, M)>>,
    flights: Vec<Option<Flight<M>>>,
    free_flights: Vec<usize>,
    calendar: Calendar,
    /// Messages and notes of the step being taken (kept to reuse their memory).
    outbox: Vec<(usize, M)>,
    notes: Vec<Note>,
    /// Accesses of the step being taken to other processors' table entries.
    remote: RemoteAccesses,
    trees: Vec<TreeEvent>,
    messages: u64,
    main_finished: bool,
    /// When processor 0 finished.
    main_end: u64,
    /// The critical path processor 0 reported (in nodes), if its algorithm measures one.
    critical_path_nodes: Option<u64>,
    /// The offer board, on a machine with shared memory.
    offers: Option<OfferBoard>,
    /// Losses noticed whose notice still waits for messages of the lost processor:
    /// (lost, receiver, messages from lost to receiver still in flight).
    notices_held: Vec<(usize, usize, usize)>,
}

impl<'r, 'h, M: Payload> Run<'r, 'h, M> {
    pub(super) fn new(hardware: Hardware<'h>, programs: Vec<&'r mut dyn Program<Message = M>>, counters: &'r Counters, trace: Option<&'r mut Trace>) -> Self {
        let count = programs.len();
        let seed = hardware.seed;
        assert!(hardware.departures.is_empty() || M::lost(0).is_some(), "these programs cannot go on without a processor (Payload::lost): a machine whose processors leave cannot run them");
        let procs = (0..count)
            .map(|id| Proc {
                phase: Phase::Scheduled,
                clock: 0,
                nodes: programs[id].nodes(),
                next_sample: 1,
                busy_ns: 0,
                idle_ns: 0,
                handling_ns: 0,
                published_us: (0, 0),
                steps: 0,
                random: Random::new(seed, id),
                awaiting: 0,
                debt_ns: 0,
            })
            .collect();
        hardware.links.reset();
        Run {
            programs,
            counters,
            trace,
            procs,
            mailboxes: (0..count).map(|_| VecDeque::new()).collect(),
            flights: Vec::new(),
            free_flights: Vec::new(),
            calendar: Calendar::default(),
            outbox: Vec::new(),
            notes: Vec::new(),
            remote: RemoteAccesses::default(),
            trees: Vec::new(),
            messages: 0,
            main_finished: false,
            main_end: 0,
            critical_path_nodes: None,
            offers: hardware.line_ns.map(|_| OfferBoard::new(count)),
            notices_held: Vec::new(),
            hardware,
        }
    }

    fn record(&mut self, event: Event) {
        if let Some(trace) = self.trace.as_mut() {
            trace.record(event);
        }
    }

    /// Runs every program to its end.
    pub(super) fn run(mut self) -> RunReport {
        for id in 0..self.procs.len() {
            let start = self.start_ns(id);
            let (phase, state) = if start == 0 { (Phase::Scheduled, ProcessorState::Busy) } else { (Phase::Unstarted, ProcessorState::Waiting) };
            self.procs[id].phase = phase;
            self.counters.set_working(id, phase == Phase::Scheduled);
            self.record(Event::State { t: 0, p: id as u32, state, nodes: 0 });
            self.calendar.step_at(start, id);
        }
        for (index, departure) in self.hardware.departures.iter().enumerate() {
            if departure.processor < self.procs.len() {
                self.calendar.leave_at(departure.at_ns, index);
            }
        }
        while let Some((time, due)) = self.calendar.pop() {
            match due {
                Due::Step(id) if self.procs[id].phase == Phase::Gone => {}
                Due::Step(id) if self.procs[id].phase == Phase::Unstarted => self.start(id, time),
                Due::Step(id) => self.step(id, time),
                Due::Flight(slot) => self.advance(slot, time),
                Due::Leave(index) => self.leave(index, time),
                Due::Notice(index) => self.notice(index, time),
            }
        }
        if !self.main_finished {
            let asleep: Vec<usize> = (0..self.procs.len()).filter(|&id| self.procs[id].phase == Phase::Asleep).collect();
            panic!(
                "deadlock in virtual time at {} ns: processors {asleep:?} wait and no message is on its way to them; \
                 a program returned Activity::Waiting while it still had work or nothing to wait for (see Machine::run)",
                self.procs[0].clock
            );
        }
        self.finish()
    }

    /// A message's time over the route from `from` to `to` when no other holds its links.
    fn trip_ns(&self, from: usize, to: usize) -> u64 {
        let hops = self.hardware.topology.hops(from, to).expect("processors of a run are processors of its network") as u64;
        hops * (self.hardware.hop_ns + self.hardware.latency_ns)
    }

    /// What a class's processors know of a message's round trip (`Processor::round_trip_ns`):
    /// on a paced machine (a class through its relay), a message there and back between
    /// two processors when no other holds the links, stated from the preset's own
    /// constants (every pair is one hop through the relay); `None` on the papers' machines
    /// and a class splitting as they do, whose programs follow the papers' rules.
    fn round_trip_ns(&self) -> Option<u64> {
        if self.procs.len() < 2 || !self.hardware.paced {
            return None;
        }
        Some(2 * (self.hardware.send_overhead_ns + self.trip_ns(0, 1)))
    }

    /// When processor `id` starts: at once, or on a machine that announces its task when
    /// processor 0's START, sent to processors 1, 2, ... in turn, reaches it (rule 8).
    fn start_ns(&self, id: usize) -> u64 {
        if !self.hardware.announces_task || id == 0 {
            return 0;
        }
        self.hardware.send_overhead_ns * id as u64 + self.trip_ns(0, id)
    }

    /// Processor `id` has processor 0's task at `time`: it was idle until then.
    fn start(&mut self, id: usize, time: u64) {
        let proc = &mut self.procs[id];
        proc.idle_ns += time.saturating_sub(proc.clock);
        proc.clock = proc.clock.max(time);
        let at = proc.clock;
        self.change_state(id, at, Phase::Scheduled, ProcessorState::Busy);
        self.step(id, at);
    }

    /// When processor 0 has its result: when it finished, or on a machine that announces
    /// its task when the last DONE is back (rule 8; a departed processor owes none).
    fn result_ns(&self) -> u64 {
        if !self.hardware.announces_task {
            return self.main_end;
        }
        let overhead = self.hardware.send_overhead_ns;
        (1..self.procs.len())
            .filter(|&id| self.procs[id].phase != Phase::Gone)
            .map(|id| {
                let told = self.main_end + overhead * id as u64 + self.trip_ns(0, id);
                told.max(self.procs[id].clock) + overhead + self.trip_ns(id, 0)
            })
            .fold(self.main_end, u64::max)
    }

    /// Steps processor `id` from `time` for as long as it stays the earliest event.
    fn step(&mut self, id: usize, mut time: u64) {
        loop {
            let activity = self.step_once(id, time);
            let end = self.procs[id].clock;
            if self.procs[id].awaiting > 0 {
                self.procs[id].phase = Phase::Stalled(activity);
                return;
            }
            if !self.carry_on(id, activity, end) {
                return;
            }
            time = end;
        }
    }

    /// Processor `id`'s step ended at `end` with `activity`: it sleeps, finishes, or is
    /// put in the calendar; `true` when it may step again at once (nothing comes first).
    fn carry_on(&mut self, id: usize, activity: Activity, end: u64) -> bool {
        let keep_going = match activity {
            Activity::Working => true,
            Activity::Waiting => self.main_finished || !self.mailboxes[id].is_empty(),
            Activity::Finished => {
                self.finished(id, end);
                return false;
            }
        };
        if !keep_going {
            self.fall_asleep(id, end);
            return false;
        }
        if self.calendar.step_is_next(end, id) {
            return true;
        }
        self.calendar.step_at(end, id);
        false
    }

    /// One step of processor `id` starting at `time`: runs the program, charges the step,
    /// and sends what it sent. Leaves the processor's clock at the step's end.
    fn step_once(&mut self, id: usize, time: u64) -> Activity {
        let count = self.procs.len();
        let round_trip_ns = self.round_trip_ns();
        let proc = &mut self.procs[id];
        proc.steps += 1;
        let mut view = View {
            id,
            count,
            mailbox: &mut self.mailboxes[id],
            outbox: &mut self.outbox,
            notes: &mut self.notes,
            trees: &mut self.trees,
            random: &mut proc.random,
            counters: self.counters,
            remote: &mut self.remote,
            busy_ns: proc.busy_ns,
            received: 0,
            critical_path_nodes: &mut self.critical_path_nodes,
            offers: self.offers.as_ref(),
            shared_lines: 0,
            cpus: self.hardware.cpus,
            time,
            round_trip_ns,
        };
        let program = &mut self.programs[id];
        let activity = program.step(&mut view);
        let received = view.received;
        let shared_ns = view.shared_lines * self.hardware.line_ns.unwrap_or(0);
        let nodes = program.nodes();
        let visited = nodes.saturating_sub(proc.nodes);
        proc.nodes = nodes;
        self.counters.set_nodes(id, nodes);
        let compute = self.hardware.cpus.cost(id, time, visited) + shared_ns;
        let overhead = self.hardware.send_overhead_ns;
        // Table messages it served for others while busy delay this step. Its own table
        // requests leave first, so that the node's work overlaps their round trips; on a
        // machine that waits for its reads the round trips follow the work instead (the
        // step lasts the same: work, then waiting, in one order or the other).
        let start = time + std::mem::take(&mut proc.debt_ns);
        let requests = self.remote.probes.len() as u64;
        let requests_leave = if self.hardware.overlaps_table_reads { start } else { start + compute };
        let work_end = start + overhead * requests + compute;
        let end = work_end + overhead * (self.outbox.len() + self.remote.puts.len()) as u64;
        proc.busy_ns += end - time;
        let handled = if visited == 0 && received > 0 { compute } else { 0 };
        proc.handling_ns += handled + overhead * self.outbox.len() as u64;
        proc.clock = end;
        proc.awaiting = requests as u32;
        if self.trace.is_some() {
            self.trace_step(id, time, nodes);
        } else {
            self.notes.clear();
            self.trees.clear();
        }
        let mut remote = std::mem::take(&mut self.remote);
        for (k, &owner) in remote.probes.iter().enumerate() {
            self.send(id, owner, Cargo::Table(TableMessage::Request), requests_leave + overhead * (k as u64 + 1));
        }
        let mut depart = work_end;
        if !self.outbox.is_empty() {
            let mut outbox = std::mem::take(&mut self.outbox);
            for (to, message) in outbox.drain(..) {
                depart += overhead;
                self.send(id, to, Cargo::Program(message), depart);
            }
            self.outbox = outbox;
        }
        for &owner in remote.puts.iter() {
            depart += overhead;
            self.send(id, owner, Cargo::Table(TableMessage::Put), depart);
        }
        remote.clear();
        self.remote = remote;
        activity
    }

    /// Records the notes and node-count samples of a step.
    fn trace_step(&mut self, id: usize, time: u64, nodes: u64) {
        let mut notes = std::mem::take(&mut self.notes);
        for note in notes.drain(..) {
            self.record(Event::Note { t: time, p: id as u32, note });
        }
        self.notes = notes;
        let mut trees = std::mem::take(&mut self.trees);
        for event in trees.drain(..) {
            self.record(Event::Tree { t: time, p: id as u32, event });
        }
        self.trees = trees;
        // Stamped, like the step's other events, with its start: a line stamped with its
        // end would hold up a replay that applies lines in order until its clock passes it.
        if nodes >= self.procs[id].next_sample {
            self.procs[id].next_sample = nodes + (nodes / NODE_SAMPLE_GROWTH).max(1);
            self.record(Event::Nodes { t: time, p: id as u32, nodes });
        }
    }

    /// Puts a message on its way: it leaves `from` at `depart`. (A program's messages are
    /// counted as sent when it sends them, the machine's table messages here.)
    fn send(&mut self, from: usize, to: usize, message: Cargo<M>, depart: u64) {
        let sequence = self.messages;
        self.messages += 1;
        if let Cargo::Table(table) = &message {
            self.counters.count_sent(from, table.kind());
        }
        if self.trace.is_some() {
            let kind = message.kind();
            let hops = self.hardware.topology.hops(from, to).expect("processors of a run are processors of its network");
            self.record(Event::Send { t: depart, msg: sequence as u32, from: from as u32, to: to as u32, kind, hops: hops as u32 });
        }
        let flight = Flight { sequence, from, to, message, at: from };
        let slot = match self.free_flights.pop() {
            Some(slot) => {
                self.flights[slot] = Some(flight);
                slot
            }
            None => {
                self.flights.push(Some(flight));
                self.flights.len() - 1
            }
        };
        self.calendar.flight_at(depart, sequence, slot);
    }

    /// The message in `slot` has reached its next node at `time`: it takes the next link
    /// of its route, or is delivered.
    fn advance(&mut self, slot: usize, time: u64) {
        let flight = self.flights[slot].as_mut().expect("a message in the calendar is in flight");
        let sequence = flight.sequence;
        if let Some(hop) = self.hardware.topology.next_hop(flight.at, flight.to) {
            flight.at = hop.to;
            let (start, end) = self.hardware.links.cross(hop, time, self.hardware.hop_ns);
            self.record(Event::Hop { msg: sequence as u32, link: hop.link as u32, from: hop.from as u32, to: hop.to as u32, start, end });
            let at = end + self.hardware.latency_ns;
            if start == time {
                self.calendar.hop_at(at, sequence, slot);
            } else {
                self.calendar.flight_at(at, sequence, slot);
            }
            return;
        }
        let Flight { from, to, message, .. } = self.flights[slot].take().expect("checked above");
        self.free_flights.push(slot);
        self.landed(from, to, time);
        if self.procs[to].phase == Phase::Gone {
            assert!(!matches!(message, Cargo::Table(TableMessage::Request)), "processor {to}'s part of the distributed table left with it: a machine whose processors leave keeps a table per processor");
            return;
        }
        let message = match message {
            Cargo::Program(message) => message,
            Cargo::Table(table) => {
                self.record(Event::Deliver { t: time, msg: sequence as u32, to: to as u32 });
                self.table_message_arrived(from, to, table, time);
                return;
            }
        };
        self.mailboxes[to].push_back((from, message));
        self.record(Event::Deliver { t: time, msg: sequence as u32, to: to as u32 });
        if self.procs[to].phase == Phase::Asleep {
            self.wake(to, time);
        }
    }

    /// A table message from `from` reached processor `to` at `time`: the owner serves a
    /// request (answering) or a put, or a waiting requester gets its answer.
    fn table_message_arrived(&mut self, from: usize, to: usize, message: TableMessage, time: u64) {
        self.counters.count_received(to, message.kind());
        if message == TableMessage::Answer {
            self.answered(to, time);
            return;
        }
        let cost = serving_ns(message, self.hardware.cpus.cost(to, time, 0), self.hardware.send_overhead_ns);
        let proc = &mut self.procs[to];
        if proc.phase == Phase::Scheduled {
            // Busy: the service interrupts its work, whose next step ends that much later.
            proc.debt_ns += cost;
        } else if time < proc.clock {
            // Still finishing its last step: that step ends later.
            proc.busy_ns += cost;
            proc.clock += cost;
        } else {
            // Idle (asleep, waiting for its own answers, or done): it serves at once.
            proc.idle_ns += time - proc.clock;
            proc.busy_ns += cost;
            proc.clock = time + cost;
        }
        if message == TableMessage::Request {
            self.send(to, from, Cargo::Table(TableMessage::Answer), time + cost);
        }
    }

    /// Processor `id` got one of the table answers its last step waits for; with the last
    /// one it carries on, after idling if the answer came after its work was done.
    fn answered(&mut self, id: usize, time: u64) {
        let proc = &mut self.procs[id];
        proc.awaiting -= 1;
        if proc.awaiting > 0 {
            return;
        }
        let Phase::Stalled(activity) = proc.phase else { unreachable!("only a stalled processor waits for table answers") };
        let work_end = proc.clock;
        if time > work_end {
            proc.idle_ns += time - work_end;
            proc.clock = time;
            self.change_state(id, work_end, Phase::Stalled(activity), ProcessorState::Waiting);
            self.change_state(id, time, Phase::Scheduled, ProcessorState::Busy);
        }
        let at = self.procs[id].clock;
        self.procs[id].phase = Phase::Scheduled;
        if self.carry_on(id, activity, at) {
            self.calendar.step_at(at, id);
        }
    }

    fn fall_asleep(&mut self, id: usize, time: u64) {
        self.change_state(id, time, Phase::Asleep, ProcessorState::Waiting);
    }

    /// Puts processor `id` in `phase` at `time`: its counters, and the trace's `state` line.
    fn change_state(&mut self, id: usize, time: u64, phase: Phase, state: ProcessorState) {
        self.procs[id].phase = phase;
        self.counters.set_working(id, state == ProcessorState::Busy);
        self.publish(id);
        let nodes = self.procs[id].nodes;
        self.record(Event::State { t: time, p: id as u32, state, nodes });
    }

    /// Wakes a sleeping processor at `time` (or when it fell asleep, if later), after the
    /// machine's wake-up if it has waited long enough to sleep.
    fn wake(&mut self, id: usize, time: u64) {
        let proc = &mut self.procs[id];
        let wake_ns = match self.hardware.sleep {
            Some(sleep) if time > proc.clock + sleep.after_ns => sleep.wake_ns,
            _ => 0,
        };
        let at = time.max(proc.clock) + wake_ns;
        proc.idle_ns += at - proc.clock;
        proc.clock = at;
        self.change_state(id, at, Phase::Scheduled, ProcessorState::Busy);
        self.calendar.step_at(at, id);
    }

    fn finished(&mut self, id: usize, time: u64) {
        self.change_state(id, time, Phase::Finished, ProcessorState::Done);
        if id == 0 {
            self.main_finished = true;
            self.main_end = time;
            for other in 1..self.procs.len() {
                if self.procs[other].phase == Phase::Asleep {
                    self.wake(other, time);
                }
            }
        }
    }

    /// Adds busy and idle time not yet counted to the shared counters.
    fn publish(&mut self, id: usize) {
        let proc = &mut self.procs[id];
        let (busy_us, idle_us) = (proc.busy_ns / 1000, proc.idle_ns / 1000);
        self.counters.add_busy(id, busy_us - proc.published_us.0);
        self.counters.add_idle(id, idle_us - proc.published_us.1);
        proc.published_us = (busy_us, idle_us);
    }

    /// Everyone is done: those who finished early were idle until the last one finished.
    fn finish(mut self) -> RunReport {
        let end = self.procs.iter().map(|p| p.clock).max().unwrap_or(0);
        for id in 0..self.procs.len() {
            let proc = &mut self.procs[id];
            // A departed processor's time ended when it left.
            if proc.phase != Phase::Gone {
                proc.idle_ns += end - proc.clock;
            }
            self.publish(id);
        }
        let elapsed_ns = self.result_ns();
        // The critical path in time: its nodes at the run's mean busy time per node.
        let (work_ns, nodes) = (self.procs.iter().map(|p| p.busy_ns).sum::<u64>(), self.procs.iter().map(|p| p.nodes).sum::<u64>());
        let critical_path_ns = self.critical_path_nodes.map(|c| (c as u128 * work_ns as u128 / nodes.max(1) as u128) as u64);
        RunReport {
            elapsed_ns,
            end_ns: end.max(elapsed_ns),
            steps: self.procs.iter().map(|p| p.steps).collect(),
            busy_ns: self.procs.iter().map(|p| p.busy_ns).collect(),
            idle_ns: self.procs.iter().map(|p| p.idle_ns).collect(),
            handling_ns: self.procs.iter().map(|p| p.handling_ns).collect(),
            critical_path_ns,
            messages: self.messages,
            link_busy_ns: self.hardware.links.busy_ns().to_vec(),
            links: self.hardware.links.utilisation(end),
        }
    }
}
