//! `meshmate train-nnue`: fits the evaluation network to positions and writes its file.
//! The last twentieth of the positions is held out, and the network of the epoch with the
//! lowest held-out loss is the one written.

use crate::args::TrainArgs;
use crate::output::say;
use meshmate::chess::parse_fen;
use meshmate::eval::nnue::{file, records, train, Accumulator, Network};

/// Positions to show the floating-point and the integer network agree on.
const SHOWN: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
];

pub fn run_train(args: TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    let mut positions = Vec::new();
    for path in &args.data {
        let read = if path.extension().is_some_and(|e| e == "bin") {
            std::fs::read(path).map_err(|e| e.to_string()).and_then(|bytes| records::load_records(&bytes, args.lambda))
        } else {
            std::fs::read_to_string(path).map_err(|e| e.to_string()).and_then(|text| train::load_positions(&text, args.lambda))
        };
        positions.extend(read.map_err(|e| format!("{}: {e}", path.display()))?);
    }
    if positions.len() < 20 {
        return Err(format!("{} positions in {} file(s), too few to train on", positions.len(), args.data.len()));
    }
    let samples: Vec<train::Sample> = positions.iter().map(|(board, target)| train::Sample::new(board, *target)).collect();
    let split = samples.len() - samples.len() / 20;
    let (training, held_out) = samples.split_at(split);
    let training: Vec<train::Sample> = if args.no_mirror { training.to_vec() } else { training.iter().flat_map(|s| [s.clone(), s.mirrored()]).collect() };
    say!("{} positions: {} held out, {} to train on (with their mirror images unless --no-mirror)", samples.len(), held_out.len(), training.len());
    say!("the hand-written evaluation's held-out loss: {:.6}", classic_loss(&positions[split..]));
    let mut trainer = train::Trainer::new(args.seed);
    let mut best = (trainer.loss(held_out), trainer.quantise());
    say!("epoch 0: held-out loss {:.6}", best.0);
    let start = std::time::Instant::now();
    for epoch in 1..=args.epochs {
        let progress = (epoch - 1) as f32 / args.epochs as f32;
        let rate = args.rate * (1.0 - 0.9 * progress);
        let training_loss = trainer.epoch(&training, args.batch as usize, rate);
        let held_out_loss = trainer.loss(held_out);
        say!("epoch {epoch}: training loss {training_loss:.6}, held-out loss {held_out_loss:.6}, rate {rate:.5}, {:.0} s", start.elapsed().as_secs_f64());
        if held_out_loss < best.0 {
            best = (held_out_loss, trainer.quantise());
        }
    }
    let (loss, network) = best;
    let bytes = file::encode(&network);
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    say!("wrote {} ({} bytes), held-out loss {loss:.6}", args.out.display(), bytes.len());
    show(&trainer, &network);
    Ok(())
}

/// The loss of the hand-written evaluation's win probability on `positions`: the mark
/// the network has to beat.
fn classic_loss(positions: &[(meshmate::chess::Board, f32)]) -> f64 {
    let error = |(board, target): &(meshmate::chess::Board, f32)| (train::win_probability(meshmate::eval::evaluate(board) as f32) - target).powi(2) as f64;
    positions.iter().map(error).sum::<f64>() / positions.len() as f64
}

/// The last epoch's floating-point values and the written network's integer ones.
fn show(trainer: &train::Trainer, network: &Network) {
    for fen in SHOWN {
        let board = parse_fen(fen).expect("the shown positions are valid");
        let integer = network.evaluate(&Accumulator::refreshed(network, &board), board.side_to_move());
        say!("{fen}: {:.0} cp (last epoch, floating point), {integer} cp (written network)", trainer.evaluate(&board));
    }
}
