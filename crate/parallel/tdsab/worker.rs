//! One TDSAB processor: the home of every position whose hash maps to it. It never waits
//! for a child; it reacts to what arrives (nodes, values, cutoffs) and otherwise works
//! through its queue, leftmost node first.
//!
//! Invariants:
//! - Every node it accepted is, at all times, exactly one of: queued, searched locally,
//!   expanded (in `expanded`), waiting on an identical expanded node (a waiter), or
//!   answered. Only a cutoff of one of its ancestors (or the end of its pass) drops it.
//! - An expanded node is answered exactly once: when its null move fails high, when a
//!   child's value cuts it, or when the last child's value arrives; waiters are
//!   answered with it. `outstanding` counts exactly the children sent and not answered
//!   (a reduced child that fails high is sent again and counted again).
//! - A value for a node that is gone (cut, or of an older pass) is ignored.

use super::bounds::Bounds;
use super::job::{first_search, is_repetition, move_index, re_search, rebase, repetition_window, ChildCode, Job, Queued, Signature, Target, TdsMessage, NULL_CHILD};
use super::moves::ordered_moves;
use crate::chess::has_insufficient_material;
use crate::eval::nnue::{default_network, Accumulator};
use crate::eval::{evaluate_by, Evaluation};
use crate::machine::{broadcast, Activity, Note, Processor, Program};
use crate::search::is_tactical;
use crate::search::{quiescence, Progress, QuiescenceStats, SearchOptions, Searcher, INFINITY, MATE, MAX_PLY};
use crate::tt::{Bound, Entry, TranspositionTable};
use cozy_chess::{Board, Move, Piece};
use std::collections::{BinaryHeap, HashMap, HashSet};

/// Which nodes a home searches in one piece with the serial searcher, sending no
/// messages below them: those with at most `depth` plies left, and those `plies` or more
/// plies from the root. Below the shared top of the tree the serial searcher's pruning
/// (killers, history, futility, reductions) is worth more than spreading tiny nodes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Horizon {
    pub depth: i32,
    pub plies: usize,
}

impl Horizon {
    /// With the modern search, measured on Bratko-Kopec (see the README): the top two
    /// plies are shared.
    pub(super) const MEASURED: Horizon = Horizon { depth: 3, plies: 2 };

    /// The paper's rule: a node with at most [`GRANULARITY`] plies left (or a terminal
    /// one) is searched locally; every other node, however deep, is expanded and its
    /// children sent to their homes.
    pub(super) const PAPER: Horizon = Horizon { depth: GRANULARITY, plies: MAX_PLY };

    /// The horizon of a search with `options`: the paper's in pure mode (the period's
    /// search, where the shared part and the local searcher prune alike), the measured
    /// two shared plies with the modern search, whose local searcher prunes more than
    /// the shared part can (see the README).
    pub(super) fn for_options(options: SearchOptions) -> Horizon {
        if options.pure {
            Horizon::PAPER
        } else {
            Horizon::MEASURED
        }
    }

    fn is_local(self, job: &Job) -> bool {
        job.depth <= self.depth || job.ply >= self.plies
    }
}

/// Plies left at which a node is searched in one piece by its home (the paper's
/// granularity, which it leaves to the machine): chosen by measurement on the
/// `p3-ethernet` preset, see the README.
pub(super) const GRANULARITY: i32 = 3;

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
    /// Children whose values have not come back (the null-move child included).
    outstanding: usize,
    /// Children searched at reduced depth, to be searched again if they fail high.
    reduced: Vec<bool>,
    best: i32,
    best_move: Option<Move>,
    /// Static evaluation for the table entry (0 in check, as the serial searcher stores).
    eval: i16,
    /// Identical nodes that take this node's value instead of searching themselves
    /// (boxed: they arrive boxed and may go back to the queue boxed).
    #[allow(clippy::vec_box)]
    waiters: Vec<Box<Job>>,
}

