//! EPD records: a position (4 FEN fields) followed by `opcode operand...;` pairs, as
//! used by test suites (`bm`, `am`, `id`) and perft files (`D1`..`D6`).

use super::fen::{parse_fen, FenError};
use cozy_chess::Board;

/// One EPD record.
#[derive(Clone, Debug)]
pub struct Epd {
    /// The position (clocks from `hmvc`/`fmvn` when present).
    pub board: Board,
    /// Opcodes with their operand text, in file order.
    pub ops: Vec<(String, String)>,
}

impl Epd {
    /// The operand of `opcode`, if present (quotes removed).
    pub fn get(&self, opcode: &str) -> Option<&str> {
        self.ops.iter().find(|(k, _)| k == opcode).map(|(_, v)| v.as_str())
    }
}

/// Parses one EPD line.
pub fn parse_epd(line: &str) -> Result<Epd, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("EPD record needs 4 position fields: '{line}'"));
    }
    let rest_start = fields[..4].iter().map(|f| f.len() + 1).sum::<usize>();
    let rest = line.trim_start().get(rest_start..).unwrap_or("");
    let mut ops = Vec::new();
    for op in rest.split(';') {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (key, value) = op.split_once(' ').unwrap_or((op, ""));
        ops.push((key.to_string(), value.trim().trim_matches('"').to_string()));
    }
    let get = |k: &str| ops.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let fen = format!(
        "{} {} {} {} {} {}",
        fields[0],
        fields[1],
        fields[2],
        fields[3],
        get("hmvc").unwrap_or_else(|| "0".into()),
        get("fmvn").unwrap_or_else(|| "1".into())
    );
    let board = parse_fen(&fen).map_err(|e: FenError| format!("bad EPD position: {e}"))?;
    Ok(Epd { board, ops })
}

/// Parses a whole EPD file, skipping blank lines and `#` comments; errors name the line.
pub fn parse_epd_file(text: &str) -> Result<Vec<Epd>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_epd(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
