//! Subcommands of the native binary. Each returns the process exit code.

use meshmate::chess::{format_san, parse_epd_file, parse_fen, parse_san, perft, Board, Epd, START_FEN};
use meshmate::machine::sim::{fit_work_span, simulate_suite, simulation_speed, Preset, Sim, SimRow, SimSuite};
use meshmate::parallel::Algorithm;
use meshmate::machine::MessageKind;
use meshmate::stats::{measure_speedup, pooled_speedup, SpeedupPlan, SpeedupRow};
use meshmate::search::{bench, search, Control, Limits, NoReports, SearchSettings, Searcher};
use meshmate::tt::{Placement, TranspositionTable};
use meshmate::uci::{Engine, Host};
use meshmate::net::Kind;
use crate::args::{Cli, Command, PerftArgs, SimArgs, SpeedupArgs, SuiteArgs};
use crate::trace_file::TraceFile;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

/// Runs what the command line asks; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        None | Some(Command::Uci) => {
            uci_loop();
            Ok(())
        }
        Some(Command::Bench(args)) => {
            bench(args.depth, &mut |l| println!("{l}"));
            Ok(())
        }
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Suite(args)) => run_suite(args),
        Some(Command::Speedup(args)) => run_speedup(args),
        Some(Command::Sim(args)) => run_sim(args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Prints to stdout and runs searches on std threads.
struct StdHost;

impl Host for StdHost {
    fn emit(&self, line: &str) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send + 'static>) {
        std::thread::spawn(job);
    }
}

fn uci_loop() {
    let mut engine = Engine::new(Arc::new(StdHost));
    let stdin = std::io::stdin();
    let mut quit = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !engine.handle_line(&line) {
            quit = true;
            break;
        }
    }
    if !quit {
        engine.end_of_input();
    }
    while !engine.idle() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn read_file(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// The records of an EPD suite; a file without any is an error, not an empty run.
fn read_suite(path: &Path) -> Result<Vec<Epd>, String> {
    let records = parse_epd_file(&read_file(path)?)?;
    if records.is_empty() {
        return Err(format!("'{}' holds no EPD positions", path.display()));
    }
    Ok(records)
}

/// The positions of an EPD suite.
fn suite_boards(path: &Path) -> Result<Vec<Board>, String> {
    Ok(read_suite(path)?.into_iter().map(|e| e.board).collect())
}

fn run_perft(args: PerftArgs) -> Result<(), String> {
    if let Some(path) = args.suite {
        return perft_suite(&path, args.max_depth);
    }
    let depth = args.depth.ok_or("perft needs a depth or --suite")?;
    let fen = if args.fen.is_empty() { START_FEN.to_string() } else { args.fen.join(" ") };
    let board = parse_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let start = std::time::Instant::now();
    let nodes = perft(&board, depth);
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth}: {nodes} nodes in {:.3} s ({:.0} nodes/s)", secs, nodes as f64 / secs.max(1e-9));
    Ok(())
}

/// `perft --suite`: every D1, D2... count of the file up to `max_depth`, checked.
fn perft_suite(path: &Path, max_depth: u32) -> Result<(), String> {
    let records = read_suite(path)?;
    let mut failures = 0;
    for (i, epd) in records.iter().enumerate() {
        for depth in 1..=max_depth {
            let Some(expected) = epd.get(&format!("D{depth}")) else { continue };
            let expected: u64 = expected.trim().parse().map_err(|_| format!("{}: D{depth} '{expected}' is not a count", epd.get("id").unwrap_or("-")))?;
            let got = perft(&epd.board, depth);
            let verdict = if got == expected { "ok" } else { "FAIL" };
            failures += usize::from(got != expected);
            println!("{:>3} {:<12} D{depth} {got:>12} expected {expected:>12} {verdict}", i + 1, epd.get("id").unwrap_or("-"));
        }
    }
    println!("{} positions, {failures} failures", records.len());
    if failures == 0 { Ok(()) } else { Err(format!("{failures} perft counts differ")) }
}

/// Moves in an EPD operand (`bm Nf3 e4`), parsed as SAN on `board`.
fn san_list(board: &Board, operand: Option<&str>) -> Result<Vec<meshmate::chess::Move>, String> {
    operand.map_or(Ok(Vec::new()), |text| text.split_whitespace().map(|san| parse_san(board, san)).collect())
}

