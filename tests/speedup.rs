//! The time-to-depth measurement on real threads: rounds of a suite, each measured
//! against its own serial reference, and the command line that pools them.
mod common;

use meshmate::chess::parse_epd_file;
use meshmate::parallel::Algorithm;
use meshmate::search::Control;
use meshmate::stats::{measure_speedup, pooled_speedup, SpeedupPlan};

#[test]
fn rounds_repeat_the_suite_each_against_its_own_serial_reference() {
    let boards: Vec<_> = parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap().into_iter().take(2).map(|e| e.board).collect();
    let plan = SpeedupPlan { algorithms: vec![Algorithm::LazySmp], threads: vec![2], depth: 6, hash_mib: 8, rounds: 3 };
    let mut seen = Vec::new();
    let rows = measure_speedup(&boards, &plan, &Control::default(), &mut |r| seen.push((r.round, r.position, r.algorithm))).unwrap();
    // Round after round, each position's serial reference first, then the parallel search.
    let expected: Vec<(usize, usize, &str)> = (0..3).flat_map(|round| (0..2).flat_map(move |position| [(round, position, "serial"), (round, position, "lazysmp")])).collect();
    assert_eq!(seen, expected);
    for pair in rows.chunks(2) {
        let (serial, parallel) = (&pair[0], &pair[1]);
        assert_eq!(parallel.serial_millis, serial.millis, "against the serial search of its own round and position");
        assert!((parallel.speedup - serial.millis / parallel.millis).abs() < 1e-9);
    }
    // Pooled over rounds: the ratio of the sums, not the mean of the ratios.
    let parallel: Vec<_> = rows.iter().filter(|r| r.algorithm == "lazysmp").collect();
    let sum = |f: fn(&&meshmate::stats::SpeedupRow) -> f64| parallel.iter().map(f).sum::<f64>();
    let pooled = pooled_speedup(parallel.iter().copied());
    assert!((pooled - sum(|r| r.serial_millis) / sum(|r| r.millis)).abs() < 1e-9, "{pooled}");
}

#[test]
fn the_command_line_measures_rounds_and_reports_their_spread() {
    let (dir, suite) = common::bratko_kopec_file("speedup-rounds", "two.epd", 2);
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_meshmate"))
            .args(["speedup", "--algo", "abdada", "--threads", "2", "--suite", suite.to_str().unwrap(), "--depth", "6", "--hash", "8"])
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let json = dir.join("rows.json");
    let (code, table, _) = run(&["--rounds", "2", "--json", json.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(table.contains("totals over 2 positions × 2 rounds") && table.contains("SPE of single rounds"), "{table}");
    let rows = std::fs::read_to_string(&json).unwrap();
    for round in 1..=2 {
        for position in 1..=2 {
            let key = format!(r#""round":{round},"position":{position},"algorithm":"abdada""#);
            assert_eq!(rows.matches(&key).count(), 1, "{key} in {rows}");
        }
    }
    let (_, one, _) = run(&[]);
    assert!(one.contains("totals over 2 positions (") && !one.contains("single rounds"), "{one}");
    for bad in ["0", "101", "many"] {
        let (code, _, error) = run(&["--rounds", bad]);
        assert_eq!(code, Some(2), "--rounds {bad}");
        assert!(error.contains("--rounds"), "{error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every command that reads a suite refuses a file without positions with a clear error,
/// rather than printing an empty table.
#[test]
fn a_suite_without_positions_is_an_error() {
    let (dir, suite) = common::bratko_kopec_file("speedup-empty", "empty.epd", 0);
    let suite = suite.to_str().unwrap();
    for args in [
        vec!["speedup", "--algo", "abdada", "--threads", "2", "--suite", suite, "--depth", "4"],
        vec!["sim", "--algo", "abdada", "--procs", "2", "--preset", "multicore", "--suite", suite, "--depth", "4"],
        vec!["perft", "--suite", suite],
        vec!["suite", suite],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_meshmate")).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("holds no EPD positions"), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
