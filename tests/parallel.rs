//! The parallel algorithms on real threads: exact in pure mode, robust under `stop`.
mod common;

use meshmate::chess::{legal_moves, parse_epd_file, Board, Game};
use meshmate::machine::{Counters, Threads};
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::random::Random;
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchResult, SearchSettings, Searcher, Task};
use meshmate::tt::{Placement, Tables, TranspositionTable};
use std::sync::Arc;
use std::time::Duration;

fn positions() -> Vec<Board> {
    let mut boards = Vec::new();
    for (file, take) in [("bratko-kopec.epd", 24), ("crayblitz-1993.epd", 8), ("perft.epd", 6)] {
        let records = parse_epd_file(&common::shared_data(file)).unwrap();
        boards.extend(records.into_iter().take(take).map(|e| e.board));
    }
    boards
}

#[test]
fn every_algorithm_returns_the_serial_minimax_value_in_pure_mode() {
    let boards = positions();
    assert!(boards.len() >= 30);
    let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let algorithms: Vec<Algorithm> = Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Serial).collect();
    for (i, board) in boards.iter().enumerate() {
        assert_like_serial(board, &limits, &settings, &algorithms, 1..=4, |r| r.score, &format!("position {i}"));
    }
}

/// On one processor every algorithm is the serial search, node for node, with every
/// pruning on: ABDADA's processor never defers a move for a mark of its own, and the
/// others have nobody to give work to. Not Jamboree, whose searchers order moves by
/// StarTech's recursive iterative deepening (`search::StarTechRules`).
#[test]
fn on_one_thread_every_algorithm_searches_the_serial_tree() {
    // Deep enough that moves back into positions on the searcher's own path are met at
    // nodes that mark the busy table.
    let limits = Limits { depth: Some(12), ..Limits::default() };
    let algorithms: Vec<Algorithm> = Algorithm::ALL.into_iter().filter(|&a| !matches!(a, Algorithm::Serial | Algorithm::Tdsab | Algorithm::Aphid | Algorithm::Jamboree)).collect();
    let bratko_kopec = parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap();
    for (i, board) in bratko_kopec.iter().map(|e| &e.board).enumerate().step_by(3) {
        assert_like_serial(board, &limits, &SearchSettings::default(), &algorithms, 1..=1, |r| (r.score, r.nodes), &format!("position {i}"));
    }
}

/// Searches `board` serially, then with each of `algorithms` on each number of `threads`,
/// every search from an empty table and fresh heuristics, and asserts that `view` of
/// each result equals `view` of the serial one.
fn assert_like_serial<T: PartialEq + std::fmt::Debug>(
    board: &Board,
    limits: &Limits,
    settings: &SearchSettings,
    algorithms: &[Algorithm],
    threads: std::ops::RangeInclusive<usize>,
    view: impl Fn(&SearchResult) -> T,
    label: &str,
) {
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let counters = Counters::new(*threads.end());
    let mut searchers = Vec::new();
    // One machine for every search, as the engine keeps one: its pool resizes as the
    // thread counts change.
    let mut machine = Threads::default();
    let serial = search(&mut machine, &mut searchers, &tt, &SearchRequest { algorithm: Algorithm::Serial, threads: 1, task: Task { board, history: &[], limits, settings } }, &Control::default(), &mut NoReports, &counters);
    for &algorithm in algorithms {
        for threads in threads.clone() {
            tt.clear();
            for s in searchers.iter_mut() {
                s.clear_heuristics();
            }
            let result = search(&mut machine, &mut searchers, &tt, &SearchRequest { algorithm, threads, task: Task { board, history: &[], limits, settings } }, &Control::default(), &mut NoReports, &counters);
            assert_eq!(view(&result), view(&serial), "{label} {algorithm:?} with {threads} threads");
        }
    }
}

/// A uniform draw below `n` from the engine's own noise generator (seeded, so reproducible).
fn below(rng: &mut Random, n: u64) -> u64 {
    (rng.next_unit() * n as f64) as u64
}

