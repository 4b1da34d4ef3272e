//! One TDSAB processor: the home of every position whose hash maps to it. It never waits
//! for a child; it reacts to what arrives (nodes, values, cutoffs) and otherwise works
//! through its queue, leftmost node first.
//!
//! Invariants:
//! - Every node it accepted is, at all times, exactly one of: queued, searched locally,
//!   expanded (in `expanded`), waiting on an identical expanded node (a waiter), or
//!   answered. Only a cutoff of one of its ancestors (or the end of its pass) drops it.
//! - An expanded node is answered exactly once, when a child's value cuts it or the
//!   last child's value arrives; waiters are answered with it.
//! - A value for a node that is gone (cut, or of an older pass) is ignored.

use super::job::{is_repetition, rebase, repetition_window, Job, Queued, Signature, Target, TdsMessage};
use super::moves::ordered_moves;
use crate::chess::has_insufficient_material;
use crate::eval::evaluate;
use crate::machine::{broadcast, Activity, Note, Processor, Program};
use crate::search::{quiescence, Progress, QuiescenceStats, SearchOptions, Searcher, INFINITY, MATE, MAX_PLY};
use crate::tt::{Bound, Entry, TranspositionTable};
use cozy_chess::Move;
use std::collections::{BinaryHeap, HashMap, HashSet};

/// Nodes with at most this much depth left are searched at their home, in one piece,
/// by the serial searcher (no messages below them). Measured: see the module docs.
pub(super) const LOCAL_DEPTH: i32 = 3;

/// Searcher steps between two looks at the mailbox during a local search, so a cutoff
/// or a `stop` is seen within microseconds.
const LOCAL_SLICE: u32 = 32;

/// Messages handled per step at most, so a flood cannot starve the local work.
const MESSAGES_PER_STEP: usize = 64;

/// This algorithm's view of the machine.
pub(super) type TdsProcessor<'p> = dyn Processor<TdsMessage> + 'p;

/// A node whose children have been sent out.
struct Expansion {
    job: Box<Job>,
    moves: Vec<Move>,
    /// Children sent so far (the eldest alone first, then all the rest at once).
    sent: usize,
    /// Children whose values have not come back.
    outstanding: usize,
    best: i32,
    best_move: Option<Move>,
    /// Static evaluation for the table entry (0 in check, as the serial searcher stores).
    eval: i16,
    /// Identical nodes that take this node's value instead of searching themselves.
    waiters: Vec<Box<Job>>,
}

/// A node being searched by the serial searcher, a slice at a time.
struct LocalSearch {
    job: Box<Job>,
    nodes_at_start: u64,
}

/// What a message asked of the program.
#[derive(PartialEq, Eq)]
pub(super) enum Handled {
    Continue,
    Finish,
}

/// One processor's part of the search.
pub(super) struct Worker<'a> {
    searcher: &'a mut Searcher,
    tt: &'a TranspositionTable,
    /// Hashes of the game before the root.
    history: &'a [u64],
    pure: bool,
    /// Nodes with this much depth left or less are searched locally.
    local_depth: i32,
    pass: u32,
    queue: BinaryHeap<Queued>,
    expanded: HashMap<u64, Expansion>,
    /// Expanded nodes by position hash, to find identical nodes in flight.
    by_hash: HashMap<u64, Vec<u64>>,
    next_id: u64,
    /// Signatures cut in this pass: nodes below them arriving late are dropped.
    cut: HashSet<Signature>,
    local: Option<LocalSearch>,
    /// History followed by a local node's path, as the serial searcher takes it.
    local_history: Vec<u64>,
    nodes: u64,
    /// Deepest ply this processor looked at (quiescence included).
    seldepth: usize,
    /// The root's value and move when it arrived (processor 0 takes it for the driver).
    pub root_value: Option<(i32, Option<Move>)>,
}

