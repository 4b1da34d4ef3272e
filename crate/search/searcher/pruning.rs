//! What the search leaves out: the null move (step 2), ProbCut (step 2b), and late-move,
//! futility and static-exchange pruning of single moves (step 4).

use super::*;

/// Late move pruning applies up to this depth.
const LMP_MAX_DEPTH: i32 = 5;

/// Futility pruning of quiet moves: up to this depth, with margin base + per-depth.
const FUTILITY_MAX_DEPTH: i32 = 4;
const FUTILITY_BASE: i32 = 90;
const FUTILITY_PER_DEPTH: i32 = 110;

/// Static exchange pruning: up to this depth, a late quiet move losing more than
/// `SEE_QUIET_MARGIN` per ply, or a late capture losing more than `SEE_TACTICAL_MARGIN`
/// per ply squared, is skipped (the margins of Ethereal's search).
const SEE_PRUNE_MAX_DEPTH: i32 = 8;
const SEE_QUIET_MARGIN: i32 = 64;
const SEE_TACTICAL_MARGIN: i32 = 20;

/// ProbCut: from this depth on, a capture whose search at `PROBCUT_REDUCTION` plies less
/// beats beta by `PROBCUT_MARGIN` is taken to cut the node (Ethereal's values).
const PROBCUT_MIN_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 100;
const PROBCUT_REDUCTION: i32 = 4;

/// ProbCut's raised beta.
fn probcut_beta(beta: i32) -> i32 {
    (beta + PROBCUT_MARGIN).min(MATE_BOUND - 1)
}

/// The side to move's pieces other than pawns and king: null move is unsafe without
/// them (zugzwang) and needs verification with only one.
fn non_pawn_pieces(board: &Board) -> cozy_chess::BitBoard {
    board.colors(board.side_to_move()) & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King))
}

impl Searcher {
    /// Step 2: null move. If passing the move still fails high at reduced depth, the
    /// node is assumed to fail high; with little material (zugzwang danger) a search
    /// without null move at reduced depth verifies it first.
    pub(super) fn try_null_move(&mut self) -> Progress {
        let top = self.top;
        let f = &self.frames[top];
        let pieces = non_pawn_pieces(&f.board);
        let allowed = !self.options.pure
            && !f.pv_node
            && !f.in_check
            && f.null_allowed
            && f.depth >= 3
            && f.eval_estimate >= f.beta
            && !pieces.is_empty()
            && f.beta.abs() < MATE - MAX_PLY as i32;
        if !allowed {
            return self.try_probcut();
        }
        let Some(child) = f.board.null_move() else { return self.try_probcut() };
        let r = 3 + f.depth / 4;
        let (beta, depth) = (f.beta, f.depth);
        self.frames[top].phase = Phase::Awaiting(Pending::NullMove);
        self.push(child, -beta, -beta + 1, depth - 1 - r, false, false);
        Progress::Running
    }

    /// Step 2b: ProbCut. At a non-PV node deep enough, a capture that wins enough by
    /// exchange is searched shallower against a beta raised by the margin; if it holds
    /// there, the node is taken to hold at full depth too. The captures go through the
    /// move list first; it is filled again for the real move loop.
    fn try_probcut(&mut self) -> Progress {
        let f = &mut self.frames[self.top];
        let allowed = !self.options.pure && !f.pv_node && !f.in_check && f.depth >= PROBCUT_MIN_DEPTH && f.beta.abs() < MATE_BOUND;
        if !allowed {
            return self.generate();
        }
        f.moves.generate(&f.board, true, f.tt_move, Refutations::default(), &self.heuristics, |_| true);
        f.phase = Phase::ProbCut;
        Progress::Running
    }

