//! Legal move listing and the draw rules that a board alone can decide.

use cozy_chess::{get_bishop_moves, get_bishop_rays, get_knight_moves, get_pawn_attacks, get_rook_moves, get_rook_rays, BitBoard, Board, File, Move, Piece, Square};

/// Every legal move of `board` (castling in cozy-chess's king-takes-rook form).
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
}

/// Whether legal move `mv` checks the opponent, decided without making it (the search
/// prunes most moves it looks at, and making one costs more than this test).
///
/// Before the move the opponent is not in check, so a knight, pawn or king can only check
/// from where the moving piece lands; sliders can also check through the squares the
/// move empties (a discovered check, also by en passant or castling).
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let king = board.king(!us);
    let Some(moving) = board.piece_on(mv.from) else { return false };
    let ours = board.colors(us);
    let mut rooks = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & ours;
    let mut bishops = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & ours;
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    if ours.has(mv.to) {
        // Castling, in cozy-chess's king-takes-rook form: only the rook can check.
        let (king_file, rook_file) = if mv.to.file() > mv.from.file() { (File::G, File::F) } else { (File::C, File::D) };
        let rank = mv.from.rank();
        let rook_to = Square::new(rook_file, rank);
        occupied = (occupied ^ mv.to.bitboard()) | Square::new(king_file, rank).bitboard() | rook_to.bitboard();
        rooks = (rooks ^ mv.to.bitboard()) | rook_to.bitboard();
        return slider_reaches(king, occupied, rooks, bishops);
    }
    occupied |= mv.to.bitboard();
    let lands = mv.promotion.unwrap_or(moving);
    match lands {
        Piece::Pawn if get_pawn_attacks(mv.to, us).has(king) => return true,
        Piece::Knight if get_knight_moves(mv.to).has(king) => return true,
        _ => {}
    }
    let en_passant = en_passant_victim(board, mv);
    // A slider checks only along a line from the king: the moved one from where it lands,
    // any other through the square the move empties. Most moves touch no such line.
    let lines = get_rook_rays(king) | get_bishop_rays(king);
    let slides = matches!(lands, Piece::Bishop | Piece::Rook | Piece::Queen);
    if en_passant.is_none() && !lines.has(mv.from) && !(slides && lines.has(mv.to)) {
        return false;
    }
    if let Some(victim) = en_passant {
        occupied ^= victim.bitboard();
    }
    rooks &= !mv.from.bitboard();
    bishops &= !mv.from.bitboard();
    if matches!(lands, Piece::Rook | Piece::Queen) {
        rooks |= mv.to.bitboard();
    }
    if matches!(lands, Piece::Bishop | Piece::Queen) {
        bishops |= mv.to.bitboard();
    }
    slider_reaches(king, occupied, rooks, bishops)
}

/// Whether one of `rooks` (rook movers) or `bishops` (bishop movers) reaches `square`
/// over `occupied`.
#[inline(always)]
fn slider_reaches(square: Square, occupied: BitBoard, rooks: BitBoard, bishops: BitBoard) -> bool {
    !(get_rook_moves(square, occupied) & rooks).is_empty() || !(get_bishop_moves(square, occupied) & bishops).is_empty()
}

/// The square of the pawn that `mv` takes en passant, when it is such a capture: a pawn
/// moving diagonally to an empty square.
#[inline(always)]
pub fn en_passant_victim(board: &Board, mv: Move) -> Option<Square> {
    let diagonal = mv.from.file() != mv.to.file() && board.pieces(Piece::Pawn).has(mv.from);
    (diagonal && !board.occupied().has(mv.to)).then(|| Square::new(mv.to.file(), mv.from.rank()))
}

/// The position after up to `max_plies` random legal moves from the start (fewer when
/// the game ends first): positions of every phase, for tests.
#[cfg(test)]
pub(crate) fn random_position(random: &mut crate::random::Random, max_plies: u64) -> Board {
    let mut board = Board::default();
    for _ in 0..random.next_u64() % (max_plies + 1) {
        let moves = legal_moves(&board);
        if moves.is_empty() {
            break;
        }
        board.play_unchecked(moves[(random.next_u64() % moves.len() as u64) as usize]);
    }
    board
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

