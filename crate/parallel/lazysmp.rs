//! Lazy SMP: every processor runs the whole iterative-deepening search on its own; they
//! share only the transposition table, through which they speed each other up.
//!
//! Paper: none. Lazy SMP has no founding paper; it grew in the open among engine authors
//! around 2013 (Dann Corbit's suggestion on the Talkchess forum of threads that share
//! nothing but the table, then Stockfish's adoption of it in 2015, as the history is
//! commonly told), and is now the parallel search of most strong engines.
//!
//! The idea: processors that search the same tree from the same table at slightly
//! different times find each other's entries, cutoffs and best moves there, so each
//! walks a cheaper tree than it would alone; the first to complete an iteration answers
//! it for all (`program::Deepest`). Odd processors start one ply deeper, so the
//! processors diverge instead of repeating each other's work.
//!
//! Invariants: processors exchange nothing but table entries (no messages, no shared
//! history: each keeps its own, since sharing one made their trees alike and doubled the
//! search overhead, see docs/tuning-log.md); processor 0 alone decides the move and
//! reports; in pure mode the table only orders moves (no cutoffs by its scores), so the
//! value is the serial search's.
//!
//! Departures from the common form: engines that use it spread many threads over depths
//! in various patterns, and some let the threads vote on the move; we only split odd and
//! even processors, and processor 0's iteration (or the deepest completed one it takes
//! over) decides.

/// Odd helpers start one ply ahead, even ones with processor 0.
pub(super) fn depth_offset(id: usize) -> i32 {
    (id % 2) as i32
}
