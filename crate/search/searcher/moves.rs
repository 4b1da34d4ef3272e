//! Steps 3 and 4: generate and order a node's moves, pick the next one, and plan its
//! search (depth, reduction, window) before pushing the child.

use super::deferral::take_finished_elsewhere;
use super::*;

/// How a move will be searched: decided by [`Searcher::plan`].
pub(super) struct ChildPlan {
    pub(super) child: Board,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) depth: i32,
    /// The depth without reduction (for a re-search).
    pub(super) full_depth: i32,
    pub(super) pending: Pending,
    pub(super) pv_child: bool,
    pub(super) quiet: bool,
}

impl Searcher {
    /// Step 3: generate and order the moves. With a table move, that move alone: the
    /// others are generated once it has not cut the node off ([`Searcher::generate_rest`]).
    pub(super) fn generate(&mut self) -> Progress {
        let top = self.top;
        if self.needs_deepening(top) {
            return self.deepen(top);
        }
        let refutations = self.heuristics.refutations(self.frames[top].ply, self.frames[top].follows);
        self.heuristics.clear_killers(self.frames[top].ply + 2);
        let f = &mut self.frames[top];
        let filter = &self.root_filter;
        let at_root = f.ply == 0 && !filter.is_empty();
        match f.tt_move {
            Some(mv) if !at_root => f.moves.start_with(mv),
            _ => f.moves.generate(&f.board, false, f.tt_move, refutations, &self.heuristics, |m| !at_root || filter.contains(&m)),
        }
        f.phase = Phase::NextMove;
        Progress::Running
    }

    /// The moves of frame `index` after its table move, if they are still to generate.
    pub(super) fn generate_rest(&mut self, index: usize) {
        let f = &mut self.frames[index];
        if f.moves.rest_pending() {
            let refutations = self.heuristics.refutations(f.ply, f.follows);
            let tt_move = f.tt_move;
            f.moves.generate(&f.board, false, None, refutations, &self.heuristics, |m| Some(m) != tt_move);
        }
    }

    /// Step 4: pick the next move, choose its depth and window, push the child.
    pub(super) fn next_move(&mut self) -> Progress {
        let top = self.top;
        let f = &mut self.frames[top];
        f.polling = false;
        let finished_elsewhere = self.busy.as_ref().and_then(|busy| take_finished_elsewhere(f, busy));
        let mv = if let Some(mv) = finished_elsewhere {
            mv
        } else if !f.second_pass {
            match f.moves.pick() {
                Some(sm) => sm.mv,
                None if f.moves.rest_pending() => {
                    // The table move was put off (ABDADA): the others go on meanwhile.
                    self.generate_rest(top);
                    return Progress::Running;
                }
                None => {
                    f.second_pass = true;
                    return Progress::Running;
                }
            }
        } else if f.deferred_taken < f.deferred_count {
            match self.take_deferred(top) {
                Some(mv) => mv,
                None => {
                    self.frames[top].phase = Phase::Waiting;
                    return Progress::Waiting;
                }
            }
        } else if f.remote > 0 {
            f.phase = Phase::Waiting;
            return Progress::Waiting;
        } else {
            return self.finish_node();
        };
        let f = &mut self.frames[top];
        let order = f.started;
        if !f.second_pass && finished_elsewhere.is_none() {
            f.started = f.started.saturating_add(1);
        }
        if self.tests_first && f.second_pass && f.deferred_bound[f.deferred_taken - 1] > f.alpha {
            // Jamboree: a test that failed high above alpha is searched again with the
            // full window at once (a zero-window test at this alpha would fail high too).
            return self.search_again_in_full(top, mv);
        }
        if self.pruned(top, mv) {
            return Progress::Running;
        }
        let f = &mut self.frames[top];
        let mut child = f.board.clone();
        child.play_unchecked(mv);
        self.tt.prefetch(child.hash());
        if self.defer_if_busy(top, mv, order, child.hash()) {
            return Progress::Running;
        }
        let plan = self.plan(top, mv, child, SplitWindow::Test);
        self.start_child(top, mv, plan)
    }

