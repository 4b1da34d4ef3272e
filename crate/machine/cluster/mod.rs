//! A cluster machine: processors with memories of their own, joined by a [`Link`] — the
//! ranks of an MPI job ([`mpi`], feature `cluster`), for users who outgrow one computer,
//! or the tabs and processes of a class through its relay. Rank r is processor r. Each
//! builds its own program: rank 0 the main program (it speaks UCI), rank r the helper
//! program r, from the task rank 0 announces ([`Machine::announce`], `parallel::help`).
//! Programs' messages travel as frames (their bytes from `Payload::encode`); each rank
//! searches with a table of its own, or over MPI with its part of Zugzwang's distributed
//! table (`mpi::table_part`, reached by messages).
//!
//! One search, as the ranks see it:
//! 1. rank 0 sends START (the task) to every rank and runs processor 0's program;
//! 2. ranks build their programs and run them, exchanging PROGRAM frames, and report
//!    their node counts (NODES) now and then;
//! 3. when processor 0 finishes, rank 0 sends FINISHED; the others finish their programs,
//!    complete their sends, and answer DONE with their counters;
//! 4. rank 0 returns once every DONE is in. A rank still silent after
//!    [`DONE_TIMEOUT_MS`], or whose DONE is unreadable, has broken the search's end: its
//!    counters are left out, and the link expels it ([`Link::expel`]; over the relay it is
//!    then lost like a tab that vanished, and later searches go on without it). Where the
//!    link cannot (MPI) it is a fault ([`Cluster::fault`]): rank 0 returns its result,
//!    and the job is ended after its answer.
//!
//! Frames carry the search's number, so a message still in flight from an earlier
//! search is dropped on arrival. Over MPI a rank that dies ends the whole job: OpenMPI's
//! runtime aborts every rank and `mpirun` names the lost one (rsmpi offers no error
//! handler that returns, and OpenMPI 4.1 without ULFM cannot go on without a rank
//! anyway). Over the relay a processor may vanish: the link reports it lost, the
//! programs hear it ([`Payload::lost`]) and search again what they gave it, and nobody
//! waits for its DONE.

pub mod link;

/// The most processors a cluster machine has: what its hosts count (the UCI engine's
/// `Threads`, a lecturer tab's table). A larger job or class is refused where it is set up
/// (`mpirun -np`, the relay's `--max-members`, a roster the relay sends).
pub const MAX_PROCESSORS: usize = 256;
#[cfg(feature = "cluster")]
pub mod mpi;
mod processor;
pub mod relay;

use super::drive::{drive, Drive};
use super::frame::{frame, Frame, FrameKind};
use super::{run_on_threads, Activity, Counters, Machine, Payload, Processor, Program, Remote};
use crate::search::Control;
use link::{Arrival, Link};
use processor::LinkProcessor;
use std::sync::Arc;

/// How long rank 0 waits for a rank's DONE after FINISHED before it ends the job: a
/// helper finishes within a step of hearing FINISHED, so silence this long means a rank
/// that hangs or is cut off.
pub const DONE_TIMEOUT_MS: f64 = 10_000.0;

/// Processor 0's machine: processor 0 here, processors 1.. at the other ends of its link.
pub struct Cluster<L> {
    link: L,
    /// The number of the last search (frames of older ones are dropped).
    search: u32,
    /// The task announced for the next run.
    task: Option<Vec<u8>>,
    /// Why the machine cannot search again (a rank stopped answering).
    fault: Option<String>,
    /// Whether jobs are sized to a slow link's measured round trip (`parallel::split`'s
    /// pace; the default) or split as the papers split, whatever the link.
    paced: bool,
}

impl<L: Link> Cluster<L> {
    /// The machine of processor 0 of `link` (None for another processor).
    pub fn new(link: L) -> Option<Cluster<L>> {
        (link.rank() == 0).then_some(Cluster { link, search: 0, task: None, fault: None, paced: true })
    }

    /// Why this machine cannot search any more, if it cannot: the caller answers with the
    /// result it has and then ends the job.
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// Its link (to end an MPI job, say).
    pub fn link(&self) -> &L {
        &self.link
    }

    /// Its link, to change (a class's owner starts each search's roster on it).
    pub fn link_mut(&mut self) -> &mut L {
        &mut self.link
    }

