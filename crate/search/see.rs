//! Static exchange evaluation: the material balance of the capture sequence on one
//! square, each side recapturing with its least valuable attacker.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard, Board, Color,
    Move, Piece, Square,
};
use crate::chess::en_passant_victim;

/// Piece values used for exchanges and capture ordering (not the evaluation's).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

fn attackers_to(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    (get_pawn_attacks(sq, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_rook_moves(sq, occupied) & rooks)
        | (get_bishop_moves(sq, occupied) & bishops)
}

/// The value a move captures immediately (en passant and promotions included).
pub fn captured_value(board: &Board, mv: Move) -> i32 {
    let victim = match board.piece_on(mv.to) {
        Some(p) if board.color_on(mv.to) != Some(board.side_to_move()) => SEE_VALUE[p as usize],
        _ if en_passant_victim(board, mv).is_some() => SEE_VALUE[0],
        _ => 0,
    };
    victim + mv.promotion.map_or(0, |p| SEE_VALUE[p as usize] - SEE_VALUE[0])
}

/// The exchange value of `mv` for the side making it (castling counts as 0).
pub fn see(board: &Board, mv: Move) -> i32 {
    let us = board.side_to_move();
    if board.color_on(mv.to) == Some(us) {
        return 0;
    }
    let mut gains = [0i32; 32];
    let mut depth = 0;
    gains[0] = captured_value(board, mv);
    let (mut on_square, mut occupied) = after_the_move(board, mv);
    let mut side = !us;
    let mut attackers = attackers_to(board, mv.to, occupied) & occupied;
    loop {
        let ours = attackers & board.colors(side);
        let Some((piece, from)) = least_valuable(board, ours) else { break };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        if depth == gains.len() - 1 {
            break;
        }
        on_square = SEE_VALUE[piece as usize];
        occupied ^= from.bitboard();
        attackers = attackers_to(board, mv.to, occupied) & occupied;
        side = !side;
        if piece == Piece::King && !(attackers & board.colors(side)).is_empty() {
            depth -= 1;
            break;
        }
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the exchange value of `mv` is at least `threshold`: the same answer as
/// `see(board, mv) >= threshold`, but it stops as soon as the answer is known, which
/// for most moves is before the first recapture is looked for.
pub fn see_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let us = board.side_to_move();
    if board.color_on(mv.to) == Some(us) {
        return 0 >= threshold;
    }
    // `balance`: what the side that just captured is ahead of the threshold if the
    // exchange stops here, before its piece on the square is taken.
    let mut balance = captured_value(board, mv) - threshold;
    if balance < 0 {
        return false;
    }
    let (on_square, mut occupied) = after_the_move(board, mv);
    // Even losing the piece for nothing keeps the threshold.
    balance = on_square - balance;
    if balance <= 0 {
        return true;
    }
    let mut attackers = attackers_to(board, mv.to, occupied) & occupied;
    let mut side = us;
    // Whether `us` reaches the threshold if the exchange stops now; each capture flips it
    // unless the capturing side comes out short even so.
    let mut reached = true;
    loop {
        side = !side;
        let Some((piece, from)) = least_valuable(board, attackers & board.colors(side)) else { break };
        reached = !reached;
        occupied ^= from.bitboard();
        attackers = attackers_to(board, mv.to, occupied) & occupied;
        if piece == Piece::King {
            // The king may take only a piece no one defends.
            if !(attackers & board.colors(!side)).is_empty() {
                reached = !reached;
            }
            break;
        }
        balance = SEE_VALUE[piece as usize] - balance;
        if balance < i32::from(reached) {
            break;
        }
    }
    reached
}

/// Where an exchange starts: the value of the piece `mv` puts on its target square, and
/// the occupancy once it has moved (an en passant victim removed too).
fn after_the_move(board: &Board, mv: Move) -> (i32, BitBoard) {
    let moving = board.piece_on(mv.from);
    let on_square = mv.promotion.or(moving).map_or(0, |p| SEE_VALUE[p as usize]);
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    if let Some(victim) = en_passant_victim(board, mv) {
        occupied ^= victim.bitboard();
    }
    (on_square, occupied)
}

fn least_valuable(board: &Board, set: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL.iter().find_map(|&p| (set & board.pieces(p)).next_square().map(|sq| (p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board = Board::from_fen(fen, false).unwrap();
        see(&board, mv.parse().unwrap())
    }

    /// `see_at_least` agrees with `see` for every move of positions from random games,
    /// at thresholds around every value an exchange can take.
    #[test]
    fn the_threshold_test_agrees_with_the_exchange_value() {
        let mut random = crate::random::Random::new(2, 0);
        let mut compared = 0;
        let mut negative = 0;
        for _ in 0..400 {
            let board = crate::chess::random_position(&mut random, 100);
            for mv in crate::chess::legal_moves(&board) {
                let value = see(&board, mv);
                negative += u32::from(value < 0);
                for threshold in [-20_000, -900, -500, -330, -320, -220, -100, -64, -1, 0, 1, 64, 100, 220, 320, 500, 900, 20_000] {
                    for t in [threshold, value, value + 1] {
                        assert_eq!(see_at_least(&board, mv, t), value >= t, "{mv} at {t} (SEE {value}) in {board}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 100_000 && negative > 1_000, "{compared} comparisons, {negative} losing moves");
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Knight takes a pawn defended by a pawn: loses the knight for a pawn.
        assert_eq!(see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), 100 - 320);
        // Pawn takes a pawn defended by a knight: an even trade.
        assert_eq!(see_of("4k3/8/1n6/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100 - 100);
    }
}
