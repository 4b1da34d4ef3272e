//! Dynamic tree splitting (Hyatt: Cray Blitz). An idle processor broadcasts HELP; every
//! busy processor answers with the best split point on its stack, judged by node type:
//! ALL nodes are best, PV nodes after their first move next, CUT nodes never — unless two
//! or more moves were searched without a cutoff, the confidence that it is really an ALL
//! node; shallower (deeper remaining depth) is better. The idle processor asks the best
//! offer for work. A thrashing counter raises the depth a split point needs after small
//! subproblems in a row, which stops feeding frenzies.
//!
//! Moves given away are searched with the zero window of principal variation search, as
//! Cray Blitz's own search did; a test that fails high is searched again by the owner.
//!
//! Departures from Cray Blitz (docs/work-splitting.md): split points live on the owner's
//! stack, so a split point is finished by its owner, not by whichever processor ends
//! last; the owner is never idle meanwhile, though: it helps its own helpers first, then
//! anyone (see `split`). On a machine with shared memory, busy processors keep their best
//! split point posted on the offer board and an idle one reads it instead of broadcasting
//! HELP and collecting answers (the board is Cray Blitz's shared tree state, kept current
//! rather than dumped on request); HELP remains on message-passing machines.
//!
//! Shared state: the table and, with one global table, the history: the processors walk
//! one tree in the Cray's shared memory, so a cutoff one finds orders the others' moves
//! as the serial search's own history would. On the simulator's 2-core machine
//! (Bratko-Kopec, depth 15, 64 MiB, 24 seeds) it took 5 % off the parallel time (SPE 1.57
//! to 1.65, search overhead 0.21 to 0.15); natively, in two runs of 4 rounds each way,
//! taken in turn, 1.44 and 1.47 became 1.53 and 1.60 (overhead 0.19–0.21 to 0.09–0.13).
//! Killers stay per processor (a subproblem carries its giver's killers for its first
//! plies).

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
pub(super) const POLICY: Policy = Policy { window: SplitWindow::Test, seek: Seek::Broadcast, merit, tests_first: false, startech: StarTechRules::OFF };
