//! The class machine over the real relay: `meshmate relay` on a free port, students as
//! `meshmate join` processes of their own, processor 0 here on the relay link. The
//! programs, frames and machine are the cluster's (tests/cluster.rs runs them over MPI);
//! only the link differs, and a class's processors may vanish mid-search.
// Native only: the wasm test build compiles every test target.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::cluster::link::{Arrival, Link};
use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::cluster::{Order, Rank};
use meshmate::machine::frame::{frame, FrameKind, FRAME_HEADER};
use meshmate::machine::wire::{Reader, Writer};
use meshmate::machine::{Cluster, Counters, MessageKind, Threads};
use meshmate::parallel::{help, search, Algorithm, Helper, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchResult, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One test at a time: each runs a relay and several processes, on a machine of two cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The relay, ended with the test.
struct Relay {
    child: Child,
    url: String,
    /// The lecturer's token it printed at start.
    token: String,
}

impl Relay {
    fn start(lost_after_ms: u32) -> Relay {
        Relay::start_with(lost_after_ms, &[])
    }

    /// A relay started with `options` besides.
    fn start_with(lost_after_ms: u32, options: &[&str]) -> Relay {
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate"))
            .args(["relay", "--listen", "127.0.0.1:0", "--lost-after-ms", &lost_after_ms.to_string()])
            .args(options)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the relay starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map(Result::unwrap);
        let url = lines.next().unwrap().rsplit(' ').next().unwrap().to_string();
        assert!(url.starts_with("ws://127.0.0.1:"), "{url}");
        let token = lines.next().unwrap().strip_prefix("lecturer token ").expect("the relay's token").to_string();
        Relay { child, url, token }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Students: `meshmate join` processes, killed with the test.
struct Students(Vec<Child>);

impl Students {
    fn join(relay: &Relay, code: &str, count: usize) -> Students {
        Students::join_with(relay, code, count, &[])
    }

    /// Students started with `options` after `join URL CODE`.
    fn join_with(relay: &Relay, code: &str, count: usize, options: &[&str]) -> Students {
        Students((0..count).map(|_| Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["join", &relay.url, code]).args(options).stderr(Stdio::null()).spawn().expect("a student starts")).collect())
    }

    /// A student started with `options`, and the lines of its stderr as they come.
    fn join_telling(relay: &Relay, code: &str, options: &[&str]) -> (Students, std::sync::mpsc::Receiver<String>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["join", &relay.url, code]).args(options).stderr(Stdio::piped()).spawn().expect("a student starts");
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (lines, said) = std::sync::mpsc::channel();
        std::thread::spawn(move || stderr.lines().map_while(Result::ok).try_for_each(|line| lines.send(line)));
        (Students(vec![child]), said)
    }

    /// More students join until the lecturer's class has `processors` live processors.
    fn grow_to(&mut self, relay: &Relay, lecturer: &mut Lecturer, processors: usize) {
        let more = processors - 1 - self.0.len();
        self.0.append(&mut Students::join(relay, &lecturer.code(), more).0);
        lecturer.cluster.link_mut().wait_for_members(processors - 1, Duration::from_secs(20)).unwrap();
    }

    /// Sends `signal` to student `i` (`KILL`: the tab crashes; `STOP`: it freezes).
    fn signal(&self, i: usize, signal: &str) {
        let pid = self.0[i].id().to_string();
        assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().unwrap().success());
    }
}

