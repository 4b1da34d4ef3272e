//! Playing below full strength (UCI_LimitStrength / UCI_Elo): a smaller search and a
//! choice among the best few lines with score noise. The move played is always one the
//! search considered, so weak play stays plausible rather than random.

use super::driver::Line;
use super::time::Limits;
use cozy_chess::Move;

/// Lowest and highest Elo the weakening offers.
pub const MIN_ELO: u32 = 1000;
/// Above this the engine plays at full strength.
pub const MAX_ELO: u32 = 2850;
/// The measured line: the uncorrected scale played at `SLOPE · Elo + OFFSET`.
const CALIBRATION_SLOPE: f64 = 0.9;
const CALIBRATION_OFFSET: f64 = 30.0;
/// Lines searched so that the weakened engine has alternatives to choose from.
pub const CANDIDATE_LINES: usize = 4;

/// A target playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

impl Strength {
    /// A strength clamped to the offered range.
    pub fn new(elo: u32) -> Strength {
        Strength { elo: elo.clamp(MIN_ELO, MAX_ELO) }
    }

    /// 0 at the weakest level, 1 at the strongest. Calibration against Stockfish 15.1's
    /// UCI_Elo (0.1 s a move, 20-game matches; `tests/tuning/strength.sh`) found the
    /// uncorrected scale (skill linear in Elo) playing at about 0.9·Elo + 30, so the
    /// requested Elo is mapped through the inverse of that line.
    fn skill(&self) -> f64 {
        let internal = ((self.elo as f64 - CALIBRATION_OFFSET) / CALIBRATION_SLOPE).clamp(MIN_ELO as f64, MAX_ELO as f64);
        (internal - MIN_ELO as f64) / (MAX_ELO - MIN_ELO) as f64
    }

    /// Caps the search depth and node count of `limits`.
    pub fn restrict(&self, limits: &mut Limits) {
        let s = self.skill();
        let depth = 1 + (s * 11.0).round() as i32;
        let nodes = (300.0 * 10f64.powf(s * 3.3)) as u64;
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
    }

    /// Picks the move to play from the searched lines (best first), using `random`
    /// (uniform 0..1 values) for the noise.
    pub fn choose(&self, lines: &[Line], mut random: impl FnMut() -> f64) -> Option<Move> {
        let noise = (1.0 - self.skill()) * 220.0;
        lines
            .iter()
            .filter_map(|l| l.pv.first().map(|&m| (m, l.score as f64 + random() * noise)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(m, _)| m)
    }
}