    /// Splits as the papers split (`false`), whatever the link's round trip, or sizes jobs
    /// to it (`true`, the default): a lecturer comparing the two, or a test that needs
    /// small jobs to cross a fast relay.
    pub fn set_paced(&mut self, paced: bool) {
        self.paced = paced;
    }

    /// Tells every other processor to end its process (after the last search).
    pub fn quit(&mut self) {
        for rank in 1..self.link.size() {
            self.link.send(rank, frame(FrameKind::Quit, self.search, &[]));
        }
    }
}

impl<L: Link> Machine for Cluster<L> {
    fn processors(&self) -> usize {
        self.link.size()
    }

    fn local_processors(&self, processors: usize) -> usize {
        processors.min(1)
    }

    fn announce(&mut self, task: Vec<u8>) {
        self.task = Some(task);
    }

    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
        debug_assert!(self.task.is_none() || helpers.is_empty(), "other processors build their own programs");
        let ranks = self.link.size();
        if self.task.is_some() && self.fault.is_none() && ranks > counters.len() {
            self.fault = Some(format!("{ranks} processors, and this engine counts at most {}", counters.len()));
        }
        match self.task.take() {
            // A machine that has lost a processor for good searches alone (its caller
            // says why), as processor 0 does when nothing is announced (the serial search).
            Some(task) if self.fault.is_none() => self.run_together(main, task, counters),
            _ => run_on_threads(main, helpers, counters),
        }
        // However it went, the search is over (the relay lets late joiners in).
        self.link.search_over();
    }
}

impl<L: Link> Cluster<L> {
    /// Runs `main` as processor 0 with every other processor on the task it announced.
    fn run_together<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, task: Vec<u8>, counters: &Counters) {
        let ranks = self.link.size();
        self.search = self.link.next_search(self.search.wrapping_add(1));
        self.link.table_search(Some(self.search));
        let started = crate::clock::now_ms();
        for rank in 1..ranks {
            self.link.send(rank, frame(FrameKind::Start, self.search, &task));
        }
        let mut cpu = LinkProcessor::new(&mut self.link, self.search, counters, None);
        if self.paced {
            cpu.measure_network(started);
        }
        drive(main, &mut cpu, counters);
        let gone = cpu.gone().to_vec();
        drop(cpu);
        self.link.table_search(None);
        self.link.count_table_into(counters, 0);
        for rank in 1..ranks {
            self.link.send(rank, frame(FrameKind::Finished, self.search, &[]));
        }
        for (processor, why) in collect_done(&mut self.link, self.search, &gone, counters) {
            if self.link.expel(processor, &why) {
                counters.count_received(0, super::MessageKind::Lost);
            } else if self.fault.is_none() {
                self.link.abandon();
                self.fault = Some(why);
            }
        }
    }
}

/// Waits for every other processor's DONE (their counters into `counters`), dropping
/// late program messages, until processor 0's own sends have completed too; or, for at
/// most [`DONE_TIMEOUT_MS`]. Returns the processors that broke the end, each with why: an
/// unreadable DONE, or silence (theirs, or sends to them that never complete). A
/// processor the link declared lost (during the search: `gone`) owes no DONE.
fn collect_done(link: &mut impl Link, search: u32, gone: &[usize], counters: &Counters) -> Vec<(usize, String)> {
    let start = crate::clock::now_ms();
    let mut done = vec![false; link.size()];
    done[0] = true;
    let mut broken = Vec::new();
    for &processor in gone {
        if let Some(done) = done.get_mut(processor) {
            *done = true;
        }
    }
    loop {
        while let Some(arrival) = link.receive() {
            let frame = match arrival {
                Arrival::Frame(frame) => frame,
                // Lost after processor 0 finished: counted as processor 0's programs count
                // the losses they hear.
                Arrival::Lost(processor) => {
                    if let Some(done) = done.get_mut(processor).filter(|done| !**done) {
                        *done = true;
                        counters.count_received(0, super::MessageKind::Lost);
                    }
                    continue;
                }
            };
            if frame.search != search {
                continue;
            }
            match frame.kind {
                FrameKind::Done if done.get(frame.from).is_none_or(|&done| done) => {}
                FrameKind::Done => {
                    done[frame.from] = true;
                    match processor::decode_snapshot(&frame.body) {
                        Ok(snapshot) => counters.set_snapshot(frame.from, &snapshot),
                        Err(e) => broken.push((frame.from, format!("processor {} sent unreadable counters: {e}", frame.from))),
                    }
                }
                FrameKind::Nodes => {
                    processor::take_nodes(&frame, counters);
                }
                // Table frames too: their askers stop waiting on FINISHED.
                FrameKind::Program | FrameKind::Start | FrameKind::Finished | FrameKind::Quit | FrameKind::TableRequest | FrameKind::TableAnswer | FrameKind::TablePut => {}
            }
        }
        link.finish_sends();
        if done.iter().all(|&d| d) && !link.sending() {
            return broken;
        }
        if crate::clock::now_ms() - start > DONE_TIMEOUT_MS {
            let mut silent: Vec<usize> = (0..done.len()).filter(|&r| !done[r]).chain(link.sending_to()).collect();
            silent.sort_unstable();
            silent.dedup();
            let why = |rank| format!("rank {rank} did not finish its search within {} s of the end", DONE_TIMEOUT_MS / 1000.0);
            broken.extend(silent.into_iter().map(|rank| (rank, why(rank))));
            return broken;
        }
        pause(link, std::time::Duration::from_micros(100));
    }
}

