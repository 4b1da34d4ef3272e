//! Lazy SMP: each processor runs the whole iterative-deepening search on its own; they
//! share only the transposition table, through which they speed each other up. Odd
//! processors start one ply deeper so the processors diverge instead of repeating each
//! other's work.
//!
//! Shared state: the table. Invariant: processor 0 alone decides the move.

/// Odd helpers start one ply ahead, even ones with processor 0.
pub(super) fn depth_offset(id: usize) -> i32 {
    (id % 2) as i32
}
