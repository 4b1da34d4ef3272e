//! Processor 0: the MTD(f) driver inside iterative deepening, on top of its own share of
//! the TDS work. Each MTD(f) pass sends the root, with a null window around the current
//! guess, to the root's home; the pass ends when the root's value comes back. Between
//! passes the driver kills what is left of the old pass everywhere.

use super::job::{Job, Target, TdsMessage};
use super::worker::{TdsProcessor, Worker};
use crate::chess::legal_moves;
use crate::eval::evaluate;
use crate::machine::{broadcast, Activity, Counters, Program};
use crate::search::Task;
use crate::search::{Control, Info, Limits, Line, Listener, SearchResult, StopRules, INFINITY};
use crate::tt::Tables;
use cozy_chess::{Board, Move};

/// The first widening of the MTD(f) window after two passes failed the same way.
const MIN_STRIDE: i32 = 8;
/// Steps of processor 0 between two looks at the clock.
const CLOCK_INTERVAL: u32 = 64;

/// Processor 0's program: a worker plus the driver that feeds it roots.
pub(super) struct MainProgram<'a, L: Listener> {
    worker: Worker<'a>,
    board: Board,
    limits: Limits,
    /// The tables, read for reports (the fullness of processor 0's, the principal variation).
    tables: &'a Tables,
    control: &'a Control,
    counters: &'a Counters,
    listener: L,
    /// Root moves allowed by `searchmoves` (all legal moves if none given).
    allowed: Vec<Move>,
    /// Whether the root must be restricted (MultiPV or `searchmoves`).
    restrict: bool,
    lines_wanted: usize,
    stops: StopRules,
    /// Steps since the search started, to look at the clock every [`CLOCK_INTERVAL`].
    steps: u32,
    depth: i32,
    /// Lines finished in this iteration.
    lines: Vec<Line>,
    /// MTD(f) state of the current line: the bounds, the running pass's window
    /// `gamma - 1 .. gamma`, how far past the last value the next window goes, and
    /// whether the last pass failed high.
    lower: i32,
    upper: i32,
    gamma: i32,
    stride: i32,
    last_failed_high: Option<bool>,
    /// The first window of a line no earlier iteration scored.
    guess: i32,
    pass: u32,
    /// The root move of the last pass that failed high in this line.
    line_best: Option<Move>,
    result: SearchResult,
    finished: bool,
}

