//! The feature layer's sums for both perspectives, kept up to date move by move.
//!
//! An update compares the piece placement before and after (12 bitboard differences), so
//! every kind of move — castling, en passant, promotion, a null move — is handled the same
//! way, and the searcher needs only the parent's and the child's boards.
use super::features::index;
use super::{side, Network, HIDDEN};
use cozy_chess::{Board, Color, Piece};

/// The sums of both perspectives (White's first); each starts from the layer's bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    pub(super) sums: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { sums: [[0; HIDDEN]; 2] }
    }
}

impl Accumulator {
    /// The sums of `board` computed from scratch.
    pub fn refreshed(network: &Network, board: &Board) -> Accumulator {
        let mut accumulator = Accumulator::default();
        accumulator.refresh(network, board);
        accumulator
    }

    /// Recomputes the sums of `board` from scratch.
    pub fn refresh(&mut self, network: &Network, board: &Board) {
        for perspective in Color::ALL {
            let sums = &mut self.sums[side(perspective)];
            *sums = network.feature_bias;
            super::features::for_each_active(board, perspective, |input| add(sums, network.feature_row(input)));
        }
    }

    /// The sums of `child`, a position one move (or a null move) after `parent`, whose
    /// sums are `from`.
    #[inline]
    pub fn updated(network: &Network, from: &Accumulator, parent: &Board, child: &Board) -> Accumulator {
        let mut sums = *from;
        sums.update(network, parent, child);
        sums
    }

    /// Moves these sums, those of `parent`, to those of `child`, a position one move (or
    /// a null move) later.
    #[inline]
    pub fn update(&mut self, network: &Network, parent: &Board, child: &Board) {
        for color in Color::ALL {
            for piece in Piece::ALL {
                let before = parent.colored_pieces(color, piece);
                let after = child.colored_pieces(color, piece);
                for square in before & !after {
                    for perspective in Color::ALL {
                        sub(&mut self.sums[side(perspective)], network.feature_row(index(perspective, color, piece, square)));
                    }
                }
                for square in after & !before {
                    for perspective in Color::ALL {
                        add(&mut self.sums[side(perspective)], network.feature_row(index(perspective, color, piece, square)));
                    }
                }
            }
        }
    }
}

/// Adds a weight row; a fixed-length loop the compiler vectorises.
#[inline(always)]
fn add(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_sub(*w);
    }
}
