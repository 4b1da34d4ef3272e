//! Quiescence search: from a leaf of the main search, resolve captures (and check
//! evasions) until the position is quiet, so the evaluation is not taken mid-exchange.
//! A tight recursive function, bounded by MAX_PLY. Given a table it reads and writes it
//! as the main search does, at depth 0: an entry whose bound settles the window ends the
//! node, its stored evaluation stands in for the network's, its move goes first, and the
//! node's value is stored (with the search's enhancements only, and never for a table in
//! parts, whose entries live on other processors). Without one, its value is a pure
//! function of the position and the window, as the papers' searches assume.

use super::heuristics::{Heuristics, Refutations};
use super::ordering::MoveList;
use super::score::{from_table, to_table, MATE, MAX_PLY};
use crate::eval::evaluate_by;
use crate::eval::nnue::{default_network, Accumulator};
use crate::tt::{Bound, Entry, TranspositionTable};
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
/// child's sums updated from its parent's; without, the hand-written evaluation. With
/// `table`, it reads and writes the table (the module's comment says how).
pub fn quiescence(board: &Board, accumulator: Option<&Accumulator>, mut alpha: i32, beta: i32, ply: usize, stats: &mut QuiescenceStats, table: Option<&TranspositionTable>) -> i32 {
    stats.nodes += 1;
    stats.seldepth = stats.seldepth.max(ply);
    let in_check = !board.checkers().is_empty();
    if ply >= MAX_PLY {
        return evaluate_by(board, accumulator);
    }
    let entry = table.and_then(|t| t.probe_here(board.hash()));
    if let Some(e) = entry {
        let score = from_table(e.score, ply);
        if e.bound.settles(score, alpha, beta) {
            return score;
        }
    }
    let original_alpha = alpha;
    let stand_pat = if in_check { 0 } else { entry.map_or_else(|| evaluate_by(board, accumulator), |e| i32::from(e.eval)) };
    let mut best = if in_check {
        -MATE + ply as i32
    } else {
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        stand_pat
    };
    let mut best_move = None;
    let mut moves = MoveList::default();
    let tt_move = entry.and_then(|e| e.mv).filter(|&m| board.is_legal(m));
    moves.generate(board, !in_check, tt_move, Refutations::default(), &NO_HISTORY, |_| true);
    while let Some(sm) = moves.pick() {
        if !in_check && MoveList::is_bad_capture(sm.score) {
            break;
        }
        let mut child = board.clone();
        child.play_unchecked(sm.mv);
        if let Some(t) = table {
            t.prefetch(child.hash());
        }
        let child_sums = accumulator.map(|sums| Accumulator::updated(default_network(), sums, board, &child));
        let score = -quiescence(&child, child_sums.as_ref(), -beta, -alpha, ply + 1, stats, table);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                best_move = Some(sm.mv);
                if score >= beta {
                    break;
                }
            }
        }
    }
    if let Some(t) = table {
        let bound = if best >= beta { Bound::Lower } else if best > original_alpha && best_move.is_some() { Bound::Exact } else { Bound::Upper };
        t.store_here(board.hash(), Entry { mv: best_move, score: to_table(best, ply), eval: stand_pat as i16, depth: 0, bound, generation: 0 });
    }
    best
}

/// Quiescence orders by captures only; an empty history keeps it independent of the
/// searcher's state.
static NO_HISTORY: std::sync::LazyLock<Heuristics> = std::sync::LazyLock::new(Heuristics::default);
