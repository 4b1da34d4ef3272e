//! `meshmate sim`: the papers' experiments on a simulated parallel computer.

use crate::output::say;
use crate::args::SimArgs;
use crate::files::suite_boards;
use crate::progress::Progress;
use crate::report::{lowest_and_highest, messages_by_kind};
use crate::trace_file::TraceFile;
use meshmate::chess::{parse_fen, START_FEN};
use meshmate::machine::sim::{fit_work_span, with_cores_per_member, Departure, Preset, Sim, WorkSpanFit};
use meshmate::net::Kind;
use meshmate::parallel::Algorithm;
use meshmate::search::SearchSettings;
use meshmate::stats::{decimals, simulate_suite, simulation_speed, MessagesByKind, SimRow, SimSuite};
use meshmate::tt::{Placement, TableSize};
use serde::Serialize;

/// `sim`: the papers' experiment on a simulated machine, printed in the shape of
/// Zugzwang's Figure 5 (times in virtual seconds), or with `--bench` the simulator's speed.
pub fn run_sim(args: SimArgs) -> Result<(), String> {
    if args.signature {
        say!("{} trace hash", meshmate::stats::signature()?);
        return Ok(());
    }
    let procs: Vec<usize> = args.procs.iter().map(|&p| usize::from(p)).collect();
    if args.bench {
        if args.tt != Placement::Global {
            return Err("--bench measures the simulator's speed with the global table; --tt applies to experiments".into());
        }
        let algorithm = args.algorithms.first().copied().unwrap_or(Algorithm::LazySmp);
        let procs = if procs.is_empty() { vec![1, 16, 64, 256, 1024] } else { procs };
        let preset = args.preset.unwrap_or(meshmate::machine::sim::presets::MULTICORE);
        return print_simulation_speed(algorithm, preset, &procs, args.depth.unwrap_or(5), args.hash);
    }
    // clap requires these without --bench or --signature.
    let (Some(preset), Some(suite), Some(depth)) = (args.preset, args.suite.as_deref(), args.depth) else {
        return Err("--preset, --suite and --depth are needed".into());
    };
    if args.papers_split && !preset.paced {
        return Err(format!("--papers-split: the {} preset splits as the papers do already (only the classroom presets size jobs to the round trip)", preset.name));
    }
    let preset = if args.papers_split { preset.split_as_the_papers() } else { preset };
    let seeds = args.seed.0;
    if args.trace.is_some() && seeds.len() > 1 {
        return Err("--trace records one run: give one seed".into());
    }
    if let Some(d) = args.depart.iter().find(|d| procs.iter().all(|&p| d.processor >= p)) {
        return Err(format!("processor {} is on none of the machines --procs asks for, so it cannot leave", d.processor));
    }
    let boards = suite_boards(suite)?;
    let settings = SearchSettings { options: meshmate::search::SearchOptions { pure: args.pure, ..meshmate::search::SearchOptions::default() }, ..SearchSettings::default() };
    let suite = SimSuite { boards: &boards, depth, table: TableSize::Mib(args.hash), placement: args.tt, settings, carry: false };
    let cores_per_member = usize::from(args.cores_per_member);
    with_cores_per_member(preset, 1, cores_per_member)?;
    let experiment = SimExperiment { preset, net: args.net, procs: &procs, algorithms: &args.algorithms, suite: &suite, departures: &args.depart, table: !args.json, cores_per_member };
    let mut trace = args.trace.as_deref().map(TraceFile::new);
    // Each seed's rows; with several seeds the totals pool them (ΣT(1) / ΣT(p) over all).
    let parallel_runs = args.algorithms.iter().filter(|&&a| a != Algorithm::Serial).count() * procs.len();
    let progress = Progress::new(seeds.len() * boards.len() * (1 + parallel_runs), "searches");
    let runs: Vec<(u64, Vec<SimRow>)> = seeds.iter().map(|&seed| Ok((seed, experiment.run(seed, trace.as_mut(), &progress)?))).collect::<Result<_, String>>()?;
    drop(progress);
    let seeded: Vec<(u64, &SimRow)> = runs.iter().flat_map(|(seed, rows)| rows.iter().map(move |r| (*seed, r))).filter(|(_, r)| r.algorithm != "serial").collect();
    if args.json {
        print_sim_json(&seeded, &args.algorithms);
    } else {
        print_sim_summary(&seeded, &seeds, &args.algorithms, &procs, boards.len());
    }
    trace.map_or(Ok(()), TraceFile::finish)
}

