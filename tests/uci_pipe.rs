//! The native binary over real pipes, as a GUI drives it.
mod common;

use common::uci::{bestmove, UciProcess as Engine, STOP_WITHIN};
use meshmate::chess::{parse_uci, Game};
use std::process::Command;
use std::time::{Duration, Instant};

/// Generous: the machines are shared and slow; a hang still fails the test.
const PATIENCE: Duration = Duration::from_secs(60);

/// Every value of the `Algorithm` option.
const ALGORITHMS: [&str; 9] = ["serial", "pvsplit", "ybwc", "jamboree", "dts", "tdsab", "aphid", "lazysmp", "abdada"];

/// The engine, started as a GUI starts it.
fn start() -> Engine {
    Engine::start(&mut Command::new(env!("CARGO_BIN_EXE_meshmate")), PATIENCE)
}

/// How long `quit` may take.
const QUIT_WITHIN: Duration = Duration::from_secs(20);

#[test]
fn handshake_and_a_search() {
    let mut e = start();
    let lines = e.handshake();
    assert!(lines[0].starts_with("id name meshmate"));
    for option in ["Hash", "Threads", "MultiPV", "Clear Hash", "Ponder", "Move Overhead", "UCI_LimitStrength", "UCI_Elo", "Pure", "Algorithm", "Eval"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {option} type"))), "option {option} missing");
    }
    assert!(lines.iter().any(|l| l.starts_with("option name Eval type combo default nnue")), "the network is the default evaluation: {lines:?}");
    e.sync();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let info = lines.iter().rev().find(|l| l.starts_with("info depth 6 ")).expect("a depth 6 report");
    for field in [" seldepth ", " multipv 1 ", " score ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
        assert!(info.contains(field), "{info} lacks{field}");
    }
    let mut game = Game::default();
    game.play_uci_moves(["e2e4", "e7e5", "g1f3"]).unwrap();
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "{lines:?}");
    e.quit(QUIT_WITHIN);
}

#[test]
fn every_algorithm_answers_over_uci_with_several_threads() {
    let mut e = start();
    let lines = e.handshake();
    let combo = lines.iter().find(|l| l.starts_with("option name Algorithm")).unwrap().clone();
    let algorithms: Vec<&str> = combo.split(" var ").skip(1).collect();
    for name in ALGORITHMS {
        assert!(algorithms.contains(&name), "{name} missing from {combo}");
    }
    e.send("setoption name Threads value 3");
    for algorithm in algorithms {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.send("position startpos moves d2d4 d7d5 c2c4");
        e.send("go depth 7");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        let mut game = Game::default();
        game.play_uci_moves(["d2d4", "d7d5", "c2c4"]).unwrap();
        assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok(), "{algorithm}: {lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 7 ")), "{algorithm}: {lines:?}");
        // MultiPV works the same: three lines, each with its own first move.
        e.send("setoption name MultiPV value 3");
        e.send("go depth 6");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        let firsts: std::collections::HashSet<&str> = lines
            .iter()
            .filter(|l| l.starts_with("info depth 6 ") && l.contains(" multipv "))
            .filter_map(|l| l.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next()))
            .collect();
        assert_eq!(firsts.len(), 3, "{algorithm}: {lines:?}");
        e.send("setoption name MultiPV value 1");
    }
    e.quit(QUIT_WITHIN);
}

#[test]
fn stop_ends_an_infinite_search_promptly_and_isready_answers_during_it() {
    let mut e = start();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    e.sync();
    assert!(asked.elapsed() < Duration::from_secs(5), "isready waited for the search");
    let stopped = Instant::now();
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(stopped.elapsed() < STOP_WITHIN, "stop took {:?}", stopped.elapsed());
    let board = meshmate::chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    assert!(parse_uci(&board, bestmove(lines.last().unwrap())).is_ok());
    e.quit(QUIT_WITHIN);
}

/// The engine's threads (their ids), as the kernel lists them.
#[cfg(target_os = "linux")]
fn threads_of(engine: &Engine) -> std::collections::BTreeSet<u32> {
    std::fs::read_dir(format!("/proc/{}/task", engine.child.id())).expect("the engine's threads are listed").filter_map(|t| t.ok()?.file_name().to_str()?.parse().ok()).collect()
}

