//! Training positions as compact binary records: what `meshmate datagen` writes and
//! `meshmate train-nnue` reads besides `FEN;result;score` text. A record is
//! [`RECORD_BYTES`] bytes, little-endian, a tenth of a FEN line, so tens of millions of
//! positions fit in memory as records:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | the occupied squares (bit i: square i, a1 = 0, h8 = 63) |
//! | 8..24 | a nibble per occupied square, in square order (low nibble first): bit 3 black, bits 0-2 the piece (pawn 0 … king 5) |
//! | 24 | the side to move (0 White, 1 Black) |
//! | 25..27 | the search's score, White's view, centipawns (i16) |
//! | 27 | the game's result: 0 Black won, 1 draw, 2 White won |
//!
//! The network sees neither castling rights, the en-passant square nor the clocks, so a
//! record keeps none of them. A file is records back to back; a run cut off in the middle
//! of a write leaves a partial record at the end, which readers skip.

use super::train::position_target;
use cozy_chess::{Board, BoardBuilder, Color, Piece, Square};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 28;

/// A game's result, as a record keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 0-1.
    BlackWon = 0,
    /// ½-½.
    Draw = 1,
    /// 1-0.
    WhiteWon = 2,
}

impl GameResult {
    /// White's share of the points (the trainer's result target).
    pub fn white_points(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// `board` (at most 32 pieces), its score `white_score` and its game's `result` as a record.
pub fn encode(board: &Board, white_score: i16, result: GameResult) -> [u8; RECORD_BYTES] {
    let mut record = [0u8; RECORD_BYTES];
    let occupied = board.occupied();
    record[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (i, square) in occupied.into_iter().take(32).enumerate() {
        let piece = board.piece_on(square).map_or(0, |p| p as u8);
        let black = u8::from(board.colors(Color::Black).has(square)) << 3;
        record[8 + i / 2] |= (piece | black) << (4 * (i % 2));
    }
    record[24] = u8::from(board.side_to_move() == Color::Black);
    record[25..27].copy_from_slice(&white_score.to_le_bytes());
    record[27] = result as u8;
    record
}

/// A record's position, White's score and the game's result; an error for bytes no
/// [`encode`] writes (an illegal position, a piece code or a result out of range).
pub fn decode(record: &[u8; RECORD_BYTES]) -> Result<(Board, i16, GameResult), String> {
    let occupied = u64::from_le_bytes(record[0..8].try_into().expect("eight bytes"));
    if occupied.count_ones() > 32 {
        return Err(format!("{} occupied squares", occupied.count_ones()));
    }
    let mut builder = BoardBuilder::empty();
    let mut bits = occupied;
    let mut i = 0;
    while bits != 0 {
        let square = Square::index(bits.trailing_zeros() as usize);
        bits &= bits - 1;
        let code = (record[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        let piece = *Piece::ALL.get((code & 7) as usize).ok_or_else(|| format!("piece code {code} on {square}"))?;
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        *builder.square_mut(square) = Some((piece, color));
        i += 1;
    }
    builder.side_to_move = match record[24] {
        0 => Color::White,
        1 => Color::Black,
        other => return Err(format!("side to move {other}")),
    };
    let board = builder.build().map_err(|e| format!("not a legal position ({e:?})"))?;
    let score = i16::from_le_bytes([record[25], record[26]]);
    let result = match record[27] {
        0 => GameResult::BlackWon,
        1 => GameResult::Draw,
        2 => GameResult::WhiteWon,
        other => return Err(format!("result {other}")),
    };
    Ok((board, score, result))
}

/// How many whole records `bytes` holds.
pub fn count_records(bytes: &[u8]) -> usize {
    bytes.len() / RECORD_BYTES
}

/// Reads the records of a file's bytes as positions and their targets, handing each to
/// `each` (the targets as [`super::train::read_positions`] makes them); a partial record
/// at the end is skipped.
pub fn read_records(bytes: &[u8], lambda: f32, mut each: impl FnMut(Board, f32)) -> Result<(), String> {
    for (number, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
        let (board, score, result) = decode(chunk.try_into().expect("whole records")).map_err(|why| format!("record {}: {why}", number + 1))?;
        let (board, target) = position_target(board, result.white_points(), score as f32, lambda);
        each(board, target);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions a game reaches, with a black piece on a8 and h8's corners, promotions and
    /// en passant around: every square code and both sides to move.
    const POSITIONS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
        "8/2P5/8/8/3k4/8/5p2/4K3 w - - 0 60",
        "7k/8/8/3pP3/8/8/8/K7 w - d6 0 2",
    ];

    #[test]
    fn a_record_reads_back_as_the_position_score_and_result_written() {
        for (fen, result) in POSITIONS.iter().zip([GameResult::WhiteWon, GameResult::Draw, GameResult::BlackWon, GameResult::Draw]) {
            let board: Board = fen.parse().unwrap();
            let (back, score, read) = decode(&encode(&board, -1234, result)).unwrap();
            assert_eq!(back.occupied(), board.occupied(), "{fen}");
            for square in board.occupied() {
                assert_eq!((back.piece_on(square), back.color_on(square)), (board.piece_on(square), board.color_on(square)), "{fen} {square}");
            }
            assert_eq!(back.side_to_move(), board.side_to_move());
            assert_eq!((score, read), (-1234, result));
        }
    }

    #[test]
    fn a_partial_record_at_the_end_is_skipped_and_a_bad_one_is_an_error() {
        let board: Board = POSITIONS[1].parse().unwrap();
        let mut bytes = encode(&board, 35, GameResult::WhiteWon).to_vec();
        bytes.extend_from_slice(&encode(&board, 35, GameResult::WhiteWon)[..10]);
        let mut targets = Vec::new();
        read_records(&bytes, 0.0, |_, target| targets.push(target)).unwrap();
        assert_eq!((count_records(&bytes), targets.len()), (1, 1));
        // Black to move in a game White won: the target is the mover's, a loss.
        assert_eq!(targets[0], 0.0);
        let mut bad = encode(&board, 35, GameResult::Draw);
        bad[27] = 3;
        assert!(read_records(&bad, 0.5, |_, _| {}).unwrap_err().contains("record 1: result 3"));
    }
}
