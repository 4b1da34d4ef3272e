//! Tests of the static evaluation (crate/eval) and its tuner, through the public API.
//! Positions come from ../shared/data and from deterministic random playouts from them.
use std::time::Instant;

use cozy_chess::{Board, Color, Move};
use meshmate::eval::tune::{fit_k, load_positions, mean_squared_error, tune, TuneConfig};
use meshmate::eval::{evaluate, evaluate_with, phase, s, taper, EvalParams, Score, MAX_EVAL};

const DATA_FILES: [&str; 4] = ["bratko-kopec.epd", "crayblitz-1993.epd", "kaufman.epd", "perft.epd"];

fn board(fen: &str) -> Board {
    fen.parse().unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
}

/// Every position of the shared EPD files.
fn data_positions() -> Vec<Board> {
    let mut boards = Vec::new();
    for file in DATA_FILES {
        let path = format!("{}/../shared/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            boards.push(board(&format!("{} 0 1", fields.join(" "))));
        }
    }
    boards
}

/// The data positions plus `plies` pseudo-random moves played from each, `rounds` times:
/// a few thousand varied, legal positions from every phase of the game.
fn playout_positions(rounds: u64, plies: usize) -> Vec<Board> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut boards = Vec::new();
    for start in data_positions() {
        for _ in 0..rounds {
            let mut board = start.clone();
            for _ in 0..plies {
                let mut moves: Vec<Move> = Vec::new();
                board.generate_moves(|list| {
                    moves.extend(list);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                board.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
                boards.push(board.clone());
            }
        }
    }
    boards
}

/// The same position with colours swapped: ranks mirrored, piece colours and side to
/// move exchanged. Its evaluation must be the same (both are side-to-move relative).
fn mirrored(position: &Board) -> Board {
    let fen = position.to_string();
    let fields: Vec<&str> = fen.split(' ').collect();
    let swap_case = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
    let placement: Vec<String> = fields[0].split('/').rev().map(|rank| rank.chars().map(swap_case).collect()).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = fields[2].chars().map(swap_case).collect();
    castling.sort_by_key(|c| "KQkq".find(*c));
    let castling: String = castling.into_iter().collect();
    let en_passant = match fields[3].split_at_checked(1) {
        Some((file, "3")) => format!("{file}6"),
        Some((file, "6")) => format!("{file}3"),
        _ => "-".to_string(),
    };
    board(&format!("{} {side} {castling} {en_passant} {} {}", placement.join("/"), fields[4], fields[5]))
}

/// Parameters that are zero except what `set` puts in, to look at one term alone.
fn only(set: impl FnOnce(&mut EvalParams)) -> EvalParams {
    let mut params = EvalParams::from_flat(&vec![Score::default(); EvalParams::LEN]);
    set(&mut params);
    params
}

/// White's point of view.
fn white_eval(board: &Board, params: &EvalParams) -> i32 {
    let eval = evaluate_with(board, params);
    if board.side_to_move() == Color::White { eval } else { -eval }
}

#[test]
fn mirror_helper_swaps_colours() {
    let b = board("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3");
    let m = mirrored(&b);
    assert_eq!(m.to_string(), "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w Qk e6 0 3");
    assert_eq!(mirrored(&m).to_string(), b.to_string());
}

#[test]
fn evaluation_is_colour_symmetric() {
    let boards = playout_positions(3, 40);
    assert!(boards.len() > 1000);
    for b in &boards {
        assert_eq!(evaluate(b), evaluate(&mirrored(b)), "asymmetric: {b}");
    }
}

#[test]
fn evaluation_is_bounded() {
    for b in playout_positions(1, 60) {
        assert!(evaluate(&b).abs() <= MAX_EVAL);
    }
    let queens = board("6rk/6pp/8/8/8/8/QQQQQQQQ/KQQQQQQQ w - - 0 1");
    assert_eq!(evaluate(&queens), MAX_EVAL);
}

#[test]
fn start_position_is_near_zero() {
    let eval = evaluate(&Board::default());
    assert!(eval.abs() <= 30, "start position: {eval}");
}

#[test]
fn extra_material_is_clearly_positive() {
    // Black's knight on g8 is missing.
    let knight_up = board("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(evaluate(&knight_up) > 200, "{}", evaluate(&knight_up));
    let black_to_move = board("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(evaluate(&black_to_move) < -200, "{}", evaluate(&black_to_move));
    // A rook for nothing in an endgame.
    assert!(evaluate(&board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")) > 300);
}

#[test]
fn phase_and_taper() {
    assert_eq!(phase(&Board::default()), 24);
    assert_eq!(phase(&board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")), 0);
    assert_eq!(phase(&board("7k/6pp/8/8/8/8/8/QQQQQQQK w - - 0 1")), 24, "capped");
    assert_eq!(taper(s(100, 40), 24), 100);
    assert_eq!(taper(s(100, 40), 0), 40);
    assert_eq!(taper(s(100, 40), 12), 70);
    assert_eq!(taper(s(-7, 0), 12), -taper(s(7, 0), 12));
}

#[test]
fn passed_pawn_on_seventh_beats_one_on_third() {
    let seventh = board("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    let third = board("7k/8/8/8/8/P7/8/K7 w - - 0 1");
    assert!(evaluate(&seventh) > evaluate(&third) + 50, "{} vs {}", evaluate(&seventh), evaluate(&third));
    let passed = only(|p| p.passed_pawn = EvalParams::DEFAULT.passed_pawn);
    assert!(white_eval(&seventh, &passed) > white_eval(&third, &passed));
    // The passed bonus grows toward promotion and is worth more in the endgame.
    let bonus = EvalParams::DEFAULT.passed_pawn;
    assert!(bonus[5].eg > bonus[1].eg && bonus[4].eg > bonus[1].eg);
    assert!(bonus[5].eg > bonus[5].mg && bonus[4].eg > bonus[4].mg);
}

#[test]
fn passed_pawns_are_recognised() {
    let params = only(|p| p.passed_pawn = [s(100, 100); 6]);
    // d5 is passed; Black's e7 pawn would stop it; only the front one of doubled pawns counts.
    assert_eq!(white_eval(&board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"), &params), 100);
    assert_eq!(white_eval(&board("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1"), &params), 0);
    assert_eq!(white_eval(&board("4k3/8/4p3/3P4/8/8/8/4K3 b - - 0 1"), &params), 0, "each stops the other");
    assert_eq!(white_eval(&board("4k3/8/8/3P4/3P4/8/8/4K3 w - - 0 1"), &params), 100);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/6p1/8/4K3 w - - 0 1"), &params), -100);
}

#[test]
fn kings_near_a_passed_pawn() {
    let params = only(|p| p.passed_king_distance = [s(-1, -1), s(10, 10)]);
    // White's d5 pawn: stop square d6, White's king on d1 is 5 away, Black's on h8 is 4.
    assert_eq!(white_eval(&board("7k/8/8/3P4/8/8/8/3K4 w - - 0 1"), &params), -5 + 40);
    // Black's passed pawn on b3 (stop square b2): Black's king on a8 is 6 away, White's on h1 6.
    assert_eq!(white_eval(&board("k7/8/8/8/8/1p6/8/7K w - - 0 1"), &params), -(-6 + 60));
}

#[test]
fn supported_pawns_and_pawn_threats() {
    let supported = only(|p| p.supported_pawn = s(7, 7));
    // c3 defends d4, d4 defends e5 (two supported); Black's lone h7 is not.
    assert_eq!(white_eval(&board("4k3/7p/8/4P3/3P4/2P5/8/4K3 w - - 0 1"), &supported), 14);
    let threat = only(|p| p.pawn_threat = s(50, 50));
    // e4 attacks the knight on d5 and the rook on f5; Black's b7 attacks nothing of value
    // (a6 is empty, c6 holds Black's own bishop); kings and pawns are not targets.
    assert_eq!(white_eval(&board("4k3/1p6/2b5/3n1r2/4P3/8/8/4K3 w - - 0 1"), &threat), 100);
    assert_eq!(white_eval(&board("8/8/8/8/8/4k3/3P4/4K3 b - - 0 1"), &threat), 0);
}

#[test]
fn doubled_pawns_are_penalised() {
    let params = only(|p| p.doubled_pawn = s(-30, -30));
    assert_eq!(white_eval(&board("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1"), &params), -30);
    assert_eq!(white_eval(&board("4k3/2p5/2p5/2p5/8/8/3P4/4K3 w - - 0 1"), &params), 60);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1"), &params), 0);
    let d = EvalParams::DEFAULT.doubled_pawn;
    assert!(d.mg < 0 && d.eg < 0, "{d:?}");
}

#[test]
fn isolated_pawns_are_penalised() {
    let params = only(|p| p.isolated_pawn = s(-20, -20));
    // a2 is isolated, c2/d2 support each other; Black's h7 is isolated.
    assert_eq!(white_eval(&board("4k3/7p/8/8/8/8/P1PP4/4K3 w - - 0 1"), &params), 0);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/P1PP4/4K3 w - - 0 1"), &params), -20);
    let i = EvalParams::DEFAULT.isolated_pawn;
    assert!(i.mg < 0 && i.eg < 0, "{i:?}");
}

#[test]
fn bishop_pair_bonus() {
    let params = only(|p| p.bishop_pair = s(40, 40));
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), &params), 40);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1"), &params), 0);
    let pair = board("rn1qkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
    let without = { let mut p = EvalParams::DEFAULT; p.bishop_pair = Score::default(); p };
    let start = Board::default();
    let bonus = taper(EvalParams::DEFAULT.bishop_pair, phase(&start));
    assert!(bonus > 0);
    // Each side has the pair at the start: the bonus cancels.
    assert_eq!(evaluate(&start), evaluate_with(&start, &without));
    assert!(evaluate(&pair) > 0);
}

#[test]
fn rooks_on_open_and_half_open_files() {
    let params = only(|p| {
        p.rook_open_file = s(30, 30);
        p.rook_half_open_file = s(10, 10);
    });
    assert_eq!(white_eval(&board("4k3/p7/8/8/8/8/1P6/R3K3 w - - 0 1"), &params), 10);
    assert_eq!(white_eval(&board("4k3/1p6/8/8/8/8/1P6/R3K3 w - - 0 1"), &params), 30);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"), &params), 0);
}

#[test]
fn mobility_counts_safe_squares() {
    let params = only(|p| p.mobility_knight = core::array::from_fn(|n| s(n as i32, n as i32)));
    // A knight on d4 reaches 8 squares, on a1 only 2.
    assert_eq!(white_eval(&board("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1"), &params), 8);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), &params), 2);
    // Black's pawn on d7 guards c6 and e6: not safe squares.
    assert_eq!(white_eval(&board("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1"), &params), 6);
    // Own pieces are not mobility: White's pawn on b3 and king on e2 block two squares.
    assert_eq!(white_eval(&board("4k3/8/8/8/3N4/1P6/4K3/8 w - - 0 1"), &params), 6);
}

#[test]
fn king_safety_counts_shield_and_attacks() {
    let shield = only(|p| p.pawn_shield = [s(10, 10), s(5, 5)]);
    assert_eq!(white_eval(&board("4k3/8/8/8/8/7P/5PP1/6K1 w - - 0 1"), &shield), 25);
    let open = only(|p| p.king_open_file = s(-20, -20));
    // White's king has one file without a pawn (g), Black's three (d, e, f).
    assert_eq!(white_eval(&board("4k3/8/8/8/8/8/5P1P/6K1 w - - 0 1"), &open), -20 + 3 * 20);
    let attack = only(|p| {
        p.king_zone_attack = [s(1, 1), s(2, 2), s(3, 3), s(4, 4)];
        p.king_attackers = [s(0, 0), s(0, 0), s(100, 100), s(200, 200), s(300, 300), s(400, 400), s(500, 500), s(600, 600)];
    });
    // Around Black's king on g8 the rook on a7 hits f7 g7 h7 (3 points each), the bishop
    // on c4 hits f7 and g8 (2 each); two attackers add 100.
    let two_attackers = board("6k1/R7/8/8/2B5/8/8/4K3 b - - 0 1");
    assert_eq!(white_eval(&two_attackers, &attack), 3 * 3 + 2 * 2 + 100);
    let defaults = EvalParams::DEFAULT;
    assert!(defaults.king_attackers[3].mg > defaults.king_attackers[1].mg);
}

#[test]
fn default_params_file_is_what_the_printer_writes() {
    let path = format!("{}/crate/eval/default_params.rs", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(&path).unwrap();
    // The header is the provenance, a blank `//!` line, then the printer's own note.
    let mut header: Vec<&str> = file.lines().take_while(|l| !l.starts_with("//! Written by")).collect();
    assert_eq!(header.pop(), Some("//!"));
    let provenance: Vec<&str> = header.iter().map(|l| l.strip_prefix("//!").unwrap().trim_start()).collect();
    assert_eq!(EvalParams::DEFAULT.to_rust_source(&provenance.join("\n")), file);
}

#[test]
fn load_positions_reads_good_lines() {
    let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1-0\n\
                4k3/8/8/8/8/8/8/4K3 b - -; 1/2-1/2 \n6k1/8/8/8/8/8/8/q5K1 w - - 3 60;0-1\n";
    let positions = load_positions(text).unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(positions.iter().map(|p| p.1).collect::<Vec<_>>(), vec![1.0, 0.5, 0.0]);
    assert_eq!(positions[1].0.side_to_move(), Color::Black);
}

#[test]
fn load_positions_rejects_bad_lines() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases = [
        (start.to_string(), "line 1: expected `FEN;result`"),
        (format!("{start};1-0\n{start};2-0"), "line 2: unknown result `2-0`"),
        (format!("\n\n{start};"), "line 3: unknown result ``"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1;1-0".to_string(), "line 1: bad FEN"),
        ("4k3/8/8/8/8/8/8/4K3 w;0-1".to_string(), "line 1: bad FEN"),
        // The side not to move is in check: not a legal position.
        (format!("{start};1-0\n4k3/4R3/8/8/8/8/8/4K3 w - - 0 1;0-1"), "line 2: bad FEN"),
    ];
    for (text, expected) in &cases {
        let error = load_positions(text).unwrap_err();
        assert!(error.starts_with(expected), "{text:?}: got {error:?}, expected {expected:?}");
    }
}

/// Positions labelled by a simple rule the tuner can learn: the side with more material won.
fn labelled_positions() -> Vec<(Board, f64)> {
    let value = |b: &Board, c: Color| {
        [(cozy_chess::Piece::Pawn, 1), (cozy_chess::Piece::Knight, 3), (cozy_chess::Piece::Bishop, 3), (cozy_chess::Piece::Rook, 5), (cozy_chess::Piece::Queen, 9)]
            .iter()
            .map(|&(p, v)| v * b.colored_pieces(c, p).len() as i32)
            .sum::<i32>()
    };
    playout_positions(1, 60)
        .into_iter()
        .step_by(3)
        .map(|b| {
            let balance = value(&b, Color::White) - value(&b, Color::Black);
            let result = match balance.signum() { 1 => 1.0, 0 => 0.5, _ => 0.0 };
            (b, result)
        })
        .collect()
}

#[test]
fn tuner_reduces_error_and_is_reproducible() {
    let positions = labelled_positions();
    assert!(positions.len() > 300, "{}", positions.len());
    // Start from weights that know nothing but a hint of material.
    let start = only(|p| p.material = [s(10, 10); 5]);
    let config = TuneConfig { iterations: 60, learning_rate: 2.0, frozen: vec!["psqt", "tempo"], regularization: 0.0 };
    let mut errors = Vec::new();
    let tuned = tune(&positions, &[], &config, &start, |p| errors.push(p.error));
    assert_eq!(errors.len(), 60);
    let k = fit_k(&positions, &start);
    let before = mean_squared_error(&positions, &start, k);
    let after = mean_squared_error(&positions, &tuned, k);
    assert!(after < before * 0.9, "error before {before}, after {after}");
    assert!(errors.last().unwrap() < &errors[0]);
    let m = tuned.material.map(|m| m.mg + m.eg);
    assert!(m[0] < m[1] && m[0] < m[2] && m[1] < m[3] && m[2] < m[3] && m[3] < m[4], "material order learnt: {m:?}");
    assert_eq!((tuned.psqt, tuned.tempo), (start.psqt, start.tempo), "frozen fields stay");
    let again = tune(&positions, &[], &config, &start, |_| {});
    assert_eq!(again, tuned);
    // With validation positions the weights of the best validation iteration come back.
    let (training, validation) = positions.split_at(positions.len() / 2);
    let mut validation_errors = Vec::new();
    let stopped = tune(training, validation, &config, &start, |p| validation_errors.push(p.validation_error.unwrap()));
    let best = validation_errors.iter().cloned().fold(f64::INFINITY, f64::min);
    let stopped_error = mean_squared_error(validation, &stopped, fit_k(training, &start));
    assert!((stopped_error - best).abs() < 0.002, "returned {stopped_error}, best seen {best}");
}

/// Tunes the default weights on a position file and writes the result as Rust source:
/// `MESHMATE_TUNE_FILE=positions.txt MESHMATE_TUNE_OUT=crate/eval/default_params.rs \
///  cargo test --release --test eval tune_on_file -- --ignored --nocapture`.
/// The file's last fifth (later games) is held out: its first half stops the tuning early
/// (see `tune`), its second half checks that the fit generalises;
/// `MESHMATE_TUNE_ITERATIONS`, `MESHMATE_TUNE_RATE`, `MESHMATE_TUNE_L2` and
/// `MESHMATE_TUNE_FROZEN` (comma-separated field names) adjust the run;
/// `MESHMATE_TUNE_SOURCE` says in the header where the positions came from.
#[test]
#[ignore]
fn tune_on_file() {
    let path = std::env::var("MESHMATE_TUNE_FILE").expect("set MESHMATE_TUNE_FILE");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let positions = load_positions(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (train, rest) = positions.split_at(positions.len() * 8 / 10);
    let (validation, holdout) = rest.split_at(rest.len() / 2);
    let iterations = std::env::var("MESHMATE_TUNE_ITERATIONS").map_or(1000, |n| n.parse().expect("iterations"));
    let frozen_names = std::env::var("MESHMATE_TUNE_FROZEN").unwrap_or_default();
    let frozen: Vec<&'static str> = frozen_names.split(',').filter(|n| !n.is_empty()).map(|n| &*n.to_string().leak()).collect();
    let learning_rate = std::env::var("MESHMATE_TUNE_RATE").map_or(1.0, |r| r.parse().expect("learning rate"));
    let regularization = std::env::var("MESHMATE_TUNE_L2").map_or(0.0, |r| r.parse().expect("L2 weight"));
    let config = TuneConfig { iterations, learning_rate, frozen: frozen.clone(), regularization };
    let start = EvalParams::DEFAULT;
    let started = Instant::now();
    let tuned = tune(train, validation, &config, &start, |p| {
        if p.iteration % 100 == 0 || p.iteration <= 5 {
            let validation = p.validation_error.unwrap_or(f64::NAN);
            println!("iteration {:5}: K {:.4}, error {:.6}, validation {validation:.6} ({:.0} s)", p.iteration, p.k, p.error, started.elapsed().as_secs_f64());
        }
    });
    let k = fit_k(train, &start);
    let report = |name: &str, set: &[(Board, f64)]| {
        let (before, after) = (mean_squared_error(set, &start, k), mean_squared_error(set, &tuned, k));
        println!("{name}: {} positions, error {before:.6} -> {after:.6}", set.len());
        (before, after)
    };
    report("training", train);
    let (before, after) = report("held out", holdout);
    assert!(after < before, "tuning made the held-out error worse");
    let source = std::env::var("MESHMATE_TUNE_SOURCE").unwrap_or_else(|_| format!("`{path}`"));
    let provenance = format!(
        "Tuned weights: the previous defaults (material and piece-square tables first taken from\n\
         PeSTO, Ronald Friederich's tables on the Chess Programming Wiki page \"PeSTO's Evaluation\n\
         Function\") fitted by `tune` to {} positions of {source}:\n\
         {iterations} iterations at rate {learning_rate}, L2 {regularization}, K {k:.4}, early stopping on\n\
         {} validation positions; held-out error {before:.6} -> {after:.6}.\n\
         Kept as they were: {}.",
        train.len(),
        validation.len(),
        if frozen.is_empty() { "nothing".to_string() } else { frozen.join(", ") },
    );
    let rust = tuned.to_rust_source(&provenance);
    match std::env::var("MESHMATE_TUNE_OUT") {
        Ok(out) => std::fs::write(&out, rust).unwrap_or_else(|e| panic!("{out}: {e}")),
        Err(_) => println!("{rust}"),
    }
}

/// Evaluations per second; run with `cargo test --release --test eval -- --ignored --nocapture`.
#[test]
#[ignore]
fn evaluation_speed() {
    let boards = playout_positions(4, 50);
    let rounds = 200;
    let started = Instant::now();
    let mut checksum = 0i64;
    for _ in 0..rounds {
        for b in &boards {
            checksum += evaluate(std::hint::black_box(b)) as i64;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let count = rounds * boards.len();
    println!("{count} evaluations of {} positions in {seconds:.3} s: {:.0} evals/s (checksum {checksum})", boards.len(), count as f64 / seconds);
}
