//! Move-ordering memory kept between nodes: two killer moves per ply, the history
//! heuristic and the counter-move heuristic. Killers are per searcher; the history and
//! counter-move tables are the searcher's own unless processors share them
//! ([`Heuristics::use_history`]). Nothing here affects the minimax value.

use super::score::MAX_PLY;
use crate::tt::{pack_move, unpack_move};
use cozy_chess::{Board, Color, Move};
use std::sync::atomic::{AtomicI32, AtomicU16, Ordering::Relaxed};
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
    /// The quiet move that last refuted each previous move ([`FollowUp`]), packed by
    /// [`pack_move`] (0: none). Same race contract: a lost update only leaves an older counter
    /// move, and a counter move only raises the order of a legal move equal to it.
    counters: [AtomicU16; FOLLOW_UPS],
}

impl Default for History {
    fn default() -> Self {
        History { scores: std::array::from_fn(|_| AtomicI32::new(0)), counters: std::array::from_fn(|_| AtomicU16::new(0)) }
    }
}

/// Number of distinct [`FollowUp`] keys: a piece of either colour on any square.
const FOLLOW_UPS: usize = 2 * 6 * 64;

/// The move a node follows, as the ordering tables key it: the piece that moved (with its
/// colour) and the square it went to (Schaeffer's counter-move heuristic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowUp(u16);

impl FollowUp {
    /// The key of `mv`, which led to `after`.
    pub fn of(after: &Board, mv: Move) -> Option<FollowUp> {
        let piece = after.piece_on(mv.to)?;
        let color = after.color_on(mv.to)?;
        Some(FollowUp(((color as usize * 6 + piece as usize) * 64 + mv.to as usize) as u16))
    }
}

/// Quiet moves that refuted similar positions, tried right after the good captures:
/// this ply's killers, then the counter move of the previous move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Refutations {
    /// Killers of the node's ply, most recent first.
    pub killers: [Option<Move>; 2],
    /// The reply that last refuted the move this node follows.
    pub counter: Option<Move>,
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
        for counter in &self.history.counters {
            counter.store(0, Relaxed);
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

    /// Killers of `ply` and the counter move of `follows` (the move the node follows).
    pub fn refutations(&self, ply: usize, follows: Option<FollowUp>) -> Refutations {
        let counter = follows.and_then(|f| unpack_move(self.history.counters[usize::from(f.0)].load(Relaxed)));
        Refutations { killers: self.killers[ply], counter }
    }

    /// History score of a quiet move.
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        self.history.score(side, mv).load(Relaxed)
    }

    /// Records that quiet `best` caused a cutoff at `depth` of a node that follows
    /// `follows`, after the quiet moves in `tried` failed to.
    pub fn reward(&mut self, side: Color, ply: usize, depth: i32, follows: Option<FollowUp>, best: Move, tried: &[Move]) {
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        if let Some(f) = follows {
            self.history.counters[usize::from(f.0)].store(pack_move(best), Relaxed);
        }
        // Ethereal's scale: at d² the scores stayed so small that the reduction's
        // history term (history / 8192) almost never moved.
        let bonus = (16 * depth * depth + 128 * (depth - 1).max(0)).min(2048);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A cutoff makes its move the counter move of the move the node followed, and only of
    /// that one.
    #[test]
    fn a_cutoff_sets_the_counter_move_of_the_previous_move() {
        let mut heuristics = Heuristics::default();
        let mut board = Board::default();
        let e4: Move = "e2e4".parse().unwrap();
        board.play(e4);
        let after_e4 = FollowUp::of(&board, e4);
        let d4: Move = "d2d4".parse().unwrap();
        let mut other = Board::default();
        other.play(d4);
        let after_d4 = FollowUp::of(&other, d4);
        let d5: Move = "d7d5".parse().unwrap();
        heuristics.reward(Color::Black, 1, 4, after_e4, d5, &[]);
        assert_eq!(heuristics.refutations(1, after_e4).counter, Some(d5));
        assert_eq!(heuristics.refutations(1, after_d4).counter, None);
        assert_eq!(heuristics.refutations(1, None).counter, None);
    }
}
