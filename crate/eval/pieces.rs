//! Piece activity: mobility by piece type, the bishop pair, rooks on open files.
use cozy_chess::{
    get_bishop_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color, Piece, Square,
};

use super::king::KingAttack;
use super::pawns::pawn_attacks;
use super::{EvalParams, Score, Terms};

/// The pieces whose mobility counts, in the order of [`EvalParams::king_zone_attack`].
const MOBILE_PIECES: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

#[inline(always)]
fn attacks(piece: Piece, square: Square, occupied: BitBoard) -> BitBoard {
    match piece {
        Piece::Knight => get_knight_moves(square),
        Piece::Bishop => get_bishop_moves(square, occupied),
        Piece::Rook => get_rook_moves(square, occupied),
        _ => get_bishop_moves(square, occupied) | get_rook_moves(square, occupied),
    }
}

#[inline(always)]
fn mobility_table(piece: Piece, params: &EvalParams) -> &[Score] {
    match piece {
        Piece::Knight => &params.mobility_knight,
        Piece::Bishop => &params.mobility_bishop,
        Piece::Rook => &params.mobility_rook,
        _ => &params.mobility_queen,
    }
}

/// Adds the activity terms of `color`'s pieces and reports their attacks on the enemy
/// king to `king_attack`.
#[inline(always)]
pub(super) fn add_terms<T: Terms>(
    board: &Board,
    color: Color,
    params: &EvalParams,
    terms: &mut T,
    king_attack: &mut KingAttack,
) {
    let occupied = board.occupied();
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn);
    let safe = !(board.colors(color) | pawn_attacks(enemy_pawns, !color));
    for (slot, piece) in MOBILE_PIECES.into_iter().enumerate() {
        let table = mobility_table(piece, params);
        for square in board.colored_pieces(color, piece) {
            let reach = attacks(piece, square, occupied);
            terms.add(&table[(reach & safe).len() as usize], color, 1);
            king_attack.record(slot, reach, color, params, terms);
        }
    }

    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        terms.add(&params.bishop_pair, color, 1);
    }

    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    for square in board.colored_pieces(color, Piece::Rook) {
        let file = square.file().bitboard();
        if (file & (own_pawns | enemy_pawns)).is_empty() {
            terms.add(&params.rook_open_file, color, 1);
        } else if (file & own_pawns).is_empty() {
            terms.add(&params.rook_half_open_file, color, 1);
        }
    }
}