impl<'a> Worker<'a> {
    /// A worker searching with `searcher` (its counters start at zero), locally below
    /// `local_depth`.
    pub(super) fn new(searcher: &'a mut Searcher, tt: &'a TranspositionTable, history: &'a [u64], options: SearchOptions, local_depth: i32) -> Worker<'a> {
        searcher.set_options(options);
        searcher.reset_counters();
        Worker {
            searcher,
            tt,
            history,
            pure: options.pure,
            local_depth,
            pass: 0,
            queue: BinaryHeap::new(),
            expanded: HashMap::new(),
            by_hash: HashMap::new(),
            next_id: 0,
            cut: HashSet::new(),
            local: None,
            local_history: Vec::with_capacity(history.len() + MAX_PLY),
            nodes: 0,
            seldepth: 0,
            root_value: None,
        }
    }

    /// Deepest ply this processor looked at outside local searches.
    pub(super) fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// One unit of work: read the mailbox, then advance the local search or take the
    /// leftmost queued node.
    fn work(&mut self, processor: &mut TdsProcessor<'_>) -> Activity {
        let mut received = false;
        for _ in 0..MESSAGES_PER_STEP {
            let Some((_, message)) = processor.receive() else { break };
            received = true;
            if self.handle(message, processor) == Handled::Finish {
                return Activity::Finished;
            }
        }
        if self.local.is_some() {
            self.continue_local(processor);
            return Activity::Working;
        }
        if let Some(Queued(job)) = self.queue.pop() {
            self.process(job, processor);
            return Activity::Working;
        }
        if received {
            Activity::Working
        } else {
            Activity::Waiting
        }
    }

    fn handle(&mut self, message: TdsMessage, processor: &mut TdsProcessor<'_>) -> Handled {
        match message {
            TdsMessage::Node(job) => {
                if self.is_current(job.pass, processor) {
                    self.enqueue(job);
                }
            }
            TdsMessage::Value { pass, target, value, best } => {
                if self.is_current(pass, processor) {
                    self.deliver(target, value, best, processor);
                }
            }
            TdsMessage::Cutoff { pass, prefix } => {
                if self.is_current(pass, processor) {
                    self.apply_cutoff(&prefix, processor);
                }
            }
            TdsMessage::Finish => return Handled::Finish,
        }
        Handled::Continue
    }

    /// Whether `pass` is this processor's pass; a newer one replaces everything older.
    fn is_current(&mut self, pass: u32, processor: &mut TdsProcessor<'_>) -> bool {
        if pass > self.pass {
            self.abandon_all(processor);
            self.cut.clear();
            self.pass = pass;
        }
        pass == self.pass
    }

    /// Drops all work of the current pass (a new pass began).
    fn abandon_all(&mut self, processor: &mut TdsProcessor<'_>) {
        self.queue.clear();
        self.by_hash.clear();
        let expanded = self.expanded.len() as u64;
        self.expanded.clear();
        let local = self.local.take().map_or(0, |l| self.searcher.nodes() - l.nodes_at_start);
        if expanded + local > 0 {
            processor.note(Note::Aborted(expanded + local));
        }
    }

    /// Sends `job` to its home processor (or queues it here when this is its home).
    pub(super) fn submit(&mut self, job: Box<Job>, processor: &mut TdsProcessor<'_>) {
        let home = (job.board.hash() % processor.count() as u64) as usize;
        if home == processor.id() {
            if self.is_current(job.pass, processor) {
                self.enqueue(job);
            }
        } else {
            processor.send(home, TdsMessage::Node(job));
        }
    }

    fn enqueue(&mut self, job: Box<Job>) {
        let cut = &self.cut;
        let signature = &job.signature;
        if !(0..=signature.len()).any(|n| cut.contains(&signature[..n])) {
            self.queue.push(Queued(job));
        }
    }

    /// Sends a node's value to where its parent lives.
    fn answer(&mut self, job: &Job, value: i32, best: Option<Move>, processor: &mut TdsProcessor<'_>) {
        let target = job.target;
        if target.home() == processor.id() {
            self.deliver(target, value, best, processor);
        } else {
            processor.send(target.home(), TdsMessage::Value { pass: job.pass, target, value, best });
        }
    }

    fn deliver(&mut self, target: Target, value: i32, best: Option<Move>, processor: &mut TdsProcessor<'_>) {
        match target {
            Target::Driver => self.root_value = Some((value, best)),
            Target::Node { id, child, .. } => self.child_value(id, child as usize, value, processor),
        }
    }

    /// A node arrived at its home: decide it from the rules or the table, search it
    /// here, join an identical node in flight, or expand it.
    fn process(&mut self, job: Box<Job>, processor: &mut TdsProcessor<'_>) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(job.ply);
        let board = &job.board;
        // Step 1: the draw rules and the ply limit, as the serial searcher applies them.
        if job.ply > 0 {
            if board.halfmove_clock() >= 100 || has_insufficient_material(board) || is_repetition(board, self.history, &job.path) {
                return self.answer(&job, 0, None, processor);
            }
            if job.ply >= MAX_PLY - 1 {
                return self.answer(&job, evaluate(board), None, processor);
            }
        }
        // Step 2: leaves and small subtrees are searched here.
        if job.depth <= 0 {
            let mut stats = QuiescenceStats::default();
            let value = quiescence(board, job.gamma - 1, job.gamma, job.ply, &mut stats);
            self.nodes += stats.nodes.saturating_sub(1);
            self.seldepth = self.seldepth.max(stats.seldepth);
            return self.answer(&job, value, None, processor);
        }
        if job.depth <= self.local_depth {
            return self.start_local(job);
        }
        // Step 3: the table decides the node if it can (never in pure mode, never the root).
        let hash = board.hash();
        let entry = self.tt.probe(hash);
        if let Some(e) = entry.filter(|e| !self.pure && job.ply > 0 && e.depth as i32 >= job.depth) {
            let score = rebase(e.score as i32, job.ply as i32);
            let decided = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= job.gamma,
                Bound::Upper => score < job.gamma,
            };
            if decided {
                return self.answer(&job, score, e.mv, processor);
            }
        }
        // Step 4: an identical node already expanded here answers for this one too.
        if let Some(id) = self.identical_in_flight(&job) {
            self.expanded.get_mut(&id).expect("indexed nodes are expanded").waiters.push(job);
            return;
        }
        // Step 5: expand: mate or stalemate, else send the eldest child.
        let table_move = entry.and_then(|e| e.mv).filter(|&m| board.is_legal(m));
        let moves = ordered_moves(board, table_move, &job.root_moves);
        let in_check = !board.checkers().is_empty();
        if moves.is_empty() {
            let value = if in_check { -MATE + job.ply as i32 } else { 0 };
            return self.answer(&job, value, None, processor);
        }
        let eval = if in_check { 0 } else { evaluate(board) as i16 };
        let id = self.next_id;
        self.next_id += 1;
        self.by_hash.entry(hash).or_default().push(id);
        let expansion = Expansion { job, moves, sent: 0, outstanding: 0, best: -INFINITY, best_move: None, eval, waiters: Vec::new() };
        self.expanded.insert(id, expansion);
        self.send_children(id, 1, processor);
    }

