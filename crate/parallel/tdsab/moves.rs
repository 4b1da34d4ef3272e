//! The order in which an expanded node sends its children. Children go out as separate
//! messages, so the order sets their signatures and hence their priority everywhere:
//! table move first, then captures that do not lose material (by exchange value), quiet
//! moves, and losing captures last.

use crate::search::{is_tactical, see};
use cozy_chess::{Board, Move};

/// The legal moves of `board` (only those in `allowed` when it is not empty), best first.
pub(super) fn ordered_moves(board: &Board, table_move: Option<Move>, allowed: &[Move]) -> Vec<Move> {
    let mut scored: Vec<(i32, Move)> = Vec::with_capacity(48);
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            if allowed.is_empty() || allowed.contains(&mv) {
                scored.push((priority(board, mv, table_move), mv));
            }
        }
        false
    });
    // Stable: equal priorities keep the generator's order, so the order is reproducible.
    scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    scored.into_iter().map(|(_, mv)| mv).collect()
}

const TABLE_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 20;

fn priority(board: &Board, mv: Move, table_move: Option<Move>) -> i32 {
    if Some(mv) == table_move {
        return TABLE_MOVE;
    }
    if !is_tactical(board, mv) {
        return 0;
    }
    let exchange = see(board, mv);
    if exchange >= 0 {
        TACTICAL + exchange
    } else {
        -TACTICAL + exchange
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_fen;

    #[test]
    fn table_move_then_winning_captures_then_quiet_then_losing_captures() {
        // The knight on f5 hangs to Nxf5; Qxd7 loses the queen to the king.
        let board = parse_fen("3k4/3p4/8/5n2/8/4N3/8/3QK3 w - - 0 1").unwrap();
        let quiet: Move = "e1f2".parse().unwrap();
        let moves = ordered_moves(&board, Some(quiet), &[]);
        assert_eq!(moves[0], quiet);
        assert_eq!(moves[1], "e3f5".parse().unwrap());
        assert_eq!(moves[moves.len() - 1], "d1d7".parse().unwrap());
        let only = ordered_moves(&board, None, &[moves[1]]);
        assert_eq!(only, vec![moves[1]]);
    }
}
