//! FEN in and out, one error per kind of bad FEN, and bad move lists.
use meshmate::chess::{format_san, parse_fen, parse_san, parse_uci, FenError, Game, START_FEN};

#[test]
fn fen_round_trips() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 12 57",
        "4k3/8/8/8/8/8/8/4K2R b K - 3 40",
    ] {
        assert_eq!(parse_fen(fen).unwrap().to_string(), fen);
    }
    // EPD-style FEN without clocks gets the default clocks.
    assert_eq!(parse_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap().to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

/// A FEN and a test that its error is the expected kind.
type BadFen = (&'static str, fn(&FenError) -> bool);

#[test]
fn each_kind_of_bad_fen_has_its_own_error() {
    let cases: [BadFen; 14] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", |e| matches!(e, FenError::FieldCount(3))),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::RankCount(7))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", |e| matches!(e, FenError::BadPieceLetter('X'))),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::BadPieceLetter('9'))),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, FenError::RankLength { rank: 7, squares: 7 })),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", |e| matches!(e, FenError::KingCount { count: 0, .. })),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", |e| matches!(e, FenError::KingCount { count: 2, .. })),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| matches!(e, FenError::PawnOnBackRank)),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", |e| matches!(e, FenError::BadSideToMove(_))),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", |e| matches!(e, FenError::OpponentInCheck)),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", |e| matches!(e, FenError::BadCastling(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", |e| matches!(e, FenError::BadEnPassant(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", |e| matches!(e, FenError::BadHalfmoveClock(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", |e| matches!(e, FenError::BadFullmoveNumber(_))),
    ];
    for (fen, is_expected) in cases {
        let err = parse_fen(fen).expect_err(fen);
        assert!(is_expected(&err), "{fen}: got {err:?}");
        assert!(!err.to_string().is_empty());
    }
    let err = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra").unwrap_err();
    assert_eq!(err, FenError::FieldCount(7));
    let triple_check = parse_fen("4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1").unwrap_err();
    assert_eq!(triple_check, FenError::ImpossibleCheck);
}

#[test]
fn illegal_moves_in_a_move_list_change_nothing() {
    let mut game = Game::default();
    let err = game.play_uci_moves(["e2e4", "e7e5", "e1e3"]).unwrap_err();
    assert_eq!(err.index, 2);
    assert!(err.to_string().contains("e1e3"));
    assert_eq!(game.board().to_string(), START_FEN, "a bad list leaves the game as it was");
    assert!(game.play_uci_moves(["e2e4", "xx"]).is_err());
    game.play_uci_moves(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]).unwrap();
    assert!(game.board().to_string().starts_with("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq"));
}

#[test]
fn uci_and_san_text() {
    let board = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let castle = parse_uci(&board, "e1g1").unwrap();
    assert_eq!(format_san(&board, castle), "O-O");
    assert_eq!(meshmate::chess::format_uci(&board, castle), "e1g1");
    assert_eq!(parse_san(&board, "O-O-O").unwrap(), parse_uci(&board, "e1c1").unwrap());
    assert_eq!(format_san(&board, parse_uci(&board, "e5f7").unwrap()), "Nxf7");
    assert_eq!(format_san(&board, parse_uci(&board, "c3b1").unwrap()), "Nb1");
    let rooks = parse_fen("7k/8/8/8/R7/8/8/R4R1K w - - 0 1").unwrap();
    assert_eq!(format_san(&rooks, parse_uci(&rooks, "a1d1").unwrap()), "Rad1");
    assert_eq!(format_san(&rooks, parse_uci(&rooks, "a1a2").unwrap()), "R1a2");
    assert_eq!(parse_san(&rooks, "R4a2").unwrap(), parse_uci(&rooks, "a4a2").unwrap());
    assert_eq!(format_san(&board, parse_uci(&board, "d5e6").unwrap()), "dxe6");
    assert!(parse_uci(&board, "e1e3").is_err());
    assert!(parse_uci(&board, "zz").is_err());
    let promo = parse_fen("8/1P6/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    assert_eq!(format_san(&promo, parse_uci(&promo, "b7b8q").unwrap()), "b8=Q");
    let mate = parse_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    assert_eq!(format_san(&mate, parse_san(&mate, "Rd8").unwrap()), "Rd8#");
}
