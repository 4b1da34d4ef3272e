//! Files the commands read and write: EPD suites, and the rows they measure.

use meshmate::chess::{parse_epd_file, Board, Epd};
use std::path::Path;

/// The text of `path`, or an error that names it.
fn read_file(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

/// Writes `text` to `path`, or gives an error that names it.
pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// The records of an EPD suite; a file without any is an error, not an empty run.
pub fn read_suite(path: &Path) -> Result<Vec<Epd>, String> {
    let records = parse_epd_file(&read_file(path)?)?;
    if records.is_empty() {
        return Err(format!("'{}' holds no EPD positions", path.display()));
    }
    Ok(records)
}

/// The positions of an EPD suite.
pub fn suite_boards(path: &Path) -> Result<Vec<Board>, String> {
    Ok(read_suite(path)?.into_iter().map(|e| e.board).collect())
}
