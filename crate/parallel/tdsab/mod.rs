//! TDSAB: MTD(f) over transposition-driven scheduling.
//!
//! CITE: A. Kishimoto and J. Schaeffer, "Distributed game-tree search using transposition
//! table driven work scheduling", ICPP 2002 (the text prints no year; its latest
//! references are of 2002), after Romein, Plaat, Bal and Schaeffer's TDS for IDA*
//! (AAAI 1999). Its tables are in ../shared/data/published-figures.md, section 2.
//!
//! The idea: the table is partitioned over the processors, and instead of fetching a
//! node's entry from its owner the node itself travels there ("home" = `hash mod p`), so
//! every table access is local, transpositions meet at one place, and hashing spreads the
//! work. MTD(f) turns the search into null-window passes, each a synchronization point.
//!
//! # The algorithm
//! - **Driver** (processor 0, `driver.rs`): iterative deepening; each iteration is an
//!   MTD(f) sequence of null-window searches `gamma - 1 .. gamma` starting from the last
//!   iteration's score, until the lower and upper bounds meet.
//! - **Home processors** (`worker.rs`): a node arrives as a `TtRequest` message (or
//!   straight into the queue when its home is the sender). The home decides it from the
//!   draw rules or the table if it can; otherwise it expands it: YBWC inside each pass,
//!   as the paper: the eldest child goes out first and, if it does not cut, all its
//!   younger brothers at once. Values come back as `TtAnswer` messages to the parent's
//!   home. Nobody ever waits for a child: the expanded node sits in a table until its
//!   children's values arrive, and the processor goes on with its queue.
//! - **Signatures and cutoffs**: a node carries its path from the root as child codes.
//!   When a value cuts a node whose other children are still out, the home broadcasts a
//!   `Cutoff` with the node's signature; every processor drops queued, expanded, waiting
//!   or locally searched nodes below it, and remembers the prefix so late arrivals are
//!   dropped too. The end of a pass is a cutoff of the empty prefix.
//! - **Left-sidedness**: each queue is a priority queue ordered by signature, so the
//!   leftmost node (the one the serial search would reach first) goes first.
//! - **Granularity** ([`worker::Horizon`]): a node that is terminal or has at most
//!   `GRANULARITY` (3) plies left is searched in one piece by its home's serial
//!   `Searcher` (a slice of steps at a time, so cutoffs and `stop` are seen at once);
//!   in pure mode every other node is expanded, at any ply, as the paper. With the
//!   modern search only plies 0 and 1 are expanded (see "Departures").
//! - **Bounds between passes** (pure mode, `bounds.rs`): a home decides a node from the
//!   bounds earlier passes proved for the same node (same position, depth, ply, clock
//!   and repetition window), as MTD(f)'s table would.
//! - **Pruning in the shared part** (not in pure mode): table cutoffs, mate-distance
//!   pruning, a null move sent before the eldest child, and late quiet moves sent one or
//!   two plies shallower and sent again at full depth if they fail high (a re-search has
//!   its own child code, so cuts recorded for the first search never hit it).
//!
//! # Departures from the paper
//! - Granularity: the paper leaves it to the machine; 3 was measured best on the
//!   `p3-ethernet` preset (the README has the figures). With the modern search the
//!   shared part prunes less than the serial searcher (no killers, history, futility),
//!   so every shared ply costs nodes and only the top two plies are shared.
//! - Young brothers: chess's branching factor (about 35) is far above Awari's (< 6) and
//!   far below Amazons' (2,176). All brothers go out at once after the eldest at every
//!   node (Awari's variant, but not only at the root); Amazons' P at a time, the next P
//!   only when the last failed low, was slower on `p3-ethernet` at 8 and 16 processors
//!   (README), and is the same thing from 35 processors up.
//! - Priority: the paper orders queues as APHID, by how "left-sided" a node's path is,
//!   with weights given only in Kishimoto's thesis; the lexicographic order of the
//!   signature ranks nodes the same way along the leftmost path and in between puts the
//!   node with the earlier deviation from it first.
//! - Pure mode turns the table's cutoffs off everywhere (for exactness), and with them
//!   the memory MTD(f) relies on between passes. In its place each home keeps the bounds
//!   its nodes' values proved, reused only for the very same node (`bounds.rs`): the
//!   paper's table, restricted to what keeps the value exact. Local searches below the
//!   granularity still search their subtrees again at each pass.
//!
//! # The shallower-identical-node rule (no waiting cycles)
//! A node B arriving at its home while an identical node A (same position, same window)
//! is expanded there may wait for A's value instead of searching, if A searches at least
//! as deep (so its value serves B) *and A's halfmove clock is at least B's*. In pure mode
//! B waits only for an A that computes the very same function: same depth, ply,
//! halfmove clock and repetition window (the hashes in that window).
//!
//! Proof that no cycle of waiting can form. "X waits for Y" when Y is an outstanding
//! child of X, or X is a waiter of Y. Order nodes by P = (I, h), lexicographically, where
//! h is the halfmove clock and I measures irreversible progress of the position:
//! (-pieces on the board, -pawns, total pawn advance). A move to a child either is a
//! capture or a pawn move, which strictly increases I (a capture removes a piece, a
//! promotion a pawn, a push advances one), or leaves I alone and raises h by one. So
//! P(child) > P(parent). A waiter B and its A share the position, hence I, and
//! h(A) >= h(B), so P(A) >= P(B). Waiters are never expanded, so every cycle would contain
//! a parent-to-child edge, and P would strictly increase around it: impossible.
//! (Positions with h >= 100 are draws decided on arrival; they never wait or expand.)
//! A killed A hands its surviving waiters back to the queue, so none starves.
//!
//! # Exactness in pure mode
//! A node carries what its value depends on: position, ply (mate scores, the check
//! extension's limit), depth, window and the hashes of its ancestors (with the game
//! history, the repetition rule). Table cutoffs are off in pure mode, the local searcher
//! runs with the same switches, so every null-window value is a fail-soft bound of the
//! serial function and MTD(f) converges on the serial value. The bounds kept between
//! passes are such values, reused only for a node computing the same function.
//!
//! # MultiPV and limits
//! MultiPV > 1 searches the lines one after another, each an MTD(f) sequence on the root
//! moves not yet in a line (`searchmoves` restricts the root the same way). `stop`,
//! `go nodes/depth/movetime/infinite`, time controls and `ponderhit` behave as in the
//! serial driver; the node limit counts every processor's published nodes.
//!
//! Shared state: the transposition table (each home writes its nodes' entries; the local
//! searchers read and write as usual). With the `tds` placement (`tt::Placement::Tds`, on
//! the simulator) there is no shared table: each processor has its own, and since every
//! node of the shared part is searched at its home, its entry is always found there.
//! Counters: messages by kind (machine), killed work as `Note::Aborted`.

