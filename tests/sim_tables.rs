//! Table placements on the simulated machine: global, local, distributed (entry h at
//! processor h mod p, reached by routed tt-request/tt-answer/tt-put) and tds. Exactness of
//! every algorithm that accepts a placement, determinism, the messages each placement
//! sends, the cost model of a remote access, and the refused combinations.
mod common;

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::sim::{presets, Event, Preset, ProcessorState, Sim, TraceMode};
use meshmate::stats::{simulate_suite, SimRow, SimSuite};
use meshmate::machine::{Activity, Counters, Machine, MessageKind, Payload, Processor, Program};
use meshmate::machine::wire::WireError;
use meshmate::net::Kind;
use meshmate::parallel::{serial_among_idle_owners, Algorithm};
use meshmate::search::{Limits, SearchOptions, SearchSettings, Searcher, Task};
use meshmate::tt::{owner, Access, AccessKind, Placement, TableSize, Tables};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

fn boards(file: &str, take: usize) -> Vec<Board> {
    parse_epd_file(&common::shared_data(file)).unwrap().into_iter().take(take).map(|e| e.board).collect()
}

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

/// Runs `algorithms` on `machines` with the table placed as `placement`.
fn simulate(machines: &mut [Sim], boards: &[Board], depth: i32, placement: Placement, settings: SearchSettings, algorithms: &[Algorithm]) -> Result<Vec<SimRow>, String> {
    let mut serial = Sim::new(presets::MULTICORE, Kind::Full, 1, 3).unwrap();
    let suite = SimSuite { boards, depth, table: TableSize::Mib(4), placement, settings, carry: false };
    simulate_suite(&mut serial, machines, &suite, algorithms, &mut |_| {})
}

/// The algorithms that accept `placement`, besides the serial reference.
fn accepting(placement: Placement) -> Vec<Algorithm> {
    Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Serial && a.accepts(placement).is_ok()).collect()
}

/// Every row's score is its position's serial score.
fn assert_exact(rows: &[SimRow], what: &str) {
    for row in rows {
        let serial = rows.iter().find(|r| r.position == row.position && r.algorithm == "serial").unwrap();
        assert_eq!(row.score, serial.score, "{what}: position {} {} on {} processors ({})", row.position, row.algorithm, row.processors, row.placement);
    }
}

#[test]
fn every_algorithm_that_accepts_a_placement_returns_the_serial_value() {
    let mut positions = boards("bratko-kopec.epd", 3);
    positions.extend(boards("perft.epd", 2));
    for placement in [Placement::Local, Placement::Distributed, Placement::Tds] {
        let algorithms = accepting(placement);
        // Every algorithm places its table anywhere but TDSAB's way, which is TDSAB's alone.
        let expected = if placement == Placement::Tds { vec![Algorithm::Tdsab] } else { Algorithm::ALL[1..].iter().copied().filter(|&a| a != Algorithm::Tdsab).collect() };
        assert_eq!(algorithms, expected, "{placement}");
        let mut machines = [1, 7].map(|p| Sim::new(presets::MULTICORE, Kind::Full, p, 3).unwrap());
        let rows = simulate(&mut machines, &positions, 3, placement, pure(), &algorithms).unwrap();
        assert_eq!(rows.len(), positions.len() * (1 + 2 * algorithms.len()));
        assert!(rows.iter().filter(|r| r.algorithm != "serial").all(|r| r.placement == placement));
        assert_exact(&rows, placement.name());
    }
    // 64 processors of Zugzwang's machine (TDSAB's cluster for tds), on two positions.
    for placement in [Placement::Local, Placement::Distributed, Placement::Tds] {
        let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 64, 5).unwrap()];
        let rows = simulate(&mut machines, &positions[..2], 4, placement, pure(), &accepting(placement)).unwrap();
        assert_exact(&rows, placement.name());
    }
}

