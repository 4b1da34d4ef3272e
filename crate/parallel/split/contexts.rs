//! The searches a processor holds ("contexts"): the own searcher or a spare one, with the
//! job it searches for another processor; how one is opened for a subproblem given here,
//! stepped, and closed when its result goes back or its owner cuts it, its searcher kept
//! for the next one. The program's loop, the papers, the idea and the invariants are in
//! mod.rs.

use super::{Seeking, SplitProgram};
use crate::parallel::message::{Message, Pace};
use crate::parallel::program::forward_tree_events;
use crate::machine::{Note, Processor};
use crate::search::{Listener, Notice, Progress, Searcher, Subproblem};

/// Searches a processor may hold at once.
pub(super) const MAX_CONTEXTS: usize = 8;

/// A subproblem smaller than this many nodes counts as thrashing (DTS).
const SMALL_JOB_NODES: u64 = 2_000;
/// Small subproblems in a row that count: at most three plies more for a split point.
const MAX_THRASHING: i32 = 6;

/// A subproblem searched for another processor.
pub(super) struct Job {
    owner: usize,
    id: u32,
    nodes_at_start: u64,
    /// What its giver knew of a slow network (`pace`), if anything.
    pub(super) pace: Option<Pace>,
}

impl Job {
    /// The nodes searched on it so far by `searcher`.
    pub(super) fn searched(&self, searcher: &Searcher) -> u64 {
        searcher.nodes() - self.nodes_at_start
    }
}

impl Job {
    /// Its name among the jobs a processor holds, for its other cores.
    fn key(&self) -> u64 {
        (self.owner as u64) << 32 | u64::from(self.id)
    }
}

/// A searcher: the processor's own (kept across searches), or a spare one for a
/// search started while the others wait.
pub(super) enum Slot<'a> {
    Own(&'a mut Searcher),
    Spare(Box<Searcher>),
}

impl std::ops::Deref for Slot<'_> {
    type Target = Searcher;
    fn deref(&self) -> &Searcher {
        match self {
            Slot::Own(s) => s,
            Slot::Spare(s) => s,
        }
    }
}

impl std::ops::DerefMut for Slot<'_> {
    fn deref_mut(&mut self) -> &mut Searcher {
        match self {
            Slot::Own(s) => s,
            Slot::Spare(s) => s,
        }
    }
}

/// One search a processor holds: processor 0's root search (no job), or a subproblem.
pub(super) struct Context<'a> {
    pub(super) searcher: Slot<'a>,
    pub(super) job: Option<Job>,
    /// Its last step found it waiting for other processors.
    pub(super) waiting: bool,
}

/// What one step of a context's search did.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stepped {
    /// Searched a node; the search goes on.
    Node,
    /// The search ended: a subproblem's result went to its owner and its context closed,
    /// or processor 0's root search finished.
    Ended,
    /// It waits for values from other processors.
    Waiting,
}

impl<'a, L: Listener> SplitProgram<'a, L> {
    /// The context searching job `id` of `owner`, if it is still searched here.
    pub(super) fn context_of_job(&self, owner: usize, id: u32) -> Option<usize> {
        self.contexts.iter().position(|c| c.job.as_ref().is_some_and(|j| j.owner == owner && j.id == id))
    }

    /// The context searching a subproblem that `owner` gave, if any.
    pub(super) fn context_given_by(&self, owner: usize) -> Option<usize> {
        self.contexts.iter().position(|c| c.job.as_ref().is_some_and(|j| j.owner == owner))
    }

    /// Starts searching a subproblem given by `owner`, beside the searches that wait.
    pub(super) fn start_job(&mut self, owner: usize, id: u32, problem: &Subproblem, pace: Option<Pace>) {
        self.help_unanswered = false;
        let mut searcher = match self.own.take() {
            Some(own) => Slot::Own(own),
            None => Slot::Spare(self.spares.pop().unwrap_or_else(|| {
                let mut spare = Box::new(Searcher::new(self.tt.clone()));
                spare.set_tree_plies(self.tree_plies);
                // It orders moves with what this processor's searches have learned (its
                // history, shared with everyone's when the algorithm shares it), not blind.
                if let Some(mine) = self.contexts.first() {
                    spare.share_history_of(&mine.searcher);
                }
                spare
            })),
        };
        self.policy.configure(&mut searcher);
        searcher.set_options(self.options);
        searcher.start_subproblem(problem);
        let nodes_at_start = searcher.nodes();
        let job = Job { owner, id, nodes_at_start, pace };
        if let Some(cores) = self.cores {
            cores.begin(job.key(), problem);
        }
        self.contexts.push(Context { searcher, job: Some(job), waiting: false });
    }

