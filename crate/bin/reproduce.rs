//! `meshmate reproduce NAME`: one paper's experiment on the simulator (the library's
//! `stats::reproduce`), printed as a table of measures with the paper's figure beside ours,
//! then its conditions and deviations; or as JSON for tests/experiments/report.py.

use crate::args::ReproduceArgs;
use crate::output::say;
use crate::progress::Progress;
use meshmate::stats::reproduce::{reproduce, Report, Row};

/// Runs the experiment `args` names and prints it.
pub fn run_reproduce(args: ReproduceArgs) -> Result<(), String> {
    let paper = args.paper;
    if args.notes {
        for note in paper.notes(args.quick) {
            say!("{note}");
        }
        return Ok(());
    }
    let path = args.data.join(paper.suite_file());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read '{}': {e} (--data names the folder of the papers' EPD files)", path.display()))?;
    let mut bar: Option<Progress> = None;
    let report = reproduce(paper, &text, args.quick, args.seed, &mut |done, total| {
        let bar = bar.get_or_insert_with(|| Progress::new(total, "searches"));
        bar.step();
        if done == total {
            bar.working_on(String::new());
        }
    })?;
    drop(bar);
    if args.json {
        say!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        print_table(&report);
        say!("");
        for note in paper.notes(args.quick) {
            say!("- {note}");
        }
    }
    Ok(())
}

/// The rows, ours beside the paper's and their ratio where it prints one.
fn print_table(report: &Report) {
    say!("{:<26} {:>5} {:<10} {:>14} {:>14} {:>8}", "measure", "p", "position", "ours", "published", "ratio");
    for Row { measure, p, position, ours, published } in &report.rows {
        let p = p.map_or_else(|| "-".into(), |p| p.to_string());
        let published_text = published.map_or_else(|| "-".into(), figure);
        let ratio = published.filter(|&x| x != 0.0).map_or_else(String::new, |x| format!("{:.2}", ours / x));
        say!("{measure:<26} {p:>5} {:<10} {:>14} {published_text:>14} {ratio:>8}", position.as_deref().unwrap_or("all"), figure(*ours));
    }
}

/// A figure with the decimals its size needs.
fn figure(x: f64) -> String {
    if x.abs() >= 1000.0 { format!("{x:.0}") } else { format!("{x:.3}") }
}