/// Waits up to `within` for something to arrive on `link`: blocked where the link can
/// ([`Link::await_arrival`]: an arrival ends the wait at once), else asleep.
fn pause(link: &mut impl Link, within: std::time::Duration) {
    if !link.await_arrival(within) {
        std::thread::sleep(within);
    }
}

/// What rank 0 asks of another rank between searches.
pub enum Order {
    /// Take part in a search: build the program from these task bytes.
    Search(Vec<u8>),
    /// End the process.
    Quit,
}

/// A processor other than 0: it runs the programs built from processor 0's tasks.
pub struct Rank<L> {
    link: L,
    search: u32,
    /// Program messages and table frames of the next search that came before rank 0's
    /// START (another rank may start, and send, first: MPI orders frames per sender only).
    early: Vec<Frame>,
    /// Whether rank 0 has said FINISHED for the current search.
    finished: bool,
    /// Its processor's counters (shared: a tab's page samples them while it searches).
    counters: Arc<Counters>,
}

/// How long an idle rank waits between looks for rank 0's next order.
const IDLE_NAP: std::time::Duration = std::time::Duration::from_millis(1);

impl<L: Link> Rank<L> {
    /// The processor at this end of `link` (None for processor 0).
    pub fn new(link: L) -> Option<Rank<L>> {
        let size = link.size();
        (link.rank() != 0).then(|| Rank { link, search: 0, early: Vec::new(), finished: true, counters: Arc::new(Counters::new(size)) })
    }

    /// Its link (to end an MPI job, say).
    pub fn link(&self) -> &L {
        &self.link
    }

    /// The counters of its searches (its own at index [`Remote::id`]), replaced when a
    /// search has more processors than they hold.
    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// Waits for rank 0's next order, dropping what is left of the last search and
    /// keeping what another rank already sent for the next one.
    pub fn next_order(&mut self) -> Order {
        loop {
            if let Some(order) = self.poll_order() {
                return order;
            }
            pause(&mut self.link, IDLE_NAP);
        }
    }

    /// Rank 0's next order if it has come (else `None` at once): what
    /// [`Rank::next_order`] waits for, for a host that cannot block.
    pub fn poll_order(&mut self) -> Option<Order> {
        while let Some(arrival) = self.link.receive() {
            let frame = match arrival {
                Arrival::Frame(frame) => frame,
                // Processor 0 gone between searches: no order will come.
                Arrival::Lost(0) => return Some(Order::Quit),
                Arrival::Lost(_) => continue,
            };
            match frame.kind {
                FrameKind::Start => {
                    (self.search, self.finished) = (frame.search, false);
                    // A class's roster changes from search to search.
                    if self.counters.len() < self.link.size() {
                        self.counters = Arc::new(Counters::new(self.link.size()));
                    }
                    self.counters.reset();
                    self.link.table_search(Some(frame.search));
                    let search = self.search;
                    self.early.retain(|f| f.search == search);
                    processor::echo_start(&mut self.link, search);
                    return Some(Order::Search(frame.body));
                }
                FrameKind::Quit => return Some(Order::Quit),
                // Per sender, every frame of the last search comes before any of the next.
                FrameKind::Program | FrameKind::TableRequest | FrameKind::TablePut if frame.search != self.search => self.early.push(frame),
                FrameKind::Program | FrameKind::TableRequest | FrameKind::TablePut | FrameKind::TableAnswer | FrameKind::Finished | FrameKind::Done | FrameKind::Nodes => {}
            }
        }
        self.link.finish_sends();
        None
    }

