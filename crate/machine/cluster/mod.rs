//! A cluster machine: MPI ranks as processors (OpenMPI through the `mpi` crate), for
//! users who outgrow one computer. Rank r is processor r. Each rank is a process with a
//! memory of its own, so each builds its own program: rank 0 the main program (it speaks
//! UCI), rank r the helper program r, from the task rank 0 announces
//! ([`Machine::announce`], `parallel::help`). Programs' messages travel as MPI messages
//! (their bytes from `Payload::encode`); each rank searches with a table of its own, or
//! with its part of Zugzwang's distributed table ([`table_part`], reached by messages).
//!
//! One search, as the ranks see it:
//! 1. rank 0 sends START (the task) to every rank and runs processor 0's program;
//! 2. ranks build their programs and run them, exchanging PROGRAM frames, and report
//!    their node counts (NODES) now and then;
//! 3. when processor 0 finishes, rank 0 sends FINISHED; the others finish their programs,
//!    complete their sends, and answer DONE with their counters;
//! 4. rank 0 returns once every DONE is in. A rank still silent after
//!    [`DONE_TIMEOUT_MS`] is a fault ([`Cluster::fault`]): rank 0 returns its result, and
//!    the job is ended after its answer.
//!
//! Frames carry the search's number, so a message still in flight from an earlier
//! search is dropped on arrival. A rank that dies ends the whole job: OpenMPI's runtime
//! aborts every rank and `mpirun` names the lost one (rsmpi offers no error handler that
//! returns, and OpenMPI 4.1 without ULFM cannot go on without a rank anyway).

mod processor;
mod table;
mod transport;

pub use table::{table_part, ANSWER_TIMEOUT_MS};

use super::{run_on_threads, Counters, Machine, Payload, Program, Remote};
use crate::search::Control;
use super::drive::drive;
use processor::MpiProcessor;
use transport::{frame, Frame, FrameKind, Wire};

/// How long rank 0 waits for a rank's DONE after FINISHED before it ends the job: a
/// helper finishes within a step of hearing FINISHED, so silence this long means a rank
/// that hangs or is cut off.
pub const DONE_TIMEOUT_MS: f64 = 10_000.0;

/// Rank 0's machine: processor 0 here, processors 1.. on the other ranks.
pub struct Cluster {
    ranks: usize,
    /// The number of the last search (frames of older ones are dropped).
    search: u32,
    /// The task announced for the next run.
    task: Option<Vec<u8>>,
    /// Why the machine cannot search again (a rank stopped answering).
    fault: Option<String>,
}

impl Cluster {
    /// The machine of rank 0 of an initialised MPI world (None on another rank).
    pub fn new() -> Option<Cluster> {
        let wire = Wire::new();
        (wire.rank() == 0).then(|| Cluster { ranks: wire.size(), search: 0, task: None, fault: None })
    }

    /// Why this machine cannot search any more, if it cannot: the caller answers with the
    /// result it has and then ends the job ([`Cluster::end`]).
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// Ends the whole job at once, every rank, with `message` on standard error.
    pub fn end(&self, message: &str) -> ! {
        Wire::new().abort(message)
    }

    /// Tells every other rank to end its process (after the last search).
    pub fn quit(&mut self) {
        let mut wire = Wire::new();
        for rank in 1..self.ranks {
            wire.send(rank, frame(FrameKind::Quit, self.search, &[]));
        }
    }
}

impl Machine for Cluster {
    fn processors(&self) -> usize {
        self.ranks
    }

    fn local_processors(&self, processors: usize) -> usize {
        processors.min(1)
    }

    fn announce(&mut self, task: Vec<u8>) {
        self.task = Some(task);
    }

    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
        // Nothing announced: processor 0 searches alone (the serial search).
        let Some(task) = self.task.take() else { return run_on_threads(main, helpers, counters) };
        if let Some(fault) = &self.fault {
            self.end(fault);
        }
        debug_assert!(helpers.is_empty(), "other ranks build their own programs");
        assert!(self.ranks <= counters.len(), "counters for {} processors, {} ranks", counters.len(), self.ranks);
        self.search = self.search.wrapping_add(1);
        let mut wire = Wire::new();
        table::forget_counts();
        table::begin(self.search);
        for rank in 1..self.ranks {
            wire.send(rank, frame(FrameKind::Start, self.search, &task));
        }
        let mut cpu = MpiProcessor::new(&mut wire, self.search, counters, None);
        drive(main, &mut cpu, counters);
        drop(cpu);
        table::end();
        table::count_into(counters, 0);
        for rank in 1..self.ranks {
            wire.send(rank, frame(FrameKind::Finished, self.search, &[]));
        }
        if let Err(fault) = collect_done(&mut wire, self.search, counters) {
            wire.abandon();
            self.fault = Some(fault);
        }
    }
}

