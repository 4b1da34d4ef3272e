//! Move generation against the shared perft suite (the file's counts are the oracle).
mod common;

use meshmate::chess::{gives_check, legal_moves, parse_epd_file, perft, Board};

/// Counts above this are skipped to keep the test fast in release mode.
const MAX_NODES: u64 = 5_000_000;

#[test]
fn every_shared_perft_position_matches_its_counts() {
    let records = parse_epd_file(&common::shared_data("perft.epd")).expect("perft.epd parses");
    assert!(records.len() >= 20, "the suite has its positions");
    let mut checked = 0;
    for epd in &records {
        for depth in 1..=6 {
            let Some(expected) = epd.get(&format!("D{depth}")) else { continue };
            let expected: u64 = expected.parse().expect("counts are numbers");
            if expected > MAX_NODES {
                continue;
            }
            assert_eq!(perft(&epd.board, depth), expected, "{} depth {depth}", epd.get("id").unwrap_or("?"));
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} counts checked");
}

/// `gives_check` decides without making the move; making it is the oracle. Every move of
/// every position the suite reaches in two plies covers castling, en passant,
/// promotions and discovered checks.
#[test]
fn gives_check_agrees_with_making_the_move() {
    fn walk(board: &Board, plies: u32, checks: &mut u64, moves: &mut u64) {
        for mv in legal_moves(board) {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let checks_king = !child.checkers().is_empty();
            assert_eq!(gives_check(board, mv), checks_king, "{mv} in {board}");
            *moves += 1;
            *checks += u64::from(checks_king);
            if plies > 1 {
                walk(&child, plies - 1, checks, moves);
            }
        }
    }
    let records = parse_epd_file(&common::shared_data("perft.epd")).expect("perft.epd parses");
    let (mut checks, mut moves) = (0, 0);
    for epd in &records {
        walk(&epd.board, 3, &mut checks, &mut moves);
    }
    assert!(checks > 1_000 && moves > 100_000, "{checks} checks among {moves} moves");
}
