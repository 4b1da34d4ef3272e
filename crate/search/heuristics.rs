//! Move-ordering memory kept between nodes: two killer moves per ply and the history
//! heuristic. Killers are per searcher; the history table is the searcher's own unless
//! processors share one ([`Heuristics::use_history`]). Nothing here affects the minimax
//! value.

use super::score::MAX_PLY;
use cozy_chess::{Color, Move};
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::Arc;

/// History values stay within ±HISTORY_MAX (the update below is self-limiting).
pub const HISTORY_MAX: i32 = 16_384;

/// History scores of quiet moves by side, from-square and to-square.
///
/// Race contract: processors sharing a table read and update its words without locks, so
/// an update may overwrite one made at the same moment. A score only orders moves and
/// tunes a reduction, and stays within ±[`HISTORY_MAX`] whatever it read, so a lost
/// update costs nothing but a little ordering.
pub struct History {
    scores: [AtomicI32; 2 * 64 * 64],
}

impl Default for History {
    fn default() -> Self {
        History { scores: std::array::from_fn(|_| AtomicI32::new(0)) }
    }
}

impl History {
    fn score(&self, side: Color, mv: Move) -> &AtomicI32 {
        &self.scores[(side as usize * 64 + mv.from as usize) * 64 + mv.to as usize]
    }
}

/// Killers and history of one searcher.
pub struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Arc<History>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics { killers: [[None; 2]; MAX_PLY + 1], history: Arc::default() }
    }
}

impl Heuristics {
    /// Forgets everything (new game), in a shared history table for every sharer.
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        for score in &self.history.scores {
            score.store(0, Relaxed);
        }
    }

    /// The history table this searcher reads and trains.
    pub fn history_table(&self) -> &Arc<History> {
        &self.history
    }

    /// Reads and trains `history` from now on (shared with other searchers, or a fresh
    /// table of its own).
    pub fn use_history(&mut self, history: Arc<History>) {
        self.history = history;
    }

    /// Killers of `ply`, most recent first.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The killers of the `N` plies from `ply` on (what a subtree handed to another
    /// processor takes along).
    pub fn killers_from<const N: usize>(&self, ply: usize) -> [[Option<Move>; 2]; N] {
        std::array::from_fn(|i| self.killers.get(ply + i).copied().unwrap_or([None; 2]))
    }

    /// Takes over killers handed on with a subtree (see [`Heuristics::killers_from`]).
    pub fn set_killers_from<const N: usize>(&mut self, ply: usize, killers: &[[Option<Move>; 2]; N]) {
        for (slot, k) in self.killers.iter_mut().skip(ply).zip(killers) {
            *slot = *k;
        }
    }

    /// Clears the killers of `ply` (children of a new node start fresh at ply + 2).
    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [None; 2];
        }
    }

    /// History score of a quiet move.
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        self.history.score(side, mv).load(Relaxed)
    }

    /// Records that quiet `best` caused a cutoff at `depth`, after the quiet moves in
    /// `tried` failed to.
    pub fn reward(&mut self, side: Color, ply: usize, depth: i32, best: Move, tried: &[Move]) {
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        let bonus = (depth * depth).min(1200);
        self.update(side, best, bonus);
        for &mv in tried.iter().filter(|&&m| m != best) {
            self.update(side, mv, -bonus);
        }
    }

    fn update(&mut self, side: Color, mv: Move, bonus: i32) {
        let score = self.history.score(side, mv);
        let h = score.load(Relaxed);
        score.store(h + bonus - h * bonus.abs() / HISTORY_MAX, Relaxed);
    }
}
