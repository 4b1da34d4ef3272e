//! `meshmate-cluster` under real `mpirun`, every rank a real process, driven over real
//! pipes as a GUI drives it: exact values in pure mode at 2, 3 and 4 ranks, a UCI
//! session with `stop` and refusals, `speedup` with messages between ranks, and a rank
//! killed during a search. The ranks are oversubscribed (this machine has 2 cores).
mod common;

use common::uci::{bestmove, UciProcess as Cluster, STOP_WITHIN};
use meshmate::chess::{parse_epd_file, parse_uci, Board, Game};
use meshmate::search::{search, Control, Limits, NoReports, Score, SearchOptions, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::process::Command;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Generous: the machine is shared and the ranks oversubscribed; a hang still fails.
const PATIENCE: Duration = Duration::from_secs(120);

/// The algorithms that run on the cluster.
const CLUSTER_ALGORITHMS: [&str; 4] = ["ybwc", "jamboree", "pvsplit", "tdsab"];

/// One MPI job at a time: `cargo test` runs this file's tests on several threads, and
/// oversubscribed jobs side by side would each be starved of the machine's two cores.
/// Each test holds the guard for as long as it runs its jobs.
fn one_job_at_a_time() -> MutexGuard<'static, ()> {
    static JOBS: Mutex<()> = Mutex::new(());
    JOBS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An engine of `ranks` MPI ranks, rank 0's standard input and output piped to the test.
fn start(ranks: usize) -> Cluster {
    Cluster::start(Command::new("mpirun").args(["--oversubscribe", "--allow-run-as-root", "-np", &ranks.to_string(), env!("CARGO_BIN_EXE_meshmate-cluster")]), PATIENCE)
}

/// How long `quit` may take to end every rank.
const QUIT_WITHIN: Duration = Duration::from_secs(20);

/// The score text of the last `info depth {depth}` line.
fn score_at_depth(lines: &[String], depth: i32) -> String {
    let info = lines.iter().rev().find(|l| l.starts_with(&format!("info depth {depth} "))).unwrap_or_else(|| panic!("no depth {depth} report in {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    format!("{} {}", words[at + 1], words[at + 2])
}

/// The shared test positions (the start of Bratko-Kopec, the Cray Blitz game, perft's),
/// and one with a game history whose repetitions the ranks must see.
fn positions() -> Vec<(Board, Vec<&'static str>)> {
    let mut positions = Vec::new();
    for (file, take) in [("bratko-kopec.epd", 8), ("crayblitz-1993.epd", 3), ("perft.epd", 3)] {
        let records = parse_epd_file(&common::shared_data(file)).unwrap();
        positions.extend(records.into_iter().take(take).map(|e| (e.board, vec![])));
    }
    let chase = meshmate::chess::parse_fen("6k1/6p1/8/8/8/8/q5PP/5Q1K w - - 10 40").unwrap();
    positions.push((chase, vec!["f1f8", "g8h7", "f8f5", "h7g8"]));
    positions
}

/// The serial searcher's pure value of `board` after `moves`, in UCI's words, with the
/// evaluation the engine (and so every rank) plays with by default.
fn serial_score(board: &Board, moves: &[&str], depth: i32) -> String {
    let mut game = Game::from_board(board.clone());
    game.play_uci_moves(moves.iter().copied()).unwrap();
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let evaluation = meshmate::uci::Options::default().evaluation;
    let settings = SearchSettings { options: SearchOptions { pure: true, evaluation, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let result = search(&mut searcher, &tt, &Task { board: game.board(), history: game.history(), limits: &limits, settings: &settings }, &Control::default(), &mut NoReports);
    Score::from_internal(result.score).to_string()
}

/// Depth of the pure-mode searches.
const PURE_DEPTH: i32 = 4;

/// Each of `algorithms` on `e` finds the serial value `expected` of every position.
fn check_pure_values(e: &mut Cluster, algorithms: &[&str], positions: &[(Board, Vec<&str>)], expected: &[String], ranks: usize, table: &str) {
    for algorithm in algorithms {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        for ((board, moves), want) in positions.iter().zip(expected) {
            e.send("ucinewgame");
            let after = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
            e.send(&format!("position fen {board}{after}"));
            e.send(&format!("go depth {PURE_DEPTH}"));
            let lines = e.read_until(|l| l.starts_with("bestmove"));
            assert_eq!(&score_at_depth(&lines, PURE_DEPTH), want, "{algorithm} at {ranks} ranks, {table} table: {board}{after}");
        }
    }
}

/// In pure mode every cluster algorithm returns the serial minimax value, at 2, 3 and 4
/// ranks, the position sent as `position fen … moves …`; so do YBWC, Jamboree and
/// PV-splitting with Zugzwang's distributed table, whose entries travel between ranks.
#[test]
fn pure_mode_gives_the_serial_value_at_two_to_four_ranks() {
    let _job = one_job_at_a_time();
    let positions = positions();
    let expected: Vec<String> = positions.iter().map(|(board, moves)| serial_score(board, moves, PURE_DEPTH)).collect();
    for ranks in [2, 3, 4] {
        let mut e = start(ranks);
        e.handshake();
        e.send("setoption name Pure value true");
        check_pure_values(&mut e, &CLUSTER_ALGORITHMS, &positions, &expected, ranks, "local");
        e.send("setoption name Algorithm value ybwc");
        e.send("setoption name Table value distributed");
        check_pure_values(&mut e, &CLUSTER_ALGORITHMS[..3], &positions, &expected, ranks, "distributed");
        e.quit(QUIT_WITHIN);
    }
}

/// The count of messages of `kind` in a `speedup` row.
fn messages(row: &str, kind: &str) -> u64 {
    let at = row.find(&format!("\"{kind}\":")).unwrap_or_else(|| panic!("{row} lacks {kind}")) + kind.len() + 3;
    row[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// `uci` on the cluster declares the cluster's defaults: the rank count as the one
/// `Threads` value, and YBWC, which needs no shared memory, as the algorithm it searches
/// with unless told otherwise.
#[test]
fn uci_declares_the_cluster_defaults() {
    let _job = one_job_at_a_time();
    let mut e = start(3);
    let lines = e.handshake();
    assert!(lines.iter().any(|l| l == "option name Threads type spin default 3 min 3 max 3"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Algorithm type combo default ybwc ")), "{lines:?}");
}

/// `setoption name Table value distributed` puts each entry at rank h mod p: lookups and
/// stores travel as messages (none with a table per rank), and TDSAB, which moves nodes
/// to entries instead, is refused with it, as is a placement the cluster does not offer.
#[test]
fn the_distributed_table_is_reached_by_messages() {
    let _job = one_job_at_a_time();
    let mut e = start(3);
    let lines = e.handshake();
    assert!(lines.iter().any(|l| l == "option name Table type combo default local var local var distributed"), "{lines:?}");
    e.send("position startpos moves e2e4");
    for (table, travels) in [("local", false), ("distributed", true)] {
        e.send(&format!("setoption name Table value {table}"));
        e.send("speedup algo ybwc threads 3 depth 7");
        let lines = e.read_until(|l| l == "info string speedup done");
        let row = lines.iter().find(|l| l.contains("\"algorithm\":\"ybwc\"")).unwrap_or_else(|| panic!("no ybwc row in {lines:?}"));
        for kind in ["tt-request", "tt-answer", "tt-put"] {
            assert_eq!(messages(row, kind) > 0, travels, "{table} table, {kind}: {row}");
        }
    }
    e.send("setoption name Algorithm value tdsab");
    e.send("setoption name Table value global");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(lines.iter().any(|l| l.starts_with("info string error: tdsab moves each node") && l.contains("keeping ybwc")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string error: Table: 'global' is not offered here; keeping distributed")), "{lines:?}");
    e.send("go depth 6");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let mut game = Game::default();
    game.play_uci_moves(["e2e4"]).unwrap();
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "{lines:?}");
    e.quit(QUIT_WITHIN);
}

/// A session as a GUI holds it: handshake, options (refusals answered with an error that
/// changes nothing), a search to depth, `movetime` cut short by `stop`, `speedup`
/// with work travelling between ranks, and `quit`.
#[test]
fn a_uci_session_over_pipes_to_rank_zero() {
    let _job = one_job_at_a_time();
    let mut e = start(3);
    let lines = e.handshake();
    assert!(lines[0].starts_with("id name meshmate"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option name Threads type spin default 3 min 3 max 3"), "{lines:?}");
    e.send("setoption name Hash value 32");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("info string error:")), "{lines:?}");
    e.send("setoption name Algorithm value abdada");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(lines.iter().any(|l| l.starts_with("info string error:") && l.contains("shared memory") && l.contains("keeping ybwc")), "{lines:?}");
    e.send("setoption name Threads value 2");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(lines.iter().any(|l| l.starts_with("info string error: Threads") && l.contains("all 3 ranks")), "{lines:?}");

    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 8");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let info = lines.iter().rev().find(|l| l.starts_with("info depth 8 ")).expect("a depth 8 report");
    for field in [" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(field), "{info} lacks{field}");
    }
    let mut game = Game::default();
    game.play_uci_moves(["e2e4", "e7e5", "g1f3"]).unwrap();
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "after go depth 8: {:?}", lines.last());

    e.send("setoption name Algorithm value tdsab");
    e.send("go movetime 60000");
    std::thread::sleep(Duration::from_millis(700));
    let asked = Instant::now();
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(asked.elapsed() < STOP_WITHIN, "stop took {:?}", asked.elapsed());
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "after stop: {:?}", lines.last());

    // Work moves between ranks: splits and messages of every cluster algorithm (deep
    // enough that the others ask for work before processor 0 is done; the session's
    // table size, so that no rank spends the search allocating another). On two loaded
    // cores a rank may not be scheduled before processor 0 is done: an algorithm whose
    // work did not travel is searched again one ply deeper, up to depth 11.
    e.send("position startpos");
    let mut still: Vec<&str> = CLUSTER_ALGORITHMS.to_vec();
    for depth in 9..=11 {
        e.send(&format!("speedup algo {} threads 3 depth {depth} hash 32", still.join(",")));
        let lines = e.read_until(|l| l == "info string speedup done");
        still.retain(|algorithm| {
            let row = lines.iter().find(|l| l.contains(&format!("\"algorithm\":\"{algorithm}\""))).unwrap_or_else(|| panic!("no {algorithm} row at depth {depth}"));
            assert!(row.contains("\"threads\":3"), "{row}");
            let messages = |kind: &str| messages(row, kind);
            let (given, asked_for) = if *algorithm == "tdsab" { (messages("tt-request"), messages("tt-answer")) } else { (messages("work"), messages("work-request")) };
            given == 0 || asked_for == 0
        });
        if still.is_empty() {
            break;
        }
    }
    assert!(still.is_empty(), "no work travelled between ranks up to depth 11 with {still:?}");
    e.send("speedup algo ybwc threads 2 depth 3");
    let lines = e.read_until(|l| l.starts_with("info string "));
    assert!(lines.last().unwrap().starts_with("info string error: speedup: threads"), "{lines:?}");
    e.quit(QUIT_WITHIN);
}

/// The process id of rank `rank` among mpirun's children (OpenMPI tells each its rank
/// in its environment).
fn pid_of_rank(mpirun: u32, rank: usize) -> Option<u32> {
    let parent = |pid: u32| -> Option<u32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // pid (comm) state ppid ...: comm may hold spaces, so count from its ')'.
        stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()
    };
    let has_rank = |pid: u32| std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == format!("OMPI_COMM_WORLD_RANK={rank}").as_bytes()));
    std::fs::read_dir("/proc").ok()?.filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok()).find(|&pid| parent(pid) == Some(mpirun) && has_rank(pid))
}

/// A rank killed during a search ends the job within seconds, with a message naming the
/// lost rank, and the client sees the engine exit: never a hang.
#[test]
fn a_killed_rank_ends_the_job_at_once_naming_it() {
    let _job = one_job_at_a_time();
    let mut e = start(3);
    e.handshake();
    e.send("position startpos");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 6 "));
    let victim = pid_of_rank(e.child.id(), 2).expect("rank 2 is a child of mpirun");
    let killed = Instant::now();
    Command::new("kill").args(["-KILL", &victim.to_string()]).status().expect("kill runs");
    let status = e.wait(Duration::from_secs(10));
    assert!(killed.elapsed() < Duration::from_secs(10));
    assert!(!status.success(), "mpirun said success after losing a rank");
    // Rank 0's output ends (the client sees the engine exit).
    while let Ok(line) = e.lines.recv_timeout(Duration::from_secs(5)) {
        assert!(!line.starts_with("bestmove") || parse_uci(&Board::default(), bestmove(&line)).is_ok(), "{line}");
    }
    let stderr = e.stderr();
    assert!(stderr.iter().any(|l| l.contains("rank 2") && l.contains("signal 9")), "the lost rank is not named: {stderr:?}");
}

/// A rank that stops answering (stopped, not dead: MPI sees nothing wrong, so rank 0 can
/// go on) cannot hang the engine either: after `stop`, rank 0 waits a bounded time for
/// it, answers an error naming it and a legal move, and ends the job.
#[test]
fn a_silent_rank_gets_an_error_and_a_legal_move_then_the_end() {
    let _job = one_job_at_a_time();
    let mut e = start(3);
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 6 "));
    let silent = pid_of_rank(e.child.id(), 2).expect("rank 2 is a child of mpirun");
    Command::new("kill").args(["-STOP", &silent.to_string()]).status().expect("kill runs");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let error = &lines[lines.len() - 2];
    assert!(error.starts_with("info string error: rank 2 did not finish its search"), "{lines:?}");
    let mut game = Game::default();
    game.play_uci_moves(["d2d4"]).unwrap();
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "{lines:?}");
    let status = e.wait(Duration::from_secs(30));
    assert!(!status.success(), "mpirun said success with a silent rank");
}

/// Many short searches one after another, each answered before the next: none is lost.
/// (A rank may start a search, and send to another, before that one has heard rank 0's
/// START: such a message must wait for it, not be dropped as a late one.)
#[test]
fn many_short_searches_one_after_another_are_each_answered() {
    let _job = one_job_at_a_time();
    let mut e = start(4);
    for (algorithm, depth) in [("tdsab", 4), ("ybwc", 6)] {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        for search in 0..60 {
            e.send(&format!("position startpos moves {}", ["e2e4", "d2d4", "g1f3"][search % 3]));
            e.send(&format!("go depth {depth}"));
            e.read_until(|l| l.starts_with("bestmove"));
        }
    }
    e.quit(QUIT_WITHIN);
}

/// `mpirun -np 2 meshmate-cluster speedup …` measures as `meshmate speedup` does (a row
/// per search, totals with SO, LD and messages, the rows as JSON), every parallel search
/// on both ranks, here with the distributed table; what the cluster cannot run is refused
/// with exit code 2.
#[test]
fn speedup_runs_under_mpirun_as_on_threads() {
    let _job = one_job_at_a_time();
    let (dir, suite) = common::bratko_kopec_file("cluster-speedup", "bk2.epd", 2);
    let json = dir.join("rows.json");
    let run = |extra: &[&str]| {
        Command::new("mpirun")
            .args(["--oversubscribe", "--allow-run-as-root", "-np", "2", env!("CARGO_BIN_EXE_meshmate-cluster"), "speedup", "--algo", "ybwc", "--depth", "5", "--hash", "4", "--suite"])
            .arg(&suite)
            .args(extra)
            .output()
            .expect("mpirun starts")
    };
    let out = run(&["--tt", "distributed", "--json", json.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("round  pos algo"), "{stdout}");
    for position in ["1", "2"] {
        assert!(stdout.lines().any(|l| l.split_whitespace().take(4).eq(["1", position, "ybwc", "2"])), "no ybwc row at 2 ranks for position {position}: {stdout}");
    }
    let totals = stdout.lines().find(|l| l.trim_start().starts_with("ybwc     p=2")).unwrap_or_else(|| panic!("no totals: {stdout}"));
    assert!(totals.contains(" SO ") && totals.contains(" LD "), "{totals}");
    let messages = stdout.lines().find(|l| l.trim_start().starts_with("messages:")).unwrap_or_else(|| panic!("no messages: {stdout}"));
    assert!(messages.contains("work ") && messages.contains("tt-request "), "{messages}");
    let rows: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(rows.as_array().map(Vec::len), Some(4), "{rows}");
    assert!(rows[1]["threads"] == 2 && rows[1]["messages"]["tt-answer"].as_u64() > Some(0), "{rows}");

    let refused = run(&["--threads", "3"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("error: --threads 3: a parallel search on the cluster uses all 2 ranks"), "{refused:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// APHID over MPI: in pure mode the serial value at 2 and 4 ranks, and in a `speedup` run
/// rank 1 is handed leaves (WORK) and reports their values (RESULT).
#[test]
fn aphid_gives_the_serial_value_over_mpi_and_its_slaves_report_leaves() {
    let _job = one_job_at_a_time();
    let positions: Vec<(Board, Vec<&str>)> = positions().into_iter().step_by(2).collect();
    let expected: Vec<String> = positions.iter().map(|(board, moves)| serial_score(board, moves, PURE_DEPTH)).collect();
    for ranks in [2, 4] {
        let mut e = start(ranks);
        e.handshake();
        e.send("setoption name Pure value true");
        check_pure_values(&mut e, &["aphid"], &positions, &expected, ranks, "local");
        e.quit(QUIT_WITHIN);
    }
    let (dir, suite) = common::bratko_kopec_file("cluster-aphid", "bk2.epd", 2);
    let json = dir.join("rows.json");
    let out = Command::new("mpirun")
        .args(["--oversubscribe", "--allow-run-as-root", "-np", "2", env!("CARGO_BIN_EXE_meshmate-cluster"), "speedup", "--algo", "aphid", "--depth", "5", "--hash", "4", "--suite"])
        .arg(&suite)
        .args(["--json", json.to_str().unwrap()])
        .output()
        .expect("mpirun starts");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let rows: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let parallel: Vec<&serde_json::Value> = rows.as_array().unwrap().iter().filter(|r| r["threads"] == 2).collect();
    assert_eq!(parallel.len(), 2, "{rows}");
    for row in parallel {
        assert!(row["messages"]["work"].as_u64() > Some(0) && row["messages"]["result"].as_u64() > Some(0), "{row}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