impl Drop for Students {
    fn drop(&mut self) {
        for child in self.0.iter_mut() {
            let _ = Command::new("kill").args(["-CONT", &child.id().to_string()]).status();
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Far longer than any search here takes (seconds), even on a loaded machine.
const STUCK_AFTER: Duration = Duration::from_secs(120);

/// The lecturer's end: processor 0 of the class machine, with its table and searchers.
struct Lecturer {
    cluster: Cluster<RelayLink>,
    searchers: Vec<Searcher>,
    tt: Arc<TranspositionTable>,
    counters: Counters,
}

impl Lecturer {
    /// A lecturer that splits as the papers split: these tests' searches are a few plies
    /// deep, and jobs sized to even an undelayed relay's round trip (4-11 ms measured on
    /// this machine's two loaded cores: tens of thousands of nodes) would never cross it.
    fn open(relay: &Relay) -> Lecturer {
        let mut lecturer = Lecturer::open_paced(relay);
        lecturer.cluster.set_paced(false);
        lecturer
    }

    /// A lecturer that sizes its jobs to the relay's measured round trip, as a class does.
    fn open_paced(relay: &Relay) -> Lecturer {
        let link = RelayLink::create(&relay.url, &relay.token).expect("a session");
        let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
        Lecturer { cluster: Cluster::new(link).expect("the owner is processor 0"), searchers: Vec::new(), tt, counters: Counters::new(16) }
    }

    fn code(&self) -> String {
        self.cluster.link().code().to_string()
    }

    /// Starts a roster of every live student and searches `board` with `algorithm`. A
    /// search still running after [`STUCK_AFTER`] is stopped and fails the test, rather
    /// than hanging it.
    fn search(&mut self, algorithm: Algorithm, board: &Board, limits: &Limits, settings: &SearchSettings) -> (usize, SearchResult) {
        let processors = self.cluster.link_mut().start().expect("the roster starts");
        self.tt.clear();
        let task = Task { board, history: &[], limits, settings };
        let control = Control::default();
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let result = std::thread::scope(|scope| {
            let control = &control;
            scope.spawn(move || {
                if finished.recv_timeout(STUCK_AFTER).is_err() {
                    control.stop();
                }
            });
            let result = search(&mut self.cluster, &mut self.searchers, &self.tt, &SearchRequest { algorithm, threads: processors, task }, control, &mut NoReports, &self.counters);
            let _ = done.send(());
            result
        });
        assert!(!control.stopped(), "{algorithm:?} on {processors} processors of the class did not finish within {STUCK_AFTER:?}");
        (processors, result)
    }
}

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

/// The serial search's result on this machine's threads.
fn serial(board: &Board, limits: &Limits, settings: &SearchSettings) -> SearchResult {
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let task = Task { board, history: &[], limits, settings };
    search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task }, &Control::default(), &mut NoReports, &Counters::new(1))
}

fn positions(count: usize) -> Vec<Board> {
    parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().into_iter().take(count).map(|e| e.board).collect()
}

#[test]
fn pure_mode_over_the_class_gives_the_serial_value_at_two_and_four_processors() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let boards = positions(4);
    let serial: Vec<i32> = boards.iter().map(|b| serial(b, &limits, &pure()).score).collect();
    let mut students = Students(Vec::new());
    for size in [2, 4] {
        students.grow_to(&relay, &mut lecturer, size);
        for algorithm in [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::PvSplit] {
            for (i, board) in boards.iter().enumerate() {
                let (processors, result) = lecturer.search(algorithm, board, &limits, &pure());
                assert_eq!(processors, size);
                assert_eq!(result.score, serial[i], "position {i}, {algorithm:?} on {size} processors of the class");
            }
        }
    }
}

/// Students on one thread that search in slices between looks at the relay, as a tab
/// without shared memory does (`join --slices`): the pure value is the serial one, and
/// each of them searched.
#[test]
fn students_searching_in_slices_give_the_serial_value() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let _students = Students::join_with(&relay, &lecturer.code(), 2, &["--slices", "5"]);
    lecturer.cluster.link_mut().wait_for_members(2, Duration::from_secs(20)).unwrap();
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let mut student_nodes = [0u64; 2];
    for (i, board) in positions(3).iter().enumerate() {
        let serial = serial(board, &limits, &pure()).score;
        for algorithm in [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::PvSplit] {
            let (processors, result) = lecturer.search(algorithm, board, &limits, &pure());
            assert_eq!(processors, 3);
            assert_eq!(result.score, serial, "position {i}, {algorithm:?} with two students in slices");
            let snapshot = lecturer.counters.snapshot();
            for (nodes, p) in student_nodes.iter_mut().zip(&snapshot[1..3]) {
                *nodes += p.nodes;
            }
        }
    }
    assert!(student_nodes.iter().all(|&n| n > 0), "each student in slices searched: {student_nodes:?}");
}

