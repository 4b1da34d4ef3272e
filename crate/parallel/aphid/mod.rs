//! APHID: Asynchronous Parallel Hierarchical Iterative Deepening.
//!
//! CITE: M. G. Brockington and J. Schaeffer, "APHID: Asynchronous Parallel Game-Tree
//! Search", J. Parallel and Distributed Computing 60 (2000), doi:10.1006/jpdc.1999.1600;
//! first as "The APHID Parallel αβ Search Algorithm", SPDP 1996 (TR96-07, University of
//! Alberta); Brockington's PhD thesis (Alberta, 1998). What we used, in the sources' words:
//! - TR96-07's abstract: "An APHID search is a hierarchical search with a master
//!   controlling the top of the tree (d' ply), and the slaves searching the rest of the
//!   tree (d-d' ply). The slaves asynchronously read work lists from the master and
//!   return score information to the master. The master uses the returned score
//!   information to generate approximate minimax values, until all of the required score
//!   information is available."
//! - the chessprogramming wiki's account of the paper ("APHID"): "When the master reaches a
//!   leaf of the d'-ply tree, it uses either a (d-d')-ply search result already available
//!   from the slave, or the 'best available' i.e. using guessed scores from shallower
//!   previous searches marked as uncertain. As values get backed up the tree, the master
//!   maintains a count of how many uncertain nodes have been visited in a pass of the
//!   tree, and has to repeat the root search until all contributing leaves have reliable,
//!   certain results." Slaves run "the same code that a sequential alpha-beta searcher
//!   would", over their part of the APHID table.
//! - the JPDC abstract: APHID "yields better speedups than synchronous search methods for
//!   an Othello and a checkers program and comparable speedups on two chess programs".
//!
//! The full text (its leaf allocation, load balancing and windows) was not at hand; where
//! the sources above are silent the rules below are ours, and say so.
//!
//! # The idea
//! Processor 0, the master, searches the top d′ = [`master::MASTER_PLIES`] plies again and
//! again (a *pass*), inside its iterative deepening. Every leaf of that shallow tree
//! belongs to one slave, which searches it with the serial searcher and reports each value
//! into the APHID table as soon as it has it ([`message::AphidMessage::Value`]). A pass
//! takes a leaf's value from the table when a report at the depth it needs decides the
//! window the leaf has in this pass; otherwise it takes a guess (the deepest report, or
//! the static evaluation), counts the leaf uncertain, and tells its owner what it wants
//! (a WANT: depth and window). A pass that met no uncertain leaf ends the iteration with
//! an exact value; otherwise the master passes again once new values have come.
//! Nobody ever waits for a reply: the master is a slave too and searches its own leaves
//! between passes, and a slave with no wanted leaf searches its leaves one ply deeper
//! than asked, for the next iteration. No table is shared.
//!
//! # Invariants
//! - Every leaf has one owner, which holds its latest want; a VALUE is a fail-soft bound
//!   of the leaf's value at its depth, so reports gathered in any order, from any window,
//!   only tighten what the table knows ([`table`]).
//! - A leaf is certain only through a report at the very depth the pass needs (in pure
//!   mode; without it a deeper one serves too) that decides the pass's window; the
//!   shallow tree applies the serial searcher's rules (draws, check extensions, mates,
//!   quiescence at the horizon). So a pass without uncertain leaves is a fail-soft
//!   alpha-beta over exact leaf values: in pure mode, the serial search's value.
//! - Every uncertain leaf has a want outstanding at its owner, so every pass that is not
//!   the last is followed by a value that moves the table; and a leaf asked at one depth
//!   with narrow windows twice is then asked for its exact value, which decides every
//!   window: each iteration ends.
//! - Processor 0 alone reports and decides; the others stop when it is done.
//!
//! # Departures from the paper
//! - Leaves go to the processor owning the fewest when the master first meets them, and
//!   stay there; the paper's load balancing (moving leaves between slaves) is not done.
//!   A processor that is lost (a class's tab closed) has its leaves moved to the others
//!   with their last wants, and the value stays exact.
//! - A slave searches a leaf with the window the leaf had in the master's last pass (a
//!   WANT); the paper's slaves are told only which leaves to search. Windows let a slave
//!   search a leaf far more cheaply than its exact value; the price is a second search
//!   when a later pass gives the leaf another window, bounded as the invariants say.
//! - d′ is fixed at two plies for chess (35² leaves); the paper chose d′ per game.
//! - The master's shallow tree is a plain fail-soft alpha-beta over the legal moves,
//!   ordered by the last pass's values, without the serial searcher's pruning. MultiPV
//!   searches each root move with the window's lower end at the k-th best value so far,
//!   so the k best values are exact (the serial driver searches the lines one by one).
//! - Processor 0 is master and slave at once (the paper ran the master beside a slave on
//!   one workstation).

mod master;
pub(super) mod message;
mod slave;
mod table;

use super::program::{forward_tree_events, pass_accesses};
use super::{OwnLines, SummingListener};
use crate::machine::{Activity, Counters, Machine, Processor, Program};
use crate::search::{Control, Listener, NoReports, SearchResult, Searcher, Task, TreePath};
use crate::tt::Tables;
use master::{Master, Outgoing};
use message::AphidMessage;
use slave::{Slave, SlaveStep};

