//! The papers' experiment on a simulated machine: every position of a suite searched to a
//! fixed depth, first by the serial searcher on one processor of the machine (T(1), N(1)),
//! then by each algorithm on p processors, giving per position the columns of Zugzwang's
//! Figure 5: N, T for 1 and p processors, load LD, search overhead SO, speedup SPE.
//! Times are virtual: the time processor 0 took to the result. The parallel runs place
//! their table as the suite says (`tt::Placement`); the serial reference always has the
//! one global table. Each row also carries StarTech's work W and critical path C and
//! TDSAB's overheads (`machine::sim`'s measures).

use crate::machine::sim::{LinkUse, Overheads, Sim, TraceMode, WorkSpan};
use crate::machine::{Counters, Machine, MessageKind};
use crate::parallel::{search, Algorithm, SearchRequest};
use crate::search::{Control, Limits, NoReports, SearchSettings, Searcher, Task};
use crate::tt::{Placement, TableSize, Tables, TranspositionTable};
use cozy_chess::{Board, Move};
use std::sync::Arc;

/// What to search, and how.
#[derive(Clone, Debug)]
pub struct SimSuite<'a> {
    /// The positions.
    pub boards: &'a [Board],
    /// The fixed depth of every search.
    pub depth: i32,
    /// The table's size (a fresh table for every search).
    pub table: TableSize,
    /// Where the parallel runs keep their table.
    pub placement: Placement,
    /// Search switches (pure mode, say).
    pub settings: SearchSettings,
    /// Play the positions as the moves of one game: each machine and algorithm keeps its
    /// table, killers and history from one position to the next (Cray Blitz's test),
    /// instead of a fresh table and cleared heuristics for every search.
    pub carry: bool,
}

/// One position searched by one algorithm on p processors, beside the serial search.
#[derive(Clone, Debug, PartialEq)]
pub struct SimRow {
    /// Index of the position in the suite.
    pub position: usize,
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// Processors p.
    pub processors: usize,
    /// N(1): nodes of the serial search.
    pub serial_nodes: u64,
    /// T(1): virtual nanoseconds of the serial search on one processor.
    pub serial_ns: u64,
    /// N(p): nodes of all processors.
    pub nodes: u64,
    /// T(p): virtual nanoseconds until processor 0 had the result.
    pub time_ns: u64,
    /// LD(p): mean share of the time processors were busy.
    pub load: f64,
    /// Messages sent.
    pub messages: u64,
    /// Messages sent, by kind (indexed by [`MessageKind::index`]).
    pub messages_by_kind: [u64; MessageKind::COUNT],
    /// Where the table was kept.
    pub placement: Placement,
    /// W: busy virtual time of all processors.
    pub work_ns: u64,
    /// C: the critical path of the searched tree (its span under Young Brothers Wait, see
    /// `search::Searcher::span_total`), at the run's mean busy time per node; for the
    /// serial search and the work-splitting algorithms. `None` for Lazy SMP and ABDADA on
    /// more than one processor, whose processors exchange no work, only table entries,
    /// so no tree of dependent work spans them, and for TDSAB, whose node and value
    /// messages do not carry spans yet.
    pub critical_path_ns: Option<u64>,
    /// Synchronization and communication overheads.
    pub overheads: Overheads,
    /// How busy the links were.
    pub links: LinkUse,
    /// The score found (the same for every algorithm in pure mode).
    pub score: i32,
    /// The move found.
    pub best: Option<Move>,
}

impl SimRow {
    /// SPE(p) = T(1) / T(p).
    pub fn speedup(&self) -> f64 {
        self.serial_ns as f64 / self.time_ns.max(1) as f64
    }

    /// SO(p) = (N(p) − N(1)) / N(1).
    pub fn search_overhead(&self) -> f64 {
        (self.nodes as f64 - self.serial_nodes as f64) / self.serial_nodes.max(1) as f64
    }

    /// Average parallelism W / C, where C was timed.
    pub fn parallelism(&self) -> Option<f64> {
        self.critical_path_ns.map(|c| self.work_ns as f64 / c.max(1) as f64)
    }

    /// The row's point for StarTech's fit, where C was timed.
    pub fn work_span(&self) -> Option<WorkSpan> {
        let critical_path_ns = self.critical_path_ns?;
        Some(WorkSpan { processors: self.processors, time_ns: self.time_ns, work_ns: self.work_ns, critical_path_ns })
    }
}