#[test]
fn helpers_in_other_processes_split_below_split_points() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let _students = Students::join(&relay, &lecturer.code(), 3);
    lecturer.cluster.link_mut().wait_for_members(3, Duration::from_secs(20)).unwrap();
    let limits = Limits { depth: Some(17), ..Limits::default() };
    let (mut helper_splits, mut work_between_students) = (0, 0);
    // Not BK.01, which ends in a few thousand nodes with a mate found; searches until the
    // students have split. Jobs cross the relay only when worth several of its round trips
    // (`parallel::split::pace`), and a student splits its job only where the part given
    // away is worth that too: the search must be deep enough for such jobs.
    for board in &positions(8)[1..] {
        lecturer.search(Algorithm::Ybwc, board, &limits, &SearchSettings::default());
        let snapshot = lecturer.counters.snapshot();
        helper_splits += snapshot[1..4].iter().map(|p| p.splits).sum::<u64>();
        work_between_students += snapshot[1..4].iter().map(|p| p.sent[MessageKind::Work.index()]).sum::<u64>();
        if helper_splits > 0 && work_between_students > 0 {
            break;
        }
    }
    assert!(helper_splits > 0 && work_between_students > 0, "students gave work of their own: splits {helper_splits}, work {work_between_students}");
}

/// A student that crashes (killed) or freezes (stopped, silent until the relay's
/// timeout) mid-search: the relay declares it lost, processor 0's program hears it, the
/// moves it was given are searched again, and the pure value is still the serial one.
#[test]
fn a_crashed_or_frozen_student_loses_nothing() {
    let _alone = one_at_a_time();
    // Generous enough that a student starved of CPU by a busy machine still beats in time.
    let relay = Relay::start(3_000);
    let mut lecturer = Lecturer::open(&relay);
    let board = &positions(2)[1];
    // Deep enough (about a second on four processors here) that the student ends mid-search.
    let limits = Limits { depth: Some(8), ..Limits::default() };
    let serial = serial(board, &limits, &pure());
    for signal in ["KILL", "STOP"] {
        let students = Students::join(&relay, &lecturer.code(), 3);
        lecturer.cluster.link_mut().wait_for_members(3, Duration::from_secs(20)).unwrap();
        let started = std::time::Instant::now();
        let watcher = std::thread::spawn({
            let pid = students.0[0].id();
            move || {
                std::thread::sleep(Duration::from_millis(300));
                Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status().unwrap();
            }
        });
        let (processors, result) = lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
        watcher.join().unwrap();
        assert_eq!(processors, 4);
        assert!(started.elapsed() > Duration::from_millis(300), "the search outlived the student's end ({:?})", started.elapsed());
        assert_eq!(result.score, serial.score, "{signal}: the class's value");
        let heard: u64 = lecturer.counters.snapshot()[0].received[MessageKind::Lost.index()];
        // At least the one ended (another may be starved past the timeout on a loaded
        // machine: the relay alone decides, and the value must hold all the same).
        assert!(heard >= 1, "{signal}: processor 0 heard of the lost processor (during the search, or while it waited for the others' ends)");
        students.signal(0, "CONT");
        drop(students);
        // The others have left too: the next roster is the lecturer alone.
        std::thread::sleep(Duration::from_millis(2_000));
    }
}

