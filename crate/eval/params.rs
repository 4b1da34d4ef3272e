//! The evaluation weights: one struct holding every number the evaluation uses, so a
//! tuner can read and change all of them, and print them back as Rust source.
use core::fmt::Write;
use core::ops::{Add, AddAssign, Mul, Neg, Sub};

use cozy_chess::Piece;

/// A weight with a middlegame and an endgame value, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Value with all pieces on the board.
    pub mg: i32,
    /// Value with only kings and pawns left.
    pub eg: i32,
}

/// Short constructor, so weight tables stay readable.
pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        s(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        s(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        s(self.mg * rhs, self.eg * rhs)
    }
}

/// A field of [`EvalParams`]: a single score or an array of them, seen as a flat slice
/// (for the tuner) and printed as Rust source (for pasting tuned values back).
pub trait Weights {
    /// The scores in memory order.
    fn scores(&self) -> &[Score];
    /// The scores in memory order, writable.
    fn scores_mut(&mut self) -> &mut [Score];
    /// Appends this field's value as a Rust expression; `indent` is the field's indentation.
    fn write_rust(&self, indent: &str, out: &mut String) {
        write_score_array(self.scores(), indent, out);
    }
}

impl Weights for Score {
    fn scores(&self) -> &[Score] {
        core::slice::from_ref(self)
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        core::slice::from_mut(self)
    }
    fn write_rust(&self, _indent: &str, out: &mut String) {
        write_score(*self, out);
    }
}

impl<const N: usize> Weights for [Score; N] {
    fn scores(&self) -> &[Score] {
        self
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self
    }
}

impl Weights for [[Score; 64]; Piece::NUM] {
    fn scores(&self) -> &[Score] {
        self.as_flattened()
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self.as_flattened_mut()
    }
    fn write_rust(&self, indent: &str, out: &mut String) {
        let inner = format!("{indent}    ");
        out.push_str("[\n");
        for (piece, table) in Piece::ALL.iter().zip(self) {
            let _ = write!(out, "{inner}// {piece:?}\n{inner}");
            write_score_array(table, &inner, out);
            out.push_str(",\n");
        }
        out.push_str(indent);
        out.push(']');
    }
}

fn write_score(score: Score, out: &mut String) {
    let _ = write!(out, "s({}, {})", score.mg, score.eg);
}

/// Writes `[s(..), ...]`, eight to a line (one board rank per line for square tables).
fn write_score_array(scores: &[Score], indent: &str, out: &mut String) {
    const PER_LINE: usize = 8;
    if scores.len() <= PER_LINE {
        out.push('[');
        for (i, &score) in scores.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_score(score, out);
        }
        out.push(']');
        return;
    }
    out.push_str("[\n");
    for line in scores.chunks(PER_LINE) {
        let _ = write!(out, "{indent}    ");
        for (i, &score) in line.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            write_score(score, out);
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str(indent);
    out.push(']');
}

