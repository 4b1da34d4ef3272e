//! Step 1, entering a node: settled at once by rule, at the horizon or by the table;
//! cut off by its static evaluation (reverse futility); or on to the null move.

use super::deferral::MIN_BUSY_DEPTH;
use super::*;

/// Reverse futility pruning applies up to this depth, with this margin per ply.
const RFP_MAX_DEPTH: i32 = 7;
const RFP_MARGIN: i32 = 75;

impl Searcher {
    fn is_repetition(&self, board: &Board) -> bool {
        let hash = board.hash();
        let len = self.hashes.len();
        let window = (board.halfmove_clock() as usize).min(len);
        (2..=window).step_by(2).any(|back| self.hashes[len - back] == hash)
    }

    /// Step 1: entering a node: settled at once (by rule, at the horizon, by the table),
    /// cut off by its static evaluation, or on to the null move.
    pub(super) fn enter(&mut self) -> Progress {
        self.nodes += 1;
        let top = self.top;
        if self.frames[top].ply < self.tree_plies {
            self.report_enter();
        }
        if let Some(value) = self.value_without_moves(top) {
            return self.finish_with(value);
        }
        if let Some(score) = self.look_up(top) {
            return self.finish_as(score, true);
        }
        let pure = self.options.pure;
        let f = &mut self.frames[top];
        if !pure && !f.pv_node && !f.in_check {
            // Reverse futility: far above beta at shallow depth, assume the node holds.
            if f.depth <= RFP_MAX_DEPTH && f.eval_estimate - RFP_MARGIN * f.depth >= f.beta && f.beta.abs() < MATE_BOUND {
                let v = f.eval_estimate;
                return self.finish_node_with_cutoff(v);
            }
        }
        if !pure && f.depth >= 4 && f.tt_move.is_none() && f.kind != NodeKind::All {
            // Internal iterative reduction: without a table move, ordering is poor and
            // a shallower search is the cheaper way to find one for next time. Not at an
            // expected ALL node, where every move is searched whatever the order: there
            // it would only cut the tree by what the table happens to hold, and so make
            // a parallel search, whose table the other processors fill, search another
            // tree than the serial one (see `crate::parallel::abdada`).
            f.depth -= 1;
        }
        self.try_null_move()
    }

    /// The value of the node at `top` when it is settled before any move is searched: a
    /// draw by rule, the ply limit, a window closed by the distance to mate, or the
    /// horizon (the quiescence search's value). Sets the node's check and the seldepth.
    #[inline(always)]
    fn value_without_moves(&mut self, top: usize) -> Option<i32> {
        let pure = self.options.pure;
        let f = &mut self.frames[top];
        let ply = f.ply;
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        f.in_check = !f.board.checkers().is_empty();
        if ply > 0 {
            let f = &self.frames[top];
            if f.board.halfmove_clock() >= 100 || has_insufficient_material(&f.board) || self.is_repetition(&f.board) {
                return Some(0);
            }
            if ply >= MAX_PLY - 1 {
                return Some(evaluate_by(&f.board, Self::sums(&self.options, f)));
            }
        }
        let f = &mut self.frames[top];
        if !pure && ply > 0 {
            f.alpha = f.alpha.max(-MATE + ply as i32);
            f.beta = f.beta.min(MATE - ply as i32 - 1);
            if f.alpha >= f.beta {
                return Some(f.alpha);
            }
        }
        if f.depth <= 0 {
            let mut stats = QuiescenceStats::default();
            let v = quiescence(&f.board, Self::sums(&self.options, f), f.alpha, f.beta, ply, &mut stats, Self::quiescence_table(&self.options, &self.tt));
            self.nodes += stats.nodes.saturating_sub(1);
            f.span.add_own(stats.nodes.saturating_sub(1));
            self.seldepth = self.seldepth.max(stats.seldepth);
            return Some(v);
        }
        None
    }

    /// Puts the node at `top` on the path (and on the busy table) and looks it up in the
    /// transposition table: sets its table move and static evaluation, and returns the
    /// table's score when that settles the node.
    #[inline(always)]
    fn look_up(&mut self, top: usize) -> Option<i32> {
        let table_cutoffs = self.options.takes_table_cutoffs();
        let f = &mut self.frames[top];
        let hash = f.board.hash();
        if !f.repeats_parent {
            f.on_path = true;
            self.hashes.push(hash);
        }
        if let Some(busy) = &self.busy {
            f.marked = f.depth >= MIN_BUSY_DEPTH && busy.mark(hash);
        }
        let entry = self.tt.probe(hash);
        if self.record_accesses {
            self.accesses.push(Access { kind: AccessKind::Probe, hash });
        }
        let f = &mut self.frames[top];
        let ply = f.ply;
        f.tt_move = entry.and_then(|e| e.mv).filter(|&m| f.board.is_legal(m));
        f.table_depth = entry.map_or(-1, |e| i32::from(e.depth));
        if let Some(e) = entry {
            let score = from_table(e.score, ply);
            if table_cutoffs && !f.pv_node && ply > 0 && e.depth as i32 >= f.depth && e.bound.settles(score, f.alpha, f.beta) {
                return Some(score);
            }
        }
        f.static_eval = if f.in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate_by(&f.board, Self::sums(&self.options, f)), |e| e.eval as i32)
        };
        f.eval_estimate = f.static_eval;
        if let Some(e) = entry.filter(|_| !f.in_check) {
            let score = from_table(e.score, ply);
            // A bound that settles the null window at the evaluation says on which side of
            // it the value lies: the score is the nearer estimate (equal, nothing changes).
            if e.bound.settles(score, f.static_eval, f.static_eval) && score.abs() < MATE_BOUND {
                f.eval_estimate = score;
            }
        }
        None
    }
}
