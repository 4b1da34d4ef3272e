//! A browser tab as a processor of a class: the tab's membership ([`membership`]: the
//! relay's client over the class worker's WebSocket, `www/engine/class-worker.js` being
//! the worker) queues what arrives for the processor, which runs over [`TabLink`]. A
//! student's tab runs the helper program of every search ([`class_serve`]); the
//! lecturer's tab runs processor 0 ([`class_lead`], threaded build only).
//!
//! Arrivals queue in [`TAB`] for the processor; what the processor sends (frames, `end`,
//! `expel`, leaving) and what the page should show (progress, the result) queue for the
//! worker's flush ([`membership::class_flush`]). In the threaded build the processor runs
//! on a pool thread, and the worker waits on a signal in shared memory with
//! `Atomics.waitAsync`, as the engine worker waits on the outbox. The single build (a tab
//! that is not cross-origin isolated) has one thread: a student's processor runs on it in
//! slices, between which it awaits the worker's pause, which sends what was queued and
//! lets the socket's frames in.

use crate::machine::cluster::link::{Arrival, Link};
use crate::machine::cluster::Rank;
use crate::machine::Counters;
use crate::parallel::Helper;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use wasm_bindgen::prelude::*;
#[cfg(target_feature = "atomics")]
use {
    crate::chess::{format_uci, parse_fen},
    crate::machine::cluster::Order,
    crate::machine::Cluster,
    crate::parallel::{help, search, Algorithm, SearchRequest},
    crate::search::{Control, Info, Limits, Listener, RootMove, Score, SearchOptions, SearchSettings, Task},
    crate::tt::TranspositionTable,
    wasm_bindgen::JsCast,
};

mod membership;

/// Most processors a class search counts (the relay's `--max-members` default and most).
#[cfg(target_feature = "atomics")]
const MAX_PROCESSORS: usize = 256;

/// Table of each processor of a tab, MiB: small, as phones take part.
const TABLE_MIB: usize = 16;

/// What the processor queues for the worker's flush.
enum Outgoing {
    /// A frame for processor `to` of the search.
    Frame { to: usize, frame: Vec<u8> },
    /// Processor 0's search is over, every DONE in.
    End,
    /// Processor 0 has the relay cut processor `processor` off (it broke the search's end).
    Expel { processor: usize, reason: String },
    /// This tab cannot be a processor of the class (why): it leaves, as a native
    /// `meshmate join` ends, rather than stay on every roster as a processor that never
    /// answers.
    CannotTakePart(String),
    /// Something for the page.
    Shown(Shown),
}

/// What the page hears from the processor.
#[derive(Serialize)]
#[serde(tag = "class", rename_all = "lowercase")]
enum Shown {
    /// The position of the search this student's tab takes part in.
    Position { fen: String },
    /// Processor 0's progress (the lecturer's tab: threaded build).
    #[cfg(target_feature = "atomics")]
    Info { depth: i32, score: String, nodes: u64, pv: Vec<String>, line: String },
    /// Processor 0's result (the lecturer's tab: threaded build).
    #[cfg(target_feature = "atomics")]
    Result { bestmove: Option<String>, score: String, depth: i32, nodes: u64, ms: f64 },
    /// Something went wrong on the lecturer's pool thread (threaded build).
    #[cfg(target_feature = "atomics")]
    Error { message: String },
}

/// The tab's place in the class, shared by the worker's thread and the pool thread.
struct Tab {
    arrivals: Mutex<VecDeque<Arrival>>,
    /// Woken at each arrival: the threaded build's processor sleeps on it while it waits.
    arrived: Condvar,
    outgoing: Mutex<Vec<Outgoing>>,
    signal: AtomicI32,
    processor: AtomicUsize,
    processors: AtomicUsize,
    search: AtomicU32,
    /// Whether the tab's membership is over (the session closed, or its socket is gone for
    /// good): a student's processor then stops waiting for searches.
    gone: AtomicBool,
    /// The counters of the search this tab runs or ran (for [`class_activity`]).
    counters: Mutex<Option<Arc<Counters>>>,
}

static TAB: Tab = Tab {
    arrivals: Mutex::new(VecDeque::new()),
    arrived: Condvar::new(),
    outgoing: Mutex::new(Vec::new()),
    signal: AtomicI32::new(0),
    processor: AtomicUsize::new(usize::MAX),
    processors: AtomicUsize::new(0),
    search: AtomicU32::new(0),
    gone: AtomicBool::new(false),
    counters: Mutex::new(None),
};

