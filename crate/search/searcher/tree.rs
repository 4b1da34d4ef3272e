//! The top of the tree as it is searched, for the Lab's tree view: the searcher reports
//! each node of the first few plies it enters and leaves ([`TreeEvent`]) when asked to
//! ([`Searcher::set_tree_plies`]). Off by default: then the cost is one comparison per
//! node entered or left. On, events go into a buffer allocated once, which the processor
//! program empties after every step ([`Searcher::take_tree_events`]), so nothing is
//! allocated per node either way.
//!
//! Paths name moves from the root of the whole search (not of a subproblem), castling as
//! the king's two-square step, so that a path is a UCI move sequence from the root.

use super::{NodeKind, Pending, Phase, Searcher};
use crate::chess::to_standard_castling;
use cozy_chess::{Move, Piece, Square};

/// The deepest ply whose nodes can be reported (a path holds at most this many moves).
pub const MAX_TREE_PLY: usize = 4;

/// Moves from the root of the search to a node of the first [`MAX_TREE_PLY`] plies, in
/// standard (UCI) form, packed so that the path is `Copy` and never allocates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreePath {
    moves: [u16; MAX_TREE_PLY],
    len: u8,
}

/// The length of a line through a null move: not a move sequence, never reported.
const NULL_LINE: u8 = u8::MAX;

/// Bits of one packed move: from (6), to (6), promotion (3: 0 none, 1 knight .. 4 queen).
const MOVE_BITS: u32 = 15;
const PROMOTIONS: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

impl TreePath {
    /// Appends `mv`; beyond [`MAX_TREE_PLY`] moves the path is only counted, not kept
    /// (nodes that deep are never reported).
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len as usize) {
            let promotion = mv.promotion.and_then(|p| PROMOTIONS.iter().position(|&q| q == p)).map_or(0, |i| i as u16 + 1);
            *slot = mv.from as u16 | (mv.to as u16) << 6 | promotion << 12;
        }
        self.len = self.len.saturating_add(1).min(NULL_LINE - 1);
    }

    /// Appends a null move: the line no longer names a node reached by moves.
    fn push_null(&mut self) {
        self.len = NULL_LINE;
    }

    /// Whether it is a sequence of moves (not through a null move).
    fn is_moves(&self) -> bool {
        self.len != NULL_LINE
    }

    /// Its length in plies.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether it is the root's path.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its moves, from the root.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len().min(MAX_TREE_PLY)].iter().map(|&packed| Move {
            from: Square::index(packed as usize & 63),
            to: Square::index(packed as usize >> 6 & 63),
            promotion: match packed >> 12 & 7 {
                0 => None,
                p => Some(PROMOTIONS[p as usize - 1]),
            },
        })
    }

    /// The path as one number: moves at [`MOVE_BITS`] bits each from the low end, the
    /// length (at most [`MAX_TREE_PLY`]) above them (for the trace's hash and replay).
    pub fn packed(&self) -> u64 {
        let moves = self.moves[..self.len().min(MAX_TREE_PLY)].iter().enumerate().fold(0u64, |acc, (i, &m)| acc | (m as u64) << (MOVE_BITS * i as u32));
        moves | (self.len().min(MAX_TREE_PLY) as u64) << (MOVE_BITS * MAX_TREE_PLY as u32)
    }

    /// The path [`TreePath::packed`] gave.
    pub fn from_packed(packed: u64) -> TreePath {
        let len = ((packed >> (MOVE_BITS * MAX_TREE_PLY as u32)) as usize).min(MAX_TREE_PLY);
        let mut path = TreePath::default();
        for (i, slot) in path.moves.iter_mut().enumerate().take(len) {
            *slot = (packed >> (MOVE_BITS * i as u32)) as u16 & ((1 << MOVE_BITS) - 1);
        }
        path.len = len as u8;
        path
    }

    /// The path `packed` names, if it is one [`TreePath::packed`] can give: from
    /// another process, a number is checked before its moves are read.
    pub fn checked_from_packed(packed: u64) -> Option<TreePath> {
        let path = TreePath::from_packed(packed);
        let promotions_named = path.moves[..path.len()].iter().all(|&m| (m >> 12 & 7) as usize <= PROMOTIONS.len());
        (promotions_named && path.packed() == packed).then_some(path)
    }

    /// The moves as UCI text separated by spaces ("" for the root).
    pub fn uci(&self) -> String {
        let mut text = String::new();
        for (i, mv) in self.moves().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&mv.to_string());
        }
        text
    }
}

