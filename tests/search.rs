//! The searcher finds mates with the right distance and solves easy test positions.
mod common;

use meshmate::chess::{parse_epd_file, parse_fen, parse_san, Board};
use meshmate::search::{search, Control, Deepening, Info, Limits, Listener, NoReports, RootMove, Score, SearchResult, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::sync::Arc;

fn search_depth(board: &Board, depth: i32) -> SearchResult {
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    search(&mut searcher, &tt, &Task { board, history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports)
}

#[test]
fn finds_mates_with_their_distance() {
    // Mate distances confirmed with Stockfish 15.1.
    for (fen, mate, best) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "Rd8#"),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "Qxf7#"),
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "Nf6+"),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "Rg1+"),
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, "Bc5+"),
    ] {
        let board = parse_fen(fen).unwrap();
        let result = search_depth(&board, 2 * mate + 2);
        assert_eq!(Score::from_internal(result.score), Score::Mate(mate), "{fen}");
        assert_eq!(result.best, Some(parse_san(&board, best).unwrap()), "{fen}");
    }
}

#[test]
fn sees_being_mated() {
    // White's only move Kg1 walks into Ra1# (confirmed with Stockfish 15.1).
    let board = parse_fen("7k/8/8/8/8/r7/1r6/7K w - - 0 1").unwrap();
    let result = search_depth(&board, 4);
    assert_eq!(Score::from_internal(result.score), Score::Mate(-1));
}

#[test]
fn stalemate_and_no_moves() {
    let stalemate = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let result = search_depth(&stalemate, 3);
    assert_eq!(result.best, None);
    assert_eq!(result.score, 0);
}

#[test]
fn solves_easy_bratko_kopec_positions_at_fixed_depth() {
    let records = parse_epd_file(&common::shared_data("bratko-kopec.epd")).unwrap();
    // The tactical ones (checks, captures) that depth 12 solves (BK.19's Rxe4 comes at
    // depth 10, 11 or 12 as pruning and the quiescence search's table shape the tree). Not BK.07 (the knight
    // sacrifice Nf6): the engine's choice there between Nf6 and Bb4 turns with the tree's
    // shape (the search before table moves went first chose Nf6 at depths 9 to 11 and Bb4
    // at 12; since then Bb4 at 9 to 12), so it tests move order rather than tactics.
    let mut solved = Vec::new();
    for epd in &records {
        let id = epd.get("id").unwrap();
        if !["BK.01", "BK.15", "BK.19", "BK.21"].contains(&id) {
            continue;
        }
        let best: Vec<_> = epd.get("bm").unwrap().split_whitespace().map(|m| parse_san(&epd.board, m).unwrap()).collect();
        let result = search_depth(&epd.board, 12);
        if best.contains(&result.best.unwrap()) {
            solved.push(id);
        }
    }
    assert_eq!(solved.len(), 4, "solved only {solved:?}");
}

/// Collects the depths of the reported lines.
#[derive(Default)]
struct Depths(Vec<i32>);

impl Listener for Depths {
    fn info(&mut self, info: &Info) {
        self.0.push(info.depth);
    }
    fn currmove(&mut self, _: i32, _: RootMove) {}
}

/// Lazy SMP's processors take over an iteration another one completed: at the depth limit
/// the search ends with it (reported as its own); below the limit it goes on deeper.
#[test]
fn a_search_takes_over_a_deeper_completed_iteration() {
    let board = Board::default();
    let deeper = search_depth(&board, 6);
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let (settings, control) = (SearchSettings::default(), Control::default());
    for (limit, ends) in [(6, true), (8, false)] {
        let limits = Limits { depth: Some(limit), ..Limits::default() };
        let mut deepening = Deepening::new(&board, &[], &limits, &settings);
        let mut reports = Depths::default();
        for _ in 0..3 {
            assert!(!deepening.step(&mut searcher, &tt, &control, &mut reports));
        }
        assert_eq!(deepening.catch_up(&deeper, 0, &searcher, &tt, &control, &mut reports), ends);
        assert_eq!(deepening.completed().depth, 6);
        assert_eq!(deepening.completed().best, deeper.best);
        assert_eq!(reports.0.last(), Some(&6), "the taken iteration is reported");
        while !deepening.step(&mut searcher, &tt, &control, &mut reports) {}
        let result = deepening.finish(&searcher);
        assert_eq!(result.depth, limit);
        assert!(!reports.0.iter().any(|&d| d > 1 && d <= 5), "no iteration between 1 and the taken one is searched: {:?}", reports.0);
    }
}

/// The critical path of a searched tree (Young Brothers Wait's span, in nodes): at depth 1
/// from the start every move ends in a quiet leaf (one node), so the chain is the root, its
/// eldest move, and the longest other move's chain: its zero-window test, plus a re-search
/// if that test failed high (each re-search is a node beyond the 21).
#[test]
fn the_span_of_a_tree_is_its_eldest_brothers_chain_plus_the_longest_other() {
    let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let limits = Limits { depth: Some(1), ..Limits::default() };
    search(&mut searcher, &tt, &Task { board: &Board::default(), history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports);
    let (nodes, span) = (searcher.nodes(), searcher.span_total());
    assert!(nodes >= 21);
    assert_eq!(span, if nodes > 21 { 4 } else { 3 }, "{nodes} nodes");
    let limits = Limits { depth: Some(6), ..Limits::default() };
    search(&mut searcher, &tt, &Task { board: &Board::default(), history: &[], limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports);
    let (nodes, span) = (searcher.nodes(), searcher.span_total());
    assert!(span > 6 && span * 2 < nodes, "span {span} of {nodes} nodes: at least six plies deep, and the tree has parallelism");
}

/// The quiescence search keeps its values in the table it is given: the same position
/// searched again is settled by the entry at its first node, with the value it had
/// without the table (its entries hold bounds that agree with every window).
#[test]
fn quiescence_keeps_its_values_in_the_table() {
    use meshmate::search::{quiescence, QuiescenceStats, INFINITY};
    // A rook left hanging, an opening with pieces facing each other, a pawn that takes.
    for fen in ["4k3/8/2n5/3r4/8/8/3Q4/4K3 w - - 0 1", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"] {
        let board = parse_fen(fen).unwrap();
        let tt = TranspositionTable::try_new(1).unwrap();
        let search = |table| {
            let mut stats = QuiescenceStats::default();
            (quiescence(&board, None, -INFINITY, INFINITY, 0, &mut stats, table), stats.nodes)
        };
        let (alone, _) = search(None);
        let (first, first_nodes) = search(Some(&tt));
        let (again, again_nodes) = search(Some(&tt));
        assert_eq!((first, again), (alone, alone), "{fen}");
        assert!(again_nodes < first_nodes || first_nodes == 1, "{fen}: {again_nodes} nodes again, {first_nodes} first");
    }
    let board = parse_fen("4k3/8/2n5/3r4/8/8/3Q4/4K3 w - - 0 1").unwrap();
    let tt = TranspositionTable::try_new(1).unwrap();
    let mut first = QuiescenceStats::default();
    quiescence(&board, None, -INFINITY, INFINITY, 0, &mut first, Some(&tt));
    let mut again = QuiescenceStats::default();
    quiescence(&board, None, -INFINITY, INFINITY, 0, &mut again, Some(&tt));
    assert!(first.nodes > 1 && again.nodes == 1, "the capture's value is exact and settles the node: {} then {}", first.nodes, again.nodes);
}