/// The trace hash of ybwc on 16 T800s wired as DB(4), with the table placed as asked.
fn trace_hash(placement: Placement, seed: u64) -> u64 {
    let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 16, seed).unwrap()];
    machines[0].set_trace(TraceMode::Hash);
    simulate(&mut machines, &boards("bratko-kopec.epd", 1), 4, placement, SearchSettings::default(), &[Algorithm::Ybwc]).unwrap();
    machines[0].trace().unwrap().hash()
}

#[test]
fn the_same_seed_gives_the_same_trace_with_every_placement() {
    let distributed = trace_hash(Placement::Distributed, 9);
    assert_eq!(trace_hash(Placement::Distributed, 9), distributed);
    assert_ne!(trace_hash(Placement::Distributed, 10), distributed, "another seed, another run");
    assert_eq!(trace_hash(Placement::Local, 9), trace_hash(Placement::Local, 9));
    let global = trace_hash(Placement::Global, 9);
    assert_ne!(global, distributed, "the table's messages are in the trace");
    assert_ne!(global, trace_hash(Placement::Local, 9), "local tables change the search");
}

fn tt_messages(row: &SimRow) -> [u64; 3] {
    [MessageKind::TtRequest, MessageKind::TtAnswer, MessageKind::TtPut].map(|k| row.messages_by_kind[k.index()])
}

#[test]
fn a_distributed_table_sends_requests_answers_and_puts_and_a_local_one_sends_none() {
    let positions = boards("bratko-kopec.epd", 2);
    for algorithm in [Algorithm::Ybwc, Algorithm::LazySmp] {
        let run = |placement: Placement, traced: bool| {
            let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 16, 1).unwrap()];
            if traced {
                machines[0].set_trace(TraceMode::Full);
            }
            let rows = simulate(&mut machines, &positions, 4, placement, SearchSettings::default(), &[algorithm]).unwrap();
            let [machine] = machines;
            (rows.into_iter().filter(|r| r.algorithm != "serial").collect::<Vec<_>>(), machine)
        };
        let (distributed, machine) = run(Placement::Distributed, true);
        for row in &distributed {
            let [requests, answers, puts] = tt_messages(row);
            assert!(requests > 100 && puts > 100, "{algorithm:?}: {requests} requests, {puts} puts");
            assert_eq!(answers, requests, "{algorithm:?}: every request is answered");
            assert_eq!(row.messages, row.messages_by_kind.iter().sum::<u64>());
        }
        // In the trace: each table message is sent, routed over links and delivered.
        let events = machine.trace().unwrap().events();
        let sent: Vec<u32> = events
            .iter()
            .filter_map(|e| match *e {
                Event::Send { msg, kind: MessageKind::TtAnswer, .. } => Some(msg),
                _ => None,
            })
            .collect();
        let answers: u64 = distributed.iter().map(|r| tt_messages(r)[1]).sum();
        assert_eq!(sent.len() as u64, answers);
        assert!(events.iter().any(|e| matches!(e, Event::Hop { msg, .. } if *msg == sent[0])), "an answer crosses links");
        assert!(events.iter().any(|e| matches!(e, Event::Deliver { msg, .. } if *msg == sent[0])), "an answer is delivered");
        for placement in [Placement::Local, Placement::Global] {
            let (rows, _) = run(placement, false);
            assert!(rows.iter().all(|r| tt_messages(r) == [0, 0, 0]), "{algorithm:?} with the {placement} table");
        }
    }
}

#[test]
fn one_processor_with_a_distributed_or_local_table_is_the_global_search() {
    let positions = boards("bratko-kopec.epd", 3);
    let algorithms = [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::Abdada];
    let run = |placement| {
        let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 1, 2).unwrap()];
        simulate(&mut machines, &positions, 5, placement, SearchSettings::default(), &algorithms).unwrap()
    };
    let global = run(Placement::Global);
    for placement in [Placement::Distributed, Placement::Local] {
        for (a, b) in global.iter().zip(run(placement)) {
            assert_eq!((a.nodes, a.time_ns, a.score), (b.nodes, b.time_ns, b.score), "{} at position {} with the {placement} table", a.algorithm, a.position);
            assert_eq!(tt_messages(&b), [0, 0, 0]);
        }
    }
    let tds = |placement| {
        let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 1, 2).unwrap()];
        simulate(&mut machines, &positions, 5, placement, SearchSettings::default(), &[Algorithm::Tdsab]).unwrap()
    };
    assert_eq!(tds(Placement::Global), tds(Placement::Tds).into_iter().map(|r| SimRow { placement: Placement::Global, ..r }).collect::<Vec<_>>());
}

