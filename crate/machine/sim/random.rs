//! Reproducible randomness: each processor draws from its own SplitMix64 stream, seeded
//! from the run's seed and its id, so a simulated run repeats exactly on every platform.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: spreads every input bit over the result.
fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `salt` moved by `seed`: `salt` itself for seed 1, and for other seeds values far apart
/// in the high bits, so that a processor number xored in never makes two seeds collide.
pub(super) fn seeded(salt: u64, seed: u64) -> u64 {
    salt ^ seed.wrapping_sub(1).wrapping_mul(GOLDEN)
}

/// A well-spread, platform-independent hash of two numbers.
pub(super) fn mix(a: u64, b: u64) -> u64 {
    finalise(a.wrapping_mul(GOLDEN) ^ b.wrapping_add(0xD1B5_4A32_D192_ED03))
}

/// One processor's generator (SplitMix64).
#[derive(Clone, Debug)]
pub(super) struct Random {
    state: u64,
}

impl Random {
    /// Processor `id`'s stream for `seed`.
    pub(super) fn new(seed: u64, id: usize) -> Random {
        Random { state: mix(seed, id as u64) }
    }

    /// The next number of the stream.
    pub(super) fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        finalise(self.state)
    }
}
