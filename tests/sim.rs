//! The simulated machine: determinism, its cost model (step costs, send overhead, hop
//! latency, queueing on a busy link, background load), sleeping waiters, exactness of
//! every parallel algorithm on it, and clear errors for bad names.
mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::sim::{presets, Event, Preset, ProcessorState, Sim, SimError, Sleep, TraceMode};
use meshmate::machine::{random_other, Activity, Counters, Machine, MessageKind, Note, Payload, Processor, Program, Threads};
use meshmate::machine::wire::WireError;
use meshmate::net::Kind;
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchSettings, Task};
use meshmate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// A test machine: 1 µs per node, 10 ns per empty step, 100 ns to send, 1 µs per hop.
const LAB: Preset = Preset {
    name: "lab",
    title: "test machine",
    node_ns: &[1_000],
    step_ns: 10,
    send_overhead_ns: 100,
    hop_ns: 1_000,
    latency_ns: 0,
    line_ns: None,
    overlaps_table_reads: true,
    net: Kind::Full,
    load: None,
    sleep: None,
    jitter_permille: 0,
    loss_notice: None,
    announces_task: false,
    paced: false,
};

/// What the test programs send.
struct Ping(MessageKind);

impl Payload for Ping {
    fn kind(&self) -> MessageKind {
        self.0
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.0.index() as u8);
    }

    fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        match bytes {
            [k] => MessageKind::ALL.get(*k as usize).map(|&k| Ping(k)).ok_or_else(|| WireError(format!("kind {k}"))),
            _ => Err(WireError(format!("{} bytes", bytes.len()))),
        }
    }
}

/// A program that follows a script: processor 0 works `work` nodes, sending `Work` to a
/// random other processor every `every` nodes, then stops everyone; the others work one
/// node per message received, answer every second one with `Result`, and wait otherwise.
struct Chatter {
    work: u64,
    every: u64,
    nodes: u64,
    pending: u64,
    received: u64,
    stop: Arc<AtomicBool>,
}

impl Chatter {
    fn machine(sim: &mut Sim, work: u64, every: u64) -> Vec<u64> {
        let p = sim.processors();
        let stop = Arc::new(AtomicBool::new(false));
        let make = || Chatter { work, every, nodes: 0, pending: 0, received: 0, stop: stop.clone() };
        let mut main = make();
        let helpers: Vec<Box<dyn Program<Message = Ping> + Send>> = (1..p).map(|_| Box::new(make()) as Box<dyn Program<Message = Ping> + Send>).collect();
        let counters = Counters::new(p);
        sim.run(&mut main, helpers, &counters);
        counters.snapshot().iter().map(|s| s.received.iter().sum()).collect()
    }
}

impl Program for Chatter {
    type Message = Ping;