fn run_suite(args: SuiteArgs) -> Result<(), String> {
    let SuiteArgs { file, movetime, depth, hash } = args;
    let records = read_suite(&file)?;
    let tt = Arc::new(TranspositionTable::try_new(hash).map_err(|e| e.to_string())?);
    let mut searcher = Searcher::new(tt.clone());
    let limits = Limits { movetime: movetime.or(if depth.is_none() { Some(1000) } else { None }), depth, ..Limits::default() };
    let mut solved = 0;
    let mut scored = 0;
    for epd in &records {
        let board = &epd.board;
        let best = san_list(board, epd.get("bm")).map_err(|e| format!("{}: bm {e}", epd.get("id").unwrap_or("?")))?;
        let avoid = san_list(board, epd.get("am")).map_err(|e| format!("{}: am {e}", epd.get("id").unwrap_or("?")))?;
        if best.is_empty() && avoid.is_empty() {
            continue;
        }
        tt.clear();
        searcher.clear_heuristics();
        let result = search(&mut searcher, &tt, board, &[], &limits, &SearchSettings::default(), &Control::default(), &mut NoReports);
        let played = result.best.expect("suite positions have legal moves");
        let ok = (best.is_empty() || best.contains(&played)) && !avoid.contains(&played);
        scored += 1;
        solved += usize::from(ok);
        println!(
            "{:<14} {:<8} played {:<8} depth {:>2} {}",
            epd.get("id").unwrap_or("-"),
            epd.get("bm").map(|b| format!("bm {b}")).or(epd.get("am").map(|a| format!("am {a}"))).unwrap_or_default(),
            format_san(board, played),
            result.depth,
            if ok { "solved" } else { "-" }
        );
    }
    println!("solved {solved} of {scored}");
    Ok(())
}

fn run_speedup(args: SpeedupArgs) -> Result<(), String> {
    if args.tt != Placement::Global {
        return Err("--tt: real threads share one table in memory; local, distributed and tds tables run on the simulator (meshmate sim --tt)".into());
    }
    let boards = suite_boards(&args.suite)?;
    let (algorithms, depth, hash_mib, rounds) = (args.algorithms, args.depth, args.hash, usize::from(args.rounds));
    let threads: Vec<usize> = args.threads.iter().map(|&t| usize::from(t)).collect();
    let plan = SpeedupPlan { algorithms, threads, depth, hash_mib, rounds };
    println!("{:>5} {:>4} {:<8} {:>3} {:>10} {:>12} {:>6} {:>7} {:>5}", "round", "pos", "algo", "p", "ms", "nodes", "SPE", "SO", "LD");
    let rows = measure_speedup(&boards, &plan, &Control::default(), &mut |r: &SpeedupRow| {
        println!(
            "{:>5} {:>4} {:<8} {:>3} {:>10.1} {:>12} {:>6.2} {:>7.3} {:>5.2}",
            r.round + 1, r.position + 1, r.algorithm, r.threads, r.millis, r.nodes, r.speedup, r.search_overhead, r.load
        );
    })?;
    let over = if rounds > 1 { format!("{} positions × {rounds} rounds", boards.len()) } else { format!("{} positions", boards.len()) };
    println!("\ntotals over {over} (SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1):");
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
            println!(
                "  {:<8} p={p:<3} SPE {:.2}  SO {:.3}  LD {:.2}  time {:.0} ms  nodes {n}  idle {idle:.0} ms  splits {splits}  aborted nodes {aborted}",
                algorithm.name(), pooled_speedup(group.iter().copied()), n as f64 / n1.max(1) as f64 - 1.0, load, t
            );
            if rounds > 1 {
                let (low, high) = lowest_and_highest((0..rounds).map(|round| pooled_speedup(group.iter().copied().filter(|r| r.round == round))));
                println!("  {:<8}        SPE of single rounds: {low:.2} to {high:.2}", "");
            }
            if let Some(messages) = messages_by_kind(|k| group.iter().map(|r| r.messages[k.index()]).sum()) {
                println!("  {:<8}        messages: {messages}", "");
            }
        }
    }
    if let Some(path) = args.csv {
        let lines: Vec<String> = std::iter::once(SpeedupRow::csv_header()).chain(rows.iter().map(SpeedupRow::csv)).collect();
        write_file(&path, &(lines.join("\n") + "\n"))?;
    }
    if let Some(path) = args.json {
        let items: Vec<String> = rows.iter().map(SpeedupRow::json).collect();
        write_file(&path, &format!("[{}]\n", items.join(",\n")))?;
    }
    Ok(())
}

/// The lowest and the highest of `values` (the spread of single rounds or seeds).
fn lowest_and_highest(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::MAX, f64::MIN), |(low, high), x| (low.min(x), high.max(x)))
}

