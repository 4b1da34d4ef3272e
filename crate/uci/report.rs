//! What the engine reports, as values: every output line is an [`Event`], made from the
//! engine's own numbers, moves and declarations, and its UCI text is written from it
//! ([`std::fmt::Display`]). A user interface (the browser worker's events) reads the same
//! values the text was written from, so nothing parses the engine's output back. Their TypeScript types, for the npm
//! package, are in www/package/index.d.ts: a field changed here changes there
//! (www/tests/package.test.mjs type-checks the events it sees).

use std::fmt;

use crate::chess::format_uci;
use crate::search::{Info, RootMove, Score, ScoreBound};
use cozy_chess::{Board, Move};
use serde::Serialize;

/// An output line a user interface reads: its values, and (through `Display`) its UCI text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// The engine's name (`id name ...`), the first answer to `uci`.
    IdName {
        /// The name and version.
        name: String,
    },
    /// Its authors (`id author ...`).
    IdAuthor {
        /// Who wrote it.
        author: String,
    },
    /// One option `uci` declares (`option name ... type ...`).
    Option {
        /// The name `setoption` takes.
        name: String,
        /// `spin`, `check`, `combo`, `button` or `string`.
        kind: &'static str,
        /// The value it starts with (none for a button).
        default: Option<String>,
        /// A spin's least value.
        min: Option<u64>,
        /// A spin's greatest value.
        max: Option<u64>,
        /// A combo's choices.
        vars: Vec<String>,
    },
    /// Every option is declared (`uciok`).
    Uciok,
    /// Every command before `isready` is handled (`readyok`).
    Readyok,
    /// A search progress report (`info depth ...`); the fields a line has are `Some`.
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
        /// Transposition table use, in permille.
        hashfull: Option<u32>,
        /// Milliseconds since the search started.
        time_ms: Option<u64>,
        /// The root move being searched.
        currmove: Option<String>,
        /// Its 1-based place in the root's move order.
        currmovenumber: Option<u32>,
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
    /// The search result (`bestmove ...`); `0000` when there is no legal move.
    #[serde(rename_all = "camelCase")]
    Bestmove {
        /// The move to play, in UCI move text.
        best: String,
        /// The expected reply, if any.
        ponder: Option<String>,
    },
    /// The bench summary (`N nodes M nps`, the form OpenBench-style tools read).
    Bench {
        /// Total nodes: the bench signature.
        nodes: u64,
        /// Nodes per second over the whole bench.
        nps: u64,
    },
    /// A line with no values to read (the bench's per-position lines and totals).
    Text {
        /// The line itself.
        text: String,
    },
}

/// The moves of `moves` (played from `board`) in UCI notation, up to the first illegal one.
fn moves_uci(board: &Board, moves: &[Move]) -> Vec<String> {
    let mut board = board.clone();
    let mut text = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !board.is_legal(mv) {
            break;
        }
        text.push(format_uci(&board, mv));
        board.play_unchecked(mv);
    }
    text
}

/// A count as the event's `u32` (counts in a report are far below its limit).
fn count(n: impl TryInto<u32>) -> Option<u32> {
    n.try_into().ok()
}

impl Event {
    /// The report of one searched line (`info depth ... pv ...`) from `board`.
    pub fn info(board: &Board, info: &Info) -> Event {
        let (score_cp, score_mate) = match info.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        let bound = match info.bound {
            ScoreBound::Exact => None,
            ScoreBound::Lower => Some("lower"),
            ScoreBound::Upper => Some("upper"),
        };
        Event::Info {
            depth: count(info.depth),
            seldepth: count(info.seldepth),
            multipv: count(info.multipv),
            score_cp,
            score_mate,
            bound,
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            hashfull: Some(info.hashfull),
            time_ms: Some(info.time_ms),
            currmove: None,
            currmovenumber: None,
            pv: moves_uci(board, &info.pv),
        }
    }

    /// The root move being searched at `depth` (`info depth D currmove M currmovenumber N`).
    pub fn currmove(board: &Board, depth: i32, root_move: RootMove) -> Event {
        Event::Info {
            depth: count(depth),
            seldepth: None,
            multipv: None,
            score_cp: None,
            score_mate: None,
            bound: None,
            nodes: None,
            nps: None,
            hashfull: None,
            time_ms: None,
            currmove: Some(format_uci(board, root_move.mv)),
            currmovenumber: count(root_move.number),
            pv: Vec::new(),
        }
    }