    fn step(&mut self, processor: &mut dyn Processor<Ping>) -> Activity {
        while let Some((from, _)) = processor.receive() {
            self.received += 1;
            self.pending += 1;
            if self.received.is_multiple_of(2) && processor.id() != 0 {
                processor.send(from, Ping(MessageKind::Result));
            }
        }
        if processor.id() == 0 {
            if self.nodes == self.work {
                self.stop.store(true, Relaxed);
                return Activity::Finished;
            }
            self.nodes += 1;
            if self.nodes.is_multiple_of(self.every) {
                let to = random_other(processor);
                processor.send(to, Ping(MessageKind::Work));
            }
            return Activity::Working;
        }
        if self.pending > 0 {
            self.pending -= 1;
            self.nodes += 1;
            return Activity::Working;
        }
        if self.stop.load(Relaxed) {
            Activity::Finished
        } else {
            Activity::Waiting
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

fn traced(preset: Preset, net: Kind, p: usize, seed: u64) -> Sim {
    let mut sim = Sim::new(preset, net, p, seed).unwrap();
    sim.set_trace(TraceMode::Full);
    sim
}

#[test]
fn the_same_seed_gives_the_same_trace_and_another_seed_another() {
    let hash = |seed| {
        let mut sim = traced(presets::T800, Kind::DeBruijn, 16, seed);
        Chatter::machine(&mut sim, 400, 7);
        let trace = sim.trace().unwrap();
        assert!(trace.events().iter().any(|e| matches!(e, Event::Hop { .. })), "messages crossed links");
        trace.hash()
    };
    assert_eq!(hash(1), hash(1));
    assert_ne!(hash(1), hash(2), "the seed chooses whom processor 0 sends to");
}

/// The seed also draws the node times' jitter. Lazy SMP makes no random choice, yet with
/// another seed its processors meet the shared table in another order and search
/// another tree: seeds sample how a parallel search varies with its timing.
#[test]
fn another_seed_gives_a_shared_table_search_other_timing_and_another_tree() {
    let board = &boards("bratko-kopec.epd", 1)[0];
    let limits = Limits { depth: Some(9), ..Limits::default() };
    let counters = Counters::new(2);
    let run = |seed| {
        let mut sim = traced(presets::MULTICORE, Kind::Bus, 2, seed);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let result = search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::LazySmp, threads: 2, task: Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &counters);
        (sim.trace().unwrap().hash(), result.nodes)
    };
    let (first, again, other) = (run(1), run(1), run(2));
    assert_eq!(first, again);
    assert_ne!(first.0, other.0, "other node times");
    assert_ne!(first.1, other.1, "another tree");
}

#[test]
fn every_algorithm_searches_the_same_way_twice_with_the_same_seed() {
    let board = &boards("bratko-kopec.epd", 1)[0];
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let counters = Counters::new(16);
    for algorithm in Algorithm::ALL {
        let run = |seed| {
            let mut sim = traced(presets::T800, Kind::DeBruijn, 16, seed);
            let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
            let result = search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm, threads: 16, task: Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &counters);
            let (trace, report) = (sim.trace().unwrap(), sim.last_run().unwrap());
            let count = |f: fn(&Event) -> bool| trace.events().iter().filter(|e| f(e)).count() as u64;
            let splits: u64 = counters.snapshot().iter().map(|s| s.splits).sum();
            assert_eq!(count(|e| matches!(e, Event::Note { note: Note::Split, .. })), splits, "{algorithm:?}: every split is in the trace");
            assert_eq!(count(|e| matches!(e, Event::Send { .. })), report.messages, "{algorithm:?}");
            assert!(count(|e| matches!(e, Event::Deliver { .. })) <= report.messages, "{algorithm:?}");
            (trace.hash(), result.nodes, report.clone())
        };
        let (first, second) = (run(5), run(5));
        assert_eq!(first, second, "{algorithm:?}");
    }
}

/// The Lab's "nodes per processor" chart reads the trace's node counts. On a Transputer a
/// node takes 2 ms, so a count sampled only every 1024 nodes stayed at zero for most of a
/// replay; it is sampled whenever it grew by a sixteenth.
#[test]
fn a_slow_processors_node_count_is_traced_as_it_grows() {
    let board = &boards("bratko-kopec.epd", 1)[0];
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let counters = Counters::new(16);
    let mut sim = traced(presets::T800, Kind::DeBruijn, 16, 1);
    let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
    search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Ybwc, threads: 16, task: Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &counters);
    let samples: Vec<(u64, u64)> = sim.trace().unwrap().events().iter().filter_map(|e| if let Event::Nodes { t, p: 0, nodes } = *e { Some((t, nodes)) } else { None }).collect();
    let total = counters.snapshot()[0].nodes;
    assert!(total < 1024, "processor 0 searches fewer nodes than one sample by count ({total})");
    assert!(samples.len() >= 20, "{} samples of {total} nodes", samples.len());
    assert!(samples[0].1 <= 64 && samples.last().unwrap().1 * 16 >= total * 15, "from the first nodes to the last: {samples:?}");
    assert!(samples.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "each sample later and higher");
}

#[test]
fn a_message_costs_its_send_overhead_and_a_hop_time_per_link() {
    // Processor 0 works three nodes of 1 µs and sends on the third to a random processor.
    for (net, p) in [(Kind::Full, 2), (Kind::Ring, 8), (Kind::DeBruijn, 8), (Kind::FatTree, 64)] {
        let mut sim = traced(LAB, net, p, 1);
        Chatter::machine(&mut sim, 3, 3);
        let events = sim.trace().unwrap().events();
        let (t, to, hops) = events.iter().find_map(|e| if let Event::Send { t, to, hops, .. } = *e { Some((t, to, hops)) } else { None }).unwrap();
        let delivered = events.iter().find_map(|e| if let Event::Deliver { t, .. } = *e { Some(t) } else { None }).unwrap();
        assert_eq!(t, 3 * 1_000 + 100, "{net}: the message leaves after three nodes and its overhead");
        assert_eq!(hops as usize, sim.topology().hops(0, to as usize).unwrap(), "{net}");
        assert_eq!(delivered, t + hops as u64 * 1_000, "{net}: one hop time per link, nothing in the way");
        let crossed = events.iter().filter(|e| matches!(e, Event::Hop { .. })).count();
        assert_eq!(crossed, hops as usize, "{net}: a hop event per link");
    }
}

