//! Splitting the tree between processors: a node gives some of its later moves to other
//! processors ([`Searcher::give_away`]), takes their values when they come back
//! ([`Searcher::deliver`]), tells them when its window narrows or the node is cut (the
//! [`Notice`]s its processor program turns into NEWBOUND and CUTOFF messages), and a
//! processor searches a subtree it was given ([`Searcher::start_subproblem`]).
//!
//! Soundness rules, for a fail-soft search whose windows other processors may change:
//! - a child searched with a zero window is judged against the alpha it was searched
//!   with; if it beats that alpha but not beta it is searched again locally;
//! - a narrowed window is passed on only to children searched with the full window
//!   (the principal variation); zero-window children keep theirs;
//! - a node is cut only by a proven lower bound (`proven >= beta`).

use super::frame::MAX_DEFERRED;
use super::{Frame, NodeKind, Pending, Phase, Progress, Searcher, TreePath};
use crate::chess::to_standard_castling;
use crate::search::score::{INFINITY, MAX_PLY};
use cozy_chess::{Board, Move};

/// The window a move given to another processor is searched with, at a node on the
/// principal variation (elsewhere the window is zero-width anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitWindow {
    /// The node's full window, narrowed later by NEWBOUND (Zugzwang, PV-splitting, DTS).
    Full,
    /// A zero-window test; a test that fails high is searched again locally (Jamboree).
    Test,
}

/// A subtree handed to another processor: everything needed to search it.
#[derive(Clone, Debug)]
pub struct Subproblem {
    /// The position.
    pub board: Board,
    /// Hashes of the positions before it (game and path), for repetitions.
    pub path: Vec<u64>,
    /// The window, from the side to move in `board`.
    pub alpha: i32,
    /// The window's upper end.
    pub beta: i32,
    /// Remaining depth.
    pub depth: i32,
    /// Distance from the root of the whole search (mate scores count from there).
    pub ply: usize,
    /// Its expected type.
    pub kind: NodeKind,
    /// The moves from the root of the whole search (its first plies: enough for the
    /// tree events, which report only nodes that shallow).
    pub line: TreePath,
    /// The giver's killers for the subtree's first plies: learned in the brothers searched
    /// before it, they order its moves as they would have in the serial search.
    pub killers: [[Option<Move>; 2]; HANDED_KILLER_PLIES],
}

/// Plies of killers a subproblem takes along: its root's and its children's (the
/// grandchildren's are cleared when the root generates its moves).
const HANDED_KILLER_PLIES: usize = 2;

/// Something the processor program must tell another processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The subproblem is no longer needed (CUTOFF).
    Cancel {
        /// Who searches it.
        processor: usize,
        /// Its job number.
        job: u32,
    },
    /// The subproblem's window narrowed (NEWBOUND), from its side to move.
    NewBound {
        /// Who searches it.
        processor: usize,
        /// Its job number.
        job: u32,
        /// The new lower end.
        alpha: i32,
        /// The new upper end.
        beta: i32,
    },
}

/// A child given away: where its value goes and how to judge it.
pub(super) struct Remote {
    job: u32,
    processor: usize,
    frame: usize,
    serial: u32,
    mv: Move,
    /// Alpha of the node when the child was given away.
    test_alpha: i32,
    /// Searched with the node's full window (gets NEWBOUND) rather than a test.
    full: bool,
    /// Searched at reduced depth: beating `test_alpha` asks for a full-depth re-search.
    reduced: bool,
    /// Its place in the node's list (its iteration of Jamboree's parallel loop).
    order: u16,
}

impl Remote {
    /// Whether this is a child of node `frame` (numbered `serial`) that comes before the
    /// move in place `order` of its list.
    pub(super) fn is_earlier_test(&self, frame: usize, serial: u32, order: u16) -> bool {
        self.frame == frame && self.serial == serial && self.order < order
    }
}

/// What a processor looking for a split point can see of a node on another's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitCandidate {
    /// Frame index (0 = the searcher's root).
    pub frame: usize,
    /// Remaining depth.
    pub depth: i32,
    /// Expected node type.
    pub kind: NodeKind,
    /// Moves whose values are in.
    pub moves_searched: usize,
}

