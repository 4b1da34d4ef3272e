//! FEN parsing with one error per kind of mistake. cozy-chess reports most board
//! problems as a single "invalid board"; a user pasting a FEN deserves to know which.

use cozy_chess::{Board, Color, Piece};
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 space-separated fields (the clocks may be omitted, as in EPD).
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    /// A character that is neither a piece letter nor a digit 1-8.
    BadPieceLetter(char),
    /// A rank describes more or fewer than 8 squares.
    RankLength {
        /// Rank number as written on a board (8 first).
        rank: usize,
        /// Squares the rank described.
        squares: usize,
    },
    /// A side has no king or more than one.
    KingCount {
        /// The side with the wrong number of kings.
        color: Color,
        /// How many kings it has.
        count: usize,
    },
    /// Pawns on the first or last rank.
    PawnOnBackRank,
    /// More than 16 pieces or 8 pawns for one side.
    TooManyPieces(Color),
    /// The side to move is not `w` or `b`.
    BadSideToMove(String),
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// The side to move is in check from three or more pieces, or from an impossible pair.
    ImpossibleCheck,
    /// The castling field is malformed or names a right whose king or rook is not home.
    BadCastling(String),
    /// The en passant field is malformed or no pawn could just have made a double step.
    BadEnPassant(String),
    /// The halfmove clock is not a number from 0 to 150.
    BadHalfmoveClock(String),
    /// The fullmove number is not a positive number.
    BadFullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields, expected 6 (or 4 without clocks)"),
            FenError::RankCount(n) => write!(f, "FEN placement has {n} ranks, expected 8"),
            FenError::BadPieceLetter(c) => write!(f, "FEN placement has bad piece letter '{c}'"),
            FenError::RankLength { rank, squares } => {
                write!(f, "FEN rank {rank} describes {squares} squares, expected 8")
            }
            FenError::KingCount { color, count } => write!(f, "{} has {count} kings, expected 1", side_name(*color)),
            FenError::PawnOnBackRank => write!(f, "FEN has a pawn on the first or eighth rank"),
            FenError::TooManyPieces(c) => write!(f, "{} has more than 16 pieces or 8 pawns", side_name(*c)),
            FenError::BadSideToMove(s) => write!(f, "FEN side to move '{s}' is not 'w' or 'b'"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::ImpossibleCheck => write!(f, "the side to move is in an impossible check"),
            FenError::BadCastling(s) => write!(f, "FEN castling field '{s}' is invalid for this position"),
            FenError::BadEnPassant(s) => write!(f, "FEN en passant field '{s}' is invalid for this position"),
            FenError::BadHalfmoveClock(s) => write!(f, "FEN halfmove clock '{s}' is invalid"),
            FenError::BadFullmoveNumber(s) => write!(f, "FEN fullmove number '{s}' is invalid"),
        }
    }
}

impl std::error::Error for FenError {}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Parses a FEN (6 fields, or 4 with the clocks defaulting to `0 1`).
pub fn parse_fen(fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (halfmove, fullmove) = match fields.len() {
        4 => ("0", "1"),
        6 => (fields[4], fields[5]),
        n => return Err(FenError::FieldCount(n)),
    };
    let counts = check_placement(fields[0])?;
    for color in Color::ALL {
        let kings = counts[color as usize][Piece::King as usize];
        if kings != 1 {
            return Err(FenError::KingCount { color, count: kings });
        }
        let total: usize = counts[color as usize].iter().sum();
        if total > 16 || counts[color as usize][Piece::Pawn as usize] > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    if fields[0].split('/').next().unwrap_or("").contains(['p', 'P'])
        || fields[0].rsplit('/').next().unwrap_or("").contains(['p', 'P'])
    {
        return Err(FenError::PawnOnBackRank);
    }
    let side = fields[1];
    if side != "w" && side != "b" {
        return Err(FenError::BadSideToMove(side.to_string()));
    }
    match halfmove.parse::<u8>() {
        Ok(n) if n <= 150 => {}
        _ => return Err(FenError::BadHalfmoveClock(halfmove.to_string())),
    }
    match fullmove.parse::<u16>() {
        Ok(n) if n >= 1 => {}
        _ => return Err(FenError::BadFullmoveNumber(fullmove.to_string())),
    }
    // Placement, counts and clocks are known good; what cozy-chess still refuses is
    // about checks, castling rights or the en passant square.
    let placement_only = format!("{} {} - - 0 1", fields[0], side);
    if Board::from_fen(&placement_only, false).is_err() {
        let flipped = format!("{} {} - - 0 1", fields[0], if side == "w" { "b" } else { "w" });
        return Err(match Board::from_fen(&flipped, false) {
            Ok(_) => FenError::OpponentInCheck,
            Err(_) => FenError::ImpossibleCheck,
        });
    }
    let with_castling = format!("{} {} {} - 0 1", fields[0], side, fields[2]);
    if Board::from_fen(&with_castling, false).is_err() {
        return Err(FenError::BadCastling(fields[2].to_string()));
    }
    let full = format!("{} {} {} {} {} {}", fields[0], side, fields[2], fields[3], halfmove, fullmove);
    Board::from_fen(&full, false).map_err(|_| FenError::BadEnPassant(fields[3].to_string()))
}

/// Checks the placement field's shape and returns piece counts per colour and kind.
fn check_placement(placement: &str) -> Result<[[usize; 6]; 2], FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut counts = [[0usize; 6]; 2];
    for (i, rank) in ranks.iter().enumerate() {
        let mut squares = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                squares += d as usize;
                continue;
            }
            let piece = match c.to_ascii_lowercase() {
                'p' => Piece::Pawn,
                'n' => Piece::Knight,
                'b' => Piece::Bishop,
                'r' => Piece::Rook,
                'q' => Piece::Queen,
                'k' => Piece::King,
                _ => return Err(FenError::BadPieceLetter(c)),
            };
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            counts[color as usize][piece as usize] += 1;
            squares += 1;
        }
        if squares != 8 {
            return Err(FenError::RankLength { rank: 8 - i, squares });
        }
    }
    Ok(counts)
}
