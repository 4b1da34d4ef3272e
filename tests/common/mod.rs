//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// A file of the project's reference data (`../shared/data` beside the repository).
pub fn shared_data(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "shared", "data", name].iter().collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