/// A node being searched by the serial searcher, a slice at a time.
struct LocalSearch {
    job: Box<Job>,
    nodes_at_start: u64,
}

/// What a message asked of the program.
#[derive(PartialEq, Eq)]
enum Handled {
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
    /// Whether a table entry deep enough may decide a job (see `SearchOptions::table_cutoffs`).
    table_cutoffs: bool,
    /// The network evaluates (its sums computed afresh at each node of the shared part,
    /// which keeps no accumulator along a path).
    network: bool,
    horizon: Horizon,
    pass: u32,
    queue: BinaryHeap<Queued>,
    expanded: HashMap<u64, Expansion>,
    /// Expanded nodes by position hash, to find identical nodes in flight.
    by_hash: HashMap<u64, Vec<u64>>,
    next_id: u64,
    /// Signatures cut in this pass: nodes below them arriving late are dropped.
    cut: HashSet<Signature>,
    local: Option<LocalSearch>,
    /// In pure mode, the bounds earlier passes proved for nodes decided here.
    bounds: Bounds,
    /// History followed by a local node's path, as the serial searcher takes it.
    local_history: Vec<u64>,
    nodes: u64,
    /// Deepest ply this processor looked at (quiescence included).
    seldepth: usize,
    /// The root's value and move when it arrived (processor 0 takes it for the driver).
    pub root_value: Option<(i32, Option<Move>)>,
}

impl<'a> Worker<'a> {
    /// The static evaluation of `board` the search options chose.
    fn static_value(&self, board: &Board) -> i32 {
        let sums = self.network.then(|| Accumulator::refreshed(default_network(), board));
        evaluate_by(board, sums.as_ref())
    }

