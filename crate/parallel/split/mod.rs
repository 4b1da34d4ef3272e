//! The processor program of the work-splitting algorithms: YBWC, PV-splitting, Jamboree
//! and DTS, which differ only in their [`Policy`] (one file each says which paper it
//! follows and how). crate/parallel/README.md draws how it meets the searcher and the
//! machine.
//!
//! Papers: those of the four policies (`ybwc`, `pvsplit`, `jamboree`, `dts`); the
//! vocabulary of messages is Zugzwang's (R. Feldmann, P. Mysliwietz and B. Monien, "A
//! Fully Distributed Chess Program"), the critical path StarTech's (B. C. Kuszmaul, "The
//! StarTech Massively Parallel Chess Program", 1995).
//!
//! The idea: processor 0 runs the iterative deepening at the root; the others start idle
//! and look for work. A busy processor asked for work gives away a later move of a node
//! on its stack (which node: the policy's merit), keeps searching its own moves, and takes
//! the value when it comes back. Windows that narrow and nodes that are cut are passed on
//! as NEWBOUND and CUTOFF, which helpers pass on to their own helpers in turn.
//!
//! A processor holds several searches ("contexts"): when every one of them waits for
//! values from other processors, it looks for work and starts another search beside them
//! rather than sitting idle (the helpful master). It always steps the oldest search that
//! can go on, so its own part of the tree comes first.
//!
//! Critical path (StarTech's C, as Cilk times it): every searcher counts the span of the
//! tree it walks (`search::searcher::span`); a result carries its subproblem's span back
//! to the node waiting for it, and processor 0 reports the root searches' span to the
//! machine when it finishes.
//!
//! Invariants:
//! - a split point lives on its owner's stack and only its owner finishes it: every move
//!   given away comes back as one RESULT carrying its job number, or is cut by the owner's
//!   CUTOFF (a RESULT for a job no longer awaited is dropped); the owner searches again
//!   what its window says must be, so in pure mode every policy returns the serial value;
//! - no node gives a move away before its first move is done, nor with fewer than
//!   [`MIN_SPLIT_DEPTH`] plies left (the searcher's `can_split`, and each merit); on a
//!   machine whose round trip costs as much as a subtree (a class: `pace`), nor a job
//!   expected to take fewer than `pace::ROUND_TRIPS_PER_JOB` round trips of its
//!   receiver's time;
//! - every work request is answered once: with WORK, with NO-WORK, or held until a split
//!   point appears or this processor is done (then NO-WORK); a processor has at most one
//!   request of its own out at a time ([`Seeking`]). On such a machine that request may go
//!   out before its processor is idle: a helper whose one search that can go on is a job
//!   with less than a round trip left asks then, and the job it gets waits beside the
//!   one it finishes (a context of its own);
//! - a processor holds at most [`MAX_CONTEXTS`] searches and steps the oldest that can
//!   go on;
//! - it returns [`Activity::Waiting`] only when every search waits for values, so that
//!   only a message can give it something to do (the machine's contract);
//! - helpers finish once processor 0 has (`helpers_stop`), answering held requests first.
//!
//! Where ours departs from all four papers (docs/work-splitting.md): split points on the
//! owner's stack, where DTS let any processor finish one; the helpful master helping its
//! own helpers first (as Crafty and Stockfish before Lazy SMP did); a RESULT that asks for
//! the next move of the same split point; on a machine with shared memory, the offer board
//! (`crate::machine`) instead of random requests or HELP; on a class's slow network, jobs
//! sized to its measured round trip and requests sent ahead (`pace`).

use super::cores::Cores;
use super::message::Message;
use crate::chess::legal_moves;
use super::program::{forward_tree_events, pass_accesses};
use crate::search::Task;
use super::work_by_speed::Speedometer;
use crate::machine::{Activity, Note, Processor, Program};
use crate::search::{Control, Deepening, Listener, NoReports, SearchOptions, SearchResult, Searcher, SplitCandidate, SplitWindow, StarTechRules, TreePath};
use crate::tt::TranspositionTable;
use contexts::{send_notices, Context, Slot, Stepped, MAX_CONTEXTS};
use requests::SERVE_INTERVAL;
use pace::JobSizes;
use seeking::Seeking;
use std::sync::Arc;

mod contexts;
mod pace;
mod requests;
mod seeking;

/// Subtrees shallower than this are not worth a message.
pub(super) const MIN_SPLIT_DEPTH: i32 = 3;

