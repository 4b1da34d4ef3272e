//! Iterative deepening around the searcher: aspiration windows, MultiPV, time and
//! node limits, `stop` and `ponderhit`, and the per-iteration reports UCI prints.

use super::score::{Score, INFINITY, MATE};
use super::searcher::{Progress, RootMove, SearchOptions, Searcher};
use super::time::{Limits, StopRules};
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

    pub(super) fn clock_start(&self, search_start: f64) -> f64 {
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

impl Info {
    /// The report of line `multipv` (from 1) of a finished iteration to `depth`: its exact
    /// score and principal variation, `seldepth` at least the iteration's depth (a parallel
    /// driver's processor 0 may not see the helpers' deepest plies).
    pub fn finished_line(depth: i32, seldepth: usize, multipv: usize, line: &Line, nodes: u64, time_ms: u64, hashfull: u32) -> Info {
        Info {
            depth,
            seldepth: seldepth.max(depth.max(0) as usize),
            multipv,
            score: Score::from_internal(line.score),
            bound: ScoreBound::Exact,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull,
            pv: line.pv.clone(),
        }
    }
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

const ASPIRATION_DELTA: i32 = 20;
/// Positions between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

/// What a search is asked: the position after its game's history, the user's limits and
/// the settings (the same for every processor of a parallel search).
#[derive(Clone, Copy)]
pub struct Task<'a> {
    /// The position to search.
    pub board: &'a Board,
    /// Hashes of the game before it.
    pub history: &'a [u64],
    /// The `go` limits.
    pub limits: &'a Limits,
    /// MultiPV, overhead, pure.
    pub settings: &'a SearchSettings,
}

/// Runs one iterative-deepening search of `task` to the end.
pub fn search(searcher: &mut Searcher, tt: &TranspositionTable, task: &Task<'_>, control: &Control, listener: &mut dyn Listener) -> SearchResult {
    tt.new_search();
    let mut deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
    while !deepening.step(searcher, tt, control, listener) {}
    deepening.finish(searcher)
}

/// Where iterative deepening stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The searcher must be (re)started for the current line and window.
    StartLine,
    /// The searcher is working on the current line.
    Searching,
    /// The search is over.
    Done,
}

/// Iterative deepening with aspiration windows and MultiPV as a resumable state machine:
/// [`Deepening::step`] advances the underlying [`Searcher`] by one node, so a processor
/// can interleave it with other work (messages, simulated time).
pub struct Deepening {
    board: Board,
    history: Vec<u64>,
    limits: Limits,
    settings: SearchSettings,
    /// Root moves allowed by `searchmoves` (all legal moves if none given).
    allowed: Vec<Move>,
    /// Root moves of the current line (allowed minus the lines already found).
    root_moves: Vec<Move>,
    restrict: bool,
    lines_wanted: usize,
    stops: StopRules,
    depth: i32,
    lines: Vec<Line>,
    alpha: i32,
    beta: i32,
    delta: i32,
    result: SearchResult,
    stage: Stage,
    next_check: u64,
    last_root: Option<RootMove>,
    /// Whether the searcher still has to be set up for this search.
    fresh: bool,
    /// Whether the searcher waits for values from other processors.
    waiting: bool,
}

impl Deepening {
    /// Prepares a search starting at depth 1; the clock starts now.
    pub fn new(board: &Board, history: &[u64], limits: &Limits, settings: &SearchSettings) -> Deepening {
        Deepening::starting_at(board, history, limits, settings, 1)
    }

    /// Prepares a search whose first iteration has depth `first_depth` (helpers of
    /// parallel searches start deeper to spread the work).
    pub fn starting_at(board: &Board, history: &[u64], limits: &Limits, settings: &SearchSettings, first_depth: i32) -> Deepening {
        let legal = legal_moves(board);
        let allowed: Vec<Move> = if limits.searchmoves.is_empty() {
            legal
        } else {
            legal.into_iter().filter(|m| limits.searchmoves.contains(m)).collect()
        };
        let lines_wanted = settings.multipv.clamp(1, allowed.len().max(1));
        let stops = StopRules::new(limits, board.side_to_move(), settings.move_overhead);
        Deepening {
            board: board.clone(),
            history: history.to_vec(),
            limits: limits.clone(),
            settings: *settings,
            restrict: lines_wanted > 1 || !limits.searchmoves.is_empty(),
            root_moves: Vec::with_capacity(allowed.len()),
            result: SearchResult { best: allowed.first().copied(), ponder: None, score: 0, depth: 0, nodes: 0, lines: Vec::new() },
            stage: if allowed.is_empty() { Stage::Done } else { Stage::StartLine },
            allowed,
            lines_wanted,
            stops,
            depth: first_depth.clamp(1, stops.max_depth()),
            lines: Vec::with_capacity(lines_wanted),
            alpha: -INFINITY,
            beta: INFINITY,
            delta: ASPIRATION_DELTA,
            next_check: 0,
            last_root: None,
            fresh: true,
            waiting: false,
        }
    }