/// A real thread that has waited a while parks, and waking it costs time (the threads
/// machine's spin, then park): woken after a short wait it steps at once, after a long
/// one only once the wake-up is over.
#[test]
fn a_processor_that_waited_long_enough_to_sleep_steps_after_its_wake_up() {
    let sleepy = Preset { sleep: Some(Sleep { after_ns: 5_000, wake_ns: 2_000 }), ..LAB };
    // Processor 1 waits from its first step (10 ns); processor 0 finishes after 3 or 12
    // nodes, which wakes it.
    for (work, wake_up) in [(3, 0), (12, 2_000)] {
        let mut sim = traced(sleepy, Kind::Full, 2, 1);
        Chatter::machine(&mut sim, work, work);
        let events = sim.trace().unwrap().events();
        let state = |p, wanted| events.iter().find_map(|e| match *e {
            Event::State { t, p: q, state, .. } if q == p && state == wanted && t > 0 => Some(t),
            _ => None,
        });
        let finished = state(0, ProcessorState::Done).unwrap();
        assert_eq!(state(1, ProcessorState::Busy), Some(finished + wake_up), "after {work} nodes");
    }
}

/// Processors 1.. each send one message to processor 0 at their first step.
struct Converge {
    done: bool,
    got: usize,
}

impl Program for Converge {
    type Message = Ping;

    fn step(&mut self, processor: &mut dyn Processor<Ping>) -> Activity {
        while processor.receive().is_some() {
            self.got += 1;
        }
        if processor.id() == 0 {
            return if self.got + 1 == processor.count() { Activity::Finished } else { Activity::Waiting };
        }
        if !self.done {
            self.done = true;
            processor.send(0, Ping(MessageKind::Result));
        }
        Activity::Finished
    }

    fn nodes(&self) -> u64 {
        0
    }
}

#[test]
fn messages_queue_for_a_busy_link() {
    let mut sim = traced(LAB, Kind::Bus, 4, 1);
    let helpers: Vec<Box<dyn Program<Message = Ping> + Send>> = (1..4).map(|_| Box::new(Converge { done: false, got: 0 }) as Box<dyn Program<Message = Ping> + Send>).collect();
    sim.run(&mut Converge { done: false, got: 0 }, helpers, &Counters::new(4));
    let hops: Vec<(u64, u64)> = sim.trace().unwrap().events().iter().filter_map(|e| if let Event::Hop { start, end, .. } = *e { Some((start, end)) } else { None }).collect();
    // All three leave at 10 + 100 ns; the bus carries one at a time, in sending order.
    assert_eq!(hops, [(110, 1_110), (1_110, 2_110), (2_110, 3_110)]);
    let report = sim.last_run().unwrap();
    assert_eq!(report.elapsed_ns, 3_110 + 10, "processor 0 wakes with the last message and finishes in one step");
    assert_eq!(report.messages, 3);
    assert_eq!(report.link_busy_ns, [3_000], "the bus carried three messages of 1 µs");
    let utilisation = 3_000.0 / report.end_ns as f64;
    assert!((report.links.busiest - utilisation).abs() < 1e-12 && (report.links.mean - utilisation).abs() < 1e-12, "{:?} over {} ns", report.links, report.end_ns);
}

