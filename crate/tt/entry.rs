//! One table entry and its packing into a 64-bit word.
//!
//! Layout of the data word (bit 63 down to 0):
//! `valid:1 | generation:6 | bound:2 | depth:8 | eval:16 | score:16 | move:15`
//! The move packs from (6), to (6) and promotion (3, 0 = none); the valid bit keeps an
//! entry from ever packing to 0, which marks an empty slot.

use cozy_chess::{Move, Piece, Square};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is the true value.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound decides a search of the window
    /// (`alpha`, `beta`) on its own: exact, or a bound on the side the window fails to.
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// A search result for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move, if one is known.
    pub mv: Option<Move>,
    /// Score, with mate scores relative to this node (see `search::score`).
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
    /// The search that wrote the entry (set by the table on store).
    pub generation: u8,
}

impl Entry {
    /// Generations wrap at this mask.
    pub const GENERATION_MASK: u8 = 63;

    /// The entry as one word, never 0 (also how a distributed table's messages carry it).
    pub fn pack(&self) -> u64 {
        let mv = self.mv.map_or(0, pack_move) as u64;
        (1u64 << 63)
            | ((self.generation & Self::GENERATION_MASK) as u64) << 57
            | (self.bound as u64) << 55
            | (self.depth as u64) << 47
            | (self.eval as u16 as u64) << 31
            | (self.score as u16 as u64) << 15
            | mv
    }

    /// The entry a word from [`Entry::pack`] holds.
    pub fn unpack(data: u64) -> Entry {
        let bound = match (data >> 55) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Entry {
            mv: unpack_move((data & 0x7fff) as u16),
            score: (data >> 15) as u16 as i16,
            eval: (data >> 31) as u16 as i16,
            depth: (data >> 47) as u8,
            bound,
            generation: ((data >> 57) as u8) & Self::GENERATION_MASK,
        }
    }
}

/// A move in 16 bits (from, to, promotion + 1); a real move is never 0 (from ≠ to), so 0
/// stands for none. The table and the search's counter-move table store moves so.
pub fn pack_move(mv: Move) -> u16 {
    let promo = mv.promotion.map_or(0, |p| p as u16 + 1);
    mv.from as u16 | (mv.to as u16) << 6 | promo << 12
}

/// The move [`pack_move`] made, or `None` for 0.
pub fn unpack_move(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let promotion = match bits >> 12 {
        0 => None,
        p => Some(Piece::index((p - 1) as usize)),
    };
    Some(Move { from: Square::index((bits & 63) as usize), to: Square::index(((bits >> 6) & 63) as usize), promotion })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Board;

    #[test]
    fn packs_and_unpacks_every_field() {
        let e = Entry {
            mv: Some("e7e8q".parse().unwrap()),
            score: -31234,
            eval: 77,
            depth: 200,
            bound: Bound::Lower,
            generation: 45,
        };
        assert_eq!(Entry::unpack(e.pack()), e);
        let none = Entry { mv: None, score: 0, eval: 0, depth: 0, bound: Bound::Upper, generation: 0 };
        assert_ne!(none.pack(), 0);
        assert_eq!(Entry::unpack(none.pack()), none);
    }

    /// Every legal move of a position with promotions survives packing, and none packs to
    /// the empty value.
    #[test]
    fn moves_pack_into_sixteen_bits_and_back() {
        let board: Board = "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1".parse().unwrap();
        let mut moves = Vec::new();
        board.generate_moves(|list| {
            moves.extend(list);
            false
        });
        assert!(moves.iter().any(|m| m.promotion == Some(Piece::Knight)));
        for mv in moves {
            assert_ne!(pack_move(mv), 0);
            assert_eq!(unpack_move(pack_move(mv)), Some(mv));
        }
    }
}