impl Tab {
    fn push(&self, outgoing: Outgoing) {
        self.outgoing.lock().unwrap_or_else(|e| e.into_inner()).push(outgoing);
        self.signal.fetch_add(1, SeqCst);
        // The single build's worker takes what is queued at each pause instead.
        #[cfg(target_feature = "atomics")]
        thread_local! {
            static VIEW: std::cell::OnceCell<js_sys::Int32Array> = const { std::cell::OnceCell::new() };
        }
        #[cfg(target_feature = "atomics")]
        VIEW.with(|view| {
            let _ = js_sys::Atomics::notify(view.get_or_init(class_signal), 0);
        });
    }

    fn arrive(&self, arrival: Arrival) {
        self.arrivals.lock().unwrap_or_else(|e| e.into_inner()).push_back(arrival);
        self.arrived.notify_all();
    }
}

/// The processor's end of the class: the queues of [`TAB`].
pub struct TabLink;

impl Link for TabLink {
    fn rank(&self) -> usize {
        TAB.processor.load(SeqCst)
    }

    fn size(&self) -> usize {
        TAB.processors.load(SeqCst)
    }

    fn send(&mut self, to: usize, frame: Vec<u8>) {
        TAB.push(Outgoing::Frame { to, frame });
    }

    fn receive(&mut self) -> Option<Arrival> {
        TAB.arrivals.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }

    /// The threaded build's processor, on a pool thread, sleeps until something arrives
    /// (or `within`), as a native member blocks on its socket's channel (the machine layer's
    /// default instead looks 2,000 times between naps of 50 µs, which kept a waiting
    /// tab's core about half busy, a laptop's battery spent on nothing). The single
    /// build's processor never waits here: it awaits the worker's pause between slices.
    #[cfg(target_feature = "atomics")]
    fn await_arrival(&mut self, within: std::time::Duration) -> bool {
        let arrivals = TAB.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        if arrivals.is_empty() {
            drop(TAB.arrived.wait_timeout(arrivals, within));
        }
        true
    }

    fn next_search(&mut self, _proposed: u32) -> u32 {
        TAB.search.load(SeqCst)
    }

    /// The relay's round trip: a millisecond on one computer, 20-100 ms over a school's
    /// network.
    fn round_trip_matters(&self) -> bool {
        true
    }

    /// Processor 0 has the relay cut `processor` off: it is lost, and on no later roster.
    fn expel(&mut self, processor: usize, why: &str) -> bool {
        TAB.push(Outgoing::Expel { processor, reason: why.to_string() });
        true
    }

    fn search_over(&mut self) {
        TAB.push(Outgoing::End);
    }
}

/// A view of the `i32` that changes whenever the worker's flush has something, for
/// `Atomics.waitAsync`.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = classSignal)]
pub fn class_signal() -> js_sys::Int32Array {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Int32Array::new_with_byte_offset_and_length(&memory.buffer(), TAB.signal.as_ptr() as u32, 1)
}

/// A search starts: this tab is processor `processor` of `processors` in search `search`.
/// What is still queued belongs to earlier searches (the relay sends the roster before any
/// frame of its search) and is dropped: a loss among it names a processor that may be
/// somebody else now.
fn roster(search: u32, processor: usize, processors: usize) {
    TAB.arrivals.lock().unwrap_or_else(|e| e.into_inner()).clear();
    TAB.search.store(search, SeqCst);
    TAB.processors.store(processors, SeqCst);
    TAB.processor.store(processor, SeqCst);
}

