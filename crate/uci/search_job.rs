//! A search to run, as `go` asked for it: the game, limits, table and algorithm, how a
//! weakened engine restricts and answers it, and the listener that reports its progress.
//! The runner runs it on a machine; the sliced search of the single-thread build runs it
//! slice by slice.

use super::report::Event;
use super::Host;
use crate::chess::Game;
use crate::parallel::Algorithm;
use crate::random::Random;
use crate::search::{Control, Info, Limits, Listener, RootMove, SearchResult, SearchSettings, Strength};
use crate::tt::TranspositionTable;
use cozy_chess::Board;
use std::sync::Arc;

/// A search to run.
pub struct SearchJob {
    /// The game to search.
    pub game: Game,
    /// `go` limits.
    pub limits: Limits,
    /// MultiPV, overhead, pure.
    pub settings: SearchSettings,
    /// Weakening, if any.
    pub strength: Option<Strength>,
    /// The table to use.
    pub tt: Arc<TranspositionTable>,
    /// Stop and ponderhit signals for this job.
    pub control: Arc<Control>,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// Processors to search with.
    pub threads: usize,
}

impl SearchJob {
    /// The limits and settings the search runs with: a weakened engine (`Strength`)
    /// searches less, and more lines to choose from.
    pub fn effective_limits(&self) -> (Limits, SearchSettings) {
        let mut limits = self.limits.clone();
        let mut settings = self.settings;
        if let Some(strength) = self.strength {
            strength.restrict(&mut limits);
            settings.multipv = settings.multipv.max(crate::search::CANDIDATE_LINES);
        }
        (limits, settings)
    }

    /// The `bestmove` answer to `result` (a weakened engine picks among its lines).
    pub fn answer(&self, result: &SearchResult) -> Event {
        let best = match self.strength {
            Some(strength) => {
                let mut noise = Random::new(crate::clock::now_ms().to_bits() ^ result.nodes, 0);
                strength.choose(&result.lines, || noise.next_unit()).or(result.best)
            }
            None => result.best,
        };
        let ponder = if best == result.best { result.ponder } else { None };
        Event::bestmove(self.game.board(), best, ponder)
    }

    /// A listener printing this search's reports through `host`.
    pub fn printer<'a>(&'a self, host: &'a dyn Host) -> Printer<'a> {
        Printer { board: self.game.board(), host, lines: self.settings.multipv }
    }
}

/// Reports the search's progress as `info` events (only the lines the user asked for).
pub struct Printer<'a> {
    board: &'a Board,
    host: &'a dyn Host,
    lines: usize,
}

impl Listener for Printer<'_> {
    fn info(&mut self, info: &Info) {
        if info.multipv <= self.lines {
            self.host.report(Event::info(self.board, info));
        }
    }

    fn currmove(&mut self, depth: i32, mv: RootMove) {
        self.host.report(Event::currmove(self.board, depth, mv));
    }
}
