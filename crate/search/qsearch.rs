//! Quiescence search: from a leaf of the main search, resolve captures (and check
//! evasions) until the position is quiet, so the evaluation is not taken mid-exchange.
//! A tight recursive function, bounded by MAX_PLY; it neither reads nor writes the
//! table, so its value is a pure function of the position and the window.

use super::heuristics::{Heuristics, Refutations};
use super::ordering::MoveList;
use super::score::{MATE, MAX_PLY};
use crate::eval::evaluate_by;
use crate::eval::nnue::{default_network, Accumulator};
use cozy_chess::Board;

/// Node counters of a quiescence search.
#[derive(Default, Clone, Copy, Debug)]
pub struct QuiescenceStats {
    /// Positions visited.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
}

/// The quiescence value of `board` (side to move's view) within `alpha..beta`,
/// fail-soft. When not in check the side to move may "stand pat" on the evaluation;
/// only captures and queen promotions that do not lose material (SEE >= 0) are tried.
/// In check every evasion is tried, so mates at the horizon are seen.
/// With `accumulator` (the network's sums of `board`) the network evaluates, each
/// child's sums updated from its parent's; without, the hand-written evaluation.
pub fn quiescence(board: &Board, accumulator: Option<&Accumulator>, mut alpha: i32, beta: i32, ply: usize, stats: &mut QuiescenceStats) -> i32 {
    stats.nodes += 1;
    stats.seldepth = stats.seldepth.max(ply);
    let in_check = !board.checkers().is_empty();
    if ply >= MAX_PLY {
        return evaluate_by(board, accumulator);
    }
    let mut best = if in_check {
        -MATE + ply as i32
    } else {
        let stand_pat = evaluate_by(board, accumulator);
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        stand_pat
    };
    let mut moves = MoveList::default();
    moves.generate(board, !in_check, None, Refutations::default(), &NO_HISTORY, |_| true);
    while let Some(sm) = moves.pick() {
        if !in_check && MoveList::is_bad_capture(sm.score) {
            break;
        }
        let mut child = board.clone();
        child.play_unchecked(sm.mv);
        let child_sums = accumulator.map(|sums| Accumulator::updated(default_network(), sums, board, &child));
        let score = -quiescence(&child, child_sums.as_ref(), -beta, -alpha, ply + 1, stats);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Quiescence orders by captures only; an empty history keeps it independent of the
/// searcher's state.
static NO_HISTORY: std::sync::LazyLock<Heuristics> = std::sync::LazyLock::new(Heuristics::default);