/// What the processors of this tab's search are doing, `[{nodes, busy, line}]` (`line`:
/// the first plies of the line it is on, UCI moves from the root, or absent): every
/// processor on the lecturer's tab (students report their nodes and lines to processor
/// 0), its own on a student's.
#[wasm_bindgen(js_name = classActivity)]
pub fn class_activity() -> JsValue {
    #[derive(Serialize)]
    struct Row {
        nodes: u64,
        busy: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        line: Option<String>,
    }
    let row = |p: &crate::machine::ProcessorSnapshot| Row { nodes: p.nodes, busy: p.working, line: p.line.map(|path| path.uci()) };
    let counters = TAB.counters.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let Some(counters) = counters else { return serde_wasm_bindgen::to_value(&Vec::<Row>::new()).unwrap_or(JsValue::UNDEFINED) };
    let snapshot = counters.snapshot();
    let (me, count) = (TAB.processor.load(SeqCst), TAB.processors.load(SeqCst).min(snapshot.len()));
    let rows: Vec<Row> = if me == 0 { snapshot[..count].iter().map(row).collect() } else { snapshot.get(me).map(row).into_iter().collect() };
    serde_wasm_bindgen::to_value(&rows).unwrap_or(JsValue::UNDEFINED)
}

/// A student's tab: takes part in every search of the class, on a pool thread, until
/// the membership is over. Processor 0 lost between searches (the lecturer's connection
/// dropped; it may resume) is not the end of it.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = classServe)]
pub fn class_serve() {
    rayon::spawn(|| {
        let Some((mut rank, mut helper)) = student() else { return };
        while !TAB.gone.load(SeqCst) {
            while let Order::Search(task) = rank.next_order() {
                starting(&rank, &task);
                if let Err(e) = help(&mut rank, &mut helper, &task) {
                    return cannot_take_part(e);
                }
                rank.end_search();
            }
        }
    });
}

/// How long a student's processor in the single build searches between two pauses, ms:
/// long enough that the pauses cost little, short enough that its frames and the
/// relay's are not held up noticeably.
#[cfg(not(target_feature = "atomics"))]
const SLICE_MS: f64 = 10.0;

/// A student's tab in the single build: takes part in every search of the class until
/// the connection is gone, in slices on the worker's own thread. Between slices it
/// awaits `pause(waiting)`, the worker's promise that resolves once the queued frames
/// are sent and the socket's arrivals are in (`waiting`: the processor has nothing to do
/// until a frame comes).
#[cfg(not(target_feature = "atomics"))]
#[wasm_bindgen(js_name = classServe)]
pub fn class_serve(pause: js_sys::Function) {
    wasm_bindgen_futures::spawn_local(async move {
        let pause = |waiting: bool| {
            let promise = pause.call1(&JsValue::NULL, &JsValue::from_bool(waiting)).ok().and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
            async move {
                if let Some(promise) = promise {
                    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
                }
            }
        };
        let Some((mut rank, mut helper)) = student() else { return pause(false).await };
        while !TAB.gone.load(SeqCst) {
            if let Err(e) = crate::parallel::help_in_slices(&mut rank, &mut helper, SLICE_MS, &pause, starting).await {
                cannot_take_part(e);
                break;
            }
        }
        // What the last slice queued, the error included, goes out at one more pause.
        pause(false).await;
    });
}

/// A student's processor and what it keeps between searches, or `None` (said to the
/// page) where it cannot be one.
fn student() -> Option<(Rank<TabLink>, Helper)> {
    let Some(rank) = Rank::new(TabLink) else {
        cannot_take_part("this tab is processor 0".into());
        return None;
    };
    match Helper::new(TABLE_MIB).and_then(|helper| helper.with_threads(tab_threads())) {
        Ok(helper) => Some((rank, helper)),
        Err(e) => {
            cannot_take_part(e);
            None
        }
    }
}

/// Threads a student's processor searches each job on: every core of the page's pool but
/// the one its helper loop holds (the worker sizes the pool by the tab's cores); one in the
/// single build.
fn tab_threads() -> usize {
    #[cfg(target_feature = "atomics")]
    let threads = rayon::current_num_threads().saturating_sub(1).clamp(1, crate::parallel::MAX_THREADS);
    #[cfg(not(target_feature = "atomics"))]
    let threads = 1;
    threads
}

/// A student's search starts: its counters for [`class_activity`], its position for the
/// page.
fn starting(rank: &Rank<TabLink>, task: &[u8]) {
    *TAB.counters.lock().unwrap_or_else(|e| e.into_inner()) = Some(rank.counters());
    if let Ok(task) = crate::parallel::decode_task(task) {
        TAB.push(Outgoing::Shown(Shown::Position { fen: task.board.to_string() }));
    }
}

/// This tab cannot be a processor (`e` says why): it leaves the class.
fn cannot_take_part(e: String) {
    TAB.gone.store(true, SeqCst);
    TAB.push(Outgoing::CannotTakePart(e));
}

