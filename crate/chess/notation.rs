//! Move text: UCI long algebraic (`e2e4`, `e7e8q`, castling as `e1g1`) and SAN
//! (`Nf3`, `exd5`, `O-O`, `e8=Q+`). cozy-chess writes castling as king-takes-rook;
//! this is the one place that converts.

use super::rules::legal_moves;
use cozy_chess::{Board, File, Move, Piece, Square};

/// Writes `mv` (legal on `board`) in UCI notation, castling as the king's two-square step.
pub fn format_uci(board: &Board, mv: Move) -> String {
    to_standard_castling(board, mv).to_string()
}

/// Parses UCI move text and checks that it is legal on `board`.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, String> {
    let mv: Move = text.parse().map_err(|_| format!("'{text}' is not a move in UCI notation"))?;
    let mv = from_standard_castling(board, mv);
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("'{text}' is not a legal move in this position"))
    }
}

/// Converts a king-takes-rook castling move into the king's two-square step.
pub fn to_standard_castling(board: &Board, mv: Move) -> Move {
    if is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() { File::G } else { File::C };
        Move { from: mv.from, to: Square::new(file, mv.from.rank()), promotion: None }
    } else {
        mv
    }
}

/// Converts a king's two-square step into cozy-chess's king-takes-rook form.
fn from_standard_castling(board: &Board, mv: Move) -> Move {
    let stm = board.side_to_move();
    if mv.from != board.king(stm) || board.piece_on(mv.from) != Some(Piece::King) {
        return mv;
    }
    let rights = board.castle_rights(stm);
    let rook_file = match mv.to.file() {
        File::G if mv.from.file() == File::E => rights.short,
        File::C if mv.from.file() == File::E => rights.long,
        _ => None,
    };
    match rook_file {
        Some(file) if mv.to.rank() == mv.from.rank() => {
            Move { from: mv.from, to: Square::new(file, mv.from.rank()), promotion: None }
        }
        _ => mv,
    }
}

fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.color_on(mv.to) == Some(board.side_to_move())
}

fn piece_letter(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// Writes `mv` (legal on `board`) in Standard Algebraic Notation with check and mate marks.
pub fn format_san(board: &Board, mv: Move) -> String {
    let mut san = String::new();
    let piece = board.piece_on(mv.from).expect("a legal move starts on a piece");
    if is_castling(board, mv) {
        san.push_str(if mv.to.file() > mv.from.file() { "O-O" } else { "O-O-O" });
    } else {
        let capture = board.color_on(mv.to).is_some()
            || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
        if piece == Piece::Pawn {
            if capture {
                san.push_str(&mv.from.file().to_string());
            }
        } else {
            san.push_str(piece_letter(piece));
            san.push_str(&disambiguation(board, mv, piece));
        }
        if capture {
            san.push('x');
        }
        san.push_str(&mv.to.to_string());
        if let Some(promo) = mv.promotion {
            san.push('=');
            san.push_str(piece_letter(promo));
        }
    }
    let mut after = board.clone();
    after.play_unchecked(mv);
    if !after.checkers().is_empty() {
        san.push(if legal_moves(&after).is_empty() { '#' } else { '+' });
    }
    san
}

/// The file, rank or square needed to tell `mv` from other moves of the same kind of piece.
fn disambiguation(board: &Board, mv: Move, piece: Piece) -> String {
    let rivals: Vec<Square> = legal_moves(board)
        .into_iter()
        .filter(|m| m.to == mv.to && m.from != mv.from && board.piece_on(m.from) == Some(piece))
        .map(|m| m.from)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.file() != mv.from.file()) {
        mv.from.file().to_string()
    } else if rivals.iter().all(|s| s.rank() != mv.from.rank()) {
        mv.from.rank().to_string()
    } else {
        mv.from.to_string()
    }
}

/// Parses SAN (tolerating missing or extra `+`/`#`, `!?` annotations and `0-0`) by
/// matching it against the SAN of every legal move.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, String> {
    let wanted = normalise_san(text);
    if wanted.is_empty() {
        return Err("empty move".to_string());
    }
    legal_moves(board)
        .into_iter()
        .find(|&m| normalise_san(&format_san(board, m)) == wanted)
        .ok_or_else(|| format!("'{text}' is not a legal move in this position"))
}

fn normalise_san(text: &str) -> String {
    text.trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .replace('0', "O")
        .replace("e.p.", "")
        .replace('=', "")
}