/// One APHID search of `task` on the processors of `machine`, those of this process
/// searching with `searchers` (see `Machine::local_processors`); processor 0's reports go
/// to `summing`.
pub(super) fn search<Mach: Machine>(machine: &mut Mach, searchers: &mut [Searcher], tables: &Tables, task: &Task<'_>, control: &Control, processors: usize, summing: SummingListener<'_>) -> SearchResult {
    let counters = summing.counters;
    let stop = OwnLines(Control::default());
    let helpers_stop: &Control = &stop;
    let (main_searcher, helper_searchers) = searchers.split_at_mut(1);
    let master = Master::new(task, processors, tables.of_processor(0), control, summing);
    let mut main = AphidProgram { master: Some(master), slave: Slave::new(&mut main_searcher[0], task.settings.options), helpers_stop, counters: Some(counters) };
    let helpers: Vec<Box<dyn Program<Message = AphidMessage> + Send + '_>> =
        helper_searchers.iter_mut().map(|s| Box::new(helper(s, task, helpers_stop)) as Box<dyn Program<Message = AphidMessage> + Send + '_>).collect();
    machine.run(&mut main, helpers, counters);
    main.master.take().expect("processor 0 holds the master").into_result()
}

/// The program of an APHID processor other than 0: a slave until processor 0 is done.
pub(super) fn helper<'a>(searcher: &'a mut Searcher, task: &Task<'_>, helpers_stop: &'a Control) -> AphidProgram<'a, NoReports> {
    AphidProgram { master: None, slave: Slave::new(searcher, task.settings.options), helpers_stop, counters: None }
}

impl<'a> AphidProgram<'a, NoReports> {
    /// The slave searching each leaf on `cores` too.
    pub(super) fn with_cores(mut self, cores: &'a super::cores::Cores) -> Self {
        self.slave.cores = Some(cores);
        self
    }
}

/// One processor of an APHID search: a slave, and on processor 0 the master as well.
pub(super) struct AphidProgram<'a, L: Listener> {
    master: Option<Master<'a, L>>,
    slave: Slave<'a>,
    /// Processor 0 stops the others through this when it is done; they obey it.
    helpers_stop: &'a Control,
    /// Processor 0 reads every processor's nodes here (the node limit).
    counters: Option<&'a Counters>,
}

impl<L: Listener> AphidProgram<'_, L> {
    fn handle(&mut self, from: usize, message: AphidMessage, cpu: &mut dyn Processor<AphidMessage>) {
        match (message, self.master.as_mut()) {
            (AphidMessage::Value { leaf, value }, Some(master)) => master.record(from, leaf, value),
            (AphidMessage::Lost, Some(master)) => {
                let moved = master.lose(from);
                self.route(moved, cpu);
            }
            // Only the master hands out leaves: a slave takes them from processor 0 alone.
            (AphidMessage::Leaf { leaf, problem }, None) if from == 0 => self.slave.take(leaf, *problem),
            (AphidMessage::Want { leaf, want }, None) if from == 0 => {
                self.slave.want(leaf, want);
            }
            // A slave does not care who else is gone; stray messages are dropped.
            _ => {}
        }
    }

    /// Sends the master's messages, handing processor 0's own straight to its slave.
    fn route(&mut self, out: Vec<Outgoing>, cpu: &mut dyn Processor<AphidMessage>) {
        for (to, message) in out {
            if to != cpu.id() {
                cpu.send(to, message);
                continue;
            }
            match message {
                AphidMessage::Leaf { leaf, problem } => self.slave.take(leaf, *problem),
                AphidMessage::Want { leaf, want } => {
                    self.slave.want(leaf, want);
                }
                AphidMessage::Value { .. } | AphidMessage::Lost => {}
            }
        }
    }

    /// Processor 0: passes while values come, and the end of the search.
    fn step_master(&mut self, cpu: &mut dyn Processor<AphidMessage>) -> Option<Activity> {
        let total = self.counters.map_or(0, |c| c.total_nodes()).max(self.nodes());
        let master = self.master.as_mut()?;
        if master.finished(total) {
            self.helpers_stop.stop();
            self.slave.abandon(cpu);
            return Some(Activity::Finished);
        }
        if master.dirty {
            let seldepth = self.slave.searcher().seldepth();
            let out = master.pass(total, seldepth);
            self.route(out, cpu);
            return Some(Activity::Working);
        }
        None
    }
}

impl<L: Listener> Program for AphidProgram<'_, L> {
    type Message = AphidMessage;

    fn step(&mut self, cpu: &mut dyn Processor<AphidMessage>) -> Activity {
        while let Some((from, message)) = cpu.receive() {
            self.handle(from, message, cpu);
        }
        if let Some(activity) = self.step_master(cpu) {
            return activity;
        }
        if self.master.is_none() && self.helpers_stop.stopped() {
            self.slave.abandon(cpu);
            return Activity::Finished;
        }
        let stepped = self.slave.work(cpu);
        pass_accesses(self.slave.searcher(), cpu);
        forward_tree_events(self.slave.searcher(), cpu);
        match stepped {
            SlaveStep::Searched(leaf, value) => {
                match self.master.as_mut() {
                    Some(master) => master.record(cpu.id(), leaf, value),
                    None => cpu.send(0, AphidMessage::Value { leaf, value }),
                }
                Activity::Working
            }
            SlaveStep::Searching => Activity::Working,
            SlaveStep::Idle => Activity::Waiting,
        }
    }

    fn nodes(&self) -> u64 {
        self.slave.nodes() + self.master.as_ref().map_or(0, |m| m.nodes())
    }

    fn line(&self) -> Option<TreePath> {
        self.slave.line()
    }
}
