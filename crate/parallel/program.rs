//! The processor program of the shared-table algorithms: iterative deepening on one
//! processor. Processor 0 reports to the user and, when done, stops the helpers.

use crate::machine::{Activity, MessageKind, Payload, Processor, Program};
use crate::search::{Control, Deepening, Limits, Listener, NoReports, SearchResult, SearchSettings, Searcher};
use crate::tt::TranspositionTable;
use cozy_chess::Board;

/// Iterative deepening of one processor, reporting to `L` (helpers: [`NoReports`]).
pub(super) struct DeepeningProgram<'a, L: Listener> {
    searcher: &'a mut Searcher,
    tt: &'a TranspositionTable,
    deepening: Option<Deepening>,
    /// Stop and ponder signals this processor obeys.
    control: &'a Control,
    /// Processor 0 stops the helpers through this when it is done; helpers obey it.
    helpers_stop: &'a Control,
    is_main: bool,
    listener: L,
    result: Option<SearchResult>,
}

/// What every processor searches: the position, its history and the user's limits.
pub(super) struct Task<'a> {
    /// The position to search.
    pub board: &'a Board,
    /// Hashes of the game before it.
    pub history: &'a [u64],
    /// The `go` limits.
    pub limits: &'a Limits,
    /// MultiPV, overhead, pure.
    pub settings: &'a SearchSettings,
}

impl<'a, L: Listener> DeepeningProgram<'a, L> {
    /// Processor 0: the user's limits and control, reporting to `listener`.
    pub(super) fn main(searcher: &'a mut Searcher, tt: &'a TranspositionTable, task: &Task<'_>, control: &'a Control, helpers_stop: &'a Control, listener: L) -> Self {
        let deepening = Deepening::new(task.board, task.history, task.limits, task.settings);
        DeepeningProgram { searcher, tt, deepening: Some(deepening), control, helpers_stop, is_main: true, listener, result: None }
    }

    /// Processor 0's result (after the machine ran it).
    pub(super) fn into_result(self) -> SearchResult {
        self.result.expect("processor 0 ran to its end")
    }
}

impl<'a> DeepeningProgram<'a, NoReports> {
    /// A helper: runs until processor 0 is done (or its depth limit), from `first_depth`.
    pub(super) fn helper(searcher: &'a mut Searcher, tt: &'a TranspositionTable, task: &Task<'_>, helpers_stop: &'a Control, first_depth: i32) -> Self {
        let limits = Limits { depth: task.limits.depth, searchmoves: task.limits.searchmoves.clone(), infinite: true, ..Limits::default() };
        let deepening = Deepening::starting_at(task.board, task.history, &limits, task.settings, first_depth);
        let (control, is_main, listener, result) = (helpers_stop, false, NoReports, None);
        DeepeningProgram { searcher, tt, deepening: Some(deepening), control, helpers_stop, is_main, listener, result }
    }
}

/// The shared-table algorithms send no messages: the table is their only channel.
pub(super) enum NoMessage {}

impl Payload for NoMessage {
    fn kind(&self) -> MessageKind {
        match *self {}
    }
}

impl<L: Listener> Program for DeepeningProgram<'_, L> {
    type Message = NoMessage;

    fn step(&mut self, cpu: &mut dyn Processor<NoMessage>) -> Activity {
        let Some(deepening) = self.deepening.as_mut() else { return Activity::Finished };
        self.searcher.set_tree_plies(cpu.tree_plies());
        let done = deepening.step(self.searcher, self.tt, self.control, &mut self.listener)
            || (!self.is_main && self.helpers_stop.stopped());
        super::split::forward_tree_events(self.searcher, cpu);
        if !done {
            return Activity::Working;
        }
        let finished = self.deepening.take().expect("checked above").finish(self.searcher);
        if self.is_main {
            self.helpers_stop.stop();
        }
        self.result = Some(finished);
        Activity::Finished
    }

    fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }
}
