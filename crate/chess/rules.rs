//! Legal move listing and the draw rules that a board alone can decide.

use cozy_chess::{BitBoard, Board, Move, Piece};

/// Every legal move of `board` (castling in cozy-chess's king-takes-rook form).
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
}

/// True when neither side can possibly mate: bare kings, a lone minor piece, or
/// bishops all on squares of one colour.
pub fn has_insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    let minors = (knights | bishops).len();
    if minors <= 1 {
        return true;
    }
    if knights.is_empty() {
        let light = BitBoard::LIGHT_SQUARES;
        let all_light = (bishops & !light).is_empty();
        let all_dark = (bishops & light).is_empty();
        return all_light || all_dark;
    }
    false
}

