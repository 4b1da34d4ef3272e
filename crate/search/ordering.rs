//! Move lists with ordering scores: TT move, good captures by MVV-LVA, killers, the
//! counter move, quiet moves by history, bad captures (negative SEE) last. Fixed capacity, so
//! generating moves allocates nothing. A node may start its list with the table's move
//! alone and generate the others only if that move does not cut it off.

use super::heuristics::{Heuristics, Refutations};
use super::see::{captured_value, see_at_least, SEE_VALUE};
use crate::chess::en_passant_victim;
use cozy_chess::{BitBoard, Board, Move, Piece, Rank, Square};
use std::mem::MaybeUninit;

/// More moves than any legal position has.
pub const MAX_MOVES: usize = 256;

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER: [i32; 2] = [1 << 22, (1 << 22) - 1];
const COUNTER: i32 = (1 << 22) - 2;
const BAD_CAPTURE: i32 = -(1 << 24);

/// A move and its ordering score.
#[derive(Clone, Copy)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Higher is tried first.
    pub score: i32,
}

/// A fixed-capacity move list that hands out moves best-first (selection sort: most
/// nodes cut off after a few moves, so sorting the whole list would be wasted). Moves
/// and scores are kept apart, so the search for the best score runs over plain integers.
pub struct MoveList {
    /// Entries `0..len` of both arrays are initialised; the rest is never read.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    scores: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
    next: usize,
    /// The list holds only the table's move so far; the others are still to generate.
    rest_pending: bool,
}

impl Default for MoveList {
    /// An empty list; leaving the arrays uninitialised saves clearing 2 KiB per node.
    fn default() -> Self {
        MoveList { moves: [const { MaybeUninit::uninit() }; MAX_MOVES], scores: [const { MaybeUninit::uninit() }; MAX_MOVES], len: 0, next: 0, rest_pending: false }
    }
}

/// Whether a move wins material outright (capture or promotion).
pub fn is_tactical(board: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || board.colors(!board.side_to_move()).has(mv.to) || en_passant_victim(board, mv).is_some()
}

impl MoveList {
    /// Starts the list with the table's (legal) move alone; the caller generates the
    /// others ([`MoveList::generate`] without it) once that move has not cut the node off,
    /// which saves generating and scoring them where it does.
    pub fn start_with(&mut self, tt_move: Move) {
        self.moves[0] = MaybeUninit::new(tt_move);
        self.scores[0] = MaybeUninit::new(TT_MOVE);
        self.len = 1;
        self.next = 0;
        self.rest_pending = true;
    }

    /// Whether the list holds only the table's move and the other moves are still to
    /// generate.
    pub fn rest_pending(&self) -> bool {
        self.rest_pending
    }

    /// Fills the list with every legal move (`tactical_only`: captures and queen
    /// promotions), scored for ordering. `filter` can exclude moves (root restrictions).
    pub fn generate(&mut self, board: &Board, tactical_only: bool, tt_move: Option<Move>, refutations: Refutations, heur: &Heuristics, ply_filter: impl Fn(Move) -> bool) {
        let Refutations { killers, counter } = refutations;
        self.len = 0;
        self.next = 0;
        self.rest_pending = false;
        let stm = board.side_to_move();
        let enemy = board.colors(!stm);
        // For tactical-only lists, drop quiet targets before expanding moves: pieces keep
        // captures, pawns also keep promotions and en passant.
        let promotion_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
        let en_passant = board.en_passant().map_or(BitBoard::EMPTY, |f| Square::new(f, Rank::Sixth.relative_to(stm)).bitboard());
        board.generate_moves(|mut pm| {
            if tactical_only {
                pm.to &= if pm.piece == Piece::Pawn { enemy | promotion_ranks | en_passant } else { enemy };
            }
            for mv in pm {
                let capture = enemy.has(mv.to) || (pm.piece == Piece::Pawn && mv.from.file() != mv.to.file());
                if tactical_only && !capture && mv.promotion != Some(Piece::Queen) {
                    continue;
                }
                if !ply_filter(mv) {
                    continue;
                }
                let score = if Some(mv) == tt_move {
                    TT_MOVE
                } else if capture || mv.promotion.is_some() {
                    let attacker = SEE_VALUE[pm.piece as usize];
                    let captured = captured_value(board, mv);
                    let mvv = captured * 8 - attacker / 10;
                    // Taking a piece worth at least the taker never loses material: the
                    // exchange is then good without playing it out.
                    if mv.promotion.is_some_and(|p| p != Piece::Queen) {
                        BAD_CAPTURE + mvv
                    } else if (mv.promotion.is_none() && captured >= attacker) || see_at_least(board, mv, 0) {
                        GOOD_CAPTURE + mvv
                    } else {
                        BAD_CAPTURE + mvv
                    }
                } else if Some(mv) == killers[0] {
                    KILLER[0]
                } else if Some(mv) == killers[1] {
                    KILLER[1]
                } else if Some(mv) == counter {
                    COUNTER
                } else {
                    heur.history(stm, mv)
                };
                self.moves[self.len] = MaybeUninit::new(mv);
                self.scores[self.len] = MaybeUninit::new(score);
                self.len += 1;
            }
            false
        });
    }

    /// Moves not picked yet.
    pub fn remaining(&self) -> usize {
        self.len - self.next
    }

    /// The best remaining move, or `None` when all were handed out.
    pub fn pick(&mut self) -> Option<ScoredMove> {
        if self.next >= self.len {
            return None;
        }
        // SAFETY: `generate` and `start_with` initialised every entry below `len`.
        let scores = unsafe { &*(&self.scores[self.next..self.len] as *const [MaybeUninit<i32>] as *const [i32]) };
        let mut best = 0;
        let mut best_score = scores[0];
        for (i, &score) in scores.iter().enumerate().skip(1) {
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        let best = self.next + best;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        // SAFETY: as above, `self.next < self.len`.
        let mv = unsafe { self.moves[self.next].assume_init() };
        self.next += 1;
        Some(ScoredMove { mv, score: best_score })
    }

    /// Ordering score that marks a capture with a losing exchange.
    pub fn is_bad_capture(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}