    /// Ends this rank's part of the search: waits for FINISHED, completes its sends and
    /// answers DONE with its counters. Called after every [`Order::Search`], whether or
    /// not a program ran.
    pub fn end_search(&mut self) {
        while !self.poll_end() {
            pause(&mut self.link, std::time::Duration::from_micros(100));
        }
        self.send_done();
        while self.link.sending() {
            self.link.finish_sends();
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    }

    /// Whether rank 0 has said FINISHED and this rank's sends are complete, so that it
    /// may answer DONE ([`Rank::send_done`]): what [`Rank::end_search`] waits for, for a
    /// host that cannot block.
    pub fn poll_end(&mut self) -> bool {
        while let Some(arrival) = self.link.receive() {
            match arrival {
                Arrival::Frame(frame) => self.finished |= frame.kind == FrameKind::Finished && frame.search == self.search,
                Arrival::Lost(processor) => self.finished |= processor == 0,
            }
        }
        self.link.finish_sends();
        self.finished && !self.link.sending()
    }

    /// Answers DONE with this rank's counters (once [`Rank::poll_end`] holds).
    pub fn send_done(&mut self) {
        let snapshot = self.counters.snapshot()[self.id()];
        let body = processor::encode_snapshot(&snapshot);
        self.link.send(0, frame(FrameKind::Done, self.search, &body));
    }

    /// Runs `program` as [`Remote::serve`] does, for a host with one thread that must go
    /// back to its event loop to hear its link (the browser's single build): it steps the
    /// program for about `slice_ms` milliseconds, then awaits `pause(waiting)`, where
    /// `waiting` says the program has nothing to do until a frame comes (the host may
    /// sleep until one does).
    pub async fn serve_in_slices<M: Payload, F: std::future::Future<Output = ()>>(&mut self, program: &mut dyn Program<Message = M>, stop: &Control, slice_ms: f64, mut pause: impl FnMut(bool) -> F) {
        let counters = self.counters.clone();
        let mut cpu = self.processor(&counters, stop);
        let mut drive = Drive::begin(cpu.id(), &counters);
        let mut slice_start = crate::clock::now_ms();
        let mut steps = 0u32;
        while let Some(activity) = drive.step(program, &mut cpu, &counters) {
            steps += 1;
            let waiting = activity == Activity::Waiting;
            if waiting || (steps.is_multiple_of(STEPS_PER_CLOCK_LOOK) && crate::clock::now_ms() - slice_start >= slice_ms) {
                pause(waiting).await;
                slice_start = crate::clock::now_ms();
            }
        }
        drive.end(program, &counters);
        let finished = cpu.finished();
        self.served(finished);
    }

    /// Its processor for the current search, with what arrived before START taken in.
    fn processor<'a, M: Payload>(&'a mut self, counters: &'a Counters, stop: &'a Control) -> LinkProcessor<'a, L, M> {
        if self.finished {
            stop.stop();
        }
        let mut cpu = LinkProcessor::new(&mut self.link, self.search, counters, Some(stop));
        for frame in self.early.drain(..) {
            cpu.take(frame);
        }
        cpu
    }

    /// Its program has finished (`finished`: having heard FINISHED on the way).
    fn served(&mut self, finished: bool) {
        self.finished |= finished;
        self.link.count_table_into(&self.counters, self.link.rank());
    }
}

/// Steps of a sliced program between two looks at the clock (a step is a node or a few
/// dozen).
const STEPS_PER_CLOCK_LOOK: u32 = 64;

impl<L: Link> Remote for Rank<L> {
    fn id(&self) -> usize {
        self.link.rank()
    }

    fn count(&self) -> usize {
        self.link.size()
    }

    fn serve<M: Payload>(&mut self, program: &mut dyn Program<Message = M>, stop: &Control) {
        let counters = self.counters.clone();
        let mut cpu = self.processor(&counters, stop);
        drive(program, &mut cpu, &counters);
        let finished = cpu.finished();
        self.served(finished);
    }

    fn table_part(&self, mib: usize) -> Result<std::sync::Arc<crate::tt::TranspositionTable>, String> {
        self.link.table_part(mib)
    }
}
