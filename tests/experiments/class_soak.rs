//! The class soak (issue 69; docs/class.md, "Soak"): a `meshmate relay`, a native lecturer
//! (processor 0, `Cluster<RelayLink>`, here) and MEMBERS `meshmate join` processes run
//! SEARCHES consecutive Pure searches on loopback — YBWC, Jamboree and PV-splitting in
//! turn over a few Bratko-Kopec positions — while members are killed (SIGKILL, during a
//! search) and rejoin at random, a hostile member floods the relay with what no honest
//! processor sends, and strangers open connections without joining. A benchmark, not a
//! test: it prints what it measured, and exits with an error if a value differs from the
//! serial one, a search runs past [`HANG_AFTER`] or cannot start, the lecturer's machine
//! faults, a member fails, the relay lets a flood past its rate cap or a stranger stay, or
//! the relay's peak memory passes [`RSS_BOUND_MIB`].
//!
//! `cargo run --release --example class-soak [SEARCHES] [MEMBERS] [SECONDS]` (after
//! `cargo build --release`; 200 searches, 8 members, no search started after 600 s).

use meshmate::chess::{parse_epd_file, Board};
use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::frame::{addressed, frame, FrameKind};
use meshmate::machine::{Cluster, Counters, MessageKind, Threads};
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::random::Random;
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchResult, SearchSettings, Task};
use meshmate::tt::TranspositionTable;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::ops::Range;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

#[path = "shared/relay_process.rs"]
mod relay_process;
use relay_process::{Relay, MESHMATE};

type Socket = WebSocket<TcpStream>;

/// The algorithms a class runs, in turn.
const ALGORITHMS: [Algorithm; 3] = [Algorithm::Ybwc, Algorithm::Jamboree, Algorithm::PvSplit];

/// Bratko-Kopec 2 to 5 (the first ends in a mate found at once): with three algorithms,
/// every pairing comes round every twelve searches.
const POSITIONS: Range<usize> = 1..5;

/// Plies: a Pure search of a fraction of a second on one processor here.
const DEPTH: i32 = 6;

/// A search still running after this is stopped and counted as hung.
const HANG_AFTER: Duration = Duration::from_secs(60);

/// The relay's resident memory may not pass this: its memory with a busy class (about
/// 24 MiB, relay-load) plus one session's kept trace at its cap (200,000 events, about
/// 22 MB), with room for the hostile client's connections and queues.
const RSS_BOUND_MIB: u64 = 96;

/// The seed of every random choice (whom to kill, when, what the hostile client sends).
const SEED: u64 = 69;

/// Time between kills (only while a search runs), and from a kill to the new member's start.
const KILL_EVERY_MS: Range<u64> = 300..3_000;
const REJOIN_AFTER_MS: Range<u64> = 100..500;

/// How long a hostile round may flood before it gives up, and the pause between rounds.
const ATTACK_FOR: Duration = Duration::from_secs(5);
const ATTACK_EVERY_MS: Range<u64> = 1_000..3_000;

/// Strangers that open connections at once without joining (more than the relay's
/// `--max-unjoined`, 64), and how often they come back.
const STRANGERS: usize = 80;
const STRANGERS_EVERY: Duration = Duration::from_secs(60);

/// The relay's `--lost-after-ms` (its default): also how long a stranger is let stay.
const LOST_AFTER: Duration = Duration::from_secs(10);

impl Relay {
    /// One of its memory figures (`VmRSS`, `VmHWM`) in KiB.
    fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':')?.split_whitespace().next()?.parse().ok()).unwrap_or(0)
    }
}

/// The class's `meshmate join` processes, killed when dropped.
struct Members(Vec<Child>);

impl Drop for Members {
    fn drop(&mut self) {
        for child in self.0.iter_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts a `meshmate join` and waits for it to say it joined; why not, if it did not (the
/// relay refused it at the door, say). What it says later goes to standard error.
fn join(url: &str, code: &str) -> Result<Child, String> {
    let mut child = Command::new(MESHMATE).args(["join", url, code]).stderr(Stdio::piped()).spawn().map_err(|e| e.to_string())?;
    let (said, first) = channel();
    let (stderr, pid) = (child.stderr.take().unwrap(), child.id());
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stderr).lines().map_while(Result::ok);
        let _ = said.send(lines.next().unwrap_or_default());
        for line in lines.filter(|l| !l.starts_with("the class has ended")) {
            eprintln!("member {pid}: {line}");
        }
    });
    match first.recv_timeout(Duration::from_secs(20)) {
        Ok(line) if line.starts_with("joined class") => Ok(child),
        said => {
            let _ = child.kill();
            let _ = child.wait();
            Err(said.unwrap_or_else(|_| "no word within 20 s".into()))
        }
    }
}

