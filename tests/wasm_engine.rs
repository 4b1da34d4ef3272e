//! The browser engine in headless Chromium (`./build.sh test` runs it with wasm-bindgen-test-runner): the
//! threaded build, in a dedicated worker (which may block, as the engine worker may) with
//! a real rayon pool of web workers, driven through the same `WasmEngine` API that
//! `www/engine/worker.js` uses.
#![cfg(all(target_arch = "wasm32", target_feature = "atomics"))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use meshmate::chess::{format_uci, legal_moves, parse_epd_file, parse_fen, perft};
use meshmate::clock::now_ms;
use meshmate::uci::Event;
use meshmate::wasm::outbox::Output;
use meshmate::machine::{Counters, Threads};
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchSettings, Task};
use meshmate::tt::TranspositionTable;
use meshmate::wasm::{init_thread_pool, WasmEngine};
use std::sync::Arc;
use rayon::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

/// Threads in the pool: four, so the parallel algorithms run with 2 and 4 workers.
const POOL_THREADS: usize = 4;
/// The shared perft suite, read at build time (the browser has no file system).
const PERFT_EPD: &str = include_str!("../../shared/data/perft.epd");
/// Positions for the exactness test, read at build time.
const BRATKO_KOPEC_EPD: &str = include_str!("../../shared/data/bratko-kopec.epd");
const CRAY_BLITZ_EPD: &str = include_str!("../../shared/data/crayblitz-1993.epd");
/// Perft counts above this are skipped: the test is about the wasm build, not speed.
const MAX_PERFT_NODES: u64 = 300_000;
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Starts the rayon pool once for the whole test module (it can be built only once).
async fn pool() {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if !STARTED.swap(true, Ordering::SeqCst) {
        JsFuture::from(init_thread_pool(POOL_THREADS)).await.expect("the rayon pool starts");
    }
    assert_eq!(rayon::current_num_threads(), POOL_THREADS);
}

/// A fresh engine session with nothing left in the output queue.
fn engine() -> WasmEngine {
    let engine = WasmEngine::new();
    engine.take_output();
    engine
}

