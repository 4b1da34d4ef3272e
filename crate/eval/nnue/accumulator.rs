//! The feature layer's sums for both perspectives, kept up to date move by move.
//!
//! An update compares the piece placement before and after (12 bitboard differences), so
//! every kind of move — castling, en passant, promotion, a null move — is handled the same
//! way, and the searcher needs only the parent's and the child's boards. The rows a move
//! changes (at most two off and two on: castling; a capture is two off, one on) are then
//! applied in one pass over the sums, which stay in vector registers meanwhile.
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
            super::features::for_each_active(board, perspective, |input| apply(sums, [], [network.feature_row(input)]));
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
        #[cfg(target_arch = "x86_64")]
        if super::has_avx2() {
            // SAFETY: the processor has AVX2, checked just now.
            return unsafe { self.update_avx2(network, parent, child) };
        }
        self.update_in_build_lanes(network, parent, child)
    }

    /// [`Self::update`] compiled for AVX2's 256-bit lanes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(&mut self, network: &Network, parent: &Board, child: &Board) {
        self.update_in_build_lanes(network, parent, child)
    }

    /// [`Self::update`] in the lanes of the code around it: the build's own (SSE2 for
    /// x86-64, SIMD128 for wasm), or AVX2's where [`Self::update_avx2`] inlines it.
    #[inline(always)]
    fn update_in_build_lanes(&mut self, network: &Network, parent: &Board, child: &Board) {
        let (mut off, mut on) = (Changes::default(), Changes::default());
        for color in Color::ALL {
            for piece in Piece::ALL {
                let before = parent.colored_pieces(color, piece);
                let after = child.colored_pieces(color, piece);
                for square in before & !after {
                    off.push(|perspective| index(perspective, color, piece, square));
                }
                for square in after & !before {
                    on.push(|perspective| index(perspective, color, piece, square));
                }
            }
        }
        for perspective in Color::ALL {
            let p = side(perspective);
            let sums = &mut self.sums[p];
            let row = |changes: &Changes, i: usize| network.feature_row(changes.inputs[i][p]);
            match (off.count, on.count) {
                (0, 0) => {}
                (1, 1) => apply(sums, [row(&off, 0)], [row(&on, 0)]),
                (2, 1) => apply(sums, [row(&off, 0), row(&off, 1)], [row(&on, 0)]),
                (2, 2) => apply(sums, [row(&off, 0), row(&off, 1)], [row(&on, 0), row(&on, 1)]),
                _ => row_by_row(sums, network, perspective, parent, child),
            }
        }
    }
}

/// The update of one perspective's sums between any two positions (not one move apart),
/// a row at a time.
#[cold]
fn row_by_row(sums: &mut [i16; HIDDEN], network: &Network, perspective: Color, parent: &Board, child: &Board) {
    for color in Color::ALL {
        for piece in Piece::ALL {
            let before = parent.colored_pieces(color, piece);
            let after = child.colored_pieces(color, piece);
            for square in before & !after {
                apply(sums, [network.feature_row(index(perspective, color, piece, square))], []);
            }
            for square in after & !before {
                apply(sums, [], [network.feature_row(index(perspective, color, piece, square))]);
            }
        }
    }
}

/// The first two inputs (by perspective) a move turns off, or on, and how many it does.
#[derive(Default)]
struct Changes {
    inputs: [[usize; 2]; 2],
    count: usize,
}

impl Changes {
    #[inline(always)]
    fn push(&mut self, input: impl Fn(Color) -> usize) {
        if let Some(slot) = self.inputs.get_mut(self.count) {
            *slot = [input(Color::White), input(Color::Black)];
        }
        self.count += 1;
    }
}

/// Subtracts the rows `off` from the sums and adds the rows `on`, in one pass: a
/// fixed-length loop the compiler vectorises (SSE2 or AVX2 natively, SIMD128 in wasm), each
/// group of sums loaded and stored once.
#[inline(always)]
fn apply<const OFF: usize, const ON: usize>(sums: &mut [i16; HIDDEN], off: [&[i16; HIDDEN]; OFF], on: [&[i16; HIDDEN]; ON]) {
    for (i, sum) in sums.iter_mut().enumerate() {
        let mut value = *sum;
        for row in off {
            value = value.wrapping_sub(row[i]);
        }
        for row in on {
            value = value.wrapping_add(row[i]);
        }
        *sum = value;
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::chess::legal_moves;
    use crate::eval::nnue::{default_network, has_avx2};
    use crate::random::Random;

    /// The update in AVX2's lanes and in the build's give the same sums, move after move
    /// of random games (castling, captures, promotions and null moves among them): the
    /// engine runs the first where the processor has AVX2 and the second elsewhere, and
    /// tests/nnue.rs checks against a refresh only the one this processor runs.
    #[test]
    fn both_lane_widths_update_alike() {
        if !has_avx2() {
            return;
        }
        let network = default_network();
        let mut random = Random::new(7, 0);
        for _game in 0..40 {
            let mut board = Board::default();
            let mut sums = Accumulator::refreshed(network, &board);
            for _ply in 0..120 {
                let moves = legal_moves(&board);
                let child = match board.null_move() {
                    Some(passed) if random.next_u64() % 10 == 0 => passed,
                    _ if moves.is_empty() => break,
                    _ => {
                        let mut child = board.clone();
                        child.play_unchecked(moves[(random.next_u64() % moves.len() as u64) as usize]);
                        child
                    }
                };
                let mut narrow = sums;
                narrow.update_in_build_lanes(network, &board, &child);
                // SAFETY: the processor has AVX2, checked above.
                unsafe { sums.update_avx2(network, &board, &child) };
                assert_eq!(sums, narrow, "after {board} to {child}");
                board = child;
            }
            assert_eq!(sums, Accumulator::refreshed(network, &board));
        }
    }
}
