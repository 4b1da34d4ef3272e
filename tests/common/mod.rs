//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// A file of the project's reference data (`../shared/data` beside the repository).
pub fn shared_data(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "shared", "data", name].iter().collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A fresh directory `meshmate-{dir}-{process}` in the system's temporary directory
/// holding `file`, the first `positions` Bratko-Kopec records: a suite for the command
/// line. Returns the directory (the test removes it) and the file.
pub fn bratko_kopec_file(dir: &str, file: &str, positions: usize) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("meshmate-{dir}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join(file);
    let records: Vec<String> = shared_data("bratko-kopec.epd").lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).take(positions).map(String::from).collect();
    std::fs::write(&suite, records.join("\n")).unwrap();
    (dir, suite)
}

pub mod host;
pub mod uci;
