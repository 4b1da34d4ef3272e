//! `meshmate train-nnue`: fits the evaluation network to positions and writes its file.
//! The last twentieth of the positions is held out, and the network of the epoch with the
//! lowest held-out loss is the one written. It starts from random weights, or from a
//! network file's (`--init`), to train a network further on new positions.

use crate::args::TrainArgs;
use crate::output::say;
use meshmate::chess::{parse_fen, Board};
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
    // Counted first, so that reading knows which positions are held out (the last
    // twentieth) and keeps only their boards, for the hand-written evaluation's loss.
    let mut total = 0;
    for path in &args.data {
        total += read_file(path, |data| Ok(match data {
            Data::Records(bytes) => records::count_records(bytes),
            Data::Text(text) => train::count_positions(text),
        }))?;
    }
    if total < 20 {
        return Err(format!("{total} positions in {} file(s), too few to train on", args.data.len()));
    }
    let split = total - total / 20;
    let mut samples = Vec::with_capacity(total);
    let mut held_out_boards = Vec::with_capacity(total - split);
    for path in &args.data {
        let mut each = |board: Board, target: f32| {
            samples.push(train::Sample::new(&board, target));
            if samples.len() > split {
                held_out_boards.push((board, target));
            }
        };
        read_file(path, |data| match data {
            Data::Records(bytes) => records::read_records(bytes, args.lambda, &mut each),
            Data::Text(text) => train::read_positions(text, args.lambda, &mut each),
        })?;
    }
    let (training, held_out) = samples.split_at(split);
    let mirror = !args.no_mirror;
    say!("{total} positions: {} held out, {} to train on (with their mirror images unless --no-mirror)", held_out.len(), training.len() * if mirror { 2 } else { 1 });
    say!("the hand-written evaluation's held-out loss: {:.6}", classic_loss(&held_out_boards));
    let mut trainer = match &args.init {
        Some(path) => {
            let network = std::fs::read(path).map_err(|e| e.to_string()).and_then(|bytes| Network::from_bytes(&bytes));
            train::Trainer::from_network(&network.map_err(|e| format!("--init {}: {e}", path.display()))?, args.seed)
        }
        None => train::Trainer::new(args.seed),
    };
    let mut best = Best::of(&trainer, trainer.loss(held_out));
    say!("epoch 0: held-out loss {:.6}", best.loss);
    let start = std::time::Instant::now();
    for epoch in 1..=args.epochs {
        let progress = (epoch - 1) as f32 / args.epochs as f32;
        let rate = args.rate * (1.0 - 0.9 * progress);
        let training_loss = trainer.epoch(training, mirror, args.batch as usize, rate);
        let held_out_loss = trainer.loss(held_out);
        say!("epoch {epoch}: training loss {training_loss:.6}, held-out loss {held_out_loss:.6}, rate {rate:.5}, {:.0} s", start.elapsed().as_secs_f64());
        if held_out_loss < best.loss {
            best = Best::of(&trainer, held_out_loss);
        }
    }
    let bytes = file::encode(&best.network);
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    say!("wrote {} ({} bytes), held-out loss {:.6} (floating point), {:.6} (the written integer network)", args.out.display(), bytes.len(), best.loss, network_loss(&best.network, &held_out_boards));
    best.show();
    Ok(())
}

/// The epoch with the lowest held-out loss: its integer network, and its floating-point
/// values of the [`SHOWN`] positions, to show what rounding moved.
struct Best {
    loss: f64,
    network: Network,
    shown: [f32; SHOWN.len()],
}

impl Best {
    fn of(trainer: &train::Trainer, loss: f64) -> Best {
        let shown = SHOWN.map(|fen| trainer.evaluate(&parse_fen(fen).expect("the shown positions are valid")));
        Best { loss, network: trainer.quantise(), shown }
    }

    /// Each shown position's floating-point and integer values.
    fn show(&self) {
        for (fen, float) in SHOWN.iter().zip(self.shown) {
            let board = parse_fen(fen).expect("the shown positions are valid");
            let integer = self.network.evaluate(&Accumulator::refreshed(&self.network, &board), board.side_to_move());
            say!("{fen}: {float:.0} cp (floating point), {integer} cp (written network)");
        }
    }
}

/// A data file's contents: `datagen`'s records (a name ending in .bin) or text.
enum Data<'a> {
    Records(&'a [u8]),
    Text(&'a str),
}

/// Reads the file at `path` and gives its contents to `use_data`; errors name the file.
fn read_file<T>(path: &std::path::Path, use_data: impl FnOnce(Data<'_>) -> Result<T, String>) -> Result<T, String> {
    let used = if path.extension().is_some_and(|e| e == "bin") {
        std::fs::read(path).map_err(|e| e.to_string()).and_then(|bytes| use_data(Data::Records(&bytes)))
    } else {
        std::fs::read_to_string(path).map_err(|e| e.to_string()).and_then(|text| use_data(Data::Text(&text)))
    };
    used.map_err(|e| format!("{}: {e}", path.display()))
}

/// The loss of the hand-written evaluation's win probability on `positions`: the mark
/// the network has to beat.
fn classic_loss(positions: &[(Board, f32)]) -> f64 {
    loss(positions, meshmate::eval::evaluate)
}

/// The loss of the integer `network` on `positions`: beside the floating-point network's,
/// what rounding the weights to their scales cost.
fn network_loss(network: &Network, positions: &[(Board, f32)]) -> f64 {
    loss(positions, |board| network.evaluate(&Accumulator::refreshed(network, board), board.side_to_move()))
}

/// The mean squared error of `evaluate`'s win probability on `positions`.
fn loss(positions: &[(Board, f32)], evaluate: impl Fn(&Board) -> i32) -> f64 {
    let error = |(board, target): &(Board, f32)| (train::win_probability(evaluate(board) as f32) - target).powi(2) as f64;
    positions.iter().map(error).sum::<f64>() / positions.len() as f64
}
