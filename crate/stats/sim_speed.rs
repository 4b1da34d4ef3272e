//! How fast the simulator simulates: simulated nodes per wall-clock second, divided by
//! the serial engine's nodes per second measured in the same call. 1.0 would mean that
//! simulating costs nothing beyond the search itself.

use crate::machine::sim::{Preset, Sim};
use crate::clock::now_ms;
use crate::machine::{Counters, Threads};
use crate::parallel::{search, Algorithm, SearchRequest};
use crate::search::{Control, Limits, NoReports, SearchSettings, Searcher, Task};
use crate::tt::TranspositionTable;
use cozy_chess::Board;
use std::sync::Arc;

/// Wall-clock milliseconds the serial engine is timed for, at least.
const SERIAL_MS: f64 = 300.0;

/// The simulator's speed at one processor count.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedRow {
    /// Simulated processors.
    pub processors: usize,
    /// Nodes all simulated processors visited.
    pub nodes: u64,
    /// Wall-clock milliseconds the simulation took.
    pub wall_ms: f64,
    /// Simulated nodes per wall-clock second.
    pub nodes_per_second: f64,
    /// That, divided by the serial engine's nodes per second.
    pub ratio: f64,
}

/// Searches `board` to `depth` with the serial engine on a real thread, then with
/// `algorithm` on `preset`'s machine for each count of `processors`. Returns the serial
/// engine's nodes per second and a row per count.
pub fn simulation_speed(board: &Board, depth: i32, algorithm: Algorithm, preset: Preset, processors: &[usize], hash_mib: usize) -> Result<(f64, Vec<SpeedRow>), String> {
    let most = processors.iter().copied().max().unwrap_or(1).max(1);
    let counters = Counters::new(most);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let settings = SearchSettings::default();
    let mut searchers: Vec<Searcher> = Vec::new();
    let mut timed = |machine: &mut dyn FnMut(&mut Vec<Searcher>, &Arc<TranspositionTable>) -> u64| -> Result<(u64, f64), String> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mib).map_err(|e| e.to_string())?);
        searchers.iter_mut().for_each(Searcher::clear_heuristics);
        let start = now_ms();
        let nodes = machine(&mut searchers, &tt);
        Ok((nodes, (now_ms() - start).max(1e-3)))
    };
    // Serial runs repeated for a while, so that one short run's noise (cold caches, the
    // CPU taken by another program) does not set the scale.
    let (mut serial_nodes, mut serial_ms, mut runs) = (0u64, 0.0, 0);
    while runs < 3 || serial_ms < SERIAL_MS {
        let (nodes, ms) = timed(&mut |searchers, tt| {
            search(&mut Threads::default(), searchers, tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters).nodes
        })?;
        (serial_nodes, serial_ms, runs) = (serial_nodes + nodes, serial_ms + ms, runs + 1);
    }
    let serial_nps = serial_nodes as f64 * 1000.0 / serial_ms;
    let mut rows = Vec::new();
    for &p in processors {
        let mut sim = Sim::new(preset, preset.net, p, 1).map_err(|e| e.to_string())?;
        let (nodes, wall_ms) = timed(&mut |searchers, tt| {
            search(&mut sim, searchers, tt, &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters).nodes
        })?;
        let nodes_per_second = nodes as f64 * 1000.0 / wall_ms;
        rows.push(SpeedRow { processors: p, nodes, wall_ms, nodes_per_second, ratio: nodes_per_second / serial_nps });
    }
    Ok((serial_nps, rows))
}
