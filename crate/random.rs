//! Reproducible randomness, SplitMix64 everywhere: each processor of every machine draws
//! from its own stream, seeded by its id (on the simulator also by the run's seed, so a
//! simulated run repeats exactly on every platform); the playing levels' noise and the
//! tests' random schedules use one stream.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: spreads every input bit over the result.
fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `salt` moved by `seed`: `salt` itself for seed 1, and for other seeds values far apart
/// in the high bits, so that a processor number xored in never makes two seeds collide.
pub fn seeded(salt: u64, seed: u64) -> u64 {
    salt ^ seed.wrapping_sub(1).wrapping_mul(GOLDEN)
}

/// A well-spread, platform-independent hash of two numbers.
pub fn mix(a: u64, b: u64) -> u64 {
    finalise(a.wrapping_mul(GOLDEN) ^ b.wrapping_add(0xD1B5_4A32_D192_ED03))
}

/// A generator (SplitMix64): one stream per seed and stream number (a processor's id).
#[derive(Clone, Debug)]
pub struct Random {
    state: u64,
}

impl Random {
    /// Stream `id` (a processor's, or 0) of `seed`.
    pub fn new(seed: u64, id: usize) -> Random {
        Random { state: mix(seed, id as u64) }
    }

    /// The next number of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        finalise(self.state)
    }

    /// The next number as a fraction, uniform in 0..1.
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
