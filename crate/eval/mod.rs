//! Static evaluation: pure functions of a position.
//!
//! A tapered evaluation: every term is a [`Score`] pair (middlegame, endgame), summed for
//! White minus Black, then blended by the game phase (how much non-pawn material is
//! left). All weights live in one [`EvalParams`] so that [`tune`] can fit them to game
//! results; [`evaluate`] uses the compiled-in [`EvalParams::DEFAULT`].
//!
//! The terms are written once, generic over a [`Terms`] sink: the search sums them
//! ([`evaluate`]), the tuner records which weights a position uses and how often.
//!
//! Beside it, [`nnue`]: a small network whose first layer is updated move by move; the
//! search picks one of the two by [`Evaluation`].
use cozy_chess::{Board, Color, Piece};

mod default_params;
mod king;
mod material;
pub mod nnue;
mod params;
mod pawns;
mod pieces;
pub mod tune;

pub use params::{s, EvalParams, Score, Weights};

/// Largest magnitude [`evaluate`] returns, below any mate score.
pub const MAX_EVAL: i32 = 9_999;

/// Phase of the starting position: knights and bishops count 1, rooks 2, queens 4.
pub const PHASE_MAX: i32 = 24;

/// Which evaluation the search uses. The engine plays with the network (the UCI option
/// `Eval` defaults to it); the search's own default is the hand-written one, which the
/// measurements of the parallel search keep (the simulator, the papers' reproductions, the
/// Lab, `speedup`), so their figures do not move with the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-written, Texel-tuned terms of this module.
    #[default]
    Classic,
    /// The shipped network ([`nnue`]), with an accumulator carried along the search path.
    Nnue,
}

impl Evaluation {
    /// Both, in the order the UCI option lists them.
    pub const ALL: [Evaluation; 2] = [Evaluation::Classic, Evaluation::Nnue];

    /// The name the UCI option and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Nnue => "nnue",
        }
    }

    /// The evaluation called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Evaluation> {
        Evaluation::ALL.into_iter().find(|e| e.name().eq_ignore_ascii_case(name))
    }
}

/// The value of `board` from the side to move's view: the network's from `accumulator`
/// (the sums of `board`) when there is one, the hand-written evaluation's otherwise.
#[inline]
pub fn evaluate_by(board: &Board, accumulator: Option<&nnue::Accumulator>) -> i32 {
    match accumulator {
        Some(sums) => nnue::evaluate(board, sums),
        None => evaluate(board),
    }
}

/// Evaluates `board` in centipawns from the side to move's point of view, with the
/// default weights. Allocation-free; |value| <= [`MAX_EVAL`].
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &EvalParams::DEFAULT)
}

/// [`evaluate`] with the given weights (for tuning and experiments).
#[inline(always)]
pub fn evaluate_with(board: &Board, params: &EvalParams) -> i32 {
    let mut sum = ScoreSum::default();
    add_terms(board, params, &mut sum);
    let white = taper(sum.0, phase(board));
    let relative = if board.side_to_move() == Color::White { white } else { -white };
    relative.clamp(-MAX_EVAL, MAX_EVAL)
}

/// Game phase from non-pawn material: [`PHASE_MAX`] with all pieces, 0 with none
/// (capped, so extra queens from promotion do not overshoot).
pub fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() as i32;
    let rooks = board.pieces(Piece::Rook).len() as i32;
    let queens = board.pieces(Piece::Queen).len() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// Blends a score by phase. Rounds toward zero, so `taper(-x) == -taper(x)` and the
/// evaluation stays colour-symmetric.
pub fn taper(score: Score, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Where evaluation terms go. Each call says: `color` gets `weight` `count` times
/// (`weight` is a reference into the parameters being evaluated).
pub(crate) trait Terms {
    fn add(&mut self, weight: &Score, color: Color, count: i32);
}

/// The search's sink: White's total minus Black's.
#[derive(Default)]
struct ScoreSum(Score);

impl Terms for ScoreSum {
    #[inline(always)]
    fn add(&mut self, weight: &Score, color: Color, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        self.0 += *weight * signed;
    }
}

/// Feeds every term of `board` to `terms`.
#[inline(always)]
pub(crate) fn add_terms<T: Terms>(board: &Board, params: &EvalParams, terms: &mut T) {
    terms.add(&params.tempo, board.side_to_move(), 1);
    for color in Color::ALL {
        let mut attack_on_enemy_king = king::KingAttack::new(board, !color);
        material::add_terms(board, color, params, terms);
        pawns::add_terms(board, color, params, terms);
        pieces::add_terms(board, color, params, terms, &mut attack_on_enemy_king);
        attack_on_enemy_king.finish(color, params, terms);
        king::add_shelter_terms(board, color, params, terms);
    }
}
