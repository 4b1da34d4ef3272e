//! A game: a start position and the moves played since, which is what repetition
//! detection needs (a position repeated across `position ... moves ...` counts).

use super::fen::{parse_fen, FenError, START_FEN};
use super::notation::parse_uci;
use super::rules::has_insufficient_material;
use cozy_chess::{Board, GameStatus, Move};
use std::fmt;

/// A move in a `position ... moves ...` list that could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// Index of the offending move in the list (0-based).
    pub index: usize,
    /// The move text as given.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ('{}'): {}", self.index + 1, self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

/// A game in progress: the current board plus the hash of every earlier position.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Zobrist hashes of the positions before each move played, oldest first.
    history: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::from_board(parse_fen(START_FEN).expect("the start position is valid"))
    }
}

impl Game {
    /// A game starting from `board` with no history.
    pub fn from_board(board: Board) -> Game {
        Game { board, history: Vec::new() }
    }

    /// A game starting from a FEN.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        parse_fen(fen).map(Game::from_board)
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.board.hash());
        self.board.play(mv);
    }

    /// Plays moves given in UCI notation; on the first bad one nothing is changed.
    pub fn play_uci_moves<'a>(&mut self, moves: impl IntoIterator<Item = &'a str>) -> Result<(), MoveError> {
        let mut next = self.clone();
        for (index, text) in moves.into_iter().enumerate() {
            let mv = parse_uci(&next.board, text)
                .map_err(|reason| MoveError { index, text: text.to_string(), reason })?;
            next.play(mv);
        }
        *self = next;
        Ok(())
    }

    /// How often the current position occurred before (within the 50-move window).
    pub fn repetitions(&self) -> usize {
        let hash = self.board.hash();
        let window = self.board.halfmove_clock() as usize;
        self.history.iter().rev().take(window).skip(1).step_by(2).filter(|&&h| h == hash).count()
    }

    /// Whether the game is over by the rules, and why.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.board.status() {
            GameStatus::Won => return Some(Outcome::Checkmate),
            GameStatus::Drawn if self.board.halfmove_clock() < 100 => return Some(Outcome::Stalemate),
            GameStatus::Drawn => return Some(Outcome::FiftyMoves),
            GameStatus::Ongoing => {}
        }
        if self.repetitions() >= 2 {
            Some(Outcome::Repetition)
        } else if has_insufficient_material(&self.board) {
            Some(Outcome::InsufficientMaterial)
        } else {
            None
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A hundred half-moves without capture or pawn move.
    FiftyMoves,
    /// The position occurred for the third time.
    Repetition,
    /// Neither side can mate.
    InsufficientMaterial,
}
