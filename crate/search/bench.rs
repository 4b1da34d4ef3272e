//! The `bench` command: a fixed-depth search of fixed positions with a fresh table.
//! Its node count is a signature of the search (identical run to run and on every
//! platform, native or wasm); its speed is the engine's nodes per second.

use super::driver::{search, Control, NoReports, SearchSettings, Task};
use super::searcher::{SearchOptions, Searcher};
use super::time::Limits;
use crate::chess::parse_fen;
use crate::clock::now_ms;
use crate::eval::Evaluation;
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// Depth used when none is given.
pub const DEFAULT_BENCH_DEPTH: i32 = 10;
/// Table size of the bench, in MiB.
pub const BENCH_HASH_MIB: usize = 16;

/// Positions the bench searches: its first lines of output are one per position.
pub const BENCH_POSITIONS: usize = BENCH_FENS.len();

/// Openings, middlegames and endgames with tactics and quiet play.
const BENCH_FENS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/2KR3R w - - 0 11",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/8/1p1k4/1P6/2PK4/8/8/8 w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 15",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
];

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Positions visited in all searches: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Searches every bench position to `depth` with one thread, a fresh table and
/// `evaluation` (each evaluation has its own signature), writing a line per position and the totals through `out`. The caller reports the
/// result's summary line (`N nodes M nps`, `uci::Event::Bench`).
pub fn bench(depth: i32, evaluation: Evaluation, out: &mut dyn FnMut(&str)) -> BenchResult {
    let tt = Arc::new(TranspositionTable::try_new(BENCH_HASH_MIB).expect("the bench table is small"));
    let mut searcher = Searcher::new(tt.clone());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let control = Control::default();
    let settings = SearchSettings { options: SearchOptions { evaluation, ..SearchOptions::default() }, ..SearchSettings::default() };
    let start = now_ms();
    let mut nodes = 0;
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let board = parse_fen(fen).expect("bench positions are valid");
        let result = search(&mut searcher, &tt, &Task { board: &board, history: &[], limits: &limits, settings: &settings }, &control, &mut NoReports);
        nodes += result.nodes;
        out(&format!("position {}/{}: {} nodes  {}", i + 1, BENCH_FENS.len(), result.nodes, fen));
    }
    let millis = (now_ms() - start) as u64;
    let result = BenchResult { nodes, millis };
    out("===========================");
    out(&format!("Total time (ms) : {millis}"));
    out(&format!("Nodes searched  : {nodes}"));
    out(&format!("Nodes/second    : {}", result.nps()));
    result
}