/// A number drawn from `range`.
fn draw(random: &mut Random, range: Range<u64>) -> u64 {
    range.start + random.next_u64() % (range.end - range.start)
}

/// Sleeps `ms`, or less if `stop` is set meanwhile.
fn nap(ms: u64, stop: &AtomicBool) {
    let until = Instant::now() + Duration::from_millis(ms);
    while !stop.load(Relaxed) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What the churn did.
#[derive(Default)]
struct Churn {
    kills: u64,
    /// Kills that came while processor 0 was searching.
    during_search: u64,
    rejoins: u64,
    /// Joins the relay turned away (tried again half a second later), and the last reason.
    refused: u64,
    last_refusal: String,
    /// Members that ended without being killed, with their exit status.
    exited: Vec<String>,
}

/// Kills a random member now and then while a search runs and starts another after a
/// short pause, until `stop`; replaces members that end by themselves too.
fn churn(url: &str, code: &str, mut members: Members, searching: &AtomicBool, stop: &AtomicBool) -> Churn {
    let mut random = Random::new(SEED, 1);
    let mut churn = Churn::default();
    let target = members.0.len();
    while !stop.load(Relaxed) {
        nap(draw(&mut random, KILL_EVERY_MS), stop);
        members.0.retain_mut(|child| match child.try_wait() {
            Ok(Some(status)) => {
                churn.exited.push(status.to_string());
                false
            }
            _ => true,
        });
        if searching.load(Relaxed) && !members.0.is_empty() {
            let mut child = members.0.swap_remove(random.next_u64() as usize % members.0.len());
            let _ = child.kill();
            let _ = child.wait();
            churn.kills += 1;
            churn.during_search += u64::from(searching.load(Relaxed));
            nap(draw(&mut random, REJOIN_AFTER_MS), stop);
        }
        while members.0.len() < target && !stop.load(Relaxed) {
            match join(url, code) {
                Ok(child) => {
                    members.0.push(child);
                    churn.rejoins += 1;
                }
                Err(why) => {
                    churn.refused += 1;
                    churn.last_refusal = why;
                    nap(500, stop);
                }
            }
        }
    }
    churn
}

/// A bare WebSocket to the relay at `url`.
fn connect(url: &str) -> Result<Socket, String> {
    let address = url.trim_start_matches("ws://").split('/').next().unwrap();
    let stream = TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    match tungstenite::client(url, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => Err(format!("refused with {}", response.status())),
        Err(e) => Err(e.to_string()),
    }
}

/// How the relay ended the connection, if it has: its error message and close reason.
/// `None` while it is open (nothing to read within the socket's read timeout).
fn ending(socket: &mut Socket) -> Option<String> {
    let mut said = String::new();
    loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap_or_default();
                if value["type"] == "error" {
                    said = value["message"].as_str().unwrap_or_default().to_string();
                }
            }
            Ok(Message::Close(close)) => return Some(close.map_or(said, |c| c.reason.to_string())),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return (!said.is_empty()).then_some(said);
            }
            Err(e) => return Some(if said.is_empty() { format!("connection ended: {e}") } else { said }),
        }
    }
}

/// What the hostile member sends, each message over and over until it is cut off.
#[derive(Clone, Copy, Debug)]
enum Attack {
    /// Frames of every kind processor 0 takes from a member (program, done, nodes, table)
    /// with random bodies; a program's first byte is no message's tag, so none is a
    /// well-formed lie about a subtree (which nothing stops: docs/class.md).
    GarbageToProcessor0,
    /// Binary messages of random bytes: headers cut short, unknown kinds, any address.
    RandomBytes,
    /// Text that is not JSON.
    NotJson,
    /// A frame longer than `--max-frame`.
    Oversized,
    /// A START frame, which only processor 0 sends.
    OwnerOnlyFrame,
    /// The owner's requests: start, end, expel.
    OwnerRequests,
    /// A beat padded past the 4096 bytes a text may have.
    LongText,
}