/// One `sim` experiment: the suite on each machine size, for every seed asked.
struct SimExperiment<'a> {
    preset: Preset,
    net: Option<Kind>,
    procs: &'a [usize],
    algorithms: &'a [Algorithm],
    suite: &'a SimSuite<'a>,
    /// Processors that leave each run (on the machines that have them).
    departures: &'a [Departure],
    /// Print the table's header and rows as they come (not with `--json`).
    table: bool,
    /// Cores of each member but processor 0 (a class's).
    cores_per_member: usize,
}

impl SimExperiment<'_> {
    /// The rows of one seed (serial references included), its machines' events streamed
    /// into `trace` if given.
    fn run(&self, seed: u64, mut trace: Option<&mut TraceFile>, progress: &Progress) -> Result<Vec<SimRow>, String> {
        let mut build = |p: usize| -> Result<Sim, String> {
            let preset = with_cores_per_member(self.preset, p, self.cores_per_member)?;
            let mut sim = Sim::new(preset, self.net.unwrap_or(preset.net), p, seed).map_err(|e| e.to_string())?;
            let departures: Vec<Departure> = self.departures.iter().filter(|d| d.processor < p).copied().collect();
            if !departures.is_empty() {
                sim.set_departures(departures).map_err(|e| e.to_string())?;
            }
            if let Some(trace) = trace.as_deref_mut() {
                trace.stream(&mut sim)?;
            }
            Ok(sim)
        };
        let mut serial = build(1)?;
        let mut machines: Vec<Sim> = self.procs.iter().map(|&p| build(p)).collect::<Result<_, _>>()?;
        if self.table {
            let (title, depth, placement) = (self.preset.title, self.suite.depth, self.suite.placement);
            let cores = if self.cores_per_member > 1 { format!("; members of {} cores", self.cores_per_member) } else { String::new() };
            progress.println(&format!("{title}{cores}; network {}; table {placement}; depth {depth}; seed {seed}; T in virtual seconds", serial.topology().kind()));
            progress.println(&format!("{:>4} {:<8} {:>5} {:>11} {:>10} {:>11} {:>10} {:>5} {:>7} {:>7} {:>10} {:>10} {:>7}", "pos", "algo", "p", "N(1)", "T(1)", "N(p)", "T(p)", "LD", "SO", "SPE", "W(p)", "C(p)", "W/C"));
        }
        simulate_suite(&mut serial, &mut machines, self.suite, self.algorithms, &mut |r| {
            progress.step();
            progress.working_on(format!("(seed {seed}, position {})", r.position + 1));
            if self.table && r.algorithm != "serial" {
                progress.println(&sim_row_line(r));
            }
        })
    }
}

/// The totals of a `sim` experiment: each algorithm at each p, and its work-span fit.
fn print_sim_summary(seeded: &[(u64, &SimRow)], seeds: &[u64], algorithms: &[Algorithm], procs: &[usize], positions: usize) {
    let over = if seeds.len() > 1 { format!("{positions} positions × {} seeds", seeds.len()) } else { format!("{positions} positions") };
    say!("\ntotals over {over} (SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1, LD mean):");
    for algorithm in algorithms {
        for &p in procs {
            print_sim_totals(seeded, seeds, algorithm.name(), p);
        }
        let points: Vec<_> = seeded.iter().filter(|(_, r)| r.algorithm == algorithm.name()).filter_map(|(_, r)| r.work_span()).collect();
        if let Some(fit) = fit_work_span(&points) {
            say!("  {:<8} fit T_P = a*W/P + b*C over {} runs: a {:.3}  b {:.3}  (rms error {:.1} %)", algorithm.name(), fit.runs, fit.a, fit.b, 100.0 * fit.rms_relative_error);
        }
    }
}

