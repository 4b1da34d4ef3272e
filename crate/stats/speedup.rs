//! Time-to-depth speedup as the papers measure it: for each position, the time T(p) and
//! nodes N(p) to finish a fixed-depth search on p processors, with
//! - speedup SPE(p) = T(1) / T(p),
//! - search overhead SO(p) = (N(p) - N(1)) / N(1) (Zugzwang's definition),
//! - load LD(p) = busy time / (busy + idle time), averaged over processors,
//!
//! where T(1) and N(1) come from the serial searcher (speedups are measured against
//! the best sequential algorithm, as StarTech and TDSAB insist).
//!
//! A parallel search's tree depends on timing, so one run of a suite is one draw: rounds
//! repeat the whole suite (serial reference included, each round measured against its
//! own), and totals pool them ([`pooled_speedup`]).

use crate::machine::{Counters, Machine, MessageKind, ProcessorSnapshot, Threads};
use crate::parallel::{search, Algorithm, SearchRequest};
use crate::search::{Control, Limits, NoReports, SearchSettings, Searcher, Task};
use crate::tt::TranspositionTable;
use crate::clock::now_ms;
use cozy_chess::Board;
use serde::{Serialize, Serializer};
use std::sync::Arc;

/// What to measure on a suite of positions.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupPlan {
    /// Algorithms to compare with the serial search.
    pub algorithms: Vec<Algorithm>,
    /// Processor counts.
    pub threads: Vec<usize>,
    /// Fixed depth of every search.
    pub depth: i32,
    /// Table size for each search, MiB.
    pub hash_mib: usize,
    /// Times the whole suite is measured.
    pub rounds: usize,
}

/// One measured search.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupRow {
    /// The round (from 0) that measured it.
    pub round: usize,
    /// Index of the position in the suite.
    pub position: usize,
    /// The algorithm (`serial` for the reference).
    pub algorithm: &'static str,
    /// Processors.
    pub threads: usize,
    /// Wall time to depth, ms.
    pub millis: f64,
    /// The serial reference's time on the same position in the same round, ms.
    pub serial_millis: f64,
    /// Positions visited by all processors.
    pub nodes: u64,
    /// T(1) / T(p).
    pub speedup: f64,
    /// (N(p) - N(1)) / N(1).
    pub search_overhead: f64,
    /// Mean fraction of the time processors worked.
    pub load: f64,
    /// Time processors spent idle or waiting, summed over processors, ms.
    pub idle_ms: f64,
    /// Subtrees handed to another processor.
    pub splits: u64,
    /// Nodes of subtrees abandoned because a cutoff made them useless.
    pub aborted_nodes: u64,
    /// Messages sent, by kind (indexed by `MessageKind::index`).
    pub messages: [u64; MessageKind::COUNT],
}

impl SpeedupRow {
    /// The rows as CSV: a header, then a line per row, with the JSON's fields in its order
    /// and its messages one `msg_KIND` column per kind (`msg_work_request`...).
    pub fn csv(rows: &[SpeedupRow]) -> String {
        let flat: Vec<Vec<(String, String)>> = rows.iter().map(|row| flatten(&serde_json::to_value(row).expect("a row is always JSON"))).collect();
        let header = flat.first().map_or_else(String::new, |cells| cells.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(","));
        let lines = flat.iter().map(|cells| cells.iter().map(|(_, value)| value.as_str()).collect::<Vec<_>>().join(","));
        std::iter::once(header).chain(lines).map(|line| line + "\n").collect()
    }

    /// One JSON object (rounds and positions counted from 1; messages by kind name).
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a row of numbers and names is always JSON")
    }
}

/// JSON as the speedup rows have always been written: rounds and positions counted from 1,
/// milliseconds to the microsecond, ratios to four decimals, messages by kind name.
impl Serialize for SpeedupRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Record<'a> {
            round: usize,
            position: usize,
            algorithm: &'a str,
            threads: usize,
            ms: f64,
            serial_ms: f64,
            nodes: u64,
            speedup: f64,
            search_overhead: f64,
            load: f64,
            idle_ms: f64,
            splits: u64,
            aborted_nodes: u64,
            messages: MessagesByKind<'a>,
        }
        Record {
            round: self.round + 1,
            position: self.position + 1,
            algorithm: self.algorithm,
            threads: self.threads,
            ms: decimals(self.millis, 3),
            serial_ms: decimals(self.serial_millis, 3),
            nodes: self.nodes,
            speedup: decimals(self.speedup, 4),
            search_overhead: decimals(self.search_overhead, 4),
            load: decimals(self.load, 4),
            idle_ms: decimals(self.idle_ms, 3),
            splits: self.splits,
            aborted_nodes: self.aborted_nodes,
            messages: MessagesByKind(&self.messages),
        }
        .serialize(serializer)
    }
}

/// A JSON row's columns: its fields, each nested object's fields as `msg_NAME` columns
/// (the only nested object is the message counts), names with `_` for `-`.
fn flatten(row: &serde_json::Value) -> Vec<(String, String)> {
    let mut cells = Vec::new();
    for (name, value) in row.as_object().into_iter().flatten() {
        match value {
            serde_json::Value::Object(inner) => cells.extend(inner.iter().map(|(kind, count)| (format!("msg_{}", kind.replace('-', "_")), count.to_string()))),
            serde_json::Value::String(text) => cells.push((name.clone(), text.clone())),
            other => cells.push((name.clone(), other.to_string())),
        }
    }
    cells
}

/// Message counts (indexed by [`MessageKind::index`]) as a JSON object keyed by kind name.
pub struct MessagesByKind<'a>(pub &'a [u64; MessageKind::COUNT]);

