//! Searches in slices (`Host::sliced`), as the browser's single build runs them: one thread,
//! no shared memory, input taken between slices. A sliced search must search the same
//! tree as a search on a thread, and `go infinite` must search until `stop`.

mod common;

use common::host::engine_after;
use meshmate::uci::{Engine, Event, Host, Slice};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One thread: jobs run when the test says so, as the single build runs them after each
/// input line; searches run in slices.
#[derive(Default)]
struct OneThread {
    lines: Mutex<Vec<String>>,
    jobs: Mutex<VecDeque<Box<dyn FnOnce() + Send>>>,
}

impl Host for OneThread {
    fn report(&self, event: Event) {
        self.lines.lock().unwrap().push(event.to_string());
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        self.jobs.lock().unwrap().push_back(job);
    }

    fn sliced(&self) -> bool {
        true
    }
}

struct Session {
    engine: Engine,
    host: Arc<OneThread>,
}

impl Session {
    fn new() -> Session {
        let host = Arc::new(OneThread::default());
        Session { engine: Engine::new(host.clone()), host }
    }

    /// Handles `line`, then runs the jobs it spawned (as `WasmEngine::send` does).
    fn send(&mut self, line: &str) {
        self.engine.handle_line(line);
        while let Some(job) = self.host.jobs.lock().unwrap().pop_front() {
            job();
        }
    }

    /// Handles `line`, then gives the search slices of `ms` as [`Session::run`] does.
    fn send_and_run(&mut self, line: &str, ms: f64, limit: usize) -> Slice {
        self.send(line);
        self.run(ms, limit).0
    }

    /// Slices of `ms` until the engine says anything but `Searching` (or `limit` slices).
    fn run(&self, ms: f64, limit: usize) -> (Slice, usize) {
        for n in 1..=limit {
            let slice = self.engine.resume(ms);
            if slice != Slice::Searching {
                return (slice, n);
            }
        }
        (Slice::Searching, limit)
    }

    fn lines(&self) -> Vec<String> {
        self.host.lines.lock().unwrap().clone()
    }

    fn bestmoves(&self) -> Vec<String> {
        self.lines().into_iter().filter(|l| l.starts_with("bestmove")).collect()
    }
}

/// `info depth D ... nodes N ... pv ...` without the fields that depend on the clock.
fn without_timing(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(words[i], "time" | "nps") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

#[test]
fn a_sliced_search_searches_the_same_tree_as_a_threaded_one() {
    let commands = ["setoption name Hash value 8", "position startpos moves e2e4 e7e5 g1f3", "go depth 9"];
    let mut sliced = Session::new();
    for c in commands {
        sliced.send(c);
    }
    // Slices of 1 ms: many returns to the caller in the middle of iterations.
    let (slice, slices) = sliced.run(1.0, 1_000_000);
    assert_eq!(slice, Slice::Idle);
    assert!(slices > 5, "the search should have taken several slices, took {slices}");

    let (_threaded, host) = engine_after(&commands);
    host.await_bestmove();
    // Exact reports only: bounds and `currmove` are printed after the first second.
    let exact = |l: &&String| l.starts_with("info depth") && !l.contains("currmove") && !l.contains("bound ");
    let reports = |lines: Vec<String>| -> Vec<String> { lines.iter().filter(exact).map(|l| without_timing(l)).collect() };
    let threaded_lines = host.lines();
    assert_eq!(reports(sliced.lines()), reports(threaded_lines.clone()));
    assert_eq!(sliced.bestmoves(), threaded_lines.iter().filter(|l| l.starts_with("bestmove")).cloned().collect::<Vec<_>>());
}

#[test]
fn go_infinite_searches_until_stop_and_takes_input_between_slices() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    assert_eq!(s.run(20.0, 10), (Slice::Searching, 10), "an infinite search goes on");
    s.send("isready");
    assert_eq!(s.lines().last().map(String::as_str), Some("readyok"), "isready is answered between slices");
    assert_eq!(s.run(20.0, 10), (Slice::Searching, 10));
    assert!(s.bestmoves().is_empty(), "no bestmove before stop");
    let deepest = s.lines().iter().filter_map(|l| l.strip_prefix("info depth ")?.split(' ').next()?.parse::<i32>().ok()).max().unwrap();
    assert!(deepest >= 5, "deepening went on across slices (depth {deepest})");
    assert_eq!(s.send_and_run("stop", 20.0, 2), Slice::Idle, "stop ends the search at the next slice");
    assert_eq!(s.bestmoves().len(), 1);
    // The engine goes on: the next search is answered too.
    assert_eq!(s.send_and_run("go depth 4", 20.0, 1000), Slice::Idle);
    assert_eq!(s.bestmoves().len(), 2);
}

#[test]
fn an_unbounded_search_that_reached_its_depth_waits_for_stop_or_ponderhit() {
    let mut s = Session::new();
    s.send("position startpos");
    assert_eq!(s.send_and_run("go infinite depth 3", 50.0, 1000), Slice::Held);
    assert_eq!(s.engine.resume(50.0), Slice::Held, "held until stop");
    assert!(s.bestmoves().is_empty());
    assert_eq!(s.send_and_run("stop", 50.0, 1), Slice::Idle);
    assert_eq!(s.bestmoves().len(), 1);

    assert_eq!(s.send_and_run("go ponder depth 3 wtime 1000 btime 1000", 50.0, 1000), Slice::Held);
    assert_eq!(s.bestmoves().len(), 1, "held until ponderhit");
    assert_eq!(s.send_and_run("ponderhit", 50.0, 1000), Slice::Idle);
    assert_eq!(s.bestmoves().len(), 2);
}

#[test]
fn a_go_during_a_sliced_search_stops_it_and_each_go_is_answered_in_order() {
    let mut s = Session::new();
    s.send("position startpos");
    assert_eq!(s.send_and_run("go infinite", 5.0, 3), Slice::Searching);
    s.send("position startpos moves e2e4");
    assert_eq!(s.send_and_run("go depth 3", 5.0, 1000), Slice::Idle);
    let answers = s.bestmoves();
    assert_eq!(answers.len(), 2, "{answers:?}");
    // The second answer is a black move: the reply to e2e4.
    let reply = answers[1].split(' ').nth(1).unwrap();
    assert!(reply.ends_with('5') || reply.ends_with('6'), "black's reply expected, got {reply}");
}
