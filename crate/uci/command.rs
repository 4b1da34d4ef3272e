//! Parsing of UCI input lines into commands, with an error message for every kind of
//! malformed line. Parsing needs the current game only to check moves.

use super::options::MAX_THREADS;
use crate::chess::{parse_fen, parse_uci, Game, START_FEN};
use crate::parallel::Algorithm;
use crate::search::Limits;
use crate::stats::SpeedupPlan;
use cozy_chess::{Board, Color};

/// One parsed input line.
#[derive(Debug, Clone)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    NewGame,
    /// `position ...`, already played out.
    Position(Game),
    /// `go ...`
    Go(Limits),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `setoption name N [value V]`
    SetOption {
        /// Option name as given.
        name: String,
        /// Value text, if any.
        value: Option<String>,
    },
    /// `bench [depth]`
    Bench(Option<i32>),
    /// `speedup algo A[,B…] threads P[,Q…] depth D [hash MIB] [fens FEN; FEN…]`: the
    /// time-to-depth measurement of `meshmate speedup`, here on the current position or
    /// the given ones (an extension, so the browser worker can measure too).
    Speedup(SpeedupRequest),
    /// `d`: show the current position.
    Display,
    /// `quit`
    Quit,
    /// An empty line.
    Nothing,
}

/// What a `speedup` command asks for.
#[derive(Clone, Debug)]
pub struct SpeedupRequest {
    /// Algorithms, processor counts, depth, table size and rounds.
    pub plan: SpeedupPlan,
    /// Positions; empty means the current position.
    pub boards: Vec<Board>,
}

/// Largest table a `speedup` request may ask for each search, MiB.
const MAX_SPEEDUP_HASH: usize = 256;
/// Most rounds a `speedup` request may ask for.
pub const MAX_SPEEDUP_ROUNDS: usize = 100;

fn parse_speedup(args: &[&str]) -> Result<SpeedupRequest, String> {
    let fens_at = args.iter().position(|&t| t == "fens").unwrap_or(args.len());
    let (settings, fens) = args.split_at(fens_at);
    let plan = SpeedupPlan { algorithms: Vec::new(), threads: Vec::new(), depth: 0, hash_mib: 16, rounds: 1 };
    let mut request = SpeedupRequest { plan, boards: Vec::new() };
    let plan = &mut request.plan;
    for pair in settings.chunks(2) {
        let [name, value] = pair else { return Err(format!("speedup: '{}' needs a value", pair[0])) };
        match *name {
            "algo" => {
                plan.algorithms = value.split(',').map(|a| Algorithm::from_name(a).ok_or_else(|| format!("speedup: unknown algorithm '{a}'"))).collect::<Result<_, _>>()?
            }
            "threads" => {
                plan.threads = value
                    .split(',')
                    .map(|t| t.parse().ok().filter(|n| (1..=MAX_THREADS).contains(n)).ok_or_else(|| format!("speedup: thread count '{t}' is not from 1 to {MAX_THREADS}")))
                    .collect::<Result<_, _>>()?
            }
            "depth" => plan.depth = value.parse().ok().filter(|d| (1..=64).contains(d)).ok_or_else(|| format!("speedup: depth '{value}' is not from 1 to 64"))?,
            "hash" => plan.hash_mib = value.parse().ok().filter(|m| (1..=MAX_SPEEDUP_HASH).contains(m)).ok_or_else(|| format!("speedup: hash '{value}' is not from 1 to {MAX_SPEEDUP_HASH} MiB"))?,
            "rounds" => plan.rounds = value.parse().ok().filter(|r| (1..=MAX_SPEEDUP_ROUNDS).contains(r)).ok_or_else(|| format!("speedup: rounds '{value}' is not from 1 to {MAX_SPEEDUP_ROUNDS}"))?,
            other => return Err(format!("speedup: unknown setting '{other}' (algo, threads, depth, hash, rounds, fens)")),
        }
    }
    if plan.algorithms.is_empty() || plan.threads.is_empty() || plan.depth == 0 {
        return Err("speedup needs 'algo', 'threads' and 'depth'".to_string());
    }
    let fens = fens.get(1..).unwrap_or_default().join(" ");
    for fen in fens.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        request.boards.push(parse_fen(fen).map_err(|e| format!("speedup: bad FEN '{fen}': {e}"))?);
    }
    Ok(request)
}

/// Parses one line; `game` is the current position (for `go searchmoves`).
pub fn parse(line: &str, game: &Game) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else { return Ok(Command::Nothing) };
    Ok(match head {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "position" => Command::Position(parse_position(rest)?),
        "go" => Command::Go(parse_go(rest, game)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "setoption" => parse_setoption(rest)?,
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(d) => Some(d.parse().ok().filter(|d| (1..=64).contains(d)).ok_or_else(|| format!("bench depth '{d}' is not a number from 1 to 64"))?),
        }),
        "speedup" => Command::Speedup(parse_speedup(rest)?),
        "d" => Command::Display,
        "quit" => Command::Quit,
        other => return Err(format!("unknown command '{other}'")),
    })
}

