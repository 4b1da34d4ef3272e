//! The classroom preset's sources and its check (docs/class.md, "The classroom preset").
//! A benchmark, not a test: it prints what it measured.
//!
//! `cargo run --release --example classroom constants` (after `cargo build --release`):
//! the constants of `machine::sim::presets::CLASSROOM*` over the real relay on this
//! machine — a frame's one-way time through it at 0, 10 and 50 ms of injected delay, what
//! sending a frame costs the sender, the serial search's node rate, and how long the relay
//! takes to tell the others that a member closed its connection or fell silent.
//!
//! `cargo run --release --example classroom predict [DEPTH] [POSITIONS]`: YBWC to DEPTH
//! (13) on Bratko-Kopec 2 to POSITIONS+1 (3 positions), the classroom presets' predicted
//! time to depth for 1 to 32 processors beside the measured time of 1, 2 and 4 native
//! processors (`meshmate join` processes) over the real relay, as a markdown table.
//!
//! `cargo run --release --example classroom profile [DEPTH] [POSITIONS] [DELAY_MS]
//! [PROCESSORS]`: where a measured class's time goes. YBWC to DEPTH (13) on Bratko-Kopec
//! 2 to POSITIONS+1 (3) through the relay at DELAY_MS (0, 10 or 50; 10) on PROCESSORS (2):
//! each processor's nodes, busy and idle seconds and the messages sent, measured and
//! predicted, the prediction also at the node rate the serial run measured beside it and
//! at the rates the class's own processors ran at (this machine's cores are shared: the
//! rates move with the load).

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::cluster::link::{Arrival, Link};
use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::frame::{addressed, frame, FrameKind};
use meshmate::machine::sim::{presets, Preset, Sim};
use meshmate::machine::{Cluster, Counters, MessageKind, Threads};
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchSettings, Task};
use meshmate::tt::{Placement, Tables, TranspositionTable};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

#[path = "shared/relay_process.rs"]
mod relay_process;
use relay_process::{Relay, MESHMATE};

type Socket = WebSocket<TcpStream>;

/// The injected delays per hop a class is predicted and measured at (the relay's `--delay-ms`).
const DELAYS_MS: [u64; 3] = [0, 10, 50];

/// Each processor's table, as `meshmate join` sizes its own (the UCI default).
const HASH_MIB: usize = 16;


/// A relay holding each frame `delay_ms` a hop, that gives a silent member up after
/// `lost_after_ms`.
fn start_relay(delay_ms: u64, lost_after_ms: u64) -> Relay {
    Relay::start(&["--delay-ms", &delay_ms.to_string(), "--lost-after-ms", &lost_after_ms.to_string()])
}

/// An owner and `members` members of one session, the search started.
fn session(relay: &Relay, members: usize) -> (RelayLink, Vec<RelayLink>) {
    let mut owner = RelayLink::create(&relay.url, &relay.token).unwrap();
    let others: Vec<RelayLink> = (0..members).map(|_| RelayLink::join(&relay.url, owner.code()).unwrap()).collect();
    owner.wait_for_members(members, Duration::from_secs(10)).unwrap();
    assert_eq!(owner.start().unwrap(), members + 1);
    (owner, others)
}

/// Waits for the next arrival as a waiting processor does (`cluster::processor`): blocked
/// on the link, looking again every millisecond.
fn next_arrival(link: &mut RelayLink) -> Arrival {
    loop {
        if let Some(arrival) = link.receive() {
            return arrival;
        }
        link.await_arrival(Duration::from_millis(1));
    }
}

/// A program frame of a work message's size (Bratko-Kopec's WORK is 40-90 bytes).
fn program_frame(link: &mut RelayLink) -> Vec<u8> {
    frame(FrameKind::Program, link.next_search(0), &[7; 64])
}

/// Median and the 10th and 90th percentiles of `samples`, in microseconds.
fn spread(mut samples: Vec<f64>) -> (f64, f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.1), at(0.9))
}

