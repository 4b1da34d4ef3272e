//! `meshmate reproduce NAME`: each paper's quick experiment prints the agreed JSON, with
//! its headline measure beside the published figures of `stats::papers`; a bad name is a
//! usage error.

use meshmate::stats::papers::{number, CRAY_BLITZ_TABLE_3, STARTECH_RATIOS, TDSAB_AWARI, ZUGZWANG_SPEEDUPS};
use serde_json::Value;
use std::process::Command;

fn meshmate(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The quick run's rows, after checking the JSON's shape.
fn quick_rows(name: &str) -> Vec<Value> {
    let (code, out, err) = meshmate(&["reproduce", name, "--quick", "--json"]);
    assert_eq!(code, Some(0), "{name}: {err}");
    let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{name} prints JSON ({e}): {out}"));
    let object = json.as_object().unwrap();
    assert_eq!(object.keys().collect::<Vec<_>>(), ["paper", "rows"], "{name}");
    assert_eq!(json["paper"], name);
    let rows = json["rows"].as_array().unwrap().clone();
    for row in &rows {
        let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["measure", "p", "position", "ours", "published"], "{row}");
        assert!(row["ours"].as_f64().is_some_and(f64::is_finite), "{name}: {row}");
    }
    rows
}

/// The headline rows of `measure` over the suite: (p, ours, published).
fn headline(rows: &[Value], measure: &str) -> Vec<(u64, f64, Option<f64>)> {
    rows.iter().filter(|r| r["measure"] == measure && r["position"].is_null()).map(|r| (r["p"].as_u64().unwrap(), r["ours"].as_f64().unwrap(), r["published"].as_f64())).collect()
}

/// Each headline row at a p the paper printed carries the printed figure, and ours is a
/// speedup a parallel search can reach (above 0, at most p).
fn check_headline(rows: &[Value], measure: &str, printed: &[(usize, &str)]) {
    let found = headline(rows, measure);
    assert!(!found.is_empty(), "{measure} rows");
    for (p, ours, published) in found {
        assert!(ours > 0.0 && ours <= p as f64 * 1.5, "{measure} at {p}: {ours}");
        let paper = printed.iter().find(|(q, _)| *q as u64 == p).map(|(_, s)| number(s));
        assert_eq!(published, paper, "{measure} at {p}");
    }
}

#[test]
fn zugzwang_prints_spe_beside_15_77_and_34_77() {
    let rows = quick_rows("zugzwang");
    check_headline(&rows, "spe", &ZUGZWANG_SPEEDUPS);
    assert!(rows.iter().any(|r| r["position"] == "B01" && r["measure"] == "n1" && r["published"] == 279.0), "Figure 5's B01 row");
}

#[test]
fn cray_blitz_prints_the_mean_of_per_position_speedups() {
    let rows = quick_rows("crayblitz");
    check_headline(&rows, "mean_speedup", &CRAY_BLITZ_TABLE_3);
    let per_position: Vec<f64> = rows.iter().filter(|r| r["measure"] == "speedup" && r["p"] == 16).map(|r| r["ours"].as_f64().unwrap()).collect();
    let mean = headline(&rows, "mean_speedup").into_iter().find(|h| h.0 == 16).unwrap().1;
    assert!((per_position.iter().sum::<f64>() / per_position.len() as f64 - mean).abs() < 1e-3, "Table 3 is the mean of Table 6");
}

#[test]
fn startech_prints_t20_ratios() {
    let rows = quick_rows("startech");
    let ratios: Vec<(usize, &str)> = STARTECH_RATIOS.iter().map(|r| (r.0, r.1)).collect();
    check_headline(&rows, "t20_ratio", &ratios);
    assert!(rows.iter().any(|r| r["measure"] == "fit_c1" && r["published"] == 1.02 && r["p"].is_null()));
    // The start-up time every search pays, the same on any p, can only bring a speedup down.
    for (raw, with_setup) in headline(&rows, "t20_ratio").into_iter().zip(headline(&rows, "t20_ratio_with_setup")) {
        assert_eq!(raw.0, with_setup.0);
        assert!(with_setup.1 >= 1.0 && with_setup.1 < raw.1, "at {}: {} with setup, {} without", raw.0, with_setup.1, raw.1);
    }
    // Figure 8's three uses beside ours: each a share (messages are part of the busy
    // time, so counting them twice would leave chess work below zero), the paper's all of
    // its printed shares (99.9 %).
    let cycles: Vec<(u64, f64, Option<f64>)> = ["chess_work_pct", "messages_pct", "waiting_pct"].iter().flat_map(|m| headline(&rows, m)).collect();
    assert_eq!(cycles.len(), 3);
    assert!(cycles.iter().all(|c| (0.0..=100.0).contains(&c.1)), "{cycles:?}");
    assert!((cycles.iter().filter_map(|c| c.2).sum::<f64>() - 99.9).abs() < 0.01, "{cycles:?}");
}

#[test]
fn tdsab_prints_spe_beside_awari_and_amazons() {
    let rows = quick_rows("tdsab");
    let awari: Vec<(usize, &str)> = TDSAB_AWARI.iter().map(|r| (r.0, r.2)).collect();
    check_headline(&rows, "spe", &awari);
    assert!(!headline(&rows, "spe_amazons").is_empty() && !headline(&rows, "sync_pct").is_empty());
}

#[test]
fn pvsplit_prints_the_reply_speedup_of_each_state() {
    let rows = quick_rows("pvsplit");
    let states: Vec<&Value> = rows.iter().filter(|r| r["measure"] == "reply_speedup" && !r["position"].is_null()).collect();
    assert_eq!(states.iter().map(|r| r["published"].as_f64().unwrap()).collect::<Vec<_>>(), [2.84, 2.22, 2.69, 2.47]);
    assert!(!headline(&rows, "reply_speedup_plain").is_empty());
}

#[test]
fn a_bad_name_is_a_usage_error() {
    let (code, out, err) = meshmate(&["reproduce", "deepblue"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("zugzwang") && err.contains("pvsplit") && !err.contains("panicked"), "{err}");
    let (code, _, err) = meshmate(&["reproduce", "zugzwang", "--data", "/nonexistent"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--data") && !err.contains("panicked"), "{err}");
}

#[test]
fn notes_say_how_each_experiment_departs_from_its_paper() {
    for name in ["zugzwang", "crayblitz", "startech", "tdsab", "pvsplit"] {
        let (code, out, err) = meshmate(&["reproduce", name, "--notes"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.lines().count() >= 4 && out.contains("--pure"), "{name}: {out}");
    }
}
