//! Bytes for machines whose processors share no memory (a cluster's processes): a
//! writer and a reader of the few things messages are made of, little-endian. What each
//! message is made of is its payload's business (`Payload::encode`); bad bytes give a
//! [`WireError`], never a panic.

use cozy_chess::{Board, Move, Piece, Square};

/// Bytes that do not decode to what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub String);

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad message bytes: {}", self.0)
    }
}

impl std::error::Error for WireError {}

/// Appends values to a byte buffer.
pub struct Writer<'a>(pub &'a mut Vec<u8>);

impl Writer<'_> {
    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    /// A flag.
    pub fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }

    /// Two bytes.
    pub fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// Four bytes.
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A signed number in four bytes.
    pub fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// Eight bytes.
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A count or index (as eight bytes, so no platform truncates it).
    pub fn usize(&mut self, v: usize) {
        self.u64(v as u64);
    }

    /// A length-prefixed list of hashes.
    pub fn u64s(&mut self, values: &[u64]) {
        self.usize(values.len());
        values.iter().for_each(|&v| self.u64(v));
    }

    /// A length-prefixed UTF-8 string.
    pub fn str(&mut self, s: &str) {
        self.usize(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    /// A move as two bytes: from, to (6 bits each) and the promotion piece (4 bits, 0 for none).
    pub fn mv(&mut self, mv: Move) {
        let promotion = mv.promotion.map_or(0, |p| p as u16 + 1);
        self.u16(mv.from as u16 | (mv.to as u16) << 6 | promotion << 12);
    }

    /// A move or none (0xFFFF, which no move encodes to: its promotion would be 15).
    pub fn option_mv(&mut self, mv: Option<Move>) {
        match mv {
            Some(mv) => self.mv(mv),
            None => self.u16(u16::MAX),
        }
    }

    /// A length-prefixed list of moves.
    pub fn mvs(&mut self, moves: &[Move]) {
        self.usize(moves.len());
        moves.iter().for_each(|&mv| self.mv(mv));
    }

    /// A position, as its FEN (castling rights, en passant and both clocks included).
    pub fn board(&mut self, board: &Board) {
        self.str(&board.to_string());
    }
}

/// Reads values back in the order a [`Writer`] wrote them.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// Fails unless every byte was read (a message with bytes to spare is not the one
    /// its reader expects).
    pub fn finish(self) -> Result<(), WireError> {
        match self.bytes.len() {
            0 => Ok(()),
            n => Err(WireError(format!("{n} bytes left over"))),
        }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let Some((head, rest)) = self.bytes.split_first_chunk::<N>() else {
            return Err(WireError(format!("ends {} bytes early", N - self.bytes.len())));
        };
        self.bytes = rest;
        Ok(*head)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take::<1>()?[0])
    }

    /// A flag.
    pub fn bool(&mut self) -> Result<bool, WireError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(WireError(format!("flag {b}"))),
        }
    }

    /// Two bytes.
    pub fn u16(&mut self) -> Result<u16, WireError> {
        self.take().map(u16::from_le_bytes)
    }

    /// Four bytes.
    pub fn u32(&mut self) -> Result<u32, WireError> {
        self.take().map(u32::from_le_bytes)
    }

    /// A signed number in four bytes.
    pub fn i32(&mut self) -> Result<i32, WireError> {
        self.take().map(i32::from_le_bytes)
    }

    /// Eight bytes.
    pub fn u64(&mut self) -> Result<u64, WireError> {
        self.take().map(u64::from_le_bytes)
    }

    /// A count or index.
    pub fn usize(&mut self) -> Result<usize, WireError> {
        usize::try_from(self.u64()?).map_err(|_| WireError("count too large".into()))
    }

    /// A length that the bytes left can hold, `unit` bytes per element (a corrupt length
    /// must not make the reader allocate gigabytes).
    fn length(&mut self, unit: usize) -> Result<usize, WireError> {
        let n = self.usize()?;
        if n.saturating_mul(unit) > self.bytes.len() {
            return Err(WireError(format!("length {n} past the end")));
        }
        Ok(n)
    }

    /// A length-prefixed list of hashes.
    pub fn u64s(&mut self) -> Result<Vec<u64>, WireError> {
        let n = self.length(8)?;
        (0..n).map(|_| self.u64()).collect()
    }

    /// A length-prefixed UTF-8 string.
    pub fn str(&mut self) -> Result<String, WireError> {
        let n = self.length(1)?;
        let (text, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        String::from_utf8(text.to_vec()).map_err(|_| WireError("text is not UTF-8".into()))
    }

    /// A move.
    pub fn mv(&mut self) -> Result<Move, WireError> {
        self.option_mv()?.ok_or_else(|| WireError("a move is missing".into()))
    }

    /// A move or none.
    pub fn option_mv(&mut self) -> Result<Option<Move>, WireError> {
        let v = self.u16()?;
        if v == u16::MAX {
            return Ok(None);
        }
        let square = |index: u16| Square::index(index as usize & 63);
        let promotion = match v >> 12 {
            0 => None,
            p => Some(*Piece::ALL.get(p as usize - 1).ok_or_else(|| WireError(format!("promotion piece {p}")))?),
        };
        Ok(Some(Move { from: square(v), to: square(v >> 6), promotion }))
    }

    /// A length-prefixed list of moves.
    pub fn mvs(&mut self) -> Result<Vec<Move>, WireError> {
        let n = self.length(2)?;
        (0..n).map(|_| self.mv()).collect()
    }

    /// A position.
    pub fn board(&mut self) -> Result<Board, WireError> {
        let fen = self.str()?;
        crate::chess::parse_fen(&fen).map_err(|e| WireError(format!("position '{fen}': {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of value comes back as written, and the reader ends exactly at the end.
    #[test]
    fn values_come_back_as_written() {
        let board = crate::chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17").unwrap();
        let moves: Vec<Move> = ["e2a6", "a7a8q", "b4b3", "g7h8n", "a1b1"].iter().map(|m| m.parse().unwrap()).collect();
        let mut bytes = Vec::new();
        let mut w = Writer(&mut bytes);
        w.u8(7);
        w.bool(true);
        w.i32(-31_000);
        w.u64(u64::MAX - 5);
        w.u64s(&[1, 2, 3]);
        w.mvs(&moves);
        w.option_mv(None);
        w.board(&board);
        let mut r = Reader::new(&bytes);
        assert_eq!(r.u8(), Ok(7));
        assert_eq!(r.bool(), Ok(true));
        assert_eq!(r.i32(), Ok(-31_000));
        assert_eq!(r.u64(), Ok(u64::MAX - 5));
        assert_eq!(r.u64s(), Ok(vec![1, 2, 3]));
        assert_eq!(r.mvs(), Ok(moves));
        assert_eq!(r.option_mv(), Ok(None));
        let back = r.board().unwrap();
        assert_eq!(back.hash(), board.hash());
        assert_eq!(back.halfmove_clock(), 3);
        assert_eq!(r.finish(), Ok(()));
    }

    /// Cut, padded or corrupt bytes are errors, not panics or huge allocations.
    #[test]
    fn bad_bytes_are_errors() {
        let mut bytes = Vec::new();
        Writer(&mut bytes).u64s(&[5, 6]);
        assert!(Reader::new(&bytes[..bytes.len() - 1]).u64s().is_err());
        let mut padded = bytes.clone();
        padded.push(0);
        let mut r = Reader::new(&padded);
        r.u64s().unwrap();
        assert!(r.finish().is_err());
        assert!(Reader::new(&u64::MAX.to_le_bytes()).u64s().is_err());
        assert!(Reader::new(&[2]).bool().is_err());
        assert!(Reader::new(&0xF000u16.to_le_bytes()).mv().is_err());
        let mut fen = Vec::new();
        Writer(&mut fen).str("not a position");
        assert!(Reader::new(&fen).board().is_err());
    }
}
