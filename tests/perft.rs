//! Move generation against the shared perft suite (the file's counts are the oracle).
mod common;

use meshmate::chess::{parse_epd_file, perft};

/// Counts above this are skipped to keep the test fast in release mode.
const MAX_NODES: u64 = 5_000_000;

#[test]
fn every_shared_perft_position_matches_its_counts() {
    let records = parse_epd_file(&common::shared_data("perft.epd")).expect("perft.epd parses");
    assert!(records.len() >= 20, "the suite has its positions");
    let mut checked = 0;
    for epd in &records {
        for depth in 1..=6 {
            let Some(expected) = epd.get(&format!("D{depth}")) else { continue };
            let expected: u64 = expected.parse().expect("counts are numbers");
            if expected > MAX_NODES {
                continue;
            }
            assert_eq!(perft(&epd.board, depth), expected, "{} depth {depth}", epd.get("id").unwrap_or("?"));
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} counts checked");
}