mod bounds;
mod driver;
pub(super) mod job;
mod moves;
mod worker;

use crate::search::Task;
use super::SummingListener;
use crate::machine::{Counters, Machine, Program};
use crate::search::{Control, Listener, SearchResult, Searcher};
use crate::tt::TranspositionTable;
use crate::tt::Tables;
use driver::MainProgram;
use job::TdsMessage;
use worker::{Horizon, Worker};

/// One TDSAB search of `task` on the processors of `machine`, those of this process
/// searching with `searchers` (see `Machine::local_processors`).
pub(super) fn search<Mach: Machine>(machine: &mut Mach, searchers: &mut [Searcher], tables: &Tables, task: &Task<'_>, control: &Control, listener: &mut dyn Listener, counters: &Counters) -> SearchResult {
    search_with_horizon(machine, searchers, tables, task, control, SummingListener { inner: listener, counters }, Horizon::for_options(task.settings.options))
}

/// The program of a TDSAB processor other than 0, for `task`.
pub(super) fn helper<'a>(searcher: &'a mut Searcher, table: &'a TranspositionTable, task: &'a Task<'_>) -> impl Program<Message = TdsMessage> + 'a {
    Worker::new(searcher, table, task.history, task.settings.options, Horizon::for_options(task.settings.options))
}

