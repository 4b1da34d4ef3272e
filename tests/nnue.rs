//! The evaluation network: its accumulator, updated move by move, always equals one
//! computed from scratch (a property over random games with castling, en passant,
//! promotions and null moves); the network sees a position and its colour-flipped mirror
//! alike; the file format reads back what it wrote and refuses what it cannot use; the
//! trainer fits, its integer network agrees with its floating-point one, and it can go on
//! from a written network.
//!
//! Native only: proptest is a native dev-dependency.
#![cfg(not(target_arch = "wasm32"))]

use meshmate::chess::{legal_moves, parse_fen, Board, START_FEN};
use meshmate::eval::nnue::{default_network, file, train, Accumulator, Network, HIDDEN};
use proptest::prelude::*;

/// Positions where castling, en passant, promotions (also capturing) and checks are near.
const BOARDS: [&str; 5] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// A network with random weights (a trainer's starting point, quantised): every input
/// moves every sum, so a wrong update cannot hide behind zero weights.
fn random_network(seed: u64) -> Network {
    train::Trainer::new(seed).quantise()
}

/// The colour-flipped mirror of a FEN: ranks reversed, colours swapped, the other side to move.
fn mirror(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| s.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect::<String>();
    let placement = fields[0].split('/').rev().map(swap).collect::<Vec<_>>().join("/");
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(fields[2]).chars().collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(c.to_ascii_uppercase()).unwrap_or(9)));
    let castling: String = if fields[2] == "-" { "-".into() } else { castling.into_iter().collect() };
    let en_passant = match fields[3] {
        "-" => "-".to_string(),
        square => format!("{}{}", &square[..1], 9 - square[1..].parse::<u32>().unwrap()),
    };
    format!("{placement} {side} {castling} {en_passant} {} {}", fields[4], fields[5])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn incremental_sums_equal_a_refresh(start in 0..BOARDS.len(), choices in prop::collection::vec((any::<prop::sample::Index>(), 0u8..12), 1..60), seed in 1u64..4) {
        let network = random_network(seed);
        let mut board = parse_fen(BOARDS[start]).unwrap();
        let mut sums = Accumulator::refreshed(&network, &board);
        for (choice, null_chance) in choices {
            let moves = legal_moves(&board);
            let child = match board.null_move() {
                Some(passed) if null_chance == 0 => passed,
                _ if moves.is_empty() => break,
                _ => {
                    let mut child = board.clone();
                    child.play(moves[choice.index(moves.len())]);
                    child
                }
            };
            sums.update(&network, &board, &child);
            board = child;
            prop_assert_eq!(sums, Accumulator::refreshed(&network, &board), "after reaching {}", board);
        }
    }
}

#[test]
fn sums_updated_across_several_moves_equal_a_refresh() {
    // Not one move apart (a searcher never asks this, a caller may): the row-by-row path.
    let network = random_network(3);
    for fen in BOARDS {
        let start = parse_fen(fen).unwrap();
        let mut board = start.clone();
        for ply in 0..6 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.play(moves[(ply * 5) % moves.len()]);
        }
        let mut sums = Accumulator::refreshed(&network, &start);
        sums.update(&network, &start, &board);
        assert_eq!(sums, Accumulator::refreshed(&network, &board), "{fen} to {board}");
    }
}

#[test]
fn a_position_and_its_mirror_evaluate_alike() {
    let fens = BOARDS.iter().copied().chain(["r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1"]);
    for fen in fens {
        let (board, mirrored): (Board, Board) = (parse_fen(fen).unwrap(), parse_fen(&mirror(fen)).unwrap());
        assert_ne!(board, mirrored, "{fen} is not its own mirror");
        for network in [random_network(1), default_network().clone()] {
            let value = |b: &Board| network.evaluate(&Accumulator::refreshed(&network, b), b.side_to_move());
            assert_eq!(value(&board), value(&mirrored), "{fen} against {}", mirror(fen));
        }
    }
}

