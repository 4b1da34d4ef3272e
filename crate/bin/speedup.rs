//! `speedup`: time-to-depth speedup of parallel algorithms against the serial search, on
//! real threads (`meshmate speedup`) or on the ranks of an MPI job (`mpirun -np N
//! meshmate-cluster speedup`): the same options, rows and totals on either machine.

use crate::files::{suite_boards, write_file};
use crate::output::say;
use crate::progress::Progress;
use crate::report::{lowest_and_highest, messages_by_kind};
use crate::values::{algorithm, depth, hash, placement};
use clap::Args;
use meshmate::machine::Machine;
use meshmate::parallel::Algorithm;
use meshmate::search::Control;
use meshmate::stats::{measure_speedup_on, pooled_speedup, SpeedupPlan, SpeedupRow};
use meshmate::tt::{Placement, TranspositionTable};
use meshmate::uci::{MAX_SPEEDUP_ROUNDS, MAX_THREADS};
use std::path::PathBuf;
use std::sync::Arc;

/// `speedup`.
#[derive(Args, Debug)]
#[command(after_help = "Prints a row per search, then each algorithm's totals: SPE = ΣT(1)/ΣT(p) (speedup), \
SO = ΣN(p)/ΣN(1) − 1 (search overhead), LD = mean share of time busy (load), and the messages sent.\n\n\
Examples:\n  meshmate speedup --algo lazysmp,abdada --threads 1,2 --suite ../shared/data/bratko-kopec.epd --depth 12 --rounds 3\n  \
meshmate speedup --algo ybwc,aphid --suite ../shared/data/bratko-kopec.epd --depth 12 --relay ws://127.0.0.1:8091/class --members 4 --lecturer-token-file target/lecturer-token\n  \
mpirun -np 2 meshmate-cluster speedup --algo ybwc --suite ../shared/data/bratko-kopec.epd --depth 12 --tt distributed")]
pub struct SpeedupArgs {
    /// Algorithms to compare with the serial search, separated by commas.
    #[arg(long = "algo", value_name = "A[,B...]", required = true, value_delimiter = ',', value_parser = algorithm())]
    pub algorithms: Vec<Algorithm>,
    /// Processor counts, separated by commas [default: all: the machine's cores, or every rank].
    #[arg(long, value_name = "P[,Q...]", value_delimiter = ',', value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub threads: Vec<u16>,
    /// The EPD file of positions.
    #[arg(long, value_name = "FILE")]
    pub suite: PathBuf,
    /// Fixed search depth.
    #[arg(long, value_name = "D", value_parser = depth())]
    pub depth: i32,
    /// Transposition table size, MiB (one table, emptied before each search; on ranks, each rank's).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = hash())]
    pub hash: usize,
    /// Times the whole suite is measured, serial reference included; totals pool them.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_SPEEDUP_ROUNDS as i64))]
    pub rounds: u16,
    /// Where the table lives: threads share one (global); ranks keep one each (local) or one distributed table (distributed); every placement runs on `meshmate sim` [default: global on threads, local on ranks].
    #[arg(long, value_name = "PLACEMENT", value_parser = placement())]
    pub tt: Option<Placement>,
    /// Also write every row as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also write every row as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Measure a class instead of threads: create a session at the relay URL
    /// (`ws://host:port/class`), print its code, and search on its members.
    #[arg(long, value_name = "URL", requires_all = ["members", "lecturer_token_file"])]
    pub relay: Option<String>,
    /// With --relay: how many members (`meshmate join` processes or tabs) to wait for.
    #[arg(long, value_name = "N", requires = "relay", value_parser = clap::value_parser!(u16).range(1..MAX_THREADS as i64))]
    pub members: Option<u16>,
    /// With --relay: the file holding the relay's lecturer token (the relay prints it;
    /// `./build.sh serve` keeps it in target/lecturer-token).
    #[arg(long, value_name = "FILE", requires = "relay")]
    pub lecturer_token_file: Option<PathBuf>,
    /// With --relay: split as the papers split (any node deep enough), not in jobs sized
    /// to the relay's measured round trip, to compare the two.
    #[arg(long, requires = "relay")]
    pub papers_split: bool,
}

/// The processor counts `--threads` asks for, or `every` (all the machine's processors).
pub fn processor_counts(args: &SpeedupArgs, every: usize) -> Vec<usize> {
    if args.threads.is_empty() {
        vec![every.min(MAX_THREADS)]
    } else {
        args.threads.iter().map(|&t| usize::from(t)).collect()
    }
}

/// Measures the plan on `machine` with `threads` processors, the table `tt` emptied
/// before each search; prints a row per search and the totals of those done before
/// `control` stopped it, and writes the rows as asked.
pub fn run_speedup<M: Machine>(machine: &mut M, tt: &Arc<TranspositionTable>, args: SpeedupArgs, threads: Vec<usize>, control: &Control) -> Result<(), String> {
    let boards = suite_boards(&args.suite)?;
    let (algorithms, depth, hash_mib, rounds) = (args.algorithms, args.depth, args.hash, usize::from(args.rounds));
    let plan = SpeedupPlan { algorithms, threads, depth, hash_mib, rounds };
    say!("{:>5} {:>4} {:<8} {:>3} {:>10} {:>12} {:>6} {:>7} {:>5}", "round", "pos", "algo", "p", "ms", "nodes", "SPE", "SO", "LD");
    let parallel_runs = plan.algorithms.iter().filter(|&&a| a != Algorithm::Serial).count() * plan.threads.len();
    let progress = Progress::new(rounds * boards.len() * (1 + parallel_runs), "searches");
    let rows = measure_speedup_on(machine, tt, &boards, &plan, control, &mut |r: &SpeedupRow| {
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
