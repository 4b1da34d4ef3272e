//! The simulator's tree events (`node`, `leave`, `split` lines, docs/trace-schema.md): the
//! paths are legal move sequences from the root, every node entered is left, subproblems
//! carry their full path, the same seed gives the same events, and a streamed trace has
//! the hash and the lines of a kept one.
mod common;

use meshmate::chess::{parse_epd_file, parse_uci, Board};
use meshmate::machine::sim::{presets, Event, Sim, TraceMode, TraceSink, TREE_PLIES};
use meshmate::machine::Counters;
use meshmate::net::Kind;
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchSettings, Task, TreeEvent, TreePath};
use meshmate::tt::TranspositionTable;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

fn first_position() -> Board {
    parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().remove(0).board
}

/// Runs `algorithm` on 16 T800s (DeBruijn) to depth 5 with seed 3 on a machine whose
/// trace `prepare` set up.
fn run(algorithm: Algorithm, prepare: impl FnOnce(&mut Sim)) -> Sim {
    let board = first_position();
    let mut sim = Sim::new(presets::T800, Kind::DeBruijn, 16, 3).unwrap();
    prepare(&mut sim);
    let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
    let limits = Limits { depth: Some(5), ..Limits::default() };
    search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm, threads: 16, task: Task { board: &board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &Counters::new(16));
    sim
}

fn tree_events(sim: &Sim) -> Vec<(u32, TreeEvent)> {
    sim.trace().unwrap().events().iter().filter_map(|e| if let Event::Tree { p, event, .. } = *e { Some((p, event)) } else { None }).collect()
}

/// Plays `path` from `root`: every move must be legal in turn.
fn play(root: &Board, path: &TreePath) -> Board {
    let mut board = root.clone();
    for mv in path.moves() {
        let legal = parse_uci(&board, &mv.to_string()).unwrap_or_else(|e| panic!("path {path:?}: {e}"));
        board.play(legal);
    }
    board
}

#[test]
fn ybwc_reports_legal_paths_and_leaves_every_node_it_enters() {
    let sim = run(Algorithm::Ybwc, |sim| sim.set_trace(TraceMode::Full));
    let events = tree_events(&sim);
    let root = first_position();
    // Per processor and path: nodes entered minus nodes left (re-searches enter twice).
    let mut open: HashMap<(u32, u64), i64> = HashMap::new();
    let (mut received, mut splits, mut cuts, mut types) = (0, 0, 0, [0; 3]);
    for &(p, event) in &events {
        match event {
            TreeEvent::Node { path, alpha, beta, kind, received: r, .. } => {
                assert!(path.len() < TREE_PLIES, "only the top plies are reported");
                assert!(alpha < beta, "a node's window is never empty");
                play(&root, &path);
                *open.entry((p, path.packed())).or_default() += 1;
                received += usize::from(r);
                types[meshmate::machine::sim::node_kind_index(kind)] += 1;
                if r {
                    // Processor 0 too takes subproblems while its own search waits (the helpful master).
                    assert!(!path.is_empty(), "a received subproblem is a child somewhere below the root");
                }
            }
            TreeEvent::Leave { path, cut, aborted, .. } => {
                play(&root, &path);
                let count = open.entry((p, path.packed())).or_default();
                *count -= 1;
                assert!(*count >= 0, "P{p} left {path:?} before entering it");
                cuts += usize::from(cut && !aborted);
            }
            TreeEvent::Split { path, to } => {
                play(&root, &path);
                assert!(to < 16 && to != p);
                splits += 1;
            }
        }
    }
    assert!(open.values().all(|&n| n == 0), "every node entered is left: {:?}", open.iter().filter(|(_, &n)| n != 0).collect::<Vec<_>>());
    assert!(received > 0 && splits > 0 && cuts > 0, "received {received}, splits {splits}, cuts {cuts}");
    assert!(types.iter().all(|&n| n > 0), "PV, CUT and ALL nodes all appear: {types:?}");
    let roots = events.iter().filter(|(_, e)| matches!(e, TreeEvent::Node { path, .. } if path.is_empty())).count();
    assert!(roots >= 5, "the root is entered at every iteration (and re-searches): {roots}");
}

#[test]
fn tree_lines_are_json_with_uci_paths() {
    let sim = run(Algorithm::Ybwc, |sim| sim.set_trace(TraceMode::Full));
    let trace = sim.trace().unwrap();
    let lines: Vec<String> = trace.events().iter().filter(|e| matches!(e, Event::Tree { .. })).map(|e| e.to_json(trace.labels())).collect();
    let node = lines.iter().find(|l| l.starts_with(r#"{"ev":"node""#) && l.contains(r#""received":true"#)).expect("a received node");
    assert!(node.contains(r#""path":[""#) && node.contains(r#""type":""#), "{node}");
    let leave = lines.iter().find(|l| l.starts_with(r#"{"ev":"leave""#) && l.contains(r#""cut":true"#)).expect("a cutoff");
    assert!(leave.contains(r#""tt":"#) && leave.contains(r#""aborted":false"#), "{leave}");
    assert!(lines.iter().any(|l| l.starts_with(r#"{"ev":"split""#) && l.contains(r#""to":"#)));
}

#[test]
fn the_same_seed_gives_the_same_tree_events() {
    let a = run(Algorithm::Ybwc, |sim| sim.set_trace(TraceMode::Full));
    let b = run(Algorithm::Ybwc, |sim| sim.set_trace(TraceMode::Full));
    assert_eq!(tree_events(&a), tree_events(&b));
    assert_eq!(a.trace().unwrap().hash(), b.trace().unwrap().hash());
}

/// Keeps what a streaming trace hands over, as JSON lines.
struct Lines(Rc<RefCell<Vec<String>>>);

impl TraceSink for Lines {
    fn event(&mut self, event: &Event, labels: &[String]) {
        self.0.borrow_mut().push(event.to_json(labels));
    }
}

#[test]
fn a_streamed_trace_has_the_hash_and_the_lines_of_a_kept_one() {
    let kept = run(Algorithm::Ybwc, |sim| sim.set_trace(TraceMode::Full));
    let lines = Rc::new(RefCell::new(Vec::new()));
    let sink = Lines(lines.clone());
    let streamed = run(Algorithm::Ybwc, |sim| sim.stream_trace(Box::new(sink)));
    let (kept, streamed) = (kept.trace().unwrap(), streamed.trace().unwrap());
    assert_eq!(kept.hash(), streamed.hash());
    assert_eq!(streamed.recorded(), kept.events().len() as u64);
    assert!(streamed.events().is_empty(), "a streamed trace keeps no events");
    let expected: Vec<String> = kept.events().iter().map(|e| e.to_json(kept.labels())).collect();
    assert_eq!(*lines.borrow(), expected);
}

#[test]
fn lazysmp_helpers_report_their_own_trees() {
    let sim = run(Algorithm::LazySmp, |sim| sim.set_trace(TraceMode::Full));
    let events = tree_events(&sim);
    let root = first_position();
    for (_, event) in &events {
        if let TreeEvent::Node { path, .. } = event {
            play(&root, path);
        }
    }
    let processors: std::collections::HashSet<u32> = events.iter().map(|&(p, _)| p).collect();
    assert!(processors.len() > 1, "helpers search their own trees: {processors:?}");
}
