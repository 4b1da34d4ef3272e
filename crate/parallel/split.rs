//! The processor program of the work-splitting algorithms (ybwc, pvsplit, jamboree,
//! dts). Every processor owns a searcher. Processor 0 runs the iterative deepening at the
//! root; the others start idle and look for work. A busy processor asked for work gives
//! away a later move of a node on its stack (which node: the algorithm's [`Policy`]),
//! keeps searching its own moves, and takes the value when it comes back; a node whose
//! own moves are done waits for its children at other processors. Windows that narrow and
//! nodes that are cut are passed on as NEWBOUND and CUTOFF, which the helpers pass on to
//! their own helpers in turn.

use super::message::Message;
use super::program::Task;
use crate::machine::{broadcast, random_other, Activity, Note, Processor, Program};
use crate::search::{Control, Deepening, Listener, Notice, Progress, SearchResult, Searcher, SplitCandidate, SplitWindow};
use crate::tt::TranspositionTable;

/// Subtrees shallower than this are not worth a message.
pub(super) const MIN_SPLIT_DEPTH: i32 = 3;

/// A subproblem smaller than this many nodes counts as thrashing (DTS).
const SMALL_JOB_NODES: u64 = 2_000;

/// What distinguishes one work-splitting algorithm from another.
pub(super) struct Policy {
    /// How moves given away are searched at principal-variation nodes.
    pub window: SplitWindow,
    /// How an idle processor finds work.
    pub seek: Seek,
    /// How good a node is to split (higher is better; `None`: never split there).
    pub merit: fn(&SplitCandidate) -> Option<i32>,
    /// Whether failed tests are re-searched only when all tests of the node are back.
    pub tests_first: bool,
}

/// How an idle processor finds work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seek {
    /// Ask one processor chosen at random (Zugzwang, StarTech's randomized stealing).
    AskRandom,
    /// Ask everyone for their best split point, then ask the best (DTS's HELP).
    Broadcast,
}

/// Where an idle processor stands in finding work.
enum Seeking {
    /// Not looking (busy, or about to ask).
    Not,
    /// Asked one processor for work; waiting for WORK or NO-WORK.
    Asked,
    /// Sent HELP; counting the offers (best merit and who made it).
    Collecting { replies: usize, best: Option<(i32, usize)> },
}

/// The subproblem a helper searches for another processor.
struct Job {
    owner: usize,
    id: u32,
    nodes_at_start: u64,
}

/// Processor 0's part: the iterative deepening, the user's control and reports.
pub(super) struct Root<'a, L: Listener> {
    deepening: Option<Deepening>,
    control: &'a Control,
    listener: L,
    result: Option<SearchResult>,
}

/// One processor of a work-splitting search.
pub(super) struct SplitProgram<'a, L: Listener> {
    searcher: &'a mut Searcher,
    tt: &'a TranspositionTable,
    policy: &'a Policy,
    root: Option<Root<'a, L>>,
    /// Processor 0 stops the others through this when it is done.
    helpers_stop: &'a Control,
    job: Option<Job>,
    seeking: Seeking,
    /// Small subproblems in a row (DTS): the more, the deeper a split point must be.
    thrashing: i32,
}

impl<'a, L: Listener> SplitProgram<'a, L> {
    /// Processor 0: searches the task's root and reports to `listener`.
    pub(super) fn main(searcher: &'a mut Searcher, tt: &'a TranspositionTable, policy: &'a Policy, task: &Task<'_>, control: &'a Control, helpers_stop: &'a Control, listener: L) -> Self {
        searcher.set_tests_first(policy.tests_first);
        let deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
        let root = Root { deepening: Some(deepening), control, listener, result: None };
        SplitProgram { searcher, tt, policy, root: Some(root), helpers_stop, job: None, seeking: Seeking::Not, thrashing: 0 }
    }

    /// A helper: idle until it finds work; stops when processor 0 is done.
    pub(super) fn helper(searcher: &'a mut Searcher, tt: &'a TranspositionTable, policy: &'a Policy, task: &Task<'_>, helpers_stop: &'a Control) -> Self {
        searcher.set_tests_first(policy.tests_first);
        searcher.set_options(task.settings.options);
        searcher.reset_counters();
        SplitProgram { searcher, tt, policy, root: None, helpers_stop, job: None, seeking: Seeking::Not, thrashing: 0 }
    }

    /// Processor 0's result (after the machine ran it).
    pub(super) fn into_result(self) -> SearchResult {
        self.root.and_then(|r| r.result).expect("processor 0 ran to its end")
    }

    /// The best split point on this processor's stack now, with its merit.
    fn best_split(&self) -> Option<(i32, usize)> {
        let merit = self.policy.merit;
        self.searcher.split_candidates().filter_map(|c| merit(&c).map(|m| (m, c.frame))).max_by_key(|&(m, frame)| (m, std::cmp::Reverse(frame)))
    }

