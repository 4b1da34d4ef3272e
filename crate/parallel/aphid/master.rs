//! APHID's master (processor 0): iterative deepening whose every iteration is a series of
//! passes over the top [`MASTER_PLIES`] plies, each pass a plain fail-soft alpha-beta
//! that takes its leaves' values from the APHID table ([`LeafTable`]). A pass that met an
//! uncertain leaf asks that leaf's owner for it (a WANT with the pass's window) and is
//! repeated once new values have come; the first pass that met none ends the iteration.
//!
//! The shallow tree follows the serial searcher's rules where they decide a value: draws
//! by rule below the root, check extensions, mate and stalemate, the quiescence search at
//! the horizon (a leaf of remaining depth 0). So in pure mode the certain pass computes
//! the serial search's function.

use super::message::{AphidMessage, Want};
use super::table::{LeafTable, Verdict};
use crate::chess::{has_insufficient_material, legal_moves};
use crate::tt::TranspositionTable;
use crate::search::{Control, Info, Limits, Line, Listener, SearchResult, StopRules, Task, INFINITY, MATE, MAX_PLY};
use cozy_chess::{Board, Move};
use std::collections::HashMap;

/// d′: the plies the master searches; its leaves are this far from the root (or nearer,
/// where the remaining depth runs out first). Two plies of chess give some 35² = 1,225
/// leaves, of which a pass visits a few dozen to a few hundred: enough to keep dozens of
/// slaves busy, few enough that a pass costs little beside one leaf's search.
pub(super) const MASTER_PLIES: usize = 2;

/// Plies a slave may search a leaf beyond the current iteration (the next iteration's),
/// when nothing it owns is wanted, as the paper's slaves deepen their leaves. Measured with
/// an earlier rule for windows (the run of `table::NARROW_ASKS`): time-to-depth speedup
/// 0.64 / 1.56 at 4 / 16 processors with one ply, 0.64 / 1.49 with none.
const AHEAD: i32 = 1;

/// Steps of processor 0 between two looks at the clock.
const CLOCK_INTERVAL: u32 = 64;

/// A message for processor `to` (processor 0's own slave included).
pub(super) type Outgoing = (usize, AphidMessage);

/// Processor 0's part beside its slave: the passes, the limits and the reports.
pub(super) struct Master<'a, L: Listener> {
    board: Board,
    history: Vec<u64>,
    /// Root moves allowed by `searchmoves` (all legal moves if none given).
    allowed: Vec<Move>,
    /// Lines to report (MultiPV).
    lines: usize,
    pure: bool,
    table: LeafTable,
    /// The children of each interior node of the shallow tree, best of the last pass first.
    orders: HashMap<Vec<Move>, Vec<Move>>,
    limits: Limits,
    stops: StopRules,
    /// Steps since the search started, to look at the clock every [`CLOCK_INTERVAL`].
    steps: u32,
    control: &'a Control,
    /// Processor 0's table, whose fullness the reports give.
    tt: &'a TranspositionTable,
    listener: L,
    /// The iteration under way.
    depth: i32,
    /// New values arrived since the last pass: pass again.
    pub(super) dirty: bool,
    /// Nodes of the shallow tree visited by all passes.
    nodes: u64,
    result: SearchResult,
    finished: bool,
}