impl Searcher {
    /// Prepares a search of a subproblem given by another processor.
    pub fn start_subproblem(&mut self, problem: &Subproblem) {
        self.prepare(&problem.path, problem.ply, problem.line);
        self.heuristics.set_killers_from(problem.ply, &problem.killers);
        let pv_node = problem.kind == NodeKind::Pv;
        self.init_frame(problem.board.clone(), problem.alpha, problem.beta, problem.depth, pv_node, true);
        self.frames[0].kind = problem.kind;
    }

    /// The nodes on the stack that could give moves away now: their eldest brother is
    /// searched (Young Brothers Wait), moves are left, and the window is open. Root first.
    pub fn split_candidates(&self) -> impl Iterator<Item = SplitCandidate> + '_ {
        self.frames[..=self.top].iter().enumerate().filter(|(_, f)| can_split(f, self.eager_all_nodes)).map(|(frame, f)| SplitCandidate {
            frame,
            depth: f.depth,
            kind: f.kind,
            moves_searched: f.moves_searched,
        })
    }

    /// Gives the next move of node `frame` (a split candidate) to `processor` as job
    /// number `job` (which its result must carry), searched with `window`. `None` when
    /// pruning leaves nothing to give.
    pub fn give_away(&mut self, frame: usize, processor: usize, window: SplitWindow, job: u32) -> Option<Subproblem> {
        if frame > self.top || !can_split(&self.frames[frame], self.eager_all_nodes) {
            return None;
        }
        let mv = loop {
            let mv = self.frames[frame].moves.pick()?.mv;
            if !self.pruned(frame, mv) {
                break mv;
            }
        };
        let mut child = self.frames[frame].board.clone();
        child.play_unchecked(mv);
        let plan = self.plan(frame, mv, child, window);
        let f = &mut self.frames[frame];
        f.remote += 1;
        let order = f.started;
        f.started = f.started.saturating_add(1);
        self.remotes.push(Remote {
            job,
            processor,
            frame,
            serial: f.serial,
            mv,
            test_alpha: f.alpha,
            full: plan.pv_child,
            reduced: plan.pending == Pending::Reduced,
            order,
        });
        let on_path = self.frames[..=frame].iter().filter(|f| f.on_path).count();
        let path = &self.hashes[..self.game_len + on_path];
        // Repetitions reach back at most a hundred plies (the fifty-move rule).
        let path = path[path.len().saturating_sub(MAX_PLY + 100)..].to_vec();
        let mut line = self.path_to(frame);
        let f = &self.frames[frame];
        line.push(to_standard_castling(&f.board, mv));
        let (kind, ply) = (super::child_kind(f.kind, plan.pv_child), f.ply + 1);
        if ply <= self.tree_plies {
            self.report_split(frame, processor);
        }
        let killers = self.heuristics.killers_from(ply);
        Some(Subproblem { board: plan.child, path, alpha: plan.alpha, beta: plan.beta, depth: plan.depth, ply, kind, line, killers })
    }

    /// Takes the value `value` (from the child's side) of subproblem `job`, sent by
    /// `processor`, with its principal variation `pv` and its critical path `span`
    /// (nodes). Returns `false` for a job this searcher no longer waits for (cancelled, or
    /// from an earlier search) or did not give that processor: a class's peer cannot
    /// answer for another's subtree.
    pub fn deliver(&mut self, processor: usize, job: u32, value: i32, pv: &[Move], span: u64) -> bool {
        let Some(i) = self.remotes.iter().position(|r| r.job == job && r.processor == processor) else { return false };
        let r = self.remotes.swap_remove(i);
        let k = r.frame;
        if k > self.top || self.frames[k].serial != r.serial {
            return false;
        }
        let f = &mut self.frames[k];
        f.remote -= 1;
        f.span.add_parallel(span);
        let score = -value;
        // A reduced search that beats the alpha it was made with proves nothing, even
        // above beta (the serial search re-searches it at full depth too); a zero-window
        // test that beats it without reaching beta has no exact value.
        let test_failed_high = !r.full && score > r.test_alpha && score < f.beta;
        if (r.reduced && score > r.test_alpha) || test_failed_high {
            // Search it again here. A reduced search's value says nothing of the full depth's.
            f.search_again(r.mv, r.order, if r.reduced { -INFINITY } else { score });
            return true;
        }
        f.moves_searched += 1;
        f.best_score = f.best_score.max(score);
        if score > f.alpha {
            f.best_move = Some(r.mv);
            f.alpha = score;
            f.proven = f.proven.max(score);
            let ply = f.ply;
            let len = pv.len().min(MAX_PLY - ply);
            self.pv[ply][0] = Some(r.mv);
            for (slot, &m) in self.pv[ply][1..=len].iter_mut().zip(pv) {
                *slot = Some(m);
            }
            self.pv_len[ply] = len + 1;
            if score >= self.frames[k].beta {
                self.cut_at(k);
            } else {
                self.window_changed(k);
            }
        }
        true
    }

    /// Takes back every child given to `processor`, which has left the search: each is
    /// searched again here, as a reduced search that failed high is (no bound known).
    /// Returns whether any was taken back.
    pub fn take_back(&mut self, processor: usize) -> bool {
        let mut any = false;
        while let Some(i) = self.remotes.iter().position(|r| r.processor == processor) {
            let r = self.remotes.swap_remove(i);
            if r.frame > self.top || self.frames[r.frame].serial != r.serial {
                continue;
            }
            let f = &mut self.frames[r.frame];
            f.remote -= 1;
            f.search_again(r.mv, r.order, -INFINITY);
            any = true;
        }
        any
    }

    /// NEWBOUND for this searcher's root (a subproblem): its window narrowed.
    pub fn narrow_root(&mut self, alpha: i32, beta: i32) {
        let f = &mut self.frames[0];
        if self.done.is_some() || (alpha <= f.alpha && beta >= f.beta) {
            return;
        }
        // The owner's window is never empty (it sends CUTOFF instead), so neither is
        // this one unless what this search already proved reaches the new beta: a cut.
        f.alpha = f.alpha.max(alpha);
        f.beta = f.beta.min(beta);
        if f.proven >= f.beta {
            self.cut_at(0);
        } else {
            // Alpha raised without proof (mate distance) may meet the new beta: widening
            // back by one keeps the window valid, and a wider window is always sound.
            f.beta = f.beta.max(f.alpha + 1);
            self.window_changed(0);
        }
    }

    /// How many of the root's moves have a value (searched here or returned by a
    /// helper): 0 until the eldest is done, and again at each new search of the root.
    pub fn root_moves_searched(&self) -> usize {
        self.frames.first().map_or(0, |f| f.moves_searched)
    }

    /// Remaining depth of frame `frame` (a split candidate's, say).
    pub fn frame_depth(&self, frame: usize) -> i32 {
        self.frames[frame].depth
    }

    /// The processors searching children this searcher gave away (one entry per child).
    pub fn helpers(&self) -> impl Iterator<Item = usize> + '_ {
        self.remotes.iter().map(|r| r.processor)
    }

    /// Messages to send for this searcher (taken: the caller sends them).
    pub fn take_notices(&mut self) -> std::vec::Drain<'_, Notice> {
        self.notices.drain(..)
    }

    /// Drops the whole search (a cutoff from the owner, or stop): every frame is left
    /// and every child given away is cancelled.
    pub fn abandon(&mut self) {
        loop {
            self.report_abandoned(self.top);
            self.leave_top();
            self.frames[self.top].phase = Phase::Enter;
            if self.top == 0 {
                break;
            }
            self.top -= 1;
        }
        self.done = None;
    }

    /// Frame `index` is dropped without a value: reported if it was entered.
    fn report_abandoned(&mut self, index: usize) {
        if self.frames[index].ply < self.tree_plies && self.frames[index].phase != Phase::Enter {
            self.report_leave(index, None, false);
        }
    }

    /// Cancels the children of frame `index` that other processors search.
    pub(super) fn cancel_remotes(&mut self, index: usize) {
        let serial = self.frames[index].serial;
        let notices = &mut self.notices;
        self.remotes.retain(|r| {
            let mine = r.frame == index && r.serial == serial;
            if mine {
                notices.push(Notice::Cancel { processor: r.processor, job: r.job });
            }
            !mine
        });
        self.frames[index].remote = 0;
    }

    /// Frame `index` has a proven value at or above beta: everything above it is
    /// dropped and it returns that value to its parent.
    fn cut_at(&mut self, index: usize) {
        while self.top > index {
            self.report_abandoned(self.top);
            self.leave_top();
            self.top -= 1;
        }
        if let Progress::Done(value) = self.finish_node() {
            self.done = Some(value);
        }
    }

    /// Frame `index`'s window narrowed: tell the processors searching its children with
    /// the full window, and pass the narrowing up the principal variation on this stack.
    pub(super) fn window_changed(&mut self, index: usize) {
        let mut i = index;
        loop {
            self.send_new_bounds(i);
            if i >= self.top || self.frames[i].phase != Phase::Awaiting(Pending::Final) || !self.frames[i + 1].pv_node {
                return;
            }
            let (low, high) = (-self.frames[i].beta, -self.frames[i].alpha);
            let child = &mut self.frames[i + 1];
            if low <= child.alpha && high >= child.beta {
                return;
            }
            child.alpha = child.alpha.max(low);
            child.beta = child.beta.min(high);
            if child.proven >= child.beta {
                self.cut_at(i + 1);
                return;
            }
            child.beta = child.beta.max(child.alpha + 1);
            i += 1;
        }
    }

    fn send_new_bounds(&mut self, index: usize) {
        let f = &self.frames[index];
        if f.remote == 0 {
            return;
        }
        let (alpha, beta) = (-f.beta, -f.alpha);
        for r in self.remotes.iter().filter(|r| r.frame == index && r.serial == f.serial && r.full) {
            self.notices.push(Notice::NewBound { processor: r.processor, job: r.job, alpha, beta });
        }
    }
}