fn parse_position(args: &[&str]) -> Result<Game, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut game = match setup.split_first() {
        Some((&"startpos", [])) => Game::from_fen(START_FEN).expect("the start position is valid"),
        Some((&"startpos", extra)) => return Err(format!("unexpected '{}' after 'position startpos'", extra.join(" "))),
        Some((&"fen", fen)) if !fen.is_empty() => Game::from_fen(&fen.join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        Some((&"fen", _)) => return Err("'position fen' needs a FEN".to_string()),
        _ => return Err("'position' needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    game.play_uci_moves(moves.iter().copied()).map_err(|e| format!("illegal position command: {e}"))?;
    Ok(game)
}

const GO_KEYWORDS: [&str; 12] =
    ["searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "infinite"];

/// A `go` line's limits, or what is wrong with it: a malformed `go` starts nothing (a
/// search with a limit left out could run until `stop`). Clock times may be negative
/// (some GUIs send them when flagging): they count as zero.
fn parse_go(args: &[&str], game: &Game) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    limits.searchmoves.push(parse_uci(game.board(), args[i]).map_err(|e| format!("go searchmoves: {e}"))?);
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate" | "movetime" => {
                let text = args.get(i).ok_or_else(|| format!("'go {key}' needs a number"))?;
                i += 1;
                let n = text.parse::<i64>().map_err(|_| format!("'go {key}' value '{text}' is not a number"))?;
                let within = |low: i64, high: i64| (low..=high).contains(&n).then_some(n).ok_or_else(|| format!("'go {key} {n}' is not from {low} to {high}"));
                match key {
                    "wtime" => limits.time[Color::White as usize] = Some(n.max(0) as u64),
                    "btime" => limits.time[Color::Black as usize] = Some(n.max(0) as u64),
                    "winc" => limits.increment[Color::White as usize] = Some(n.max(0) as u64),
                    "binc" => limits.increment[Color::Black as usize] = Some(n.max(0) as u64),
                    // 0 from a GUI means "no more moves before the control": one is left.
                    "movestogo" => limits.movestogo = Some(within(0, 1000)?.max(1) as u32),
                    "depth" => limits.depth = Some(within(1, 100)? as i32),
                    "nodes" => limits.nodes = Some(within(1, i64::MAX)? as u64),
                    "mate" => limits.mate = Some(within(1, 100)? as u32),
                    _ => limits.movetime = Some(within(0, i64::MAX)? as u64),
                }
            }
            other => return Err(format!("unknown 'go' parameter '{other}'")),
        }
    }
    if limits.mate.is_some() && limits.depth.is_none() {
        limits.depth = limits.mate.map(|m| 2 * m as i32 + 1);
    }
    Ok(limits)
}

fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    if args.first() != Some(&"name") {
        return Err("'setoption' needs 'name <option>'".to_string());
    }
    let value_at = args.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(args.len());
    let name = args[1..name_end].join(" ");
    if name.is_empty() {
        return Err("'setoption' needs an option name".to_string());
    }
    let value = value_at.map(|i| args[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go() {
        let game = Game::default();
        let Ok(Command::Go(l)) = parse("go wtime -20 btime 1000 movestogo 0 depth 5 searchmoves e2e4 d2d4 infinite", &game) else { panic!() };
        assert_eq!((l.time[0], l.time[1], l.movestogo, l.depth), (Some(0), Some(1000), Some(1), Some(5)));
        assert_eq!(l.searchmoves.len(), 2);
        assert!(l.infinite);
    }

    #[test]
    fn a_malformed_go_is_refused_whole() {
        let game = Game::default();
        for line in ["go wtime abc", "go depth -3", "go depth 0", "go depth 101", "go nodes 0", "go mate -1", "go movetime -5", "go depth", "go depht 5", "go searchmoves e2e5", "go wtime 1000 btime x"] {
            assert!(parse(line, &game).is_err(), "{line} was taken");
        }
    }

    #[test]
    fn refuses_bad_position_lines() {
        let game = Game::default();
        assert!(parse("position", &game).is_err());
        assert!(parse("position fen", &game).is_err());
        assert!(parse("position startpos moves e2e5", &game).unwrap_err().contains("move 1"));
        assert!(parse("position fen 8/8/8/8/8/8/8/8 w - - 0 1", &game).unwrap_err().contains("king"));
        assert!(matches!(parse("position startpos moves e2e4 e7e5", &game), Ok(Command::Position(_))));
        assert!(parse("frobnicate", &game).is_err());
        assert!(matches!(parse("setoption name Clear Hash", &game), Ok(Command::SetOption { value: None, .. })));
    }
}