    /// Advances by one searcher step plus the bookkeeping around it. Returns `true`
    /// when the search is over (limits reached, stopped, or nothing to search).
    pub fn step(&mut self, searcher: &mut Searcher, tt: &TranspositionTable, control: &Control, listener: &mut dyn Listener) -> bool {
        match self.stage {
            Stage::Done => true,
            Stage::StartLine => {
                self.start_line(searcher);
                false
            }
            Stage::Searching => match searcher.step() {
                Progress::Done(score) => {
                    self.line_searched(searcher, tt, control, score, listener);
                    self.stage == Stage::Done
                }
                Progress::Running => {
                    self.waiting = false;
                    if self.must_stop(searcher, control, listener) {
                        self.stop_inside_iteration(searcher, tt, listener);
                    }
                    self.stage == Stage::Done
                }
                Progress::Waiting => {
                    // No nodes pass while waiting, so look at the clock and `stop` now.
                    self.waiting = true;
                    self.next_check = 0;
                    if self.must_stop(searcher, control, listener) {
                        self.stop_inside_iteration(searcher, tt, listener);
                    }
                    self.stage == Stage::Done
                }
            },
        }
    }

    /// Whether the last step found the searcher waiting for other processors' values.
    pub fn waiting(&self) -> bool {
        self.waiting && self.stage == Stage::Searching
    }

    /// The result, falling back on the root's best move when no iteration completed.
    pub fn finish(mut self, searcher: &Searcher) -> SearchResult {
        if self.result.depth == 0 {
            if let Some((mv, score)) = searcher.root_best() {
                self.result.best = Some(mv);
                self.result.score = score;
            }
        }
        self.result.nodes = searcher.nodes();
        self.result
    }

