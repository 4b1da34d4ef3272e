//! Move-ordering memory kept between nodes: two killer moves per ply and the history
//! heuristic. Per searcher (per processor); nothing here affects the minimax value.

use super::score::MAX_PLY;
use cozy_chess::{Color, Move};

/// History values stay within ±HISTORY_MAX (the update below is self-limiting).
pub const HISTORY_MAX: i32 = 16_384;

/// Killers and history of one searcher.
pub struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: [[[i32; 64]; 64]; 2],
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics { killers: [[None; 2]; MAX_PLY + 1], history: [[[0; 64]; 64]; 2] }
    }
}

impl Heuristics {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = Heuristics::default();
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
        self.history[side as usize][mv.from as usize][mv.to as usize]
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
        let h = &mut self.history[side as usize][mv.from as usize][mv.to as usize];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}