impl Attack {
    const ALL: [Attack; 7] = [Attack::GarbageToProcessor0, Attack::RandomBytes, Attack::NotJson, Attack::Oversized, Attack::OwnerOnlyFrame, Attack::OwnerRequests, Attack::LongText];

    /// The next message, for a member that is processor `me` of `search` (`None`: waiting).
    fn message(self, search: Option<(u32, usize)>, random: &mut Random) -> Message {
        let (number, me) = search.unwrap_or((0, 1));
        let bytes = |random: &mut Random, len: u64| (0..len).map(|_| random.next_u64() as u8).collect::<Vec<u8>>();
        match self {
            Attack::GarbageToProcessor0 => {
                const KINDS: [FrameKind; 6] = [FrameKind::Program, FrameKind::Done, FrameKind::Nodes, FrameKind::TableRequest, FrameKind::TableAnswer, FrameKind::TablePut];
                let kind = KINDS[random.next_u64() as usize % KINDS.len()];
                let len = draw(random, 0..64);
                let mut body = bytes(random, len);
                if kind == FrameKind::Program {
                    body.insert(0, 200 + (random.next_u64() % 56) as u8);
                }
                Message::binary(addressed(0, &frame(kind, number, &body)))
            }
            Attack::RandomBytes => {
                let len = draw(random, 0..40);
                Message::binary(bytes(random, len))
            }
            Attack::NotJson => Message::text(format!("beat{}", random.next_u64())),
            Attack::Oversized => Message::binary(addressed(0, &frame(FrameKind::Program, number, &[200; 70_000]))),
            Attack::OwnerOnlyFrame => Message::binary(addressed(usize::from(me == 0), &frame(FrameKind::Start, number, &[]))),
            Attack::OwnerRequests => {
                let requests = [r#"{"type":"start"}"#, r#"{"type":"end"}"#, r#"{"type":"expel","processor":1,"reason":"x"}"#];
                Message::text(requests[random.next_u64() as usize % 3])
            }
            Attack::LongText => Message::text(format!(r#"{{"type":"beat","pad":"{}"}}"#, "x".repeat(5_000))),
        }
    }
}

/// The relay's `--max-rate` (its default): messages a second one member may send, with a
/// burst of twice that.
const MAX_RATE: f64 = 5000.0;

/// One round of the hostile member.
struct Round {
    attack: Attack,
    /// Whether it was a processor of the running search when it attacked.
    processor: bool,
    sent: u64,
    /// How it was cut off (or refused at the door, or not cut off).
    ending: String,
    seconds: f64,
}

impl Round {
    /// Whether it sent past the relay's rate cap and was still not cut off.
    fn outlived_the_rate_cap(&self) -> bool {
        self.ending.starts_with("not cut off") && self.sent as f64 > MAX_RATE * (2.0 + self.seconds)
    }
}

/// Joins, waits up to three seconds for a search to take part in, then sends `attack`
/// until the relay cuts it off or [`ATTACK_FOR`] has passed.
fn attack_round(url: &str, code: &str, attack: Attack, random: &mut Random) -> Round {
    let mut round = Round { attack, processor: false, sent: 0, ending: String::new(), seconds: 0.0 };
    let mut socket = match connect(url) {
        Ok(socket) => socket,
        Err(why) => {
            round.ending = format!("at the door: {why}");
            return round;
        }
    };
    let _ = socket.send(Message::text(format!(r#"{{"type":"join","code":"{code}"}}"#)));
    let _ = socket.get_mut().set_read_timeout(Some(Duration::from_millis(100)));
    let _ = socket.get_mut().set_write_timeout(Some(Duration::from_secs(2)));
    let mut search = None;
    let waiting = Instant::now();
    while search.is_none() && waiting.elapsed() < Duration::from_secs(3) {
        if let Ok(Message::Text(text)) = socket.read() {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if value["type"] == "search" {
                search = value["search"].as_u64().zip(value["processor"].as_u64()).map(|(s, p)| (s as u32, p as usize));
            }
        }
    }
    round.processor = search.is_some();
    let _ = socket.get_mut().set_read_timeout(Some(Duration::from_millis(1)));
    let started = Instant::now();
    let mut ended = None;
    while ended.is_none() && started.elapsed() < ATTACK_FOR {
        if socket.write(attack.message(search, random)).is_err() {
            break;
        }
        round.sent += 1;
        // Each of the first messages goes out alone (most attacks are cut off at the
        // first), then batches of 64, as fast as a flood goes.
        if round.sent < 64 || round.sent.is_multiple_of(64) {
            if socket.flush().is_err() {
                break;
            }
            ended = ending(&mut socket);
        }
    }
    if ended.is_none() {
        let _ = socket.get_mut().set_read_timeout(Some(Duration::from_secs(2)));
        ended = ending(&mut socket);
    }
    round.seconds = started.elapsed().as_secs_f64();
    round.ending = ended.unwrap_or_else(|| format!("not cut off within {ATTACK_FOR:?}"));
    round
}

/// The hostile member: attack rounds in turn, a pause between, until `stop`.
fn hostile(url: &str, code: &str, stop: &AtomicBool) -> Vec<Round> {
    let mut random = Random::new(SEED, 2);
    let mut rounds = Vec::new();
    for attack in Attack::ALL.iter().cycle() {
        if stop.load(Relaxed) {
            break;
        }
        rounds.push(attack_round(url, code, *attack, &mut random));
        nap(draw(&mut random, ATTACK_EVERY_MS), stop);
    }
    rounds
}

/// What the strangers met.
#[derive(Default)]
struct Strangers {
    opened: u64,
    refused: u64,
    last_refusal: String,
    /// Closed by the relay for saying nothing that joins within `--lost-after-ms`.
    closed_for_silence: u64,
    /// Any other ending, with why.
    other: Vec<String>,
}

/// Strangers: [`STRANGERS`] connections at once that never join (every other one beats),
/// held until the relay closes them, every [`STRANGERS_EVERY`] until `stop`.
fn strangers(url: &str, stop: &AtomicBool) -> Strangers {
    let mut strangers = Strangers::default();
    while !stop.load(Relaxed) {
        let mut held = Vec::new();
        for i in 0..STRANGERS {
            match connect(url) {
                Ok(mut socket) => {
                    if i.is_multiple_of(2) {
                        let _ = socket.send(Message::text(r#"{"type":"beat"}"#));
                    }
                    held.push(socket);
                }
                Err(why) => {
                    strangers.refused += 1;
                    strangers.last_refusal = why;
                }
            }
        }
        strangers.opened += held.len() as u64;
        let came = Instant::now();
        for mut socket in held {
            let _ = socket.get_mut().set_read_timeout(Some((LOST_AFTER + Duration::from_secs(5)).saturating_sub(came.elapsed()).max(Duration::from_millis(1))));
            match ending(&mut socket) {
                Some(why) if why.contains("silent") => strangers.closed_for_silence += 1,
                why => strangers.other.push(why.unwrap_or_else(|| "still open".into())),
            }
        }
        nap(STRANGERS_EVERY.saturating_sub(came.elapsed()).as_millis() as u64, stop);
    }
    strangers
}

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

/// The serial searcher's value of `board`, and how long it took.
fn serial(board: &Board, limits: &Limits) -> (i32, f64) {
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let task = Task { board, history: &[], limits, settings: &pure() };
    let started = Instant::now();
    let result = search(&mut Threads::default(), &mut Vec::new(), &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task }, &Control::default(), &mut NoReports, &Counters::new(1));
    (result.score, started.elapsed().as_secs_f64())
}

fn bratko_kopec() -> Vec<Board> {
    let path = [env!("CARGO_MANIFEST_DIR"), "..", "shared", "data", "bratko-kopec.epd"].iter().collect::<std::path::PathBuf>();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let records = parse_epd_file(&text).unwrap();
    records[POSITIONS].iter().map(|e| e.board.clone()).collect()
}

/// The commit measured, as `git` names it (with `-dirty` if the tree has changes).
fn commit() -> String {
    let out = Command::new("git").args(["describe", "--always", "--dirty"]).output().expect("git");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// One search of the class.
struct Searched {
    algorithm: Algorithm,
    position: usize,
    processors: usize,
    score: i32,
    seconds: f64,
    hung: bool,
    /// The processors processor 0 heard were lost.
    losses: u64,
}

/// Processor 0's end of the class: its machine, table, searchers and counters.
struct Lecturer {
    cluster: Cluster<RelayLink>,
    tt: Arc<TranspositionTable>,
    searchers: Vec<meshmate::search::Searcher>,
    counters: Counters,
}

impl Lecturer {
    /// Starts a roster of every live member and searches `board`; a search still running
    /// after [`HANG_AFTER`] is stopped.
    fn search(&mut self, algorithm: Algorithm, board: &Board, limits: &Limits) -> Result<(usize, SearchResult, f64, bool), String> {
        let processors = self.cluster.link_mut().start()?;
        self.tt.clear();
        let started = Instant::now();
        let settings = pure();
        let task = Task { board, history: &[], limits, settings: &settings };
        let control = Control::default();
        let (done, finished) = channel::<()>();
        let result = std::thread::scope(|scope| {
            let control = &control;
            scope.spawn(move || {
                if finished.recv_timeout(HANG_AFTER).is_err() {
                    control.stop();
                }
            });
            let result = search(&mut self.cluster, &mut self.searchers, &self.tt, &SearchRequest { algorithm, threads: processors, task }, control, &mut NoReports, &self.counters);
            let _ = done.send(());
            result
        });
        Ok((processors, result, started.elapsed().as_secs_f64(), control.stopped()))
    }
}

/// Starts `count` members of the lecturer's class at the relay `url` and waits until the
/// lecturer sees them all; an error (the members started are ended) if they do not come.
fn gather(url: &str, lecturer: &mut Lecturer, count: usize) -> Result<Members, String> {
    let code = lecturer.cluster.link().code().to_string();
    let mut members = Members(Vec::new());
    for _ in 0..count {
        members.0.push(join(url, &code)?);
    }
    lecturer.cluster.link_mut().wait_for_members(count, Duration::from_secs(30))?;
    Ok(members)
}

/// Ends the run with `why` (what it was asked cannot be done), as a failed soak does not.
fn refuse(why: &str) -> ! {
    eprintln!("class-soak: {why}\nusage: class-soak [SEARCHES (200)] [MEMBERS (1-64, 8)] [SECONDS (600)]");
    std::process::exit(2);
}

/// The command line's `i`th number, `default` if it has none.
fn argument(args: &[String], i: usize, default: u64, allowed: Range<u64>) -> u64 {
    let Some(text) = args.get(i) else { return default };
    text.parse().ok().filter(|n| allowed.contains(n)).unwrap_or_else(|| refuse(&format!("'{text}': a number in {}..{} expected", allowed.start, allowed.end)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() > 3 {
        refuse("at most three numbers");
    }
    let searches = argument(&args, 0, 200, 0..1_000_000) as usize;
    let members = argument(&args, 1, 8, 1..65) as usize;
    let seconds = argument(&args, 2, 600, 0..1_000_000);
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let boards = bratko_kopec();
    println!("class soak at {}: {searches} Pure searches to {DEPTH} plies, {members} members, none started after {seconds} s", commit());
    let serial: Vec<i32> = boards
        .iter()
        .enumerate()
        .map(|(i, board)| {
            let (score, took) = serial(board, &limits);
            println!("serial value of BK.{:02}: {score} ({took:.2} s)", POSITIONS.start + i + 1);
            score
        })
        .collect();

    let relay = Relay::start(&["--lost-after-ms", &LOST_AFTER.as_millis().to_string()]);
    let at_start_kib = relay.memory_kib("VmRSS");
    let link = RelayLink::create(&relay.url, &relay.token).expect("the lecturer creates a class");
    let code = link.code().to_string();
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut lecturer = Lecturer { cluster: Cluster::new(link).expect("the owner is processor 0"), tt, searchers: Vec::new(), counters: Counters::new(32) };
    let class = match gather(&relay.url, &mut lecturer, members) {
        Ok(class) => class,
        Err(why) => {
            drop(relay);
            refuse(&format!("the class did not gather: {why}"))
        }
    };

    let (searching, stop) = (AtomicBool::new(false), AtomicBool::new(false));
    let mut peak_rss_kib = at_start_kib;
    let mut runs: Vec<Searched> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let started = Instant::now();
    let (churned, rounds, strangers) = std::thread::scope(|scope| {
        let (url, code) = (relay.url.as_str(), code.as_str());
        let churning = scope.spawn(|| churn(url, code, class, &searching, &stop));
        let attacking = scope.spawn(|| hostile(url, code, &stop));
        let crowding = scope.spawn(|| strangers(url, &stop));
        for i in 0..searches {
            if started.elapsed() > Duration::from_secs(seconds) {
                break;
            }
            let (algorithm, position) = (ALGORITHMS[i % ALGORITHMS.len()], i % boards.len());
            searching.store(true, Relaxed);
            let searched = lecturer.search(algorithm, &boards[position], &limits);
            searching.store(false, Relaxed);
            peak_rss_kib = peak_rss_kib.max(relay.memory_kib("VmRSS"));
            let (processors, result, seconds, hung) = match searched {
                Ok(searched) => searched,
                Err(why) => {
                    failures.push(format!("search {}: the relay did not start it: {why}", i + 1));
                    std::thread::sleep(Duration::from_millis(500));
                    continue;
                }
            };
            let losses = lecturer.counters.snapshot()[0].received[MessageKind::Lost.index()];
            let run = Searched { algorithm, position, processors, score: result.score, seconds, hung, losses };
            println!(
                "search {:3}: {:?} on BK.{:02}, {} processors: {} (serial {}) in {:.2} s{}",
                i + 1,
                run.algorithm,
                POSITIONS.start + position + 1,
                run.processors,
                run.score,
                serial[position],
                run.seconds,
                if hung { ", HUNG" } else { "" }
            );
            if hung {
                failures.push(format!("search {}: {algorithm:?} still running after {HANG_AFTER:?}", i + 1));
            } else if run.score != serial[position] {
                failures.push(format!("search {}: {algorithm:?} on BK.{:02} gave {}, the serial value is {}", i + 1, POSITIONS.start + position + 1, run.score, serial[position]));
            }
            runs.push(run);
            if let Some(fault) = lecturer.cluster.fault() {
                failures.push(format!("search {}: the lecturer's machine faulted: {fault}", i + 1));
                break;
            }
        }
        stop.store(true, Relaxed);
        (churning.join().expect("the churn"), attacking.join().expect("the hostile member"), crowding.join().expect("the strangers"))
    });
    let soak = Soak { runs, serial, seconds: started.elapsed().as_secs_f64(), churn: churned, rounds, strangers };
    soak.print(&mut failures);
    let memory = RelayMemory { at_start_kib, peak_rss_kib: peak_rss_kib.max(relay.memory_kib("VmRSS")), hwm_kib: relay.memory_kib("VmHWM"), at_end_kib: relay.memory_kib("VmRSS") };
    memory.print(&mut failures);
    // Exiting skips destructors: the relay is ended first.
    drop(relay);
    if !failures.is_empty() {
        eprintln!("the soak failed:");
        for failure in &failures {
            eprintln!("  {failure}");
        }
        std::process::exit(1);
    }
}

/// What the soak measured, besides the relay's memory.
struct Soak {
    runs: Vec<Searched>,
    serial: Vec<i32>,
    seconds: f64,
    churn: Churn,
    rounds: Vec<Round>,
    strangers: Strangers,
}

impl Soak {
    fn print(&self, failures: &mut Vec<String>) {
        let runs = &self.runs;
        let equal = runs.iter().filter(|r| !r.hung && r.score == self.serial[r.position]).count();
        let hung = runs.iter().filter(|r| r.hung).count();
        println!();
        println!("searches: {} in {:.0} s; equal to the serial value: {equal}, different: {}, hung (past {HANG_AFTER:?}): {hung}", runs.len(), self.seconds, runs.len() - equal - hung);
        if let (Some(fewest), Some(most)) = (runs.iter().map(|r| r.processors).min(), runs.iter().map(|r| r.processors).max()) {
            let mean = runs.iter().map(|r| r.processors).sum::<usize>() as f64 / runs.len() as f64;
            let losses = runs.iter().map(|r| r.losses).sum::<u64>();
            let with_losses = runs.iter().filter(|r| r.losses > 0).count();
            println!("processors a search: {fewest} to {most}, {mean:.1} on average; processor 0 heard {losses} of them lost, in {with_losses} searches");
        }
        if let Some(longest) = runs.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)) {
            let mean = runs.iter().map(|r| r.seconds).sum::<f64>() / runs.len() as f64;
            println!("longest search: {:.2} s ({:?} on BK.{:02}, {} processors); {mean:.2} s on average", longest.seconds, longest.algorithm, POSITIONS.start + longest.position + 1, longest.processors);
        }
        let churn = &self.churn;
        println!("members killed: {} ({} during a search); started again: {}; joins turned away: {}{}", churn.kills, churn.during_search, churn.rejoins, churn.refused, if churn.refused > 0 { format!(" (the last: {})", churn.last_refusal) } else { String::new() });
        if !churn.exited.is_empty() {
            println!("members that ended by themselves: {} ({})", churn.exited.len(), churn.exited.join(", "));
        }
        // One that was expelled or lost ends well; one that failed (a panic) is a bug.
        let failed = churn.exited.iter().filter(|status| !status.contains("exit status: 0")).count();
        if failed > 0 {
            failures.push(format!("{failed} members failed (their standard error is above)"));
        }
        println!("hostile member, by attack: rounds (as a processor of the running search), messages sent, how each round ended");
        for attack in Attack::ALL {
            let rounds: Vec<&Round> = self.rounds.iter().filter(|r| r.attack as usize == attack as usize).collect();
            if rounds.is_empty() {
                continue;
            }
            let mut endings: Vec<(String, usize)> = Vec::new();
            for round in &rounds {
                match endings.iter_mut().find(|(e, _)| *e == round.ending) {
                    Some((_, n)) => *n += 1,
                    None => endings.push((round.ending.clone(), 1)),
                }
            }
            let sent: Vec<String> = rounds.iter().map(|r| format!("{} in {:.2} s", r.sent, r.seconds)).collect();
            let endings: Vec<String> = endings.iter().map(|(e, n)| format!("{n}x \"{e}\"")).collect();
            println!("  {attack:?}: {} ({}); sent {}; {}", rounds.len(), rounds.iter().filter(|r| r.processor).count(), sent.join(", "), endings.join(", "));
            if let Some(round) = rounds.iter().find(|r| r.outlived_the_rate_cap()) {
                failures.push(format!("{attack:?}: {} messages in {:.2} s, past the relay's rate cap, and the relay did not cut the hostile member off", round.sent, round.seconds));
            }
        }
        let strangers = &self.strangers;
        println!(
            "strangers: {} connections held without joining, {} turned away at the door{}; closed by the relay for silence: {}{}",
            strangers.opened,
            strangers.refused,
            if strangers.refused > 0 { format!(" (the last: {})", strangers.last_refusal) } else { String::new() },
            strangers.closed_for_silence,
            if strangers.other.is_empty() { String::new() } else { format!("; otherwise: {}", strangers.other.join(", ")) }
        );
        if !strangers.other.is_empty() {
            failures.push(format!("{} strangers were not closed for their silence", strangers.other.len()));
        }
    }
}

/// The relay process's memory in KiB.
struct RelayMemory {
    at_start_kib: u64,
    /// The highest `VmRSS` seen (after each search).
    peak_rss_kib: u64,
    /// The kernel's own peak (`VmHWM`).
    hwm_kib: u64,
    at_end_kib: u64,
}

impl RelayMemory {
    fn print(&self, failures: &mut Vec<String>) {
        let mib = |kib: u64| kib as f64 / 1024.0;
        println!(
            "relay memory: {:.1} MiB at start, peak {:.1} MiB (VmHWM; {:.1} MiB the highest seen after a search), {:.1} MiB at the end; bound {RSS_BOUND_MIB} MiB",
            mib(self.at_start_kib),
            mib(self.hwm_kib),
            mib(self.peak_rss_kib),
            mib(self.at_end_kib)
        );
        if self.hwm_kib.max(self.peak_rss_kib) > RSS_BOUND_MIB << 10 {
            failures.push(format!("the relay's memory passed {RSS_BOUND_MIB} MiB"));
        }
    }
}
