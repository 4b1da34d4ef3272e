//! StarTech's ordering and serialization rules (Kuszmaul 1995, "The StarTech Massively
//! Parallel Chess Program", section "Improving the search"): recursive iterative
//! deepening and the serialization heuristic. Deferred reads live with the other
//! deferrals (`deferral`); its ordering by the table alone is a search option
//! (`SearchOptions::table_ordering_only`), as it is a choice of the period's search, not
//! of the parallel algorithm.

use super::*;

/// How StarTech ordered and serialized its search (Kuszmaul 1995, section "Improving
/// the search"): a parallel program sets them for its searchers; the serial search and
/// the other algorithms keep them off. None changes a value at fixed depth in Pure mode,
/// only the order in which moves are searched and when they are given away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StarTechRules {
    /// Recursive iterative deepening: a node the table knows nothing of from a search at
    /// least one ply shallower is first searched one ply shallower, to find its best
    /// move. Pure mode only: the modern search has internal iterative reduction instead.
    pub recursive_deepening: bool,
    /// The serialization heuristic: at a node expected to be cut whose shallower search
    /// beat alpha, a first move that fails low is followed by a second one searched
    /// alone before any move is given away. Needs `recursive_deepening`.
    pub serialize: bool,
    /// Deferred reads (with a busy table): a move whose position another processor is
    /// searching is put off, as ABDADA does, and then waited for until that processor
    /// has finished it, rather than searched a second time beside it.
    pub deferred_reads: bool,
}

impl StarTechRules {
    /// The serial search's ordering, no serialization.
    pub const OFF: StarTechRules = StarTechRules { recursive_deepening: false, serialize: false, deferred_reads: false };
}

impl Searcher {
    /// Recursive iterative deepening (StarTech): whether the node at `top` should first be
    /// searched a ply shallower, the table holding nothing from a search that deep (its
    /// best move, or that none stood out: a shallower search would not find one either). Not at the root of the whole search, which the iterative deepening already
    /// searched a ply shallower, nor so deep in the stack that the extra frames would not fit.
    /// Only in Pure mode, the search StarTech ran: the modern search has internal iterative
    /// reduction for the same purpose, and both together made Jamboree visit 2.1 times
    /// the serial tree on 2 processors (SPE 0.91; 1.48 without), depth 14, `multicore`.
    pub(super) fn needs_deepening(&self, top: usize) -> bool {
        let f = &self.frames[top];
        self.startech.recursive_deepening && self.options.pure && f.depth >= 2 && f.ply > 0 && f.table_depth < f.depth - 1 && top < MAX_PLY / 2
    }

    /// Searches the node at `top` one ply shallower with its own window, in a frame above
    /// it; its best move is then tried first ([`Searcher::deepened`]).
    pub(super) fn deepen(&mut self, top: usize) -> Progress {
        let f = &mut self.frames[top];
        let (board, alpha, beta, depth, pv_node, null_allowed) = (f.board.clone(), f.alpha, f.beta, f.depth, f.pv_node, f.null_allowed);
        let (kind, follows, ply) = (f.kind, f.follows, f.ply);
        f.phase = Phase::Awaiting(Pending::Deepen);
        self.push(board, alpha, beta, depth - 1, pv_node, null_allowed);
        let copy = &mut self.frames[self.top];
        copy.repeats_parent = true;
        copy.kind = kind;
        copy.follows = follows;
        copy.ply = ply;
        Progress::Running
    }

    /// The shallower search of the top frame returned `value`: its best move goes first,
    /// and StarTech's serialization heuristic decides how many moves go before any is
    /// given away: two at a node expected to be cut (Knuth and Moore's type 2) whose
    /// shallower search beat alpha, where a first move that fails low means the
    /// ordering was wrong and a second is likely the refutation.
    pub(super) fn deepened(&mut self, value: i32) -> Progress {
        let top = self.top;
        let best = self.frames[top + 1].best_move;
        let f = &mut self.frames[top];
        // Without a move (every one pruned, or the table settled it) the table's stays:
        // the node is not searched a ply shallower again either way.
        f.tt_move = best.or(f.tt_move);
        f.table_depth = f.depth - 1;
        if self.startech.serialize && f.kind == NodeKind::Cut && value > f.alpha {
            f.serial_moves = 2;
        }
        // The shallower search's line is not this node's.
        self.pv_len[f.ply] = 0;
        self.generate()
    }
}
