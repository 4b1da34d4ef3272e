//! Fitting the network to positions from games: each position's target blends the
//! search's score and the game's result (WDL), both as a win probability; the loss is the
//! squared error of the network's probability, minimised by Adam over mini-batches. The
//! inputs are sparse (at most 32 of 768 active per perspective), so a batch costs only
//! the rows it touches; the trainer runs on one thread in floating point and quantises at
//! the end. Seeded: the same data and settings give the same network.
//!
//! Memory: a [`Sample`] keeps one perspective's inputs (the other's follow from them) in
//! 72 bytes, and mirror images are made as they are trained on, so 50 M positions take
//! some 3.6 GB; positions are read into samples one at a time ([`read_positions`],
//! `records::read_records`), never held as boards.
use super::features::{for_each_active, INPUTS};
use super::network::Row;
use super::{Network, HIDDEN, QA, QB, SCALE};
use crate::random::Random;
use cozy_chess::{Board, Color};

/// The largest weight magnitude: keeps the integer output layer from overflowing (see
/// [`Network`]) and the feature sums within i16.
const WEIGHT_LIMIT: f32 = 1.98;

/// One training position: the active inputs of the side to move's perspective, and the
/// target win probability of the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    ours: [u16; 32],
    count: u8,
    target: f32,
}

// The module's memory figure (50 M positions in 3.6 GB) rests on this.
const _: () = assert!(std::mem::size_of::<Sample>() == 72);

impl Sample {
    /// The sample of `board` with target `target` (the mover's win probability).
    pub fn new(board: &Board, target: f32) -> Sample {
        let mut sample = Sample { ours: [0; 32], count: 0, target };
        let mut n = 0;
        for_each_active(board, board.side_to_move(), |i| {
            sample.ours[n] = i as u16;
            n += 1;
        });
        sample.count = n as u8;
        sample
    }

    /// The active inputs of perspective `half` (0 the mover's, 1 the other's), of the
    /// position or, `mirrored`, of its files reversed (a ↔ h): the network sees no castling
    /// rights, and a chess position is worth the same mirrored so, which doubles the
    /// positions a game gives. The other side sees each piece with the relation (own or
    /// enemy) swapped and the board flipped top to bottom (`features::index`).
    fn inputs(&self, half: usize, mirrored: bool) -> impl Iterator<Item = usize> + '_ {
        let mirror = if mirrored { 7 } else { 0 };
        self.ours[..self.count as usize].iter().map(move |&input| {
            let input = input as usize ^ mirror;
            if half == 0 {
                input
            } else {
                ((input + INPUTS / 2) % INPUTS) ^ 56
            }
        })
    }
}

/// Win probability of a score in centipawns (the scale the network's output is read in).
pub fn win_probability(centipawns: f32) -> f32 {
    1.0 / (1.0 + (-centipawns / SCALE as f32).exp())
}

/// The lines of `text` that are positions (neither empty nor a `#` comment).
fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().map(str::trim).enumerate().filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// How many positions [`read_positions`] will read from `text`.
pub fn count_positions(text: &str) -> usize {
    position_lines(text).count()
}

/// Reads `FEN;result;score` lines (result `1-0`, `1/2-1/2` or `0-1`, score in centipawns,
/// both from White's view; `#` starts a comment) as positions and their targets, handing
/// each to `each`: `lambda` times the score's win probability plus `1 − lambda` times the
/// result, for the mover.
pub fn read_positions(text: &str, lambda: f32, mut each: impl FnMut(Board, f32)) -> Result<(), String> {
    for (number, line) in position_lines(text) {
        let (board, target) = parse_line(line, lambda).map_err(|why| format!("line {}: {why}: `{line}`", number + 1))?;
        each(board, target);
    }
    Ok(())
}

fn parse_line(line: &str, lambda: f32) -> Result<(Board, f32), String> {
    let mut fields = line.split(';');
    let (Some(fen), Some(result), Some(score), None) = (fields.next(), fields.next(), fields.next(), fields.next()) else {
        return Err("expected `FEN;result;score`".into());
    };
    let white_result = match result.trim() {
        "1-0" => 1.0,
        "1/2-1/2" => 0.5,
        "0-1" => 0.0,
        other => return Err(format!("unknown result `{other}` (expected 1-0, 1/2-1/2 or 0-1)")),
    };
    let white_score: f32 = score.trim().parse().map_err(|_| format!("score `{}` is not a number", score.trim()))?;
    let board: Board = fen.trim().parse().map_err(|error| format!("bad FEN ({error:?})"))?;
    if board.occupied().len() > 32 {
        return Err("more than 32 pieces".into());
    }
    Ok(position_target(board, white_result, white_score, lambda))
}

