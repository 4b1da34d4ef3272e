//! Parsers never panic: arbitrary text given as FEN, EPD, SAN, UCI moves or UCI command
//! lines gives a value or an error, arbitrary bytes given as a training record (`meshmate
//! datagen`'s) a position or an error, and a UCI session fed arbitrary lines still answers.
//! Random text mostly fails early, so each property also draws from the format's own
//! alphabet and words, which reach the deeper checks.
//!
//! `./build.sh test` runs 256 cases per property (a few seconds). For a long run:
//! `PROPTEST_CASES=1000000 cargo test --release --test parsers` (about an hour here).
//! Native only: proptest is a native dev-dependency (the wasm test build compiles every
//! test target, this one to nothing).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::host::Collecting;
use meshmate::chess::{format_san, legal_moves, parse_epd, parse_epd_file, parse_fen, parse_san, parse_uci, Board, Game, START_FEN};
use meshmate::eval::nnue::records::{self, RECORD_BYTES};
use meshmate::uci::{parse, Engine};
use proptest::prelude::*;
use std::sync::Arc;

/// Positions with castling, promotions, en passant and checks, for the move parsers.
const BOARDS: [&str; 4] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
];

/// Text shaped like a FEN: piece placement, side, castling, en passant and counters, each
/// drawn from its own alphabet (so most are wrong in one field only).
fn fen_like() -> impl Strategy<Value = String> {
    "[pnbrqkPNBRQK1-9/]{0,72} [wbx-]{0,2} [KQkqA-H-]{0,5} ([a-i][0-9]|-) -?[0-9]{0,4} -?[0-9]{0,4}"
}

/// Text shaped like a move in SAN or UCI notation.
fn move_like() -> impl Strategy<Value = String> {
    "[KQRBNkqrbnP]?[a-i]?[0-9]?[x-]?[a-i][0-9](=?[QRBNKqrbnk])?[+#!?]{0,2}|[O0]-[O0](-[O0])?[+#]?|[a-h][1-8][a-h][1-8][qrbnk]?|0000"
}

/// A UCI command line: known words, numbers and moves in any order.
fn uci_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("position".to_string()),
        Just("startpos".to_string()),
        Just("fen".to_string()),
        Just("moves".to_string()),
        Just("setoption".to_string()),
        Just("name".to_string()),
        Just("value".to_string()),
        Just("Hash".to_string()),
        Just("Threads".to_string()),
        Just("MultiPV".to_string()),
        Just("Algorithm".to_string()),
        Just("UCI_Elo".to_string()),
        Just("Move Overhead".to_string()),
        Just("isready".to_string()),
        Just("ucinewgame".to_string()),
        Just("wtime".to_string()),
        Just("searchmoves".to_string()),
        Just("d".to_string()),
        "-?[0-9]{1,20}",
        move_like(),
        "[ -~]{0,12}",
    ];
    prop::collection::vec(word, 0..12).prop_map(|words| words.join(" "))
}

proptest! {
    #[test]
    fn fen_gives_a_board_or_an_error(text in any::<String>(), shaped in fen_like(), which in 0..BOARDS.len(), at in any::<prop::sample::Index>(), with in "[ -~]") {
        // A real FEN with one character changed: wrong in one detail only.
        let mut altered: Vec<char> = BOARDS[which].chars().collect();
        let position = at.index(altered.len());
        altered[position] = with.chars().next().unwrap_or(' ');
        let altered: String = altered.into_iter().collect();
        for fen in [&text, &shaped, &altered] {
            if let Ok(board) = parse_fen(fen) {
                // What parses is a position the engine can play from.
                prop_assert_eq!(parse_fen(&format!("{board}")).ok(), Some(board.clone()));
                let _ = legal_moves(&board);
            }
        }
    }

    #[test]
    fn epd_gives_records_or_an_error(text in any::<String>(), fen in fen_like(), operations in "( ?[a-zA-Z][a-zA-Z0-9_]{0,4}( [^;]{0,12})?;){0,4}") {
        let _ = parse_epd(&text);
        let _ = parse_epd_file(&text);
        let line = format!("{fen} {operations}");
        let _ = parse_epd(&line);
        let _ = parse_epd_file(&format!("# a suite\n{line}\n\n{line}"));
    }

    #[test]
    fn moves_give_a_legal_move_or_an_error(text in any::<String>(), shaped in move_like(), which in 0..BOARDS.len()) {
        let board: Board = parse_fen(BOARDS[which]).unwrap();
        let legal = legal_moves(&board);
        for notation in [&text, &shaped] {
            if let Ok(mv) = parse_san(&board, notation) {
                prop_assert!(legal.contains(&mv), "SAN {} gave an illegal move", notation);
                prop_assert_eq!(parse_san(&board, &format_san(&board, mv)).ok(), Some(mv));
            }
            if let Ok(mv) = parse_uci(&board, notation) {
                prop_assert!(legal.contains(&mv), "UCI {} gave an illegal move", notation);
            }
        }
    }

    #[test]
    fn record_bytes_give_a_position_or_an_error(bytes in prop::collection::vec(any::<u8>(), RECORD_BYTES), board in 0..BOARDS.len(), at in 0..RECORD_BYTES, with in any::<u8>()) {
        let _ = records::decode(bytes.as_slice().try_into().unwrap());
        // A real record with one byte changed reaches the deeper checks.
        let mut record = records::encode(&parse_fen(BOARDS[board]).unwrap(), 12, records::GameResult::Draw);
        record[at] = with;
        let _ = records::decode(&record);
    }

    #[test]
    fn uci_lines_give_a_command_or_an_error(text in any::<String>(), shaped in uci_line()) {
        let game = Game::default();
        for line in [&text, &shaped] {
            let _ = parse(line, &game);
            let _ = parse(&format!("go {line}"), &game);
            let _ = parse(&format!("position fen {line}"), &game);
            let _ = parse(&format!("speedup {line}"), &game);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A session fed arbitrary lines (no searches: `go`, `bench` and `speedup` are left
    /// out, their parsing is covered above) still answers `isready`.
    #[test]
    fn a_session_survives_arbitrary_lines(lines in prop::collection::vec(prop_oneof![uci_line(), any::<String>()], 1..8)) {
        let transcript = Arc::new(Collecting::default());
        let mut engine = Engine::new(transcript.clone());
        for line in &lines {
            let first = line.split_whitespace().next().unwrap_or("");
            if !["go", "bench", "speedup", "quit", "ponderhit"].contains(&first) {
                engine.handle_line(line);
            }
        }
        prop_assert!(engine.handle_line("isready"));
        let said = transcript.lines();
        prop_assert_eq!(said.last().map(String::as_str), Some("readyok"), "{:?}", said);
    }
}