/// Searches run on threads the engine keeps: two searches with the same `Threads` run on the
/// same threads (none started for a `go`), and `setoption Threads` changes their number.
#[test]
#[cfg(target_os = "linux")]
fn searches_run_on_threads_kept_between_them_and_threads_resizes_them() {
    let mut e = start();
    e.handshake();
    e.send("position startpos");
    // The engine's threads during a search, once they are `count` (a pool left behind by
    // `setoption Threads` takes a moment to end).
    let during_a_search = |e: &mut Engine, count: Option<usize>| {
        e.send("go infinite");
        e.read_until(|l| l.starts_with("info depth"));
        let deadline = Instant::now() + PATIENCE;
        let mut threads = threads_of(e);
        while count.is_some_and(|n| threads.len() != n) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
            threads = threads_of(e);
        }
        e.send("stop");
        e.read_until(|l| l.starts_with("bestmove"));
        threads
    };
    for algorithm in ["ybwc", "lazysmp", "tdsab"] {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.send("setoption name Threads value 2");
        e.sync();
        let first = during_a_search(&mut e, None);
        let second = during_a_search(&mut e, None);
        assert_eq!(first, second, "{algorithm}: the second search ran on other threads");
        e.send("setoption name Threads value 4");
        e.sync();
        let four = during_a_search(&mut e, Some(first.len() + 2));
        assert_eq!(four.len(), first.len() + 2, "{algorithm}: Threads 4 after 2");
        e.send("setoption name Threads value 2");
        e.sync();
        assert_eq!(during_a_search(&mut e, Some(first.len())).len(), first.len(), "{algorithm}: Threads 2 after 4");
    }
    e.quit(QUIT_WITHIN);
}

/// Time limits with every algorithm on two threads: `movetime` is used and kept, and on a
/// clock the engine answers long before it would lose on time.
#[test]
fn every_algorithm_keeps_to_movetime_and_to_the_clock() {
    let mut e = start();
    e.send("setoption name Threads value 2");
    e.send("position startpos moves d2d4");
    for algorithm in ALGORITHMS {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.sync();
        let asked = Instant::now();
        e.send("go movetime 300");
        e.read_until(|l| l.starts_with("bestmove"));
        let took = asked.elapsed();
        assert!(took >= Duration::from_millis(100) && took < Duration::from_millis(1500), "{algorithm}: movetime 300 took {took:?}");
        e.sync();
        let asked = Instant::now();
        e.send("go wtime 3000 btime 3000 winc 100 binc 100");
        e.read_until(|l| l.starts_with("bestmove"));
        assert!(asked.elapsed() < Duration::from_secs(3), "{algorithm}: {:?} on a 3 s clock", asked.elapsed());
    }
    e.quit(QUIT_WITHIN);
}

/// `go ponder` as a GUI uses it, with every algorithm on two threads: no `bestmove` while
/// pondering, not even when the search has reached its depth; `ponderhit` turns a timed
/// ponder search into a normal one that answers before its clock runs out; `stop` ends a
/// ponder search at once.
#[test]
fn ponder_waits_for_ponderhit_or_stop_with_every_algorithm() {
    let mut e = start();
    e.send("setoption name Threads value 2");
    let mut game = Game::default();
    game.play_uci_moves(["e2e4", "e7e5", "g1f3"]).unwrap();
    let legal = |lines: &[String], what: &str| {
        let line = lines.last().unwrap();
        assert!(parse_uci(game.board(), bestmove(line)).is_ok(), "{what}: {line}");
    };
    for algorithm in ALGORITHMS {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.send("position startpos moves e2e4 e7e5 g1f3");
        // Depth 4 is reached in milliseconds, yet the answer waits for the GUI.
        e.send("go ponder depth 4");
        let quiet = e.lines_for(Duration::from_millis(700));
        assert!(quiet.iter().all(|l| !l.starts_with("bestmove")), "{algorithm}: answered while pondering: {quiet:?}");
        e.send("ponderhit");
        legal(&e.read_until(|l| l.starts_with("bestmove")), algorithm);
        // A clock of 5 s for Black: pondering takes none of it; after ponderhit it answers in time.
        e.send("go ponder wtime 5000 btime 5000");
        let quiet = e.lines_for(Duration::from_millis(700));
        assert!(quiet.iter().all(|l| !l.starts_with("bestmove")), "{algorithm}: answered while pondering: {quiet:?}");
        let hit = Instant::now();
        e.send("ponderhit");
        legal(&e.read_until(|l| l.starts_with("bestmove")), algorithm);
        assert!(hit.elapsed() < Duration::from_secs(5), "{algorithm}: answered {:?} after ponderhit on a 5 s clock", hit.elapsed());
        // A ponder search the opponent's move refuted: `stop` ends it.
        e.send("go ponder wtime 60000 btime 60000");
        std::thread::sleep(Duration::from_millis(200));
        let stopped = Instant::now();
        e.send("stop");
        legal(&e.read_until(|l| l.starts_with("bestmove")), algorithm);
        assert!(stopped.elapsed() < STOP_WITHIN, "{algorithm}: stop took {:?}", stopped.elapsed());
    }
    e.quit(QUIT_WITHIN);
}

