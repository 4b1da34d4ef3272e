//! Pure mode returns the exact minimax value: for 20 positions at a fixed depth, the
//! engine's root score equals a plain full-window alpha-beta written here with the
//! same evaluation, quiescence, check extension and draw rules, and no move ordering,
//! table, null move or reductions. With either evaluation: the reference computes the
//! network's sums afresh at each leaf, the searcher carries them move by move.
mod common;

use meshmate::chess::{has_insufficient_material, legal_moves, parse_epd_file, Board};
use meshmate::eval::nnue::{default_network, Accumulator};
use meshmate::eval::Evaluation;
use meshmate::search::{quiescence, search, Control, INFINITY, Limits, MATE, MAX_PLY, NoReports, QuiescenceStats, SearchOptions, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::sync::Arc;

/// Plain negamax alpha-beta. `path` holds the hashes of the interior nodes above.
fn reference(board: &Board, evaluation: Evaluation, depth: i32, ply: usize, mut alpha: i32, beta: i32, path: &mut Vec<u64>) -> i32 {
    let sums = (evaluation == Evaluation::Nnue).then(|| Accumulator::refreshed(default_network(), board));
    if ply > 0 {
        let hash = board.hash();
        let window = (board.halfmove_clock() as usize).min(path.len());
        let repeated = (2..=window).step_by(2).any(|back| path[path.len() - back] == hash);
        if board.halfmove_clock() >= 100 || has_insufficient_material(board) || repeated {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return meshmate::eval::evaluate_by(board, sums.as_ref());
        }
    }
    if depth <= 0 {
        return quiescence(board, sums.as_ref(), alpha, beta, ply, &mut QuiescenceStats::default(), None);
    }
    let moves = legal_moves(board);
    if moves.is_empty() {
        return if board.checkers().is_empty() { 0 } else { -MATE + ply as i32 };
    }
    path.push(board.hash());
    let mut best = -INFINITY;
    for mv in moves {
        let mut child = board.clone();
        child.play(mv);
        let extension = i32::from(!child.checkers().is_empty() && ply < MAX_PLY / 2);
        let score = -reference(&child, evaluation, depth - 1 + extension, ply + 1, -beta, -alpha, path);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    path.pop();
    best
}

#[test]
fn pure_search_equals_plain_alpha_beta() {
    pure_search_equals_plain_alpha_beta_with(Evaluation::Classic);
}

#[test]
fn pure_search_with_the_network_equals_plain_alpha_beta() {
    pure_search_equals_plain_alpha_beta_with(Evaluation::Nnue);
}

fn pure_search_equals_plain_alpha_beta_with(evaluation: Evaluation) {
    let mut boards: Vec<Board> = Vec::new();
    for file in ["bratko-kopec.epd", "kaufman.epd", "perft.epd"] {
        let records = parse_epd_file(&common::shared_data(file)).unwrap();
        boards.extend(records.into_iter().take(7).map(|e| e.board));
    }
    boards.truncate(20);
    assert_eq!(boards.len(), 20);
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let settings = SearchSettings { options: SearchOptions { pure: true, evaluation, ..SearchOptions::default() }, ..SearchSettings::default() };
    for (i, board) in boards.iter().enumerate() {
        let depth = if i % 4 == 0 { 4 } else { 3 };
        let expected = reference(board, evaluation, depth, 0, -INFINITY, INFINITY, &mut Vec::new());
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let got = search(&mut searcher, &tt, &Task { board, history: &[], limits: &limits, settings: &settings }, &Control::default(), &mut NoReports).score;
        assert_eq!(got, expected, "{evaluation:?}: position {i} ({board}) depth {depth}");
    }
}