    /// The answer `best` with the expected reply `ponder` (kept only if legal after `best`).
    pub fn bestmove(board: &Board, best: Option<Move>, ponder: Option<Move>) -> Event {
        let Some(best) = best else { return Event::Bestmove { best: "0000".to_string(), ponder: None } };
        let mut after = board.clone();
        after.play_unchecked(best);
        let ponder = ponder.filter(|&p| after.is_legal(p)).map(|p| format_uci(&after, p));
        Event::Bestmove { best: format_uci(board, best), ponder }
    }

    /// A free-text message (`info string {text}`).
    pub fn message(text: impl Into<String>) -> Event {
        Event::Message { text: text.into() }
    }

    /// A `spin` option: a whole number from `min` to `max`.
    pub fn spin_option(name: &str, default: u64, min: u64, max: u64) -> Event {
        Event::Option { name: name.to_string(), kind: "spin", default: Some(default.to_string()), min: Some(min), max: Some(max), vars: Vec::new() }
    }

    /// A `check` option: on or off.
    pub fn check_option(name: &str, default: bool) -> Event {
        Event::Option { name: name.to_string(), kind: "check", default: Some(default.to_string()), min: None, max: None, vars: Vec::new() }
    }

    /// A `button` option: an action with no value.
    pub fn button_option(name: &str) -> Event {
        Event::Option { name: name.to_string(), kind: "button", default: None, min: None, max: None, vars: Vec::new() }
    }