    /// A worker searching with `searcher` (its counters start at zero), locally beyond
    /// `horizon`.
    pub(super) fn new(searcher: &'a mut Searcher, tt: &'a TranspositionTable, history: &'a [u64], options: SearchOptions, horizon: Horizon) -> Worker<'a> {
        searcher.set_options(options);
        searcher.reset_counters();
        // Its nodes are spread by hash, with no line from the root to report: it passes
        // no tree events on, so its searcher must collect none.
        searcher.set_tree_plies(0);
        Worker {
            searcher,
            tt,
            history,
            pure: options.pure,
            table_cutoffs: options.takes_table_cutoffs(),
            network: options.evaluation == Evaluation::Nnue,
            horizon,
            pass: 0,
            queue: BinaryHeap::new(),
            expanded: HashMap::new(),
            by_hash: HashMap::new(),
            next_id: 0,
            cut: HashSet::new(),
            local: None,
            bounds: Bounds::default(),
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
            Target::Node { id, child, .. } => self.child_value(id, child, value, processor),
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
                return self.answer(&job, self.static_value(board), None, processor);
            }
            // Mate-distance pruning (not in pure mode): no score here can beat a mate
            // found nearer the root.
            let (mated_now, mate_next) = (-MATE + job.ply as i32, MATE - job.ply as i32 - 1);
            if !self.pure && job.gamma > mate_next {
                return self.answer(&job, mate_next, None, processor);
            }
            if !self.pure && job.gamma <= mated_now {
                return self.answer(&job, mated_now, None, processor);
            }
        }
        // Step 2: leaves get their quiescence value.
        if job.depth <= 0 {
            let mut stats = QuiescenceStats::default();
            let sums = self.network.then(|| Accumulator::refreshed(default_network(), board));
            let value = quiescence(board, sums.as_ref(), job.gamma - 1, job.gamma, job.ply, &mut stats, None);
            self.nodes += stats.nodes.saturating_sub(1);
            self.seldepth = self.seldepth.max(stats.seldepth);
            return self.answer(&job, value, None, processor);
        }
        // Step 3: in pure mode, what earlier passes proved about this very node decides it
        // if it can; otherwise the table may (in pure mode only with the period's table
        // cutoffs, never the root).
        if self.pure && job.ply > 0 {
            if let Some(value) = self.bounds.decide(&job, self.history) {
                return self.answer(&job, value, None, processor);
            }
        }
        let hash = board.hash();
        let entry = self.tt.probe(hash);
        if let Some(e) = entry.filter(|e| self.table_cutoffs && job.ply > 0 && e.depth as i32 >= job.depth) {
            let score = rebase(e.score as i32, job.ply as i32);
            // The job tests `value >= gamma`: the null window (gamma - 1, gamma).
            if e.bound.settles(score, job.gamma - 1, job.gamma) {
                return self.answer(&job, score, e.mv, processor);
            }
        }
        // Step 4: small subtrees are searched here, in one piece.
        if self.horizon.is_local(&job) {
            return self.start_local(job);
        }
        // Step 5: an identical node already expanded here answers for this one too.
        if let Some(id) = self.identical_in_flight(&job) {
            self.expanded.get_mut(&id).expect("indexed nodes are expanded").waiters.push(job);
            return;
        }
        // Step 6: expand: mate or stalemate, else send the eldest child (or the null move).
        let table_move = entry.and_then(|e| e.mv).filter(|&m| board.is_legal(m));
        let moves = ordered_moves(board, table_move, &job.root_moves);
        let in_check = !board.checkers().is_empty();
        if moves.is_empty() {
            let value = if in_check { -MATE + job.ply as i32 } else { 0 };
            return self.answer(&job, value, None, processor);
        }
        let eval = if in_check { 0 } else { self.static_value(board) as i16 };
        let try_null = !self.pure && self.null_move_allowed(&job, in_check, eval as i32);
        let id = self.next_id;
        self.next_id += 1;
        processor.note(Note::Split);
        self.by_hash.entry(hash).or_default().push(id);
        let reduced = vec![false; moves.len()];
        let expansion = Expansion { job, moves, sent: 0, outstanding: 0, reduced, best: -INFINITY, best_move: None, eval, waiters: Vec::new() };
        self.expanded.insert(id, expansion);
        if try_null {
            // Null move first: if passing still fails high, the node is cut.
            let e = &self.expanded[&id];
            let child = child_job(&e.job, NULL_CHILD, e.job.board.null_move().expect("not in check"), null_move_depth(e.job.depth), processor.id(), id);
            self.expanded.get_mut(&id).expect("just inserted").outstanding += 1;
            self.submit(child, processor);
        } else {
            self.send_children(id, 1, processor);
        }
    }