/// What distinguishes one work-splitting algorithm from another.
pub(super) struct Policy {
    /// How moves given away are searched at principal-variation nodes.
    pub window: SplitWindow,
    /// How an idle processor finds work.
    pub seek: Seek,
    /// How good a node is to split (higher is better; `None`: never split there).
    pub merit: fn(&SplitCandidate) -> Option<i32>,
    /// Whether a failed test is re-searched only when the tests before it are back, in
    /// list order and with the full window (Jamboree).
    pub tests_first: bool,
    /// StarTech's move ordering, serialization and deferred reads (off for the others).
    pub startech: StarTechRules,
    /// Whether expected ALL nodes split before their eldest son is back (DTS).
    pub eager_all_nodes: bool,
}

impl Policy {
    /// Gives a searcher the rules of this policy that act inside its search.
    fn configure(&self, searcher: &mut Searcher) {
        searcher.set_tests_first(self.tests_first);
        searcher.set_startech_rules(self.startech);
        searcher.set_eager_all_nodes(self.eager_all_nodes);
    }
}

/// The merit of Zugzwang's and StarTech's split points: any node deep enough, the one
/// nearest the root first.
pub(super) fn nearest_the_root(c: &SplitCandidate) -> Option<i32> {
    (c.depth >= MIN_SPLIT_DEPTH).then_some(-(c.frame as i32))
}

/// How an idle processor finds work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seek {
    /// Ask one processor chosen at random (Zugzwang, StarTech's randomized stealing).
    AskRandom,
    /// Ask one at random, telling the measured speed; owners size the work they give by
    /// it and serve the fastest first (CPU-availability-aware PV-splitting).
    AskRandomTellingSpeed,
    /// Ask everyone for their best split point, then ask the best (DTS's HELP).
    Broadcast,
    /// Ask processor 0, which keeps the requests in a pool and serves the highest
    /// predicted CPU availability first (Hasan's PV-splitting, `pvsplit_available`).
    PoolByAvailability,
}

/// Nodes a step may search on a machine that lets it go on (see `Processor::may_go_on`).
const NODES_PER_STEP: u32 = 64;

/// Steps between two looks at a waiting root search (for `stop` and the clock).
const ROOT_CHECK_INTERVAL: u32 = 1024;

/// Processor 0's part: the iterative deepening, the user's control and reports.
struct Root<'a, L: Listener> {
    deepening: Option<Deepening>,
    control: &'a Control,
    listener: L,
    result: Option<SearchResult>,
}

/// One processor of a work-splitting search.
pub(super) struct SplitProgram<'a, L: Listener> {
    tt: &'a Arc<TranspositionTable>,
    policy: &'a Policy,
    options: SearchOptions,
    /// Processor 0's root search; it lives in `contexts[0]`.
    root: Option<Root<'a, L>>,
    contexts: Vec<Context<'a>>,
    /// The own searcher while no context uses it.
    own: Option<&'a mut Searcher>,
    spares: Vec<Box<Searcher>>,
    /// Plies of tree events the searchers report (spares made here are set to it too).
    tree_plies: usize,
    /// Processor 0 stops the others through this when it is done.
    helpers_stop: &'a Control,
    seeking: Seeking,
    next_job: u32,
    /// Small subproblems in a row (DTS): the more, the deeper a split point must be.
    thrashing: i32,
    /// The last HELP brought no offer good enough (DTS): ask one processor at a time.
    help_unanswered: bool,
    /// Processors whose work requests wait for a split point here, with their speeds.
    held_requests: Vec<(usize, Option<u32>)>,
    /// Processors the machine has said are gone from this search (a class's tabs).
    gone: Vec<usize>,
    /// This processor's measured speed (only when the policy weighs speeds).
    speed: Speedometer,
    until_serve: u32,
    /// Steps until the next post on the offer board.
    until_post: u32,
    until_root_check: u32,
    /// This processor's other cores, which search its newest job beside it.
    cores: Option<&'a Cores>,
    /// What this processor has measured of its search's subtrees (`pace`).
    sizes: JobSizes,
}

impl<'a, L: Listener> SplitProgram<'a, L> {
    /// Processor 0: searches the task's root and reports to `listener`.
    pub(super) fn main(searcher: &'a mut Searcher, tt: &'a Arc<TranspositionTable>, policy: &'a Policy, task: &Task<'_>, control: &'a Control, helpers_stop: &'a Control, listener: L) -> Self {
        policy.configure(searcher);
        let deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
        let mut program = SplitProgram::new(None, searcher.tree_plies(), tt, policy, task, helpers_stop);
        program.sizes = JobSizes::at_root(legal_moves(task.board).len());
        program.contexts.push(Context { searcher: Slot::Own(searcher), job: None, waiting: false });
        program.root = Some(Root { deepening: Some(deepening), control, listener, result: None });
        program
    }

    /// Processor 0's result (after the machine ran it).
    pub(super) fn into_result(self) -> SearchResult {
        self.root.and_then(|r| r.result).expect("processor 0 ran to its end")
    }

