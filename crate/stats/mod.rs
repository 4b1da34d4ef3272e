//! The measures of the classic papers, computed from real runs.

mod speedup;

pub use speedup::{decimals, measure_speedup, measure_speedup_on, pooled_speedup, MessagesByKind, SpeedupPlan, SpeedupRow};
