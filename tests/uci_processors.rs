//! Which processors a UCI `go` puts to work: `Threads` alone uses them all (the default
//! algorithm is parallel), and weakened play stays on one, as its levels were measured;
//! what watchers see of them while they search (the line each is on); and that the `info`
//! lines count the nodes of them all.

mod common;

use common::host::{engine_after, Collecting};
use meshmate::chess::Game;
use meshmate::uci::Event;
use std::time::{Duration, Instant};

/// Waits for `bestmove` and checks that nothing was refused.
fn await_bestmove(host: &Collecting) {
    host.await_bestmove();
    let errors: Vec<String> = host.lines().into_iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Runs `commands` on a fresh engine, waits for `bestmove`, and returns the nodes each of
/// the first `threads` processors searched.
fn nodes_per_processor(commands: &[&str], threads: usize) -> Vec<u64> {
    let (engine, host) = engine_after(commands);
    await_bestmove(&host);
    engine.processors().iter().take(threads).map(|p| p.nodes).collect()
}

#[test]
fn threads_alone_put_every_processor_to_work() {
    let nodes = nodes_per_processor(&["setoption name Threads value 2", "position startpos moves e2e4 c7c5", "go depth 10"], 2);
    assert!(nodes.iter().all(|&n| n > 1000), "nodes per processor {nodes:?}");
}

#[test]
fn weakened_play_searches_on_one_processor_whatever_the_threads() {
    let commands = ["setoption name Threads value 2", "setoption name Algorithm value lazysmp", "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2400", "position startpos moves e2e4 c7c5", "go depth 8"];
    let nodes = nodes_per_processor(&commands, 2);
    assert!(nodes[0] > 0 && nodes[1] == 0, "nodes per processor {nodes:?}");
}

#[test]
fn while_they_search_every_processor_shows_a_legal_line_from_the_root() {
    const MOVES: [&str; 2] = ["e2e4", "c7c5"];
    for algorithm in ["abdada", "lazysmp", "ybwc", "dts"] {
        let (mut engine, host) = engine_after(&["setoption name Threads value 2", &format!("setoption name Algorithm value {algorithm}"), "position startpos moves e2e4 c7c5", "go infinite"]);
        // Lines of two plies or more seen per processor, until each has shown a few.
        let mut seen = [0usize; 2];
        let start = Instant::now();
        while seen.iter().any(|&n| n < 3) {
            assert!(start.elapsed() < Duration::from_secs(30), "{algorithm}: lines seen per processor {seen:?}");
            for (id, p) in engine.processors().iter().take(2).enumerate() {
                let Some(line) = p.line else { continue };
                let moves: Vec<String> = line.moves().map(|m| m.to_string()).collect();
                let mut game = Game::default();
                let played = game.play_uci_moves(MOVES.iter().copied().chain(moves.iter().map(String::as_str)));
                assert!(played.is_ok(), "{algorithm}: processor {id} shows {moves:?}, not a line from the root");
                if moves.len() >= 2 {
                    seen[id] += 1;
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(engine.handle_line("stop"));
        await_bestmove(&host);
        let lines: Vec<_> = engine.processors().iter().take(2).map(|p| p.line).collect();
        assert_eq!(lines, [None, None], "{algorithm}: a finished search shows no line");
    }
}

#[test]
fn info_lines_count_the_nodes_of_every_processor() {
    for algorithm in ["pvsplit", "ybwc", "jamboree", "dts", "tdsab", "aphid", "lazysmp", "abdada"] {
        let commands = ["setoption name Threads value 2", &format!("setoption name Algorithm value {algorithm}"), "position startpos moves e2e4 c7c5 g1f3", "go depth 11"];
        let (engine, host) = engine_after(&commands);
        await_bestmove(&host);
        let reported = host.events().iter().rev().find_map(|e| match e { Event::Info { nodes: Some(n), .. } => Some(*n), _ => None }).expect("an info event with nodes");
        let nodes: Vec<u64> = engine.processors().iter().take(2).map(|p| p.nodes).collect();
        let (most, all) = (*nodes.iter().max().unwrap(), nodes.iter().sum::<u64>());
        assert!(reported > most && reported <= all, "{algorithm}: info says {reported} nodes, the processors {nodes:?}");
    }
}
