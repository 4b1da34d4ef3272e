//! The network file: little-endian, versioned, nothing after the last field.
//!
//! | field | type |
//! |---|---|
//! | magic `MMNN` | 4 bytes |
//! | version (1) | u32 |
//! | inputs (768), hidden (`HIDDEN`), QA, QB, SCALE | 5 × u32 |
//! | feature weights, input by input | inputs × hidden × i16 |
//! | feature bias | hidden × i16 |
//! | output weights, the mover's half then the other's, each within ±4,096 | 2 × hidden × i16 |
//! | output bias (scaled by QA · QB) | i32 |
use super::features::INPUTS as ROWS;
use super::network::Row;
use super::{Network, HIDDEN, OUTPUT_WEIGHT_LIMIT, QA, QB, SCALE};

const MAGIC: &[u8; 4] = b"MMNN";
/// The format this build reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 4 + 6 * 4;
/// Size in bytes of a network file of this build's shape.
pub const SIZE: usize = HEADER + (ROWS * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;

/// The file's bytes for `network`.
pub fn encode(network: &Network) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(SIZE);
    bytes.extend_from_slice(MAGIC);
    for field in [VERSION, ROWS as u32, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    let rows = network.feature_weights.iter().map(|row| &row.0).chain([&network.feature_bias]).chain(network.output_weights.iter().map(|row| &row.0));
    for value in rows.flatten() {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&network.output_bias.to_le_bytes());
    bytes
}

/// The network in `bytes`, or why they are not a network this build can use.
pub fn decode(bytes: &[u8]) -> Result<Network, String> {
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err("not a meshmate network file (no MMNN header)".into());
    }
    let field = |i: usize| u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().unwrap());
    if field(0) != VERSION {
        return Err(format!("network file version {} (this build reads version {VERSION})", field(0)));
    }
    let shape = [field(1), field(2), field(3), field(4), field(5)];
    let expected = [ROWS as u32, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32];
    if shape != expected {
        return Err(format!("network shape (inputs, hidden, QA, QB, scale) {shape:?}, this build expects {expected:?}"));
    }
    if bytes.len() != SIZE {
        return Err(format!("network file of {} bytes, expected {SIZE}", bytes.len()));
    }
    let mut values = bytes[HEADER..SIZE - 4].chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
    let mut row = || {
        let mut row = [0i16; HIDDEN];
        row.iter_mut().for_each(|w| *w = values.next().unwrap());
        row
    };
    let feature_weights = (0..ROWS).map(|_| Row(row())).collect();
    let feature_bias = row();
    let output_weights = [Row(row()), Row(row())];
    if let Some(w) = output_weights.iter().flat_map(|row| &row.0).find(|w| w.unsigned_abs() > OUTPUT_WEIGHT_LIMIT as u16) {
        return Err(format!("output weight {w} is beyond ±{OUTPUT_WEIGHT_LIMIT} (a trained weight of ±2 or more)"));
    }
    let output_bias = i32::from_le_bytes(bytes[SIZE - 4..].try_into().unwrap());
    Ok(Network { feature_weights, feature_bias, output_weights, output_bias })
}
