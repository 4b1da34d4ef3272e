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

/// Squares on the same file strictly behind any of `squares`, as `color` moves (toward
/// `color`'s own side of the board).
#[inline(always)]
fn behind(squares: BitBoard, color: Color) -> BitBoard {
    let mut b = squares.0;
    match color {
        Color::White => {
            b >>= 8;
            b |= b >> 8;
            b |= b >> 16;
            b |= b >> 32;
        }
        Color::Black => {
            b <<= 8;
            b |= b << 8;
            b |= b << 16;
            b |= b << 32;
        }
    }
    BitBoard(b)
}

/// The squares beside `squares` on the files to their left and right.
#[inline(always)]
fn beside(squares: BitBoard) -> BitBoard {
    let east = (squares & !File::H.bitboard()).0 << 1;
    let west = (squares & !File::A.bitboard()).0 >> 1;
    BitBoard(east | west)
}

/// Every square of the files that hold any of `squares`.
#[inline(always)]
pub(super) fn files_of(squares: BitBoard) -> BitBoard {
    behind(squares, Color::White) | behind(squares, Color::Black) | squares
}

/// King steps between two squares (Chebyshev distance).
#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Adds the pawn-structure terms of `color`'s pawns. The pawns of each kind are found for
/// all pawns at once with shifts and fills; only passed pawns are visited one by one.
#[inline(always)]
pub(super) fn add_terms<T: Terms>(board: &Board, color: Color, params: &EvalParams, terms: &mut T) {
    let own = board.colored_pieces(color, Piece::Pawn);
    let enemy = board.colored_pieces(!color, Piece::Pawn);
    let own_attacks = pawn_attacks(own, color);
    terms.add(&params.supported_pawn, color, (own & own_attacks).len() as i32);
    let targets = board.colors(!color) - enemy - board.pieces(Piece::King);
    terms.add(&params.pawn_threat, color, (own_attacks & targets).len() as i32);
    // A pawn with another of its own ahead on its file is doubled (the front one is not).
    let doubled = own & behind(own, color);
    terms.add(&params.doubled_pawn, color, doubled.len() as i32);
    let isolated = own - beside(files_of(own));
    terms.add(&params.isolated_pawn, color, isolated.len() as i32);
    // Passed: no enemy pawn ahead on its file or the files beside it, no own pawn ahead.
    let stopped = behind(enemy | beside(enemy), color);
    for square in own - stopped - doubled {
        let rank = square.rank().relative_to(color) as usize;
        terms.add(&params.passed_pawn[rank - 1], color, 1);
        let stop = square.offset(0, if color == Color::White { 1 } else { -1 });
        for (king, weight) in [color, !color].into_iter().zip(&params.passed_king_distance) {
            terms.add(weight, color, distance(board.king(king), stop));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::{get_pawn_attacks, Rank};

    #[test]
    fn set_wise_pawn_attacks_match_per_square_attacks() {
        for color in Color::ALL {
            for square in Square::ALL {
                assert_eq!(pawn_attacks(square.bitboard(), color), get_pawn_attacks(square, color), "{color:?} {square}");
            }
        }
    }

    #[test]
    fn squares_behind_and_files() {
        assert_eq!(behind(Square::E3.bitboard(), Color::White), Square::E2.bitboard() | Square::E1.bitboard());
        assert_eq!(behind(Square::E6.bitboard(), Color::Black), Square::E7.bitboard() | Square::E8.bitboard());
        assert_eq!(behind(Rank::First.bitboard(), Color::White), BitBoard::EMPTY);
        assert_eq!(files_of(Square::A4.bitboard() | Square::H7.bitboard()), File::A.bitboard() | File::H.bitboard());
        assert_eq!(beside(Square::A4.bitboard()), Square::B4.bitboard());
        assert_eq!(beside(Square::H4.bitboard()), Square::G4.bitboard());
    }

    /// The pawn kinds as one pawn at a time defines them.
    fn per_pawn(board: &Board, color: Color) -> (u32, u32, BitBoard) {
        let own = board.colored_pieces(color, Piece::Pawn);
        let enemy = board.colored_pieces(!color, Piece::Pawn);
        let (mut doubled, mut isolated, mut passed) = (0, 0, BitBoard::EMPTY);
        for square in own {
            let file = square.file();
            let ahead = Rank::ALL.iter().filter(|r| match color {
                Color::White => **r > square.rank(),
                Color::Black => **r < square.rank(),
            });
            let ahead = ahead.fold(BitBoard::EMPTY, |b, r| b | r.bitboard());
            let blocked_by_own = !(own & ahead & file.bitboard()).is_empty();
            doubled += u32::from(blocked_by_own);
            isolated += u32::from((own & file.adjacent()).is_empty());
            if (enemy & ahead & (file.bitboard() | file.adjacent())).is_empty() && !blocked_by_own {
                passed |= square.bitboard();
            }
        }
        (doubled, isolated, passed)
    }

    /// The set-wise doubled, isolated and passed pawns are those of the definition, on
    /// positions with every kind of pawn structure (the perft suite's and random ones).
    #[test]
    fn set_wise_pawn_kinds_match_the_per_pawn_definition() {
        let mut random = crate::random::Random::new(1, 0);
        for _ in 0..2000 {
            let board = crate::chess::random_position(&mut random, 120);
            for color in Color::ALL {
                let own = board.colored_pieces(color, Piece::Pawn);
                let enemy = board.colored_pieces(!color, Piece::Pawn);
                let doubled = own & behind(own, color);
                let isolated = own - beside(files_of(own));
                let passed = own - behind(enemy | beside(enemy), color) - doubled;
                assert_eq!((doubled.len(), isolated.len(), passed), per_pawn(&board, color), "{board} {color:?}");
            }
        }
    }
}