#[test]
fn random_stops_always_give_a_legal_move_and_leave_no_processor_running() {
    let mut games: Vec<Game> = [
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",          // mate in one
        "7k/8/8/8/8/r7/1r6/7K w - - 0 1",                 // mated next move
        "k7/8/1Q6/8/8/8/8/7K w - - 0 1",                  // stalemate traps for White
        "k7/8/8/8/8/8/q7/2K5 w - - 99 90",                // the fifty-move rule about to strike
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]
    .iter()
    .map(|f| Game::from_fen(f).unwrap())
    .collect();
    // A repetition is one move away: the knights have danced out and back twice.
    let mut dance = Game::default();
    dance.play_uci_moves(["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]).unwrap();
    games.push(dance);
    let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
    let counters = Counters::new(4);
    let mut searchers = Vec::new();
    let mut rng = Random::new(0x9e37_79b9_7f4a_7c15, 0);
    // One machine, as the engine keeps one: its helper threads outlive each stopped search
    // and change in number with `threads`.
    let mut machine = Threads::default();
    for (algorithm, round) in Algorithm::ALL.into_iter().flat_map(|a| (0..200).map(move |r| (a, r))) {
        let game = &games[below(&mut rng, games.len() as u64) as usize];
        let (board, history) = (game.board(), game.history());
        let threads = 1 + below(&mut rng, 4) as usize;
        let stop_after = Duration::from_micros(below(&mut rng, 20_000));
        let control = Control::default();
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(stop_after);
                control.stop();
            });
            let limits = Limits { infinite: true, ..Limits::default() };
            search(&mut machine, &mut searchers, &tt, &SearchRequest { algorithm, threads, task: Task { board, history, limits: &limits, settings: &SearchSettings::default() } }, &control, &mut NoReports, &counters)
        });
        let legal = legal_moves(board);
        match result.best {
            Some(mv) => assert!(legal.contains(&mv), "{algorithm:?} round {round}: illegal {mv}"),
            None => assert!(legal.is_empty(), "{algorithm:?} round {round}: no move although there are legal ones"),
        }
        assert!(counters.snapshot().iter().all(|p| !p.working), "{algorithm:?} round {round}: a processor still runs after the search");
    }
}

/// In one memory, the processors of ABDADA and of the work-splitting algorithms walk one
/// tree and train one history table, processor 0's; a helper gets a table of its own back
/// for the next search of Lazy SMP, whose helpers keep ordering moves their own way, and
/// keeps its own when the processors do not share one table.
#[test]
fn one_tree_in_one_memory_shares_processor_0s_history_for_that_search_only() {
    let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
    let counters = Counters::new(3);
    let mut searchers = Vec::new();
    let board = Board::default();
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let run = |algorithm, tables: Tables, searchers: &mut Vec<_>| {
        search(&mut Threads::default(), searchers, tables, &SearchRequest { algorithm, threads: 3, task: Task { board: &board, history: &[], limits: &limits, settings: &SearchSettings::default() } }, &Control::default(), &mut NoReports, &counters);
    };
    let shared = || Tables::shared(tt.clone());
    let own_history = |searchers: &Vec<Searcher>| !searchers[1].shares_history_with(&searchers[0]) && !searchers[2].shares_history_with(&searchers[0]) && !searchers[2].shares_history_with(&searchers[1]);
    run(Algorithm::LazySmp, shared(), &mut searchers);
    assert!(own_history(&searchers));
    for sharing in [Algorithm::Abdada, Algorithm::Dts, Algorithm::Ybwc, Algorithm::Jamboree] {
        run(sharing, shared(), &mut searchers);
        assert!(searchers[1].shares_history_with(&searchers[0]) && searchers[2].shares_history_with(&searchers[0]), "{sharing:?}");
        run(sharing, shared(), &mut searchers);
        run(Algorithm::LazySmp, shared(), &mut searchers);
        assert!(own_history(&searchers), "LazySmp after {sharing:?}");
        run(sharing, Tables::new(Placement::Local, 4, 3).unwrap(), &mut searchers);
        assert!(own_history(&searchers), "{sharing:?} with a table per processor");
    }
}