    /// Pushes the child `mv` of the node at `top`, searched as `plan` says.
    fn start_child(&mut self, top: usize, mv: Move, plan: ChildPlan) -> Progress {
        let f = &mut self.frames[top];
        f.current = Some(mv);
        f.current_depth = plan.full_depth;
        f.current_quiet = plan.quiet;
        f.current_alpha = f.alpha;
        if f.ply == 0 {
            self.root_move = Some(RootMove { mv, number: f.moves_searched + 1 });
        }
        f.phase = Phase::Awaiting(plan.pending);
        self.push(plan.child, plan.alpha, plan.beta, plan.depth, plan.pv_child, true);
        Progress::Running
    }

    /// Searches move `mv` of the node at `top` with the node's full window at full depth,
    /// its value final (Jamboree's re-search of a failed test).
    fn search_again_in_full(&mut self, top: usize, mv: Move) -> Progress {
        let f = &mut self.frames[top];
        let mut child = f.board.clone();
        child.play_unchecked(mv);
        let plan = self.plan(top, mv, child, SplitWindow::Test);
        let f = &self.frames[top];
        let plan = ChildPlan { alpha: -f.beta, beta: -f.alpha, depth: plan.full_depth, pending: Pending::Final, pv_child: f.pv_node, ..plan };
        self.start_child(top, mv, plan)
    }

    /// How to search move `mv` (leading to `child`) of frame `index`, which pruning has
    /// not skipped: depth, window and what its value will be for. The first move gets the
    /// full window; later ones a zero window ([`SplitWindow::Test`], principal variation
    /// search) or, when given to another processor, possibly the full one.
    pub(super) fn plan(&mut self, index: usize, mv: Move, child: Board, window: SplitWindow) -> ChildPlan {
        let pure = self.options.pure;
        let f = &self.frames[index];
        let gives_check = !child.checkers().is_empty();
        let quiet = !is_tactical(&f.board, mv);
        let extension = i32::from(gives_check && f.ply < MAX_PLY / 2);
        let new_depth = f.depth - 1 + extension;
        // Moves finished or under way elsewhere: this move's place in the list.
        let late = f.moves_searched + f.remote;
        let (alpha, beta, pv_node) = (f.alpha, f.beta, f.pv_node);
        let plan = |alpha, beta, depth, pending, pv_child| ChildPlan { child, alpha, beta, depth, full_depth: new_depth, pending, pv_child, quiet };
        if late == 0 {
            return plan(-beta, -alpha, new_depth, Pending::Final, pv_node);
        }
        let reduction = if !pure && quiet && !gives_check && !f.in_check && f.depth >= 3 && late >= 2 + usize::from(pv_node) {
            let mut r = self.lmr[(f.depth as usize).min(63)][late.min(63)] as i32;
            r -= i32::from(pv_node);
            // More at a node expected to fail high (its late moves rarely matter), less
            // for the killers and the counter move (they refuted a sibling).
            r += i32::from(f.kind == NodeKind::Cut);
            let refutations = self.heuristics.refutations(f.ply, f.follows);
            r -= i32::from(refutations.killers.contains(&Some(mv)) || refutations.counter == Some(mv));
            r -= self.heuristics.history(f.board.side_to_move(), mv) / 8192;
            r.clamp(0, new_depth - 1)
        } else {
            0
        };
        if window == SplitWindow::Full && pv_node {
            let pending = if reduction > 0 { Pending::Reduced } else { Pending::Final };
            return plan(-beta, -alpha, new_depth - reduction, pending, true);
        }
        let pending = if reduction > 0 {
            Pending::Reduced
        } else if pv_node {
            Pending::ZeroWindow
        } else {
            Pending::Final
        };
        plan(-alpha - 1, -alpha, new_depth - reduction, pending, false)
    }
}