/// Collects output until one satisfies `last` (blocking this worker, as allowed).
fn read_until(engine: &WasmEngine, last: impl Fn(&Output) -> bool, timeout_ms: f64) -> Vec<Output> {
    let start = now_ms();
    let mut lines = Vec::new();
    loop {
        for line in engine.take_output() {
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
        assert!(!engine.crashed(), "the engine crashed; output so far: {lines:#?}");
        assert!(now_ms() - start < timeout_ms, "no matching line within {timeout_ms} ms; output so far: {lines:#?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn errors(lines: &[Output]) -> Vec<&Output> {
    lines.iter().filter(|l| l.line.starts_with("info string error")).collect()
}

#[wasm_bindgen_test]
async fn perft_of_the_shared_suite_matches_on_the_pool() {
    pool().await;
    let records = parse_epd_file(PERFT_EPD).expect("perft.epd parses");
    let cases: Vec<_> = records
        .iter()
        .flat_map(|epd| {
            (1..=6).filter_map(move |depth| {
                let expected: u64 = epd.get(&format!("D{depth}"))?.parse().expect("counts are numbers");
                (expected <= MAX_PERFT_NODES).then(|| (epd, depth, expected))
            })
        })
        .collect();
    assert!(cases.len() >= 60, "only {} perft counts are small enough", cases.len());
    let wrong: Vec<String> = cases
        .par_iter()
        .filter(|(epd, depth, expected)| perft(&epd.board, *depth) != *expected)
        .map(|(epd, depth, _)| format!("{} depth {depth}", epd.get("id").unwrap_or("?")))
        .collect();
    assert!(wrong.is_empty(), "perft differs at {wrong:?}");
}

#[wasm_bindgen_test]
async fn a_search_returns_a_legal_move() {
    pool().await;
    let mut engine = engine();
    assert!(engine.send(&format!("position fen {KIWIPETE}")));
    assert!(engine.send("go depth 6"));
    let lines = read_until(&engine, |l| l.line.starts_with("bestmove"), 60_000.0);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let board = parse_fen(KIWIPETE).unwrap();
    let legal: Vec<String> = legal_moves(&board).into_iter().map(|m| format_uci(&board, m)).collect();
    let Event::Bestmove { best, .. } = &lines.last().unwrap().event else { panic!("{lines:#?}") };
    assert!(legal.contains(&best), "bestmove {best} is not legal in {KIWIPETE}");
    assert!(lines.iter().any(|l| matches!(l.event, Event::Info { depth: Some(6), .. })), "{lines:#?}");
}

#[wasm_bindgen_test]
async fn a_parallel_search_uses_every_pool_thread() {
    pool().await;
    let mut engine = engine();
    engine.send("setoption name Algorithm value lazysmp");
    engine.send(&format!("setoption name Threads value {POOL_THREADS}"));
    engine.send(&format!("position fen {KIWIPETE}"));
    // Deep enough that every web worker is scheduled before the first one to complete the
    // last iteration ends the search (at depth 7 it took 15 ms, and a fourth worker on two
    // cores could miss it).
    engine.send("go depth 11");
    let lines = read_until(&engine, |l| l.line.starts_with("bestmove"), 60_000.0);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let board = parse_fen(KIWIPETE).unwrap();
    let Event::Bestmove { best, .. } = &lines.last().unwrap().event else { panic!("{lines:#?}") };
    assert!(legal_moves(&board).into_iter().any(|m| format_uci(&board, m) == *best), "bestmove {best} is not legal");
    let workers = js_sys::Array::from(&engine.worker_activity());
    assert_eq!(workers.length() as usize, POOL_THREADS);
    for worker in workers.iter() {
        let nodes = js_sys::Reflect::get(&worker, &"nodes".into()).unwrap().as_f64().unwrap();
        assert!(nodes > 0.0, "every processor searched: {:?}", js_sys::JSON::stringify(&workers));
    }
}

/// Every algorithm on 2 and 4 web workers returns the serial search's exact value (Pure
/// mode, fixed depth), as natively: the wasm threads machine splits and merges correctly.
#[wasm_bindgen_test]
async fn every_algorithm_on_2_and_4_workers_returns_the_serial_value_in_pure_mode() {
    pool().await;
    let mut boards: Vec<_> = parse_epd_file(BRATKO_KOPEC_EPD).unwrap().into_iter().map(|e| e.board).collect();
    boards.extend(parse_epd_file(CRAY_BLITZ_EPD).unwrap().into_iter().take(8).map(|e| e.board));
    assert!(boards.len() >= 30);
    let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let counters = Counters::new(POOL_THREADS);
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let mut searchers = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        tt.clear();
        let serial = search(&mut Threads::default(), &mut searchers, &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
        for algorithm in Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Serial) {
            for workers in [2, 4] {
                tt.clear();
                let result = search(&mut Threads::default(), &mut searchers, &tt, &SearchRequest { algorithm, threads: workers, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
                assert_eq!(result.score, serial.score, "position {i}: {algorithm:?} on {workers} workers");
            }
        }
    }
}

/// The simulator is deterministic across platforms: its fixed run hashes its event trace
/// to the same value as the native build's `meshmate sim --signature`.
#[wasm_bindgen_test]
fn the_simulator_trace_hash_equals_the_native_one() {
    let native: u64 = option_env!("MESHMATE_NATIVE_SIM_HASH")
        .expect("set MESHMATE_NATIVE_SIM_HASH to `meshmate sim --signature` (./build.sh test does)")
        .parse()
        .expect("MESHMATE_NATIVE_SIM_HASH is a number");
    assert_eq!(meshmate::stats::signature().unwrap(), native);
}

/// The speedup measurement runs in the browser worker too, on the pool's workers.
#[wasm_bindgen_test]
async fn speedup_is_measured_on_the_pool() {
    pool().await;
    let mut engine = engine();
    engine.send(&format!("speedup algo ybwc,dts threads 2,4 depth 5 fens {KIWIPETE}"));
    let lines = read_until(&engine, |l| l.event == Event::SpeedupDone, 60_000.0);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let rows: Vec<&String> = lines.iter().filter_map(|l| match &l.event { Event::Speedup { json } => Some(json), _ => None }).collect();
    assert_eq!(rows.len(), 1 + 2 * 2, "serial, then each algorithm at 2 and 4 workers: {rows:#?}");
    assert!(rows[4].contains("\"algorithm\":\"dts\"") && rows[4].contains("\"threads\":4"), "{rows:#?}");
}

#[wasm_bindgen_test]
async fn the_input_thread_stays_free_while_a_search_runs() {
    pool().await;
    let mut engine = engine();
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    let started = now_ms();
    engine.send("go infinite");
    engine.send("isready");
    assert!(now_ms() - started < 200.0, "`go infinite` blocked the input thread");
    read_until(&engine, |l| l.line == "readyok", 5_000.0);
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let lines = read_until(&engine, |l| l.line.starts_with("bestmove"), 5_000.0);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
}

/// The bench's node count in this build with the UCI option `Eval` at `evaluation`.
fn bench_nodes(evaluation: &str) -> u64 {
    let mut engine = engine();
    engine.send(&format!("setoption name Eval value {evaluation}"));
    engine.send("bench");
    let lines = read_until(&engine, |l| matches!(l.event, Event::Bench { .. }), 600_000.0);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let Event::Bench { nodes, nps } = lines.last().unwrap().event else { unreachable!() };
    console_log!("wasm bench, {evaluation} evaluation: {nodes} nodes {nps} nps");
    nodes
}

/// A native count passed in at build time by `./build.sh test`.
fn native_count(name: &str, value: Option<&str>, command: &str) -> u64 {
    value.unwrap_or_else(|| panic!("set {name} to the node count of `{command}` (./build.sh test does)")).parse().unwrap_or_else(|_| panic!("{name} is a number"))
}

#[wasm_bindgen_test]
async fn bench_signature_equals_the_native_one() {
    pool().await;
    let native = native_count("MESHMATE_NATIVE_BENCH_NODES", option_env!("MESHMATE_NATIVE_BENCH_NODES"), "meshmate bench");
    assert_eq!(bench_nodes("classic"), native, "the wasm bench searched a different tree");
}

/// The network evaluates in wasm (SIMD128) as natively (SSE): the bench's pruning compares
/// network values with margins at every node, so a value that differs anywhere changes
/// the tree and its node count.
#[wasm_bindgen_test]
async fn bench_signature_with_the_network_equals_the_native_one() {
    pool().await;
    let native = native_count("MESHMATE_NATIVE_NNUE_BENCH_NODES", option_env!("MESHMATE_NATIVE_NNUE_BENCH_NODES"), "meshmate bench --eval nnue");
    assert_eq!(bench_nodes("nnue"), native, "the wasm bench with the network searched a different tree");
}

/// The network's accumulator updated move by move along games equals one computed afresh,
/// as tests/nnue.rs checks natively: here on the SIMD128 code.
#[wasm_bindgen_test]
fn the_network_updated_along_games_equals_a_refresh() {
    use meshmate::eval::nnue::{default_network, evaluate, evaluate_from_scratch, Accumulator};
    let network = default_network();
    let positions = parse_epd_file(BRATKO_KOPEC_EPD).expect("the Bratko-Kopec suite parses");
    for (i, position) in positions.iter().enumerate() {
        let mut board = position.board.clone();
        let mut sums = Accumulator::refreshed(network, &board);
        for ply in 0..40 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let mut child = board.clone();
            child.play(moves[(ply * 7 + i * 3) % moves.len()]);
            sums.update(network, &board, &child);
            board = child;
            assert_eq!(evaluate(&board, &sums), evaluate_from_scratch(&board), "after reaching {board}");
        }
    }
}

#[wasm_bindgen_test]
async fn hash_resizes_up_to_1024_mib() {
    pool().await;
    let mut engine = engine();
    engine.send("setoption name Hash value 256");
    engine.send("isready");
    let lines = read_until(&engine, |l| l.line == "readyok", 30_000.0);
    assert!(errors(&lines).is_empty(), "256 MiB must fit: {lines:#?}");
    // The memory may grow to 4 GiB: 1024 MiB fits beside what is taken.
    engine.send("setoption name Hash value 1024");
    engine.send("isready");
    let lines = read_until(&engine, |l| l.line == "readyok", 30_000.0);
    assert!(errors(&lines).is_empty(), "1024 MiB must fit: {lines:#?}");
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = read_until(&engine, |l| l.line.starts_with("bestmove"), 60_000.0);
    assert!(errors(&lines).is_empty(), "the large table works: {lines:#?}");
    engine.send("setoption name Hash value 16");
}

/// What the engine worker reads: `drain()` hands JavaScript `{ line, event }` objects, the
/// event holding the values the line was written from (camelCase fields, as
/// www/package/index.d.ts declares them), every line with its event.
#[wasm_bindgen_test]
async fn drained_output_carries_each_line_with_its_event() {
    pool().await;
    let mut engine = engine();
    engine.send("isready");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 5");
    let get = |object: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(object, &key.into()).expect("an object");
    let start = now_ms();
    let mut drained = Vec::new();
    while !drained.iter().any(|o| get(o, "line").as_string().is_some_and(|l| l.starts_with("bestmove"))) {
        assert!(now_ms() - start < 60_000.0, "no bestmove within a minute");
        drained.extend(js_sys::Array::from(&engine.drain()).iter());
        std::thread::sleep(Duration::from_millis(2));
    }
    let line = |o: &wasm_bindgen::JsValue| get(o, "line").as_string().expect("every output has its line");
    let ready = drained.iter().find(|o| line(o) == "readyok").expect("readyok");
    assert_eq!(get(&get(ready, "event"), "type").as_string().as_deref(), Some("readyok"));
    let info = drained.iter().find(|o| line(o).starts_with("info depth 5 ") && line(o).contains(" score cp ")).expect("an info line at depth 5");
    let event = get(info, "event");
    assert_eq!(get(&event, "type").as_string().as_deref(), Some("info"));
    assert_eq!(get(&event, "depth").as_f64(), Some(5.0));
    let cp = get(&event, "scoreCp").as_f64().expect("scoreCp") as i32;
    assert!(line(info).contains(&format!(" score cp {cp} ")), "{} against {cp}", line(info));
    let pv: Vec<String> = js_sys::Array::from(&get(&event, "pv")).iter().filter_map(|m| m.as_string()).collect();
    assert!(!pv.is_empty() && line(info).ends_with(&format!(" pv {}", pv.join(" "))), "{} against {pv:?}", line(info));
    let answer = drained.iter().find(|o| line(o).starts_with("bestmove")).unwrap();
    let best = get(&get(answer, "event"), "best").as_string().expect("best");
    assert_eq!(line(answer).split(' ').nth(1), Some(best.as_str()));
}