/// A node of the top plies entered, left, or split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeEvent {
    /// The searcher entered the node (again, for a re-search).
    Node {
        /// Moves from the root.
        path: TreePath,
        /// Remaining depth.
        depth: i32,
        /// The window, from the side to move at the node.
        alpha: i32,
        /// The window's upper end.
        beta: i32,
        /// Its expected type.
        kind: NodeKind,
        /// It is the root of a subproblem this processor received.
        received: bool,
    },
    /// The searcher is done with the node.
    Leave {
        /// Moves from the root.
        path: TreePath,
        /// Its value (from the side to move; meaningless when aborted).
        value: i32,
        /// The value reached beta: a cutoff.
        cut: bool,
        /// The transposition table answered without a search.
        tt: bool,
        /// Abandoned without a value (a cutoff elsewhere made it useless, or stop).
        aborted: bool,
    },
    /// The node gave a move away to processor `to` (it became a split point).
    Split {
        /// Moves from the root to the split node.
        path: TreePath,
        /// The processor that searches the move.
        to: u32,
    },
}

impl Searcher {
    /// Reports the nodes of plies `0..plies` (at most [`MAX_TREE_PLY`] + 1; 0: none) as
    /// [`TreeEvent`]s, from the next node on.
    pub fn set_tree_plies(&mut self, plies: usize) {
        let plies = plies.min(MAX_TREE_PLY + 1);
        if plies > 0 && self.tree_events.capacity() == 0 {
            // A step enters one node and leaves at most every reported one, plus a split.
            self.tree_events.reserve(2 * (MAX_TREE_PLY + 2));
        }
        self.tree_plies = plies;
    }

    /// Plies whose nodes are reported (0: none).
    pub fn tree_plies(&self) -> usize {
        self.tree_plies
    }

    /// The tree events since the last call (taken: the caller passes them on).
    pub fn take_tree_events(&mut self) -> std::vec::Drain<'_, TreeEvent> {
        self.tree_events.drain(..)
    }

    /// The path from the root of the search to frame `index` (through a null move when
    /// a frame below searches one: then it is not reported).
    pub(super) fn path_to(&self, index: usize) -> TreePath {
        let mut path = self.tree_base;
        for f in &self.frames[..index] {
            match (f.phase, f.current) {
                // The frame above searches the same position.
                (Phase::Awaiting(Pending::Deepen), _) => {}
                (Phase::Awaiting(Pending::NullMove | Pending::NullVerify), _) | (_, None) => path.push_null(),
                (_, Some(mv)) => path.push(to_standard_castling(&f.board, mv)),
            }
        }
        path
    }

    /// The line this searcher is on: the first [`MAX_TREE_PLY`] moves from the root of the
    /// whole search to its current node, short of a null move (a watcher's view of where
    /// a processor is; it costs a few frames' look, so callers sample it now and then).
    /// `None` when its subproblem lies below a null move.
    pub fn line(&self) -> Option<TreePath> {
        let mut path = self.tree_base;
        if !path.is_moves() {
            return None;
        }
        for f in self.frames[..self.top].iter().take(MAX_TREE_PLY.saturating_sub(path.len())) {
            match (f.phase, f.current) {
                (Phase::Awaiting(Pending::Deepen), _) => {}
                (Phase::Awaiting(Pending::NullMove | Pending::NullVerify), _) | (_, None) => break,
                (_, Some(mv)) => path.push(to_standard_castling(&f.board, mv)),
            }
        }
        Some(path)
    }

    /// The path to frame `index`, if its nodes are reported.
    fn reported_path(&self, index: usize) -> Option<TreePath> {
        let path = self.path_to(index);
        let f = &self.frames[index];
        (f.ply < self.tree_plies && !f.repeats_parent && path.is_moves()).then_some(path)
    }

    /// Frame `top` was entered.
    pub(super) fn report_enter(&mut self) {
        let top = self.top;
        let Some(path) = self.reported_path(top) else { return };
        let f = &self.frames[top];
        let received = top == 0 && self.base_ply > 0;
        self.tree_events.push(TreeEvent::Node { path, depth: f.depth, alpha: f.alpha, beta: f.beta, kind: f.kind, received });
    }

    /// Frame `index` is left with `value` (`None`: abandoned), `tt` when the table answered.
    pub(super) fn report_leave(&mut self, index: usize, value: Option<i32>, tt: bool) {
        let Some(path) = self.reported_path(index) else { return };
        let beta = self.frames[index].beta;
        let event = match value {
            Some(value) => TreeEvent::Leave { path, value, cut: value >= beta, tt, aborted: false },
            None => TreeEvent::Leave { path, value: 0, cut: false, tt: false, aborted: true },
        };
        self.tree_events.push(event);
    }

    /// Frame `index` gave a move to processor `to`.
    pub(super) fn report_split(&mut self, index: usize, to: usize) {
        if let Some(path) = self.reported_path(index) {
            self.tree_events.push(TreeEvent::Split { path, to: to as u32 });
        }
    }
}