/// Whether a node may give moves away now: once its eldest son is searched (Young
/// Brothers Wait), or, with `eager_all_nodes`, at an expected ALL node as soon as the eldest
/// is under way (DTS: an ALL node needs every move whatever the eldest returns).
fn can_split(f: &Frame, eager_all_nodes: bool) -> bool {
    let settled = matches!(f.phase, Phase::Awaiting(Pending::Final | Pending::Reduced | Pending::ZeroWindow) | Phase::NextMove);
    let eldest_waited_for = f.moves_searched >= f.serial_moves || (eager_all_nodes && f.kind == NodeKind::All && f.serial_moves == 1);
    settled
        && eldest_waited_for
        && !f.second_pass
        && f.moves.remaining() > 0
        && f.alpha < f.beta
        && f.remote + f.deferred_count < MAX_DEFERRED

}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::TranspositionTable;
    use std::sync::Arc;

    /// A subtree given away orders its first moves with the killers its giver learned in
    /// the brothers before it, as the serial search would have.
    #[test]
    fn a_subproblem_takes_the_givers_killers_along() {
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".parse().unwrap();
        let mut giver = Searcher::new(tt.clone());
        giver.start(&board, &[], -30_000, 30_000, 6, &[]);
        let candidate = loop {
            assert!(matches!(giver.step(), Progress::Running), "the search ended before any node could split");
            if let Some(c) = giver.split_candidates().find(|c| c.depth >= 3 && c.frame > 0) {
                break c;
            }
        };
        let problem = giver.give_away(candidate.frame, 1, SplitWindow::Test, 7).expect("a move to give");
        let expected: [[Option<Move>; 2]; HANDED_KILLER_PLIES] = giver.heuristics.killers_from(problem.ply);
        assert!(expected.iter().flatten().any(Option::is_some), "the giver has learned killers by now");
        assert_eq!(problem.killers, expected);

        let mut taker = Searcher::new(tt);
        taker.start_subproblem(&problem);
        let taken: [[Option<Move>; 2]; HANDED_KILLER_PLIES] = taker.heuristics.killers_from(problem.ply);
        assert_eq!(taken, expected);
    }

    /// DTS splits an expected ALL node while its eldest son is still being searched; with
    /// Young Brothers Wait (the default) no node is offered before its eldest son is back.
    #[test]
    fn only_eager_all_nodes_split_before_their_eldest_son_is_back() {
        let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".parse().unwrap();
        for eager in [false, true] {
            let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
            searcher.set_eager_all_nodes(eager);
            searcher.start(&board, &[], -30_000, 30_000, 7, &[]);
            let mut early = Vec::new();
            while matches!(searcher.step(), Progress::Running) {
                early.extend(searcher.split_candidates().filter(|c| c.moves_searched == 0).map(|c| c.kind));
            }
            if eager {
                assert!(!early.is_empty(), "ALL nodes were offered with their eldest son out");
                assert!(early.iter().all(|&k| k == NodeKind::All), "only ALL nodes: {early:?}");
            } else {
                assert!(early.is_empty(), "a node was offered before its eldest son was back: {early:?}");
            }
        }
    }

    /// A move given away at reduced depth (a late move reduction) that comes back above
    /// beta is searched again at full depth, as the serial search does, rather than
    /// taken as a cutoff: a reduced search proves nothing.
    #[test]
    fn a_reduced_remote_child_failing_high_is_searched_again() {
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".parse().unwrap();
        let mut giver = Searcher::new(tt);
        giver.start(&board, &[], -30_000, 30_000, 9, &[]);
        let (frame, job) = 'found: loop {
            assert!(matches!(giver.step(), Progress::Running), "the search ended before a reduced move was given away");
            let candidates: Vec<SplitCandidate> = giver.split_candidates().filter(|c| c.kind != NodeKind::Pv && c.depth >= 4).collect();
            for c in candidates {
                let job = giver.remotes.len() as u32 + 100;
                if giver.give_away(c.frame, 1, SplitWindow::Test, job).is_some() && giver.remotes.last().is_some_and(|r| r.reduced) {
                    break 'found (c.frame, job);
                }
            }
        };
        let (serial, beta) = (giver.frames[frame].serial, giver.frames[frame].beta);
        let mv = giver.remotes.iter().find(|r| r.job == job).unwrap().mv;
        assert!(!giver.deliver(2, job, -(beta + 50), &[], 1), "only the processor given the job answers for it");
        assert!(giver.deliver(1, job, -(beta + 50), &[], 1));
        let f = &giver.frames[frame];
        assert!(giver.top >= frame && f.serial == serial, "the node was cut by a reduced search");
        assert!(f.deferred[..f.deferred_count].contains(&mv), "the move waits for its full-depth search");
        assert!(giver.done.is_none());
    }

    /// Jamboree: a test that fails high waits for the tests before it in the list only
    /// (the earlier iterations of its parallel loop), not for the later ones, and is then
    /// searched again with the node's full window at once.
    #[test]
    fn a_failed_test_waits_for_the_earlier_tests_only_then_is_searched_with_the_full_window() {
        for failing in ["first", "last"] {
            let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
            let mut giver = Searcher::new(tt);
            giver.set_tests_first(true);
            giver.set_options(crate::search::SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
            giver.start(&Board::default(), &[], -30_000, 30_000, 4, &[]);
            while !giver.split_candidates().any(|c| c.frame == 0) {
                assert_eq!(giver.step(), Progress::Running, "the root's first move is searched");
            }
            let mut jobs = Vec::new();
            while giver.give_away(0, 1, SplitWindow::Test, jobs.len() as u32).is_some() {
                jobs.push(jobs.len() as u32);
            }
            assert!(jobs.len() > 2 && giver.top == 0);
            assert_eq!(giver.step(), Progress::Running, "the list is done: the second pass");
            assert_eq!(giver.step(), Progress::Waiting, "every test is out");
            let alpha = giver.frames[0].alpha;
            let job = if failing == "first" { jobs[0] } else { *jobs.last().unwrap() };
            assert!(giver.deliver(1, job, -(alpha + 10), &[], 1), "a test failing high above alpha");
            let stepped = giver.step();
            if failing == "first" {
                assert_eq!(stepped, Progress::Running, "no test before it is out: its re-search starts");
                let child = &giver.frames[1];
                assert!(giver.top == 1 && child.pv_node && child.beta - child.alpha > 1, "searched again with the full window");
            } else {
                assert_eq!(stepped, Progress::Waiting, "the tests before it are still out");
            }
        }
    }
}