/// `board` with its target: `lambda` times the win probability of White's score
/// `white_score` plus `1 − lambda` times White's points `white_result`, for the mover.
pub(super) fn position_target(board: Board, white_result: f32, white_score: f32, lambda: f32) -> (Board, f32) {
    let white_target = lambda * win_probability(white_score) + (1.0 - lambda) * white_result;
    let target = if board.side_to_move() == Color::White { white_target } else { 1.0 - white_target };
    (board, target)
}

/// The network in floating point, with Adam's moment estimates.
pub struct Trainer {
    weights: Params,
    gradient: Params,
    first_moment: Params,
    second_moment: Params,
    steps: i32,
    random: Random,
}

/// Every parameter, flat: feature weights (input by input), feature bias, output weights
/// (mover's half, then the other's), output bias.
#[derive(Clone)]
struct Params(Vec<f32>);

const FEATURE_BIAS: usize = INPUTS * HIDDEN;
const OUTPUT: usize = FEATURE_BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT + 2 * HIDDEN;
const PARAMS: usize = OUTPUT_BIAS + 1;

impl Trainer {
    /// A network with small random weights drawn from `seed`.
    pub fn new(seed: u64) -> Trainer {
        let mut random = Random::new(seed, 0);
        let mut uniform = |limit: f32| (random.next_unit() as f32 * 2.0 - 1.0) * limit;
        let mut weights = vec![0.0; PARAMS];
        weights[..FEATURE_BIAS].iter_mut().for_each(|w| *w = uniform(0.15));
        weights[FEATURE_BIAS..OUTPUT].iter_mut().for_each(|w| *w = 0.25);
        weights[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| *w = uniform(0.1));
        let zero = Params(vec![0.0; PARAMS]);
        Trainer { weights: Params(weights), gradient: zero.clone(), first_moment: zero.clone(), second_moment: zero, steps: 0, random: Random::new(seed, 1) }
    }

    /// A trainer that goes on from `network`'s weights (each divided by its scale), so that
    /// a network can be trained further on new positions; `seed` draws the shuffles. Its
    /// [`Trainer::quantise`] gives `network` back unchanged.
    pub fn from_network(network: &Network, seed: u64) -> Trainer {
        let mut trainer = Trainer::new(seed);
        let w = &mut trainer.weights.0;
        let rows = network.feature_weights.iter().map(|row| &row.0).chain([&network.feature_bias]);
        for (row, start) in rows.zip((0..).step_by(HIDDEN)) {
            w[start..start + HIDDEN].iter_mut().zip(row).for_each(|(w, &q)| *w = q as f32 / QA as f32);
        }
        for (half, Row(row)) in network.output_weights.iter().enumerate() {
            w[OUTPUT + half * HIDDEN..][..HIDDEN].iter_mut().zip(row).for_each(|(w, &q)| *w = q as f32 / QB as f32);
        }
        w[OUTPUT_BIAS] = (network.output_bias as f64 / (QA * QB) as f64) as f32;
        trainer
    }

    /// The network's win probability for the mover and the two perspectives' hidden sums,
    /// of the sample or (`mirrored`) of its mirror image.
    fn forward(&self, sample: &Sample, mirrored: bool, sums: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let w = &self.weights.0;
        let mut output = w[OUTPUT_BIAS];
        for (half, sum) in sums.iter_mut().enumerate() {
            sum.copy_from_slice(&w[FEATURE_BIAS..OUTPUT]);
            for input in sample.inputs(half, mirrored) {
                let row = &w[input * HIDDEN..][..HIDDEN];
                sum.iter_mut().zip(row).for_each(|(s, r)| *s += r);
            }
            let out = &w[OUTPUT + half * HIDDEN..][..HIDDEN];
            output += sum.iter().zip(out).map(|(s, o)| s.clamp(0.0, 1.0).powi(2) * o).sum::<f32>();
        }
        1.0 / (1.0 + (-output).exp())
    }

