//! `meshmate speedup`: time-to-depth speedup of parallel algorithms on real threads.

use crate::output::say;
use crate::args::SpeedupArgs;
use crate::cli::{suite_boards, write_file};
use crate::progress::Progress;
use crate::report::{lowest_and_highest, messages_by_kind};
use meshmate::parallel::Algorithm;
use meshmate::search::Control;
use meshmate::stats::{measure_speedup, pooled_speedup, SpeedupPlan, SpeedupRow};
use meshmate::tt::Placement;

/// Measures the plan, prints a row per search and the totals, and writes the rows as asked.
pub fn run_speedup(args: SpeedupArgs) -> Result<(), String> {
    if args.tt != Placement::Global {
        return Err("--tt: real threads share one table in memory; local, distributed and tds tables run on the simulator (meshmate sim --tt)".into());
    }
    let boards = suite_boards(&args.suite)?;
    let (algorithms, depth, hash_mib, rounds) = (args.algorithms, args.depth, args.hash, usize::from(args.rounds));
    let threads: Vec<usize> = args.threads.iter().map(|&t| usize::from(t)).collect();
    let plan = SpeedupPlan { algorithms, threads, depth, hash_mib, rounds };
    say!("{:>5} {:>4} {:<8} {:>3} {:>10} {:>12} {:>6} {:>7} {:>5}", "round", "pos", "algo", "p", "ms", "nodes", "SPE", "SO", "LD");
    let parallel_runs = plan.algorithms.iter().filter(|&&a| a != Algorithm::Serial).count() * plan.threads.len();
    let progress = Progress::new(rounds * boards.len() * (1 + parallel_runs), "searches");
    let rows = measure_speedup(&boards, &plan, &Control::default(), &mut |r: &SpeedupRow| {
        progress.step();
        progress.working_on(format!("(round {}, position {})", r.round + 1, r.position + 1));
        progress.println(&format!(
            "{:>5} {:>4} {:<8} {:>3} {:>10.1} {:>12} {:>6.2} {:>7.3} {:>5.2}",
            r.round + 1, r.position + 1, r.algorithm, r.threads, r.millis, r.nodes, r.speedup, r.search_overhead, r.load
        ));
    })?;
    drop(progress);
    let over = if rounds > 1 { format!("{} positions × {rounds} rounds", boards.len()) } else { format!("{} positions", boards.len()) };
    say!("\ntotals over {over} (SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1):");
    let n1: u64 = rows.iter().filter(|r| r.algorithm == "serial").map(|r| r.nodes).sum();
    for algorithm in &plan.algorithms {
        for &p in &plan.threads {
            let group: Vec<&SpeedupRow> = rows.iter().filter(|r| r.algorithm == algorithm.name() && r.threads == p).collect();
            if group.is_empty() {
                continue;
            }
            let t: f64 = group.iter().map(|r| r.millis).sum();
            let n: u64 = group.iter().map(|r| r.nodes).sum();
            let load = group.iter().map(|r| r.load).sum::<f64>() / group.len() as f64;
            let idle: f64 = group.iter().map(|r| r.idle_ms).sum();
            let splits: u64 = group.iter().map(|r| r.splits).sum();
            let aborted: u64 = group.iter().map(|r| r.aborted_nodes).sum();
            say!(
                "  {:<8} p={p:<3} SPE {:.2}  SO {:.3}  LD {:.2}  time {:.0} ms  nodes {n}  idle {idle:.0} ms  splits {splits}  aborted nodes {aborted}",
                algorithm.name(), pooled_speedup(group.iter().copied()), n as f64 / n1.max(1) as f64 - 1.0, load, t
            );
            if rounds > 1 {
                let (low, high) = lowest_and_highest((0..rounds).map(|round| pooled_speedup(group.iter().copied().filter(|r| r.round == round))));
                say!("  {:<8}        SPE of single rounds: {low:.2} to {high:.2}", "");
            }
            if let Some(messages) = messages_by_kind(|k| group.iter().map(|r| r.messages[k.index()]).sum()) {
                say!("  {:<8}        messages: {messages}", "");
            }
        }
    }
    if let Some(path) = args.csv {
        write_file(&path, &SpeedupRow::csv(&rows))?;
    }
    if let Some(path) = args.json {
        let items: Vec<String> = rows.iter().map(SpeedupRow::json).collect();
        write_file(&path, &format!("[{}]\n", items.join(",\n")))?;
    }
    Ok(())
}
