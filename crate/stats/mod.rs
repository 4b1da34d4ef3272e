//! The measures of the classic papers, taken by running the parallel algorithms: time to
//! depth on real threads ([`measure_speedup`]), the same suite on a simulated machine in
//! virtual time ([`simulate_suite`]) and the simulator's own speed ([`simulation_speed`]).
//! These drivers sit above `parallel` (they choose and run the algorithms) and above
//! `machine` (they build the machines), so neither of those imports anything from here.

pub mod papers;
mod sim_speed;
pub mod reproduce;
mod sim_suite;
mod speedup;

pub use sim_speed::{simulation_speed, SpeedRow};
pub use sim_suite::{signature, simulate_suite, SimRow, SimSuite};
pub use speedup::{decimals, measure_speedup, measure_speedup_on, pooled_speedup, MessagesByKind, SpeedupPlan, SpeedupRow};
