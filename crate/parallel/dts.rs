//! Dynamic tree splitting: an idle processor chooses where to help from the busy
//! processors' trees, preferring nodes that will need all their moves.
//!
//! Paper: R. M. Hyatt (Cray Blitz), the Dynamic Tree Splitting (DTS) parallel alpha/beta
//! search (the copy we have carries no title line or date; it was written after the 1994
//! ACM event, and is usually identified as "The Dynamic Tree-Splitting Parallel Search
//! Algorithm", ICCA Journal 20(1), 1997).
//!
//! The idea: an idle processor broadcasts HELP; every busy processor answers with the best
//! split point on its stack, judged by node type — ALL nodes best, PV nodes after their
//! first move next, CUT nodes never, unless two or more moves were searched without a
//! cutoff (the confidence that it is really an ALL node) — and, among those, by remaining
//! depth (the more the better). The idle processor asks the best offer for work. A
//! thrashing counter raises the depth a split point needs after small subproblems in a
//! row, which stops feeding frenzies. Moves given away are searched with the zero window
//! of principal variation search, as Cray Blitz's own search did; a test that fails high
//! is searched again by the owner.
//!
//! Invariants (this file's [`POLICY`] and `split`'s program):
//! - a PV or CUT node is offered only once its first move is done, an expected ALL node
//!   as soon as its first move is under way (the paper: "PV nodes qualify only after
//!   their first successor has been fully searched"; an ALL node needs every move
//!   whatever the first returns), and only with [`MIN_SPLIT_DEPTH`] plies or more left,
//!   more while thrashing;
//! - a CUT node that has not shown itself an ALL node is never offered;
//! - a split point is finished by its owner, which takes every value back: in pure mode
//!   the value is the serial search's.
//!
//! Shared state: the table and, with one global table, the history: the processors walk
//! one tree in the Cray's shared memory, so a cutoff one finds orders the others' moves as
//! the serial search's own history would. Killers stay per processor (a subproblem
//! carries its giver's killers for its first plies).
//!
//! Where ours departs from Cray Blitz's (docs/work-splitting.md says why, and what each
//! is worth):
//! - split points live on the owner's stack, so a split point is finished by its owner,
//!   not by whichever processor ends last; the owner is never idle meanwhile: it helps its
//!   own helpers first, then anyone (see `split`);
//! - on a machine with shared memory, busy processors keep their best split point posted
//!   on the offer board and an idle one reads it instead of broadcasting HELP and
//!   collecting answers (the board is Cray Blitz's shared tree state, kept current rather
//!   than dumped on request); HELP remains on message-passing machines.

use super::split::{Policy, Seek, MIN_SPLIT_DEPTH};
use crate::search::{NodeKind, SplitCandidate, SplitWindow, StarTechRules};

/// Node type first, then remaining depth: `4·depth + type bonus`.
fn merit(c: &SplitCandidate) -> Option<i32> {
    let bonus = match c.kind {
        NodeKind::All => 2,
        NodeKind::Pv => 1,
        NodeKind::Cut if c.moves_searched >= 2 => 2,
        NodeKind::Cut => return None,
    };
    (c.depth >= MIN_SPLIT_DEPTH).then_some(4 * c.depth + bonus)
}

/// Cray Blitz's choices.
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::Broadcast, merit, tests_first: false, startech: StarTechRules::OFF, eager_all_nodes: true };
