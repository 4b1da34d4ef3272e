//! Time-to-depth speedup as the papers measure it: for each position, the time T(p) and
//! nodes N(p) to finish a fixed-depth search on p processors, with
//! - speedup SPE(p) = T(1) / T(p),
//! - search overhead SO(p) = (N(p) - N(1)) / N(1) (Zugzwang's definition),
//! - load LD(p) = busy time / (busy + idle time), averaged over processors,
//!
//! where T(1) and N(1) come from the serial searcher (speedups are measured against
//! the best sequential algorithm, as StarTech and TDSAB insist).

use crate::machine::{Counters, Threads};
use crate::parallel::{search, Algorithm};
use crate::search::{Control, Limits, NoReports, SearchSettings, Searcher};
use crate::tt::TranspositionTable;
use crate::clock::now_ms;
use cozy_chess::Board;
use std::sync::Arc;

/// One measured search.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupRow {
    /// Index of the position in the suite.
    pub position: usize,
    /// The algorithm (`serial` for the reference).
    pub algorithm: &'static str,
    /// Processors.
    pub threads: usize,
    /// Wall time to depth, ms.
    pub millis: f64,
    /// Positions visited by all processors.
    pub nodes: u64,
    /// T(1) / T(p).
    pub speedup: f64,
    /// (N(p) - N(1)) / N(1).
    pub search_overhead: f64,
    /// Mean fraction of the time processors worked.
    pub load: f64,
}

/// Searches every board to `depth` with the serial searcher and then with each
/// algorithm and processor count, a fresh table of `hash_mib` each time; `progress`
/// receives each row as it is measured.
pub fn measure_speedup(
    boards: &[Board],
    algorithms: &[Algorithm],
    threads: &[usize],
    depth: i32,
    hash_mib: usize,
    progress: &mut dyn FnMut(&SpeedupRow),
) -> Result<Vec<SpeedupRow>, String> {
    let most = threads.iter().copied().max().unwrap_or(1).max(1);
    let counters = Counters::new(most);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let settings = SearchSettings::default();
    let mut searchers: Vec<Searcher> = Vec::new();
    let mut rows = Vec::new();
    for (position, board) in boards.iter().enumerate() {
        let mut run = |algorithm: Algorithm, p: usize| -> Result<(f64, u64, f64), String> {
            let tt = Arc::new(TranspositionTable::try_new(hash_mib).map_err(|e| e.to_string())?);
            for s in searchers.iter_mut() {
                s.clear_heuristics();
            }
            let start = now_ms();
            let result = search(&mut Threads, algorithm, p, &mut searchers, &tt, board, &[], &limits, &settings, &Control::default(), &mut NoReports, &counters);
            let millis = now_ms() - start;
            let snapshot = &counters.snapshot()[..p];
            let load = if p == 1 {
                1.0
            } else {
                snapshot.iter().map(|s| s.busy_us as f64 / (s.busy_us + s.idle_us).max(1) as f64).sum::<f64>() / p as f64
            };
            Ok((millis, result.nodes, load))
        };
        let (t1, n1, _) = run(Algorithm::Serial, 1)?;
        let serial = SpeedupRow { position, algorithm: "serial", threads: 1, millis: t1, nodes: n1, speedup: 1.0, search_overhead: 0.0, load: 1.0 };
        progress(&serial);
        rows.push(serial);
        for &algorithm in algorithms.iter().filter(|&&a| a != Algorithm::Serial) {
            for &p in threads {
                let (t, n, load) = run(algorithm, p)?;
                let row = SpeedupRow {
                    position,
                    algorithm: algorithm.name(),
                    threads: p,
                    millis: t,
                    nodes: n,
                    speedup: t1 / t.max(1e-3),
                    search_overhead: (n as f64 - n1 as f64) / n1.max(1) as f64,
                    load,
                };
                progress(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}
