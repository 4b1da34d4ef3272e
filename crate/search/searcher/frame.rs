//! One node of the searcher's explicit stack: its window, depth, moves and results, and
//! where it stands (phase, pending child), so it can be paused, resumed or handed on.

use super::*;

/// What the child being searched is for, decided when it was pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pending {
    /// The null-move search: fails high ⇒ this node is cut.
    NullMove,
    /// Verification of a null-move cutoff at reduced depth, same side to move.
    NullVerify,
    /// A capture's ProbCut search: beats the raised beta ⇒ this node is cut.
    ProbCut,
    /// A move searched at reduced depth with a zero window.
    Reduced,
    /// A move searched at full depth with a zero window (PV nodes only).
    ZeroWindow,
    /// Recursive iterative deepening: this same node searched one ply shallower, to find
    /// the best move to try first (StarTech).
    Deepen,
    /// The move's final search; its value counts.
    Final,
}

/// Where a frame stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Not entered yet.
    Enter,
    /// Ready to try the next capture for ProbCut (the move list holds the captures).
    ProbCut,
    /// Ready to try the next move.
    NextMove,
    /// Waiting for a child's value.
    Awaiting(Pending),
    /// Its own moves are done; children searched by other processors are still out.
    Waiting,
}

/// A node's expected type (Knuth and Moore): on the principal variation, expected to
/// be cut by one move, or expected to need all its moves. Parallel algorithms choose
/// where to split by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation.
    Pv,
    /// Expected to fail high after its first move.
    Cut,
    /// Expected to fail low: every move must be searched.
    All,
}

/// One node of the tree being searched. Everything needed to resume or hand off the
/// node is here: position, window, depth, ordered moves and the best result so far.
pub(super) struct Frame {
    pub(super) board: Board,
    /// The network's sums of `board` (kept only when the network evaluates).
    pub(super) accumulator: Accumulator,
    /// Tells this node apart from earlier nodes in the same frame (results from other
    /// processors name it).
    pub(super) serial: u32,
    pub(super) kind: NodeKind,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) original_alpha: i32,
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) pv_node: bool,
    pub(super) in_check: bool,
    pub(super) null_allowed: bool,
    /// The move that led here, as the counter-move table keys it (none at the root of a
    /// search or subproblem, and after a null move).
    pub(super) follows: Option<FollowUp>,
    /// Whether this node's hash is on the path stack (pushed on entry, popped on return).
    pub(super) on_path: bool,
    /// The evaluation function's value (what the table stores).
    pub(super) static_eval: i32,
    /// The static evaluation, or the table's score where its bound says the node is
    /// worth at least (or at most) that much more (or less): what pruning weighs.
    pub(super) eval_estimate: i32,
    pub(super) phase: Phase,
    pub(super) moves: MoveList,
    pub(super) tt_move: Option<Move>,
    /// The depth of the search that left the table's entry for this node (-1: none).
    pub(super) table_depth: i32,
    /// This frame searches its parent's position one ply shallower (recursive iterative
    /// deepening): it is not on the path a second time and is not reported.
    pub(super) repeats_parent: bool,
    /// Moves searched one at a time before any is given away: 1 (Young Brothers Wait),
    /// or 2 where StarTech's serialization heuristic applies.
    pub(super) serial_moves: usize,
    pub(super) best_score: i32,
    pub(super) best_move: Option<Move>,
    /// The best score known to be a lower bound (from a child that beat alpha). Windows
    /// narrowed by others raise alpha without proving anything; this keeps what is proven.
    pub(super) proven: i32,
    pub(super) moves_searched: usize,
    /// Children being searched by other processors.
    pub(super) remote: usize,
    pub(super) quiets_tried: [Move; 64],
    pub(super) quiets_count: usize,
    pub(super) current: Option<Move>,
    pub(super) current_depth: i32,
    pub(super) current_quiet: bool,
    /// Alpha when the current child was pushed: its zero-window test is against this.
    pub(super) current_alpha: i32,
    /// Whether this node is marked in the busy table (ABDADA).
    pub(super) marked: bool,
    /// Moves put off because another processor is searching their position (ABDADA).
    pub(super) deferred: [Move; MAX_DEFERRED],
    /// The positions ABDADA's deferred moves lead to, beside them in `deferred` (the
    /// work-splitting algorithms' re-searches, also kept there, have 0).
    pub(super) deferred_hashes: [u64; MAX_DEFERRED],
    /// Where each deferred move stands in the node's list (its iteration of the loop).
    pub(super) deferred_order: [u16; MAX_DEFERRED],
    /// What a failed test proved of each deferred move (a lower bound; `-INFINITY`: none).
    pub(super) deferred_bound: [i32; MAX_DEFERRED],
    pub(super) deferred_count: usize,
    /// Deferred moves already taken up, at the front of `deferred`: in list order in the
    /// second pass, or earlier once another processor has finished them (ABDADA).
    pub(super) deferred_taken: usize,
    /// Whether the first pass over the move list is done and deferred moves are next.
    pub(super) second_pass: bool,
    /// Looks at a deferred move another processor is still searching (deferred reads).
    pub(super) busy_polls: u32,
    /// It waits for such a move (deferred reads), not for a message.
    pub(super) polling: bool,
    /// Moves started so far, here or elsewhere: the next one's place in the list.
    pub(super) started: u16,
    /// Its critical path so far (the `span` submodule).
    pub(super) span: Span,
}

