//! Subcommands of the native binary. Each returns the process exit code.

use crate::output::say;
use meshmate::chess::{format_san, parse_fen, parse_san, perft, Board, START_FEN};
use meshmate::search::{bench, search, Control, Limits, NoReports, SearchSettings, Searcher, Task, BENCH_POSITIONS};
use meshmate::tt::TranspositionTable;
use meshmate::uci::{Engine, Event};
use crate::args::{Cli, Command, PerftArgs, SuiteArgs};
use crate::files::read_suite;
use crate::host::{speak_uci, StdHost};
use crate::progress::Progress;
use crate::sim::run_sim;
use crate::train::run_train;
use meshmate::eval::Evaluation;
use crate::speedup::{processor_counts, run_speedup, SpeedupArgs};
use meshmate::machine::Threads;
use meshmate::tt::Placement;
use std::path::Path;
use std::sync::Arc;

/// Runs what the command line asks; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        None | Some(Command::Uci) => {
            speak_uci(Engine::new(Arc::new(StdHost::new())));
            Ok(())
        }
        Some(Command::Bench(args)) => {
            run_bench(args.depth, args.eval);
            Ok(())
        }
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Suite(args)) => run_suite(args),
        #[cfg(feature = "relay")]
        Some(Command::Speedup(args)) if args.relay.is_some() => crate::class_speedup::speedup_on_class(args),
        Some(Command::Speedup(args)) => speedup_on_threads(args),
        Some(Command::Sim(args)) => run_sim(args),
        Some(Command::Reproduce(args)) => crate::reproduce::run_reproduce(args),
        Some(Command::TrainNnue(args)) => run_train(args),
        Some(Command::Datagen(args)) => crate::datagen::run_datagen(args),
        #[cfg(feature = "relay")]
        Some(Command::Relay(args)) => run_relay(args),
        #[cfg(feature = "relay")]
        Some(Command::Join(args)) => crate::join::join(&args.url, &args.code, args.slices, args.threads as usize),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// The lecturer's token in `file` (`--lecturer-token-file`, for the relay and for
/// `speedup --relay`).
#[cfg(feature = "relay")]
pub fn read_lecturer_token(file: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("--lecturer-token-file {}: {e}", file.display()))?;
    let token = text.trim();
    // It travels in links and query strings: characters they need not escape.
    if token.len() < 16 || !token.chars().all(|c| c.is_ascii_alphanumeric() || "-_.~".contains(c)) {
        return Err(format!("--lecturer-token-file {}: a token is at least 16 letters, digits, '-', '_', '.' or '~'", file.display()));
    }
    Ok(token.to_string())
}

/// `meshmate relay`: serves until the process is stopped.
#[cfg(feature = "relay")]
fn run_relay(args: crate::args::RelayArgs) -> Result<(), String> {
    use std::time::Duration;
    let lecturer_token = args.lecturer_token_file.as_deref().map(read_lecturer_token).transpose()?;
    meshmate::relay::serve(meshmate::relay::Config {
        listen: args.listen,
        delay: Duration::from_millis(args.delay_ms),
        lost_after: Duration::from_millis(args.lost_after_ms),
        max_frame: args.max_frame as usize,
        max_rate: args.max_rate,
        owner_max_rate: args.owner_max_rate,
        trace_dir: args.trace_dir,
        max_sessions: args.max_sessions as usize,
        max_members: args.max_members as usize,
        lecturer_token,
        allowed_origins: args.allow_origin,
        max_connections: args.max_connections as usize,
        max_unjoined: args.max_unjoined as usize,
        max_queued_bytes: (args.max_queued_mib as usize) << 20,
        owner_grace: Duration::from_millis(args.owner_grace_ms),
        ..meshmate::relay::Config::default()
    })
}

/// `meshmate speedup`: on this machine's threads, which share one table.
pub fn speedup_on_threads(args: SpeedupArgs) -> Result<(), String> {
    if args.tt.is_some_and(|tt| tt != Placement::Global) {
        return Err("--tt: real threads share one table in memory; a table per rank and the distributed table run on MPI ranks (meshmate-cluster speedup), every placement on the simulator (meshmate sim --tt)".into());
    }
    let tt = Arc::new(TranspositionTable::try_new(args.hash).map_err(|e| e.to_string())?);
    let threads = processor_counts(&args, std::thread::available_parallelism().map_or(1, |n| n.get()));
    run_speedup(&mut Threads::default(), &tt, args, threads, &Control::default())
}

/// `bench`: its first lines are one per position, the progress counts them; the last is
/// the summary the UCI `bench` command ends with too.
fn run_bench(depth: i32, evaluation: Evaluation) {
    let progress = Progress::new(BENCH_POSITIONS, "positions");
    let mut lines = 0;
    let result = bench(depth, evaluation, &mut |line| {
        progress.println(line);
        lines += 1;
        if lines <= BENCH_POSITIONS {
            progress.step();
        }
    });
    progress.println(&Event::Bench { nodes: result.nodes, nps: result.nps() }.to_string());
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
    say!("perft {depth}: {nodes} nodes in {:.3} s ({:.0} nodes/s)", secs, nodes as f64 / secs.max(1e-9));
    Ok(())
}

/// `perft --suite`: every D1, D2... count of the file up to `max_depth`, checked.
fn perft_suite(path: &Path, max_depth: u32) -> Result<(), String> {
    let records = read_suite(path)?;
    let progress = Progress::new(records.len(), "positions");
    let mut failures = 0;
    for (i, epd) in records.iter().enumerate() {
        progress.step();
        for depth in 1..=max_depth {
            let Some(expected) = epd.get(&format!("D{depth}")) else { continue };
            let expected: u64 = expected.trim().parse().map_err(|_| format!("{}: D{depth} '{expected}' is not a count", epd.get("id").unwrap_or("-")))?;
            let got = perft(&epd.board, depth);
            let verdict = if got == expected { "ok" } else { "FAIL" };
            failures += usize::from(got != expected);
            progress.println(&format!("{:>3} {:<12} D{depth} {got:>12} expected {expected:>12} {verdict}", i + 1, epd.get("id").unwrap_or("-")));
        }
    }
    say!("{} positions, {failures} failures", records.len());
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
    let progress = Progress::new(records.len(), "positions");
    let mut solved = 0;
    let mut scored = 0;
    for epd in &records {
        progress.step();
        let board = &epd.board;
        let best = san_list(board, epd.get("bm")).map_err(|e| format!("{}: bm {e}", epd.get("id").unwrap_or("?")))?;
        let avoid = san_list(board, epd.get("am")).map_err(|e| format!("{}: am {e}", epd.get("id").unwrap_or("?")))?;
        if best.is_empty() && avoid.is_empty() {
            continue;
        }
        tt.clear();
        searcher.clear_heuristics();
        let result = search(&mut searcher, &tt, &Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports);
        let played = result.best.expect("suite positions have legal moves");
        let ok = (best.is_empty() || best.contains(&played)) && !avoid.contains(&played);
        scored += 1;
        solved += usize::from(ok);
        progress.println(&format!(
            "{:<14} {:<8} played {:<8} depth {:>2} {}",
            epd.get("id").unwrap_or("-"),
            epd.get("bm").map(|b| format!("bm {b}")).or(epd.get("am").map(|a| format!("am {a}"))).unwrap_or_default(),
            format_san(board, played),
            result.depth,
            if ok { "solved" } else { "-" }
        ));
    }
    say!("solved {solved} of {scored}");
    Ok(())
}