/// One-way times of a frame through a relay with `delay_ms` injected: half the round
/// trips of `rounds` ping-pongs between processors 0 and 1, in microseconds.
fn one_way_us(delay_ms: u64, rounds: usize) -> Vec<f64> {
    let relay = start_relay(delay_ms, 10_000);
    let (mut owner, mut others) = session(&relay, 1);
    let mut student = others.pop().unwrap();
    let echo = std::thread::spawn(move || {
        for _ in 0..rounds + 1 {
            if let Arrival::Frame(_) = next_arrival(&mut student) {
                let pong = program_frame(&mut student);
                student.send(0, pong);
            }
        }
    });
    let mut samples = Vec::new();
    for round in 0..rounds + 1 {
        let ping = program_frame(&mut owner);
        let sent = Instant::now();
        owner.send(1, ping);
        while !matches!(next_arrival(&mut owner), Arrival::Frame(_)) {}
        // The first round trip also opens the path: not counted.
        if round > 0 {
            samples.push(sent.elapsed().as_secs_f64() * 1e6 / 2.0);
        }
    }
    echo.join().unwrap();
    samples
}

/// One-way times through a relay with `delay_ms` injected between two bare WebSockets
/// that block in read (as a tab's event loop waits): the relay's own part of a hop,
/// in microseconds.
fn bare_one_way_us(delay_ms: u64, rounds: usize) -> Vec<f64> {
    let relay = start_relay(delay_ms, 10_000);
    let mut owner = raw_socket(&relay.url);
    owner.send(Message::text(format!(r#"{{"type":"create","token":"{}"}}"#, relay.token))).unwrap();
    let code = read_text(&mut owner, "created")["code"].as_str().unwrap().to_string();
    let mut student = raw_socket(&relay.url);
    student.send(Message::text(format!(r#"{{"type":"join","code":"{code}"}}"#))).unwrap();
    read_text(&mut student, "joined");
    owner.send(Message::text(r#"{"type":"start"}"#)).unwrap();
    let search = read_text(&mut owner, "search")["search"].as_u64().unwrap() as u32;
    read_text(&mut student, "search");
    let (ping, pong) = (addressed(1, &frame(FrameKind::Program, search, &[7; 64])), addressed(0, &frame(FrameKind::Program, search, &[7; 64])));
    (0..rounds + 1)
        .map(|_| {
            let sent = Instant::now();
            owner.send(Message::binary(ping.clone())).unwrap();
            read_binary(&mut student);
            student.send(Message::binary(pong.clone())).unwrap();
            read_binary(&mut owner);
            sent.elapsed().as_secs_f64() * 1e6 / 2.0
        })
        .skip(1)
        .collect()
}

/// Reads until a text of type `kind` comes.
fn read_text(socket: &mut Socket, kind: &str) -> serde_json::Value {
    loop {
        if let Message::Text(text) = socket.read().unwrap() {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// Reads until a frame comes.
fn read_binary(socket: &mut Socket) {
    while !socket.read().unwrap().is_binary() {}
}

/// What handing one frame to the relay link costs the sending processor, in
/// microseconds per frame over bursts of 100 (the link's own thread writes the socket).
fn send_cost_us() -> Vec<f64> {
    let relay = start_relay(0, 10_000);
    let (mut owner, _others) = session(&relay, 1);
    (0..50)
        .map(|_| {
            let frames: Vec<Vec<u8>> = (0..100).map(|_| program_frame(&mut owner)).collect();
            let started = Instant::now();
            for f in frames {
                owner.send(1, f);
            }
            let us = started.elapsed().as_secs_f64() * 1e6 / 100.0;
            std::thread::sleep(Duration::from_millis(20));
            us
        })
        .collect()
}

/// How long after a member leaves the owner hears it: `silent` members stop sending
/// (timed from their last frame), the others close their connection.
fn loss_notice_ms(silent: bool, lost_after_ms: u64, rounds: usize) -> Vec<f64> {
    let relay = start_relay(0, lost_after_ms);
    let mut owner = RelayLink::create(&relay.url, &relay.token).unwrap();
    (0..rounds)
        .map(|_| {
            let (closing, _silent) = if silent { (None, Some(raw_member(&relay.url, owner.code()))) } else { (Some(RelayLink::join(&relay.url, owner.code()).unwrap()), None) };
            let last_said = Instant::now();
            owner.wait_for_members(1, Duration::from_secs(10)).unwrap();
            owner.start().unwrap();
            let left = if silent { last_said } else { Instant::now() };
            drop(closing);
            while !matches!(next_arrival(&mut owner), Arrival::Lost(1)) {}
            let ms = left.elapsed().as_secs_f64() * 1e3;
            owner.search_over();
            std::thread::sleep(Duration::from_millis(100));
            ms
        })
        .collect()
}

/// A member that joins with a bare WebSocket and then says nothing (a frozen tab).
fn raw_member(url: &str, code: &str) -> Socket {
    let mut socket = raw_socket(url);
    socket.send(Message::text(format!(r#"{{"type":"join","code":"{code}"}}"#))).unwrap();
    socket
}

/// A bare WebSocket to the relay at `url`, without Nagle's delay (as the relay link's).
fn raw_socket(url: &str) -> Socket {
    let address = url.trim_start_matches("ws://").split('/').next().unwrap();
    let stream = TcpStream::connect(address).unwrap();
    stream.set_nodelay(true).unwrap();
    tungstenite::client(url, stream).unwrap().0
}

fn bratko_kopec(skip: usize, count: usize) -> Vec<Board> {
    let path = [env!("CARGO_MANIFEST_DIR"), "..", "shared", "data", "bratko-kopec.epd"].iter().collect::<std::path::PathBuf>();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_epd_file(&text).unwrap().into_iter().skip(skip).take(count).map(|e| e.board).collect()
}

/// The serial search's nodes a second on this machine, YBWC's setup (Bratko-Kopec 2-4).
fn node_rate(depth: i32) -> f64 {
    let (mut nodes, mut seconds) = (0, 0.0);
    for board in bratko_kopec(1, 3) {
        let tt = Arc::new(TranspositionTable::try_new(HASH_MIB).unwrap());
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let task = Task { board: &board, history: &[], limits: &limits, settings: &SearchSettings::default() };
        let started = Instant::now();
        let result = search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task }, &Control::default(), &mut NoReports, &Counters::new(1));
        seconds += started.elapsed().as_secs_f64();
        nodes += result.nodes;
    }
    nodes as f64 / seconds
}

fn constants() {
    println!("at {}", commit());
    println!("| measure | median | 10 % | 90 % | samples |");
    println!("|---|---|---|---|---|");
    let row = |name: &str, unit: &str, samples: Vec<f64>| {
        let n = samples.len();
        let (median, low, high) = spread(samples);
        println!("| {name} | {median:.1} {unit} | {low:.1} | {high:.1} | {n} |");
    };
    for delay_ms in DELAYS_MS {
        let rounds = if delay_ms == 0 { 400 } else { 40 };
        row(&format!("one-way frame, relay links, --delay-ms {delay_ms}"), "µs", one_way_us(delay_ms, rounds));
        row(&format!("one-way frame, bare WebSockets, --delay-ms {delay_ms}"), "µs", bare_one_way_us(delay_ms, rounds));
    }
    row("sending a frame (the processor's part)", "µs", send_cost_us());
    row("a closed member heard lost", "ms", loss_notice_ms(false, 10_000, 10));
    row("a silent member heard lost (default --lost-after-ms)", "ms", loss_notice_ms(true, 10_000, 1));
    println!("serial search, Bratko-Kopec 2-4 to 13 plies: {:.0} nodes/s", node_rate(13));
}

/// The commit measured, as `git` names it (with `-dirty` if the tree has changes).
fn commit() -> String {
    let out = Command::new("git").args(["describe", "--always", "--dirty"]).output().expect("git");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The classroom preset with `delay_ms` of injected delay.
fn classroom(delay_ms: u64) -> Preset {
    match delay_ms {
        0 => presets::CLASSROOM,
        10 => presets::CLASSROOM_10MS,
        50 => presets::CLASSROOM_50MS,
        _ => unreachable!("a classroom preset for each delay of DELAYS_MS"),
    }
}

/// Time to depth in seconds, the subproblems given away (WORK messages) and what each
/// processor did, summed over the positions of a run.
#[derive(Default)]
struct Tally {
    seconds: f64,
    works: u64,
    /// Per processor: nodes, busy and idle seconds.
    processors: Vec<(u64, f64, f64)>,
    /// Messages sent, all processors together, by kind.
    sent: [u64; MessageKind::COUNT],
}

impl Tally {
    fn add(&mut self, seconds: f64, counters: &Counters, p: usize) {
        self.seconds += seconds;
        let snapshot = counters.snapshot();
        self.works += snapshot.iter().map(|c| c.sent[MessageKind::Work.index()]).sum::<u64>();
        self.processors.resize(p, (0, 0.0, 0.0));
        for (tally, c) in self.processors.iter_mut().zip(&snapshot) {
            *tally = (tally.0 + c.nodes, tally.1 + c.busy_us as f64 / 1e6, tally.2 + c.idle_us as f64 / 1e6);
        }
        for c in &snapshot[..p] {
            for (sum, sent) in self.sent.iter_mut().zip(c.sent) {
                *sum += sent;
            }
        }
    }

    fn cell(&self) -> String {
        format!("{:.2} ({})", self.seconds, self.works)
    }

    /// Each processor's nodes, busy and idle seconds, then the messages sent by kind.
    fn details(&self) -> String {
        let processors: Vec<String> = self.processors.iter().enumerate().map(|(i, (nodes, busy, idle))| format!("p{i} {nodes} nodes, busy {busy:.2} s, idle {idle:.2} s")).collect();
        let sent: Vec<String> = MessageKind::ALL.iter().filter(|k| self.sent[k.index()] > 0).map(|k| format!("{} {}", k.name(), self.sent[k.index()])).collect();
        format!("{:.2} s; {}; sent: {}", self.seconds, processors.join("; "), sent.join(", "))
    }
}

/// The predicted time to depth of YBWC on `p` processors of `preset` over `boards`: each
/// processor with a table of its own, as a class's.
fn predicted(preset: Preset, p: usize, boards: &[Board], depth: i32) -> Tally {
    predicted_with_seed(preset, p, boards, depth, 1)
}

/// [`predicted`] on the simulator seeded with `seed` (its processors' node times vary by
/// ±10 % with it, as real nodes do).
fn predicted_with_seed(preset: Preset, p: usize, boards: &[Board], depth: i32, seed: u64) -> Tally {
    let mut sim = Sim::new(preset, preset.net, p, seed).unwrap();
    let counters = Counters::new(p);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut searchers = Vec::new();
    let mut tally = Tally::default();
    for board in boards {
        let tables = Tables::new(Placement::Local, HASH_MIB * p, p).unwrap();
        let task = Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() };
        search(&mut sim, &mut searchers, tables, &SearchRequest { algorithm: Algorithm::Ybwc, threads: p, task }, &Control::default(), &mut NoReports, &counters);
        tally.add(sim.last_run().unwrap().elapsed_ns as f64 / 1e9, &counters, p);
    }
    tally
}

/// The measured time to depth of YBWC on each of `counts` processors of a class at
/// `delay_ms` over `boards` (processor 0 here, the others `meshmate join` processes).
fn measured(delay_ms: u64, boards: &[Board], depth: i32, counts: &[usize]) -> Vec<Tally> {
    let relay = start_relay(delay_ms, 10_000);
    let link = RelayLink::create(&relay.url, &relay.token).unwrap();
    let code = link.code().to_string();
    let mut lecturer = Cluster::new(link).unwrap();
    let tt = Arc::new(TranspositionTable::try_new(HASH_MIB).unwrap());
    let (counters, mut searchers) = (Counters::new(counts.iter().copied().max().unwrap_or(1)), Vec::new());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut students: Vec<Child> = Vec::new();
    let mut times = Vec::new();
    for &p in counts {
        while students.len() < p - 1 {
            students.push(Command::new(MESHMATE).args(["join", &relay.url, &code]).stderr(Stdio::null()).spawn().unwrap());
        }
        lecturer.link_mut().wait_for_members(p - 1, Duration::from_secs(20)).unwrap();
        let mut tally = Tally::default();
        for board in boards {
            assert_eq!(lecturer.link_mut().start().unwrap(), p);
            tt.clear();
            let task = Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() };
            let started = Instant::now();
            search(&mut lecturer, &mut searchers, &tt, &SearchRequest { algorithm: Algorithm::Ybwc, threads: p, task }, &Control::default(), &mut NoReports, &counters);
            tally.add(started.elapsed().as_secs_f64(), &counters, p);
        }
        times.push(tally);
    }
    for mut student in students {
        let _ = student.kill();
        let _ = student.wait();
    }
    times
}

fn predict(depth: i32, positions: usize) {
    let boards = bratko_kopec(1, positions);
    println!("YBWC, {depth} plies, Bratko-Kopec 2-{}, time to depth in seconds summed over the positions (subproblems given away); at {}", positions + 1, commit());
    println!("| delay | source | 1 | 2 | 4 | 8 | 16 | 32 |");
    println!("|---|---|---|---|---|---|---|---|");
    for delay_ms in DELAYS_MS {
        let predicted: Vec<String> = [1, 2, 4, 8, 16, 32].iter().map(|&p| predicted(classroom(delay_ms), p, &boards, depth).cell()).collect();
        println!("| {delay_ms} ms | predicted ({}) | {} |", classroom(delay_ms).name, predicted.join(" | "));
        let measured: Vec<String> = measured(delay_ms, &boards, depth, &[1, 2, 4]).iter().map(Tally::cell).collect();
        println!("| {delay_ms} ms | measured | {} | | | |", measured.join(" | "));
    }
}

/// One class of `p` processors at `delay_ms`, measured and predicted side by side, with
/// what each processor did and the messages sent: where the measured class's time goes.
fn profile(depth: i32, positions: usize, delay_ms: u64, p: usize) {
    let boards = bratko_kopec(1, positions);
    println!("YBWC, {depth} plies, Bratko-Kopec 2-{}, {p} processors, {delay_ms} ms injected; at {}", positions + 1, commit());
    println!("predicted ({}): {}", classroom(delay_ms).name, predicted(classroom(delay_ms), p, &boards, depth).details());
    let measured = measured(delay_ms, &boards, depth, &[1, p]);
    for (p, tally) in [1, p].iter().zip(&measured) {
        println!("measured, {p}: {}", tally.details());
    }
    let serial_rate = at_node_rates(classroom(delay_ms), &measured[0]);
    println!("predicted at the serial run's node rate ({:?} ns a node): {}", serial_rate.node_ns, predicted(serial_rate, p, &boards, depth).details());
    let own_rates = at_node_rates(classroom(delay_ms), &measured[1]);
    println!("predicted at the rates its processors ran at ({:?} ns a node): {}", own_rates.node_ns, predicted(own_rates, p, &boards, depth).details());
    for (name, preset) in [(classroom(delay_ms).name, classroom(delay_ms)), ("the rates its processors ran at", own_rates)] {
        println!("predicted ({name}) with seeds 1-{SEEDS}: {}", over_seeds(preset, p, &boards, depth));
    }
}

/// Seeds of the simulator a prediction is taken over: which subproblems are given away,
/// and so how many round trips processor 0 waits, turns on small differences in timing.
const SEEDS: u64 = 5;

/// The predicted times with seeds 1 to [`SEEDS`], their mean and range.
fn over_seeds(preset: Preset, p: usize, boards: &[Board], depth: i32) -> String {
    let times: Vec<f64> = (1..=SEEDS).map(|seed| predicted_with_seed(preset, p, boards, depth, seed).seconds).collect();
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let (low, high) = (times.iter().copied().fold(f64::MAX, f64::min), times.iter().copied().fold(0.0, f64::max));
    let each: Vec<String> = times.iter().map(|t| format!("{t:.2}")).collect();
    format!("{mean:.2} s mean, {low:.2}-{high:.2} ({})", each.join(", "))
}

/// `preset` with the node times the processors of the measured run `run` had (busy time
/// over nodes; a processor that searched nothing gets processor 0's): the rates of this
/// machine as loaded during the measurement, where processors and other work share two
/// cores.
fn at_node_rates(preset: Preset, run: &Tally) -> Preset {
    let ns = |&(nodes, busy_s, _): &(u64, f64, f64)| (nodes > 0).then(|| (busy_s * 1e9 / nodes as f64).round() as u64);
    let first = ns(&run.processors[0]).expect("processor 0 searched");
    let node_ns: Vec<u64> = run.processors.iter().map(|p| ns(p).unwrap_or(first)).collect();
    Preset { node_ns: Box::leak(node_ns.into_boxed_slice()), ..preset }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("constants") => constants(),
        Some("predict") => predict(number(1, 13) as i32, number(2, 3)),
        Some("profile") => profile(number(1, 13) as i32, number(2, 3), number(3, 10) as u64, number(4, 2)),
        _ => eprintln!("usage: classroom constants | classroom predict [DEPTH] [POSITIONS] | classroom profile [DEPTH] [POSITIONS] [DELAY_MS] [PROCESSORS]"),
    }
}