/// Runs the experiment: `serial` (one processor) gives T(1) and N(1); each of `machines`
/// runs every algorithm on all its processors. `progress` sees each row when it is done,
/// in the order of the rows returned. An algorithm that cannot run with the suite's table
/// placement is refused up front.
///
/// Natively, searches that share nothing (no game carried, no trace) run side by side on
/// every core, each on its own copy of its machine: virtual time depends on nothing else,
/// so the rows are those of one search after the other.
pub fn simulate_suite(serial: &mut Sim, machines: &mut [Sim], suite: &SimSuite<'_>, algorithms: &[Algorithm], progress: &mut dyn FnMut(&SimRow)) -> Result<Vec<SimRow>, String> {
    for algorithm in algorithms {
        algorithm.accepts(suite.placement)?;
    }
    let parallel: Vec<Algorithm> = algorithms.iter().copied().filter(|&a| a != Algorithm::Serial).collect();
    #[cfg(not(target_arch = "wasm32"))]
    if !suite.carry && rayon::current_num_threads() > 1 && std::iter::once(&*serial).chain(machines.iter()).all(|m| m.trace().is_none()) {
        return side_by_side(serial, machines, suite, &parallel, progress);
    }
    let most = machines.iter().map(|m| m.processors()).chain([1]).max().unwrap_or(1);
    let counters = Counters::new(most);
    // One searcher set and table per run slot (serial, then each machine's algorithms)
    // when the suite is a game; otherwise one set for all, its heuristics cleared.
    let slots = if suite.carry { 1 + machines.len() * parallel.len() } else { 1 };
    let mut searchers: Vec<Vec<Searcher>> = (0..slots).map(|_| Vec::new()).collect();
    let mut carried: Vec<Option<Tables>> = (0..slots).map(|_| None).collect();
    let mut rows = Vec::new();
    for position in 0..suite.boards.len() {
        let mut run = |sim: &mut Sim, algorithm: Algorithm, slot: usize| -> Result<SimRow, String> {
            let slot = if suite.carry { slot } else { 0 };
            let (row, tables) = search_row(sim, algorithm, position, suite, carried[slot].take(), &mut searchers[slot], &counters)?;
            if suite.carry {
                carried[slot] = Some(tables);
            }
            Ok(row)
        };
        let reference = referenced(run(serial, Algorithm::Serial, 0)?, None);
        progress(&reference);
        rows.push(reference.clone());
        for (m, machine) in machines.iter_mut().enumerate() {
            for (a, &algorithm) in parallel.iter().enumerate() {
                let row = referenced(run(machine, algorithm, 1 + m * parallel.len() + a)?, Some(&reference));
                progress(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// `row` with T(1) and N(1) from the serial search `reference` (its own, if it is it).
fn referenced(row: SimRow, reference: Option<&SimRow>) -> SimRow {
    let reference = reference.unwrap_or(&row);
    SimRow { serial_nodes: reference.nodes, serial_ns: reference.time_ns, ..row }
}

/// One search of the suite's position `position` by `algorithm` on all of `sim`'s
/// processors (one for the serial search), with `searchers` and the table `carried` from
/// the game's last position, or a fresh one: its row (T(1) and N(1) not yet filled) and
/// its table.
fn search_row(sim: &mut Sim, algorithm: Algorithm, position: usize, suite: &SimSuite<'_>, carried: Option<Tables>, searchers: &mut Vec<Searcher>, counters: &Counters) -> Result<(SimRow, Tables), String> {
    if !suite.carry {
        for s in searchers.iter_mut() {
            s.clear_heuristics();
        }
    }
    let p = if algorithm == Algorithm::Serial { 1 } else { sim.processors() };
    let placement = if algorithm == Algorithm::Serial { Placement::Global } else { suite.placement };
    let tables = match carried {
        Some(tables) if suite.carry => tables,
        _ => Tables::sized(placement, suite.table, p).map_err(|e| e.to_string())?,
    };
    let table = if placement == Placement::Global { String::new() } else { format!(" table={placement}") };
    sim.label_next_run(format!("position {} {} p={p}{table}", position + 1, algorithm.name()));
    let limits = Limits { depth: Some(suite.depth), ..Limits::default() };
    let board = &suite.boards[position];
    let result = search(sim, searchers, tables.clone(), &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &suite.settings } }, &Control::default(), &mut NoReports, counters);
    let report = sim.last_run().expect("the search ran on the machine");
    let processors = counters.snapshot();
    let messages_by_kind = std::array::from_fn(|k| processors[..p].iter().map(|c| c.sent[k]).sum());
    let row = SimRow {
        position,
        algorithm: algorithm.name(),
        processors: p,
        serial_nodes: 0,
        serial_ns: 0,
        nodes: result.nodes,
        time_ns: report.elapsed_ns,
        load: report.load(),
        messages: report.messages,
        messages_by_kind,
        placement,
        work_ns: report.work_ns(),
        critical_path_ns: report.critical_path_ns,
        overheads: report.overheads(),
        links: report.links,
        score: result.score,
        best: result.best,
    };
    Ok((row, tables))
}

/// [`simulate_suite`]'s searches of a suite that is no game, every one a job for the
/// rayon pool on a copy of its machine. Rows are handed to `progress` and returned in
/// the order one search after the other gives them: a row waits for those before it.
#[cfg(not(target_arch = "wasm32"))]
fn side_by_side(serial: &Sim, machines: &[Sim], suite: &SimSuite<'_>, algorithms: &[Algorithm], progress: &mut dyn FnMut(&SimRow)) -> Result<Vec<SimRow>, String> {
    use crate::machine::sim::Design;
    use std::sync::{mpsc, Mutex};
    let per_position = 1 + machines.len() * algorithms.len();
    let designs: Vec<Design> = std::iter::once(serial).chain(machines).map(Sim::design).collect();
    let jobs = suite.boards.len() * per_position;
    // Searcher sets, each used by one job at a time and kept for the next (their
    // heuristics cleared), as one search after the other reuses its one set.
    let spare: Mutex<Vec<Vec<Searcher>>> = Mutex::new(Vec::new());
    let (sender, receiver) = mpsc::channel();
    let mut rows: Vec<SimRow> = Vec::with_capacity(jobs);
    rayon::in_place_scope(|scope| {
        for job in 0..jobs {
            let (sender, spare, designs) = (sender.clone(), &spare, &designs);
            scope.spawn(move |_| {
                let (position, k) = (job / per_position, job % per_position);
                let (machine, algorithm) = if k == 0 { (0, Algorithm::Serial) } else { (1 + (k - 1) / algorithms.len(), algorithms[(k - 1) % algorithms.len()]) };
                let mut sim = designs[machine].build();
                let counters = Counters::new(sim.processors());
                let mut searchers = spare.lock().map(|mut s| s.pop()).ok().flatten().unwrap_or_default();
                let row = search_row(&mut sim, algorithm, position, suite, None, &mut searchers, &counters).map(|(row, _)| row);
                if let Ok(mut spare) = spare.lock() {
                    spare.push(searchers);
                }
                // The receiver is gone only when an earlier job failed.
                let _ = sender.send((job, row));
            });
        }
        drop(sender);
        let mut done: Vec<Option<SimRow>> = vec![None; jobs];
        for (job, row) in receiver {
            done[job] = Some(row?);
            while let Some(row) = done.get_mut(rows.len()).and_then(Option::take) {
                let reference = (!rows.len().is_multiple_of(per_position)).then(|| &rows[rows.len() - rows.len() % per_position]);
                let row = referenced(row, reference);
                progress(&row);
                rows.push(row);
            }
        }
        Ok::<(), String>(())
    })?;
    Ok(rows)
}

/// The simulator's signature: the trace hash of one fixed run (Kiwipete, ybwc on 16
/// T800s wired as DB(4), depth 5, seed 7). Like the bench's node count for the
/// searcher, it must be the same natively and in the browser.
pub fn signature() -> Result<u64, String> {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board: Board = KIWIPETE.parse().map_err(|_| "the signature position parses".to_string())?;
    let mut sim = Sim::from_names("t800", Some("debruijn"), 16, 7).map_err(|e| e.to_string())?;
    sim.set_trace(TraceMode::Hash);
    let tt = Arc::new(TranspositionTable::try_new(16).map_err(|e| e.to_string())?);
    let counters = Counters::new(16);
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let mut searchers = Vec::new();
    search(&mut sim, &mut searchers, &tt, &SearchRequest { algorithm: Algorithm::Ybwc, threads: 16, task: Task { board: &board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &counters);
    Ok(sim.trace().map_or(0, |t| t.hash()))
}