    fn start_line(&mut self, searcher: &mut Searcher) {
        if self.fresh {
            searcher.set_options(self.settings.options);
            searcher.reset_counters();
            self.fresh = false;
        }
        self.root_moves.clear();
        let lines = &self.lines;
        self.root_moves.extend(self.allowed.iter().copied().filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m))));
        let moves: &[Move] = if self.restrict { &self.root_moves } else { &[] };
        searcher.start(&self.board, &self.history, self.alpha, self.beta, self.depth, moves);
        self.stage = Stage::Searching;
        // A new line waits for nobody: the last line's wait must not carry over.
        self.waiting = false;
    }

    /// What a root score says against the current window: exact inside it, a bound on
    /// or beyond its edges.
    fn bound_of(&self, score: i32) -> ScoreBound {
        if score <= self.alpha {
            ScoreBound::Upper
        } else if score >= self.beta {
            ScoreBound::Lower
        } else {
            ScoreBound::Exact
        }
    }

    /// Sets the aspiration window for the next line of this iteration.
    fn open_window(&mut self) {
        self.delta = ASPIRATION_DELTA;
        let previous = self.result.lines.get(self.lines.len()).map(|l| l.score);
        (self.alpha, self.beta) = match previous {
            Some(s) if self.depth >= 4 && s.abs() < MATE / 2 => (s - self.delta, s + self.delta),
            _ => (-INFINITY, INFINITY),
        };
    }

    fn line_searched(&mut self, searcher: &Searcher, tt: &TranspositionTable, control: &Control, score: i32, listener: &mut dyn Listener) {
        let pv: Vec<Move> = searcher.pv().iter().map_while(|m| *m).collect();
        let bound = self.bound_of(score);
        self.stage = Stage::StartLine;
        if bound != ScoreBound::Exact {
            if self.elapsed() > 1000.0 {
                listener.info(&self.report(searcher, tt, self.lines.len() + 1, score, bound, pv));
            }
            if bound == ScoreBound::Upper {
                self.beta = (self.alpha + self.beta) / 2;
                self.alpha = (score - self.delta).max(-INFINITY);
            } else {
                self.beta = (score + self.delta).min(INFINITY);
            }
            self.delta *= 2;
            return;
        }
        self.lines.push(Line { score, pv });
        if self.lines.len() < self.lines_wanted {
            self.open_window();
            return;
        }
        self.iteration_done(searcher, tt, control, listener);
    }

    fn iteration_done(&mut self, searcher: &Searcher, tt: &TranspositionTable, control: &Control, listener: &mut dyn Listener) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        self.take_iteration(searcher, tt, lines, listener);
        if self.iterations_over(control) {
            self.stage = Stage::Done;
        } else {
            self.depth += 1;
            self.open_window();
        }
    }

    /// Makes `lines` (best first) of iteration `self.depth` the result and reports them.
    fn take_iteration(&mut self, searcher: &Searcher, tt: &TranspositionTable, lines: Vec<Line>, listener: &mut dyn Listener) {
        for (i, line) in lines.iter().enumerate() {
            listener.info(&self.report(searcher, tt, i + 1, line.score, ScoreBound::Exact, line.pv.clone()));
        }
        self.result.best = lines[0].pv.first().copied();
        self.result.ponder = lines[0].pv.get(1).copied();
        self.result.score = lines[0].score;
        self.result.depth = self.depth;
        self.result.lines = lines;
    }

    /// Ends a search stopped inside an iteration. The last completed iteration is
    /// reported again with the nodes and time at the stop, so the last `info` line counts
    /// every node searched (as GUIs and speed measurements expect).
    fn stop_inside_iteration(&mut self, searcher: &Searcher, tt: &TranspositionTable, listener: &mut dyn Listener) {
        self.stage = Stage::Done;
        self.depth = self.result.depth;
        let lines = std::mem::take(&mut self.result.lines);
        for (i, line) in lines.iter().enumerate() {
            listener.info(&self.report(searcher, tt, i + 1, line.score, ScoreBound::Exact, line.pv.clone()));
        }
        self.result.lines = lines;
    }

    /// The deepest iteration completed so far (`depth` 0: none yet).
    pub fn completed(&self) -> &SearchResult {
        &self.result
    }

    /// Takes over `deeper`, an iteration another processor completed on the same search
    /// (same position, history, limits and settings), when it is deeper than this one's
    /// own: its lines are reported as this search's, a search that has reached its depth
    /// limit (or its time) is over, and an iteration in progress that `deeper` has made pointless is
    /// dropped for iteration `deeper.depth + 1 + ahead` (the table keeps what it found);
    /// one still ahead of that goes on, restarted around `deeper`'s score if it is the
    /// next iteration and its window excludes that score.
    /// Lazy SMP's processors race through the same iterations; the first to finish one
    /// has answered it for all. Returns whether the search is over.
    pub fn catch_up(&mut self, deeper: &SearchResult, ahead: i32, searcher: &Searcher, tt: &TranspositionTable, control: &Control, listener: &mut dyn Listener) -> bool {
        if self.stage == Stage::Done || deeper.depth <= self.result.depth || deeper.lines.is_empty() {
            return self.stage == Stage::Done;
        }
        let in_progress = self.depth;
        self.depth = deeper.depth;
        self.take_iteration(searcher, tt, deeper.lines.clone(), listener);
        if self.iterations_over(control) {
            self.stage = Stage::Done;
            return true;
        }
        let next = (deeper.depth + 1 + ahead).min(self.stops.max_depth());
        if in_progress >= next {
            self.depth = in_progress;
            if in_progress == deeper.depth + 1 && self.lines.is_empty() && self.bound_of(deeper.score) != ScoreBound::Exact {
                // Its window was set plies before `deeper`, whose score it excludes: the
                // search would fail its window, so it starts over around that score now
                // (the table keeps what it found).
                self.stage = Stage::StartLine;
                self.open_window();
            }
            return false;
        }
        self.depth = next;
        self.lines.clear();
        self.stage = Stage::StartLine;
        self.open_window();
        false
    }

    /// Whether another iteration should not start.
    fn iterations_over(&self, control: &Control) -> bool {
        self.stops.iterations_over(self.depth, self.result.score, control)
    }

    fn report(&self, searcher: &Searcher, tt: &TranspositionTable, multipv: usize, score: i32, bound: ScoreBound, pv: Vec<Move>) -> Info {
        let time_ms = self.elapsed() as u64;
        let nodes = searcher.nodes();
        Info {
            depth: self.depth,
            // An iteration taken over from another processor went deeper than this searcher.
            seldepth: searcher.seldepth().max(self.depth.max(0) as usize),
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

    fn elapsed(&self) -> f64 {
        self.stops.elapsed()
    }

    /// Checks the node limit at every step, and `stop`, the clock and the soft time
    /// between iterations every [`CHECK_INTERVAL`] nodes. Depth 1 always completes (it
    /// takes microseconds), so even a search stopped at once answers with a searched move.
    fn must_stop(&mut self, searcher: &Searcher, control: &Control, listener: &mut dyn Listener) -> bool {
        if self.depth <= 1 && self.result.depth == 0 {
            return false;
        }
        let nodes = searcher.nodes();
        if self.limits.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        if nodes < self.next_check {
            return false;
        }
        self.next_check = nodes + CHECK_INTERVAL;
        if control.stopped() {
            return true;
        }
        if self.stops.past_hard_time(control) {
            return true;
        }
        let root = searcher.root_move();
        if root != self.last_root && self.elapsed() > 1000.0 {
            if let Some(r) = root {
                listener.currmove(self.depth, r);
            }
        }
        self.last_root = root;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Every report a search made, in order.
    #[derive(Default)]
    struct Recorded(Vec<Info>);

    impl Listener for Recorded {
        fn info(&mut self, info: &Info) {
            self.0.push(info.clone());
        }
        fn currmove(&mut self, _: i32, _: RootMove) {}
    }

    /// A search stopped inside an iteration (here by a node limit) ends with a report of
    /// its last completed iteration that counts every node searched.
    #[test]
    fn the_last_report_counts_the_nodes_of_an_unfinished_iteration() {
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let limits = Limits { nodes: Some(30_000), ..Limits::default() };
        let mut reports = Recorded::default();
        let result = search(&mut Searcher::new(tt.clone()), &tt, &Task { board: &Board::default(), history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut reports);
        let last = reports.0.last().expect("reports");
        assert_eq!(last.nodes, result.nodes);
        assert_eq!((last.depth, last.pv.first()), (result.depth, result.best.as_ref()));
        let before = &reports.0[reports.0.len() - 2];
        assert!(before.nodes < last.nodes && before.depth == last.depth, "the iteration was reported when it completed");
    }

    /// A helper one ply ahead goes on with the last iteration when the one before it is
    /// completed elsewhere, and starts it over around that iteration's score only when
    /// its own window, set two plies earlier, excludes the score.
    #[test]
    fn the_last_iteration_restarts_around_a_newer_score_outside_its_window() {
        let board = Board::default();
        let (settings, control) = (SearchSettings::default(), Control::default());
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let elsewhere = |depth| {
            let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
            search(&mut Searcher::new(tt.clone()), &tt, &Task { board: &board, history: &[], limits: &Limits { depth: Some(depth), ..Limits::default() }, settings: &settings }, &control, &mut NoReports)
        };
        let (fourth, fifth) = (elsewhere(4), elsewhere(5));
        for (shift, restarts) in [(5, false), (200, true)] {
            let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
            let mut searcher = Searcher::new(tt.clone());
            let mut helper = Deepening::new(&board, &[], &limits, &settings);
            while helper.completed().depth < 3 {
                helper.step(&mut searcher, &tt, &control, &mut NoReports);
            }
            helper.catch_up(&fourth, 1, &searcher, &tt, &control, &mut NoReports);
            helper.step(&mut searcher, &tt, &control, &mut NoReports);
            assert_eq!((helper.depth, helper.stage), (6, Stage::Searching), "after depth 4 it jumps to the last iteration");
            assert_eq!((helper.alpha, helper.beta), (fourth.score - ASPIRATION_DELTA, fourth.score + ASPIRATION_DELTA));
            let mut newer = fifth.clone();
            newer.score = fourth.score + shift;
            newer.lines[0].score = newer.score;
            assert!(!helper.catch_up(&newer, 1, &searcher, &tt, &control, &mut NoReports));
            assert_eq!(helper.depth, 6);
            assert_eq!(helper.stage == Stage::StartLine, restarts, "a score {shift} from the window's centre");
            let centre = if restarts { newer.score } else { fourth.score };
            assert_eq!((helper.alpha, helper.beta), (centre - ASPIRATION_DELTA, centre + ASPIRATION_DELTA));
        }
    }
}