    fn handle(&mut self, from: usize, message: Message, cpu: &mut dyn Processor<Message>) {
        match message {
            Message::WorkRequest => {
                let given = self.best_split().and_then(|(_, frame)| self.searcher.give_away(frame, from, self.policy.window));
                match given {
                    Some((job, problem)) => {
                        cpu.note(Note::Split);
                        cpu.send(from, Message::Work { job, problem: Box::new(problem) });
                    }
                    None => cpu.send(from, Message::NoWork),
                }
            }
            Message::Work { job, problem } => {
                debug_assert!(self.job.is_none() && self.root.is_none(), "work arrives only when asked for");
                self.seeking = Seeking::Not;
                self.searcher.start_subproblem(&problem);
                self.job = Some(Job { owner: from, id: job, nodes_at_start: self.searcher.nodes() });
            }
            Message::NoWork => self.seeking = Seeking::Not,
            Message::Result { job, value, pv } => {
                self.searcher.deliver(job, value, &pv);
            }
            Message::NewBound { job, alpha, beta } => {
                if self.is_job(from, job) {
                    self.searcher.narrow_root(alpha, beta);
                }
            }
            Message::Cutoff { job } => {
                if self.is_job(from, job) {
                    self.drop_job(cpu);
                }
            }
            Message::Help => {
                let merit = self.best_split().map(|(m, _)| m);
                cpu.send(from, Message::Offer { merit });
            }
            Message::Offer { merit } => {
                if let Seeking::Collecting { replies, best } = &mut self.seeking {
                    *replies += 1;
                    if let Some(m) = merit {
                        // Thrashing raises the bar: only deeper split points will do.
                        let good_enough = m / 4 >= MIN_SPLIT_DEPTH + self.thrashing / 2;
                        if good_enough && best.is_none_or(|(b, _)| m > b) {
                            *best = Some((m, from));
                        }
                    }
                    if *replies + 1 == cpu.count() {
                        self.seeking = match *best {
                            Some((_, owner)) => {
                                cpu.send(owner, Message::WorkRequest);
                                Seeking::Asked
                            }
                            None => Seeking::Not,
                        };
                    }
                }
            }
        }
    }

    fn is_job(&self, owner: usize, id: u32) -> bool {
        self.job.as_ref().is_some_and(|j| j.owner == owner && j.id == id)
    }

    /// Gives up the current subproblem (its owner no longer needs it).
    fn drop_job(&mut self, cpu: &mut dyn Processor<Message>) {
        if let Some(job) = self.job.take() {
            cpu.note(Note::Aborted(self.searcher.nodes() - job.nodes_at_start));
            self.searcher.abandon();
        }
    }

    fn step_root(&mut self) -> Activity {
        let Some(root) = self.root.as_mut() else { return Activity::Finished };
        let Some(deepening) = root.deepening.as_mut() else { return Activity::Finished };
        if !deepening.step(self.searcher, self.tt, root.control, &mut root.listener) {
            return if deepening.waiting() { Activity::Waiting } else { Activity::Working };
        }
        let deepening = root.deepening.take().expect("checked above");
        root.result = Some(deepening.finish(self.searcher));
        self.searcher.abandon();
        self.helpers_stop.stop();
        Activity::Finished
    }

    fn step_helper(&mut self, cpu: &mut dyn Processor<Message>) -> Activity {
        if self.helpers_stop.stopped() {
            self.drop_job(cpu);
            return Activity::Finished;
        }
        let Some(job) = &self.job else {
            self.seek(cpu);
            return Activity::Waiting;
        };
        match self.searcher.step() {
            Progress::Running => Activity::Working,
            Progress::Waiting => Activity::Waiting,
            Progress::Done(value) => {
                let pv = self.searcher.pv().iter().map_while(|m| *m).collect();
                cpu.send(job.owner, Message::Result { job: job.id, value, pv });
                let small = self.searcher.nodes() - job.nodes_at_start < SMALL_JOB_NODES;
                self.thrashing = if small { (self.thrashing + 1).min(16) } else { 0 };
                self.job = None;
                Activity::Working
            }
        }
    }

    /// Asks for work if not asking already.
    fn seek(&mut self, cpu: &mut dyn Processor<Message>) {
        if !matches!(self.seeking, Seeking::Not) || cpu.count() < 2 {
            return;
        }
        self.seeking = match self.policy.seek {
            Seek::AskRandom => {
                let to = random_other(cpu);
                cpu.send(to, Message::WorkRequest);
                Seeking::Asked
            }
            Seek::Broadcast => {
                broadcast(cpu, Message::Help);
                Seeking::Collecting { replies: 0, best: None }
            }
        };
    }

    fn send_notices(&mut self, cpu: &mut dyn Processor<Message>) {
        for notice in self.searcher.take_notices() {
            match notice {
                Notice::Cancel { processor, job } => cpu.send(processor, Message::Cutoff { job }),
                Notice::NewBound { processor, job, alpha, beta } => cpu.send(processor, Message::NewBound { job, alpha, beta }),
            }
        }
    }
}

impl<L: Listener> Program for SplitProgram<'_, L> {
    type Message = Message;

    fn step(&mut self, cpu: &mut dyn Processor<Message>) -> Activity {
        while let Some((from, message)) = cpu.receive() {
            self.handle(from, message, cpu);
        }
        let activity = if self.root.is_some() { self.step_root() } else { self.step_helper(cpu) };
        self.send_notices(cpu);
        activity
    }

    fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }
}
