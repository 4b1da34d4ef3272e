//! Iterative deepening around the searcher: aspiration windows, MultiPV, time and
//! node limits, `stop` and `ponderhit`, and the per-iteration reports UCI prints.

use super::score::{Score, INFINITY, MATE, MAX_PLY};
use super::searcher::{Progress, RootMove, SearchOptions, Searcher};
use super::time::{Budget, Limits};
use crate::chess::legal_moves;
use crate::clock::now_ms;
use crate::tt::TranspositionTable;
use cozy_chess::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Signals from the protocol thread to a running search.
#[derive(Default, Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Bits of the `f64` clock reading at `ponderhit` (0 = none).
    ponderhit_at: AtomicU64,
}

impl Control {
    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes a normal one,
    /// with its clock starting now.
    pub fn ponderhit(&self) {
        self.ponderhit_at.store(now_ms().to_bits(), Relaxed);
        self.pondering.store(false, Relaxed);
    }

    /// Whether the search is pondering (no time limit applies yet).
    pub fn pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    /// Prepares for a new search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Relaxed);
        self.pondering.store(pondering, Relaxed);
        self.ponderhit_at.store(0, Relaxed);
    }

    fn clock_start(&self, search_start: f64) -> f64 {
        match self.ponderhit_at.load(Relaxed) {
            0 => search_start,
            bits => f64::from_bits(bits),
        }
    }
}

/// One principal variation as reported after an iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Score from the side to move's view.
    pub score: i32,
    /// The moves, best first (cozy-chess castling form).
    pub pv: Vec<Move>,
}

/// Whether a reported score is exact or one side of an aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (failed high).
    Lower,
    /// The true score is at most this (failed low).
    Upper,
}

/// A search report: one line of `info`.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based line number for MultiPV.
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// Exactness of the score.
    pub bound: ScoreBound,
    /// Positions visited so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Positions per second.
    pub nps: u64,
    /// Table fill in per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Receives reports while a search runs.
pub trait Listener {
    /// A line finished (or failed outside its aspiration window).
    fn info(&mut self, info: &Info);
    /// The root started searching `mv` at `depth` (called after the first second).
    fn currmove(&mut self, depth: i32, mv: RootMove);
}

/// A listener that ignores every report (bench, test suites, tests).
pub struct NoReports;

impl Listener for NoReports {
    fn info(&mut self, _: &Info) {}
    fn currmove(&mut self, _: i32, _: RootMove) {}
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Positions visited.
    pub nodes: u64,
    /// Every line of the last completed iteration, best first.
    pub lines: Vec<Line>,
}

/// Settings of a search beyond its limits.
#[derive(Clone, Copy, Debug)]
pub struct SearchSettings {
    /// Lines to report (MultiPV).
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication.
    pub move_overhead: u64,
    /// Switches that change the search itself.
    pub options: SearchOptions,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings { multipv: 1, move_overhead: 30, options: SearchOptions::default() }
    }
}

const MAX_DEPTH: i32 = 100;
const ASPIRATION_DELTA: i32 = 20;