/// Declares [`EvalParams`] and, from the same field list, the walkers over its fields,
/// so adding a weight is one line and the tuner and the printer see it at once.
macro_rules! eval_params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty,)*) => {
        /// Every weight of the evaluation, in centipawns (middlegame, endgame).
        ///
        /// `#[repr(C)]` and fields made only of [`Score`]s: the struct is a flat array of
        /// scores in declaration order, which lets the tuner name a weight by its offset
        /// ([`EvalParams::index_of`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[repr(C)]
        pub struct EvalParams {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl EvalParams {
            /// Number of scores in the struct.
            pub const LEN: usize = 0 $(+ core::mem::size_of::<$ty>() / core::mem::size_of::<Score>())*;

            /// Calls `visit` with each field's name and scores, in declaration order.
            pub fn for_each_field(&self, mut visit: impl FnMut(&'static str, &dyn Weights)) {
                $(visit(stringify!($name), &self.$name);)*
            }

            /// Calls `visit` with each field's name and writable scores, in declaration order.
            pub fn for_each_field_mut(&mut self, mut visit: impl FnMut(&'static str, &mut dyn Weights)) {
                $(visit(stringify!($name), &mut self.$name);)*
            }
        }
    };
}

eval_params! {
    /// Material by piece (pawn, knight, bishop, rook, queen); the king has none.
    material: [Score; 5],
    /// Piece-square tables by piece, from the owner's side, drawn as a board: index 0 is
    /// a8 and 63 is h1 for White (Black uses the vertically mirrored square).
    psqt: [[Score; 64]; Piece::NUM],
    /// Knight by number of safe squares it attacks (not own pieces, not enemy pawn attacks).
    mobility_knight: [Score; 9],
    /// Bishop by number of safe squares it attacks.
    mobility_bishop: [Score; 14],
    /// Rook by number of safe squares it attacks.
    mobility_rook: [Score; 15],
    /// Queen by number of safe squares it attacks.
    mobility_queen: [Score; 28],
    /// Two or more bishops.
    bishop_pair: Score,
    /// Rook on a file without pawns.
    rook_open_file: Score,
    /// Rook on a file without own pawns but with enemy pawns.
    rook_half_open_file: Score,
    /// Each pawn that has an own pawn in front of it on its file.
    doubled_pawn: Score,
    /// Each pawn without own pawns on the adjacent files.
    isolated_pawn: Score,
    /// Each pawn defended by an own pawn.
    supported_pawn: Score,
    /// Passed pawn by its rank from the owner's side: index 0 is the 2nd rank, 5 the 7th.
    passed_pawn: [Score; 6],
    /// Per square of distance from the own king (0) and the enemy king (1) to the square
    /// in front of a passed pawn.
    passed_king_distance: [Score; 2],
    /// Each enemy knight, bishop, rook or queen attacked by an own pawn.
    pawn_threat: Score,
    /// Own pawns in front of the king (its file and both neighbours), one and two ranks ahead.
    pawn_shield: [Score; 2],
    /// Each of the king's file and its neighbours with no own pawn.
    king_open_file: Score,
    /// Each square next to the enemy king (or its own square) attacked by a knight,
    /// bishop, rook or queen: the benefit to the attacker.
    king_zone_attack: [Score; 4],
    /// Number of pieces attacking the enemy king's zone (7 or more share the last entry):
    /// the benefit to the attacker; it grows faster than linearly.
    king_attackers: [Score; 8],
    /// Having the move.
    tempo: Score,
}

const _: () = assert!(core::mem::size_of::<EvalParams>() == EvalParams::LEN * core::mem::size_of::<Score>());

impl EvalParams {
    /// The position of `weight` in the flat order of [`EvalParams::for_each_field`];
    /// `weight` must be a reference into `self`.
    pub fn index_of(&self, weight: &Score) -> usize {
        let base = self as *const EvalParams as usize;
        let offset = (weight as *const Score as usize).wrapping_sub(base);
        let index = offset / core::mem::size_of::<Score>();
        assert!(index < Self::LEN, "weight is not a field of these parameters");
        index
    }

    /// All scores, flat, in declaration order.
    pub fn to_flat(&self) -> Vec<Score> {
        let mut flat = Vec::with_capacity(Self::LEN);
        self.for_each_field(|_, field| flat.extend_from_slice(field.scores()));
        flat
    }

    /// The parameters holding `flat` (as made by [`EvalParams::to_flat`]).
    pub fn from_flat(flat: &[Score]) -> EvalParams {
        assert_eq!(flat.len(), Self::LEN, "wrong number of scores");
        let mut params = EvalParams::DEFAULT;
        let mut rest = flat;
        params.for_each_field_mut(|_, field| {
            let scores = field.scores_mut();
            let (head, tail) = rest.split_at(scores.len());
            scores.copy_from_slice(head);
            rest = tail;
        });
        params
    }

    /// The file `crate/eval/default_params.rs` that makes these parameters the default;
    /// `provenance` becomes its opening doc comment (one line per `\n`).
    pub fn to_rust_source(&self, provenance: &str) -> String {
        let mut out = String::new();
        for line in provenance.lines() {
            let _ = writeln!(out, "//!{}{line}", if line.is_empty() { "" } else { " " });
        }
        out.push_str("//!\n//! Written by `EvalParams::to_rust_source`: regenerate rather than edit by hand.\n");
        out.push_str("use super::params::{s, EvalParams};\n\n");
        out.push_str("impl EvalParams {\n");
        out.push_str("    /// The weights [`evaluate`](super::evaluate) uses.\n");
        out.push_str("    #[rustfmt::skip]\n");
        out.push_str("    pub const DEFAULT: EvalParams = EvalParams {\n");
        let indent = "        ";
        self.for_each_field(|name, field| {
            let _ = write!(out, "{indent}{name}: ");
            field.write_rust(indent, &mut out);
            out.push_str(",\n");
        });
        out.push_str("    };\n}\n");
        out
    }
}