impl<'a, L: Listener> MainProgram<'a, L> {
    /// The driver for `task`, reporting to `listener`.
    pub(super) fn new(worker: Worker<'a>, task: &Task<'_>, tables: &'a Tables, control: &'a Control, counters: &'a Counters, listener: L) -> Self {
        let limits = task.limits.clone();
        let allowed: Vec<Move> = legal_moves(task.board).into_iter().filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m)).collect();
        let lines_wanted = task.settings.multipv.clamp(1, allowed.len().max(1));
        MainProgram {
            worker,
            board: task.board.clone(),
            stops: StopRules::new(&limits, task.board.side_to_move(), task.settings.move_overhead),
            restrict: lines_wanted > 1 || !limits.searchmoves.is_empty(),
            limits,
            tables,
            control,
            counters,
            listener,
            result: SearchResult { best: allowed.first().copied(), ponder: None, score: 0, depth: 0, nodes: 0, lines: Vec::new() },
            allowed,
            lines_wanted,
            steps: 0,
            depth: 1,
            lines: Vec::with_capacity(lines_wanted),
            lower: -INFINITY,
            upper: INFINITY,
            gamma: 0,
            stride: 0,
            last_failed_high: None,
            guess: evaluate(task.board),
            pass: 0,
            line_best: None,
            finished: false,
        }
    }

    /// The result of the last completed iteration.
    pub(super) fn into_result(self) -> SearchResult {
        self.result
    }

    /// Starts the MTD(f) sequence for the next line of this iteration.
    fn start_line(&mut self, processor: &mut TdsProcessor<'_>) {
        (self.lower, self.upper) = (-INFINITY, INFINITY);
        self.gamma = self.result.lines.get(self.lines.len()).map_or(self.guess, |previous| previous.score);
        (self.stride, self.last_failed_high) = (0, None);
        self.line_best = None;
        self.launch_pass(processor);
    }

    /// Sends the root with the null window `gamma - 1 .. gamma`.
    fn launch_pass(&mut self, processor: &mut TdsProcessor<'_>) {
        self.pass += 1;
        let lines = &self.lines;
        let root_moves = if self.restrict { self.allowed.iter().copied().filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m))).collect() } else { Vec::new() };
        let root = Job {
            pass: self.pass,
            board: self.board.clone(),
            ply: 0,
            depth: self.depth,
            gamma: self.gamma,
            path: Vec::new(),
            signature: Vec::new(),
            target: Target::Driver,
            root_moves,
            null_allowed: false,
        };
        self.worker.submit(Box::new(root), processor);
    }

    /// The root's value came back: narrow the bounds and go on, or close the line.
    fn root_answered(&mut self, value: i32, best: Option<Move>, processor: &mut TdsProcessor<'_>) {
        // What is left of this pass anywhere is useless now.
        broadcast(processor, TdsMessage::Cutoff { pass: self.pass, prefix: Vec::new() });
        self.worker.apply_cutoff(&[], processor);
        let failed_high = value >= self.gamma;
        if failed_high {
            self.lower = value;
            self.line_best = best.or(self.line_best);
        } else {
            self.upper = value;
        }
        // Plain MTD(f) moves the window just past the value; when passes keep failing
        // the same way the value is far off, so the window strides further each time.
        self.stride = if self.last_failed_high == Some(failed_high) { (self.stride * 2).max(MIN_STRIDE) } else { 0 };
        self.last_failed_high = Some(failed_high);
        if self.lower < self.upper {
            // The window always lies inside (lower, upper], so every pass narrows them.
            self.gamma = if failed_high { (self.lower + 1 + self.stride).min(self.upper) } else { (self.upper - self.stride).max(self.lower + 1) };
            return self.launch_pass(processor);
        }
        let first = self.line_best.or_else(|| self.allowed.iter().copied().find(|m| !self.lines.iter().any(|l| l.pv.first() == Some(m))));
        self.lines.push(Line { score: value, pv: self.principal_variation(first) });
        if self.lines.len() < self.lines_wanted {
            return self.start_line(processor);
        }
        self.iteration_done(processor);
    }

    fn iteration_done(&mut self, processor: &mut TdsProcessor<'_>) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let time_ms = self.stops.elapsed() as u64;
        let nodes = self.worker.nodes();
        for (i, line) in lines.iter().enumerate() {
            let hashfull = self.tables.of_processor(0).hashfull();
            self.listener.info(&Info::finished_line(self.depth, self.worker.seldepth(), i + 1, line, nodes, time_ms, hashfull));
        }
        self.result.best = lines[0].pv.first().copied();
        self.result.ponder = lines[0].pv.get(1).copied();
        self.result.score = lines[0].score;
        self.result.depth = self.depth;
        self.guess = lines[0].score;
        self.result.lines = lines;
        if self.iterations_over() {
            self.finished = true;
        } else {
            self.depth += 1;
            self.start_line(processor);
        }
    }

    /// The line from `first` on, following the table's moves for at most the iteration's
    /// depth (older entries would lengthen it with guesses; a repeated position ends it).
    fn principal_variation(&self, first: Option<Move>) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut board = self.board.clone();
        let mut seen = vec![board.hash()];
        let mut next = first;
        while let Some(mv) = next.filter(|&m| board.is_legal(m) && pv.len() < self.depth as usize) {
            board.play_unchecked(mv);
            pv.push(mv);
            if seen.contains(&board.hash()) {
                break;
            }
            seen.push(board.hash());
            next = self.tables.holding(board.hash(), 0).probe(board.hash()).and_then(|e| e.mv);
        }
        pv
    }

    /// Whether another iteration should not start (the serial driver's rules).
    fn iterations_over(&self) -> bool {
        self.stops.iterations_over(self.depth, self.result.score, self.control)
    }

    /// `stop`, the node limit or the hard time limit, once depth 1 is complete.
    fn must_stop(&mut self) -> bool {
        if self.result.depth == 0 {
            return false;
        }
        if self.control.stopped() {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.counters.total_nodes().max(self.worker.nodes()) >= n) {
            return true;
        }
        self.steps += 1;
        if !self.steps.is_multiple_of(CLOCK_INTERVAL) {
            return false;
        }
        self.stops.past_hard_time(self.control)
    }
}

impl<L: Listener> Program for MainProgram<'_, L> {
    type Message = TdsMessage;

    fn step(&mut self, processor: &mut TdsProcessor<'_>) -> Activity {
        if self.pass == 0 && !self.allowed.is_empty() {
            self.start_line(processor);
        }
        if !self.finished && !self.allowed.is_empty() && !self.must_stop() {
            let activity = self.worker.step(processor);
            if let Some((value, best)) = self.worker.root_value.take() {
                self.root_answered(value, best, processor);
            }
            if !self.finished {
                return activity;
            }
        }
        broadcast(processor, TdsMessage::Finish);
        Activity::Finished
    }

    fn nodes(&self) -> u64 {
        self.worker.nodes()
    }
}
