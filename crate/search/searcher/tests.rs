//! The searcher's own rules, one position at a time.

use super::*;
use crate::chess::legal_moves;
use crate::tt::BusyTable;

/// The root moves in the order a searcher (processor 0) starts them while processor 1
/// holds marks on every position one move from the start, and lets go of the one
/// `finished` leads to (it has searched it) once processor 0 is on its second root
/// move, the first it had deferred.
fn root_order(finished: Option<Move>) -> Vec<Move> {
    let board = Board::default();
    // Roomy enough that no two of the twenty root children share a slot.
    let busy = Arc::new(BusyTable::new(16));
    let other = BusyMarks::new(busy.clone(), 1);
    for mv in legal_moves(&board) {
        assert!(other.mark(child_hash(&board, mv)), "{mv}: every root child gets a slot of its own");
    }
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
    searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
    searcher.start(&board, &[], -INFINITY, INFINITY, 5, &[]);
    moves_started(&mut searcher, |order| {
        if let (2, Some(mv)) = (order.len(), finished) {
            other.unmark(child_hash(&board, mv));
        }
    })
}

/// The hash of the position `mv` leads to from `board`.
fn child_hash(board: &Board, mv: Move) -> u64 {
    let mut child = board.clone();
    child.play_unchecked(mv);
    child.hash()
}

/// Runs `searcher` to the end and returns the moves its top node started, in order,
/// calling `on_start` with them each time it starts another.
fn moves_started(searcher: &mut Searcher, mut on_start: impl FnMut(&[Move])) -> Vec<Move> {
    let mut order: Vec<Move> = Vec::new();
    while !matches!(searcher.step(), Progress::Done(_)) {
        if let Some(root) = searcher.root_move().filter(|r| order.last() != Some(&r.mv)) {
            order.push(root.mv);
            on_start(&order);
        }
    }
    order
}

/// The moves a searcher (processor 0) starts, in order, at a node of `kind` at the start
/// position where every move fails low (window 500..501, depth 5, `Pure`, so that no
/// move is pruned), while processor 1 holds a mark on the position after `busy_first`
/// (if any).
fn order_at(kind: NodeKind, busy_first: Option<Move>) -> Vec<Move> {
    let problem = failing_low(kind);
    let busy = Arc::new(BusyTable::new(16));
    if let Some(mv) = busy_first {
        assert!(BusyMarks::new(busy.clone(), 1).mark(child_hash(&problem.board, mv)));
    }
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
    searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
    searcher.set_options(SearchOptions { pure: true, ..SearchOptions::default() });
    searcher.start_subproblem(&problem);
    moves_started(&mut searcher, |_| {})
}

/// A node of `kind` at the start position, depth 5, where every move fails low
/// (window 500..501).
fn failing_low(kind: NodeKind) -> Subproblem {
    Subproblem { board: Board::default(), path: Vec::new(), alpha: 500, beta: 501, depth: 5, ply: 0, kind, line: TreePath::default(), killers: [[None; 2]; 2] }
}

/// ABDADA: the first move of a node expected to need all its moves waits like any
/// other while another processor searches it, and is still searched; at a CUT node,
/// where it is the likely refutation, it goes first all the same.
#[test]
fn a_busy_first_move_waits_only_at_all_nodes() {
    for kind in [NodeKind::All, NodeKind::Cut] {
        let alone = order_at(kind, None);
        assert!(alone.len() > 2, "{kind:?}: every move fails low, so several are searched");
        let order = order_at(kind, Some(alone[0]));
        assert!(order.contains(&alone[0]), "{kind:?}: the busy move is still searched ({order:?})");
        assert_eq!(order[0] == alone[0], kind == NodeKind::Cut, "{kind:?}: {:?} against {:?}", &order[..2], &alone[..2]);
    }
}

/// Internal iterative reduction: without a table move, a node whose move order decides
/// its cost (here a CUT node) is searched a ply shallower, while a node expected to
/// need all its moves keeps its depth, so what the table holds does not shape it. The
/// depth a node was searched to is the depth of the entry it leaves.
#[test]
fn without_a_table_move_only_nodes_whose_order_matters_are_reduced() {
    for (kind, searched_to) in [(NodeKind::Cut, 4), (NodeKind::All, 5)] {
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let mut searcher = Searcher::new(tt.clone());
        let problem = failing_low(kind);
        searcher.start_subproblem(&problem);
        moves_started(&mut searcher, |_| {});
        let entry = tt.probe(problem.board.hash()).expect("the node leaves an entry");
        assert_eq!(i32::from(entry.depth), searched_to, "{kind:?}");
    }
}