/// On a machine that announces its task (a class), processor 0's START reaches processors
/// 1 and 2 in turn a trip later, and they start then; the result is in when their DONE
/// is back, a round trip after processor 0 finishes. Elsewhere everyone starts at 0.
#[test]
fn a_class_starts_its_helpers_when_the_task_reaches_them_and_ends_when_their_done_is_back() {
    let run = |announces_task| {
        let mut sim = traced(Preset { announces_task, ..LAB }, Kind::Full, 3, 1);
        let helpers: Vec<Box<dyn Program<Message = Ping> + Send>> = (1..3).map(|_| Box::new(Converge { done: false, got: 0 }) as Box<dyn Program<Message = Ping> + Send>).collect();
        sim.run(&mut Converge { done: false, got: 0 }, helpers, &Counters::new(3));
        let sends: Vec<u64> = sim.trace().unwrap().events().iter().filter_map(|e| if let Event::Send { t, .. } = *e { Some(t) } else { None }).collect();
        (sends, sim.last_run().unwrap().elapsed_ns)
    };
    // Each helper's first step (10 ns) sends to processor 0 (100 ns), a hop of 1 µs;
    // processor 0 finishes a step after the second arrives.
    assert_eq!(run(false), (vec![110, 110], 1_110 + 10));
    // START leaves at 100 and 200 ns and takes 1 µs; processor 0 finishes at 2,320 ns,
    // FINISHED reaches processor 2 at 3,520 ns and its DONE is back 1.1 µs later.
    assert_eq!(run(true), (vec![1_210, 1_310], 4_620));
}

#[test]
fn a_waiting_processor_takes_no_steps() {
    // 63 helpers that never get a message: one step to find nothing to do, one after
    // processor 0 finished — however long processor 0 works.
    let mut sim = Sim::new(LAB, Kind::Hypercube, 64, 1).unwrap();
    Chatter::machine(&mut sim, 100_000, u64::MAX);
    let report = sim.last_run().unwrap();
    assert_eq!(report.steps[0], 100_001);
    assert!(report.steps[1..].iter().all(|&s| s == 2), "{:?}", &report.steps[..8]);
    assert!(report.load() < 0.05, "helpers idle: load {}", report.load());
    assert_eq!(report.elapsed_ns, 100_000 * 1_000 + 10);
}

/// A processor of the LAN runs at its node time divided by the CPU share its run queue
/// leaves it (Equation (1) of Hasan's model), within the ±10 % jitter.
#[test]
fn a_background_load_slows_a_processor_by_its_run_queues_share() {
    let mut sim = Sim::new(presets::LAN, Kind::Full, 4, 1).unwrap();
    Chatter::machine(&mut sim, 20_000, u64::MAX);
    let elapsed = sim.last_run().unwrap().elapsed_ns;
    let load = presets::LAN.load.unwrap();
    // 20,000 nodes take under 0.2 s: one window of the load, which lasts 2 s.
    let share = load.availability(0, 0);
    assert_eq!(share, load.availability(0, elapsed));
    let share = share as u64;
    let expected = 20_000 * presets::LAN.node_ns[0] * 1000 / share;
    assert!(elapsed > expected * 9 / 10 && elapsed < expected * 11 / 10, "{elapsed} against {expected} at {share} per mille");
}

fn boards(file: &str, take: usize) -> Vec<Board> {
    parse_epd_file(&common::shared_data(file)).unwrap().into_iter().take(take).map(|e| e.board).collect()
}

