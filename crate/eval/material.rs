//! Material and piece placement (piece-square tables).
use cozy_chess::{Board, Color, Piece, Square};

use super::{EvalParams, Terms};

/// Index into a piece-square table (drawn as a board, a8 first) for `color`'s piece on `square`.
#[inline(always)]
pub(super) fn psqt_index(square: Square, color: Color) -> usize {
    square.relative_to(color) as usize ^ 56
}

/// Adds material and placement of all of `color`'s pieces.
#[inline(always)]
pub(super) fn add_terms<T: Terms>(board: &Board, color: Color, params: &EvalParams, terms: &mut T) {
    for piece in Piece::ALL {
        let squares = board.colored_pieces(color, piece);
        if let Some(value) = params.material.get(piece as usize) {
            terms.add(value, color, squares.len() as i32);
        }
        let table = &params.psqt[piece as usize];
        for square in squares {
            terms.add(&table[psqt_index(square, color)], color, 1);
        }
    }
}
