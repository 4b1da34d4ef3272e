//! Class members with several cores (`meshmate join --threads N`): over the real relay, a
//! member with two threads searches the jobs it is given on both (each thread's nodes,
//! from the member's stderr, above zero), and in pure mode the class's value is still the
//! serial one (YBWC, APHID). tests/class.rs tests the class with one-core members.
// Native only: the wasm test build compiles every test target.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::{Cluster, Counters, Threads};
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchResult, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::Duration;

/// A process of the meshmate binary, killed with the test.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `meshmate relay` on a free port: the process, its class address and the lecturer's token.
fn relay() -> (Process, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["relay", "--listen", "127.0.0.1:0"]).stdout(Stdio::piped()).spawn().expect("the relay starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map(Result::unwrap);
    let url = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
    let token = lines.next().unwrap().strip_prefix("lecturer token ").expect("the relay's token").to_string();
    (Process(child), url, token)
}

/// A `meshmate join --threads N` member, and the lines of its stderr as they come.
fn member(url: &str, code: &str, threads: u32) -> (Process, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["join", url, code, "--threads", &threads.to_string()]).stderr(Stdio::piped()).spawn().expect("a member starts");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (lines, received) = channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    (Process(child), received)
}

/// The member's nodes by thread in its last search, from its stderr.
fn nodes_by_thread(stderr: &Receiver<String>) -> Vec<u64> {
    loop {
        let line = stderr.recv_timeout(Duration::from_secs(30)).expect("the member says its nodes by thread after each search");
        if let Some((_, counts)) = line.split_once("nodes by thread ") {
            return counts.split(' ').map(|n| n.parse().expect("a count")).collect();
        }
    }
}

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

fn searched(machine: &mut impl meshmate::machine::Machine, algorithm: Algorithm, threads: usize, board: &Board, limits: &Limits, counters: &Counters) -> SearchResult {
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let (settings, mut searchers) = (pure(), Vec::<Searcher>::new());
    let task = Task { board, history: &[], limits, settings: &settings };
    // Far longer than any search here takes: a class that hangs fails the test instead.
    let control = Control::default();
    let (done, finished) = channel::<()>();
    std::thread::scope(|scope| {
        let control = &control;
        scope.spawn(move || {
            if finished.recv_timeout(Duration::from_secs(120)).is_err() {
                control.stop();
            }
        });
        let result = search(machine, &mut searchers, &tt, &SearchRequest { algorithm, threads, task }, control, &mut NoReports, counters);
        let _ = done.send(());
        assert!(!control.stopped(), "{algorithm:?} did not finish within two minutes");
        result
    })
}

#[test]
fn a_member_with_two_threads_searches_its_jobs_on_both_and_pure_mode_stays_serial() {
    let (_relay, url, token) = relay();
    let link = RelayLink::create(&url, &token).expect("a session");
    let code = link.code().to_string();
    let mut lecturer = Cluster::new(link).expect("the owner is processor 0");
    let (_member, stderr) = member(&url, &code, 2);
    lecturer.link_mut().wait_for_members(1, Duration::from_secs(20)).unwrap();
    let counters = Counters::new(2);
    let boards: Vec<Board> = parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().into_iter().skip(1).take(3).map(|e| e.board).collect();
    for algorithm in [Algorithm::Ybwc, Algorithm::Aphid] {
        let mut by_thread = [0u64; 2];
        for (i, board) in boards.iter().enumerate() {
            let limits = Limits { depth: Some(6), ..Limits::default() };
            let serial = searched(&mut Threads::default(), Algorithm::Serial, 1, board, &limits, &Counters::new(1));
            let processors = lecturer.link_mut().start().expect("the roster starts");
            assert_eq!(processors, 2);
            let class = searched(&mut lecturer, algorithm, processors, board, &limits, &counters);
            assert_eq!(class.score, serial.score, "position {i}, {algorithm:?} with a two-thread member");
            let nodes = nodes_by_thread(&stderr);
            assert_eq!(nodes.len(), 2, "{nodes:?}");
            // The member's count, as processor 0 has it, holds both threads' nodes.
            assert_eq!(counters.snapshot()[1].nodes, nodes.iter().sum::<u64>(), "position {i}, {algorithm:?}");
            for (sum, n) in by_thread.iter_mut().zip(&nodes) {
                *sum += n;
            }
        }
        println!("{algorithm:?}, BK 2-4 to 6 plies, pure: the member's nodes by thread {by_thread:?}");
        assert!(by_thread.iter().all(|&n| n > 0), "{algorithm:?}: each of the member's threads searched: {by_thread:?}");
    }
}

#[test]
fn join_refuses_no_threads_and_absurdly_many() {
    for threads in ["0", "1000"] {
        let out = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["join", "ws://127.0.0.1:9/class", "code", "--threads", threads]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--threads") && stderr.contains("1..=64"), "{stderr}");
    }
}
