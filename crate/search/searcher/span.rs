//! The critical path of the tree a searcher walks — Cilk's span, StarTech's C — counted in
//! nodes, as the dependency graph of Young Brothers Wait defines it: a node's own work (1,
//! or the nodes of its quiescence search), then its null-move tests and its eldest move in
//! series, then every later move in parallel (each move's chain is its zero-window test
//! and the re-searches that depend on it). It does not depend on who searched what: a
//! move the owner searched itself counts as parallel to its brothers just as one another
//! processor searched, whose chain comes back with the result. Summed over the root
//! searches of iterative deepening (which run one after another), it is the C of
//! T_P ≈ a·W/P + b·C; it costs a few additions per node and changes no decision.

use super::Searcher;

/// One node's share of the critical path.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Span {
    /// Own work, the null-move children and the eldest move: the serial part.
    serial: u64,
    /// The longest chain among the later moves finished so far.
    later: u64,
    /// The chain of the move being searched.
    current: u64,
}

impl Span {
    /// A node entered: one node of its own work.
    pub(super) fn entered() -> Span {
        Span { serial: 1, later: 0, current: 0 }
    }

    /// Nodes its quiescence search visited beyond the node itself.
    pub(super) fn add_own(&mut self, nodes: u64) {
        self.serial += nodes;
    }

    /// A null-move child (searched before any move, so in series).
    pub(super) fn add_serial(&mut self, span: u64) {
        self.serial += span;
    }

    /// A search of the current move (a test or a re-search of it).
    pub(super) fn add_to_move(&mut self, span: u64) {
        self.current += span;
    }

    /// The current move has its final value: the eldest move joins the serial part, a
    /// later one runs beside its brothers.
    pub(super) fn move_done(&mut self, eldest: bool) {
        if eldest {
            self.serial += self.current;
        } else {
            self.later = self.later.max(self.current);
        }
        self.current = 0;
    }

    /// A later move searched elsewhere, with its chain.
    pub(super) fn add_parallel(&mut self, span: u64) {
        self.later = self.later.max(span);
    }

    /// The node's critical path so far.
    pub(super) fn total(&self) -> u64 {
        self.serial + self.later.max(self.current)
    }
}

impl Searcher {
    /// The critical path of every root search since [`Searcher::reset_counters`], in nodes.
    pub fn span_total(&self) -> u64 {
        self.span_total
    }

    /// The critical path of the last root search that finished (a subproblem's, for the
    /// processor it came from), in nodes.
    pub fn root_span(&self) -> u64 {
        self.root_span
    }

    /// The root finished with this critical path.
    pub(super) fn root_finished(&mut self, span: u64) {
        self.root_span = span;
        self.span_total += span;
    }
}