/// A student that leaves once a search is over but before the lecturer's `end` reached the
/// relay is lost in that search. Heard in the next, where processor 1 is somebody else,
/// the notice would make processor 0 stop asking the new processor 1 and never search
/// again what it gave it: the search would wait forever (as it once did here).
#[test]
fn a_loss_in_an_ended_search_is_not_heard_in_the_next() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let first = RelayLink::join(&relay.url, &lecturer.code()).expect("a student joins");
    assert_eq!(lecturer.cluster.link_mut().start().unwrap(), 2, "search 1: the lecturer and the first student");
    drop(first);
    // Long enough for the relay to see the student go and send its notice before `end`.
    std::thread::sleep(Duration::from_millis(500));
    lecturer.cluster.link_mut().search_over();
    let _second = RelayLink::join(&relay.url, &lecturer.code()).expect("another student joins");
    assert_eq!(lecturer.cluster.link_mut().start().unwrap(), 2, "search 2: the lecturer and the second student");
    std::thread::sleep(Duration::from_millis(200));
    while let Some(arrival) = lecturer.cluster.link_mut().receive() {
        assert!(!matches!(arrival, Arrival::Lost(_)), "search 1's loss was heard in search 2");
    }
}

/// Writes one message body by hand, as a hostile peer would.
fn body(write: impl Fn(&mut Writer)) -> Vec<u8> {
    let mut body = Vec::new();
    write(&mut Writer(&mut body));
    body
}

/// A RESULT for subproblem `job` with the child's value `value`.
fn forged_result(job: u32, value: i32) -> Vec<u8> {
    body(|w| {
        w.u8(3);
        w.u32(job);
        w.i32(value);
        w.mvs(&[]);
        w.u64(1);
        w.bool(false);
    })
}

/// What a hostile member sends each round about `job`: answers for a subtree it was never
/// given (only the processor given a job answers for it: the searcher's unit tests show
/// the check), a cut and a work request (honest in form), and what decode refuses: a value
/// out of range, an empty window, a forged loss and an unknown tag.
fn forged_messages(job: u32) -> Vec<Vec<u8>> {
    vec![
        forged_result(job, 3_000),
        forged_result(job, -3_000),
        body(|w| (w.u8(5), w.u32(job)).1),
        body(|w| (w.u8(0), w.bool(false), w.u32(0)).2),
        forged_result(job, 1_000_000),
        body(|w| (w.u8(4), w.u32(job), w.i32(50), w.i32(-50)).3),
        body(|w| w.u8(8)),
        body(|w| w.u8(200)),
    ]
}

