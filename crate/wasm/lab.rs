//! The Lab's binding: the simulated machine ([`crate::machine::sim`]) for the browser's Lab
//! worker (`www/engine/lab-worker.js`). The simulator runs on one thread by design, so the
//! single build is enough; the worker may block while it runs, the page never does.
//!
//! Three calls: [`lab_catalogue`] (what the menus offer), [`lab_network`] (where to draw a
//! machine's processors and links) and [`lab_simulate`] (one experiment: the serial search
//! on one processor, then the algorithm on p, with the p-processor run's trace streamed to
//! a JavaScript sink in batches, as numbers for the replay or as JSON lines,
//! `docs/trace-schema.md`, for the export). Nothing of the trace is kept here, so memory
//! stays bounded at 1024 processors; the export runs the experiment again (the same seed
//! gives the same trace, which the hash checks).
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use crate::chess::parse_fen;
use crate::machine::sim::{node_kind_index, presets::PRESETS, Event, Preset, Sim, TraceSink};
use crate::stats::reproduce::{reproduce, Paper, PaperMachine, Report};
use crate::stats::{simulate_suite, SimRow, SimSuite};
use crate::machine::MessageKind;
use crate::search::TreeEvent;
use crate::net::{Ends, Kind, LinkKind, Topology};
use crate::parallel::Algorithm;
use crate::search::{SearchOptions, SearchSettings};
use crate::tt::{Placement, TableSize};

/// The message of the last panic in this instance: a panic aborts the instance (the call
/// traps), so the worker asks for it afterwards to tell the user what went wrong.
static LAST_PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Installs (once) a panic hook that keeps the panic's message for [`lab_panic_message`]
/// (the page shows it; this instance serves the Lab worker only).
fn keep_panic_messages() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = info.to_string();
            }
        }));
    });
}

/// The message of the panic that aborted the last call, or an empty string.
#[wasm_bindgen(js_name = labPanicMessage)]
pub fn lab_panic_message() -> String {
    LAST_PANIC.lock().map(|last| last.clone()).unwrap_or_default()
}

/// The deepest search the Lab accepts: deeper ones take minutes at browser scale and
/// their traces do not fit a page's memory.
const MAX_LAB_DEPTH: i32 = 8;
/// The transposition table of each simulated search, in MiB (a fresh one per search).
const LAB_HASH_MIB: usize = 16;

/// One preset as the menu shows it.
#[derive(Serialize)]
struct PresetEntry {
    name: &'static str,
    title: &'static str,
    net: &'static str,
}

/// What the Lab's menus offer, from the crate's own lists.
#[derive(Serialize)]
struct Catalogue {
    algorithms: Vec<&'static str>,
    nets: Vec<&'static str>,
    presets: Vec<PresetEntry>,
    #[serde(rename = "messageKinds")]
    message_kinds: Vec<&'static str>,
    /// Table placements (`tt::Placement`), the first the default.
    #[serde(rename = "ttModes")]
    tt_modes: Vec<&'static str>,
    #[serde(rename = "maxDepth")]
    max_depth: i32,
    /// How the replay's numbers are laid out ([`ReplayLayout`]).
    replay: ReplayLayout,
    /// The papers `labReproduce` runs, each with the EPD file of its positions.
    papers: Vec<PaperEntry>,
}

