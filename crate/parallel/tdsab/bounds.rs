//! What MTD(f) remembers between its passes in pure mode. MTD(f) works because its
//! table keeps each node's bounds from one null-window pass to the next; pure mode turns
//! the table's cutoffs off (a table entry may come from another depth, ply or path, and
//! then change the value), so without this every pass would search its whole tree again.
//! Here a home keeps, for the nodes it decided, the bounds their fail-soft values proved,
//! keyed by everything the value depends on (position, depth, ply, halfmove clock and the
//! positions in the repetition window): a bound is reused only for the very same
//! function, so the value stays the serial one.

use super::job::{repetition_window, Job};
use crate::random::mix;
use crate::search::INFINITY;
use std::collections::HashMap;

/// What a node's value depends on, beyond its window.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct NodeKey {
    hash: u64,
    depth: i32,
    ply: usize,
    clock: u8,
    /// The positions of the repetition window, mixed into one number.
    window: u64,
}

/// Proven bounds per node: the value lies in `lower..=upper`.
#[derive(Default)]
pub(super) struct Bounds {
    known: HashMap<NodeKey, (i32, i32)>,
}

impl Bounds {
    fn key(job: &Job, history: &[u64]) -> NodeKey {
        let window = repetition_window(&job.board, history, &job.path).fold(0, mix);
        NodeKey { hash: job.board.hash(), depth: job.depth, ply: job.ply, clock: job.board.halfmove_clock(), window }
    }

    /// A value that decides `job`'s null window from what earlier passes proved, if any.
    pub(super) fn decide(&self, job: &Job, history: &[u64]) -> Option<i32> {
        let &(lower, upper) = self.known.get(&Self::key(job, history))?;
        if lower >= job.gamma {
            Some(lower)
        } else if upper < job.gamma {
            Some(upper)
        } else {
            None
        }
    }

    /// Records that `job`'s fail-soft value in its window was `value`.
    pub(super) fn record(&mut self, job: &Job, history: &[u64], value: i32) {
        let (lower, upper) = self.known.entry(Self::key(job, history)).or_insert((-INFINITY, INFINITY));
        if value >= job.gamma {
            *lower = (*lower).max(value);
        } else {
            *upper = (*upper).min(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::job::Target;
    use super::*;
    use cozy_chess::Board;

    fn job(board: &Board, ply: usize, depth: i32, gamma: i32, path: &[u64]) -> Job {
        let (board, path) = (board.clone(), path.to_vec());
        Job { pass: 1, board, ply, depth, gamma, path, signature: vec![], target: Target::Driver, root_moves: vec![], null_allowed: false }
    }

    /// A fail-high value is a lower bound and a fail-low one an upper bound, and they
    /// serve only a node of the same position, depth, ply and repetition window.
    #[test]
    fn bounds_decide_only_the_same_node() {
        let mut board = Board::default();
        board.play("g1f3".parse().unwrap());
        board.play("g8f6".parse().unwrap());
        let path = [1, 2, 3];
        let mut bounds = Bounds::default();
        bounds.record(&job(&board, 2, 4, 10, &path), &[], 25);
        assert_eq!(bounds.decide(&job(&board, 2, 4, 20, &path), &[]), Some(25));
        assert_eq!(bounds.decide(&job(&board, 2, 4, 30, &path), &[]), None);
        bounds.record(&job(&board, 2, 4, 40, &path), &[], 32);
        assert_eq!(bounds.decide(&job(&board, 2, 4, 35, &path), &[]), Some(32));
        assert_eq!(bounds.decide(&job(&board, 2, 4, 30, &path), &[]), None, "25..=32 does not decide 30");
        assert_eq!(bounds.decide(&job(&board, 2, 5, 20, &path), &[]), None, "another depth");
        assert_eq!(bounds.decide(&job(&board, 3, 4, 20, &path), &[]), None, "another ply");
        // The clock is 2: the last two positions before this one may repeat below it.
        assert_eq!(bounds.decide(&job(&board, 2, 4, 20, &[9, 2, 3]), &[]), Some(25), "outside the window");
        assert_eq!(bounds.decide(&job(&board, 2, 4, 20, &[1, 9, 3]), &[]), None, "another repetition window");
    }
}
