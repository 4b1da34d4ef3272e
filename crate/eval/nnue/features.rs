//! The network's inputs: 768 per perspective, one for each (own or enemy, piece kind,
//! square), the squares flipped top to bottom for Black, so that a position and its
//! colour-flipped mirror give the two perspectives swapped.
use cozy_chess::{Color, Piece, Square};

/// Inputs of one perspective.
pub const INPUTS: usize = 768;

/// The input that says `piece` of `color` stands on `square`, seen from `perspective`.
#[inline(always)]
pub fn index(perspective: Color, color: Color, piece: Piece, square: Square) -> usize {
    let (relation, square) = match perspective {
        Color::White => ((color != Color::White) as usize, square as usize),
        Color::Black => ((color != Color::Black) as usize, square as usize ^ 56),
    };
    (relation * 6 + piece as usize) * 64 + square
}

/// Calls `f` with every active input of `board` from `perspective`.
#[inline(always)]
pub fn for_each_active(board: &cozy_chess::Board, perspective: Color, mut f: impl FnMut(usize)) {
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in board.colored_pieces(color, piece) {
                f(index(perspective, color, piece, square));
            }
        }
    }
}