/// "kind count, ..." for the kinds of message that were sent at all (`None`: none were).
fn messages_by_kind(count: impl Fn(MessageKind) -> u64) -> Option<String> {
    let sent: Vec<String> = MessageKind::ALL.iter().map(|&k| (k, count(k))).filter(|&(_, n)| n > 0).map(|(k, n)| format!("{} {n}", k.name())).collect();
    (!sent.is_empty()).then(|| sent.join(", "))
}

/// `sim`: the papers' experiment on a simulated machine, printed in the shape of
/// Zugzwang's Figure 5 (times in virtual seconds), or with `--bench` the simulator's speed.
fn run_sim(args: SimArgs) -> Result<(), String> {
    if args.signature {
        println!("{} trace hash", meshmate::machine::sim::signature()?);
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
    let seeds = args.seed.0;
    if args.trace.is_some() && seeds.len() > 1 {
        return Err("--trace records one run: give one seed".into());
    }
    let boards = suite_boards(suite)?;
    let settings = SearchSettings { options: meshmate::search::SearchOptions { pure: args.pure }, ..SearchSettings::default() };
    let suite = SimSuite { boards: &boards, depth, hash_mib: args.hash, placement: args.tt, settings };
    let experiment = SimExperiment { preset, net: args.net, procs: &procs, algorithms: &args.algorithms, suite: &suite, table: !args.json };
    let mut trace = args.trace.as_deref().map(TraceFile::new);
    // Each seed's rows; with several seeds the totals pool them (ΣT(1) / ΣT(p) over all).
    let runs: Vec<(u64, Vec<SimRow>)> = seeds.iter().map(|&seed| Ok((seed, experiment.run(seed, trace.as_mut())?))).collect::<Result<_, String>>()?;
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
    /// Print the table's header and rows as they come (not with `--json`).
    table: bool,
}

impl SimExperiment<'_> {
    /// The rows of one seed (serial references included), its machines' events streamed
    /// into `trace` if given.
    fn run(&self, seed: u64, mut trace: Option<&mut TraceFile>) -> Result<Vec<SimRow>, String> {
        let net = self.net.map(Kind::name);
        let mut build = |p: usize| -> Result<Sim, String> {
            let mut sim = Sim::from_names(self.preset.name, net, p, seed).map_err(|e| e.to_string())?;
            if let Some(trace) = trace.as_deref_mut() {
                trace.stream(&mut sim)?;
            }
            Ok(sim)
        };
        let mut serial = build(1)?;
        let mut machines: Vec<Sim> = self.procs.iter().map(|&p| build(p)).collect::<Result<_, _>>()?;
        if self.table {
            let (title, depth, placement) = (self.preset.title, self.suite.depth, self.suite.placement);
            println!("{title}; network {}; table {placement}; depth {depth}; seed {seed}; T in virtual seconds", serial.topology().kind());
            println!("{:>4} {:<8} {:>5} {:>11} {:>10} {:>11} {:>10} {:>5} {:>7} {:>7} {:>10} {:>10} {:>7}", "pos", "algo", "p", "N(1)", "T(1)", "N(p)", "T(p)", "LD", "SO", "SPE", "W(p)", "C(p)", "W/C");
        }
        simulate_suite(&mut serial, &mut machines, self.suite, self.algorithms, &mut |r| {
            if self.table && r.algorithm != "serial" {
                print_sim_row(r);
            }
        })
    }
}

/// The totals of a `sim` experiment: each algorithm at each p, and its work-span fit.
fn print_sim_summary(seeded: &[(u64, &SimRow)], seeds: &[u64], algorithms: &[Algorithm], procs: &[usize], positions: usize) {
    let over = if seeds.len() > 1 { format!("{positions} positions × {} seeds", seeds.len()) } else { format!("{positions} positions") };
    println!("\ntotals over {over} (SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1, LD mean):");
    for algorithm in algorithms {
        for &p in procs {
            print_sim_totals(seeded, seeds, algorithm.name(), p);
        }
        let points: Vec<_> = seeded.iter().filter(|(_, r)| r.algorithm == algorithm.name()).filter_map(|(_, r)| r.work_span()).collect();
        if let Some(fit) = fit_work_span(&points) {
            println!("  {:<8} fit T_P = a*W/P + b*C over {} runs: a {:.3}  b {:.3}  (rms error {:.1} %)", algorithm.name(), fit.runs, fit.a, fit.b, 100.0 * fit.rms_relative_error);
        }
    }
}