    /// The shallower-identical-node rule (see the module documentation): `job` may wait
    /// for an expanded node of the same position and window if that node searches at
    /// least as deep and its halfmove clock is not smaller. In pure mode the two must
    /// compute the same function: same depth, ply, clock and repetition window.
    fn identical_in_flight(&self, job: &Job) -> Option<u64> {
        let ids = self.by_hash.get(&job.board.hash())?;
        ids.iter().copied().find(|id| {
            let other = &self.expanded[id].job;
            let clock = (other.board.halfmove_clock(), job.board.halfmove_clock());
            if other.gamma != job.gamma || other.root_moves != job.root_moves {
                return false;
            }
            if self.pure {
                other.depth == job.depth
                    && other.ply == job.ply
                    && clock.0 == clock.1
                    && repetition_window(&other.board, self.history, &other.path).eq(repetition_window(&job.board, self.history, &job.path))
            } else {
                other.depth >= job.depth && clock.0 >= clock.1
            }
        })
    }

    /// Sends children `sent..upto` of expanded node `id` to their homes.
    fn send_children(&mut self, id: u64, upto: usize, processor: &mut TdsProcessor<'_>) {
        let me = processor.id();
        let e = self.expanded.get_mut(&id).expect("children of an expanded node");
        let parent = &e.job;
        let children: Vec<Box<Job>> = (e.sent..upto)
            .map(|i| {
                let mut board = parent.board.clone();
                board.play_unchecked(e.moves[i]);
                let extension = i32::from(!board.checkers().is_empty() && parent.ply < MAX_PLY / 2);
                let mut path = Vec::with_capacity(parent.path.len() + 1);
                path.extend_from_slice(&parent.path);
                path.push(parent.board.hash());
                let mut signature = Vec::with_capacity(parent.signature.len() + 1);
                signature.extend_from_slice(&parent.signature);
                signature.push(i as u8);
                Box::new(Job {
                    pass: parent.pass,
                    board,
                    ply: parent.ply + 1,
                    depth: parent.depth - 1 + extension,
                    gamma: 1 - parent.gamma,
                    path,
                    signature,
                    target: Target::Node { home: me, id, child: i as u8 },
                    root_moves: Vec::new(),
                })
            })
            .collect();
        e.outstanding += children.len();
        e.sent = upto;
        for child in children {
            self.submit(child, processor);
        }
    }