/// ABDADA: a deferred move waits while the other processor searches its position, and
/// goes next once that processor is done with it (its value is then in the table).
#[test]
fn a_deferred_move_goes_next_once_the_other_processor_has_finished_it() {
    let while_busy = root_order(None);
    assert_eq!(while_busy.len(), legal_moves(&Board::default()).len(), "every root move is searched, the deferred ones last");
    let finished = while_busy[3];
    let order = root_order(Some(finished));
    assert_eq!(order[..2], while_busy[..2]);
    assert_eq!(order[2], finished, "the finished move comes before the deferred moves still busy ({:?})", &while_busy[2..4]);
}

/// The pure value of `problem`, and the nodes it took, searched with `rules`.
fn pure_search(problem: &Subproblem, rules: StarTechRules) -> (i32, u64) {
    search_with(problem, SearchOptions { pure: true, ..SearchOptions::default() }, rules)
}

/// The value of `problem` and the nodes it took, searched with `options` and `rules` on a
/// fresh table.
fn search_with(problem: &Subproblem, options: SearchOptions, rules: StarTechRules) -> (i32, u64) {
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
    searcher.set_options(options);
    searcher.set_startech_rules(rules);
    searcher.start_subproblem(problem);
    loop {
        if let Progress::Done(value) = searcher.step() {
            return (value, searcher.nodes());
        }
    }
}

/// Pure mode takes the table's cutoffs only when asked (the period's programs did): from
/// the start position at 5 plies, where moves transpose, the search with them ends
/// nodes on entries and so searches fewer.
#[test]
fn pure_mode_ends_nodes_on_the_table_only_when_asked() {
    let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, ..failing_low(NodeKind::Pv) };
    let (_, exact) = pure_search(&problem, StarTechRules::OFF);
    let (_, with_cutoffs) = search_with(&problem, SearchOptions { pure: true, table_cutoffs: true, ..SearchOptions::default() }, StarTechRules::OFF);
    assert!(with_cutoffs < exact, "table cutoffs: {with_cutoffs} nodes, none: {exact}");
}

const RECURSIVE_DEEPENING: StarTechRules = StarTechRules { recursive_deepening: true, ..StarTechRules::OFF };

/// Recursive iterative deepening: a node without a table move from a search a ply
/// shallower first searches its own position a ply shallower (a frame above it, at the
/// same ply and off the path), and the value stays the serial one.
#[test]
fn recursive_deepening_searches_a_node_a_ply_shallower_first() {
    let problem = Subproblem { ply: 1, ..failing_low(NodeKind::Pv) };
    let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, depth: 4, ..problem };
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
    searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
    searcher.set_startech_rules(RECURSIVE_DEEPENING);
    searcher.start_subproblem(&problem);
    while searcher.top == 0 {
        assert_eq!(searcher.step(), Progress::Running);
    }
    let (node, copy) = (&searcher.frames[0], &searcher.frames[1]);
    assert_eq!(node.phase, Phase::Awaiting(Pending::Deepen));
    assert!(copy.repeats_parent && copy.board == node.board && copy.depth == 3 && copy.ply == node.ply);
    assert_eq!(searcher.hashes.len(), 1, "the position is on the path once");
    let (plain, plain_nodes) = pure_search(&problem, StarTechRules::OFF);
    let (deepened, deepened_nodes) = pure_search(&problem, RECURSIVE_DEEPENING);
    assert_eq!(deepened, plain);
    assert_ne!(deepened_nodes, plain_nodes, "another tree");
}