/// Searches `board` to depth 6 with `algorithm` on one processor of `machine`: (nodes, score).
fn one_processor(machine: &mut impl Machine, algorithm: Algorithm, board: &Board, counters: &Counters) -> (u64, i32) {
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let r = search(machine, &mut Vec::new(), &tt, &SearchRequest { algorithm, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, counters);
    (r.nodes, r.score)
}

#[test]
fn one_processor_of_an_ideal_machine_does_exactly_the_serial_search() {
    let counters = Counters::new(1);
    for board in boards("bratko-kopec.epd", 4) {
        let serial = one_processor(&mut Threads::default(), Algorithm::Serial, &board, &counters);
        for algorithm in Algorithm::ALL {
            // On one real thread each algorithm is the serial search, or close to it
            // (ABDADA's busy table still reorders moves); one simulated processor
            // does exactly what one thread does.
            let threads = one_processor(&mut Threads::default(), algorithm, &board, &counters);
            let mut sim = Sim::new(presets::IDEAL, Kind::Full, 1, 7).unwrap();
            assert_eq!(one_processor(&mut sim, algorithm, &board, &counters), threads, "{algorithm:?}");
            assert_eq!(counters.snapshot()[0].nodes, threads.0);
            assert!(sim.last_run().unwrap().elapsed_ns >= threads.0 * 1_000, "each node costs its node time");
        }
        let mut sim = Sim::new(presets::IDEAL, Kind::Full, 1, 7).unwrap();
        assert_eq!(one_processor(&mut sim, Algorithm::Serial, &board, &counters), serial);
        assert_eq!(one_processor(&mut sim, Algorithm::LazySmp, &board, &counters), serial, "Lazy SMP without helpers");
    }
}

#[test]
fn every_algorithm_returns_the_serial_minimax_value_on_the_simulator() {
    let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let counters = Counters::new(64);
    let mut positions = boards("bratko-kopec.epd", 3);
    positions.extend(boards("perft.epd", 2));
    for (i, board) in positions.iter().enumerate() {
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let serial = search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
        for algorithm in Algorithm::ALL {
            for p in [1, 7, 64] {
                tt.clear();
                let mut sim = Sim::new(presets::MULTICORE, Kind::Full, p, 3).unwrap();
                let result = search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
                assert_eq!(result.score, serial.score, "position {i} {algorithm:?} on {p} simulated processors");
                assert!(counters.snapshot()[..p].iter().all(|s| !s.working), "position {i} {algorithm:?}: a processor still works");
            }
        }
    }
}

#[test]
fn virtual_busy_and_idle_time_reach_the_counters() {
    let mut sim = Sim::new(LAB, Kind::Full, 4, 1).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let make = || Chatter { work: 5_000, every: 50, nodes: 0, pending: 0, received: 0, stop: stop.clone() };
    let helpers: Vec<Box<dyn Program<Message = Ping> + Send>> = (1..4).map(|_| Box::new(make()) as Box<dyn Program<Message = Ping> + Send>).collect();
    let counters = Counters::new(4);
    sim.run(&mut make(), helpers, &counters);
    let report = sim.last_run().unwrap();
    for (id, s) in counters.snapshot().iter().enumerate() {
        assert_eq!(s.busy_us, report.busy_ns[id] / 1_000, "processor {id}");
        assert_eq!(s.idle_us, report.idle_ns[id] / 1_000, "processor {id}");
        assert_eq!((report.busy_ns[id] + report.idle_ns[id]), report.end_ns, "processor {id}: every nanosecond is busy or idle");
    }
    let snapshot = counters.snapshot();
    assert_eq!(snapshot[0].sent[MessageKind::Work.index()], 100);
    let received: u64 = snapshot[1..].iter().map(|s| s.received[MessageKind::Work.index()]).sum();
    assert_eq!(received, 99, "all but the last, which arrives after its receiver saw the stop and finished");
}

#[test]
fn bad_names_and_counts_are_clear_errors() {
    let err = |preset: &str, net: Option<&str>, p: usize| Sim::from_names(preset, net, p, 1).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(matches!(Sim::from_names("pdp11", None, 4, 1), Err(SimError::UnknownPreset(_))));
    assert!(err("pdp11", None, 4).contains("t800, cm5, c916"), "{}", err("pdp11", None, 4));
    assert!(err("t800", Some("torus"), 4).contains("unknown network"), "{}", err("t800", Some("torus"), 4));
    assert!(err("t800", None, 6).contains("power of two"), "{}", err("t800", None, 6));
    assert!(err("cm5", None, 0).contains("at least one"), "{}", err("cm5", None, 0));
    assert!(err("cm5", None, 2048).contains("at most 1024"), "{}", err("cm5", None, 2048));
    assert!(Sim::from_names("T800", Some("Ring"), 6, 1).is_ok(), "names ignore case");
}

#[test]
fn the_command_line_prints_the_table_and_writes_the_trace() {
    let (dir, suite) = common::bratko_kopec_file("sim", "two.epd", 2);
    let trace = dir.join("trace.jsonl");
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_meshmate")).arg("sim").args(args).output().unwrap();
    let ok = run(&["--algo", "lazysmp", "--procs", "4", "--preset", "t800", "--suite", suite.to_str().unwrap(), "--depth", "3", "--trace", trace.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let table = String::from_utf8(ok.stdout).unwrap();
    assert!(table.contains("N(1)") && table.contains("SPE") && table.contains("lazysmp  p=4"), "{table}");
    let lines = std::fs::read_to_string(&trace).unwrap();
    assert!(lines.lines().all(|l| l.starts_with(r#"{"ev":""#) && l.ends_with('}')));
    assert_eq!(lines.lines().filter(|l| l.starts_with(r#"{"ev":"machine""#)).count(), 2, "the serial machine and the 4-processor one");
    assert_eq!(lines.lines().filter(|l| l.starts_with(r#"{"ev":"run""#)).count(), 4, "two positions, serial and lazysmp");
    let machines: Vec<&str> = lines.lines().filter(|l| l.starts_with(r#"{"ev":"machine""#)).collect();
    assert!(machines[0].contains(r#""processors":1,"#) && machines[1].contains(r#""processors":4,"#), "each machine's runs follow it: {machines:?}");
    let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["trace.jsonl", "two.epd"], "the streamed parts are joined and removed");
    let bad = run(&["--algo", "lazysmp", "--procs", "4", "--preset", "vax", "--suite", suite.to_str().unwrap(), "--depth", "3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown preset \"vax\""));
    let bad = run(&["--algo", "lazysmp", "--procs", "12", "--preset", "t800", "--suite", suite.to_str().unwrap(), "--depth", "3"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("power of two"), "{}", String::from_utf8_lossy(&bad.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_command_line_runs_several_seeds_and_pools_them() {
    let (dir, suite) = common::bratko_kopec_file("seeds", "two.epd", 2);
    let run = |seeds: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_meshmate"))
            .args(["sim", "--algo", "lazysmp", "--procs", "2", "--preset", "multicore", "--suite", suite.to_str().unwrap(), "--depth", "6"])
            .args(seeds)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, json, _) = run(&["--seed", "1-3", "--json"]);
    assert_eq!(code, Some(0));
    // One row object per line, between separators.
    let objects = |text: &str| -> Vec<String> { text.lines().filter_map(|l| Some(l[l.find(r#"{"seed""#)?..=l.rfind('}')?].to_string())).collect() };
    let rows = objects(&json);
    assert_eq!(rows.len(), 6, "two positions for each of three seeds: {json}");
    for seed in 1..=3 {
        assert_eq!(rows.iter().filter(|r| r.contains(&format!(r#""seed":{seed},"#))).count(), 2, "seed {seed}");
    }
    let (_, one, _) = run(&["--seed", "1", "--json"]);
    let first_seed: Vec<&String> = rows.iter().filter(|r| r.contains(r#""seed":1,"#)).collect();
    let alone = objects(&one);
    assert_eq!(first_seed, alone.iter().collect::<Vec<_>>(), "a seed among others runs as it runs alone");
    let (_, table, _) = run(&["--seed", "1,5"]);
    assert!(table.contains("totals over 2 positions × 2 seeds") && table.contains("SPE of single seeds"), "{table}");
    let (code, _, error) = run(&["--seed", "3-1"]);
    assert_eq!(code, Some(2));
    assert!(error.contains("ranges go upwards"), "{error}");
    let (_, _, error) = run(&["--seed", "1-2", "--trace", dir.join("t.jsonl").to_str().unwrap()]);
    assert!(error.contains("--trace records one run"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Breaks the contract: says it waits although nothing is on its way to it.
struct WaitsForNothing;

impl Program for WaitsForNothing {
    type Message = Ping;

    fn step(&mut self, _: &mut dyn Processor<Ping>) -> Activity {
        Activity::Waiting
    }

    fn nodes(&self) -> u64 {
        0
    }
}

#[test]
#[should_panic(expected = "deadlock in virtual time at 10 ns: processors [0] wait")]
fn a_program_waiting_for_nothing_is_a_deadlock_not_a_hang() {
    let mut sim = Sim::new(LAB, Kind::Full, 1, 1).unwrap();
    sim.run(&mut WaitsForNothing, Vec::new(), &Counters::new(1));
}

/// Deep enough that helpers hand out parts of the subproblems they were given (nested
/// split points), the work-splitting algorithms still return the serial minimax value in
/// Pure mode: on a multicore, whose idle processors read the offer board, and on
/// Zugzwang's Transputers, whose idle processors ask at random.
#[test]
fn work_splitting_is_exact_with_nested_split_points() {
    let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let p = 8;
    let counters = Counters::new(p);
    for (i, board) in boards("bratko-kopec.epd", 2).iter().enumerate() {
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let serial = search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
        for preset in [presets::MULTICORE, presets::T800] {
            for algorithm in [Algorithm::Ybwc, Algorithm::YbwcAll, Algorithm::Jamboree, Algorithm::Dts] {
                tt.clear();
                let mut sim = Sim::new(preset, preset.net, p, 5).unwrap();
                let result = search(&mut sim, &mut Vec::new(), &tt, &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
                let label = format!("position {i} {algorithm:?} on {}", preset.name);
                assert_eq!(result.score, serial.score, "{label}");
                let nested: u64 = counters.snapshot()[1..p].iter().map(|s| s.splits).sum();
                assert!(nested > 0, "{label}: no helper split its subproblem again");
            }
        }
    }
}

/// On a class's network a job crosses it only when it is expected to take several round
/// trips of its receiver (`parallel::split::pace`): on `classroom` (a round trip of
/// 336 µs, 626 nodes of 538 ns) the helpers' jobs average more than two round trips each
/// (3,258 nodes over 190 jobs when written; four expected), where the papers' rule alone (any
/// node with 3 plies left, `Preset::split_as_the_papers`) sends more jobs, of fewer (1,375
/// of 955). Paced helpers ask for their next job before the last one ends (a request
/// ahead), the papers' never. In Pure mode the value stays the serial one, at 0 and
/// 10 ms, either way.
#[test]
fn on_a_class_no_job_smaller_than_a_round_trip_crosses_helpers_ask_ahead_and_pure_values_stay_serial() {
    let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let round_trip = presets::CLASSROOM;
    let round_trip_nodes = 2 * (round_trip.send_overhead_ns + round_trip.hop_ns + round_trip.latency_ns) / round_trip.node_ns[0];
    let counters = Counters::new(4);
    let (mut jobs, mut job_nodes) = (0, 0);
    let (mut papers_jobs, mut papers_job_nodes) = (0, 0);
    let (mut asked_ahead, mut papers_asked_ahead) = (0, 0);
    for (i, board) in boards("bratko-kopec.epd", 3).iter().enumerate().skip(1) {
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let serial = search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
        for preset in [presets::CLASSROOM, presets::CLASSROOM_10MS, presets::CLASSROOM.split_as_the_papers()] {
            for algorithm in [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::PvSplit] {
                for p in [2, 4] {
                    let tables = meshmate::tt::Tables::new(meshmate::tt::Placement::Local, 4 * p, p).unwrap();
                    let mut sim = Sim::new(preset, preset.net, p, 1).unwrap();
                    let result = search(&mut sim, &mut Vec::new(), tables, &SearchRequest { algorithm, threads: p, task: Task { board, history: &[], limits: &limits, settings: &settings } }, &Control::default(), &mut NoReports, &counters);
                    assert_eq!(result.score, serial.score, "position {i} {algorithm:?} on {p} processors of {}", preset.name);
                    let (to_jobs, to_nodes, to_ahead) = match (preset.name, preset.paced) {
                        ("classroom", true) => (&mut jobs, &mut job_nodes, &mut asked_ahead),
                        ("classroom", false) => (&mut papers_jobs, &mut papers_job_nodes, &mut papers_asked_ahead),
                        _ => continue,
                    };
                    for helper in &counters.snapshot()[1..p] {
                        *to_jobs += helper.received[MessageKind::Work.index()];
                        *to_nodes += helper.nodes;
                        *to_ahead += helper.asked_ahead;
                    }
                }
            }
        }
    }
    assert!(jobs > 0, "jobs crossed the class's network");
    let (paced, papers) = (job_nodes / jobs, papers_job_nodes / papers_jobs.max(1));
    assert!(paced >= 2 * round_trip_nodes, "{jobs} jobs of {paced} nodes on average, a round trip {round_trip_nodes} nodes");
    assert!(papers_jobs > jobs && papers < 2 * round_trip_nodes, "the papers' split: {papers_jobs} jobs of {papers} nodes on average (paced: {jobs} of {paced})");
    assert!(asked_ahead > 0, "paced helpers asked for their next job before the last ended ({jobs} jobs)");
    assert_eq!(papers_asked_ahead, 0, "the papers' helpers ask only once idle");
}