    /// The serial searcher's null-move conditions (without its verification search:
    /// the null move is skipped when the side to move has a single piece besides pawns).
    fn null_move_allowed(&self, job: &Job, in_check: bool, eval: i32) -> bool {
        let board = &job.board;
        let pieces = board.colors(board.side_to_move()) & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King));
        job.null_allowed && job.ply > 0 && !in_check && job.depth >= 3 && eval >= job.gamma && pieces.len() > 1 && job.gamma.abs() < MATE - MAX_PLY as i32
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

    /// Sends children `sent..upto` of expanded node `id` to their homes, late quiet
    /// moves reduced (not in pure mode).
    fn send_children(&mut self, id: u64, upto: usize, processor: &mut TdsProcessor<'_>) {
        let me = processor.id();
        let pure = self.pure;
        let e = self.expanded.get_mut(&id).expect("children of an expanded node");
        let parent = &e.job;
        let in_check = !parent.board.checkers().is_empty();
        let mut children = Vec::with_capacity(upto - e.sent);
        for i in e.sent..upto {
            let mv = e.moves[i];
            let mut board = parent.board.clone();
            board.play_unchecked(mv);
            let quiet = !is_tactical(&parent.board, mv) && board.checkers().is_empty() && !in_check;
            let reduction = if !pure && quiet { late_move_reduction(parent.depth, i) } else { 0 };
            e.reduced[i] = reduction > 0;
            children.push(child_job(parent, first_search(i), board, parent.depth - 1 - reduction, me, id));
        }
        e.outstanding += children.len();
        e.sent = upto;
        for child in children {
            self.submit(child, processor);
        }
    }

    /// The child with code `child` of node `id` is
    /// worth `value` (from the child's side).
    fn child_value(&mut self, id: u64, child: ChildCode, value: i32, processor: &mut TdsProcessor<'_>) {
        let Some(e) = self.expanded.get_mut(&id) else { return };
        e.outstanding -= 1;
        let score = -value;
        if child == NULL_CHILD {
            if score < e.job.gamma {
                return self.send_children(id, 1, processor);
            }
            // A null-move mate proves nothing about the real moves: claim only gamma.
            e.best = if score >= MATE - MAX_PLY as i32 { e.job.gamma } else { score };
            let e = self.remove(id);
            return self.resolve(e, processor);
        }
        let index = move_index(child);
        if score >= e.job.gamma && e.reduced[index] {
            // A reduced move fails high: only a full-depth search can say so.
            e.reduced[index] = false;
            let mut board = e.job.board.clone();
            board.play_unchecked(e.moves[index]);
            let full = child_job(&e.job, re_search(index), board, e.job.depth - 1, processor.id(), id);
            e.outstanding += 1;
            return self.submit(full, processor);
        }
        if score > e.best {
            e.best = score;
            e.best_move = Some(e.moves[index]);
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
            // The eldest brother failed low: the young brothers go out together (chess's
            // branching factor against the paper's two variants: see the module docs).
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
        if self.pure {
            self.bounds.record(job, self.history, e.best);
        }
        self.answer(job, e.best, e.best_move, processor);
        for waiter in &e.waiters {
            let value = rebase(score, waiter.ply as i32);
            self.answer(waiter, value, e.best_move, processor);
        }
    }

    /// Kills every node below `prefix` here: queued, searched locally, expanded, or
    /// waiting. A killed expanded node's waiters that lie elsewhere in the tree are
    /// queued again, to be searched on their own.
    pub(super) fn apply_cutoff(&mut self, prefix: &[ChildCode], processor: &mut TdsProcessor<'_>) {
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
                if self.pure {
                    self.bounds.record(&local.job, self.history, value);
                }
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

/// Child `code` of `parent`, reached at `board`, searched to `depth` plus the check
/// extension; its value goes to node `id` at processor `home`.
fn child_job(parent: &Job, code: ChildCode, board: Board, depth: i32, home: usize, id: u64) -> Box<Job> {
    let extension = i32::from(!board.checkers().is_empty() && parent.ply < MAX_PLY / 2);
    let mut path = Vec::with_capacity(parent.path.len() + 1);
    path.extend_from_slice(&parent.path);
    path.push(parent.board.hash());
    let mut signature = Vec::with_capacity(parent.signature.len() + 1);
    signature.extend_from_slice(&parent.signature);
    signature.push(code);
    Box::new(Job {
        pass: parent.pass,
        board,
        ply: parent.ply + 1,
        depth: depth + extension,
        gamma: 1 - parent.gamma,
        path,
        signature,
        target: Target::Node { home, id, child: code },
        root_moves: Vec::new(),
        null_allowed: code != NULL_CHILD,
    })
}

/// Depth of the null-move search below a node of `depth` (the serial searcher's R).
fn null_move_depth(depth: i32) -> i32 {
    depth - 1 - (3 + depth / 4)
}

/// Plies taken off the `index`-th move (from 0) of a node of `depth`: none for the first
/// three, one for the next, two deep in the list of a deep node.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    let r = match index {
        0..=2 => 0,
        3..=7 => 1,
        _ => 1 + i32::from(depth >= 6),
    };
    r.min(depth - 2).max(0)
}