/// `sim --bench`: the simulator's speed against the serial engine's.
fn print_simulation_speed(algorithm: Algorithm, preset: Preset, procs: &[usize], depth: i32, hash: usize) -> Result<(), String> {
    let board = parse_fen(START_FEN).map_err(|e| e.to_string())?;
    let (serial_nps, rows) = simulation_speed(&board, depth, algorithm, preset, procs, hash)?;
    println!("serial engine: {serial_nps:.0} nodes/s; simulated {} on {} to depth {depth}:", algorithm.name(), preset.name);
    println!("{:>5} {:>12} {:>10} {:>12} {:>6}", "p", "nodes", "wall ms", "sim nodes/s", "ratio");
    for r in rows {
        println!("{:>5} {:>12} {:>10.1} {:>12.0} {:>6.2}", r.processors, r.nodes, r.wall_ms, r.nodes_per_second, r.ratio);
    }
    Ok(())
}

/// One position's line of the `sim` table (times in virtual seconds).
fn print_sim_row(r: &SimRow) {
    let secs = |ns: u64| ns as f64 / 1e9;
    let (span, parallelism) = match (r.critical_path_ns, r.parallelism()) {
        (Some(c), Some(w_c)) => (format!("{:.4}", secs(c)), format!("{w_c:.2}")),
        _ => ("-".to_string(), "-".to_string()),
    };
    println!(
        "{:>4} {:<8} {:>5} {:>11} {:>10.4} {:>11} {:>10.4} {:>5.2} {:>7.3} {:>7.2} {:>10.4} {:>10} {:>7}",
        r.position + 1, r.algorithm, r.processors, r.serial_nodes, secs(r.serial_ns), r.nodes, secs(r.time_ns), r.load, r.search_overhead(), r.speedup(), secs(r.work_ns), span, parallelism
    );
}

/// `sim --json`: every parallel run with its seed, and each algorithm's work-span fit.
fn print_sim_json(seeded: &[(u64, &SimRow)], algorithms: &[Algorithm]) {
    let items: Vec<String> = seeded
        .iter()
        .map(|&(seed, r)| {
            let kinds: Vec<String> = MessageKind::ALL.iter().map(|k| format!("\"{}\":{}", k.name(), r.messages_by_kind[k.index()])).collect();
            format!(
                "{{\"seed\":{seed},\"position\":{},\"algorithm\":\"{}\",\"processors\":{},\"table\":\"{}\",\"serial_nodes\":{},\"serial_ns\":{},\"nodes\":{},\"time_ns\":{},\"load\":{:.4},\"search_overhead\":{:.4},\"speedup\":{:.4},\"messages\":{},\"messages_by_kind\":{{{}}},\"score\":{},\"work_ns\":{},\"critical_path_ns\":{},\"synchronization\":{:.4},\"communication\":{:.4},\"link_mean\":{:.4},\"link_busiest\":{:.4}}}",
                r.position + 1, r.algorithm, r.processors, r.placement, r.serial_nodes, r.serial_ns, r.nodes, r.time_ns, r.load, r.search_overhead(), r.speedup(), r.messages, kinds.join(","), r.score,
                r.work_ns, r.critical_path_ns.map_or("null".to_string(), |c| c.to_string()), r.overheads.synchronization, r.overheads.communication, r.links.mean, r.links.busiest
            )
        })
        .collect();
    let fits: Vec<String> = algorithms
        .iter()
        .filter_map(|a| {
            let points: Vec<_> = seeded.iter().filter(|(_, r)| r.algorithm == a.name()).filter_map(|(_, r)| r.work_span()).collect();
            let fit = fit_work_span(&points)?;
            Some(format!("{{\"algorithm\":\"{}\",\"a\":{:.4},\"b\":{:.4},\"rms_relative_error\":{:.4},\"runs\":{}}}", a.name(), fit.a, fit.b, fit.rms_relative_error, fit.runs))
        })
        .collect();
    println!("{{\"rows\":[{}],\n\"fits\":[{}]}}", items.join(",\n"), fits.join(",\n"));
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
    println!(
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
        println!("  {:<8}         SPE of single seeds: {low:.2} to {high:.2}", "");
    }
    if let Some(messages) = messages_by_kind(|k| group.iter().map(|r| r.messages_by_kind[k.index()]).sum()) {
        println!("  {:<8}         messages: {messages}", "");
    }
    let (link_mean, busiest) = (mean(|r| r.links.mean), group.iter().map(|r| r.links.busiest).fold(0.0, f64::max));
    if busiest > 0.0 {
        println!("  {:<8}         links: mean utilisation {:.1} %, busiest link {:.1} %", "", 100.0 * link_mean, 100.0 * busiest);
    }
}