    /// The next ProbCut capture: one whose quiescence value already beats the raised beta
    /// is searched at reduced depth; when none is left, the real move loop starts.
    pub(super) fn next_probcut(&mut self) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        let beta = probcut_beta(f.beta);
        while let Some(sm) = f.moves.pick() {
            if !see_at_least(&f.board, sm.mv, beta - f.eval_estimate) {
                continue;
            }
            let mut child = f.board.clone();
            child.play_unchecked(sm.mv);
            let mut stats = QuiescenceStats::default();
            let child_sums = Self::sums(&self.options, f).map(|sums| Accumulator::updated(default_network(), sums, &f.board, &child));
            let value = -quiescence(&child, child_sums.as_ref(), -beta, -beta + 1, f.ply + 1, &mut stats, Self::quiescence_table(&self.options, &self.tt));
            self.nodes += stats.nodes;
            f.span.add_own(stats.nodes);
            self.seldepth = self.seldepth.max(stats.seldepth);
            if value >= beta {
                f.current = Some(sm.mv);
                f.phase = Phase::Awaiting(Pending::ProbCut);
                let depth = f.depth - PROBCUT_REDUCTION;
                self.push(child, -beta, -beta + 1, depth, false, true);
                return Progress::Running;
            }
        }
        f.current = None;
        self.generate()
    }

    /// Whether pruning skips move `mv` of frame `index`: only late moves, at a non-PV node
    /// not in check that already has a move not leading to mate. Decided before the move
    /// is made: near the horizon most moves looked at are skipped, and making one costs
    /// more than deciding.
    pub(super) fn pruned(&mut self, index: usize, mv: Move) -> bool {
        let f = &mut self.frames[index];
        let late = f.moves_searched + f.remote;
        if self.options.pure || late == 0 || f.in_check || f.pv_node || f.best_score <= -MATE_BOUND {
            return false;
        }
        if !is_tactical(&f.board, mv) {
            // Late move pruning: deep in the list at low depth, quiet moves rarely matter.
            let late_move = f.depth <= LMP_MAX_DEPTH && late as i32 >= 3 + f.depth * f.depth;
            // Futility pruning: a quiet move cannot lift a hopeless static eval to alpha.
            let futile = f.eval_estimate + FUTILITY_BASE + FUTILITY_PER_DEPTH * f.depth;
            let hopeless = f.depth <= FUTILITY_MAX_DEPTH && futile <= f.alpha;
            if (late_move || hopeless) && !gives_check(&f.board, mv) {
                if !late_move {
                    f.best_score = f.best_score.max(futile);
                }
                return true;
            }
            // Static exchange pruning: a late move that loses material at shallow depth.
            return f.depth <= SEE_PRUNE_MAX_DEPTH && !see_at_least(&f.board, mv, -SEE_QUIET_MARGIN * f.depth);
        }
        f.depth <= SEE_PRUNE_MAX_DEPTH && !see_at_least(&f.board, mv, -SEE_TACTICAL_MARGIN * f.depth * f.depth)
    }

    /// The null-move search returned `score` (from this node's side): below beta the node
    /// goes on; above it, it is cut, after a verification search where material is low.
    pub(super) fn null_move_returned(&mut self, score: i32) -> Progress {
        let f = &mut self.frames[self.top];
        if score < f.beta {
            return self.try_probcut();
        }
        if non_pawn_pieces(&f.board).len() > 1 || f.depth < 6 {
            let v = if score >= MATE - MAX_PLY as i32 { f.beta } else { score };
            return self.finish_node_with_cutoff(v);
        }
        let (board, beta, depth) = (f.board.clone(), f.beta, f.depth);
        f.phase = Phase::Awaiting(Pending::NullVerify);
        let r = 3 + depth / 4;
        // The verification child is this same position: its frame sits one ply
        // deeper only so the stack stays uniform; its value is not negated.
        self.push(board, beta - 1, beta, depth - 1 - r, false, false);
        Progress::Running
    }

    /// The verification of a null-move cutoff returned `value`, the same position's.
    pub(super) fn null_move_verified(&mut self, value: i32) -> Progress {
        let f = &self.frames[self.top];
        if value >= f.beta {
            self.finish_node_with_cutoff(value)
        } else {
            self.try_probcut()
        }
    }

    /// A ProbCut search returned `score`: above the raised beta it cuts the node; otherwise
    /// the next capture is tried.
    pub(super) fn probcut_returned(&mut self, score: i32) -> Progress {
        let f = &mut self.frames[self.top];
        if score >= probcut_beta(f.beta) {
            f.best_move = f.current;
            f.best_score = score;
            return self.finish_node();
        }
        f.phase = Phase::ProbCut;
        Progress::Running
    }
}
