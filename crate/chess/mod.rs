//! The game on top of cozy-chess: FEN with precise errors, UCI and SAN move text,
//! game history for repetitions, and the draw rules.

mod epd;
mod fen;
mod game;
mod notation;
mod perft;
mod rules;

pub use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};
pub use epd::{parse_epd, parse_epd_file, Epd};
pub use fen::{parse_fen, FenError, START_FEN};
pub use game::{Game, MoveError, Outcome};
pub use perft::perft;
pub use notation::{format_san, format_uci, parse_san, parse_uci, to_standard_castling};
pub use rules::{en_passant_victim, gives_check, has_insufficient_material, legal_moves};
#[cfg(test)]
pub(crate) use rules::random_position;