/// A member of the roster that is hostile: once the search starts it sends processor 0
/// and a student, for a second or so, answers for subtrees it was never given, cuts,
/// requests and what decode refuses, and keeps the work it is given unanswered; then a
/// frame cut short, for which the relay cuts it off (so it is lost, and the work it took
/// is searched again). The value stays the serial one.
#[test]
fn a_hostile_member_during_a_search_changes_nothing() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let _students = Students::join(&relay, &lecturer.code(), 2);
    lecturer.cluster.link_mut().wait_for_members(2, Duration::from_secs(20)).unwrap();
    let mut hostile = RelayLink::join(&relay.url, &lecturer.code()).expect("the hostile member joins");
    let board = &positions(2)[1];
    let limits = Limits { depth: Some(8), ..Limits::default() };
    let serial = serial(board, &limits, &pure());
    let attack = std::thread::spawn(move || {
        let search = loop {
            match hostile.receive() {
                Some(Arrival::Frame(f)) if f.kind == FrameKind::Start => break f.search,
                Some(_) => {}
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        let first = Instant::now();
        // About 2,000 frames a second: under the relay's rate cap, so only the frame cut
        // short below gets it cut off. Its requests may bring it WORK, which it keeps; it
        // never answers for a job it was given (lying about its own subtree is what no
        // check here can catch: docs/class.md), only for others' (giver, job).
        let mut given: Vec<(usize, u32)> = Vec::new();
        for round in 0..200u32 {
            while let Some(arrival) = hostile.receive() {
                if let Arrival::Frame(f) = arrival {
                    let mut r = Reader::new(&f.body);
                    if let (FrameKind::Program, Ok(1), Ok(job)) = (f.kind, r.u8(), r.u32()) {
                        given.push((f.from, job));
                    }
                }
            }
            for to in [0, 1] {
                let job = (round % 64..).find(|&job| !given.contains(&(to, job))).expect("a job number not given");
                for body in forged_messages(job) {
                    hostile.send(to, frame(FrameKind::Program, search, &body));
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        hostile.send(0, Vec::new());
        let deadline = Instant::now() + Duration::from_secs(10);
        while hostile.closed().is_none() && Instant::now() < deadline {
            let _ = hostile.receive();
            std::thread::sleep(Duration::from_millis(1));
        }
        (first, !given.is_empty(), hostile.closed().map(str::to_string))
    });
    let (processors, result) = lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
    let ended = Instant::now();
    let (first_forged, given_work, closed) = attack.join().unwrap();
    assert_eq!(processors, 4);
    assert!(first_forged < ended, "the forged frames came during the search");
    assert!(given_work, "the hostile member took work it never answered, which the others searched again once it was lost");
    assert!(closed.is_some_and(|why| why.contains("cut short") || why.contains("header")), "the relay cut the hostile member off");
    assert_eq!(result.score, serial.score, "the class's value with a hostile member");
    assert!(lecturer.counters.snapshot()[0].received[MessageKind::Lost.index()] >= 1, "processor 0 heard the hostile member was lost");
}

/// A student's link that garbles its DONE, or withholds it (a buggy or hostile client),
/// and is otherwise honest: it searches what it is given and answers as a processor should.
struct BrokenDone {
    link: RelayLink,
    garbles: bool,
}

impl Link for BrokenDone {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn size(&self) -> usize {
        self.link.size()
    }

    fn send(&mut self, to: usize, mut bytes: Vec<u8>) {
        if bytes.first() == Some(&(FrameKind::Done as u8)) {
            if !self.garbles {
                return;
            }
            bytes.truncate(FRAME_HEADER + 3);
        }
        self.link.send(to, bytes);
    }

    fn receive(&mut self) -> Option<Arrival> {
        self.link.receive()
    }
}

/// A member whose DONE is unreadable, and one that never sends it, cost those members
/// only: the relay is told to cut them off (the second once processor 0 has waited its
/// ten seconds), and the machine searches on with the others (the value the serial one),
/// rather than alone for the rest of the session.
#[test]
fn members_with_an_unreadable_or_no_done_are_lost_and_the_class_goes_on() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let _students = Students::join(&relay, &lecturer.code(), 2);
    lecturer.cluster.link_mut().wait_for_members(2, Duration::from_secs(20)).unwrap();
    let broken: Vec<_> = [true, false]
        .into_iter()
        .map(|garbles| {
            let link = RelayLink::join(&relay.url, &lecturer.code()).expect("the member joins");
            std::thread::spawn(move || {
                let mut rank = Rank::new(BrokenDone { link, garbles }).expect("a student is no processor 0");
                let mut helper = Helper::new(8).unwrap();
                let mut searches = 0;
                while let Order::Search(task) = rank.next_order() {
                    help(&mut rank, &mut helper, &task).unwrap();
                    rank.end_search();
                    searches += 1;
                }
                (searches, rank.link().link.closed().map(str::to_string))
            })
        })
        .collect();
    lecturer.cluster.link_mut().wait_for_members(4, Duration::from_secs(20)).unwrap();
    let board = &positions(2)[1];
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let (processors, result) = lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
    assert_eq!((processors, result.score), (5, serial(board, &limits, &pure()).score), "the first search, the broken members in it");
    assert_eq!(lecturer.cluster.fault(), None, "a member's DONE is no fault of the machine");
    for (member, says) in broken.into_iter().zip(["unreadable counters", "did not finish its search within 10 s"]) {
        let (searches, closed) = member.join().unwrap();
        assert_eq!(searches, 1);
        assert!(closed.as_deref().is_some_and(|why| why.contains("expelled by the owner") && why.contains(says)), "{closed:?}");
    }
    let mut student_nodes = 0;
    for board in &positions(3)[1..] {
        let (processors, result) = lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
        assert_eq!((processors, result.score), (3, serial(board, &limits, &pure()).score), "the class without the broken members");
        student_nodes += lecturer.counters.snapshot()[1..3].iter().map(|p| p.nodes).sum::<u64>();
    }
    assert!(student_nodes > 0, "the students still searched");
}

/// A class larger than the lecturer's counters (a host that counts fewer processors than
/// the relay lets in) is refused at the search's start with a reason, never a panic: the
/// lecturer searches alone, its value still the serial one.
#[test]
fn a_class_larger_than_the_lecturer_counts_is_refused_not_a_panic() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    lecturer.counters = Counters::new(2);
    let _students = Students::join(&relay, &lecturer.code(), 2);
    lecturer.cluster.link_mut().wait_for_members(2, Duration::from_secs(20)).unwrap();
    let board = &positions(2)[1];
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let (processors, result) = lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
    assert_eq!((processors, result.score), (3, serial(board, &limits, &pure()).score));
    assert_eq!(lecturer.cluster.fault(), Some("3 processors, and this engine counts at most 2"));
}

/// A processor waiting on the relay link blocks until a frame comes, instead of looking
/// again and again (which, on a machine whose cores it shares, takes time from the
/// processors that search): a frame 100 ms away behind the relay's injected delay comes
/// after about ten waits of 10 ms. A link that looked and napped would wait thousands of
/// times; one that could not block says so at once.
#[test]
fn a_processor_waiting_on_the_relay_link_blocks_until_a_frame_comes() {
    let _one = one_at_a_time();
    let relay = Relay::start_with(10_000, &["--delay-ms", "100"]);
    let mut owner = RelayLink::create(&relay.url, &relay.token).unwrap();
    let mut student = RelayLink::join(&relay.url, owner.code()).unwrap();
    owner.wait_for_members(1, Duration::from_secs(10)).unwrap();
    assert_eq!(owner.start().unwrap(), 2);
    let search = owner.next_search(0);
    owner.send(1, frame(FrameKind::Program, search, b"work"));
    let mut waits = 0u64;
    while !matches!(student.receive(), Some(Arrival::Frame(f)) if f.body == b"work") {
        assert!(student.await_arrival(Duration::from_millis(10)), "the relay link blocks");
        waits += 1;
    }
    assert!(waits <= 50, "{waits} waits of at most 10 ms for a frame 100 ms away");
}

/// APHID over a class of `meshmate join` processes: in pure mode the serial value at 2 and
/// 4 processors, the students' leaf values reaching processor 0 (RESULT messages); and a
/// student killed mid-search has its leaves searched by the others, the value unchanged.
#[test]
fn aphid_over_the_class_gives_the_serial_value_and_survives_a_lost_student() {
    let _alone = one_at_a_time();
    let relay = Relay::start(3_000);
    let mut lecturer = Lecturer::open(&relay);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let boards = positions(3);
    let serial_scores: Vec<i32> = boards.iter().map(|b| serial(b, &limits, &pure()).score).collect();
    let mut students = Students(Vec::new());
    for size in [2, 4] {
        students.grow_to(&relay, &mut lecturer, size);
        for (i, board) in boards.iter().enumerate() {
            let (processors, result) = lecturer.search(Algorithm::Aphid, board, &limits, &pure());
            assert_eq!(processors, size);
            assert_eq!(result.score, serial_scores[i], "position {i}, APHID on {size} processors of the class");
            assert!(lecturer.counters.snapshot()[0].received[MessageKind::Result.index()] > 0, "position {i}: the students reported leaf values");
        }
    }
    let board = &boards[1];
    let deep = Limits { depth: Some(7), ..Limits::default() };
    let serial_deep = serial(board, &deep, &pure());
    let watcher = std::thread::spawn({
        let pid = students.0[0].id();
        move || {
            std::thread::sleep(Duration::from_millis(300));
            Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
        }
    });
    let started = std::time::Instant::now();
    let (_, result) = lecturer.search(Algorithm::Aphid, board, &deep, &pure());
    watcher.join().unwrap();
    assert!(started.elapsed() > Duration::from_millis(300), "the search outlived the student's end ({:?})", started.elapsed());
    assert_eq!(result.score, serial_deep.score, "the class's value with a student lost");
    assert!(lecturer.counters.snapshot()[0].received[MessageKind::Lost.index()] >= 1, "processor 0 heard of the lost student");
}

/// `meshmate speedup --relay`: the lecturer's process creates the session, waits for its
/// members and prints the time-to-depth table on the class; at its end the members leave.
/// Depth 13 keeps the three searches at about half a second, long enough for members slowed
/// by a loaded machine to ask for work (at depth 10 they took 0.2 s, and once none did).
#[test]
fn speedup_measures_a_class_of_joined_members_and_ends_the_session() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let (dir, suite) = common::bratko_kopec_file("class-speedup", "suite.epd", 3);
    let token = dir.join("token");
    std::fs::write(&token, &relay.token).unwrap();
    let mut lecturer = Command::new(env!("CARGO_BIN_EXE_meshmate"))
        .args(["speedup", "--algo", "ybwc", "--depth", "13", "--members", "2", "--papers-split", "--relay", &relay.url])
        .arg("--suite").arg(&suite).arg("--lecturer-token-file").arg(&token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = BufReader::new(lecturer.stderr.take().unwrap()).lines().map(Result::unwrap);
    let created = said.next().expect("the lecturer says the code");
    let code = created.strip_prefix("class ").and_then(|rest| rest.split(' ').next()).unwrap_or_else(|| panic!("{created}"));
    let mut students = Students::join(&relay, code, 2);
    let said = std::thread::spawn(move || said.collect::<Vec<_>>().join("\n"));
    let output = lecturer.wait_with_output().unwrap();
    let (table, said) = (String::from_utf8_lossy(&output.stdout), said.join().unwrap());
    assert!(output.status.success(), "{said}\n{table}");
    let total = table.lines().find(|l| l.trim_start().starts_with("ybwc") && l.contains("p=3")).unwrap_or_else(|| panic!("no class total:\n{table}"));
    let messages = table.lines().skip_while(|l| !std::ptr::eq(*l, total)).nth(1).unwrap_or_default();
    assert!(messages.contains(" work "), "no work went to a member: {total}\n{messages}");
    assert_eq!(table.lines().filter(|l| l.contains(" ybwc ") && l.contains("     3 ")).count(), 3, "a row per position on 3 processors:\n{table}");
    for (i, student) in students.0.iter_mut().enumerate() {
        let ended = (0..200).any(|_| student.try_wait().unwrap().is_some() || { std::thread::sleep(Duration::from_millis(50)); false });
        assert!(ended, "student {i} still runs after the measurement ended the session");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn speedup_on_a_class_refuses_what_a_class_cannot_run() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_meshmate")).arg("speedup").args(["--suite", "x.epd", "--depth", "3"]).args(args).output().unwrap();
    for (args, why) in [
        (&["--algo", "lazysmp", "--relay", "ws://127.0.0.1:1/class", "--members", "2", "--lecturer-token-file", "t"][..], "on a class use"),
        (&["--algo", "ybwc", "--relay", "ws://127.0.0.1:1/class", "--members", "2", "--lecturer-token-file", "t", "--tt", "global"][..], "share no memory"),
        (&["--algo", "ybwc", "--relay", "ws://127.0.0.1:1/class", "--members", "2", "--lecturer-token-file", "t", "--threads", "2"][..], "ask for 1 or 3"),
        (&["--algo", "ybwc", "--relay", "ws://127.0.0.1:1/class", "--lecturer-token-file", "t"][..], "--members"),
        (&["--algo", "ybwc", "--members", "2"][..], "--relay"),
        (&["--algo", "ybwc", "--relay", "ws://127.0.0.1:1/class", "--members", "2", "--lecturer-token-file", "/nonexistent/token"][..], "/nonexistent/token"),
    ] {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
}

/// A member's nodes by thread in its last search, from its stderr.
fn nodes_by_thread(said: &std::sync::mpsc::Receiver<String>) -> Vec<u64> {
    loop {
        let line = said.recv_timeout(Duration::from_secs(30)).expect("the member says its nodes by thread after each search");
        if let Some((_, counts)) = line.split_once("nodes by thread ") {
            return counts.split(' ').map(|n| n.parse().expect("a count")).collect();
        }
    }
}

/// `meshmate join --threads 2`: the member searches the jobs it is given on both threads
/// (each thread's nodes, from its stderr, above zero; processor 0's count of the member
/// their sum), and in pure mode the class's value is still the serial one.
#[test]
fn a_member_with_two_threads_searches_its_jobs_on_both_and_pure_mode_stays_serial() {
    let _alone = one_at_a_time();
    let relay = Relay::start(10_000);
    let mut lecturer = Lecturer::open(&relay);
    let (_member, said) = Students::join_telling(&relay, &lecturer.code(), &["--threads", "2"]);
    lecturer.cluster.link_mut().wait_for_members(1, Duration::from_secs(20)).unwrap();
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let boards: Vec<Board> = positions(4).into_iter().skip(1).collect();
    for algorithm in [Algorithm::Ybwc, Algorithm::Aphid] {
        let mut by_thread = [0u64; 2];
        for (i, board) in boards.iter().enumerate() {
            let (processors, class) = lecturer.search(algorithm, board, &limits, &pure());
            assert_eq!(processors, 2);
            assert_eq!(class.score, serial(board, &limits, &pure()).score, "position {i}, {algorithm:?} with a two-thread member");
            let nodes = nodes_by_thread(&said);
            assert_eq!(nodes.len(), 2, "{nodes:?}");
            assert_eq!(lecturer.counters.snapshot()[1].nodes, nodes.iter().sum::<u64>(), "position {i}, {algorithm:?}");
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

/// Behind a relay with 1 ms injected per hop (a round trip of 2 ms or more), a job
/// crosses it only when it is expected to take several round trips of its receiver
/// (`parallel::split::pace`, processor 0 having measured the round trip and the students'
/// speeds): the students' jobs that ran to their end (not cut off by their owner) average
/// more than a round trip of their own nodes each, where the papers' rule alone (any node
/// with 3 plies left) sends jobs of a few hundred nodes. In Pure mode (the papers' search),
/// whose young brothers are a large share of a node's tree: in the modern search the
/// root's eldest is 86-94 % of an iteration and no brother is worth four round trips even
/// here, so no job would cross.
#[test]
fn behind_a_slow_relay_no_job_smaller_than_a_round_trip_crosses_it() {
    let _alone = one_at_a_time();
    let relay = Relay::start_with(10_000, &["--delay-ms", "1"]);
    let mut lecturer = Lecturer::open_paced(&relay);
    let _students = Students::join(&relay, &lecturer.code(), 2);
    lecturer.cluster.link_mut().wait_for_members(2, Duration::from_secs(20)).unwrap();
    let limits = Limits { depth: Some(9), ..Limits::default() };
    let (mut jobs, mut cut, mut job_nodes, mut busy_us) = (0, 0, 0, 0);
    for board in &positions(10)[1..] {
        lecturer.search(Algorithm::Ybwc, board, &limits, &pure());
        for student in &lecturer.counters.snapshot()[1..3] {
            jobs += student.received[MessageKind::Work.index()];
            cut += student.received[MessageKind::Cutoff.index()];
            job_nodes += student.nodes - student.aborted_nodes;
            busy_us += student.busy_us;
        }
        if jobs.saturating_sub(cut) >= 4 {
            break;
        }
    }
    let ended = jobs.saturating_sub(cut);
    assert!(ended > 0, "jobs crossed the relay and ran to their end ({jobs} crossed, {cut} cut)");
    let round_trip_nodes = 2_000 * job_nodes / busy_us.max(1);
    assert!(job_nodes / ended >= round_trip_nodes, "{ended} jobs ran to their end, {} nodes on average; a round trip is {round_trip_nodes} of the students' nodes", job_nodes / ended);
}
