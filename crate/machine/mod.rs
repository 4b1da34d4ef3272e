//! Where processors run. An algorithm is a set of processor programs ([`Program`]); a
//! machine runs them. The `threads` machine runs them on real threads (the web workers
//! of the rayon pool in the browser); a simulated machine runs the same programs in
//! virtual time; with the `cluster` feature, the ranks of an MPI job run them, one
//! process each, their messages as bytes ([`wire`]). Programs see only [`Processor`]:
//! their id, the processor count, a mailbox, a random source and their counters — never
//! threads, processes or wasm.

pub mod cluster;
pub mod costs;
mod counters;
mod drive;
pub mod frame;
mod message;
mod offers;
pub mod sim;
mod threads;
pub mod wire;

pub use counters::{Counters, ProcessorSnapshot};
pub use message::{MessageKind, Payload};
pub use cluster::Cluster;
pub use sim::Sim;
pub use threads::{available_processors, run_on_threads, Threads};

use crate::tt::Access;
use crate::search::{Control, TreeEvent, TreePath};

/// Something that runs processor programs: real threads, or a simulated computer.
pub trait Machine {
    /// How many processors it can run at once.
    fn processors(&self) -> usize;
    /// Runs `main` as processor 0 and `helpers` as processors 1.. until all have
    /// finished, keeping `counters` (at least one slot per processor) up to date.
    ///
    /// The contract with programs: a program that returned [`Activity::Waiting`] is
    /// stepped again when a message arrives for it, and also after processor 0 has
    /// finished (helpers then see their stop signal and must finish promptly). A
    /// program must not rely on being stepped while it waits for nothing.
    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters);
    /// How many of the first `processors` processors of a search have their programs
    /// built in this process and handed to [`Machine::run`]: all of them, except on a
    /// machine made of several processes (a cluster), whose other processes build their
    /// own programs from the task processor 0 announces (see [`Remote`]).
    fn local_processors(&self, processors: usize) -> usize {
        processors
    }
    /// Tells the processors in other processes what the next [`Machine::run`] searches:
    /// `task` is the bytes their programs are built from. Only machines with fewer
    /// local processors than processors are told; the others have no one to tell.
    fn announce(&mut self, _task: Vec<u8>) {}
    /// Plies from the root whose nodes the searchers should report through
    /// [`Processor::tree`]: none by default (the simulator asks while it traces).
    fn tree_plies(&self) -> usize {
        0
    }
}

/// One processor of a machine made of several processes (a cluster's rank other than
/// 0), seen from the program built in its process: it runs that program alone, its
/// peers elsewhere.
pub trait Remote {
    /// This processor's number.
    fn id(&self) -> usize;
    /// How many processors take part.
    fn count(&self) -> usize;
    /// Runs `program` until it has finished, the machine setting `stop` once processor 0
    /// has (helpers then finish promptly, as on any machine: see [`Machine::run`]).
    fn serve<M: Payload>(&mut self, program: &mut dyn Program<Message = M>, stop: &Control);
    /// This processor's part, `mib` MiB, of a table split among the processors (entry h
    /// at processor `tt::owner(h, count)`), the other parts reached by messages.
    fn table_part(&self, mib: usize) -> Result<std::sync::Arc<crate::tt::TranspositionTable>, String>;
}

/// What a program's step left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// It did a unit of work and has more.
    Working,
    /// It has nothing to do until a message arrives (idle, or waiting for results).
    Waiting,
    /// It is done with this search.
    Finished,
}

/// The code one processor runs: a resumable piece of an algorithm.
pub trait Program {
    /// What its messages carry.
    type Message: Payload;
    /// Advances by one unit of work (one node of a searcher), or handles messages.
    fn step(&mut self, processor: &mut dyn Processor<Self::Message>) -> Activity;
    /// Positions this processor visited in the current search.
    fn nodes(&self) -> u64;
    /// The line of the search it is stepping now, from the root (for watchers; sampled
    /// now and then). `None` when it is on no line: idle, or searching no single path.
    fn line(&self) -> Option<TreePath> {
        None
    }
}

/// Something a program wants counted besides nodes and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// It handed part of its tree to another processor.
    Split,
    /// It abandoned a subproblem after this many nodes (a cutoff made them useless).
    Aborted(u64),
    /// It asked for its next job before the one it searched had ended (on a class's slow
    /// network, `parallel::split::pace`).
    AskedAhead,
}

