//! The native command line as a user meets it: help that names every option and value,
//! usage errors that say what to fix and exit with 2, the old spellings still working.

use meshmate::eval::nnue::records::{decode, RECORD_BYTES};
use meshmate::machine::sim::presets::PRESETS;
use meshmate::net::Kind;
use meshmate::parallel::Algorithm;
use meshmate::tt::Placement;
use std::process::Command;

mod common;

/// Runs the binary: exit code, stdout, stderr.
fn meshmate(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn help_lists_every_command_and_exits_zero() {
    for help in [&["--help"][..], &["help"], &["-h"]] {
        let (code, out, _) = meshmate(help);
        assert_eq!(code, Some(0), "{help:?}");
        for command in ["uci", "bench", "perft", "suite", "speedup", "sim", "reproduce", "train-nnue", "datagen"] {
            assert!(out.contains(&format!("  {command} ")), "{command} in {out}");
        }
    }
}

#[test]
fn each_command_explains_its_options_and_lists_the_allowed_values() {
    let options: [(&str, &[&str]); 5] = [
        ("bench", &["DEPTH"]),
        ("perft", &["DEPTH", "FEN", "--suite", "--max-depth"]),
        ("suite", &["FILE", "--movetime", "--depth", "--hash"]),
        ("speedup", &["--algo", "--threads", "--suite", "--depth", "--hash", "--rounds", "--tt", "--csv", "--json"]),
        ("sim", &["--algo", "--procs", "--preset", "--suite", "--depth", "--net", "--tt", "--seed", "--hash", "--pure", "--trace", "--json", "--bench", "--signature"]),
    ];
    for (command, names) in options {
        let (code, out, err) = meshmate(&[command, "--help"]);
        assert_eq!(code, Some(0), "{command} --help: {err}");
        for name in names {
            assert!(out.contains(name), "{command} --help names {name}: {out}");
        }
    }
    let (_, sim, _) = meshmate(&["sim", "--help"]);
    for algorithm in Algorithm::ALL.into_iter().chain(Algorithm::VARIANTS) {
        assert!(sim.contains(&format!("- {}:", algorithm.name())), "{}", algorithm.name());
    }
    for preset in PRESETS {
        assert!(sim.contains(&format!("- {}:", preset.name)) && sim.contains(preset.title), "{}", preset.name);
    }
    for kind in Kind::ALL {
        assert!(sim.contains(&format!("- {}:", kind.name())), "{}", kind.name());
    }
    for placement in Placement::ALL {
        assert!(sim.contains(&format!("- {}:", placement.name())), "{}", placement.name());
    }
}

#[test]
fn usage_errors_say_what_to_fix_and_exit_with_two() {
    let suite = "no-such-file.epd";
    let cases: [(&[&str], &str); 9] = [
        (&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "vax", "--suite", suite, "--depth", "3"], "expected one of t800, cm5, c916, p3-ethernet, lan, multicore, browser, classroom, classroom-10ms, classroom-50ms, ideal"),
        (&["sim", "--algo", "ybwc", "--proc", "4", "--preset", "t800", "--suite", suite, "--depth", "3"], "a similar argument exists: '--procs'"),
        (&["sim", "--algo", "ybwx", "--procs", "4", "--preset", "t800", "--suite", suite, "--depth", "3"], "unknown algorithm 'ybwx': expected one of serial, pvsplit"),
        (&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "t800", "--net", "torus", "--suite", suite, "--depth", "3"], "unknown network"),
        (&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "t800", "--suite", suite], "--depth <D>"),
        (&["speedup", "--algo", "abdada", "--threads", "0", "--suite", suite, "--depth", "3"], "'--threads <P[,Q...]>'"),
        (&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "classroom", "--suite", suite, "--depth", "3", "--depart", "2@soon"], "give a departure as P@MS or P@MS:silent"),
        (&["perft"], "<DEPTH>"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
    ];
    for (args, says) in cases {
        let (code, _, err) = meshmate(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} says {says:?}: {err}");
    }
    let (code, _, err) = meshmate(&["suite", suite]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read 'no-such-file.epd'"), "{err}");
}

