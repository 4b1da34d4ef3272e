//! Formatting of the engine's output lines.

use crate::chess::format_uci;
use crate::search::{Info, ScoreBound};
use cozy_chess::{Board, Move};

/// Writes `moves` (played from `board`) in UCI notation, separated by spaces.
pub fn moves_text(board: &Board, moves: &[Move]) -> String {
    let mut board = board.clone();
    let mut text = String::new();
    for &mv in moves {
        if !board.is_legal(mv) {
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&format_uci(&board, mv));
        board.play_unchecked(mv);
    }
    text
}

/// An `info` line for one search report.
pub fn info_line(board: &Board, info: &Info) -> String {
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        bound,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms,
        moves_text(board, &info.pv)
    )
}

/// The `bestmove` line; `0000` when there is no legal move.
pub fn bestmove_line(board: &Board, best: Option<Move>, ponder: Option<Move>) -> String {
    let Some(best) = best else { return "bestmove 0000".to_string() };
    let mut line = format!("bestmove {}", format_uci(board, best));
    if let Some(p) = ponder {
        let mut after = board.clone();
        after.play_unchecked(best);
        if after.is_legal(p) {
            line.push_str(&format!(" ponder {}", format_uci(&after, p)));
        }
    }
    line
}