/// Runs one iterative-deepening search of `board` (after `history`).
pub fn search(
    searcher: &mut Searcher,
    tt: &TranspositionTable,
    board: &Board,
    history: &[u64],
    limits: &Limits,
    settings: &SearchSettings,
    control: &Control,
    listener: &mut dyn Listener,
) -> SearchResult {
    let start = now_ms();
    tt.new_search();
    searcher.set_options(settings.options);
    searcher.reset_counters();
    let legal = legal_moves(board);
    let allowed: Vec<Move> = if limits.searchmoves.is_empty() {
        legal.clone()
    } else {
        legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect()
    };
    let budget = limits.budget(board.side_to_move(), settings.move_overhead);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut result = SearchResult { best: allowed.first().copied(), ponder: None, score: 0, depth: 0, nodes: 0, lines: Vec::new() };
    if allowed.is_empty() {
        return result;
    }
    let lines_wanted = settings.multipv.clamp(1, allowed.len());
    let mut clock = Clock { start, budget, control, node_limit: limits.nodes, next_check: 0 };
    let mut root_moves: Vec<Move> = Vec::with_capacity(allowed.len());
    'deepening: for depth in 1..=max_depth {
        let mut lines: Vec<Line> = Vec::with_capacity(lines_wanted);
        for index in 0..lines_wanted {
            root_moves.clear();
            root_moves.extend(allowed.iter().copied().filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m))));
            let restrict = lines_wanted > 1 || !limits.searchmoves.is_empty();
            let previous = result.lines.get(index).map(|l| l.score);
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) = match previous {
                Some(s) if depth >= 4 && s.abs() < MATE / 2 => ((s - delta).max(-INFINITY), (s + delta).min(INFINITY)),
                _ => (-INFINITY, INFINITY),
            };
            let line = loop {
                searcher.start(board, history, alpha, beta, depth, if restrict { &root_moves } else { &[] });
                let Some(score) = clock.run(searcher, depth, listener) else { break 'deepening };
                let pv: Vec<Move> = searcher.pv().iter().map_while(|m| *m).collect();
                let bound = if score <= alpha {
                    ScoreBound::Upper
                } else if score >= beta {
                    ScoreBound::Lower
                } else {
                    break Line { score, pv };
                };
                if clock.elapsed() > 1000.0 {
                    listener.info(&report(searcher, tt, &clock, depth, index + 1, score, bound, pv));
                }
                if bound == ScoreBound::Upper {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                } else {
                    beta = (score + delta).min(INFINITY);
                }
                delta *= 2;
            };
            lines.push(line);
        }
        lines.sort_by(|a, b| b.score.cmp(&a.score));
        for (i, line) in lines.iter().enumerate() {
            listener.info(&report(searcher, tt, &clock, depth, i + 1, line.score, ScoreBound::Exact, line.pv.clone()));
        }
        result.best = lines[0].pv.first().copied();
        result.ponder = lines[0].pv.get(1).copied();
        result.score = lines[0].score;
        result.depth = depth;
        result.lines = lines;
        if let Some(n) = limits.mate {
            if result.score >= MATE - 2 * n as i32 {
                break;
            }
        }
        if clock.out_of_soft_time() {
            break;
        }
        // A proven mate is not improved by searching deeper unless asked to.
        let mate_plies = MATE - result.score.abs();
        if !limits.infinite && mate_plies < MAX_PLY as i32 && depth > mate_plies + 2 && limits.depth.is_none() {
            break;
        }
    }
    if result.depth == 0 {
        if let Some((mv, score)) = searcher.root_best() {
            result.best = Some(mv);
            result.score = score;
        }
    }
    result.nodes = searcher.nodes();
    result
}

#[allow(clippy::too_many_arguments)]
fn report(searcher: &Searcher, tt: &TranspositionTable, clock: &Clock, depth: i32, multipv: usize, score: i32, bound: ScoreBound, pv: Vec<Move>) -> Info {
    let time_ms = clock.elapsed() as u64;
    let nodes = searcher.nodes();
    Info {
        depth,
        seldepth: searcher.seldepth(),
        multipv,
        score: Score::from_internal(score),
        bound,
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: tt.hashfull(),
        pv,
    }
}

/// Decides when to stop: `stop`, the node limit, the hard deadline.
struct Clock<'a> {
    start: f64,
    budget: Option<Budget>,
    control: &'a Control,
    node_limit: Option<u64>,
    next_check: u64,
}

/// Positions between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

impl Clock<'_> {
    fn elapsed(&self) -> f64 {
        now_ms() - self.start
    }

    fn since_clock_start(&self) -> f64 {
        now_ms() - self.control.clock_start(self.start)
    }

    /// Depth 1 always completes (it takes microseconds), so even a search stopped at
    /// once answers with a searched move rather than an arbitrary legal one.
    fn must_stop(&self, depth: i32) -> bool {
        if depth <= 1 {
            return false;
        }
        if self.control.stopped() {
            return true;
        }
        !self.control.pondering() && self.budget.is_some_and(|b| self.since_clock_start() >= b.hard)
    }

    fn out_of_soft_time(&self) -> bool {
        !self.control.pondering() && self.budget.is_some_and(|b| self.since_clock_start() >= b.soft * 0.6)
    }

    /// Runs the prepared searcher to its value, or `None` when told to stop.
    fn run(&mut self, searcher: &mut Searcher, depth: i32, listener: &mut dyn Listener) -> Option<i32> {
        let mut last_root = None;
        loop {
            if let Progress::Done(score) = searcher.step() {
                return Some(score);
            }
            let nodes = searcher.nodes();
            if depth > 1 && self.node_limit.is_some_and(|n| nodes >= n) {
                return None;
            }
            if nodes >= self.next_check {
                self.next_check = nodes + CHECK_INTERVAL;
                if self.must_stop(depth) {
                    return None;
                }
                let root = searcher.root_move();
                if root != last_root && self.elapsed() > 1000.0 {
                    if let Some(r) = root {
                        listener.currmove(depth, r);
                    }
                }
                last_root = root;
            }
        }
    }
}