impl<'a, L: Listener> Master<'a, L> {
    /// The master of a search of `task` on `processors` processors, reporting to `listener`.
    pub(super) fn new(task: &Task<'_>, processors: usize, tt: &'a TranspositionTable, control: &'a Control, listener: L) -> Self {
        let limits = task.limits.clone();
        let allowed: Vec<Move> = legal_moves(task.board).into_iter().filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m)).collect();
        Master {
            board: task.board.clone(),
            history: task.history.to_vec(),
            lines: task.settings.multipv.clamp(1, allowed.len().max(1)),
            pure: task.settings.options.pure,
            table: LeafTable::new(processors),
            orders: HashMap::new(),
            stops: StopRules::new(&limits, task.board.side_to_move(), task.settings.move_overhead),
            limits,
            steps: 0,
            control,
            tt,
            listener,
            depth: 1,
            dirty: true,
            nodes: 0,
            result: SearchResult { best: allowed.first().copied(), ponder: None, score: 0, depth: 0, nodes: 0, lines: Vec::new() },
            finished: allowed.is_empty(),
            allowed,
        }
    }

    /// The result of the last completed iteration.
    pub(super) fn into_result(self) -> SearchResult {
        self.result
    }

    /// Nodes of the shallow tree visited so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the search is over: its last iteration done, or stopped.
    pub(super) fn finished(&mut self, total_nodes: u64) -> bool {
        self.finished = self.finished || self.must_stop(total_nodes);
        self.finished
    }

    /// One pass over the shallow tree; returns the wants and leaves to send. When it met
    /// no uncertain leaf, the iteration is complete: reported, and the next one begins
    /// (its first pass at the next step) unless the search is over.
    pub(super) fn pass(&mut self, total_nodes: u64, seldepth: usize) -> Vec<Outgoing> {
        self.dirty = false;
        let ahead = AHEAD.min(self.stops.max_depth() - self.depth);
        let mut pass = Pass { table: &mut self.table, orders: &mut self.orders, allowed: &self.allowed, pure: self.pure, ahead, hashes: self.history.clone(), moves: Vec::new(), nodes: 0, uncertain: 0, order: 0, out: Vec::new() };
        let lines = pass.root(&self.board, self.depth, self.lines);
        let (uncertain, nodes, out) = (pass.uncertain, pass.nodes, pass.out);
        self.nodes += nodes;
        if uncertain == 0 {
            self.iteration_done(lines, total_nodes + nodes, seldepth);
        }
        out
    }

    /// A slave's report on leaf `id`, from processor `from`.
    pub(super) fn record(&mut self, from: usize, id: u32, value: super::message::LeafValue) {
        if self.table.record(from, id, value) {
            self.dirty = true;
        }
    }

    /// Processor `gone` left: its leaves, with their last wants, to the others.
    pub(super) fn lose(&mut self, gone: usize) -> Vec<Outgoing> {
        let moved = self.table.reassign(gone);
        moved.into_iter().map(|id| (self.table.owner(id), AphidMessage::Leaf { leaf: id, problem: Box::new(self.table.problem(id).clone()) })).collect()
    }

    fn iteration_done(&mut self, lines: Vec<Line>, nodes: u64, seldepth: usize) {
        let time_ms = self.stops.elapsed() as u64;
        for (i, line) in lines.iter().enumerate() {
            self.listener.info(&Info::finished_line(self.depth, seldepth, i + 1, line, nodes, time_ms, self.tt.hashfull()));
        }
        let (score, pv) = (lines[0].score, &lines[0].pv);
        self.result = SearchResult { best: pv.first().copied().or(self.result.best), ponder: pv.get(1).copied(), score, depth: self.depth, nodes, lines };
        if self.iterations_over() {
            self.finished = true;
        } else {
            self.depth += 1;
            self.dirty = true;
        }
    }

    /// Whether another iteration should not start (the serial driver's rules).
    fn iterations_over(&self) -> bool {
        self.stops.iterations_over(self.depth, self.result.score, self.control)
    }

    /// `stop`, the node limit or the hard time limit, once depth 1 is complete.
    fn must_stop(&mut self, total_nodes: u64) -> bool {
        if self.result.depth == 0 {
            return false;
        }
        if self.control.stopped() || self.limits.nodes.is_some_and(|n| total_nodes >= n) {
            return true;
        }
        self.steps += 1;
        if !self.steps.is_multiple_of(CLOCK_INTERVAL) {
            return false;
        }
        self.stops.past_hard_time(self.control)
    }
}

/// One pass over the shallow tree.
struct Pass<'p> {
    table: &'p mut LeafTable,
    orders: &'p mut HashMap<Vec<Move>, Vec<Move>>,
    allowed: &'p [Move],
    pure: bool,
    /// Plies a slave may search beyond this iteration.
    ahead: i32,
    /// The game's hashes, then those of the positions from the root to the current node's
    /// parent (repetitions).
    hashes: Vec<u64>,
    /// The moves from the root to the current node.
    moves: Vec<Move>,
    nodes: u64,
    uncertain: u32,
    /// Leaves met so far in this pass (their left-to-right order).
    order: u32,
    out: Vec<Outgoing>,
}

