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
//!   [`MIN_SPLIT_DEPTH`] plies left (the searcher's `can_split`, and each merit);
//! - every work request is answered once: with WORK, with NO-WORK, or held until a split
//!   point appears or this processor is done (then NO-WORK); a processor has at most one
//!   request of its own out at a time ([`Seeking`]);
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
//! (`crate::machine`) instead of random requests or HELP.

use super::message::Message;
use super::program::{forward_tree_events, pass_accesses};
use crate::search::Task;
use super::work_by_speed::{self, Speedometer};
use crate::machine::{broadcast, random_other, Activity, Note, Processor, Program};
use crate::search::{Control, Deepening, Listener, NoReports, Notice, Progress, SearchOptions, SearchResult, Searcher, SplitCandidate, SplitWindow, StarTechRules, Subproblem, TreePath};
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// Subtrees shallower than this are not worth a message.
pub(super) const MIN_SPLIT_DEPTH: i32 = 3;

/// A subproblem smaller than this many nodes counts as thrashing (DTS).
const SMALL_JOB_NODES: u64 = 2_000;
/// Small subproblems in a row that count: at most three plies more for a split point.
const MAX_THRASHING: i32 = 6;

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

/// Where an idle processor stands in finding work.
enum Seeking {
    /// Not looking (busy, or about to ask).
    Not,
    /// Asked one processor for work; waiting for WORK or NO-WORK.
    Asked,
    /// Sent HELP; counting the offers (best merit and who made it).
    Collecting { replies: usize, best: Option<(i32, usize)> },
}

/// A subproblem searched for another processor.
struct Job {
    owner: usize,
    id: u32,
    nodes_at_start: u64,
}

/// A searcher: the processor's own (kept across searches), or a spare one for a
/// search started while the others wait.
enum Slot<'a> {
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
struct Context<'a> {
    searcher: Slot<'a>,
    job: Option<Job>,
    /// Its last step found it waiting for other processors.
    waiting: bool,
}

/// Searches a processor may hold at once.
const MAX_CONTEXTS: usize = 8;

/// Nodes between two looks for a split point while work requests are held.
const SERVE_INTERVAL: u32 = 8;

/// Nodes a step may search on a machine that lets it go on (see `Processor::may_go_on`).
const NODES_PER_STEP: u32 = 64;

/// Steps between two looks at a waiting root search (for `stop` and the clock).
const ROOT_CHECK_INTERVAL: u32 = 1024;

/// What one step of a context's search did.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stepped {
    /// Searched a node; the search goes on.
    Node,
    /// The search ended: a subproblem's result went to its owner and its context closed,
    /// or processor 0's root search finished.
    Ended,
    /// It waits for values from other processors.
    Waiting,
}

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
    /// This processor's measured speed (only when the policy weighs speeds).
    speed: Speedometer,
    until_serve: u32,
    /// Steps until the next post on the offer board.
    until_post: u32,
    until_root_check: u32,
}

impl<'a, L: Listener> SplitProgram<'a, L> {
    /// Processor 0: searches the task's root and reports to `listener`.
    pub(super) fn main(searcher: &'a mut Searcher, tt: &'a Arc<TranspositionTable>, policy: &'a Policy, task: &Task<'_>, control: &'a Control, helpers_stop: &'a Control, listener: L) -> Self {
        policy.configure(searcher);
        let deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
        let mut program = SplitProgram::new(None, searcher.tree_plies(), tt, policy, task, helpers_stop);
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
        let (held_requests, speed) = (Vec::new(), Speedometer::default());
        SplitProgram { tt, policy, options, root, contexts, own, spares, tree_plies, helpers_stop, seeking, next_job: 0, thrashing: 0, help_unanswered: false, held_requests, speed, until_serve: SERVE_INTERVAL, until_post: 0, until_root_check }
    }

    /// The best split point over this processor's searches for a requester of speed
    /// `asker` (if told): merit, context, frame.
    fn best_split(&self, asker: Option<u32>) -> Option<(i32, usize, usize)> {
        let merit = self.policy.merit;
        let candidates = self.contexts.iter().enumerate().flat_map(|(i, c)| c.searcher.split_candidates().filter_map(move |cand| merit(&cand).map(|m| (m, i, cand))));
        if let (Some(asker), Some(own)) = (asker, self.speed.rate()) {
            return work_by_speed::choose(candidates, asker, own);
        }
        candidates.map(|(m, i, cand)| (m, i, cand.frame)).max_by_key(|&(m, i, frame)| (m, std::cmp::Reverse((i, frame))))
    }

