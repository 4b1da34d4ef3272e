//! The network's weights and its integer output layer.
use super::{side, Accumulator, HIDDEN, QA, QB, SCALE, SQUARE_SHIFT};
use cozy_chess::Color;

/// A quantised network (see the module notes of [`super`] for the layout and scales).
///
/// No perspective's i32 sum can overflow: a rounded clipped square is at most
/// [`MAX_SQUARE`] = 2,032, an output weight at most [`super::OUTPUT_WEIGHT_LIMIT`] = 4,096 in
/// magnitude (the trainer clips weights to ±1.98 and `QB` is 2,048: 4,055 at most; the file
/// reader refuses more), and a perspective has `HIDDEN = 256` products:
/// 256 × 2,032 × 4,096 < 2³¹ (checked below, at compile time). The two perspectives' sums,
/// and the scaling after them, are added in i64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// One row of HIDDEN weights per input.
    pub(super) feature_weights: Vec<Row>,
    pub(super) feature_bias: [i16; HIDDEN],
    /// The side to move's half, then the other side's.
    pub(super) output_weights: [Row; 2],
    /// Scaled by `QA · QB`.
    pub(super) output_bias: i32,
}

/// HIDDEN weights the hot loops read, aligned to a cache line: a vector load of them then
/// never straddles two lines, and (with [`Row::weights`]) the compiler knows it, so that
/// AVX2 loads them whole, where it splits a 256-bit load of unknown alignment in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Row(pub(super) [i16; HIDDEN]);

impl Row {
    /// The weights, with their alignment made known to the optimiser.
    #[inline(always)]
    pub(super) fn weights(&self) -> &[i16; HIDDEN] {
        // SAFETY: a `Row` is aligned to 64 bytes (its repr), and so is its first field.
        unsafe { core::hint::assert_unchecked(self.0.as_ptr() as usize % 64 == 0) };
        &self.0
    }
}

impl Network {
    /// Reads a network file (the format of [`super::file`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        super::file::decode(bytes)
    }

    /// The weights of one input.
    #[inline(always)]
    pub(super) fn feature_row(&self, input: usize) -> &[i16; HIDDEN] {
        self.feature_weights[input].weights()
    }

    /// The value of the position whose sums are `accumulator`, `to_move` to move, in
    /// centipawns from the mover's view.
    #[inline]
    pub fn evaluate(&self, accumulator: &Accumulator, to_move: Color) -> i32 {
        let (us, them) = (&accumulator.sums[side(to_move)], &accumulator.sums[side(!to_move)]);
        let (w_us, w_them) = (self.output_weights[0].weights(), self.output_weights[1].weights());
        #[cfg(target_arch = "x86_64")]
        let products = if super::has_avx2() {
            // SAFETY: the processor has AVX2, checked just now.
            unsafe { (screlu_dot_avx2(us, w_us), screlu_dot_avx2(them, w_them)) }
        } else {
            (screlu_dot(us, w_us), screlu_dot(them, w_them))
        };
        #[cfg(not(target_arch = "x86_64"))]
        let products = (screlu_dot(us, w_us), screlu_dot(them, w_them));
        // The sums are in units of QA² · QB / 2^SQUARE_SHIFT; the bias in QA · QB.
        let sum = (i64::from(products.0) + i64::from(products.1)) << SQUARE_SHIFT;
        ((sum / i64::from(QA) + i64::from(self.output_bias)) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// The largest rounded clipped square.
const MAX_SQUARE: i32 = rounded_square(QA as u16) as i32;

const _: () = assert!(
    HIDDEN as i64 * MAX_SQUARE as i64 * super::OUTPUT_WEIGHT_LIMIT as i64 <= i32::MAX as i64,
    "a perspective's output sum must fit in an i32"
);

/// `clipped²` rounded to units of 2^SQUARE_SHIFT, for `clipped` within 0..=QA: the square
/// wraps no u16 (65,025 + 16 < 2^16), so the vector code computes it in 16-bit lanes.
#[inline(always)]
const fn rounded_square(clipped: u16) -> u16 {
    (clipped * clipped + (1 << (SQUARE_SHIFT - 1))) >> SQUARE_SHIFT
}

/// Σ round(clip(s)²) · w over a perspective: the rounded square fits in an i16 (at most
/// [`MAX_SQUARE`]), so the square takes 16-bit lanes and its product with the weight sums
/// pairs into i32 (x86's `pmaddwd`, wasm's `i32x4.dot_i16x8_s`). Portable code, which LLVM
/// vectorises on x86-64; on wasm32 SIMD128 it does not find the dot product, so that target
/// has the same steps written with its intrinsics, as AVX2 has them at twice the width.
/// All give the exact sum.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn screlu_dot(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut total = 0i32;
    for (&s, &w) in sums.iter().zip(weights) {
        let square = rounded_square(s.clamp(0, QA as i16) as u16);
        total += square as i16 as i32 * w as i32;
    }
    total
}

/// [`screlu_dot`] in AVX2 intrinsics, sixteen sums at a time, for processors that have it
/// (x86-64-v2 builds check at run time). LLVM vectorises the portable loop at the width of
/// its i32 total, eight lanes, which leaves the 16-bit steps in half of each register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use core::arch::x86_64::*;
    let (zero, one, half) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16), _mm256_set1_epi16(1 << (SQUARE_SHIFT - 1)));
    let mut total = _mm256_setzero_si256();
    for (s, w) in sums.chunks_exact(16).zip(weights.chunks_exact(16)) {
        // SAFETY: each chunk is sixteen i16, the 32 bytes an unaligned load reads.
        let (s, w) = unsafe { (_mm256_loadu_si256(s.as_ptr().cast()), _mm256_loadu_si256(w.as_ptr().cast())) };
        let clipped = _mm256_min_epi16(_mm256_max_epi16(s, zero), one);
        // The square wraps no u16 lane (see `rounded_square`), so a logical shift rounds it.
        let square = _mm256_srli_epi16::<{ SQUARE_SHIFT as i32 }>(_mm256_add_epi16(_mm256_mullo_epi16(clipped, clipped), half));
        total = _mm256_add_epi32(total, _mm256_madd_epi16(square, w));
    }
    let quarters = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256::<1>(total));
    let halves = _mm_add_epi32(quarters, _mm_unpackhi_epi64(quarters, quarters));
    _mm_cvtsi128_si32(_mm_add_epi32(halves, _mm_shuffle_epi32::<0b01>(halves)))
}

