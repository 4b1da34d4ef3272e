//! The measures of StarTech and TDSAB from simulated runs: work W, critical path C and
//! the fit T_P ≈ a·W/P + b·C (Kuszmaul 1994, after Blumofe and Leiserson's Cilk), and
//! the synchronization and communication overheads (Kishimoto and Schaeffer 2002), and
//! how busy the network's links were.

use super::RunReport;

/// One run's work and time, as the fit needs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkSpan {
    /// Processors P.
    pub processors: usize,
    /// T_P: time to the result.
    pub time_ns: u64,
    /// W: busy time of all processors.
    pub work_ns: u64,
    /// C: the critical path.
    pub critical_path_ns: u64,
}

/// StarTech's model T_P ≈ a·W/P + b·C, fitted by least squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkSpanFit {
    /// The weight of the work term (1 for perfect greedy scheduling).
    pub a: f64,
    /// The weight of the critical-path term (StarTech found about 1 to 4; Cilk's bound is 1).
    pub b: f64,
    /// Root-mean-square of (model − T_P) / T_P over the runs.
    pub rms_relative_error: f64,
    /// Runs fitted.
    pub runs: usize,
}

/// Fits T_P ≈ a·W/P + b·C over `runs` by least squares (no intercept): solves the 2×2
/// normal equations. `None` with fewer than two runs or when W/P and C are proportional
/// over all runs (then a and b cannot be told apart).
pub fn fit_work_span(runs: &[WorkSpan]) -> Option<WorkSpanFit> {
    if runs.len() < 2 {
        return None;
    }
    let terms = |r: &WorkSpan| (r.work_ns as f64 / r.processors.max(1) as f64, r.critical_path_ns as f64, r.time_ns as f64);
    let (mut xx, mut xy, mut yy, mut xt, mut yt) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (x, y, t) in runs.iter().map(terms) {
        (xx, xy, yy, xt, yt) = (xx + x * x, xy + x * y, yy + y * y, xt + x * t, yt + y * t);
    }
    let determinant = xx * yy - xy * xy;
    if determinant.abs() <= 1e-9 * xx * yy {
        return None;
    }
    let a = (xt * yy - yt * xy) / determinant;
    let b = (yt * xx - xt * xy) / determinant;
    let squares: f64 = runs.iter().map(terms).map(|(x, y, t)| ((a * x + b * y - t) / t.max(1.0)).powi(2)).sum();
    Some(WorkSpanFit { a, b, rms_relative_error: (squares / runs.len() as f64).sqrt(), runs: runs.len() })
}

/// TDSAB's overheads of one run, as shares of all processors' time until the last one
/// finished.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overheads {
    /// Synchronization: time processors sat idle, waiting for work or for values.
    pub synchronization: f64,
    /// Communication: busy time spent sending and handling messages.
    pub communication: f64,
}

impl RunReport {
    /// The run's synchronization and communication overheads.
    pub fn overheads(&self) -> Overheads {
        let total: u64 = self.busy_ns.iter().sum::<u64>() + self.idle_ns.iter().sum::<u64>();
        let share = |part: &[u64]| part.iter().sum::<u64>() as f64 / total.max(1) as f64;
        Overheads { synchronization: share(&self.idle_ns), communication: share(&self.handling_ns) }
    }
}

/// How busy a run kept the network: each link's share of the run's time (to the last
/// processor's end) that its lanes carried messages, averaged over links and at the busiest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkUse {
    /// Mean over links (0 to 1).
    pub mean: f64,
    /// The busiest link's share (0 to 1): the bottleneck if it nears 1.
    pub busiest: f64,
}