/// `sim --bench`: the simulator's speed against the serial engine's.
fn print_simulation_speed(algorithm: Algorithm, preset: Preset, procs: &[usize], depth: i32, hash: usize) -> Result<(), String> {
    let board = parse_fen(START_FEN).map_err(|e| e.to_string())?;
    let (serial_nps, rows) = simulation_speed(&board, depth, algorithm, preset, procs, hash)?;
    say!("serial engine: {serial_nps:.0} nodes/s; simulated {} on {} to depth {depth}:", algorithm.name(), preset.name);
    say!("{:>5} {:>12} {:>10} {:>12} {:>6}", "p", "nodes", "wall ms", "sim nodes/s", "ratio");
    for r in rows {
        say!("{:>5} {:>12} {:>10.1} {:>12.0} {:>6.2}", r.processors, r.nodes, r.wall_ms, r.nodes_per_second, r.ratio);
    }
    Ok(())
}

/// One position's line of the `sim` table (times in virtual seconds).
fn sim_row_line(r: &SimRow) -> String {
    let secs = |ns: u64| ns as f64 / 1e9;
    let (span, parallelism) = match (r.critical_path_ns, r.parallelism()) {
        (Some(c), Some(w_c)) => (format!("{:.4}", secs(c)), format!("{w_c:.2}")),
        _ => ("-".to_string(), "-".to_string()),
    };
    format!(
        "{:>4} {:<8} {:>5} {:>11} {:>10.4} {:>11} {:>10.4} {:>5.2} {:>7.3} {:>7.2} {:>10.4} {:>10} {:>7}",
        r.position + 1, r.algorithm, r.processors, r.serial_nodes, secs(r.serial_ns), r.nodes, secs(r.time_ns), r.load, r.search_overhead(), r.speedup(), secs(r.work_ns), span, parallelism
    )
}

/// `sim --json`: every parallel run with its seed, and each algorithm's work-span fit;
/// one row or fit a line (docs/experiments.md's report reads it).
fn print_sim_json(seeded: &[(u64, &SimRow)], algorithms: &[Algorithm]) {
    let rows: Vec<String> = seeded.iter().map(|&(seed, row)| json_line(&SimRecord::of(seed, row))).collect();
    let fits: Vec<String> = algorithms
        .iter()
        .filter_map(|&algorithm| {
            let points: Vec<_> = seeded.iter().filter(|(_, r)| r.algorithm == algorithm.name()).filter_map(|(_, r)| r.work_span()).collect();
            fit_work_span(&points).map(|fit| json_line(&FitRecord::of(algorithm, &fit)))
        })
        .collect();
    say!("{{\"rows\":[{}],\n\"fits\":[{}]}}", rows.join(",\n"), fits.join(",\n"));
}

fn json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("numbers and names are always JSON")
}

/// One parallel run as `sim --json` writes it (positions counted from 1).
#[derive(Serialize)]
struct SimRecord<'a> {
    seed: u64,
    position: usize,
    algorithm: &'a str,
    processors: usize,
    table: &'a str,
    serial_nodes: u64,
    serial_ns: u64,
    nodes: u64,
    time_ns: u64,
    load: f64,
    search_overhead: f64,
    speedup: f64,
    messages: u64,
    messages_by_kind: MessagesByKind<'a>,
    score: i32,
    work_ns: u64,
    critical_path_ns: Option<u64>,
    synchronization: f64,
    communication: f64,
    link_mean: f64,
    link_busiest: f64,
}

