//! The processor program of the shared-table algorithms, Lazy SMP and ABDADA (each file
//! names its paper, or for Lazy SMP its lack of one): iterative deepening on one
//! processor, with no messages — the table is their only channel.
//!
//! The idea: every processor deepens on its own over the shared table; the first to
//! complete an iteration publishes it ([`Deepest`]), and the others take it over rather
//! than finish that iteration themselves: processor 0 reports it (and ends a
//! depth-limited search with it), helpers move on past it, keeping their lead.
//!
//! Invariants: the published iteration only ever gets deeper; processor 0 alone reports
//! and decides, and when it is done it stops the helpers (`helpers_stop`), which finish
//! at their next step; a published result always has lines (a move to play).
//!
//! Departure: [`Deepest`] is ours, not the papers'; the rules tried around it (such as
//! taking over a helper's iteration only when it agrees on the move) are in
//! docs/tuning-log.md.
//!
//! Also here: the two chores every program does after a step, for all algorithms
//! ([`forward_tree_events`], [`pass_accesses`]).

use crate::machine::wire::WireError;
use crate::machine::{Activity, MessageKind, Payload, Processor, Program};
use crate::search::{Control, Deepening, Limits, Listener, NoReports, SearchResult, Searcher, Task, TreePath};
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::Mutex;

/// The deepest iteration any processor of a search has completed. Processors race through
/// the same iterations from the same table; whoever completes one first publishes it here,
/// and the others take it over instead of finishing that iteration themselves: processor 0
/// reports it (and ends a depth-limited search with it), helpers move on past it.
#[derive(Default)]
pub(super) struct Deepest {
    /// `result.depth`, readable at every step without the lock.
    depth: AtomicI32,
    result: Mutex<Option<SearchResult>>,
}

impl Deepest {
    fn depth(&self) -> i32 {
        self.depth.load(Relaxed)
    }

    /// Publishes `result` if it is deeper than what is there.
    fn offer(&self, result: &SearchResult) {
        let mut slot = self.result.lock().unwrap_or_else(|e| e.into_inner());
        if result.depth > self.depth() && !result.lines.is_empty() {
            *slot = Some(result.clone());
            self.depth.store(result.depth, Relaxed);
        }
    }

    fn get(&self) -> Option<SearchResult> {
        self.result.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Iterative deepening of one processor, reporting to `L` (helpers: [`NoReports`]).
pub(super) struct DeepeningProgram<'a, L: Listener> {
    searcher: &'a mut Searcher,
    tt: &'a TranspositionTable,
    deepening: Option<Deepening>,
    /// Stop and ponder signals this processor obeys.
    control: &'a Control,
    /// Processor 0 stops the helpers through this when it is done; helpers obey it.
    helpers_stop: &'a Control,
    deepest: &'a Deepest,
    /// Plies this processor keeps ahead of the deepest completed iteration.
    ahead: i32,
    is_main: bool,
    listener: L,
    result: Option<SearchResult>,
}

impl<'a, L: Listener> DeepeningProgram<'a, L> {
    /// Processor 0: the user's limits and control, reporting to `listener`.
    pub(super) fn main(searcher: &'a mut Searcher, tt: &'a TranspositionTable, task: &Task<'_>, control: &'a Control, helpers_stop: &'a Control, deepest: &'a Deepest, listener: L) -> Self {
        let deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
        DeepeningProgram { searcher, tt, deepening: Some(deepening), control, helpers_stop, deepest, ahead: 0, is_main: true, listener, result: None }
    }

