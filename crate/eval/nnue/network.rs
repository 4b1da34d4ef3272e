//! The network's weights and its integer output layer.
use super::{side, Accumulator, HIDDEN, QA, QB, SCALE};
use cozy_chess::Color;

/// A quantised network (see the module notes of [`super`] for the layout and scales).
///
/// No i32 sum can overflow: a clipped square is at most `QA² = 65025`, an output weight at
/// most 127 (the trainer clips weights to ±1.98 and `QB` is 64), and there are
/// `2 × HIDDEN = 256` products: 256 × 65025 × 127 < 2³¹.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// One row of HIDDEN weights per input.
    pub(super) feature_weights: Vec<[i16; HIDDEN]>,
    pub(super) feature_bias: [i16; HIDDEN],
    /// The side to move's half, then the other side's.
    pub(super) output_weights: [[i16; HIDDEN]; 2],
    /// Scaled by `QA · QB`.
    pub(super) output_bias: i32,
}

impl Network {
    /// Reads a network file (the format of [`super::file`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        super::file::decode(bytes)
    }

    /// The weights of one input.
    #[inline(always)]
    pub(super) fn feature_row(&self, input: usize) -> &[i16; HIDDEN] {
        &self.feature_weights[input]
    }

    /// The value of the position whose sums are `accumulator`, `to_move` to move, in
    /// centipawns from the mover's view.
    #[inline]
    pub fn evaluate(&self, accumulator: &Accumulator, to_move: Color) -> i32 {
        let us = screlu_dot(&accumulator.sums[side(to_move)], &self.output_weights[0]);
        let them = screlu_dot(&accumulator.sums[side(!to_move)], &self.output_weights[1]);
        ((us + them) / QA + self.output_bias) * SCALE / (QA * QB)
    }
}

/// Σ clip(s)² · w over a perspective: `clip(s) · w` fits in i16 × i16 → i32 and is then
/// multiplied by `clip(s)` again (a fixed-length loop the compiler vectorises).
#[inline(always)]
fn screlu_dot(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut total = 0i32;
    for (&s, &w) in sums.iter().zip(weights) {
        let clipped = (s as i32).clamp(0, QA);
        total += clipped * (clipped * w as i32);
    }
    total
}