impl<'a> SimRecord<'a> {
    fn of(seed: u64, r: &'a SimRow) -> SimRecord<'a> {
        SimRecord {
            seed,
            position: r.position + 1,
            algorithm: r.algorithm,
            processors: r.processors,
            table: r.placement.name(),
            serial_nodes: r.serial_nodes,
            serial_ns: r.serial_ns,
            nodes: r.nodes,
            time_ns: r.time_ns,
            load: decimals(r.load, 4),
            search_overhead: decimals(r.search_overhead(), 4),
            speedup: decimals(r.speedup(), 4),
            messages: r.messages,
            messages_by_kind: MessagesByKind(&r.messages_by_kind),
            score: r.score,
            work_ns: r.work_ns,
            critical_path_ns: r.critical_path_ns,
            synchronization: decimals(r.overheads.synchronization, 4),
            communication: decimals(r.overheads.communication, 4),
            link_mean: decimals(r.links.mean, 4),
            link_busiest: decimals(r.links.busiest, 4),
        }
    }
}

/// An algorithm's fit T_P = a·W/P + b·C as `sim --json` writes it.
#[derive(Serialize)]
struct FitRecord {
    algorithm: &'static str,
    a: f64,
    b: f64,
    rms_relative_error: f64,
    runs: usize,
}

impl FitRecord {
    fn of(algorithm: Algorithm, fit: &WorkSpanFit) -> FitRecord {
        FitRecord { algorithm: algorithm.name(), a: decimals(fit.a, 4), b: decimals(fit.b, 4), rms_relative_error: decimals(fit.rms_relative_error, 4), runs: fit.runs }
    }
}

/// The totals of one algorithm on `p` processors, pooled over every seed's positions.
fn print_sim_totals(seeded: &[(u64, &SimRow)], seeds: &[u64], algorithm: &str, p: usize) {
    let group: Vec<&SimRow> = seeded.iter().map(|&(_, r)| r).filter(|r| r.algorithm == algorithm && r.processors == p).collect();
    if group.is_empty() {
        return;
    }
    let sum = |f: fn(&SimRow) -> u64| group.iter().map(|r| f(r)).sum::<u64>() as f64;
    let (t1, tp, n1, np) = (sum(|r| r.serial_ns), sum(|r| r.time_ns), sum(|r| r.serial_nodes), sum(|r| r.nodes));
    let mean = |f: fn(&SimRow) -> f64| group.iter().map(|r| f(r)).sum::<f64>() / group.len() as f64;
    let (load, sync, comm) = (mean(|r| r.load), mean(|r| r.overheads.synchronization), mean(|r| r.overheads.communication));
    let spans: Vec<u64> = group.iter().filter_map(|r| r.critical_path_ns).collect();
    let parallelism = if spans.len() == group.len() { format!("  W/C {:.2}", sum(|r| r.work_ns) / spans.iter().sum::<u64>().max(1) as f64) } else { String::new() };
    say!(
        "  {:<8} p={p:<5} SPE {:.2}  SO {:.3}  LD {:.2}  T(p) {:.3} s  sync {:.3}  comm {:.3}{parallelism}",
        algorithm, t1 / tp.max(1.0), np / n1.max(1.0) - 1.0, load, tp / 1e9, sync, comm
    );
    if seeds.len() > 1 {
        let of_seed = |seed: u64| {
            let rows = seeded.iter().filter(|&&(s, r)| s == seed && r.algorithm == algorithm && r.processors == p);
            let (t1, tp) = rows.fold((0, 0), |(t1, tp), (_, r)| (t1 + r.serial_ns, tp + r.time_ns));
            t1 as f64 / tp.max(1) as f64
        };
        let (low, high) = lowest_and_highest(seeds.iter().map(|&seed| of_seed(seed)));
        say!("  {:<8}         SPE of single seeds: {low:.2} to {high:.2}", "");
    }
    if let Some(messages) = messages_by_kind(|k| group.iter().map(|r| r.messages_by_kind[k.index()]).sum()) {
        say!("  {:<8}         messages: {messages}", "");
    }
    let (link_mean, busiest) = (mean(|r| r.links.mean), group.iter().map(|r| r.links.busiest).fold(0.0, f64::max));
    if busiest > 0.0 {
        say!("  {:<8}         links: mean utilisation {:.1} %, busiest link {:.1} %", "", 100.0 * link_mean, 100.0 * busiest);
    }
}