impl Serialize for MessagesByKind<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(MessageKind::ALL.iter().map(|k| (k.name(), self.0[k.index()])))
    }
}

/// `x` rounded to `places` decimals, so that JSON carries the digits that mean something.
pub fn decimals(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// ΣT(1) / ΣT(p) over `rows` (of one algorithm and processor count), each row against
/// the serial reference of its own round and position.
pub fn pooled_speedup<'a>(rows: impl IntoIterator<Item = &'a SpeedupRow>) -> f64 {
    let (t1, tp) = rows.into_iter().fold((0.0, 0.0), |(t1, tp), r| (t1 + r.serial_millis, tp + r.millis));
    t1 / f64::max(tp, 1e-3)
}

/// What one run measured besides its time and nodes.
#[derive(Clone, Copy, Default)]
struct Activity {
    load: f64,
    idle_ms: f64,
    splits: u64,
    aborted_nodes: u64,
    messages: [u64; MessageKind::COUNT],
}

impl Activity {
    fn of(snapshot: &[ProcessorSnapshot]) -> Activity {
        let p = snapshot.len();
        let load = if p == 1 { 1.0 } else { snapshot.iter().map(|s| s.busy_us as f64 / (s.busy_us + s.idle_us).max(1) as f64).sum::<f64>() / p as f64 };
        Activity {
            load,
            idle_ms: snapshot.iter().map(|s| s.idle_us as f64 / 1000.0).sum(),
            splits: snapshot.iter().map(|s| s.splits).sum(),
            aborted_nodes: snapshot.iter().map(|s| s.aborted_nodes).sum(),
            messages: std::array::from_fn(|k| snapshot.iter().map(|s| s.sent[k]).sum()),
        }
    }
}

/// Searches every board to the plan's depth with the serial searcher and then with each
/// algorithm and processor count, a freshly emptied table each time, round after round;
/// `progress` receives each row as it is measured. `control` stops the measurement: the
/// search running then ends early and no further row is measured.
pub fn measure_speedup(boards: &[Board], plan: &SpeedupPlan, control: &Control, progress: &mut dyn FnMut(&SpeedupRow)) -> Result<Vec<SpeedupRow>, String> {
    // One table, emptied before each search as `ucinewgame` does. A fresh one per search
    // would put the release of the last one (searchers hold it until the next search
    // takes its table) inside the timed search.
    let tt = Arc::new(TranspositionTable::try_new(plan.hash_mib).map_err(|e| e.to_string())?);
    measure_speedup_on(&mut Threads::default(), &tt, boards, plan, control, progress)
}

/// [`measure_speedup`] on `machine` (a cluster's rank 0, say) rather than on threads,
/// with `tt` (of the plan's size; on a cluster, a table per rank or rank 0's part of the
/// distributed one), emptied before each search.
pub fn measure_speedup_on<Mach: Machine>(
    machine: &mut Mach,
    tt: &Arc<TranspositionTable>,
    boards: &[Board],
    plan: &SpeedupPlan,
    control: &Control,
    progress: &mut dyn FnMut(&SpeedupRow),
) -> Result<Vec<SpeedupRow>, String> {
    let most = plan.threads.iter().copied().max().unwrap_or(1).max(1);
    let counters = Counters::new(most);
    let limits = Limits { depth: Some(plan.depth), ..Limits::default() };
    let settings = SearchSettings::default();
    let mut searchers: Vec<Searcher> = Vec::new();
    let mut rows = Vec::new();
    // No more processors than the machine can run at once (the browser's pool).
    let processors = machine.processors();
    let measured = (0..plan.rounds).flat_map(|round| boards.iter().enumerate().map(move |(position, board)| (round, position, board)));
    for (round, position, board) in measured {
        let mut run = |algorithm: Algorithm, p: usize| -> Result<(f64, u64, Activity), String> {
            tt.clear();
            for s in searchers.iter_mut() {
                s.clear_heuristics();
            }
            let start = now_ms();
            let result = search(machine, &mut searchers, tt, &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &settings } }, control, &mut NoReports, &counters);
            let millis = now_ms() - start;
            Ok((millis, result.nodes, Activity::of(&counters.snapshot()[..p])))
        };
        let (t1, n1, activity) = run(Algorithm::Serial, 1)?;
        if control.stopped() {
            break;
        }
        let serial = row((round, position), Algorithm::Serial, 1, (t1, n1), (t1, n1), activity);
        progress(&serial);
        rows.push(serial);
        for &algorithm in plan.algorithms.iter().filter(|&&a| a != Algorithm::Serial) {
            for &p in &plan.threads {
                let p = p.min(processors);
                let (t, n, activity) = run(algorithm, p)?;
                if control.stopped() {
                    return Ok(rows);
                }
                let row = row((round, position), algorithm, p, (t, n), (t1, n1), activity);
                progress(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// A row from a run's time and nodes, the serial reference's, and its activity.
fn row((round, position): (usize, usize), algorithm: Algorithm, threads: usize, (t, n): (f64, u64), (t1, n1): (f64, u64), a: Activity) -> SpeedupRow {
    SpeedupRow {
        round,
        position,
        algorithm: algorithm.name(),
        threads,
        millis: t,
        serial_millis: t1,
        nodes: n,
        speedup: t1 / t.max(1e-3),
        search_overhead: (n as f64 - n1 as f64) / n1.max(1) as f64,
        load: a.load,
        idle_ms: a.idle_ms,
        splits: a.splits,
        aborted_nodes: a.aborted_nodes,
        messages: a.messages,
    }
}