    /// Posts on the machine's offer board the remaining depth of the split point a
    /// requester would get here now.
    fn post_offer(&mut self, cpu: &mut dyn Processor<Message>) {
        if !cpu.has_offer_board() {
            return;
        }
        let offer = self.best_split(None).map(|(_, i, frame)| self.contexts[i].searcher.frame_depth(frame));
        cpu.post_offer(offer);
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

    fn context_of_job(&self, owner: usize, id: u32) -> Option<usize> {
        self.contexts.iter().position(|c| c.job.as_ref().is_some_and(|j| j.owner == owner && j.id == id))
    }

    fn handle(&mut self, from: usize, message: Message, cpu: &mut dyn Processor<Message>) {
        match message {
            Message::WorkRequest { rate } => self.answer_work_request(from, rate, cpu),
            Message::Work { job, problem } => {
                self.seeking = Seeking::Not;
                self.start_job(from, job, &problem);
            }
            Message::NoWork => self.seeking = Seeking::Not,
            Message::Result { job, value, pv, span, wants_work } => {
                for c in self.contexts.iter_mut() {
                    if c.searcher.deliver(job, value, &pv, span) {
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
                let merit = self.best_split(None).map(|(m, _, _)| m);
                cpu.send(from, Message::Offer { merit });
            }
            Message::Offer { merit } => self.take_offer(from, merit, cpu),
        }
    }

    /// Answers a work request: with work, or later once a split point appears while this
    /// processor is still working (NO-WORK at once would only make the asker ask again),
    /// or NO-WORK.
    fn answer_work_request(&mut self, from: usize, rate: Option<u32>, cpu: &mut dyn Processor<Message>) {
        if self.policy.seek == Seek::PoolByAvailability {
            self.held_requests.push((from, rate));
            self.until_serve = 1;
            return self.serve_held_requests(0, cpu);
        }
        if !self.give_work(from, rate, cpu) {
            if self.contexts.iter().any(|c| !c.waiting) {
                self.held_requests.push((from, rate));
            } else {
                cpu.send(from, Message::NoWork);
            }
        }
    }

    /// Gives `to` (of speed `rate`, if told) a subproblem from the best split point for
    /// it, if there is one.
    fn give_work(&mut self, to: usize, rate: Option<u32>, cpu: &mut dyn Processor<Message>) -> bool {
        let job = self.next_job;
        let window = self.policy.window;
        let Some((_, i, frame)) = self.best_split(rate) else { return false };
        let given = self.contexts[i].searcher.give_away(frame, to, window, job);
        forward_tree_events(&mut self.contexts[i].searcher, cpu);
        let Some(problem) = given else { return false };
        self.next_job = self.next_job.wrapping_add(1);
        cpu.note(Note::Split);
        cpu.send(to, Message::Work { job, problem: Box::new(problem) });
        self.until_post = 0;
        true
    }

    /// Answers held work requests: with work where a split point has appeared (looked
    /// for every few nodes; `nodes` were searched since the last call), with NO-WORK when
    /// this processor has stopped working.
    fn serve_held_requests(&mut self, nodes: u32, cpu: &mut dyn Processor<Message>) {
        if self.held_requests.is_empty() {
            return;
        }
        let working = self.contexts.iter().any(|c| !c.waiting) && !self.finished();
        self.until_serve = self.until_serve.saturating_sub(nodes.max(1));
        if working && self.until_serve > 0 {
            return;
        }
        self.until_serve = SERVE_INTERVAL;
        order_held_requests(self.policy.seek, &mut self.held_requests, |to| cpu.predicted_availability(to));
        while let Some(&(to, rate)) = self.held_requests.last() {
            if !(working && self.give_work(to, rate, cpu)) {
                if working {
                    return;
                }
                cpu.send(to, Message::NoWork);
            }
            self.held_requests.pop();
        }
    }

    /// Starts searching a subproblem given by `owner`, beside the searches that wait.
    fn start_job(&mut self, owner: usize, id: u32, problem: &Subproblem) {
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
        self.contexts.push(Context { searcher, job: Some(Job { owner, id, nodes_at_start }), waiting: false });
    }

    /// Ends context `i` (its subproblem is done or no longer needed) and frees its searcher.
    fn close_context(&mut self, i: usize) -> Context<'a> {
        let mut context = self.contexts.remove(i);
        context.searcher.abandon();
        context
    }

    /// Gives up the subproblem of context `i` (its owner no longer needs it).
    fn drop_context(&mut self, i: usize, cpu: &mut dyn Processor<Message>) {
        let context = self.close_context(i);
        if let Some(job) = &context.job {
            cpu.note(Note::Aborted(context.searcher.nodes() - job.nodes_at_start));
        }
        self.recycle(context, cpu);
    }

    /// Sends what the closed context's searcher still has to say and keeps the searcher.
    fn recycle(&mut self, mut context: Context<'a>, cpu: &mut dyn Processor<Message>) {
        send_notices(&mut context.searcher, cpu);
        forward_tree_events(&mut context.searcher, cpu);
        match context.searcher {
            Slot::Own(s) => self.own = Some(s),
            Slot::Spare(s) => self.spares.push(s),
        }
    }

    fn take_offer(&mut self, from: usize, merit: Option<i32>, cpu: &mut dyn Processor<Message>) {
        let bar = self.depth_worth_asking();
        let Seeking::Collecting { replies, best } = &mut self.seeking else { return };
        *replies += 1;
        if let Some(m) = merit {
            let good_enough = m / 4 >= bar;
            if good_enough && best.is_none_or(|(b, _)| m > b) {
                *best = Some((m, from));
            }
        }
        if *replies + 1 == cpu.count() {
            self.seeking = match *best {
                Some((_, owner)) => {
                    cpu.send(owner, Message::WorkRequest { rate: None });
                    Seeking::Asked
                }
                None => {
                    self.help_unanswered = true;
                    Seeking::Not
                }
            };
        }
    }

    /// The least remaining depth of a split point worth asking for, in DTS: thrashing
    /// (jobs that ended almost at once) raises it by up to three plies.
    fn depth_worth_asking(&self) -> i32 {
        MIN_SPLIT_DEPTH + self.thrashing / 2
    }

    /// Steps context `i`.
    fn step_context(&mut self, i: usize, cpu: &mut dyn Processor<Message>) -> Stepped {
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
                let small = context.searcher.nodes() - job.nodes_at_start < SMALL_JOB_NODES;
                self.thrashing = if small { (self.thrashing + 1).min(MAX_THRASHING) } else { 0 };
                let context = self.close_context(i);
                self.recycle(context, cpu);
                // With nothing else to do, stay at the owner's split points: the result
                // asks for the next move there, saving a search for work.
                let wants_work = matches!(self.seeking, Seeking::Not) && self.contexts.iter().all(|c| c.waiting) && self.contexts.len() < MAX_CONTEXTS;
                if wants_work {
                    self.seeking = Seeking::Asked;
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

    /// Asks for work if not asking already.
    fn seek(&mut self, cpu: &mut dyn Processor<Message>) {
        if !matches!(self.seeking, Seeking::Not) || cpu.count() < 2 || self.contexts.len() >= MAX_CONTEXTS {
            return;
        }
        // After a HELP round without an offer, ask single processors until work comes:
        // rebroadcasting at once would flood the machine with HELP and offers.
        // On a machine with shared memory, the offer board shows where work is; DTS's
        // thrashing counter raises the depth an offer needs, as it does for HELP's answers.
        let needed = if self.policy.seek == Seek::Broadcast { self.depth_worth_asking() } else { MIN_SPLIT_DEPTH };
        let target = match self.own_helper(cpu) {
            Some(helper) => Some(helper),
            None => cpu.best_offer().filter(|&(_, depth)| depth >= needed).map(|(to, _)| to),
        };
        if let Some(to) = target {
            cpu.send(to, Message::WorkRequest { rate: None });
            self.seeking = Seeking::Asked;
            return;
        }
        self.seeking = match self.policy.seek {
            Seek::Broadcast if !self.help_unanswered && !cpu.has_offer_board() => {
                broadcast(cpu, Message::Help);
                Seeking::Collecting { replies: 0, best: None }
            }
            Seek::PoolByAvailability if cpu.id() != 0 => {
                cpu.send(0, Message::WorkRequest { rate: None });
                Seeking::Asked
            }
            Seek::AskRandom | Seek::AskRandomTellingSpeed | Seek::Broadcast | Seek::PoolByAvailability => {
                let to = random_other(cpu);
                let rate = if self.policy.seek == Seek::AskRandomTellingSpeed { self.speed.rate() } else { None };
                cpu.send(to, Message::WorkRequest { rate });
                Seeking::Asked
            }
        };
    }

    fn own_helper_count(&self) -> usize {
        self.contexts.iter().map(|c| c.searcher.helpers().count()).sum()
    }

    /// A processor searching a child this one gave away, chosen at random: a processor
    /// whose searches wait helps its own helpers first (Crafty's and Stockfish's helpful
    /// master), as their work is part of its own subtrees and brings its values back sooner.
    fn own_helper(&self, cpu: &mut dyn Processor<Message>) -> Option<usize> {
        let count = self.own_helper_count();
        if count == 0 {
            return None;
        }
        let k = (cpu.random() % count as u64) as usize;
        self.contexts.iter().flat_map(|c| c.searcher.helpers()).nth(k)
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

/// Orders held work requests (requester, told speed) so that the one to serve first is
/// last: the fastest when speeds are told, the highest availability `predicted` for the
/// requester in Hasan's pool (a stable sort: unknown predictions, as on real threads,
/// come after every known one and keep their order of arrival among themselves).
fn order_held_requests(seek: Seek, held: &mut [(usize, Option<u32>)], predicted: impl Fn(usize) -> Option<u32>) {
    match seek {
        Seek::AskRandomTellingSpeed => held.sort_by_key(|&(_, rate)| rate),
        Seek::PoolByAvailability => held.sort_by_key(|&(to, _)| predicted(to).map_or(0, |a| a + 1)),
        Seek::AskRandom | Seek::Broadcast => {}
    }
}

/// Turns the searcher's notices into CUTOFF and NEWBOUND messages.
fn send_notices(searcher: &mut Searcher, cpu: &mut dyn Processor<Message>) {
    for notice in searcher.take_notices() {
        match notice {
            Notice::Cancel { processor, job } => cpu.send(processor, Message::Cutoff { job }),
            Notice::NewBound { processor, job, alpha, beta } => cpu.send(processor, Message::NewBound { job, alpha, beta }),
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
        if self.until_post == 0 || (!worked && self.contexts.iter().all(|c| c.waiting)) {
            self.until_post = SERVE_INTERVAL;
            self.post_offer(cpu);
        }
        self.until_post -= 1;
        // Every search waits (or there is none): ask for work now rather than after a nap.
        if !worked && self.contexts.iter().all(|c| c.waiting) {
            self.seek(cpu);
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

    /// Hasan's pool hands the next task to the worker with the highest predicted CPU
    /// availability (the paper's example pool: 97, 93, 89 and 62 %); the speed-telling
    /// variant serves the fastest first; random asking keeps the order of arrival.
    #[test]
    fn the_pool_serves_the_highest_predicted_availability_first() {
        let predicted = |to: usize| [None, Some(620), Some(970), Some(890), Some(930)][to];
        let mut held = vec![(1, None), (0, None), (2, None), (3, None), (4, None)];
        order_held_requests(Seek::PoolByAvailability, &mut held, predicted);
        let served: Vec<usize> = held.iter().rev().map(|&(to, _)| to).collect();
        assert_eq!(served, vec![2, 4, 3, 1, 0]);
        let mut told = vec![(1, Some(300)), (2, None), (3, Some(900))];
        order_held_requests(Seek::AskRandomTellingSpeed, &mut told, predicted);
        assert_eq!(told.last(), Some(&(3, Some(900))));
        let mut random = vec![(3, None), (1, None)];
        order_held_requests(Seek::AskRandom, &mut random, predicted);
        assert_eq!(random, vec![(3, None), (1, None)]);
    }
}
