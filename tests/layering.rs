//! The library's layers point down only: a module may use the modules below it, never one
//! above. `machine` runs processor programs without knowing the algorithms; the drivers
//! that run algorithms on machines live in `stats`, above both.

use std::path::{Path, PathBuf};

/// From the top down; a module may use those after it in this list (and those on its own line).
const LAYERS: [&[&str]; 7] = [&["wasm", "relay"], &["uci"], &["stats"], &["parallel"], &["machine"], &["search"], &["chess", "clock", "eval", "net", "random", "tt"]];

fn layer(module: &str) -> usize {
    LAYERS.iter().position(|names| names.contains(&module)).unwrap_or_else(|| panic!("crate::{module} is in no layer of tests/layering.rs"))
}

/// The Rust files of a top module: `crate/NAME.rs` and everything under `crate/NAME/`.
fn sources(module: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crate");
    let mut files: Vec<PathBuf> = vec![root.join(format!("{module}.rs"))].into_iter().filter(|f| f.exists()).collect();
    let mut dirs = vec![root.join(module)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// The top modules a source names as `crate::NAME`, outside comments.
fn uses(source: &str) -> Vec<String> {
    let code = source.lines().filter(|l| !l.trim_start().starts_with("//"));
    code.flat_map(|line| line.match_indices("crate::").map(move |(i, _)| line[i + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect::<String>()))
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let mut upward = Vec::new();
    for module in LAYERS.iter().flat_map(|names| names.iter()) {
        let files = sources(module);
        assert!(!files.is_empty(), "crate::{module} has sources");
        for file in files {
            for used in uses(&std::fs::read_to_string(&file).unwrap()) {
                if layer(&used) < layer(module) {
                    upward.push(format!("{} uses crate::{used}", file.display()));
                }
            }
        }
    }
    assert!(upward.is_empty(), "arrows that point up:\n{}", upward.join("\n"));
}

#[test]
fn the_check_sees_an_upward_arrow() {
    assert_eq!(uses("use crate::parallel::{search, Algorithm};\n// crate::stats in a comment\nlet x = crate::tt::Entry;"), ["parallel", "tt"]);
    assert!(layer("parallel") < layer("machine"), "parallel sits above machine");
}
