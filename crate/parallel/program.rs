//! The processor program of the shared-table algorithms: iterative deepening on one
//! processor. Processor 0 reports to the user and, when done, stops the helpers.

use crate::machine::{Activity, Processor, Program};
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

impl<'a, L: Listener> DeepeningProgram<'a, L> {
    /// Processor 0: the user's limits and control, reporting to `listener`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn main(
        searcher: &'a mut Searcher,
        tt: &'a TranspositionTable,
        board: &Board,
        history: &[u64],
        limits: &Limits,
        settings: &SearchSettings,
        control: &'a Control,
        helpers_stop: &'a Control,
        listener: L,
    ) -> Self {
        DeepeningProgram {
            searcher,
            tt,
            deepening: Some(Deepening::new(board, history, limits, settings)),
            control,
            helpers_stop,
            is_main: true,
            listener,
            result: None,
        }
    }

    /// Processor 0's result (after the machine ran it).
    pub(super) fn into_result(self) -> SearchResult {
        self.result.expect("processor 0 ran to its end")
    }
}

impl<'a> DeepeningProgram<'a, NoReports> {
    /// A helper: runs until processor 0 is done (or its depth limit), from `first_depth`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn helper(
        searcher: &'a mut Searcher,
        tt: &'a TranspositionTable,
        board: &Board,
        history: &[u64],
        limits: &Limits,
        settings: &SearchSettings,
        helpers_stop: &'a Control,
        first_depth: i32,
    ) -> Self {
        let helper_limits = Limits { depth: limits.depth, searchmoves: limits.searchmoves.clone(), infinite: true, ..Limits::default() };
        DeepeningProgram {
            searcher,
            tt,
            deepening: Some(Deepening::starting_at(board, history, &helper_limits, settings, first_depth)),
            control: helpers_stop,
            helpers_stop,
            is_main: false,
            listener: NoReports,
            result: None,
        }
    }
}

impl<L: Listener> Program for DeepeningProgram<'_, L> {
    fn step(&mut self, _: &Processor<'_>) -> Activity {
        let Some(deepening) = self.deepening.as_mut() else { return Activity::Finished };
        let done = deepening.step(self.searcher, self.tt, self.control, &mut self.listener)
            || (!self.is_main && self.helpers_stop.stopped());
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