/// The lecturer's tab, after the relay's roster (`search` with processor 0): searches
/// `fen` to `depth` plies with `algorithm` across the class, on a pool thread. Progress and
/// the result come through the worker's flush. A bad request is refused here, before
/// anything starts, and the search the relay started for it ends.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = classLead)]
pub fn class_lead(algorithm: &str, depth: u32, fen: &str, pure: bool, papers_split: bool) -> Result<(), JsValue> {
    lead(algorithm, depth, fen, pure, papers_split).inspect_err(|_| TAB.push(Outgoing::End))
}

/// [`class_lead`]'s search, or why it cannot start.
#[cfg(target_feature = "atomics")]
fn lead(algorithm: &str, depth: u32, fen: &str, pure: bool, papers_split: bool) -> Result<(), JsValue> {
    let algorithm = Algorithm::from_name(algorithm).ok_or_else(|| JsValue::from_str(&format!("unknown algorithm '{algorithm}'")))?;
    if let Some(why) = algorithm.needs_shared_memory() {
        return Err(JsValue::from_str(&format!("{why}: a class runs ybwc, jamboree, pvsplit or aphid")));
    }
    if algorithm == Algorithm::Tdsab {
        return Err(JsValue::from_str("tdsab cannot yet go on without a lost processor: a class runs ybwc, jamboree, pvsplit or aphid"));
    }
    if !(1..=64).contains(&depth) {
        return Err(JsValue::from_str(&format!("depth {depth} is not from 1 to 64")));
    }
    let board = parse_fen(fen).map_err(|e| JsValue::from_str(&format!("bad FEN: {e}")))?;
    if TAB.processor.load(SeqCst) != 0 {
        return Err(JsValue::from_str("only the lecturer's tab, processor 0 of a started roster, leads a search"));
    }
    let processors = TAB.processors.load(SeqCst).clamp(1, MAX_PROCESSORS);
    let counters = Arc::new(Counters::new(MAX_PROCESSORS));
    *TAB.counters.lock().unwrap_or_else(|e| e.into_inner()) = Some(counters.clone());
    rayon::spawn(move || {
        let started = crate::clock::now_ms();
        let table = match TranspositionTable::try_new(TABLE_MIB) {
            Ok(table) => Arc::new(table),
            Err(e) => return TAB.push(Outgoing::Shown(Shown::Error { message: e.to_string() })),
        };
        let Some(mut cluster) = Cluster::new(TabLink) else { return };
        cluster.set_paced(!papers_split);
        let limits = Limits { depth: Some(depth as i32), ..Limits::default() };
        // The engine's own evaluation, as the UCI engine searches by default.
        let evaluation = crate::uci::Options::default().search_evaluation();
        let settings = SearchSettings { options: SearchOptions { pure, evaluation, ..SearchOptions::default() }, ..SearchSettings::default() };
        let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
        let mut reports = Reports { board: &board };
        let result = search(&mut cluster, &mut Vec::new(), &table, &SearchRequest { algorithm, threads: processors, task }, &Control::default(), &mut reports, &counters);
        TAB.push(Outgoing::Shown(Shown::Result {
            bestmove: result.best.map(|mv| format_uci(&board, mv)),
            score: Score::from_internal(result.score).to_string(),
            depth: result.depth,
            nodes: result.nodes,
            ms: crate::clock::now_ms() - started,
        }));
    });
    Ok(())
}

/// Processor 0's progress, for the page.
#[cfg(target_feature = "atomics")]
struct Reports<'a> {
    board: &'a cozy_chess::Board,
}

#[cfg(target_feature = "atomics")]
impl Listener for Reports<'_> {
    fn info(&mut self, info: &Info) {
        let mut board = self.board.clone();
        let mut pv = Vec::with_capacity(info.pv.len());
        for &mv in &info.pv {
            pv.push(format_uci(&board, mv));
            board.play_unchecked(mv);
        }
        let line = format!("info depth {} score {} nodes {} pv {}", info.depth, info.score, info.nodes, pv.join(" "));
        TAB.push(Outgoing::Shown(Shown::Info { depth: info.depth, score: info.score.to_string(), nodes: info.nodes, pv, line }));
    }

    fn currmove(&mut self, _depth: i32, _mv: RootMove) {}
}