    /// Processor 0's result (after the machine ran it).
    pub(super) fn into_result(self) -> SearchResult {
        self.result.expect("processor 0 ran to its end")
    }
}

impl<'a> DeepeningProgram<'a, NoReports> {
    /// A helper: runs until processor 0 is done (or its depth limit), `ahead` plies ahead
    /// of the deepest completed iteration.
    pub(super) fn helper(searcher: &'a mut Searcher, tt: &'a TranspositionTable, task: &Task<'_>, helpers_stop: &'a Control, deepest: &'a Deepest, ahead: i32) -> Self {
        let limits = Limits { depth: task.limits.depth, searchmoves: task.limits.searchmoves.clone(), infinite: true, ..Limits::default() };
        let deepening = Deepening::starting_at(task.board, task.history, &limits, task.settings, 1 + ahead);
        let (control, is_main, listener, result) = (helpers_stop, false, NoReports, None);
        DeepeningProgram { searcher, tt, deepening: Some(deepening), control, helpers_stop, deepest, ahead, is_main, listener, result }
    }
}

/// A processor that searches nothing and only holds its part of a table split among the
/// processors, which the machine serves on its behalf (Zugzwang's Figure 3: one searcher
/// among idle owners). It sleeps until processor 0 stops it.
pub(super) struct IdleOwner<'a> {
    pub(super) stop: &'a Control,
}

impl Program for IdleOwner<'_> {
    type Message = NoMessage;

    fn step(&mut self, _cpu: &mut dyn Processor<NoMessage>) -> Activity {
        if self.stop.stopped() {
            Activity::Finished
        } else {
            Activity::Waiting
        }
    }

    fn nodes(&self) -> u64 {
        0
    }
}

/// Passes the searcher's tree events on to the processor (the simulator traces them).
pub(super) fn forward_tree_events<M>(searcher: &mut Searcher, cpu: &mut dyn Processor<M>) {
    for event in searcher.take_tree_events() {
        cpu.tree(event);
    }
}

/// Hands the searcher's record of accesses to a split table to the machine (it is empty
/// for any other table), after every step.
pub(super) fn pass_accesses<M>(searcher: &mut Searcher, cpu: &mut dyn Processor<M>) {
    if !searcher.accesses().is_empty() {
        cpu.table_accesses(searcher.accesses());
        searcher.forget_accesses();
    }
}

/// The shared-table algorithms send no messages: the table is their only channel.
pub(super) enum NoMessage {}

impl Payload for NoMessage {
    fn kind(&self) -> MessageKind {
        match *self {}
    }

    fn encode(&self, _out: &mut Vec<u8>) {
        match *self {}
    }

    fn decode(_bytes: &[u8]) -> Result<Self, WireError> {
        Err(WireError("the shared-table algorithms send no messages".into()))
    }
}

impl<L: Listener> Program for DeepeningProgram<'_, L> {
    type Message = NoMessage;

    fn step(&mut self, cpu: &mut dyn Processor<NoMessage>) -> Activity {
        let Some(deepening) = self.deepening.as_mut() else { return Activity::Finished };
        let mut done = deepening.step(self.searcher, self.tt, self.control, &mut self.listener);
        let own = deepening.completed().depth;
        if own > self.deepest.depth() {
            self.deepest.offer(deepening.completed());
        } else if own < self.deepest.depth() && !done {
            if let Some(deeper) = self.deepest.get() {
                done = deepening.catch_up(&deeper, self.ahead, self.searcher, self.tt, self.control, &mut self.listener);
            }
        }
        let done = done || (!self.is_main && self.helpers_stop.stopped());
        pass_accesses(self.searcher, cpu);
        forward_tree_events(self.searcher, cpu);
        if !done {
            return Activity::Working;
        }
        let finished = self.deepening.take().expect("checked above").finish(self.searcher);
        if self.is_main {
            self.helpers_stop.stop();
            // Alone, it searched one tree whose span it knows (with helpers, no tree of
            // dependent work spans the processors: they share only table entries).
            if cpu.count() == 1 {
                cpu.report_critical_path(self.searcher.span_total());
            }
        }
        self.result = Some(finished);
        Activity::Finished
    }

    fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }

    fn line(&self) -> Option<TreePath> {
        self.deepening.as_ref().and_then(|_| self.searcher.line())
    }
}
