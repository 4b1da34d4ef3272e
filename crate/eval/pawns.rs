//! Pawn structure: doubled, isolated, supported and passed pawns, and pawns attacking pieces.
use cozy_chess::{BitBoard, Board, Color, File, Piece, Square};

use super::{EvalParams, Terms};

/// Squares attacked by `color`'s `pawns`, all at once.
#[inline(always)]
pub(super) fn pawn_attacks(pawns: BitBoard, color: Color) -> BitBoard {
    let not_a = !File::A.bitboard();
    let not_h = !File::H.bitboard();
    match color {
        Color::White => BitBoard(((pawns & not_a).0 << 7) | ((pawns & not_h).0 << 9)),
        Color::Black => BitBoard(((pawns & not_h).0 >> 7) | ((pawns & not_a).0 >> 9)),
    }
}

/// The ranks in front of `square` as `color` moves.
#[inline(always)]
fn ranks_ahead(square: Square, color: Color) -> BitBoard {
    let rank = square.rank() as u32;
    match color {
        Color::White => BitBoard(u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0)),
        Color::Black => BitBoard((1u64 << (8 * rank)) - 1),
    }
}

/// King steps between two squares (Chebyshev distance).
#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Adds the pawn-structure terms of `color`'s pawns.
#[inline(always)]
pub(super) fn add_terms<T: Terms>(board: &Board, color: Color, params: &EvalParams, terms: &mut T) {
    let own = board.colored_pieces(color, Piece::Pawn);
    let enemy = board.colored_pieces(!color, Piece::Pawn);
    let own_attacks = pawn_attacks(own, color);
    terms.add(&params.supported_pawn, color, (own & own_attacks).len() as i32);
    let targets = board.colors(!color) - enemy - board.pieces(Piece::King);
    terms.add(&params.pawn_threat, color, (own_attacks & targets).len() as i32);
    for square in own {
        let file = square.file();
        let ahead = ranks_ahead(square, color);
        let blocked_by_own = !(own & ahead & file.bitboard()).is_empty();
        if blocked_by_own {
            terms.add(&params.doubled_pawn, color, 1);
        }
        if (own & file.adjacent()).is_empty() {
            terms.add(&params.isolated_pawn, color, 1);
        }
        let stoppers = enemy & ahead & (file.bitboard() | file.adjacent());
        if stoppers.is_empty() && !blocked_by_own {
            let rank = square.rank().relative_to(color) as usize;
            terms.add(&params.passed_pawn[rank - 1], color, 1);
            let stop = square.offset(0, if color == Color::White { 1 } else { -1 });
            for (king, weight) in [color, !color].into_iter().zip(&params.passed_king_distance) {
                terms.add(weight, color, distance(board.king(king), stop));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::get_pawn_attacks;

    #[test]
    fn set_wise_pawn_attacks_match_per_square_attacks() {
        for color in Color::ALL {
            for square in Square::ALL {
                assert_eq!(pawn_attacks(square.bitboard(), color), get_pawn_attacks(square, color), "{color:?} {square}");
            }
        }
    }

    #[test]
    fn ranks_ahead_of_a_pawn() {
        assert_eq!(ranks_ahead(Square::E7, Color::White), cozy_chess::Rank::Eighth.bitboard());
        assert_eq!(ranks_ahead(Square::E2, Color::Black), cozy_chess::Rank::First.bitboard());
        assert_eq!(ranks_ahead(Square::E8, Color::White), BitBoard::EMPTY);
        assert_eq!(ranks_ahead(Square::E1, Color::Black), BitBoard::EMPTY);
        assert_eq!(ranks_ahead(Square::A4, Color::White).len(), 32);
    }
}