    /// Mean squared error of the win probability over `samples`.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        let mut sums = [[0.0; HIDDEN]; 2];
        let total: f64 = samples.iter().map(|s| (self.forward(s, false, &mut sums) - s.target).powi(2) as f64).sum();
        total / samples.len().max(1) as f64
    }

    /// One pass over `samples` (and, with `mirror`, their mirror images) in a fresh random
    /// order, in batches of `batch`, at learning rate `rate`; returns the mean training loss.
    pub fn epoch(&mut self, samples: &[Sample], mirror: bool, batch: usize, rate: f32) -> f64 {
        // Entry i is sample i / 2, mirrored when i is odd (or sample i, without mirrors).
        let images = if mirror { 2 } else { 1 };
        let mut order: Vec<u32> = (0..(samples.len() * images) as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (self.random.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut total = 0.0;
        for chunk in order.chunks(batch.max(1)) {
            self.gradient.0.iter_mut().for_each(|g| *g = 0.0);
            for &entry in chunk {
                let entry = entry as usize;
                total += self.accumulate_gradient(&samples[entry / images], entry % images == 1);
            }
            self.adam(rate, chunk.len() as f32);
        }
        total / order.len().max(1) as f64
    }

    /// Adds the gradient of one sample's loss (or its mirror image's); returns the loss.
    fn accumulate_gradient(&mut self, sample: &Sample, mirrored: bool) -> f64 {
        let mut sums = [[0.0; HIDDEN]; 2];
        let p = self.forward(sample, mirrored, &mut sums);
        let error = p - sample.target;
        let g_out = 2.0 * error * p * (1.0 - p);
        let (w, grad) = (&self.weights.0, &mut self.gradient.0);
        grad[OUTPUT_BIAS] += g_out;
        for half in 0..2 {
            let mut g_sum = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                let s = sums[half][j];
                let clipped = s.clamp(0.0, 1.0);
                grad[OUTPUT + half * HIDDEN + j] += g_out * clipped * clipped;
                if s > 0.0 && s < 1.0 {
                    g_sum[j] = g_out * w[OUTPUT + half * HIDDEN + j] * 2.0 * s;
                }
            }
            grad[FEATURE_BIAS..OUTPUT].iter_mut().zip(&g_sum).for_each(|(g, d)| *g += d);
            for input in sample.inputs(half, mirrored) {
                grad[input * HIDDEN..][..HIDDEN].iter_mut().zip(&g_sum).for_each(|(g, d)| *g += d);
            }
        }
        (error * error) as f64
    }

    /// One Adam step on the mean gradient of a batch of `size`, then the weight clip.
    fn adam(&mut self, rate: f32, size: f32) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        const EPSILON: f32 = 1e-8;
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps);
        let correction2 = 1.0 - BETA2.powi(self.steps);
        let moments = self.first_moment.0.iter_mut().zip(self.second_moment.0.iter_mut());
        for ((w, g), (m, v)) in self.weights.0.iter_mut().zip(&self.gradient.0).zip(moments) {
            let g = g / size;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= rate * (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }

    /// The integer network (weights rounded to their scales).
    pub fn quantise(&self) -> Network {
        let w = &self.weights.0;
        let round = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let row = |start: usize, scale: i32| {
            let mut row = [0i16; HIDDEN];
            row.iter_mut().zip(&w[start..start + HIDDEN]).for_each(|(q, x)| *q = round(*x, scale));
            row
        };
        Network {
            feature_weights: (0..INPUTS).map(|i| Row(row(i * HIDDEN, QA))).collect(),
            feature_bias: row(FEATURE_BIAS, QA),
            output_weights: [Row(row(OUTPUT, QB)), Row(row(OUTPUT + HIDDEN, QB))],
            output_bias: (w[OUTPUT_BIAS] * (QA * QB) as f32).round() as i32,
        }
    }

    /// The floating-point network's value of `board` in centipawns (mover's view), to
    /// check the quantised one against.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let p = self.forward(&Sample::new(board, 0.0), false, &mut [[0.0; HIDDEN]; 2]);
        SCALE as f32 * (p / (1.0 - p)).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(inputs: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut inputs: Vec<usize> = inputs.collect();
        inputs.sort_unstable();
        inputs
    }

    /// A sample keeps the mover's inputs only: the other perspective's and the mirror
    /// image's derived from them must be the board's own.
    #[test]
    fn the_other_perspective_and_the_mirror_image_come_from_the_movers_inputs() {
        for fen in ["r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4", "8/2P5/8/8/3k4/8/5p2/4K3 w - - 0 60"] {
            let board: Board = fen.parse().unwrap();
            let mirror: Board = {
                let mut builder = cozy_chess::BoardBuilder::empty();
                for square in board.occupied() {
                    let flipped = cozy_chess::Square::new(square.file().flip(), square.rank());
                    *builder.square_mut(flipped) = Some((board.piece_on(square).unwrap(), board.color_on(square).unwrap()));
                }
                builder.side_to_move = board.side_to_move();
                builder.build().unwrap()
            };
            let sample = Sample::new(&board, 0.5);
            for (half, perspective) in [board.side_to_move(), !board.side_to_move()].into_iter().enumerate() {
                let mut own = Vec::new();
                for_each_active(&board, perspective, |i| own.push(i));
                assert_eq!(sorted(sample.inputs(half, false)), sorted(own.into_iter()), "{fen}, perspective {half}");
                let mut mirrored = Vec::new();
                for_each_active(&mirror, perspective, |i| mirrored.push(i));
                assert_eq!(sorted(sample.inputs(half, true)), sorted(mirrored.into_iter()), "{fen} mirrored, perspective {half}");
            }
        }
    }
}
