//! An efficiently updatable neural network (NNUE) evaluation.
//!
//! Architecture `768 → 2×HIDDEN → 1`: each position is seen twice, once from each side
//! ("perspective"). A perspective's 768 inputs say which (own or enemy) piece of which kind
//! stands on which square, with the board flipped for Black so that both sides see the same
//! picture ([`features`]). One shared feature layer turns a perspective's active inputs into
//! HIDDEN sums, its accumulator ([`Accumulator`]); a move changes at most four inputs, so
//! the sums are updated with the move instead of recomputed. The output layer takes the
//! side to move's accumulator then the other's, each through SCReLU (clip to 0..1, square).
//!
//! Integer inference: the feature layer in i16 scaled by [`QA`], the output weights in i16
//! scaled by [`QB`], each clipped sum's square rounded to an i16, each perspective's
//! products summed in i32 (the trainer keeps every weight below 2 in magnitude, so no sum
//! can overflow, see [`network`]). The network file is versioned and read once from the
//! bytes compiled into the crate ([`file`]); [`train`] fits it to positions from the
//! project's own games, kept as text or as compact [`records`].
use cozy_chess::{Board, Color};

mod accumulator;
pub mod features;
pub mod file;
mod network;
pub mod records;
pub mod train;

pub use accumulator::Accumulator;
pub use network::Network;

/// Sums each perspective of the feature layer keeps (128 until the fifth network, whose
/// 11.4 M positions a wider layer fits better: docs/strength.md).
pub const HIDDEN: usize = 256;
/// Scale of the feature layer's weights and of the clip (1.0 is `QA`).
pub const QA: i32 = 255;
/// Scale of the output layer's weights: steps of 1/2,048. Steps of 1/64 (the fifth network
/// as trained) moved the trainer's checked values by up to 18 cp at 256 wide.
pub const QB: i32 = 2048;
/// Centipawns per unit of the network's output (the trainer's sigmoid scale).
pub const SCALE: i32 = 400;
/// A clipped sum's square, at most `QA²` = 65,025, is rounded to units of 2^SQUARE_SHIFT: at
/// most 2,032, an i16 lane, so that the output layer's product with a weight is one
/// multiply-add of 16-bit lanes. A unit is 1/2,032 of a full square.
const SQUARE_SHIFT: u32 = 5;
/// The largest magnitude of an output weight (2.0 at scale `QB`; the trainer keeps weights
/// within ±1.98): a perspective's sum then fits in an i32 ([`network`]); the file reader
/// refuses more.
const OUTPUT_WEIGHT_LIMIT: i16 = 4096;

/// The network shipped with the engine (crate/eval/nnue/default.nnue, made by
/// `tests/tuning/nnue.sh`).
pub fn default_network() -> &'static Network {
    static NETWORK: std::sync::LazyLock<Network> =
        std::sync::LazyLock::new(|| Network::from_bytes(include_bytes!("default.nnue")).expect("the shipped network file is valid"));
    &NETWORK
}

/// The shipped network's value of `board`, whose accumulator is `accumulator`, in
/// centipawns from the side to move's view, within ±[`super::MAX_EVAL`].
#[inline]
pub fn evaluate(board: &Board, accumulator: &Accumulator) -> i32 {
    default_network().evaluate(accumulator, board.side_to_move()).clamp(-super::MAX_EVAL, super::MAX_EVAL)
}

/// The shipped network's value of `board` computed from scratch (no accumulator kept).
pub fn evaluate_from_scratch(board: &Board) -> i32 {
    let network = default_network();
    evaluate(board, &Accumulator::refreshed(network, board))
}

/// Whether this processor has AVX2. Native builds assume only x86-64-v2
/// (.cargo/config.toml), whose vectors are SSE's 128 bits; with AVX2 the feature layer's
/// update and the output layer, the network's whole cost, run in 256-bit lanes, on a
/// check made at run time so that one binary still runs on every x86-64-v2 processor.
/// The answer is cached by the standard library: a load and a test a call.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Index of a perspective's half of an accumulator.
#[inline(always)]
fn side(color: Color) -> usize {
    color as usize
}