/// Waits for every other rank's DONE (their counters into `counters`), dropping late
/// program messages, until rank 0's own sends have completed too; or, for at most
/// [`DONE_TIMEOUT_MS`], then says which ranks stay silent.
fn collect_done(wire: &mut Wire, search: u32, counters: &Counters) -> Result<(), String> {
    let start = crate::clock::now_ms();
    let mut done = vec![false; wire.size()];
    done[0] = true;
    loop {
        while let Some(frame) = wire.receive() {
            if frame.search != search {
                continue;
            }
            match frame.kind {
                FrameKind::Done => match processor::decode_snapshot(&frame.body) {
                    Ok(snapshot) => {
                        counters.set_snapshot(frame.from, &snapshot);
                        done[frame.from] = true;
                    }
                    Err(e) => wire.abort(&format!("rank {} sent unreadable counters: {e}", frame.from)),
                },
                FrameKind::Nodes => processor::take_nodes(&frame, counters),
                // Table frames too: their askers stop waiting on FINISHED.
                FrameKind::Program | FrameKind::Start | FrameKind::Finished | FrameKind::Quit | FrameKind::TableRequest | FrameKind::TableAnswer | FrameKind::TablePut => {}
            }
        }
        wire.finish_sends();
        if done.iter().all(|&d| d) && !wire.sending() {
            return Ok(());
        }
        if crate::clock::now_ms() - start > DONE_TIMEOUT_MS {
            let mut silent: Vec<usize> = (0..done.len()).filter(|&r| !done[r]).chain(wire.sending_to()).collect();
            silent.sort_unstable();
            silent.dedup();
            let ranks: Vec<String> = silent.iter().map(usize::to_string).collect();
            return Err(format!("rank {} did not finish its search within {} s of the end", ranks.join(", "), DONE_TIMEOUT_MS / 1000.0));
        }
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
}

/// What rank 0 asks of another rank between searches.
pub enum Order {
    /// Take part in a search: build the program from these task bytes.
    Search(Vec<u8>),
    /// End the process.
    Quit,
}

/// A rank other than 0: it runs the programs built from rank 0's tasks.
pub struct Rank {
    wire: Wire,
    search: u32,
    /// Program messages and table frames of the next search that came before rank 0's
    /// START (another rank may start, and send, first: MPI orders frames per sender only).
    early: Vec<Frame>,
    /// Whether rank 0 has said FINISHED for the current search.
    finished: bool,
    counters: Counters,
}

/// How long an idle rank sleeps between looks for rank 0's next order.
const IDLE_NAP: std::time::Duration = std::time::Duration::from_millis(1);

impl Rank {
    /// This process's rank of an initialised MPI world (None on rank 0).
    pub fn new() -> Option<Rank> {
        let wire = Wire::new();
        let size = wire.size();
        (wire.rank() != 0).then(|| Rank { wire, search: 0, early: Vec::new(), finished: true, counters: Counters::new(size) })
    }

    /// Waits for rank 0's next order, dropping what is left of the last search and
    /// keeping what another rank already sent for the next one.
    pub fn next_order(&mut self) -> Order {
        loop {
            while let Some(frame) = self.wire.receive() {
                match frame.kind {
                    FrameKind::Start => {
                        (self.search, self.finished) = (frame.search, false);
                        self.counters.reset();
                        table::forget_counts();
                        table::begin(frame.search);
                        let search = self.search;
                        self.early.retain(|f| f.search == search);
                        return Order::Search(frame.body);
                    }
                    FrameKind::Quit => return Order::Quit,
                    // Per sender, every frame of the last search comes before any of the next.
                    FrameKind::Program | FrameKind::TableRequest | FrameKind::TablePut if frame.search != self.search => self.early.push(frame),
                    FrameKind::Program | FrameKind::TableRequest | FrameKind::TablePut | FrameKind::TableAnswer | FrameKind::Finished | FrameKind::Done | FrameKind::Nodes => {}
                }
            }
            self.wire.finish_sends();
            std::thread::sleep(IDLE_NAP);
        }
    }

    /// Ends this rank's part of the search: waits for FINISHED, completes its sends and
    /// answers DONE with its counters. Called after every [`Order::Search`], whether or
    /// not a program ran.
    pub fn end_search(&mut self) {
        while !self.finished || self.wire.sending() {
            while let Some(frame) = self.wire.receive() {
                if frame.kind == FrameKind::Finished && frame.search == self.search {
                    self.finished = true;
                }
            }
            self.wire.finish_sends();
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        let snapshot = self.counters.snapshot()[self.id()];
        let body = processor::encode_snapshot(&snapshot);
        self.wire.send(0, frame(FrameKind::Done, self.search, &body));
        while self.wire.sending() {
            self.wire.finish_sends();
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    }

    /// Ends the whole job with `message` (a task this rank cannot take).
    pub fn abort(&self, message: &str) -> ! {
        self.wire.abort(message)
    }
}

impl Remote for Rank {
    fn id(&self) -> usize {
        self.wire.rank()
    }

    fn count(&self) -> usize {
        self.wire.size()
    }

    fn serve<M: Payload>(&mut self, program: &mut dyn Program<Message = M>, stop: &Control) {
        if self.finished {
            stop.stop();
        }
        let mut cpu = MpiProcessor::new(&mut self.wire, self.search, &self.counters, Some(stop));
        for frame in self.early.drain(..) {
            cpu.take(frame);
        }
        drive(program, &mut cpu, &self.counters);
        self.finished |= cpu.finished();
        table::count_into(&self.counters, self.wire.rank());
    }

    fn table_part(&self, mib: usize) -> Result<std::sync::Arc<crate::tt::TranspositionTable>, crate::tt::AllocError> {
        table_part(mib)
    }
}
