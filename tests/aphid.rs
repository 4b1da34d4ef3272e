//! APHID (crate/parallel/aphid): in Pure mode the value is the serial one at 2 and 4
//! processors, on the simulator and on real threads, and the helpers searched leaves
//! (their node counts are above zero). Losses, other machines and the stops every
//! algorithm must obey are checked beside the others' (tests/sim_churn.rs, tests/sim.rs,
//! tests/parallel.rs).
mod common;

use meshmate::chess::{parse_epd_file, Game};
use meshmate::machine::sim::{presets, Sim};
use meshmate::machine::{Counters, Machine, Threads};
use meshmate::net::Kind;
use meshmate::parallel::{search, Algorithm, SearchRequest};
use meshmate::search::{Control, Limits, NoReports, SearchOptions, SearchResult, SearchSettings, Task};
use meshmate::tt::{Placement, Tables};

fn pure() -> SearchSettings {
    SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() }
}

/// Searches `game`'s position to `depth` with `algorithm` on `processors` of `machine`,
/// each processor with a table of its own (APHID shares none): the result and each
/// processor's node count.
fn run(machine: &mut impl Machine, algorithm: Algorithm, processors: usize, game: &Game, depth: i32) -> (SearchResult, Vec<u64>) {
    let counters = Counters::new(processors);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let tables = Tables::new(Placement::Local, 4 * processors, processors).unwrap();
    let task = Task { board: game.board(), history: game.history(), limits: &limits, settings: &pure() };
    let result = search(machine, &mut Vec::new(), tables, &SearchRequest { algorithm, threads: processors, task }, &Control::default(), &mut NoReports, &counters);
    (result, counters.snapshot().iter().map(|p| p.nodes).collect())
}

/// Bratko-Kopec and perft positions, and games a move from a repetition. In the last
/// White, lost on material, draws only by moving its king back where it stood two moves
/// ago: the repetition lies one ply below the root, inside the master's shallow tree,
/// which must see it with the game's history as the serial searcher does.
fn games() -> Vec<Game> {
    let mut games: Vec<Game> = Vec::new();
    for (file, take) in [("bratko-kopec.epd", 4), ("perft.epd", 3)] {
        let records = parse_epd_file(&common::shared_data(file)).unwrap();
        games.extend(records.into_iter().take(take).map(|e| Game::from_fen(&e.board.to_string()).unwrap()));
    }
    let mut dance = Game::default();
    dance.play_uci_moves(["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]).unwrap();
    games.push(dance);
    let mut chase = Game::from_fen("6k1/6p1/8/8/8/8/q5PP/5Q1K w - - 10 40").unwrap();
    chase.play_uci_moves(["f1f8", "g8h7", "f8f5", "h7g8"]).unwrap();
    games.push(chase);
    let mut escape = Game::from_fen("k7/r7/q7/8/8/8/7P/7K w - - 0 1").unwrap();
    escape.play_uci_moves(["h1g1", "a8b8", "g1h1", "b8a8"]).unwrap();
    games.push(escape);
    games
}

#[test]
fn pure_aphid_returns_the_serial_value_and_its_helpers_search_leaves() {
    for (i, game) in games().iter().enumerate() {
        for depth in [3, 5] {
            let (serial, _) = run(&mut Threads::default(), Algorithm::Serial, 1, game, depth);
            for processors in [2, 4] {
                for machine in ["simulator", "threads"] {
                    let (result, nodes) = match machine {
                        "simulator" => run(&mut Sim::new(presets::CLASSROOM, Kind::Full, processors, 1).unwrap(), Algorithm::Aphid, processors, game, depth),
                        _ => run(&mut Threads::default(), Algorithm::Aphid, processors, game, depth),
                    };
                    let case = format!("position {i} depth {depth} on {processors} processors ({machine})");
                    assert_eq!(result.score, serial.score, "{case}");
                    assert_eq!(result.depth, depth, "{case}");
                    assert!(result.best.is_some_and(|mv| game.board().is_legal(mv)), "{case}");
                    assert!(nodes[1..].iter().all(|&n| n > 0), "{case}: every helper searched leaves ({nodes:?})");
                }
            }
        }
    }
}

/// The leaves' lines reach the root's: on a mate in one APHID plays the mate, with the
/// serial search's score.
#[test]
fn aphid_finds_a_mate_in_one_and_reports_its_line() {
    let game = Game::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let (serial, _) = run(&mut Threads::default(), Algorithm::Serial, 1, &game, 4);
    let mut sim = Sim::new(presets::MULTICORE, Kind::Full, 3, 2).unwrap();
    let (result, _) = run(&mut sim, Algorithm::Aphid, 3, &game, 4);
    assert_eq!((result.best, result.score), (serial.best, serial.score));
    assert_eq!(result.lines[0].pv.first(), Some(&"d1d8".parse().unwrap()));
}

/// MultiPV in Pure mode: the same best values as the serial search's lines, best first.
#[test]
fn pure_aphid_finds_the_serial_searchs_multipv_values() {
    let settings = SearchSettings { multipv: 3, ..pure() };
    let limits = Limits { depth: Some(4), ..Limits::default() };
    for game in &games()[..3] {
        let task = Task { board: game.board(), history: game.history(), limits: &limits, settings: &settings };
        let scores = |algorithm, processors| {
            let tables = Tables::new(Placement::Local, 4 * processors, processors).unwrap();
            let mut sim = Sim::new(presets::MULTICORE, Kind::Full, processors, 1).unwrap();
            let result = search(&mut sim, &mut Vec::new(), tables, &SearchRequest { algorithm, threads: processors, task }, &Control::default(), &mut NoReports, &Counters::new(processors));
            result.lines.iter().map(|l| l.score).collect::<Vec<_>>()
        };
        let serial = scores(Algorithm::Serial, 1);
        assert_eq!(serial.len(), 3);
        assert_eq!(scores(Algorithm::Aphid, 3), serial, "{}", game.board());
    }
}