impl Pass<'_> {
    /// The root searched to `depth` for its `lines` best moves (MultiPV): each root move
    /// is searched with a window whose lower end is the `lines`-th best value so far, so
    /// every value above it is exact. The lines found, best first (at least one).
    fn root(&mut self, board: &Board, depth: i32, lines: usize) -> Vec<Line> {
        self.nodes += 1;
        let children = self.children(board);
        self.hashes.push(board.hash());
        let mut found: Vec<Line> = Vec::with_capacity(children.len());
        let mut scored: Vec<(Move, i32)> = Vec::with_capacity(children.len());
        for &mv in &children {
            let alpha = if found.len() >= lines { found[lines - 1].score } else { -INFINITY };
            let value = self.child(board, mv, depth, alpha, INFINITY, &mut scored);
            if value.0 > alpha || found.is_empty() {
                let at = found.partition_point(|l| l.score >= value.0);
                found.insert(at, Line { score: value.0, pv: value.1 });
            }
        }
        self.hashes.pop();
        self.remember_order(&children, scored);
        found.truncate(lines);
        found
    }

    /// Move `mv` of the node `board` (at the current path) searched within the node's
    /// window `alpha..beta`: its value from the node's side and the line it starts. Its
    /// value is added to `scored`.
    fn child(&mut self, board: &Board, mv: Move, depth: i32, alpha: i32, beta: i32, scored: &mut Vec<(Move, i32)>) -> (i32, Vec<Move>) {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let extension = i32::from(!child.checkers().is_empty() && self.moves.len() < MAX_PLY / 2);
        self.moves.push(mv);
        let (value, below) = self.visit(&child, depth - 1 + extension, -beta, -alpha);
        self.moves.pop();
        scored.push((mv, -value));
        (-value, std::iter::once(mv).chain(below).collect())
    }

    /// The next pass at the current path tries the best of this one first; the moves not
    /// reached keep their order.
    fn remember_order(&mut self, children: &[Move], mut scored: Vec<(Move, i32)>) {
        scored.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let rest = children.iter().copied().filter(|m| !scored.iter().any(|(s, _)| s == m));
        let order = scored.iter().map(|&(m, _)| m).chain(rest).collect();
        self.orders.insert(self.moves.clone(), order);
    }

    /// The fail-soft value of `board` (below the root) searched to `depth` within
    /// `alpha..beta`, from its side to move, and its best line.
    fn visit(&mut self, board: &Board, depth: i32, mut alpha: i32, beta: i32) -> (i32, Vec<Move>) {
        self.nodes += 1;
        let ply = self.moves.len();
        if board.halfmove_clock() >= 100 || has_insufficient_material(board) || self.is_repetition(board) {
            return (0, Vec::new());
        }
        if ply >= MASTER_PLIES || depth <= 0 {
            return self.leaf(board, depth.max(0), alpha, beta);
        }
        let children = self.children(board);
        if children.is_empty() {
            return (if board.checkers().is_empty() { 0 } else { -MATE + ply as i32 }, Vec::new());
        }
        self.hashes.push(board.hash());
        let (mut best, mut line) = (-INFINITY, Vec::new());
        let mut scored: Vec<(Move, i32)> = Vec::with_capacity(children.len());
        for &mv in &children {
            let (value, below) = self.child(board, mv, depth, alpha, beta, &mut scored);
            if value > best {
                (best, line) = (value, below);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.hashes.pop();
        self.remember_order(&children, scored);
        (best, line)
    }

    /// The moves of the node at the current path, in the order of the last pass there.
    fn children(&self, board: &Board) -> Vec<Move> {
        if let Some(order) = self.orders.get(&self.moves) {
            return order.clone();
        }
        if self.moves.is_empty() {
            self.allowed.to_vec()
        } else {
            legal_moves(board)
        }
    }

    /// The serial searcher's repetition rule, over the game and the path above.
    fn is_repetition(&self, board: &Board) -> bool {
        let (hash, len) = (board.hash(), self.hashes.len());
        let window = (board.halfmove_clock() as usize).min(len);
        (2..=window).step_by(2).any(|back| self.hashes[len - back] == hash)
    }

    /// A leaf: its value from the table, certain or a guess; an uncertain one is wanted.
    fn leaf(&mut self, board: &Board, depth: i32, alpha: i32, beta: i32) -> (i32, Vec<Move>) {
        let id = self.table.find_or_add(&self.moves, board, &self.hashes);
        self.order += 1;
        match self.table.judge(id, depth, alpha, beta, self.pure) {
            Verdict::Certain(value) => (value, self.table.pv(id, depth).to_vec()),
            Verdict::Uncertain(guess) => {
                self.uncertain += 1;
                let first = !self.table.was_sent(id);
                let want = Want { depth, alpha, beta, most: depth + self.ahead, order: self.order };
                if let Some((owner, want)) = self.table.want(id, want) {
                    let message = if first { AphidMessage::Leaf { leaf: id, problem: Box::new(self.table.problem(id).clone()) } } else { AphidMessage::Want { leaf: id, want } };
                    self.out.push((owner, message));
                }
                (guess, Vec::new())
            }
        }
    }
}
