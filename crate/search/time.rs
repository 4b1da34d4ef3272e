//! Search limits as UCI `go` gives them, and how much time to spend.

use super::driver::Control;
use super::score::{MATE, MAX_PLY};
use crate::clock::now_ms;
use cozy_chess::{Color, Move};

/// The deepest iteration any search runs.
const MAX_DEPTH: i32 = 100;

/// The limits of one search (`go` parameters). `None` means "not given".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Plies to search.
    pub depth: Option<i32>,
    /// Positions to visit.
    pub nodes: Option<u64>,
    /// Exact time to spend, in ms.
    pub movetime: Option<u64>,
    /// Remaining clock time of white and black, in ms.
    pub time: [Option<u64>; 2],
    /// Increments of white and black, in ms.
    pub increment: [Option<u64>; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode (until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<Move>,
}

/// Deadlines in ms after the clock starts: stop deepening after `soft`, abort at `hard`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start another iteration after this much time.
    pub soft: f64,
    /// Abort the search at this time.
    pub hard: f64,
}

impl Limits {
    /// The time budget for `side` to move, keeping `overhead` ms in reserve for
    /// communication; `None` when no time limit applies.
    pub fn budget(&self, side: Color, overhead: u64) -> Option<Budget> {
        if let Some(ms) = self.movetime {
            let t = ms.saturating_sub(overhead).max(1) as f64;
            return Some(Budget { soft: t, hard: t });
        }
        let left = self.time[side as usize]?;
        let inc = self.increment[side as usize].unwrap_or(0) as f64;
        let usable = (left.saturating_sub(overhead)).max(1) as f64;
        let moves = self.movestogo.unwrap_or(30).clamp(1, 50) as f64;
        let soft = (usable / moves + inc * 0.75).min(usable * 0.4);
        let hard = (soft * 4.0).min(usable * 0.75).max(soft);
        Some(Budget { soft: soft.max(1.0), hard: hard.max(1.0) })
    }
}

/// Where an iterative deepening stops, by `go`'s limits: between iterations (the depth
/// asked for, the soft time, a mate found or asked for) and within one (the hard time,
/// whose clock starts again at `ponderhit`). The serial driver and the parallel programs
/// that run a deepening of their own (TDSAB's MTD(f) driver, APHID's master) share it, so
/// that a `go` means the same to each.
#[derive(Clone, Copy, Debug)]
pub struct StopRules {
    max_depth: i32,
    budget: Option<Budget>,
    mate: Option<u32>,
    /// Neither `infinite` nor a depth: a proven mate ends the deepening.
    open_ended: bool,
    start: f64,
}

impl StopRules {
    /// The rules of `limits` for `side` to move, `overhead` ms kept for communication;
    /// the clock starts now.
    pub fn new(limits: &Limits, side: Color, overhead: u64) -> StopRules {
        StopRules {
            max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
            budget: limits.budget(side, overhead),
            mate: limits.mate,
            open_ended: !limits.infinite && limits.depth.is_none(),
            start: now_ms(),
        }
    }

    /// The deepest iteration to run.
    pub fn max_depth(&self) -> i32 {
        self.max_depth
    }

    /// Milliseconds since the search started.
    pub fn elapsed(&self) -> f64 {
        now_ms() - self.start
    }

    /// Whether another iteration should not start after `depth`, whose result scored `score`.
    pub fn iterations_over(&self, depth: i32, score: i32, control: &Control) -> bool {
        if depth >= self.max_depth {
            return true;
        }
        // Soft time: an iteration started later would rarely finish.
        if !control.pondering() && self.budget.is_some_and(|b| self.since_clock_start(control) >= b.soft * 0.6) {
            return true;
        }
        if self.mate.is_some_and(|n| score >= MATE - 2 * n as i32) {
            return true;
        }
        // A proven mate is not improved by searching deeper unless asked to.
        let mate_plies = MATE - score.abs();
        self.open_ended && mate_plies < MAX_PLY as i32 && depth > mate_plies + 2
    }

    /// Whether the hard time is up (never while pondering).
    pub fn past_hard_time(&self, control: &Control) -> bool {
        !control.pondering() && self.budget.is_some_and(|b| self.since_clock_start(control) >= b.hard)
    }

    fn since_clock_start(&self, control: &Control) -> f64 {
        now_ms() - control.clock_start(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let mut l = Limits { time: [Some(10_000), Some(500)], increment: [Some(100), None], ..Default::default() };
        let w = l.budget(Color::White, 50).unwrap();
        assert!(w.soft > 300.0 && w.hard <= 7_500.0 && w.soft <= w.hard);
        let b = l.budget(Color::Black, 50).unwrap();
        assert!(b.hard < 450.0);
        l.movestogo = Some(1);
        assert!(l.budget(Color::White, 50).unwrap().hard <= 0.75 * 9_950.0);
        assert_eq!(Limits { movetime: Some(1000), ..Default::default() }.budget(Color::White, 10).unwrap().hard, 990.0);
        assert!(Limits::default().budget(Color::White, 10).is_none());
    }
}