    /// Ends context `i` (its subproblem is done or no longer needed) and frees its searcher.
    pub(super) fn close_context(&mut self, i: usize) -> Context<'a> {
        let mut context = self.contexts.remove(i);
        context.searcher.abandon();
        if let (Some(cores), Some(job)) = (self.cores, &context.job) {
            cores.end(job.key());
        }
        context
    }

    /// Gives up the subproblem of context `i` (its owner no longer needs it).
    pub(super) fn drop_context(&mut self, i: usize, cpu: &mut dyn Processor<Message>) {
        let context = self.close_context(i);
        if let Some(job) = &context.job {
            cpu.note(Note::Aborted(job.searched(&context.searcher)));
        }
        self.recycle(context, cpu);
    }

    /// Sends what the closed context's searcher still has to say and keeps the searcher.
    pub(super) fn recycle(&mut self, mut context: Context<'a>, cpu: &mut dyn Processor<Message>) {
        send_notices(&mut context.searcher, cpu);
        forward_tree_events(&mut context.searcher, cpu);
        match context.searcher {
            Slot::Own(s) => self.own = Some(s),
            Slot::Spare(s) => self.spares.push(s),
        }
    }

    /// Steps context `i`.
    pub(super) fn step_context(&mut self, i: usize, cpu: &mut dyn Processor<Message>) -> Stepped {
        if i == 0 && self.root.is_some() {
            return self.step_root();
        }
        let context = &mut self.contexts[i];
        match context.searcher.step() {
            Progress::Running => Stepped::Node,
            Progress::Waiting => {
                context.waiting = true;
                Stepped::Waiting
            }
            Progress::Done(value) => {
                let job = context.job.as_ref().expect("only processor 0's root search has no job");
                let pv = context.searcher.pv().iter().map_while(|m| *m).collect();
                let (owner, id, span) = (job.owner, job.id, context.searcher.root_span());
                let small = job.searched(&context.searcher) < SMALL_JOB_NODES;
                self.thrashing = if small { (self.thrashing + 1).min(MAX_THRASHING) } else { 0 };
                let context = self.close_context(i);
                self.recycle(context, cpu);
                // With nothing else to do, stay at the owner's split points: the result
                // asks for the next move there, saving a search for work.
                let wants_work = matches!(self.seeking, Seeking::Not) && self.contexts.iter().all(|c| c.waiting) && self.contexts.len() < MAX_CONTEXTS;
                if wants_work {
                    self.seeking = Seeking::Asked { to: owner };
                }
                cpu.send(owner, Message::Result { job: id, value, pv, span, wants_work });
                Stepped::Ended
            }
        }
    }

    fn step_root(&mut self) -> Stepped {
        let root = self.root.as_mut().expect("processor 0");
        let context = &mut self.contexts[0];
        let Some(deepening) = root.deepening.as_mut() else { return Stepped::Ended };
        if !deepening.step(&mut context.searcher, self.tt, root.control, &mut root.listener) {
            context.waiting = deepening.waiting();
            return if context.waiting { Stepped::Waiting } else { Stepped::Node };
        }
        let deepening = root.deepening.take().expect("checked above");
        root.result = Some(deepening.finish(&context.searcher));
        self.helpers_stop.stop();
        Stepped::Ended
    }
}

/// Turns the searcher's notices into CUTOFF and NEWBOUND messages.
pub(super) fn send_notices(searcher: &mut Searcher, cpu: &mut dyn Processor<Message>) {
    for notice in searcher.take_notices() {
        match notice {
            Notice::Cancel { processor, job } => cpu.send(processor, Message::Cutoff { job }),
            Notice::NewBound { processor, job, alpha, beta } => cpu.send(processor, Message::NewBound { job, alpha, beta }),
        }
    }
}
