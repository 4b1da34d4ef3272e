//! Draw rules in the game record and in the search.
use meshmate::chess::{has_insufficient_material, parse_fen, Game, Outcome};
use meshmate::search::{search, Control, Limits, NoReports, SearchSettings, Searcher, Task};
use meshmate::tt::TranspositionTable;
use std::sync::Arc;

#[test]
fn game_outcomes() {
    let mut game = Game::default();
    game.play_uci_moves(["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]).unwrap();
    assert_eq!(game.outcome(), None, "twice is not yet a draw");
    game.play_uci_moves(["f6g8"]).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Repetition));
    let fifty = Game::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80").unwrap();
    assert_eq!(fifty.outcome(), Some(Outcome::FiftyMoves));
    assert_eq!(Game::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap().outcome(), Some(Outcome::Stalemate));
    assert_eq!(Game::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap().outcome(), Some(Outcome::Checkmate));
    assert_eq!(Game::from_fen("4k3/8/8/8/8/8/8/4KB2 w - - 0 1").unwrap().outcome(), Some(Outcome::InsufficientMaterial));
}

#[test]
fn insufficient_material() {
    for (fen, expected) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
    ] {
        assert_eq!(has_insufficient_material(&parse_fen(fen).unwrap()), expected, "{fen}");
    }
}

fn search_score(game: &Game, depth: i32) -> i32 {
    let tt = Arc::new(TranspositionTable::try_new(8).unwrap());
    let mut searcher = Searcher::new(tt.clone());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    search(&mut searcher, &tt, &Task { board: game.board(), history: game.history(), limits: &limits, settings: &SearchSettings::default() }, &Control::default(), &mut NoReports).score
}

#[test]
fn repetition_across_the_game_history_counts() {
    // Black is a queen up; White's only move Kb1 recreates a position of the game's
    // history, which the search must score as a draw.
    let mut game = Game::from_fen("7k/8/8/8/8/8/6q1/K7 w - - 0 1").unwrap();
    let lost = search_score(&game, 3);
    assert!(lost < -500, "without history White is lost: {lost}");
    game.play_uci_moves(["a1b1", "g2g3", "b1a1", "g3g2"]).unwrap();
    assert_eq!(search_score(&game, 3), 0);
}

#[test]
fn fifty_move_rule_in_the_search() {
    // Halfmove clock 99: White's only moves reach 100 half-moves, a draw before Black
    // can use the extra queen.
    let game = Game::from_fen("k7/8/8/8/8/8/q7/2K5 w - - 99 90").unwrap();
    assert_eq!(search_score(&game, 4), 0);
    let fresh = Game::from_fen("k7/8/8/8/8/8/q7/2K5 w - - 0 90").unwrap();
    assert!(search_score(&fresh, 4) < -500);
}