    fn new(own: Option<&'a mut Searcher>, tree_plies: usize, tt: &'a Arc<TranspositionTable>, policy: &'a Policy, task: &Task<'_>, helpers_stop: &'a Control) -> Self {
        let options = task.settings.options;
        let (root, contexts, spares, seeking) = (None, Vec::with_capacity(MAX_CONTEXTS), Vec::new(), Seeking::Not);
        let until_root_check = ROOT_CHECK_INTERVAL;
        let (held_requests, gone, speed) = (Vec::new(), Vec::new(), Speedometer::default());
        SplitProgram { tt, policy, options, root, contexts, own, spares, tree_plies, helpers_stop, seeking, next_job: 0, thrashing: 0, help_unanswered: false, held_requests, gone, speed, until_serve: SERVE_INTERVAL, until_post: 0, until_root_check, cores: None, sizes: JobSizes::default() }
    }

    /// Measures this processor's speed (on machines with a busy clock, when the policy
    /// weighs speeds).
    fn clock_in(&mut self, cpu: &dyn Processor<Message>) {
        if self.policy.seek != Seek::AskRandomTellingSpeed {
            return;
        }
        if let Some(now) = cpu.busy_ns() {
            self.speed.update(self.nodes(), now);
        }
    }

    fn handle(&mut self, from: usize, message: Message, cpu: &mut dyn Processor<Message>) {
        match message {
            Message::WorkRequest { rate } => self.answer_work_request(from, rate, cpu),
            Message::Work { job, problem, pace } => {
                self.seeking = Seeking::Not;
                self.start_job(from, job, &problem, pace);
            }
            Message::NoWork => self.seeking = Seeking::Not,
            Message::Result { job, value, pv, span, wants_work } => {
                for c in self.contexts.iter_mut() {
                    if c.searcher.deliver(from, job, value, &pv, span) {
                        c.waiting = false;
                        break;
                    }
                }
                if wants_work {
                    self.answer_work_request(from, None, cpu);
                }
            }
            Message::NewBound { job, alpha, beta } => {
                if let Some(i) = self.context_of_job(from, job) {
                    self.contexts[i].searcher.narrow_root(alpha, beta);
                    self.contexts[i].waiting = false;
                }
            }
            Message::Cutoff { job } => {
                if let Some(i) = self.context_of_job(from, job) {
                    self.drop_context(i, cpu);
                }
            }
            Message::Help => {
                let least_plies = self.least_plies(from, cpu);
                let merit = self.best_split(None, least_plies).map(|(m, _, _)| m);
                cpu.send(from, Message::Offer { merit });
            }
            Message::Offer { merit } => self.take_offer(from, merit, cpu),
            Message::Lost => self.lose(from, cpu),
        }
    }

    /// Processor `gone` has left the search (Cilk-NOW's and Satin's recovery): the moves
    /// given to it are searched again here (or given to another), the subproblems it gave
    /// this processor are dropped (nobody waits for their values), and nothing more is
    /// asked of it or answered to it.
    fn lose(&mut self, gone: usize, cpu: &mut dyn Processor<Message>) {
        if self.gone.contains(&gone) {
            return;
        }
        self.gone.push(gone);
        for c in self.contexts.iter_mut() {
            if c.searcher.take_back(gone) {
                c.waiting = false;
            }
        }
        while let Some(i) = self.context_given_by(gone) {
            self.drop_context(i, cpu);
        }
        self.held_requests.retain(|&(from, _)| from != gone);
        self.forget_seeking_from(gone);
    }

    /// Passes on the table accesses of every searcher (results taken in, cuts, the step).
    fn pass_accesses(&mut self, cpu: &mut dyn Processor<Message>) {
        for context in self.contexts.iter_mut() {
            pass_accesses(&mut context.searcher, cpu);
        }
        if let Some(own) = self.own.as_deref_mut() {
            pass_accesses(own, cpu);
        }
        for spare in self.spares.iter_mut() {
            pass_accesses(spare, cpu);
        }
    }

    /// Whether this processor is done: processor 0 when its root search ended, the
    /// others when processor 0 says so.
    fn finished(&self) -> bool {
        match &self.root {
            Some(root) => root.result.is_some(),
            None => self.helpers_stop.stopped(),
        }
    }
}

impl<'a> SplitProgram<'a, NoReports> {
    /// A helper: idle until it finds work; stops when processor 0 is done.
    pub(super) fn helper(searcher: &'a mut Searcher, tt: &'a Arc<TranspositionTable>, policy: &'a Policy, task: &Task<'_>, helpers_stop: &'a Control) -> Self {
        searcher.reset_counters();
        let tree_plies = searcher.tree_plies();
        SplitProgram::new(Some(searcher), tree_plies, tt, policy, task, helpers_stop)
    }

