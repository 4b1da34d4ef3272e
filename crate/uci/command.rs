//! Parsing of UCI input lines into commands, with an error message for every kind of
//! malformed line. Parsing needs the current game only to check moves.

use crate::chess::{parse_uci, Game, START_FEN};
use crate::search::Limits;
use cozy_chess::Color;

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
    /// `go ...`, with the problems found in its parameters (each reported, the rest used).
    Go(Limits, Vec<String>),
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
    /// `d`: show the current position.
    Display,
    /// `quit`
    Quit,
    /// An empty line.
    Nothing,
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
        "go" => {
            let (limits, problems) = parse_go(rest, game);
            Command::Go(limits, problems)
        }
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "setoption" => parse_setoption(rest)?,
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(d) => Some(d.parse().ok().filter(|d| (1..=64).contains(d)).ok_or_else(|| format!("bench depth '{d}' is not a number from 1 to 64"))?),
        }),
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

fn parse_go(args: &[&str], game: &Game) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    match parse_uci(game.board(), args[i]) {
                        Ok(mv) => limits.searchmoves.push(mv),
                        Err(e) => problems.push(format!("searchmoves: {e}")),
                    }
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate" | "movetime" => {
                let Some(text) = args.get(i) else {
                    problems.push(format!("'go {key}' needs a number"));
                    continue;
                };
                i += 1;
                // Some GUIs send negative clock times when flagging; treat them as zero.
                let Ok(n) = text.parse::<i64>() else {
                    problems.push(format!("'go {key}' value '{text}' is not a number"));
                    continue;
                };
                let n = n.max(0) as u64;
                match key {
                    "wtime" => limits.time[Color::White as usize] = Some(n),
                    "btime" => limits.time[Color::Black as usize] = Some(n),
                    "winc" => limits.increment[Color::White as usize] = Some(n),
                    "binc" => limits.increment[Color::Black as usize] = Some(n),
                    "movestogo" => limits.movestogo = Some(n.clamp(1, 1000) as u32),
                    "depth" => limits.depth = Some(n.clamp(1, 100) as i32),
                    "nodes" => limits.nodes = Some(n.max(1)),
                    "mate" => limits.mate = Some(n.clamp(1, 100) as u32),
                    _ => limits.movetime = Some(n),
                }
            }
            other => problems.push(format!("unknown 'go' parameter '{other}'")),
        }
    }
    if limits.mate.is_some() && limits.depth.is_none() {
        limits.depth = limits.mate.map(|m| 2 * m as i32 + 1);
    }
    (limits, problems)
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
    fn parses_go_and_reports_bad_parts() {
        let game = Game::default();
        let Ok(Command::Go(l, p)) = parse("go wtime 1000 btime x depth 5 searchmoves e2e4 e2e5 infinite", &game) else { panic!() };
        assert_eq!(l.time[0], Some(1000));
        assert_eq!(l.depth, Some(5));
        assert_eq!(l.searchmoves.len(), 1);
        assert!(l.infinite);
        assert_eq!(p.len(), 2, "{p:?}");
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