/// The replay's layout, declared here once: the Lab worker reads the event size from it
/// and the page checks its event codes against it (www/src/lab/eventColumns.js).
#[derive(Serialize)]
struct ReplayLayout {
    #[serde(rename = "wordsPerEvent")]
    words_per_event: usize,
    /// Each event code's name and number, as [`replay_words`] writes them.
    codes: Vec<(&'static str, u8)>,
}

/// One paper of the Lab's Reproduce: its name, the file of its positions, and the machine
/// its quick run is on (the form shows it).
#[derive(Serialize)]
struct PaperEntry {
    name: &'static str,
    suite: &'static str,
    machine: PaperMachine,
}

/// The algorithms, networks, presets and message kinds the Lab can show.
#[wasm_bindgen(js_name = labCatalogue)]
pub fn lab_catalogue() -> JsValue {
    let catalogue = Catalogue {
        algorithms: Algorithm::ALL.iter().chain(&Algorithm::VARIANTS).filter(|&&a| a != Algorithm::Serial).map(|a| a.name()).collect(),
        nets: Kind::ALL.iter().map(|k| k.name()).collect(),
        presets: PRESETS.iter().map(|p| PresetEntry { name: p.name, title: p.title, net: p.net.name() }).collect(),
        message_kinds: MessageKind::ALL.iter().map(|k| k.name()).collect(),
        tt_modes: Placement::ALL.iter().map(|p| p.name()).collect(),
        max_depth: MAX_LAB_DEPTH,
        replay: ReplayLayout { words_per_event: WORDS_PER_EVENT, codes: Code::ALL.iter().map(|&c| (c.name(), c as u8)).collect() },
        papers: Paper::ALL.iter().map(|p| PaperEntry { name: p.name(), suite: p.suite_file(), machine: p.machine(true) }).collect(),
    };
    serde_wasm_bindgen::to_value(&catalogue).unwrap_or(JsValue::UNDEFINED)
}

/// A link to draw: its ends (`b` is `None` for a shared bus) and its kind's name.
#[derive(Serialize)]
struct LinkEntry {
    a: Option<usize>,
    b: Option<usize>,
    kind: String,
}

/// A machine's drawing hints: node positions (x, y in 0..=1), links, the host processor,
/// and (up to [`MAX_ROUTED`] processors) every route, so the page lights up a message's
/// whole route when it is sent: the links from processor `a` to `b` are
/// `route_links[route_start[a·p + b]..route_start[a·p + b + 1]]`.
#[derive(Serialize)]
struct NetworkDrawing {
    processors: usize,
    nodes: usize,
    host: Option<usize>,
    points: Vec<[f32; 2]>,
    links: Vec<LinkEntry>,
    #[serde(rename = "routeStart")]
    route_start: Vec<u32>,
    #[serde(rename = "routeLinks")]
    route_links: Vec<u32>,
}

/// Most processors whose routes a drawing carries: the page draws single processors and
/// links up to 128 (`www/src/lab/networkView.js` DETAIL_LIMIT), heat maps above.
const MAX_ROUTED: usize = 128;

/// Every route of `topology` as link ids, pair by pair (see [`NetworkDrawing`]); empty
/// above [`MAX_ROUTED`] processors.
fn all_routes(topology: &Topology) -> Result<(Vec<u32>, Vec<u32>), JsError> {
    let p = topology.processors();
    if p > MAX_ROUTED {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut start = Vec::with_capacity(p * p + 1);
    let mut links = Vec::new();
    for from in 0..p {
        for to in 0..p {
            start.push(links.len() as u32);
            links.extend(topology.route(from, to)?.map(|hop| hop.link as u32));
        }
    }
    start.push(links.len() as u32);
    Ok((start, links))
}

/// The name the UI colours a link kind by (hypercube dimensions and fat-tree levels keep
/// their number after a colon).
fn link_kind_name(kind: LinkKind) -> String {
    match kind {
        LinkKind::Shuffle => "shuffle".into(),
        LinkKind::Exchange => "exchange".into(),
        LinkKind::Added => "added".into(),
        LinkKind::Dimension(d) => format!("dimension:{d}"),
        LinkKind::Up(level) => format!("up:{level}"),
        LinkKind::Bus => "bus".into(),
        LinkKind::Ring => "ring".into(),
        LinkKind::Direct => "direct".into(),
    }
}

/// Where to draw `processors` processors wired as `net`, or why that machine cannot exist.
#[wasm_bindgen(js_name = labNetwork)]
pub fn lab_network(net: &str, processors: usize) -> Result<JsValue, JsError> {
    let topology = Topology::new(net.parse::<Kind>()?, processors)?;
    let points = (0..topology.nodes()).map(|n| topology.layout(n).map_or([0.5, 0.5], |p| [p.x, p.y])).collect();
    let links = topology
        .links()
        .map(|link| {
            let (a, b) = match link.ends {
                Ends::Pair(a, b) => (Some(a), Some(b)),
                Ends::Shared => (None, None),
            };
            LinkEntry { a, b, kind: link_kind_name(link.kind) }
        })
        .collect();
    let (route_start, route_links) = all_routes(&topology)?;
    let drawing = NetworkDrawing { processors: topology.processors(), nodes: topology.nodes(), host: topology.host(), points, links, route_start, route_links };
    Ok(serde_wasm_bindgen::to_value(&drawing)?)
}

/// One Lab experiment, as the page asks for it.
#[derive(Deserialize)]
struct LabRequest {
    algorithm: String,
    net: String,
    processors: usize,
    preset: String,
    fen: String,
    depth: i32,
    seed: u64,
    /// Where the table lives (`global` when the page does not say).
    #[serde(default)]
    tt: Option<String>,
    /// The period's search: full width, as the papers' programs searched (`Pure`).
    #[serde(default)]
    pure: bool,
    /// A frame's one-way time over one hop, measured (the Class view's relay), in place of
    /// the preset's ([`Preset::with_one_way_ns`]); the preset's own when absent.
    #[serde(default, rename = "oneWayNs")]
    one_way_ns: Option<u64>,
    /// The work-splitting programs split as the papers do, not in jobs sized to the round
    /// trip ([`Preset::split_as_the_papers`]; the Class view's choice).
    #[serde(default, rename = "papersSplit")]
    papers_split: bool,
}

impl LabRequest {
    /// `processors` processors of the request's machine: its preset (with the measured
    /// one-way time, if given) on its network.
    fn machine(&self, processors: usize) -> Result<Sim, JsError> {
        let preset = Preset::by_name(&self.preset)?;
        let preset = match self.one_way_ns {
            Some(ns) => preset.with_one_way_ns(ns).ok_or_else(|| JsError::new(&format!("a one-way time of {ns} ns is shorter than the {} ns the {} preset holds a link", preset.hop_ns, preset.name)))?,
            None => preset,
        };
        let preset = if self.papers_split { preset.split_as_the_papers() } else { preset };
        Ok(Sim::new(preset, self.net.parse::<Kind>()?, processors, self.seed)?)
    }
}

/// One row of the result table (the serial reference or the p-processor run).
#[derive(Serialize)]
struct LabRow {
    algorithm: &'static str,
    processors: usize,
    table: &'static str,
    nodes: u64,
    #[serde(rename = "timeNs")]
    time_ns: u64,
    load: f64,
    #[serde(rename = "searchOverhead")]
    search_overhead: f64,
    speedup: f64,
    messages: u64,
    score: i32,
    /// StarTech's work W and critical path C (`None` where the algorithm times none).
    #[serde(rename = "workNs")]
    work_ns: u64,
    #[serde(rename = "criticalPathNs")]
    critical_path_ns: Option<u64>,
    /// TDSAB's overheads: idle share and message-handling share.
    synchronization: f64,
    communication: f64,
}

impl From<&SimRow> for LabRow {
    fn from(row: &SimRow) -> LabRow {
        LabRow {
            algorithm: row.algorithm,
            processors: row.processors,
            table: row.placement.name(),
            nodes: row.nodes,
            time_ns: row.time_ns,
            load: row.load,
            search_overhead: row.search_overhead(),
            speedup: row.speedup(),
            messages: row.messages,
            score: row.score,
            work_ns: row.work_ns,
            critical_path_ns: row.critical_path_ns,
            synchronization: row.overheads.synchronization,
            communication: row.overheads.communication,
        }
    }
}

/// What the experiment measured, besides the trace it streamed.
#[derive(Serialize)]
struct LabReport {
    rows: Vec<LabRow>,
    events: usize,
    /// The trace's FNV-1a hash, as hex (a `u64` does not survive JavaScript numbers).
    hash: String,
    #[serde(rename = "elapsedNs")]
    elapsed_ns: u64,
    #[serde(rename = "endNs")]
    end_ns: u64,
    #[serde(rename = "busyNs")]
    busy_ns: Vec<u64>,
    #[serde(rename = "idleNs")]
    idle_ns: Vec<u64>,
    #[serde(rename = "linkBusyNs")]
    link_busy_ns: Vec<u64>,
    /// Wall-clock milliseconds both searches took in the simulator, tracing and handing
    /// the trace to the worker included: the simulator's speed in this browser.
    #[serde(rename = "simulationMs")]
    simulation_ms: f64,
}

/// Numbers per event in the replay's columns: code, time, then the fields `a`, `b`, `c`,
/// `e`, `d` as `www/src/lab/eventColumns.js` reads them (the Lab worker gets it from the
/// catalogue's [`ReplayLayout`]).
const WORDS_PER_EVENT: usize = 7;

/// The first number of an event in the replay's columns: what kind of event it is.
#[derive(Clone, Copy)]
enum Code {
    State = 1,
    Nodes,
    Send,
    Hop,
    Deliver,
    End,
    Node,
    Leave,
    Split,
}

impl Code {
    const ALL: [Code; 9] = [Code::State, Code::Nodes, Code::Send, Code::Hop, Code::Deliver, Code::End, Code::Node, Code::Leave, Code::Split];

    /// The name the page's `EV` gives the code.
    fn name(self) -> &'static str {
        ["state", "nodes", "send", "hop", "deliver", "end", "node", "leave", "split"][self as usize - 1]
    }

    fn word(self) -> f64 {
        f64::from(self as u8)
    }
}

/// Offset that makes a score non-negative in the replay's packed window (scores stay
/// far inside ±2^16).
const SCORE_OFFSET: i64 = 1 << 16;

/// An event as the replay's numbers, or `None` for events the replay does not use
/// (`run`, `note`); the first number is its [`Code`] (send: `e` = to; deliver: `b` = msg). Tree events: `a` = p, `b` = the path's first two moves, `c` its
/// next two (15 bits a move, as `TreePath::packed`), `e` = length | flags << 3, `d` a
/// score (node: the window as (alpha + 2^16) · 2^17 + beta + 2^16). Integers up to 2^53
/// are exact in an `f64`, far beyond any virtual time or count of a browser run.
fn replay_words(event: &Event) -> Option<[f64; WORDS_PER_EVENT]> {
    let w = |x: u64| x as f64;
    Some(match *event {
        Event::State { t, p, state, nodes } => [Code::State.word(), w(t), p.into(), state as u8 as f64, 0.0, 0.0, w(nodes)],
        Event::Nodes { t, p, nodes } => [Code::Nodes.word(), w(t), p.into(), 0.0, 0.0, 0.0, w(nodes)],
        Event::Send { t, msg, from, to, kind, .. } => [Code::Send.word(), w(t), msg.into(), from.into(), kind.index() as f64, to.into(), 0.0],
        Event::Hop { msg, link, from, to, start, end } => [Code::Hop.word(), w(start), msg.into(), link.into(), from.into(), to.into(), w(end)],
        Event::Deliver { t, msg, to } => [Code::Deliver.word(), w(t), to.into(), msg.into(), 0.0, 0.0, 0.0],
        Event::End { end, .. } => [Code::End.word(), w(end), 0.0, 0.0, 0.0, 0.0, w(end)],
        Event::Tree { t, p, event } => tree_words(t, p, &event),
        Event::Run { .. } | Event::Note { .. } => return None,
    })
}

/// A tree event's replay numbers (see [`replay_words`]).
fn tree_words(t: u64, p: u32, event: &TreeEvent) -> [f64; WORDS_PER_EVENT] {
    const TWO_MOVES: u64 = (1 << 30) - 1;
    let path = match event {
        TreeEvent::Node { path, .. } | TreeEvent::Leave { path, .. } | TreeEvent::Split { path, .. } => path,
    };
    let packed = path.packed();
    let (first, second, len) = ((packed & TWO_MOVES) as f64, (packed >> 30 & TWO_MOVES) as f64, path.len() as u64);
    let score = |v: i32| (v as i64 + SCORE_OFFSET) as f64;
    let (code, flags, d) = match *event {
        TreeEvent::Node { depth, alpha, beta, kind, received, .. } => {
            let flags = depth.clamp(0, 255) as u64 | (node_kind_index(kind) as u64) << 8 | (received as u64) << 10;
            (Code::Node, flags, score(alpha) * (1u64 << 17) as f64 + score(beta))
        }
        TreeEvent::Leave { value, cut, tt, aborted, .. } => (Code::Leave, cut as u64 | (tt as u64) << 1 | (aborted as u64) << 2, value as f64),
        TreeEvent::Split { to, .. } => (Code::Split, to as u64, 0.0),
    };
    [code.word(), t as f64, p.into(), first, second, (len | flags << 3) as f64, d]
}

/// What a finished experiment hands back: its report and its trace's header line.
#[wasm_bindgen]
pub struct LabRun {
    header: String,
    report: LabReport,
}

#[wasm_bindgen]
impl LabRun {
    /// The table's rows and the run's totals.
    pub fn report(&self) -> Result<JsValue, JsError> {
        Ok(serde_wasm_bindgen::to_value(&self.report)?)
    }