/// Moves a node can put off (ABDADA) or get back from other processors for a
/// re-search; further busy moves are searched at once, and no more moves are given away.
pub(super) const MAX_DEFERRED: usize = 64;

impl Frame {
    /// Puts `mv` (place `order` in the list) among the moves this node searches again
    /// itself: given away and failed, reduced, or its searcher gone. `bound`: what is
    /// proven of it (a lower bound; `-INFINITY`: nothing).
    pub(super) fn search_again(&mut self, mv: Move, order: u16, bound: i32) {
        self.deferred[self.deferred_count] = mv;
        self.deferred_hashes[self.deferred_count] = 0;
        self.deferred_order[self.deferred_count] = order;
        self.deferred_bound[self.deferred_count] = bound;
        self.deferred_count += 1;
    }

    /// Exchanges two entries of the deferred list.
    pub(super) fn swap_deferred(&mut self, i: usize, j: usize) {
        self.deferred.swap(i, j);
        self.deferred_hashes.swap(i, j);
        self.deferred_order.swap(i, j);
        self.deferred_bound.swap(i, j);
    }

    pub(super) fn empty() -> Frame {
        let a1 = cozy_chess::Square::A1;
        Frame {
            board: Board::default(),
            accumulator: Accumulator::default(),
            serial: 0,
            kind: NodeKind::Pv,
            alpha: 0,
            beta: 0,
            original_alpha: 0,
            depth: 0,
            ply: 0,
            pv_node: false,
            in_check: false,
            null_allowed: true,
            follows: None,
            on_path: false,
            static_eval: 0,
            eval_estimate: 0,
            phase: Phase::Enter,
            moves: MoveList::default(),
            tt_move: None,
            table_depth: -1,
            repeats_parent: false,
            serial_moves: 1,
            best_score: -INFINITY,
            best_move: None,
            proven: -INFINITY,
            moves_searched: 0,
            remote: 0,
            quiets_tried: [Move { from: a1, to: a1, promotion: None }; 64],
            quiets_count: 0,
            current: None,
            current_depth: 0,
            current_quiet: false,
            current_alpha: 0,
            marked: false,
            deferred: [Move { from: a1, to: a1, promotion: None }; MAX_DEFERRED],
            deferred_hashes: [0; MAX_DEFERRED],
            deferred_order: [0; MAX_DEFERRED],
            deferred_bound: [-INFINITY; MAX_DEFERRED],
            deferred_count: 0,
            deferred_taken: 0,
            second_pass: false,
            busy_polls: 0,
            polling: false,
            started: 0,
            span: Span::default(),
        }
    }
}

/// The expected type of a child: the principal variation continues through PV children;
/// below it, cut and all nodes alternate.
pub(super) fn child_kind(parent: NodeKind, pv_child: bool) -> NodeKind {
    match (pv_child, parent) {
        (true, _) => NodeKind::Pv,
        (false, NodeKind::Cut) => NodeKind::All,
        (false, _) => NodeKind::Cut,
    }
}
