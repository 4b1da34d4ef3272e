//! Score conventions: centipawns, with mate scores counted in plies from the root
//! (`MATE - ply` for the side that mates), and their conversion for the table and UCI.

/// Larger than any score: the open window's bounds.
pub const INFINITY: i32 = 32_001;
/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Deepest ply the searcher reaches (frames, killers and PV are sized by it).
pub const MAX_PLY: usize = 128;
/// Scores at least this large in magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score for display: centipawns or moves to mate (negative when being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's point of view.
    Cp(i32),
    /// Moves (not plies) to mate; negative when the engine is mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Makes a mate score relative to the node at `ply` before it goes into the table.
pub fn to_table(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// Undoes [`to_table`] for a node at `ply`.
pub fn from_table(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(from_table(to_table(MATE - 9, 4), 4), MATE - 9);
        assert_eq!(from_table(to_table(-(MATE - 9), 4), 6), -(MATE - 11));
    }
}