/// [`search`] with nodes beyond `horizon` searched locally (tests lower it to send
/// nearly every node through the machine); `summing` reports with the nodes of the
/// processors' counters.
fn search_with_horizon<Mach: Machine>(machine: &mut Mach, searchers: &mut [Searcher], tables: &Tables, task: &Task<'_>, control: &Control, summing: SummingListener<'_>, horizon: Horizon) -> SearchResult {
    let counters = summing.counters;
    let options = task.settings.options;
    let (main_searcher, helper_searchers) = searchers.split_at_mut(1);
    let worker = Worker::new(&mut main_searcher[0], tables.of_processor(0), task.history, options, horizon);
    let mut main = MainProgram::new(worker, task, tables, control, counters, summing);
    let helpers: Vec<Box<dyn Program<Message = TdsMessage> + Send + '_>> = helper_searchers
        .iter_mut()
        .enumerate()
        .map(|(i, s)| Box::new(Worker::new(s, tables.of_processor(i + 1), task.history, options, horizon)) as Box<dyn Program<Message = TdsMessage> + Send + '_>)
        .collect();
    machine.run(&mut main, helpers, counters);
    let mut result = main.into_result();
    result.nodes = counters.total_nodes();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_fen;
    use crate::machine::Threads;
    use crate::search::{Limits, NoReports, SearchOptions, SearchSettings, MAX_PLY};
    use crate::tt::TranspositionTable;
    use std::sync::Arc;

    /// With (almost) every node sent through the machine, pure TDSAB still returns the
    /// serial minimax value: draws by repetition (including the game history), the
    /// fifty-move rule, mates found through check extensions, and ordinary positions.
    #[test]
    fn nearly_every_node_through_messages_still_gives_the_serial_value() {
        let positions: [(&str, &[&str]); 6] = [
            ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", &[]),
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", &[]),
            ("k7/8/8/8/8/8/q7/2K5 w - - 97 90", &[]),
            // White is lost on material but can chase a repetition with checks.
            ("6k1/6p1/8/8/8/8/q5PP/5Q1K w - - 10 40", &["f1f8", "g8h7", "f8f5", "h7g8"]),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[]),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[]),
        ];
        let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
        let counters = Counters::new(4);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers: Vec<Searcher> = (0..4).map(|_| Searcher::new(tt.clone())).collect();
        for (fen, moves) in positions {
            let mut board = parse_fen(fen).unwrap();
            let mut history = Vec::new();
            for mv in moves {
                history.push(board.hash());
                board.play(mv.parse().unwrap());
            }
            for depth in [3, 4] {
                let limits = Limits { depth: Some(depth), ..Limits::default() };
                let task = Task { board: &board, history: &history, limits: &limits, settings: &settings };
                tt.clear();
                let serial = crate::search::search(&mut searchers[0], &tt, &Task { board: &board, history: &history, limits: &limits, settings: &settings }, &Control::default(), &mut NoReports);
                for threads in 1..=4 {
                    for local_depth in [0, 1] {
                        tt.clear();
                        let horizon = Horizon { depth: local_depth, plies: MAX_PLY };
                        let result = search_with_horizon(&mut Threads::default(), &mut searchers[..threads], &Tables::shared(tt.clone()), &task, &Control::default(), SummingListener { inner: &mut NoReports, counters: &counters }, horizon);
                        assert_eq!(result.score, serial.score, "{fen} depth {depth}, {threads} threads, local below {local_depth}");
                        assert!(result.best.is_some());
                    }
                }
            }
        }
    }

    /// The full algorithm (null move, reductions and re-searches, table cutoffs,
    /// waiting on identical nodes) with nearly every node sent as a message: every
    /// search must finish its last iteration (a lost node would hang it: the watchdog
    /// stops such a search, and the depth check fails).
    #[test]
    fn searches_with_pruning_always_finish() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
        ];
        let counters = Counters::new(4);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers: Vec<Searcher> = (0..4).map(|_| Searcher::new(tt.clone())).collect();
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let settings = SearchSettings::default();
        for fen in fens {
            let board = parse_fen(fen).unwrap();
            let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
            for threads in 1..=4 {
                tt.clear();
                let (control, done) = (Control::default(), std::sync::atomic::AtomicBool::new(false));
                let result = std::thread::scope(|scope| {
                    scope.spawn(|| {
                        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
                        while !done.load(std::sync::atomic::Ordering::Relaxed) && std::time::Instant::now() < deadline {
                            std::thread::sleep(std::time::Duration::from_millis(5));
                        }
                        control.stop();
                    });
                    let horizon = Horizon { depth: 1, plies: MAX_PLY };
                    let result = search_with_horizon(&mut Threads::default(), &mut searchers[..threads], &Tables::shared(tt.clone()), &task, &control, SummingListener { inner: &mut NoReports, counters: &counters }, horizon);
                    done.store(true, std::sync::atomic::Ordering::Relaxed);
                    result
                });
                assert_eq!(result.depth, 6, "{fen} with {threads} threads did not finish");
                assert!(result.best.is_some_and(|mv| board.is_legal(mv)), "{fen} with {threads} threads");
            }
        }
    }

    /// In pure mode every node above the granularity is expanded at its home, not only
    /// the top two plies: the public search expands far more nodes (each counted as a
    /// split) than the same search with every node from ply 2 on searched locally.
    #[test]
    fn pure_searches_expand_nodes_below_the_top_two_plies() {
        let board = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
        let limits = Limits { depth: Some(Horizon::PAPER.depth + 3), ..Limits::default() };
        let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
        let counters = Counters::new(1);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers = vec![Searcher::new(tt.clone())];
        let mut splits = |horizon: Option<Horizon>| {
            tt.clear();
            counters.reset();
            let tables = Tables::shared(tt.clone());
            let summing = SummingListener { inner: &mut NoReports, counters: &counters };
            let result = match horizon {
                None => search(&mut Threads::default(), &mut searchers, &tables, &task, &Control::default(), &mut NoReports, &counters),
                Some(horizon) => search_with_horizon(&mut Threads::default(), &mut searchers, &tables, &task, &Control::default(), summing, horizon),
            };
            (result.score, counters.snapshot()[0].splits)
        };
        let (score, shared) = splits(None);
        let (top_score, top_two_plies) = splits(Some(Horizon { plies: 2, ..Horizon::PAPER }));
        assert_eq!(score, top_score);
        // Deterministic on one processor: the same passes, and beyond the top two plies'
        // expansions those of the nodes at ply 2 and below.
        assert!(shared > top_two_plies + top_two_plies / 4, "{shared} nodes expanded against {top_two_plies} in the top two plies");
    }

    /// With the paper's granularity, at a depth where nodes below ply 1 are expanded and
    /// sent, pure TDSAB returns the serial minimax value on 2 and 4 processors.
    #[test]
    fn the_papers_granularity_gives_the_serial_value() {
        let settings = SearchSettings { options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
        let limits = Limits { depth: Some(Horizon::PAPER.depth + 3), ..Limits::default() };
        let counters = Counters::new(4);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers: Vec<Searcher> = (0..4).map(|_| Searcher::new(tt.clone())).collect();
        for fen in ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"] {
            let board = parse_fen(fen).unwrap();
            let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
            tt.clear();
            let serial = crate::search::search(&mut searchers[0], &tt, &task, &Control::default(), &mut NoReports);
            for threads in [2, 4] {
                tt.clear();
                let result = search(&mut Threads::default(), &mut searchers[..threads], &Tables::shared(tt.clone()), &task, &Control::default(), &mut NoReports, &counters);
                assert_eq!(result.score, serial.score, "{fen} on {threads} threads");
            }
        }
    }

    /// MultiPV searches the lines one after another: in pure mode each line's score is
    /// the serial search's.
    #[test]
    fn multipv_lines_have_the_serial_scores() {
        let settings = SearchSettings { multipv: 3, options: SearchOptions { pure: true, ..SearchOptions::default() }, ..SearchSettings::default() };
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let counters = Counters::new(2);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers: Vec<Searcher> = (0..2).map(|_| Searcher::new(tt.clone())).collect();
        for fen in ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"] {
            let board = parse_fen(fen).unwrap();
            let serial = crate::search::search(&mut searchers[0], &tt, &Task { board: &board, history: &[], limits: &limits, settings: &settings }, &Control::default(), &mut NoReports);
            let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
            tt.clear();
            let result = search_with_horizon(&mut Threads::default(), &mut searchers, &Tables::shared(tt.clone()), &task, &Control::default(), SummingListener { inner: &mut NoReports, counters: &counters }, Horizon { depth: 1, plies: MAX_PLY });
            let scores = |lines: &[crate::search::Line]| lines.iter().map(|l| l.score).collect::<Vec<_>>();
            assert_eq!(scores(&result.lines), scores(&serial.lines), "{fen}");
            assert_eq!(result.lines.len(), 3);
        }
    }

    /// Milliseconds a serial search of 20 000 nodes takes on this machine now: a unit of
    /// time that grows with the machine's load, so that a bound in it holds on a busy
    /// machine and still fails a search that does not stop.
    fn reference_ms() -> f64 {
        let board = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let limits = Limits { nodes: Some(20_000), ..Limits::default() };
        let start = std::time::Instant::now();
        crate::search::search(&mut Searcher::new(tt.clone()), &tt, &Task { board: &board, history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports);
        start.elapsed().as_secs_f64() * 1000.0
    }

    /// `stop` at random moments, with most nodes sent as messages: always a legal move,
    /// few nodes searched after the stop, and no processor still working afterwards.
    /// `movetime` and `nodes` end the search by themselves. Wall times are bounded in
    /// units of a reference search measured just before, as the machine may be busy.
    #[test]
    fn stops_and_limits_end_the_search_promptly() {
        let fens = [
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
            "k7/8/8/8/8/8/q7/2K5 w - - 99 90",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let counters = Counters::new(4);
        let tt = Arc::new(TranspositionTable::try_new(4).unwrap());
        let mut searchers: Vec<Searcher> = (0..4).map(|_| Searcher::new(tt.clone())).collect();
        let settings = SearchSettings::default();
        let mut rng = crate::random::Random::new(7, 0);
        let horizon = Horizon { depth: 1, plies: MAX_PLY };
        for round in 0..80 {
            let board = parse_fen(fens[round % fens.len()]).unwrap();
            let threads = 1 + round % 4;
            let stop_after = std::time::Duration::from_micros((rng.next_unit() * 30_000.0) as u64);
            let limits = Limits { infinite: true, ..Limits::default() };
            let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
            let control = Control::default();
            let reference = reference_ms();
            let start = std::time::Instant::now();
            let (result, at_stop) = std::thread::scope(|scope| {
                let stopper = scope.spawn(|| {
                    std::thread::sleep(stop_after);
                    let at_stop = counters.total_nodes();
                    control.stop();
                    at_stop
                });
                let result = search_with_horizon(&mut Threads::default(), &mut searchers[..threads], &Tables::shared(tt.clone()), &task, &control, SummingListener { inner: &mut NoReports, counters: &counters }, horizon);
                (result, stopper.join().unwrap())
            });
            let late_ms = start.elapsed().saturating_sub(stop_after).as_secs_f64() * 1000.0;
            let legal = crate::chess::legal_moves(&board);
            assert!(result.best.is_some_and(|mv| legal.contains(&mv)) || legal.is_empty(), "round {round}");
            // The counters lag by up to a publishing interval per processor; beyond that,
            // a processor that searched on after the stop shows here whatever the load.
            let after_stop = result.nodes.saturating_sub(at_stop);
            assert!(after_stop < 20_000 * threads as u64, "round {round}: {after_stop} nodes after the stop");
            assert!(late_ms < 50.0 * reference, "round {round}: stopped {late_ms:.0} ms late, {:.1} reference searches", late_ms / reference);
            assert!(counters.snapshot().iter().all(|p| !p.working), "round {round}: a processor still works");
        }
        let board = parse_fen(fens[3]).unwrap();
        for limits in [Limits { movetime: Some(150), ..Limits::default() }, Limits { nodes: Some(30_000), ..Limits::default() }] {
            let task = Task { board: &board, history: &[], limits: &limits, settings: &settings };
            let reference = reference_ms();
            let start = std::time::Instant::now();
            let result = search_with_horizon(&mut Threads::default(), &mut searchers[..2], &Tables::shared(tt.clone()), &task, &Control::default(), SummingListener { inner: &mut NoReports, counters: &counters }, Horizon::MEASURED);
            let took_ms = start.elapsed().as_secs_f64() * 1000.0;
            assert!(took_ms < 150.0 + 100.0 * reference, "{limits:?} took {took_ms:.0} ms, {:.1} reference searches", took_ms / reference);
            assert!(result.depth >= 1 && result.best.is_some());
            if let Some(nodes) = limits.nodes {
                // Counters are published every few hundred steps: allow that much over.
                assert!(result.nodes < nodes + 100_000, "{} nodes", result.nodes);
            }
        }
    }
}
