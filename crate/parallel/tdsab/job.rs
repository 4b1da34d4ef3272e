//! What travels between TDSAB processors: nodes sent to their home (with their path
//! signature), values sent back to the parent's home, and cutoffs.

use crate::search::{MATE, MAX_PLY};
use cozy_chess::{Board, Move};
use std::cmp::Ordering;

/// The path from the root as child codes (the root's is empty). Comparing two
/// signatures lexicographically says which node lies further left in the tree.
pub(in crate::parallel) type Signature = Vec<ChildCode>;

/// One step of a signature: which child, and which search of it. The null move is 0;
/// move `i`'s first search is `2i + 2` and its full-depth re-search `2i + 3`, so a
/// re-search sorts right after the search it repeats and no signature is used twice in
/// a pass (a cut recorded under the first search cannot kill the re-search).
pub(in crate::parallel) type ChildCode = u16;

/// The null move's code (it sorts before every move).
pub(super) const NULL_CHILD: ChildCode = 0;

/// The code of the first search of move `index`.
pub(super) fn first_search(index: usize) -> ChildCode {
    2 * index as ChildCode + 2
}

/// The code of the full-depth re-search of move `index`.
pub(super) fn re_search(index: usize) -> ChildCode {
    2 * index as ChildCode + 3
}

/// The move index a (non-null) code stands for.
pub(super) fn move_index(code: ChildCode) -> usize {
    (code as usize - 2) / 2
}

/// Where a node's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::parallel) enum Target {
    /// The MTD(f) driver on processor 0 (the node is the root).
    Driver,
    /// The child with code `child` of expanded node `id` at processor `home`.
    Node { home: usize, id: u64, child: ChildCode },
}

impl Target {
    /// The processor the value must be delivered to.
    pub(super) fn home(self) -> usize {
        match self {
            Target::Driver => 0,
            Target::Node { home, .. } => home,
        }
    }
}

/// One node of a null-window search: the position with everything its value depends on.
#[derive(Clone, Debug)]
pub(in crate::parallel) struct Job {
    /// The MTD(f) pass the node belongs to (older passes are dropped on sight).
    pub pass: u32,
    /// The position.
    pub board: Board,
    /// Distance from the root (mate scores and the check-extension limit depend on it).
    pub ply: usize,
    /// Remaining depth.
    pub depth: i32,
    /// The null window is `gamma - 1 .. gamma`, from the side to move's view.
    pub gamma: i32,
    /// Hashes of the ancestors, root first: with the game history, what repetition needs.
    pub path: Vec<u64>,
    /// Left-sidedness and the key for cutoffs.
    pub signature: Signature,
    /// Where the value goes.
    pub target: Target,
    /// Root only: the moves allowed (`searchmoves`, MultiPV exclusions); empty = all.
    pub root_moves: Vec<Move>,
    /// Whether a null move may be tried here (not right after one).
    pub null_allowed: bool,
}

impl Job {
    /// Whether this node lies in the subtree whose root has signature `prefix`.
    pub(super) fn below(&self, prefix: &[ChildCode]) -> bool {
        self.signature.starts_with(prefix)
    }
}

/// Messages of TDSAB.
#[derive(Clone, Debug)]
pub(in crate::parallel) enum TdsMessage {
    /// A node sent to its home processor to be looked up and searched.
    Node(Box<Job>),
    /// A node's value (fail-soft, its own side's view), sent to where its parent lives.
    Value { pass: u32, target: Target, value: i32, best: Option<Move> },
    /// Every node below `prefix` in `pass` is useless now (empty prefix: the whole pass).
    Cutoff { pass: u32, prefix: Signature },
    /// The search is over.
    Finish,
}

/// A queued node, ordered so that a max-heap hands out the leftmost node first.
pub(super) struct Queued(pub Box<Job>);

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.0.signature == other.0.signature
    }
}

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.signature.cmp(&self.0.signature)
    }
}

/// Whether `board` repeats a position of `history` followed by `path` within its
/// halfmove window (the serial searcher's rule: same side to move, two plies apart).
pub(super) fn is_repetition(board: &Board, history: &[u64], path: &[u64]) -> bool {
    let hash = board.hash();
    let len = history.len() + path.len();
    let window = (board.halfmove_clock() as usize).min(len);
    let at = |i: usize| if i < history.len() { history[i] } else { path[i - history.len()] };
    (2..=window).step_by(2).any(|back| at(len - back) == hash)
}

/// The hashes of the positions before `board` inside its halfmove window: two nodes of
/// the same position with the same window see the same repetitions below them.
pub(super) fn repetition_window<'a>(board: &Board, history: &'a [u64], path: &'a [u64]) -> impl Iterator<Item = u64> + 'a {
    let len = history.len() + path.len();
    let window = (board.halfmove_clock() as usize).min(len);
    history.iter().chain(path).copied().skip(len - window)
}

/// A score seen from `plies` plies nearer the root than where it was measured (negative:
/// farther from it): mate distances count from the viewpoint, other scores stay. The
/// table keeps scores relative to their node; searches report them from their root.
pub(super) fn rebase(score: i32, plies: i32) -> i32 {
    let mate_bound = MATE - MAX_PLY as i32;
    if score >= mate_bound {
        score - plies
    } else if score <= -mate_bound {
        score + plies
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leftmost_node_comes_out_first() {
        let job = |signature: Signature| {
            let board = Board::default();
            Queued(Box::new(Job { pass: 1, board, ply: 0, depth: 1, gamma: 0, path: vec![], signature, target: Target::Driver, root_moves: vec![], null_allowed: true }))
        };
        let mut heap = std::collections::BinaryHeap::new();
        for s in [vec![1, 0], vec![0, 3], vec![0], vec![2]] {
            heap.push(job(s));
        }
        let order: Vec<Signature> = std::iter::from_fn(|| heap.pop().map(|q| q.0.signature)).collect();
        assert_eq!(order, vec![vec![0], vec![0, 3], vec![1, 0], vec![2]]);
    }

    #[test]
    fn repetitions_are_seen_across_history_and_path() {
        let mut board = Board::default();
        let mut hashes = vec![board.hash()];
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            board.play(mv.parse().unwrap());
            hashes.push(board.hash());
        }
        let before = &hashes[..hashes.len() - 1];
        assert!(is_repetition(&board, &before[..2], &before[2..]));
        assert!(is_repetition(&board, &[], before));
        assert!(!is_repetition(&board, &[], &before[1..]));
        assert_eq!(repetition_window(&board, &before[..1], &before[1..]).count(), 4);
    }

    #[test]
    fn mate_scores_move_with_the_viewpoint() {
        // Mated 3 plies below a node at ply 5 is mated at ply 8 from the root.
        assert_eq!(rebase(-MATE + 3, 5), -MATE + 8);
        assert_eq!(rebase(rebase(MATE - 9, -4), 4), MATE - 9);
        assert_eq!(rebase(120, 7), 120);
    }
}
