//! King safety: the pawn shelter in front of the king and pieces attacking the squares
//! around it (weighted by attacker type, growing with the number of attackers).
use cozy_chess::{get_king_moves, BitBoard, Board, Color, Piece, Rank};

use super::pawns::files_of;

use super::{EvalParams, Terms};

/// Collects one side's attacks on the other side's king zone (the king's square and
/// its neighbours).
pub(super) struct KingAttack {
    zone: BitBoard,
    attackers: usize,
}

impl KingAttack {
    /// Starts counting attacks on the zone of `defender`'s king.
    #[inline(always)]
    pub(super) fn new(board: &Board, defender: Color) -> Self {
        let king = board.king(defender);
        KingAttack { zone: get_king_moves(king) | king.bitboard(), attackers: 0 }
    }

    /// A piece of `attacker` (index `slot` of [`EvalParams::king_zone_attack`]) attacks `reach`.
    #[inline(always)]
    pub(super) fn record<T: Terms>(
        &mut self,
        slot: usize,
        reach: BitBoard,
        attacker: Color,
        params: &EvalParams,
        terms: &mut T,
    ) {
        let hits = (reach & self.zone).len() as i32;
        if hits > 0 {
            terms.add(&params.king_zone_attack[slot], attacker, hits);
            self.attackers += 1;
        }
    }

    /// Adds the term for the number of pieces that attacked the zone.
    #[inline(always)]
    pub(super) fn finish<T: Terms>(self, attacker: Color, params: &EvalParams, terms: &mut T) {
        let last = params.king_attackers.len() - 1;
        terms.add(&params.king_attackers[self.attackers.min(last)], attacker, 1);
    }
}

/// Adds `color`'s king shelter: own pawns in front of the king, files near it without one.
#[inline(always)]
pub(super) fn add_shelter_terms<T: Terms>(board: &Board, color: Color, params: &EvalParams, terms: &mut T) {
    let king = board.king(color);
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let files = king.file().bitboard() | king.file().adjacent();
    let king_rank = king.rank().relative_to(color) as usize;
    for (distance, weight) in params.pawn_shield.iter().enumerate() {
        if let Some(rank) = Rank::try_index(king_rank + distance + 1) {
            let shield = own_pawns & files & rank.relative_to(color).bitboard();
            terms.add(weight, color, shield.len() as i32);
        }
    }
    // The king's file and those beside it without an own pawn, counted on one rank.
    let open_files = Rank::First.bitboard() & (files - files_of(own_pawns));
    terms.add(&params.king_open_file, color, open_files.len() as i32);
}