#[test]
fn the_shipped_network_loads_and_judges_material() {
    let network = Network::from_bytes(include_bytes!("../crate/eval/nnue/default.nnue")).expect("the shipped file is valid");
    assert_eq!(&network, default_network());
    let value = |fen: &str| meshmate::eval::nnue::evaluate_from_scratch(&parse_fen(fen).unwrap());
    let start = value(START_FEN);
    assert!(start.abs() < 100, "the start position is about even: {start}");
    // White to move a queen up, then a queen down.
    assert!(value("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 300);
    assert!(value("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1") < -300);
}

#[test]
fn the_file_reads_back_what_it_wrote_and_refuses_others() {
    let network = random_network(2);
    let bytes = file::encode(&network);
    assert_eq!(bytes.len(), file::SIZE);
    assert_eq!(Network::from_bytes(&bytes).unwrap(), network);
    let refused = |bytes: &[u8], why: &str| {
        let error = Network::from_bytes(bytes).expect_err(why);
        assert!(error.contains(why), "{error} does not say {why}");
    };
    refused(&bytes[..bytes.len() - 1], "bytes");
    refused(b"MMN", "header");
    let mut version = bytes.clone();
    version[4] = 9;
    refused(&version, "version");
    // The header of a network half as wide (the width of the networks before the fifth).
    let mut shape = bytes.clone();
    shape[12..16].copy_from_slice(&(HIDDEN as u32 / 2).to_le_bytes());
    refused(&shape, "shape");
    // The output scale of the files before the finer one (QB 64): read at this build's
    // scale, their output weights would be 32 times too small.
    let mut scale = bytes.clone();
    scale[20..24].copy_from_slice(&64u32.to_le_bytes());
    refused(&scale, "shape");
    // The last output weight (before the i32 bias) at 4,097: beyond what the output layer takes.
    let mut weight = bytes.clone();
    let at = bytes.len() - 6;
    weight[at..at + 2].copy_from_slice(&4097i16.to_le_bytes());
    refused(&weight, "beyond ±4096");
}

#[test]
fn training_fits_and_quantising_keeps_the_values() {
    // Targets from the hand-written evaluation of positions along random games.
    let mut samples = Vec::new();
    for (i, fen) in BOARDS.iter().enumerate() {
        let mut board = parse_fen(fen).unwrap();
        for ply in 0..40 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.play(moves[(ply * 7 + i * 3) % moves.len()]);
            let target = train::win_probability(meshmate::eval::evaluate(&board) as f32);
            samples.push(train::Sample::new(&board, target));
        }
    }
    let mut trainer = train::Trainer::new(5);
    let before = trainer.loss(&samples);
    for _ in 0..40 {
        trainer.epoch(&samples, false, 16, 0.002);
    }
    let after = trainer.loss(&samples);
    assert!(after < before / 2.0, "loss {before} -> {after}");
    // Rounding moves the values: this network's by 1, 0, 2, 0 and 3 cp with output weights in
    // steps of 1/2,048, where steps of 1/64 moved them by 5, −17, 0, −7 and −18. A coarser
    // output scale, a wrong scale or a misplaced row moves them by more.
    let network = trainer.quantise();
    for fen in BOARDS {
        let board = parse_fen(fen).unwrap();
        let integer = network.evaluate(&Accumulator::refreshed(&network, &board), board.side_to_move()) as f32;
        let float = trainer.evaluate(&board);
        assert!((integer - float).abs() <= 4.0, "{fen}: integer {integer}, floating point {float}");
    }
}

/// `--init`: a trainer started from a written network holds that network's weights, so
/// quantising it again gives the same file; a misplaced row or a wrong scale would not.
#[test]
fn a_trainer_started_from_a_network_writes_it_back_unchanged() {
    for network in [default_network().clone(), random_network(9)] {
        let trainer = train::Trainer::from_network(&network, 1);
        assert!(trainer.quantise() == network, "the network read back from its trainer differs");
        let board = parse_fen(BOARDS[1]).unwrap();
        let integer = network.evaluate(&Accumulator::refreshed(&network, &board), board.side_to_move()) as f32;
        assert!((trainer.evaluate(&board) - integer).abs() <= 4.0, "floating point {}, integer {integer}", trainer.evaluate(&board));
    }
}
