//! What the work-splitting algorithms (ybwc, pvsplit, jamboree, dts) say to each other.
//!
//! Papers: the vocabulary is Zugzwang's (R. Feldmann, P. Mysliwietz and B. Monien, "A
//! Fully Distributed Chess Program": WORK-REQUEST, WORK, NO-WORK, RESULT, NEWBOUND,
//! CUTOFF), plus Cray Blitz's HELP and the offers that answer it (Hyatt's DTS, see `dts`).
//! Their bytes and their kinds for a machine's counters are in `wire`.
//!
//! Invariants (kept by `split`): a processor numbers the jobs it gives, and a job's
//! number names it to its owner in every later RESULT, NEWBOUND and CUTOFF; each
//! WORK-REQUEST gets one answer, WORK or NO-WORK (a RESULT with `wants_work` is also a
//! request); a HELP gets one OFFER from every processor it reached.
//!
//! Departure from Zugzwang's: a RESULT may ask for more work at once (`wants_work`), and
//! carries the subproblem's principal variation and critical path (StarTech's measure).

use crate::search::Subproblem;
use cozy_chess::Move;

/// A message between processors of a work-splitting search.
#[derive(Clone, Debug)]
pub(super) enum Message {
    /// "Give me work" (to one processor), with the asker's measured speed in nodes per
    /// millisecond when the algorithm weighs processors by speed.
    WorkRequest { rate: Option<u32> },
    /// A subproblem; its value must come back as a [`Message::Result`] with `job`.
    /// `pace`: on a machine whose round trip costs as much as a subtree, what its giver
    /// knows of that (`None` elsewhere).
    Work { job: u32, problem: Box<Subproblem>, pace: Option<Pace> },
    /// "I have nothing to give."
    NoWork,
    /// The value of subproblem `job` (from its side to move) and its principal variation;
    /// `span`: the critical path of its search, in nodes. `wants_work`: the sender has
    /// nothing else to do, so the result is also a work request (answered with WORK from
    /// the same split point while it has moves, as helpers stay at a split point in
    /// Crafty and Stockfish, or NO-WORK).
    Result { job: u32, value: i32, pv: Vec<Move>, span: u64, wants_work: bool },
    /// The window of subproblem `job` narrowed.
    NewBound { job: u32, alpha: i32, beta: i32 },
    /// Subproblem `job` is no longer needed.
    Cutoff { job: u32 },
    /// DTS: an idle processor asks everyone where it could help.
    Help,
    /// DTS: the answer to HELP — how good a split point the sender could offer now
    /// (`None`: none).
    Offer { merit: Option<i32> },
    /// The machine says the sender is gone (a class's tab left): what it was given is
    /// searched again, what it gave is dropped. Made by the machine, never sent.
    Lost,
}

/// What the giver of a job knows of a slow network (`split::pace`), passed on with the
/// job: its receiver, which has no round trip of its own to measure, splits it on no finer
/// than the giver would, and asks for its next job in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pace {
    /// The fewest plies a subproblem given on from this job must search.
    pub least_depth: i32,
    /// The job's expected size, in nodes.
    pub expected_nodes: u64,
    /// A round trip, in the receiver's nodes.
    pub round_trip_nodes: u64,
}