    /// The trace's header line (`ev: machine`).
    pub fn header(&self) -> String {
        self.header.clone()
    }
}

/// How the streamed trace reaches JavaScript.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    /// Replay numbers ([`WORDS_PER_EVENT`] per event), a `Float64Array` per batch.
    Replay,
    /// JSON lines, a string per batch.
    Lines,
}

/// The trace on its way to the Lab worker: events are turned into the stream's form and
/// handed over every `batch` events, so no more than a batch is held here.
struct Batcher {
    sink: js_sys::Function,
    stream: Stream,
    batch: usize,
    pending: usize,
    words: Vec<f64>,
    lines: String,
    /// The sink threw (the run goes on; the error is reported at its end).
    failed: bool,
}

impl Batcher {
    /// Hands what is pending to the sink.
    fn flush(&mut self) {
        if self.pending == 0 {
            return;
        }
        let piece: JsValue = match self.stream {
            Stream::Replay => js_sys::Float64Array::from(self.words.as_slice()).into(),
            Stream::Lines => JsValue::from_str(&self.lines),
        };
        self.failed |= self.sink.call1(&JsValue::NULL, &piece).is_err();
        self.words.clear();
        self.lines.clear();
        self.pending = 0;
    }
}

/// The machine's handle on the shared [`Batcher`] (the call flushes the last batch).
struct BatchSink(Rc<RefCell<Batcher>>);