    /// The helper searching each job on `cores` too.
    pub(super) fn with_cores(mut self, cores: &'a Cores) -> Self {
        self.cores = Some(cores);
        self
    }
}

impl<L: Listener> Program for SplitProgram<'_, L> {
    type Message = Message;

    fn step(&mut self, cpu: &mut dyn Processor<Message>) -> Activity {
        self.clock_in(cpu);
        while let Some((from, message)) = cpu.receive() {
            self.handle(from, message, cpu);
        }
        if self.finished() {
            if self.root.is_some() {
                cpu.report_critical_path(self.contexts[0].searcher.span_total());
            }
            self.serve_held_requests(0, cpu);
            while let Some(last) = self.contexts.len().checked_sub(1) {
                let context = self.close_context(last);
                self.recycle(context, cpu);
            }
            self.pass_accesses(cpu);
            return Activity::Finished;
        }
        if self.root.is_some() {
            // A waiting root search still watches `stop` and the clock now and then.
            self.until_root_check -= 1;
            if self.until_root_check == 0 {
                self.until_root_check = ROOT_CHECK_INTERVAL;
                self.contexts[0].waiting = false;
            }
        }
        let mut worked = false;
        let mut nodes = 0;
        // A search waiting for a position another processor is still searching (a
        // deferred read) hears no message when it is done: it looks again whenever
        // nothing else here can go on.
        if self.contexts.iter().all(|c| c.waiting) {
            for c in self.contexts.iter_mut().filter(|c| c.searcher.waits_for_busy_position()) {
                c.waiting = false;
            }
        }
        if let Some(i) = self.contexts.iter().position(|c| !c.waiting) {
            let mut stepped = self.step_context(i, cpu);
            nodes = 1;
            // Where the machine allows, more nodes of the same search before the
            // bookkeeping below, while no message waits and no held request is due to be
            // served: the bookkeeping of a step costs about as much as a node.
            while nodes < NODES_PER_STEP && stepped == Stepped::Node && cpu.may_go_on() && (self.held_requests.is_empty() || nodes < self.until_serve) {
                stepped = self.step_context(i, cpu);
                nodes += 1;
            }
            worked = stepped != Stepped::Waiting;
            self.measure_iteration();
            if let Some(c) = self.contexts.get_mut(i) {
                send_notices(&mut c.searcher, cpu);
            }
        }
        // Messages handled above (results, new bounds) may have moved any search.
        for c in self.contexts.iter_mut() {
            forward_tree_events(&mut c.searcher, cpu);
        }
        self.serve_held_requests(nodes, cpu);
        self.pass_accesses(cpu);
        let idle = !worked && self.contexts.iter().all(|c| c.waiting);
        self.post_offer_when_due(idle, cpu);
        // Every search waits (or there is none): ask for work now rather than after a nap;
        // on a slow network, already when the last job is about to end (`pace`).
        let ahead = !idle && self.running_dry();
        if idle || ahead {
            self.seek(cpu);
            if ahead && !matches!(self.seeking, Seeking::Not) {
                cpu.note(Note::AskedAhead);
            }
        }
        // Waiting promises the machine that only a message can give this processor
        // something to do: not so when it just finished or another search can go on.
        let polling = self.contexts.iter().any(|c| c.searcher.waits_for_busy_position());
        if worked || polling || self.finished() || self.contexts.iter().any(|c| !c.waiting) {
            Activity::Working
        } else {
            Activity::Waiting
        }
    }

    fn nodes(&self) -> u64 {
        // Every searcher counts from this search's start, wherever it is now.
        let in_use: u64 = self.contexts.iter().map(|c| c.searcher.nodes()).sum();
        in_use + self.own.as_ref().map_or(0, |s| s.nodes()) + self.spares.iter().map(|s| s.nodes()).sum::<u64>()
    }

    fn line(&self) -> Option<TreePath> {
        // The search it steps: the oldest that can go on.
        self.contexts.iter().find(|c| !c.waiting).and_then(|c| c.searcher.line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NodeKind;

    fn candidate(frame: usize, depth: i32) -> SplitCandidate {
        SplitCandidate { frame, depth, kind: NodeKind::All, moves_searched: 1 }
    }

    #[test]
    fn zugzwang_and_startech_give_away_the_node_nearest_the_root() {
        let near = nearest_the_root(&candidate(1, 8));
        let far = nearest_the_root(&candidate(4, 5));
        assert!(near.is_some() && near > far, "the node nearest the root holds the most work: {near:?} against {far:?}");
        assert_eq!(nearest_the_root(&candidate(6, MIN_SPLIT_DEPTH - 1)), None, "too shallow to pay for a message");
        assert!(nearest_the_root(&candidate(6, MIN_SPLIT_DEPTH)).is_some());
    }

}