#[test]
fn every_kind_of_malformed_input_is_answered_and_survived() {
    let mut e = start();
    for bad in [
        "frobnicate",
        "position",
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "position startpos moves e2e5",
        "position startpos moves e2e4 e2e4",
        "position startpos junk",
        "setoption",
        "setoption name",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "setoption name Hash value 99999999",
        "setoption name MultiPV value 0",
        "setoption name Pure value maybe",
        "setoption name Algorithm value quantum",
        "bench 0",
        "speedup",
        "speedup algo ybwc threads 2",
        "speedup algo quantum threads 2 depth 4",
        "speedup algo ybwc threads 0 depth 4",
        "speedup algo ybwc threads 2 depth 4 hash",
        "speedup algo ybwc threads 2 depth 4 rounds 0",
        "speedup algo ybwc threads 2 depth 4 fens 8/8/8/8/8/8/8/8 w - - 0 1",
        "\u{1b}[A\u{0}\u{7f}garbage",
    ] {
        e.send(bad);
        let lines = e.read_until(|l| l.starts_with("info string error"));
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    // A malformed `go` is refused whole: no search starts (none runs until `stop`), and
    // a search already running goes on to its own end.
    e.send("position startpos moves e2e4");
    for bad in ["go wtime abc", "go depth -3", "go depth x movetime 200", "go nodes 0", "go searchmoves e2e4 depth 3"] {
        e.send(bad);
        let lines = e.read_until(|l| l.starts_with("info string error"));
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        e.send("isready");
        let lines = e.read_until(|l| l == "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("info depth") || l.starts_with("bestmove")), "{bad} started a search: {lines:?}");
    }
    e.send("go movetime 300");
    e.send("go depth -3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
    // The position from before the bad lines is still in force.
    let mut game = Game::default();
    game.play_uci_moves(["e2e4"]).unwrap();
    assert!(parse_uci(game.board(), bestmove(lines.last().unwrap())).is_ok());
    e.sync();
    e.quit(QUIT_WITHIN);
}

#[test]
fn a_burst_of_commands_ends_with_the_last_search_answered() {
    let mut e = start();
    let openings = ["e2e4", "d2d4", "g1f3", "c2c4", "e2e4 c7c5", "d2d4 g8f6 c2c4"];
    let mut burst = String::new();
    let rounds = 300;
    for i in 0..rounds {
        burst.push_str(&format!("position startpos moves {}\n", openings[i % openings.len()]));
        burst.push_str(if i % 3 == 0 { "go infinite\n" } else { "go depth 30\n" });
        if i % 2 == 0 {
            burst.push_str("stop\n");
        }
    }
    // The last position has one mating move; no earlier position has it as a legal move.
    burst.push_str("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 4\n");
    e.send_burst(&burst);
    let mut answers = 0;
    let last = loop {
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        answers += 1;
        if answers == rounds + 1 {
            break lines.last().unwrap().clone();
        }
    };
    assert_eq!(bestmove(&last), "d1d8");
    e.sync();
    e.quit(QUIT_WITHIN);
}

#[test]
fn speedup_measures_every_position_and_stops_on_request() {
    let mut e = start();
    let fens = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1; 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    e.send(&format!("speedup algo ybwc,lazysmp threads 2 depth 5 rounds 2 fens {fens}"));
    let lines = e.read_until(|l| l == "info string speedup done");
    let rows: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string speedup {")).collect();
    // Round after round, per position: the serial reference, then each algorithm at 2 threads.
    assert_eq!(rows.len(), 2 * 2 * 3, "{lines:?}");
    for (i, row) in rows.iter().enumerate() {
        assert!(row.contains(&format!("\"round\":{},\"position\":{}", i / 6 + 1, i / 3 % 2 + 1)), "{row}");
        assert!(row.contains("\"messages\":{"), "{row}");
        assert!(!row.contains("\"nodes\":0,"), "{row}");
    }
    assert!(rows[1].contains("\"algorithm\":\"ybwc\""), "{rows:?}");
    // A long measurement ends promptly at `stop`, the engine still answering.
    e.send("position startpos");
    e.send("speedup algo ybwc threads 2 depth 40");
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    e.send("stop");
    e.read_until(|l| l == "info string speedup done");
    assert!(stopped.elapsed() < STOP_WITHIN, "stop took {:?}", stopped.elapsed());
    e.sync();
    e.quit(QUIT_WITHIN);
}
