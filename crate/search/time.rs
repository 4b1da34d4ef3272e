//! Search limits as UCI `go` gives them, and how much time to spend.

use cozy_chess::{Color, Move};

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