    /// A `combo` option: one of `vars`.
    pub fn combo_option(name: &str, default: &str, vars: &[&str]) -> Event {
        Event::Option { name: name.to_string(), kind: "combo", default: Some(default.to_string()), min: None, max: None, vars: vars.iter().map(|v| v.to_string()).collect() }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::IdName { name } => write!(f, "id name {name}"),
            Event::IdAuthor { author } => write!(f, "id author {author}"),
            Event::Option { name, kind, default, min, max, vars } => {
                write!(f, "option name {name} type {kind}")?;
                if let Some(default) = default {
                    write!(f, " default {default}")?;
                }
                if let Some(min) = min {
                    write!(f, " min {min}")?;
                }
                if let Some(max) = max {
                    write!(f, " max {max}")?;
                }
                vars.iter().try_for_each(|var| write!(f, " var {var}"))
            }
            Event::Uciok => f.write_str("uciok"),
            Event::Readyok => f.write_str("readyok"),
            Event::Info { depth, seldepth, multipv, score_cp, score_mate, bound, nodes, nps, hashfull, time_ms, currmove, currmovenumber, pv } => {
                f.write_str("info")?;
                let field = |f: &mut fmt::Formatter<'_>, key: &str, value: Option<&dyn fmt::Display>| match value {
                    Some(value) => write!(f, " {key} {value}"),
                    None => Ok(()),
                };
                field(f, "depth", depth.as_ref().map(|v| v as _))?;
                field(f, "seldepth", seldepth.as_ref().map(|v| v as _))?;
                field(f, "multipv", multipv.as_ref().map(|v| v as _))?;
                field(f, "score cp", score_cp.as_ref().map(|v| v as _))?;
                field(f, "score mate", score_mate.as_ref().map(|v| v as _))?;
                if let Some(bound) = bound {
                    write!(f, " {bound}bound")?;
                }
                field(f, "nodes", nodes.as_ref().map(|v| v as _))?;
                field(f, "nps", nps.as_ref().map(|v| v as _))?;
                field(f, "hashfull", hashfull.as_ref().map(|v| v as _))?;
                field(f, "time", time_ms.as_ref().map(|v| v as _))?;
                field(f, "currmove", currmove.as_ref().map(|v| v as _))?;
                field(f, "currmovenumber", currmovenumber.as_ref().map(|v| v as _))?;
                if !pv.is_empty() {
                    write!(f, " pv {}", pv.join(" "))?;
                }
                Ok(())
            }
            Event::Message { text } => write!(f, "info string {text}"),
            Event::Speedup { json } => write!(f, "info string speedup {json}"),
            Event::SpeedupDone => f.write_str("info string speedup done"),
            Event::Bestmove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(ponder) => write!(f, " ponder {ponder}"),
                    None => Ok(()),
                }
            }
            Event::Bench { nodes, nps } => write!(f, "{nodes} nodes {nps} nps"),
            Event::Text { text } => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{parse_fen, START_FEN};

    fn start() -> Board {
        parse_fen(START_FEN).unwrap()
    }

    fn uci_move(board: &Board, text: &str) -> Move {
        crate::chess::parse_uci(board, text).unwrap()
    }

    #[test]
    fn an_info_line_is_written_from_its_values() {
        let board = start();
        let e4 = uci_move(&board, "e2e4");
        let mut after = board.clone();
        after.play_unchecked(e4);
        let e5 = uci_move(&after, "e7e5");
        let info = Info { depth: 7, seldepth: 12, multipv: 1, score: Score::Cp(-35), bound: ScoreBound::Upper, nodes: 81234, time_ms: 203, nps: 400000, hashfull: 12, pv: vec![e4, e5] };
        let event = Event::info(&board, &info);
        assert_eq!(event.to_string(), "info depth 7 seldepth 12 multipv 1 score cp -35 upperbound nodes 81234 nps 400000 hashfull 12 time 203 pv e2e4 e7e5");
        let Event::Info { score_cp, score_mate, bound, pv, .. } = event else { panic!() };
        assert_eq!((score_cp, score_mate, bound), (Some(-35), None, Some("upper")));
        assert_eq!(pv, ["e2e4", "e7e5"]);
        let mate = Info { score: Score::Mate(-3), bound: ScoreBound::Exact, pv: vec![e5], ..info };
        assert_eq!(Event::info(&board, &mate).to_string(), "info depth 7 seldepth 12 multipv 1 score mate -3 nodes 81234 nps 400000 hashfull 12 time 203", "the illegal PV move is dropped");
    }

    #[test]
    fn currmove_bestmove_and_bench_lines() {
        let board = start();
        let e4 = uci_move(&board, "e2e4");
        let d4 = uci_move(&board, "d2d4");
        assert_eq!(Event::currmove(&board, 9, RootMove { mv: e4, number: 3 }).to_string(), "info depth 9 currmove e2e4 currmovenumber 3");
        let mut after = board.clone();
        after.play_unchecked(e4);
        let e5 = uci_move(&after, "e7e5");
        assert_eq!(Event::bestmove(&board, Some(e4), Some(e5)).to_string(), "bestmove e2e4 ponder e7e5");
        assert_eq!(Event::bestmove(&board, Some(e4), Some(d4)), Event::Bestmove { best: "e2e4".into(), ponder: None }, "an illegal reply is not offered");
        assert_eq!(Event::bestmove(&board, None, None).to_string(), "bestmove 0000");
        assert_eq!(Event::Bench { nodes: 1234, nps: 5678 }.to_string(), "1234 nodes 5678 nps");
        assert_eq!(Event::message("error: no room").to_string(), "info string error: no room");
        assert_eq!(Event::SpeedupDone.to_string(), "info string speedup done");
    }

    #[test]
    fn events_serialize_as_the_worker_posts_them() {
        let board = start();
        let e4 = uci_move(&board, "e2e4");
        let json = serde_json::to_value(Event::currmove(&board, 9, RootMove { mv: e4, number: 3 })).unwrap();
        assert_eq!(json["type"], "info");
        assert_eq!(json["currmove"], "e2e4");
        assert_eq!(json["currmovenumber"], 3);
        assert!(json["scoreCp"].is_null() && json.get("score_cp").is_none(), "camelCase field names: {json}");
        let json = serde_json::to_value(Event::SpeedupDone).unwrap();
        assert_eq!(json["type"], "speedupDone");
        let json = serde_json::to_value(Event::spin_option("Hash", 16, 1, 1024)).unwrap();
        assert_eq!((&json["type"], &json["name"], &json["kind"], &json["default"], &json["max"]), (&"option".into(), &"Hash".into(), &"spin".into(), &"16".into(), &1024.into()));
        assert_eq!(serde_json::to_value(Event::Readyok).unwrap()["type"], "readyok");
        assert_eq!(serde_json::to_value(Event::IdName { name: "m".into() }).unwrap()["type"], "idName");
    }

    #[test]
    fn declarations_and_handshake_lines() {
        assert_eq!(Event::spin_option("Hash", 16, 1, 1024).to_string(), "option name Hash type spin default 16 min 1 max 1024");
        assert_eq!(Event::check_option("Ponder", false).to_string(), "option name Ponder type check default false");
        assert_eq!(Event::button_option("Clear Hash").to_string(), "option name Clear Hash type button");
        assert_eq!(Event::combo_option("Table", "local", &["local", "distributed"]).to_string(), "option name Table type combo default local var local var distributed");
        assert_eq!(Event::IdName { name: "meshmate 0.1".into() }.to_string(), "id name meshmate 0.1");
        assert_eq!(Event::IdAuthor { author: "us".into() }.to_string(), "id author us");
        assert_eq!((Event::Uciok.to_string(), Event::Readyok.to_string()), ("uciok".to_string(), "readyok".to_string()));
        assert_eq!(Event::Text { text: "Nodes searched  : 5".into() }.to_string(), "Nodes searched  : 5");
    }
}