/// StarTech's serialization heuristic: at a node expected to be cut (type 2) whose
/// search a ply shallower beat alpha but whose first move fails low, a second move is
/// searched before the node offers any to other processors.
#[test]
fn a_type_2_node_whose_first_move_fails_low_searches_a_second_one_before_splitting() {
    let at = |board: &Board, alpha: i32, depth: i32| Subproblem { board: board.clone(), alpha, beta: alpha + 1, depth, ply: 1, ..failing_low(NodeKind::Cut) };
    let exact = |board: &Board, depth| pure_search(&Subproblem { alpha: -INFINITY, beta: INFINITY, kind: NodeKind::Pv, ..at(board, 0, depth) }, StarTechRules::OFF).0;
    // A position whose value falls from one depth to the next.
    let fens = ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"];
    let falling = fens.iter().map(|fen| fen.parse::<Board>().unwrap()).flat_map(|b| (3..=4).map(move |d| (b.clone(), d)));
    let (board, depth, full) = falling.into_iter().find_map(|(b, d)| (exact(&b, d - 1) > exact(&b, d)).then(|| (b.clone(), d, exact(&b, d)))).expect("a value that falls with depth");
    // Between the two: the shallower search beats alpha and the full one fails low.
    let problem = at(&board, full, depth);
    for (serialize, serial_moves) in [(false, 1), (true, 2)] {
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
        searcher.set_startech_rules(StarTechRules { serialize, ..RECURSIVE_DEEPENING });
        searcher.start_subproblem(&problem);
        let mut first_offer = None;
        while !matches!(searcher.step(), Progress::Done(_)) {
            if first_offer.is_none() && searcher.split_candidates().any(|c| c.frame == 0) {
                first_offer = Some(searcher.frames[0].moves_searched);
            }
        }
        assert_eq!(first_offer, Some(serial_moves), "serialize: {serialize}");
    }
}

/// Deferred reads: where ABDADA searches a move another processor is still searching
/// once the rest of the list is done, StarTech's node waits for that processor to
/// finish it (looking again at each step), then goes on.
#[test]
fn a_deferred_read_waits_for_the_other_processor() {
    let problem = failing_low(NodeKind::All);
    let first = order_at(NodeKind::All, None)[0];
    let busy = Arc::new(BusyTable::new(16));
    let other = BusyMarks::new(busy.clone(), 1);
    assert!(other.mark(child_hash(&problem.board, first)));
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
    searcher.set_busy_table(Some(BusyMarks::new(busy, 0)));
    searcher.set_options(SearchOptions { pure: true, ..crate::search::SearchOptions::default() });
    searcher.set_startech_rules(StarTechRules { deferred_reads: true, ..StarTechRules::OFF });
    searcher.start_subproblem(&problem);
    let waited = loop {
        match searcher.step() {
            Progress::Running => {}
            Progress::Waiting => break searcher.deferred_read_polls(),
            Progress::Done(_) => panic!("the busy move was searched without waiting"),
        }
    };
    assert!(waited == 1 && searcher.waits_for_busy_position());
    assert_eq!(searcher.step(), Progress::Waiting, "still busy: it waits again");
    other.unmark(child_hash(&problem.board, first));
    let value = loop {
        if let Progress::Done(value) = searcher.step() {
            break value;
        }
    };
    assert_eq!(searcher.deferred_read_polls(), 2);
    assert_eq!(value, pure_search(&problem, StarTechRules::OFF).0);
}

/// StarTech's ordering by the table alone: its search trains no killers (nor history),
/// where the engine's own search learns them in the same tree.
#[test]
fn ordering_by_the_table_alone_learns_no_killers() {
    for table_ordering_only in [false, true] {
        let problem = Subproblem { depth: 4, ..failing_low(NodeKind::Pv) };
        let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, ..problem };
        let mut searcher = Searcher::new(Arc::new(TranspositionTable::try_new(1).unwrap()));
        searcher.set_options(SearchOptions { pure: true, table_ordering_only, ..SearchOptions::default() });
        searcher.start_subproblem(&problem);
        moves_started(&mut searcher, |_| {});
        let killers: [[Option<Move>; 2]; 3] = searcher.heuristics.killers_from(1);
        assert_eq!(killers.iter().flatten().any(Option::is_some), !table_ordering_only);
    }
}

/// Ordering by the table alone changes the order, so the tree, but never the pure value.
#[test]
fn ordering_by_the_table_alone_keeps_the_pure_value() {
    let problem = Subproblem { alpha: -INFINITY, beta: INFINITY, ..failing_low(NodeKind::Pv) };
    let (value, nodes) = pure_search(&problem, StarTechRules::OFF);
    let (by_table, by_table_nodes) = search_with(&problem, SearchOptions { pure: true, table_ordering_only: true, ..SearchOptions::default() }, StarTechRules::OFF);
    assert_eq!(by_table, value);
    assert_ne!(by_table_nodes, nodes, "without killers and history the tree is another");
}