    /// Child `child` of node `id` is worth `value` (from the child's side).
    fn child_value(&mut self, id: u64, child: usize, value: i32, processor: &mut TdsProcessor<'_>) {
        let Some(e) = self.expanded.get_mut(&id) else { return };
        e.outstanding -= 1;
        if -value > e.best {
            e.best = -value;
            e.best_move = Some(e.moves[child]);
        }
        if e.best >= e.job.gamma {
            let siblings_running = e.outstanding > 0;
            let e = self.remove(id);
            let prefix = e.job.signature.clone();
            self.resolve(e, processor);
            if siblings_running {
                broadcast(processor, TdsMessage::Cutoff { pass: self.pass, prefix: prefix.clone() });
                self.apply_cutoff(&prefix, processor);
            }
        } else if e.sent < e.moves.len() {
            // The eldest brother failed low: the young brothers go out together.
            let all = e.moves.len();
            self.send_children(id, all, processor);
        } else if e.outstanding == 0 {
            let e = self.remove(id);
            self.resolve(e, processor);
        }
    }

    fn remove(&mut self, id: u64) -> Expansion {
        let e = self.expanded.remove(&id).expect("removing an expanded node");
        let hash = e.job.board.hash();
        if let Some(ids) = self.by_hash.get_mut(&hash) {
            ids.retain(|&other| other != id);
            if ids.is_empty() {
                self.by_hash.remove(&hash);
            }
        }
        e
    }

    /// A node's value is known: store it, answer the parent and every waiter.
    fn resolve(&mut self, e: Expansion, processor: &mut TdsProcessor<'_>) {
        let job = &e.job;
        let bound = if e.best >= job.gamma { Bound::Lower } else { Bound::Upper };
        let score = rebase(e.best, -(job.ply as i32));
        let entry = Entry { mv: e.best_move, score: score as i16, eval: e.eval, depth: job.depth.clamp(0, 255) as u8, bound, generation: 0 };
        self.tt.store(job.board.hash(), entry);
        self.answer(job, e.best, e.best_move, processor);
        for waiter in &e.waiters {
            let value = rebase(score, waiter.ply as i32);
            self.answer(waiter, value, e.best_move, processor);
        }
    }

    /// Kills every node below `prefix` here: queued, searched locally, expanded, or
    /// waiting. A killed expanded node's waiters that lie elsewhere in the tree are
    /// queued again, to be searched on their own.
    pub(super) fn apply_cutoff(&mut self, prefix: &[u8], processor: &mut TdsProcessor<'_>) {
        self.cut.insert(prefix.to_vec());
        self.queue.retain(|q| !q.0.below(prefix));
        if self.local.as_ref().is_some_and(|l| l.job.below(prefix)) {
            let local = self.local.take().expect("checked above");
            processor.note(Note::Aborted(self.searcher.nodes() - local.nodes_at_start));
        }
        let doomed: Vec<u64> = self.expanded.iter().filter(|(_, e)| e.job.below(prefix)).map(|(&id, _)| id).collect();
        for id in doomed {
            let e = self.remove(id);
            processor.note(Note::Aborted(1));
            for waiter in e.waiters.into_iter().filter(|w| !w.below(prefix)) {
                self.queue.push(Queued(waiter));
            }
        }
        for e in self.expanded.values_mut() {
            e.waiters.retain(|w| !w.below(prefix));
        }
    }

    fn start_local(&mut self, job: Box<Job>) {
        self.local_history.clear();
        self.local_history.extend_from_slice(self.history);
        self.local_history.extend_from_slice(&job.path);
        // The searcher counts plies from its own root: mate scores shift by this ply.
        let alpha = rebase(job.gamma - 1, -(job.ply as i32));
        let beta = rebase(job.gamma, -(job.ply as i32));
        self.searcher.start(&job.board, &self.local_history, alpha, beta, job.depth, &job.root_moves);
        self.local = Some(LocalSearch { job, nodes_at_start: self.searcher.nodes() });
    }

    fn continue_local(&mut self, processor: &mut TdsProcessor<'_>) {
        for _ in 0..LOCAL_SLICE {
            if let Progress::Done(value) = self.searcher.step() {
                let local = self.local.take().expect("a local search runs");
                let value = rebase(value, local.job.ply as i32);
                let best = self.searcher.root_best().map(|(mv, _)| mv);
                self.answer(&local.job, value, best, processor);
                return;
            }
        }
    }
}

impl Program for Worker<'_> {
    type Message = TdsMessage;

    fn step(&mut self, processor: &mut TdsProcessor<'_>) -> Activity {
        self.work(processor)
    }

    fn nodes(&self) -> u64 {
        self.nodes + self.searcher.nodes()
    }
}
