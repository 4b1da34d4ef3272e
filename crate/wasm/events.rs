//! Structured events for the UI, so the page reads fields instead of re-parsing text (the
//! text itself still goes out as the public, stockfish.js-compatible protocol): [`Event`]s
//! parsed from the engine's UCI output lines, and each processor's [`WorkerActivity`].
//! Their TypeScript types, for the npm package, are in www/package/index.d.ts: a field
//! changed here changes there (www/tests/package.test.mjs type-checks the events it sees).
use serde::Serialize;

use crate::machine::{MessageKind, ProcessorSnapshot};

/// What one UCI output line means to a user interface.
#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// A search progress report (`info depth ...`).
    #[serde(rename_all = "camelCase")]
    Info {
        /// Nominal depth of the iteration.
        depth: Option<u32>,
        /// Deepest ply reached (selective depth).
        seldepth: Option<u32>,
        /// Line number when several lines are searched.
        multipv: Option<u32>,
        /// Centipawns from the side to move's point of view.
        score_cp: Option<i32>,
        /// Moves to mate (negative: the side to move gets mated).
        score_mate: Option<i32>,
        /// `lower` or `upper` when the score is only a bound.
        bound: Option<&'static str>,
        /// Nodes searched so far.
        nodes: Option<u64>,
        /// Nodes per second.
        nps: Option<u64>,
        /// Milliseconds since the search started.
        time_ms: Option<u64>,
        /// Transposition table use, in permille.
        hashfull: Option<u32>,
        /// The root move being searched.
        currmove: Option<String>,
        /// The principal variation, in UCI move text.
        pv: Vec<String>,
    },
    /// A free-text message (`info string ...`); errors start with `error:`.
    Message {
        /// The text after `info string `.
        text: String,
    },
    /// One measured row of a `speedup` command (`info string speedup {json}`).
    Speedup {
        /// The row as JSON text (position, algorithm, threads, ms, nodes, speedup,
        /// search_overhead, load, idle_ms, splits, aborted_nodes, messages by kind).
        json: String,
    },
    /// A `speedup` command has finished (`info string speedup done`).
    SpeedupDone,
    /// The search result (`bestmove ...`).
    #[serde(rename_all = "camelCase")]
    Bestmove {
        /// The move to play, in UCI move text.
        best: String,
        /// The expected reply, if any.
        ponder: Option<String>,
    },
    /// The bench summary (`N nodes M nps`).
    Bench {
        /// Total nodes: the bench signature.
        nodes: u64,
        /// Nodes per second over the whole bench.
        nps: u64,
    },
}

/// Parses one UCI output line; `None` for lines a UI has no use for (`id`, `option`, ...).
pub fn parse(line: &str) -> Option<Event> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "info" => Some(parse_info(line, words)),
        "bestmove" => Some(Event::Bestmove {
            best: words.next()?.to_owned(),
            ponder: match (words.next(), words.next()) {
                (Some("ponder"), Some(m)) => Some(m.to_owned()),
                _ => None,
            },
        }),
        first => {
            let nodes = first.parse().ok()?;
            match (words.next(), words.next(), words.next(), words.next()) {
                (Some("nodes"), Some(nps), Some("nps"), None) => Some(Event::Bench { nodes, nps: nps.parse().ok()? }),
                _ => None,
            }
        }
    }
}

fn parse_info<'a>(line: &str, mut words: impl Iterator<Item = &'a str>) -> Event {
    let (mut depth, mut seldepth, mut multipv, mut hashfull) = (None, None, None, None);
    let (mut score_cp, mut score_mate, mut bound) = (None, None, None);
    let (mut nodes, mut nps, mut time_ms, mut currmove) = (None, None, None, None);
    let mut pv = Vec::new();
    while let Some(key) = words.next() {
        match key {
            "string" => {
                let text = line.split_once(" string ").map_or("", |(_, text)| text);
                return match text.strip_prefix("speedup ") {
                    Some("done") => Event::SpeedupDone,
                    Some(json) if json.starts_with('{') => Event::Speedup { json: json.to_owned() },
                    _ => Event::Message { text: text.to_owned() },
                };
            }
            "depth" => depth = words.next().and_then(|w| w.parse().ok()),
            "seldepth" => seldepth = words.next().and_then(|w| w.parse().ok()),
            "multipv" => multipv = words.next().and_then(|w| w.parse().ok()),
            "hashfull" => hashfull = words.next().and_then(|w| w.parse().ok()),
            "nodes" => nodes = words.next().and_then(|w| w.parse().ok()),
            "nps" => nps = words.next().and_then(|w| w.parse().ok()),
            "time" => time_ms = words.next().and_then(|w| w.parse().ok()),
            "currmove" => currmove = words.next().map(str::to_owned),
            "cp" => score_cp = words.next().and_then(|w| w.parse().ok()),
            "mate" => score_mate = words.next().and_then(|w| w.parse().ok()),
            "lowerbound" => bound = Some("lower"),
            "upperbound" => bound = Some("upper"),
            "pv" => pv = words.by_ref().map(str::to_owned).collect(),
            _ => {}
        }
    }
    Event::Info { depth, seldepth, multipv, score_cp, score_mate, bound, nodes, nps, time_ms, hashfull, currmove, pv }
}

/// One processor of a search as the UI's worker view shows it.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerActivity {
    /// Working right now.
    pub busy: bool,
    /// Positions it visited in the current (or last) search.
    pub nodes: u64,
    /// Milliseconds it worked in the current search (known once the search ends).
    pub busy_ms: u64,
    /// Milliseconds it waited for the others in the current search.
    pub idle_ms: u64,
    /// Messages it sent, as [kind name, count] pairs (only kinds it sent).
    pub sent: Vec<(&'static str, u64)>,
    /// Messages it received, of every kind.
    pub received: u64,
    /// Subtrees it handed to other workers.
    pub splits: u64,
    /// The first plies of the line it is on, from the root, as UCI moves separated by
    /// spaces ("" for the root itself); absent when it is on no line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

impl From<&ProcessorSnapshot> for WorkerActivity {
    fn from(p: &ProcessorSnapshot) -> Self {
        let sent = MessageKind::ALL.iter().map(|k| (k.name(), p.sent[k.index()])).filter(|&(_, n)| n > 0).collect();
        let line = p.line.map(|path| {
            let mut text = String::new();
            path.write_uci(&mut text);
            text
        });
        WorkerActivity { busy: p.working, nodes: p.nodes, busy_ms: p.busy_us / 1000, idle_ms: p.idle_us / 1000, sent, received: p.received.iter().sum(), splits: p.splits, line }
    }
}