#[test]
fn placements_an_algorithm_cannot_use_are_refused_with_a_reason() {
    let positions = boards("bratko-kopec.epd", 1);
    let refused = |algorithm: Algorithm, placement| {
        let mut machines = [Sim::new(presets::T800, Kind::DeBruijn, 4, 1).unwrap()];
        simulate(&mut machines, &positions, 2, placement, SearchSettings::default(), &[algorithm]).unwrap_err()
    };
    for algorithm in [Algorithm::Ybwc, Algorithm::PvSplit, Algorithm::Jamboree, Algorithm::Dts, Algorithm::LazySmp, Algorithm::Abdada] {
        assert!(refused(algorithm, Placement::Tds).contains("use distributed"), "{algorithm:?}");
    }
    assert!(refused(Algorithm::Tdsab, Placement::Local).contains("--tt tds"));
    assert!(refused(Algorithm::Tdsab, Placement::Distributed).contains("--tt tds"));
    assert_eq!(accepting(Placement::Tds), [Algorithm::Tdsab]);
    assert!(" Distributed ".parse::<Placement>() == Ok(Placement::Distributed));
    assert!("shared".parse::<Placement>().unwrap_err().contains("global, local, distributed, tds"));
}

#[test]
fn the_command_line_runs_every_placement_and_says_which() {
    let (dir, suite) = common::bratko_kopec_file("sim-tables", "one.epd", 1);
    let run = |algo: &str, tt: &str, json: bool| {
        let mut args = vec!["sim", "--algo", algo, "--procs", "4", "--preset", "t800", "--suite", suite.to_str().unwrap(), "--depth", "3", "--tt", tt];
        if json {
            args.push("--json");
        }
        std::process::Command::new(env!("CARGO_BIN_EXE_meshmate")).args(&args).output().unwrap()
    };
    let out = run("ybwc", "distributed", false);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(table.contains("table distributed") && table.contains("tt-request") && table.contains("tt-put"), "{table}");
    let out = run("tdsab", "tds", true);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(json.contains(r#""table":"tds""#) && json.contains(r#""messages_by_kind":{"work-request":0"#), "{json}");
    for (algo, tt, says) in [("ybwc", "tds", "use distributed"), ("tdsab", "local", "--tt tds"), ("ybwc", "nearby", "unknown table placement 'nearby'")] {
        let out = run(algo, tt, false);
        assert_eq!(out.status.code(), Some(2), "{algo} {tt}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
    }
    // Real threads have one table in memory: only the simulator places it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meshmate")).args(["speedup", "--algo", "ybwc", "--threads", "2", "--suite", suite.to_str().unwrap(), "--depth", "3", "--tt", "local"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("every placement on the simulator"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A test machine: the ideal one (1 µs per node, every pair of processors linked) with
/// 10 ns per empty step, 100 ns to send and 1 µs per hop.
const LAB: Preset = Preset { name: "lab", step_ns: 10, send_overhead_ns: 100, hop_ns: 1_000, ..presets::IDEAL };

/// Programs of these tests send nothing themselves.
enum Silence {}

impl Payload for Silence {
    fn kind(&self) -> MessageKind {
        match *self {}
    }

    fn encode(&self, _out: &mut Vec<u8>) {
        match *self {}
    }

    fn decode(_bytes: &[u8]) -> Result<Self, WireError> {
        Err(WireError("these programs send nothing".into()))
    }
}

/// Processor 0 takes one step per access in `script` (a node each, reporting the access),
/// then finishes; the others work `work` nodes, one a step, then wait for the end.
struct Scripted {
    script: Vec<Access>,
    work: u64,
    nodes: u64,
    done: Arc<AtomicBool>,
}

impl Program for Scripted {
    type Message = Silence;

    fn step(&mut self, processor: &mut dyn Processor<Silence>) -> Activity {
        if processor.id() == 0 {
            let Some(access) = self.script.pop() else {
                self.done.store(true, Relaxed);
                return Activity::Finished;
            };
            self.nodes += 1;
            processor.table_accesses(&[access]);
            return Activity::Working;
        }
        match (self.nodes < self.work, self.done.load(Relaxed)) {
            (true, _) => {
                self.nodes += 1;
                Activity::Working
            }
            (false, true) => Activity::Finished,
            (false, false) => Activity::Waiting,
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Runs processor 0's `script` beside processor 1 working `work` nodes on two LAB
/// processors; returns the machine and the counters.
fn scripted(script: &[Access], work: u64) -> (Sim, Counters) {
    scripted_on(LAB, script, work)
}

/// [`scripted`] on a machine of `preset`.
fn scripted_on(preset: Preset, script: &[Access], work: u64) -> (Sim, Counters) {
    let mut sim = Sim::new(preset, Kind::Full, 2, 1).unwrap();
    sim.set_trace(TraceMode::Full);
    let done = Arc::new(AtomicBool::new(false));
    let mut main = Scripted { script: script.iter().rev().copied().collect(), work: 0, nodes: 0, done: done.clone() };
    let helper = Box::new(Scripted { script: Vec::new(), work, nodes: 0, done }) as Box<dyn Program<Message = Silence> + Send>;
    let counters = Counters::new(2);
    sim.run(&mut main, vec![helper], &counters);
    (sim, counters)
}

/// A hash whose entry processor `id` of 2 holds.
fn held_by(id: usize) -> u64 {
    let hash = 0x9e37_79b9_7f4a_7c14 + id as u64;
    assert_eq!(owner(hash, 2), id);
    hash
}

#[test]
fn a_remote_lookup_waits_for_its_answer_beyond_the_nodes_work_and_a_store_does_not() {
    let probe = |id| Access { kind: AccessKind::Probe, hash: held_by(id) };
    let store = |id| Access { kind: AccessKind::Store, hash: held_by(id) };
    // The request leaves after its send overhead (100), crosses one link (1000), the idle
    // owner serves it (10 for the lookup, 100 to send the answer) and the answer crosses
    // back (1000): 2210. The node's work (1000) is done by 1100, so 1110 are idle.
    let (sim, counters) = scripted(&[probe(1)], 0);
    let report = sim.last_run().unwrap();
    assert_eq!(report.elapsed_ns, 2_210 + 10, "then a step without nodes finishes");
    assert_eq!(report.idle_ns[0], 1_110 + (report.end_ns - report.elapsed_ns), "and idle while processor 1 finishes");
    assert_eq!(report.busy_ns[1], 10 + 110 + 10, "the owner served the request between its two steps without nodes");
    let p = counters.snapshot();
    assert_eq!((p[0].sent[MessageKind::TtRequest.index()], p[1].received[MessageKind::TtRequest.index()]), (1, 1));
    assert_eq!((p[1].sent[MessageKind::TtAnswer.index()], p[0].received[MessageKind::TtAnswer.index()]), (1, 1));
    let waits: Vec<u64> = sim.trace().unwrap().events().iter().filter_map(|e| match *e {
        Event::State { t, p: 0, state: ProcessorState::Waiting, .. } => Some(t),
        _ => None,
    }).collect();
    assert_eq!(waits, [1_100], "the stall is traced");
    // Accesses to its own part cost nothing more than the node.
    let (sim, counters) = scripted(&[probe(0), store(0)], 0);
    assert_eq!(sim.last_run().unwrap().elapsed_ns, 2_000 + 10);
    assert_eq!(counters.snapshot()[0].sent, [0; MessageKind::COUNT]);
    // A store is sent after the node's work and not waited for.
    let (sim, counters) = scripted(&[store(1)], 0);
    assert_eq!(sim.last_run().unwrap().elapsed_ns, 1_000 + 100 + 10);
    assert_eq!(counters.snapshot()[1].received[MessageKind::TtPut.index()], 1);
    assert_eq!(sim.last_run().unwrap().busy_ns[1], 10 + 10 + 10, "the owner stored it between its two steps");
}

#[test]
fn serving_the_table_interrupts_a_busy_owner() {
    // The owner works 10 nodes (10 µs); the request reaches it at 1100 while it works: its
    // answer leaves at once after serving (110), and its own work ends 110 later.
    let (sim, _) = scripted(&[Access { kind: AccessKind::Probe, hash: held_by(1) }], 10);
    let report = sim.last_run().unwrap();
    assert_eq!(report.elapsed_ns, 2_210 + 10);
    assert_eq!(report.busy_ns[1], 10_000 + 110 + 10, "its nodes, the service, and its last step");
    assert_eq!(report.busy_ns[1] + report.idle_ns[1], report.end_ns);
    assert_eq!(report.busy_ns[0] + report.idle_ns[0], report.end_ns);
}

/// On a machine whose program waited for its reads (StarTech's CM-5), the node's work does
/// not hide the lookup's round trip: the request leaves after the work.
#[test]
fn a_machine_that_waits_for_its_reads_adds_the_round_trip_to_the_work() {
    let probe = Access { kind: AccessKind::Probe, hash: held_by(1) };
    // Work 1000, the request's send overhead (100), a link (1000), the owner's service
    // (10 + 100) and the link back (1000): 3210, then a step without nodes.
    let waiting = Preset { overlaps_table_reads: false, ..LAB };
    let (sim, _) = scripted_on(waiting, &[probe], 0);
    let report = sim.last_run().unwrap();
    assert_eq!(report.elapsed_ns, 3_210 + 10);
    assert_eq!(report.idle_ns[0], 2_110 + (report.end_ns - report.elapsed_ns), "idle from the end of its work to the answer");
    const { assert!(!presets::CM5.overlaps_table_reads && presets::T800.overlaps_table_reads) };
}

/// Zugzwang's Figure 3: one searcher among processors that search nothing and only hold
/// their parts of the distributed table. Its lookups travel to the owners and are
/// answered, the owners visit no node, the value is the lone searcher's, and the
/// distance costs it nodes per second.
#[test]
fn a_lone_searcher_among_idle_owners_pays_for_the_tables_distance() {
    let board = boards("bratko-kopec.epd", 1).remove(0);
    let settings = pure();
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
    let run = |p: usize| {
        let mut sim = Sim::new(presets::T800, Kind::DeBruijn, p, 5).unwrap();
        let tables = Tables::sized(Placement::Distributed, TableSize::EntriesEach(20_000), p).unwrap();
        let counters = Counters::new(p);
        let mut searcher = Searcher::new(tables.of_processor(0).clone());
        let result = serial_among_idle_owners(&mut sim, &mut searcher, &tables, &task, &counters);
        let elapsed_ns = sim.last_run().unwrap().elapsed_ns;
        (result.score, result.nodes as f64 / elapsed_ns as f64, counters.snapshot())
    };
    let (alone, alone_speed, _) = run(1);
    let (among, among_speed, processors) = run(16);
    assert_eq!(among, alone, "pure mode: the same value wherever the entries live");
    assert!(processors[0].nodes > 0 && processors[1..].iter().all(|c| c.nodes == 0), "only processor 0 searches");
    assert!(processors[0].sent[MessageKind::TtRequest.index()] > 0, "lookups travel to the owners");
    assert!(processors[1..].iter().filter(|c| c.sent[MessageKind::TtAnswer.index()] > 0).count() > 8, "most owners answer");
    assert!(among_speed < alone_speed, "the table's distance costs the searcher: {among_speed} against {alone_speed} nodes/ns");
}