/// A program's view of the machine it runs on.
pub trait Processor<M> {
    /// This processor's number, 0 for the one that reports to the user.
    fn id(&self) -> usize;
    /// How many processors take part.
    fn count(&self) -> usize;
    /// Sends `message` to processor `to` (delivered in order per sender and receiver).
    fn send(&mut self, to: usize, message: M);
    /// The next message that has arrived, with its sender.
    fn receive(&mut self) -> Option<(usize, M)>;
    /// Whether a program with more work may do another node within this step rather than
    /// return: on real threads while no message waits, as a step's bookkeeping costs
    /// about as much as a node; never on a simulated machine, whose clock charges each
    /// step (and delivers messages only between steps).
    fn may_go_on(&self) -> bool {
        false
    }
    /// A random number from this processor's own generator (reproducible on a
    /// simulated machine).
    fn random(&mut self) -> u64;
    /// Counts a split or aborted work.
    fn note(&mut self, note: Note);
    /// The program's searchers touched these entries of a table split among the
    /// processors (entry h at processor `tt::owner(h, count)`): a machine that models
    /// distance charges the accesses to other processors' parts; shared memory (the
    /// threads machine) ignores them.
    fn table_accesses(&mut self, _accesses: &[Access]) {}
    /// Takes a node of the top plies entered, left or split (the Lab's tree view).
    fn tree(&mut self, _event: TreeEvent) {}
    /// The time this processor has spent working in this run so far, on machines that
    /// keep such a clock (the simulator's virtual time); `None` on real threads. Programs
    /// read it to time their own units of work (the critical path, their speed).
    fn busy_ns(&self) -> Option<u64> {
        None
    }
    /// The CPU share processor `of` is predicted to give a new task, per mille, as a
    /// monitor reading its run queue every period predicts it (Hasan's PV-splitting on
    /// shared workstations), on machines that model background load; `None` elsewhere.
    fn predicted_availability(&self, _of: usize) -> Option<u32> {
        None
    }
    /// The time a message takes there and back between two processors (a WORK-REQUEST
    /// and its answer), in nanoseconds, on machines whose messages cost as much as a
    /// subtree: a class through its relay measures it when a search starts, and the
    /// simulator's classroom presets state it from their own constants. `None` on every
    /// other machine (threads, MPI, the papers' presets), whose programs then follow the
    /// papers' rules unchanged.
    fn round_trip_ns(&self) -> Option<u64> {
        None
    }
    /// Processor `of`'s time per node, in nanoseconds, where the machine knows it with
    /// [`Processor::round_trip_ns`] (a class's members report their node counts); `None`
    /// elsewhere.
    fn node_ns(&self, _of: usize) -> Option<u64> {
        None
    }
    /// Processor 0 tells the machine the critical path of the search it just finished, in
    /// nodes (StarTech's C: the longest chain of nodes that depend on each other, see
    /// `search::Searcher::span_total`), on machines that record it; others ignore it.
    fn report_critical_path(&mut self, _nodes: u64) {}
    /// Posts on the machine's offer board (shared memory every processor reads) the
    /// remaining depth of the largest job this processor could hand out now (`None`:
    /// nothing). Machines without shared memory have no board and ignore it.
    fn post_offer(&mut self, _offer: Option<i32>) {}
    /// Whether the machine has an offer board ([`Processor::best_offer`]).
    fn has_offer_board(&self) -> bool {
        false
    }
    /// Reads the offer board: the other processor offering the largest job and its offer,
    /// if any does (always `None` without a board). Reading costs what reading that much
    /// shared memory costs.
    fn best_offer(&mut self) -> Option<(usize, i32)> {
        None
    }
}

/// Sends `message` to every other processor.
pub fn broadcast<M: Clone>(processor: &mut dyn Processor<M>, message: M) {
    let me = processor.id();
    for to in (0..processor.count()).filter(|&to| to != me) {
        processor.send(to, message.clone());
    }
}

/// A processor other than `processor` itself, chosen at random (itself when alone).
pub fn random_other<M>(processor: &mut dyn Processor<M>) -> usize {
    let (me, count) = (processor.id(), processor.count());
    if count < 2 {
        return me;
    }
    let pick = (processor.random() % (count as u64 - 1)) as usize;
    if pick >= me {
        pick + 1
    } else {
        pick
    }
}
