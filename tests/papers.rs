//! The papers' tables in `stats::papers` are the ones ../shared/data/published-figures.md
//! prints: every row is looked up there as printed, so a typo in the data fails.

use meshmate::stats::papers::*;

const FIGURES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/published-figures.md"));

/// A table row of the figures file, cells as given.
fn row(cells: &[&str]) -> String {
    format!("| {} |", cells.join(" | "))
}

fn printed(line: &str) {
    assert!(FIGURES.contains(line), "published-figures.md has no line {line}");
}

#[test]
fn zugzwang_figures_are_as_printed() {
    for p in ZUGZWANG_FIGURE_5 {
        printed(&row(&[p.id, p.best, p.nodes_1, p.time_1, p.nodes_64, p.time_64, p.load, p.search_overhead, p.speedup]));
    }
    let [n1, t1, n64, t64] = ZUGZWANG_TOTALS;
    printed(&format!("| Σ | 18 | {n1} | {t1} | {n64} | {t64} |"));
    let [ld, so, spe] = ZUGZWANG_AVERAGES;
    printed(&format!("| {ld} | {so} | {spe} |"));
    for (p, spe) in ZUGZWANG_SPEEDUPS {
        printed(&if p == 64 { format!("Speedup **{spe}** (7-ply") } else { format!("**{spe} on {p} processors**") });
    }
    let [spe, load] = ZUGZWANG_LAST_ITERATION;
    printed(&row(&["7-ply search", spe, &format!("{load} %")]));
    let [alone, distributed, delay] = ZUGZWANG_TABLE_COST;
    printed(&row(&["1 processor", "yes", alone, "0.00"]));
    printed(&row(&["1st run, 32 processors", "yes", distributed, delay]));
    printed(&format!("about **{ZUGZWANG_TABLE_COST_ABOUT} %**"));
}

#[test]
fn cray_blitz_figures_are_as_printed() {
    let table_3: Vec<&str> = CRAY_BLITZ_TABLE_3.iter().map(|(_, s)| *s).collect();
    printed(&row(&[&["speedup", "1.0"], &table_3[..]].concat()));
    printed(&row(&[&["avg", "1"], &table_3[..]].concat()));
    for (i, speedups) in CRAY_BLITZ_TABLE_6.iter().enumerate() {
        printed(&row(&[&[(i + 1).to_string().as_str(), "1"], &speedups[..]].concat()));
    }
    printed(&format!("**{}**", CRAY_BLITZ_NODE_RATIO.join(" / ")));
}

#[test]
fn startech_figures_are_as_printed() {
    for (p, t20, rating, all) in STARTECH_FIGURE_5 {
        printed(&row(&[&p.to_string(), t20, rating, all]));
        assert!((startech_rating(number(t20)) - number(rating)).abs() <= 1.0, "Eq. 1 gives {rating} for {t20}");
    }
    for (p, t20, all) in STARTECH_RATIOS {
        printed(&row(&[&p.to_string(), t20, all]));
    }
    let [c1, c2, constant] = STARTECH_FIT;
    printed(&format!("**c1 = {c1}**, **c2 = {c2}**, and the constant is **{constant} s**"));
    for (share, _) in STARTECH_CYCLES {
        printed(&format!("| {share} |"));
    }
    let total = [CycleUse::ChessWork, CycleUse::Messages, CycleUse::Waiting].map(startech_cycles).iter().sum::<f64>();
    assert!((total - 99.9).abs() < 1e-9, "Figure 8's shares add up to 99.9 % as printed, not {total}");
}

#[test]
fn tdsab_figures_are_as_printed() {
    for (p, time, spe, so, sync, comm) in TDSAB_AWARI.into_iter().chain(TDSAB_AMAZONS) {
        printed(&row(&[&p.to_string(), time, spe, so, sync, comm]));
    }
}

#[test]
fn hasan_figures_are_as_printed() {
    for (state, one, three, speedup) in HASAN_STATES {
        printed(&row(&[&state.to_string(), one, three, speedup]));
    }
    let [one, three] = HASAN_NODES_PER_SECOND;
    printed(&format!("**{one} nodes/sec**"));
    printed(&format!("**always over {three} nodes/sec**"));
}

#[test]
fn printed_numbers_read_as_values() {
    assert_eq!(number("421,946"), 421946.0);
    assert_eq!(number("68.8%"), 68.8);
    assert_eq!(number("-12.17"), -12.17);
    assert!(number("n/a").is_nan());
}

#[test]
fn a_typo_is_caught() {
    assert!(!FIGURES.contains(&row(&["B02", "e4e5", "960353", "2794", "1450340", "110", "75", "51.02", "25.41"])));
}