/// [`screlu_dot`] in SIMD128 intrinsics, eight sums at a time.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn screlu_dot(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use core::arch::wasm32::*;
    let (zero, one, half) = (i16x8_splat(0), i16x8_splat(QA as i16), u16x8_splat(1 << (SQUARE_SHIFT - 1)));
    let mut total = i32x4_splat(0);
    for (s, w) in sums.chunks_exact(8).zip(weights.chunks_exact(8)) {
        // SAFETY: each chunk is eight i16, the 16 bytes a v128 load reads; wasm loads
        // need no alignment.
        let (s, w) = unsafe { (v128_load(s.as_ptr().cast()), v128_load(w.as_ptr().cast())) };
        let clipped = i16x8_min(i16x8_max(s, zero), one);
        let square = u16x8_shr(u16x8_add(u16x8_mul(clipped, clipped), half), SQUARE_SHIFT);
        total = i32x4_add(total, i32x4_dot_i16x8(square, w));
    }
    i32x4_extract_lane::<0>(total) + i32x4_extract_lane::<1>(total) + i32x4_extract_lane::<2>(total) + i32x4_extract_lane::<3>(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::OUTPUT_WEIGHT_LIMIT;
    use crate::random::Random;

    /// The output layer's sum, each product in i64 as its definition reads.
    fn reference(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
        let square = |s: i16| ((s as i64).clamp(0, QA as i64).pow(2) + (1 << (SQUARE_SHIFT - 1))) >> SQUARE_SHIFT;
        sums.iter().zip(weights).map(|(&s, &w)| square(s) * w as i64).sum()
    }

    #[test]
    fn the_output_product_is_exact_over_the_whole_range() {
        let mut random = Random::new(42, 0);
        let limit = OUTPUT_WEIGHT_LIMIT as i64;
        let mut draw = |low: i64, high: i64| (low + (random.next_u64() % (high - low + 1) as u64) as i64) as i16;
        for case in 0..2000 {
            let (mut sums, mut weights) = ([0i16; HIDDEN], [0i16; HIDDEN]);
            for (s, w) in sums.iter_mut().zip(&mut weights) {
                // Sums anywhere in i16, around the clip's ends, or clipped to its top;
                // weights anywhere allowed, or all at one extreme (the largest totals).
                *s = match case % 3 {
                    0 => draw(i16::MIN as i64, i16::MAX as i64),
                    1 => draw(-2, QA as i64 + 2),
                    _ => QA as i16,
                };
                *w = match case % 4 {
                    0 => -OUTPUT_WEIGHT_LIMIT,
                    1 => OUTPUT_WEIGHT_LIMIT,
                    _ => draw(-limit, limit),
                };
            }
            assert_eq!(screlu_dot(&sums, &weights) as i64, reference(&sums, &weights), "sums {sums:?}, weights {weights:?}");
            #[cfg(target_arch = "x86_64")]
            if crate::eval::nnue::has_avx2() {
                // SAFETY: the processor has AVX2, checked just now.
                let wide = unsafe { screlu_dot_avx2(&sums, &weights) };
                assert_eq!(wide as i64, reference(&sums, &weights), "in AVX2's lanes: sums {sums:?}, weights {weights:?}");
            }
        }
    }
}