impl TraceSink for BatchSink {
    fn event(&mut self, event: &Event, labels: &[String]) {
        let mut batcher = self.0.borrow_mut();
        match batcher.stream {
            Stream::Replay => match replay_words(event) {
                Some(words) => batcher.words.extend_from_slice(&words),
                None => return,
            },
            Stream::Lines => {
                let line = event.to_json(labels);
                batcher.lines.push_str(&line);
                batcher.lines.push('\n');
            }
        }
        batcher.pending += 1;
        if batcher.pending >= batcher.batch {
            batcher.flush();
        }
    }
}

/// Runs one experiment: the serial search on one processor of the preset's machine (T(1),
/// N(1)), then `algorithm` on all `processors`, tracing that run. The run's events go to
/// `sink` in order, `batch` events a call: as the replay's numbers (a `Float64Array`,
/// [`WORDS_PER_EVENT`] each, see `replay_words`), so the page never parses text, or with
/// `lines` as JSON lines (a string, each line ending in a newline) for the export. The
/// returned [`LabRun`] holds the report and the header line.
#[wasm_bindgen(js_name = labSimulate)]
pub fn lab_simulate(request: JsValue, sink: &js_sys::Function, batch: usize, lines: bool) -> Result<LabRun, JsError> {
    keep_panic_messages();
    let request: LabRequest = serde_wasm_bindgen::from_value(request).map_err(|e| JsError::new(&format!("bad Lab request: {e}")))?;
    let algorithm = Algorithm::from_name(&request.algorithm).ok_or_else(|| JsError::new(&format!("unknown algorithm '{}'", request.algorithm)))?;
    if !(1..=MAX_LAB_DEPTH).contains(&request.depth) {
        return Err(JsError::new(&format!("depth {} is outside 1..={MAX_LAB_DEPTH}", request.depth)));
    }
    let placement: Placement = request.tt.as_deref().map_or(Ok(Placement::Global), str::parse).map_err(|e: String| JsError::new(&e))?;
    let board = parse_fen(&request.fen).map_err(|e| JsError::new(&format!("bad FEN: {e}")))?;
    let mut serial = request.machine(1)?;
    let mut machine = request.machine(request.processors)?;
    let stream = if lines { Stream::Lines } else { Stream::Replay };
    let batch = batch.max(1);
    let batcher = Rc::new(RefCell::new(Batcher { sink: sink.clone(), stream, batch, pending: 0, words: Vec::with_capacity(batch * WORDS_PER_EVENT), lines: String::new(), failed: false }));
    machine.stream_trace(Box::new(BatchSink(batcher.clone())));
    let boards = [board];
    let settings = SearchSettings { options: SearchOptions { pure: request.pure, ..SearchOptions::default() }, ..SearchSettings::default() };
    let suite = SimSuite { boards: &boards, depth: request.depth, table: TableSize::Mib(LAB_HASH_MIB), placement, settings, carry: false };
    let started = js_sys::Date::now();
    let rows = simulate_suite(&mut serial, std::slice::from_mut(&mut machine), &suite, &[algorithm], &mut |_| {}).map_err(|e| JsError::new(&e))?;
    let simulation_ms = js_sys::Date::now() - started;
    batcher.borrow_mut().flush();
    if batcher.borrow().failed {
        return Err(JsError::new("the trace sink failed"));
    }

    let trace = machine.trace().expect("tracing was switched on");
    let run = machine.last_run().expect("the algorithm ran on the machine");
    let report = LabReport {
        rows: rows.iter().map(LabRow::from).collect(),
        events: trace.recorded() as usize,
        hash: format!("{:016x}", trace.hash()),
        elapsed_ns: run.elapsed_ns,
        end_ns: run.end_ns,
        busy_ns: run.busy_ns.clone(),
        idle_ns: run.idle_ns.clone(),
        link_busy_ns: run.link_busy_ns.clone(),
        simulation_ms,
    };
    Ok(LabRun { header: machine.trace_header(), report })
}

/// A paper's experiment with its conditions, for the Lab's Reproduce.
#[derive(Serialize)]
struct Reproduction {
    report: Report,
    notes: Vec<String>,
}

/// `meshmate reproduce NAME [--quick]` in the browser: the paper's experiment on the
/// positions of `suite` (the text of its EPD file, `papers` of the catalogue names it),
/// `progress(done, total)` called after each search. The rows carry the published figures
/// from the crate's own copy of the papers' tables.
#[wasm_bindgen(js_name = labReproduce)]
pub fn lab_reproduce(name: &str, suite: &str, quick: bool, seed: u32, progress: &js_sys::Function) -> Result<JsValue, JsError> {
    keep_panic_messages();
    let paper = Paper::by_name(name).map_err(|e| JsError::new(&e))?;
    let report = reproduce(paper, suite, quick, u64::from(seed), &mut |done, total| {
        let _ = progress.call2(&JsValue::NULL, &JsValue::from(done as u32), &JsValue::from(total as u32));
    })
    .map_err(|e| JsError::new(&e))?;
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    Ok(Reproduction { report, notes: paper.notes(quick) }.serialize(&serializer)?)
}