/// `sim --depart`: students leave the classroom machine's runs; the run still ends, a
/// silent one costing the relay's wait for its beats; machines that notice no loss, and a
/// processor on none of the machines, are refused.
#[test]
fn sim_departures_slow_the_classroom_run_and_are_refused_where_they_cannot_happen() {
    let (dir, suite) = common::bratko_kopec_file("depart", "two.epd", 2);
    // Per position: (score, virtual time).
    let run = |extra: &[&str]| -> Vec<(i64, u64)> {
        // The papers' split: jobs sized to the round trip would keep a 4-ply search on
        // processor 0, and the silent member must hold work.
        let mut args = vec!["sim", "--algo", "ybwc", "--procs", "4", "--preset", "classroom", "--papers-split", "--suite", suite.to_str().unwrap(), "--depth", "4", "--pure", "--json"];
        args.extend_from_slice(extra);
        let (code, out, err) = meshmate(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        json["rows"].as_array().unwrap().iter().map(|r| (r["score"].as_i64().unwrap(), r["time_ns"].as_u64().unwrap())).collect()
    };
    // Processor 3 falls silent 3 ms in, holding work (its task reached it after a one-way
    // trip through the relay, 1.3 ms; virtual time: the same every run).
    let (stay, silent) = (run(&[]), run(&["--depart", "3@3:silent"]));
    assert_eq!(stay.len(), 2);
    for (stay, silent) in stay.iter().zip(&silent) {
        assert_eq!(silent.0, stay.0, "pure mode: the value with a member gone is the one without");
        // Its work waits until the relay hears it lost, after the preset's 10.1 s.
        assert!(silent.1 > stay.1 + 10_000_000_000, "{stay:?} {silent:?}");
    }
    let (code, _, err) = meshmate(&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "t800", "--suite", suite.to_str().unwrap(), "--depth", "3", "--depart", "2@1"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("do not leave"), "{err}");
    let (code, _, err) = meshmate(&["sim", "--algo", "ybwc", "--procs", "4", "--preset", "classroom", "--suite", suite.to_str().unwrap(), "--depth", "3", "--depart", "4@1"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("processor 4 is on none of the machines"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_takes_a_fen_in_words_or_in_one_argument() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut words = vec!["perft", "2"];
    words.extend(kiwipete.split(' '));
    for args in [words, vec!["perft", "2", kiwipete]] {
        let (code, out, err) = meshmate(&args);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with("perft 2: 2039 nodes"), "{out}");
    }
    let (_, out, _) = meshmate(&["perft", "3"]);
    assert!(out.starts_with("perft 3: 8902 nodes"), "the start position: {out}");
    let (code, _, err) = meshmate(&["perft", "2", "not", "a", "fen"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad FEN"), "{err}");
}

#[test]
fn speedup_writes_the_same_rows_as_json_and_csv() {
    let (dir, suite) = common::bratko_kopec_file("cli-rows", "two.epd", 2);
    let (json, csv) = (dir.join("rows.json"), dir.join("rows.csv"));
    let (code, _, err) = meshmate(&["speedup", "--algo", "abdada", "--threads", "2", "--suite", suite.to_str().unwrap(), "--depth", "4", "--json", json.to_str().unwrap(), "--csv", csv.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..13], ["round", "position", "algorithm", "threads", "ms", "serial_ms", "nodes", "speedup", "search_overhead", "load", "idle_ms", "splits", "aborted_nodes"]);
    assert!(header.contains(&"msg_work_request") && header.contains(&"msg_tt_put"), "{header:?}");
    assert_eq!(rows.len(), 4, "serial and abdada on two positions");
    for (row, line) in rows.iter().zip(lines) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        for (name, cell) in header.iter().zip(&cells) {
            let value = match name.strip_prefix("msg_") {
                Some(kind) => row["messages"][kind.replace('_', "-")].clone(),
                None => row[*name].clone(),
            };
            let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
            assert_eq!(&text, cell, "{name} of {row}");
        }
    }
    assert_eq!(rows[1]["algorithm"], "abdada");
    assert_eq!((rows[1]["round"].as_u64(), rows[1]["position"].as_u64()), (Some(1), Some(1)), "counted from 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Progress goes to a terminal only: piped, `sim` prints its table and nothing else; on a
/// terminal (a pseudo-terminal from util-linux's `script`) a bar counts the searches.
#[test]
fn progress_shows_on_a_terminal_and_never_in_a_pipe() {
    let (dir, suite) = common::bratko_kopec_file("cli-progress", "two.epd", 2);
    let args = ["sim", "--algo", "ybwc", "--procs", "2,4", "--preset", "t800", "--suite", suite.to_str().unwrap(), "--depth", "3"];
    let (code, out, err) = meshmate(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "nothing on stderr in a pipe: {err:?}");
    assert!(!out.contains('\r') && !out.contains('\u{1b}') && !out.contains("searches"), "no bar in the table: {out}");
    let command = std::iter::once(env!("CARGO_BIN_EXE_meshmate")).chain(args).collect::<Vec<_>>().join(" ");
    let typescript = dir.join("typescript");
    let terminal = Command::new("script").args(["-qec", &command, typescript.to_str().unwrap()]).stdin(std::process::Stdio::null()).output().expect("util-linux's script runs");
    assert!(terminal.status.success(), "{}", String::from_utf8_lossy(&terminal.stderr));
    let screen = String::from_utf8_lossy(&terminal.stdout);
    assert!(screen.contains("/6 searches"), "two positions × (serial + ybwc on 2 and on 4): {screen}");
    assert!(screen.contains("totals over 2 positions"), "{screen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader that stops early (`meshmate bench | head -1`) ends the command quietly: exit
/// code 0 and nothing on standard error, not a panic on the broken pipe.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let perft_suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/perft.epd");
    for args in [&["bench"][..], &["perft", "--suite", perft_suite, "--max-depth", "5"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshmate")).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // The reader is gone: the lines still to come meet a closed pipe.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.as_ref()), (Some(0), ""), "{args:?} after its first line {first:?}");
    }
}

#[test]
fn train_nnue_reads_several_files_as_one_and_names_a_missing_one() {
    let dir = std::env::temp_dir().join(format!("meshmate-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = |moves: &[&str]| -> String {
        let mut board = meshmate::chess::parse_fen(meshmate::chess::START_FEN).unwrap();
        let mut text = String::from("# a few positions\n");
        for (i, text_move) in moves.iter().enumerate() {
            board.play(meshmate::chess::parse_uci(&board, text_move).unwrap());
            text += &format!("{};1/2-1/2;{}\n", board, 10 * i as i32 - 20);
        }
        text
    };
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    std::fs::write(&first, lines(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1"])).unwrap();
    std::fs::write(&second, lines(&["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3"])).unwrap();
    let out = dir.join("net.nnue");
    let (code, said, err) = meshmate(&["train-nnue", first.to_str().unwrap(), second.to_str().unwrap(), "--out", out.to_str().unwrap(), "--epochs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(said.contains("22 positions"), "both files' positions: {said}");
    assert!(meshmate::eval::nnue::file::decode(&std::fs::read(&out).unwrap()).is_ok());
    let missing = dir.join("missing.txt");
    let (code, _, err) = meshmate(&["train-nnue", first.to_str().unwrap(), missing.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("missing.txt"), "names the file: {err}");
    // Going on from the written network at rate 0: epoch 0 is that network, no epoch does
    // better, so the same bytes are written again (a misread or misplaced weight would not be).
    let again = dir.join("again.nnue");
    let (code, _, err) = meshmate(&["train-nnue", first.to_str().unwrap(), second.to_str().unwrap(), "--init", out.to_str().unwrap(), "--out", again.to_str().unwrap(), "--epochs", "1", "--rate", "0"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::read(&again).unwrap() == std::fs::read(&out).unwrap(), "the network went on from is written back unchanged");
    for (init, says) in [(&missing, "missing.txt"), (&first, "no MMNN header")] {
        let (code, _, err) = meshmate(&["train-nnue", first.to_str().unwrap(), second.to_str().unwrap(), "--init", init.to_str().unwrap(), "--out", again.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--init") && err.contains(says), "{init:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "relay")]
#[test]
fn relay_explains_its_options_and_refuses_bad_values() {
    let (_, help, _) = meshmate(&["--help"]);
    assert!(help.contains("  relay "), "{help}");
    let (code, out, err) = meshmate(&["relay", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    for name in ["--listen", "--delay-ms", "--lost-after-ms", "--max-frame", "--max-rate", "--owner-max-rate", "--trace-dir", "--max-sessions", "--max-members", "--lecturer-token-file", "--allow-origin", "--max-connections", "--max-unjoined", "--max-queued-mib", "--owner-grace-ms", "ws://HOST:PORT/class", "lecturer token TOKEN"] {
        assert!(out.contains(name), "relay --help names {name}: {out}");
    }
    let dir = std::env::temp_dir().join(format!("meshmate-cli-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short");
    std::fs::write(&short, "secret\n").unwrap();
    let spaced = dir.join("spaced");
    std::fs::write(&spaced, "a token with spaces in it\n").unwrap();
    let missing = dir.join("missing");
    let (short, spaced, missing) = (short.to_str().unwrap(), spaced.to_str().unwrap(), missing.to_str().unwrap());
    let cases: [(&[&str], &str); 9] = [
        (&["relay", "--lecturer-token-file", short], "a token is at least 16 letters"),
        (&["relay", "--lecturer-token-file", spaced], "a token is at least 16 letters"),
        (&["relay", "--lecturer-token-file", missing], "--lecturer-token-file"),
        (&["relay", "--max-unjoined", "0"], "0 is not in 1..=1000000"),
        (&["relay", "--listen", "nowhere"], "invalid socket address"),
        (&["relay", "--max-rate", "0"], "0 is not in 1..=1000000"),
        (&["relay", "--max-members", "257"], "257 is not in 1..=256"),
        (&["relay", "--delay-ms", "soon"], "invalid digit"),
        (&["relay", "--max-member", "4"], "a similar argument exists: '--max-members'"),
    ];
    for (args, says) in cases {
        let (code, _, err) = meshmate(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} says {says:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `datagen`: whole records of real games, the same bytes whatever the threads (each game
/// is seeded by its number and written in its number's order, so the games that finish
/// first on more threads do not come first), a line per run in runs.log, a second run
/// appending, and `train-nnue` reading the records. Bad values are refused before anything
/// is played.
#[test]
fn datagen_appends_the_same_bytes_on_any_number_of_threads_and_train_nnue_reads_them() {
    let dir = std::env::temp_dir().join(format!("meshmate-datagen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut runs = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = dir.join(format!("on-{threads}"));
        let (code, said, err) = meshmate(&["datagen", "--out", out.to_str().unwrap(), "--games", "6", "--nodes", "800", "--threads", threads, "--seed", "4"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(said.contains("seed 4: 6 games,"), "{said}");
        runs.push(std::fs::read(out.join("datagen-4.bin")).unwrap());
        assert!(std::fs::read_to_string(out.join("runs.log")).unwrap().contains(&format!("6 games, {} positions", runs.last().unwrap().len() / RECORD_BYTES)));
    }
    assert!(runs[0].len() >= RECORD_BYTES * 30, "six games give some quiet positions: {} bytes", runs[0].len());
    assert_eq!(runs[0].len() % RECORD_BYTES, 0, "whole records only");
    assert!(runs[1..].iter().all(|run| *run == runs[0]), "the same bytes on one, two and three threads");
    for record in runs[0].chunks(RECORD_BYTES) {
        let (board, score, _) = decode(record.try_into().unwrap()).unwrap();
        assert!(board.checkers().is_empty() && score.abs() < 20_000, "a quiet position with a score: {board} {score}");
    }
    let file = dir.join("on-1").join("datagen-4.bin");
    let net = dir.join("net.nnue");
    let (code, said, err) = meshmate(&["train-nnue", file.to_str().unwrap(), "--out", net.to_str().unwrap(), "--epochs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(said.contains(&format!("{} positions", runs[0].len() / RECORD_BYTES)), "{said}");
    let (code, _, err) = meshmate(&["datagen", "--out", dir.join("on-1").to_str().unwrap(), "--games", "2", "--nodes", "500", "--seed", "4"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("on-1").join("runs.log")).unwrap().lines().count(), 2, "a line per run");
    assert!(std::fs::read(&file).unwrap().len() > runs[0].len(), "a second run appends");
    for (args, says) in [(&["datagen", "--games", "3"][..], "--out"), (&["datagen", "--out", "x", "--games", "0"], "0 is not in 1"), (&["datagen", "--out", "x", "--eval", "clever"], "clever")] {
        let (code, _, err) = meshmate(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
