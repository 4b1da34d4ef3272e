//! Parallel alpha-beta algorithms as processor programs (see `crate::machine`).
//!
//! This session brings the two shared-table baselines every user compares against:
//! - [`lazysmp`]: every processor runs its own iterative deepening on the shared table,
//!   odd processors one ply deeper; the table spreads the work.
//! - [`abdada`]: every processor searches the same iterations, and a processor defers a
//!   move whose position another processor is already searching (a shared busy table).
//!
//! In both, processor 0 reports and decides; the others stop when it is done. Killers and
//! history stay per processor (they describe one processor's tree walk); the table is
//! shared. With `Pure` on, only move order differs between processors, so processor 0
//! returns the exact minimax value of the serial search.

mod abdada;
mod lazysmp;
mod program;

use crate::machine::{Counters, Machine, Program};
use crate::search::{Control, Info, Limits, Listener, RootMove, SearchResult, SearchSettings, Searcher};
use crate::tt::TranspositionTable;
use cozy_chess::Board;
use program::{DeepeningProgram, NoMessage, Task};
use std::sync::Arc;

/// The search algorithms, as the UCI option `Algorithm` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One processor, the sequential searcher.
    Serial,
    /// Lazy SMP: independent iterative deepening over the shared table.
    LazySmp,
    /// ABDADA: shared iterations, busy positions deferred.
    Abdada,
}

impl Algorithm {
    /// Every algorithm, in the order the option lists them.
    pub const ALL: [Algorithm; 3] = [Algorithm::Serial, Algorithm::LazySmp, Algorithm::Abdada];

    /// The option value naming this algorithm.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Serial => "serial",
            Algorithm::LazySmp => "lazysmp",
            Algorithm::Abdada => "abdada",
        }
    }

    /// The algorithm an option value names (case-insensitive).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(name))
    }
}

/// One search of `board` with `algorithm` on `threads` processors of `machine` (no
/// more than it can run at once),
/// `searchers` providing one searcher per processor (grown as needed). `counters`
/// (at least `threads` slots) can be sampled while it runs.
#[allow(clippy::too_many_arguments)]
pub fn search<Mach: Machine>(
    machine: &mut Mach,
    algorithm: Algorithm,
    threads: usize,
    searchers: &mut Vec<Searcher>,
    tt: &Arc<TranspositionTable>,
    board: &Board,
    history: &[u64],
    limits: &Limits,
    settings: &SearchSettings,
    control: &Control,
    listener: &mut dyn Listener,
    counters: &Counters,
) -> SearchResult {
    let threads = threads.clamp(1, counters.len().min(machine.processors()));
    while searchers.len() < threads {
        searchers.push(Searcher::new(tt.clone()));
    }
    for s in searchers.iter_mut() {
        s.set_table(tt.clone());
        s.set_busy_table(None);
    }
    counters.reset();
    // The serial search is one processor with no helpers, so its counters show too.
    let threads = if algorithm == Algorithm::Serial { 1 } else { threads };
    tt.new_search();
    let helpers_stop = Control::default();
    let (main_searcher, helper_searchers) = searchers.split_at_mut(1);
    let summing = SummingListener { inner: listener, counters };
    // Plies added to the first iteration of helper `id` (Lazy SMP spreads its helpers).
    let depth_offset: fn(usize) -> i32 = match algorithm {
        Algorithm::Serial => |_| 0,
        Algorithm::LazySmp => lazysmp::depth_offset,
        Algorithm::Abdada => {
            abdada::share_busy_table(&mut main_searcher[0], &mut helper_searchers[..threads - 1]);
            |_| 0
        }
    };
    let task = Task { board, history, limits, settings };
    let mut main = DeepeningProgram::main(&mut main_searcher[0], tt, &task, control, &helpers_stop, summing);
    let helpers: Vec<Box<dyn Program<Message = NoMessage> + Send + '_>> = helper_searchers[..threads - 1]
        .iter_mut()
        .enumerate()
        .map(|(i, s)| {
            let first_depth = 1 + depth_offset(i + 1);
            Box::new(DeepeningProgram::helper(s, tt, &task, &helpers_stop, first_depth)) as Box<dyn Program<Message = NoMessage> + Send + '_>
        })
        .collect();
    machine.run(&mut main, helpers, counters);
    let mut result = main.into_result();
    result.nodes = searchers[..threads].iter().map(Searcher::nodes).sum();
    result
}

/// Reports with node counts summed over every processor (UCI wants the total).
struct SummingListener<'a> {
    inner: &'a mut dyn Listener,
    counters: &'a Counters,
}

impl Listener for SummingListener<'_> {
    fn info(&mut self, info: &Info) {
        let mut info = info.clone();
        info.nodes = self.counters.total_nodes().max(info.nodes);
        info.nps = info.nodes * 1000 / info.time_ms.max(1);
        self.inner.info(&info);
    }

    fn currmove(&mut self, depth: i32, mv: RootMove) {
        self.inner.currmove(depth, mv);
    }
}
