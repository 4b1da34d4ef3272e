//! Fitting the network to positions from games: each position's target blends the
//! search's score and the game's result (WDL), both as a win probability; the loss is the
//! squared error of the network's probability, minimised by Adam over mini-batches. The
//! inputs are sparse (at most 32 of 768 active per perspective), so a batch costs only
//! the rows it touches; the trainer runs on one thread in floating point and quantises at
//! the end. Seeded: the same data and settings give the same network.
use super::features::{for_each_active, INPUTS};
use super::{Network, HIDDEN, QA, QB, SCALE};
use crate::random::Random;
use cozy_chess::{Board, Color};

/// The largest weight magnitude: keeps the integer output layer from overflowing (see
/// [`Network`]) and the feature sums within i16.
const WEIGHT_LIMIT: f32 = 1.98;

/// One training position: the active inputs of the side to move's perspective and of the
/// other's, and the target win probability of the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    ours: [u16; 32],
    theirs: [u16; 32],
    count: u8,
    target: f32,
}

impl Sample {
    /// The sample of `board` with target `target` (the mover's win probability).
    pub fn new(board: &Board, target: f32) -> Sample {
        let mut sample = Sample { ours: [0; 32], theirs: [0; 32], count: 0, target };
        let mover = board.side_to_move();
        let mut n = 0;
        for_each_active(board, mover, |i| {
            sample.ours[n] = i as u16;
            n += 1;
        });
        let mut m = 0;
        for_each_active(board, !mover, |i| {
            sample.theirs[m] = i as u16;
            m += 1;
        });
        sample.count = n as u8;
        sample
    }

    /// The same position with its files reversed (a ↔ h), the same target: the network
    /// sees no castling rights, and a chess position is worth the same mirrored so, which
    /// doubles the positions a game gives.
    pub fn mirrored(&self) -> Sample {
        let flip = |input: &mut u16| *input ^= 7;
        let mut sample = self.clone();
        sample.ours.iter_mut().chain(sample.theirs.iter_mut()).for_each(flip);
        sample
    }
}

/// Win probability of a score in centipawns (the scale the network's output is read in).
pub fn win_probability(centipawns: f32) -> f32 {
    1.0 / (1.0 + (-centipawns / SCALE as f32).exp())
}

/// Reads `FEN;result;score` lines (result `1-0`, `1/2-1/2` or `0-1`, score in centipawns,
/// both from White's view; `#` starts a comment) as positions and their targets: `lambda`
/// times the score's win probability plus `1 − lambda` times the result, for the mover.
pub fn load_positions(text: &str, lambda: f32) -> Result<Vec<(Board, f32)>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = parse_line(line, lambda).map_err(|why| format!("line {}: {why}: `{line}`", number + 1))?;
        positions.push(position);
    }
    Ok(positions)
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

    /// The network's win probability for the mover and the two perspectives' hidden sums.
    fn forward(&self, sample: &Sample, sums: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let w = &self.weights.0;
        let mut output = w[OUTPUT_BIAS];
        for (half, inputs) in [&sample.ours, &sample.theirs].into_iter().enumerate() {
            let sum = &mut sums[half];
            sum.copy_from_slice(&w[FEATURE_BIAS..OUTPUT]);
            for &input in &inputs[..sample.count as usize] {
                let row = &w[input as usize * HIDDEN..][..HIDDEN];
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
        let total: f64 = samples.iter().map(|s| (self.forward(s, &mut sums) - s.target).powi(2) as f64).sum();
        total / samples.len().max(1) as f64
    }

    /// One pass over `samples` in a fresh random order, in batches of `batch`, at learning
    /// rate `rate`; returns the mean training loss.
    pub fn epoch(&mut self, samples: &[Sample], batch: usize, rate: f32) -> f64 {
        let mut order: Vec<usize> = (0..samples.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (self.random.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut total = 0.0;
        for chunk in order.chunks(batch.max(1)) {
            self.gradient.0.iter_mut().for_each(|g| *g = 0.0);
            for &index in chunk {
                total += self.accumulate_gradient(&samples[index]);
            }
            self.adam(rate, chunk.len() as f32);
        }
        total / samples.len().max(1) as f64
    }

    /// Adds the gradient of one sample's loss; returns the loss.
    fn accumulate_gradient(&mut self, sample: &Sample) -> f64 {
        let mut sums = [[0.0; HIDDEN]; 2];
        let p = self.forward(sample, &mut sums);
        let error = p - sample.target;
        let g_out = 2.0 * error * p * (1.0 - p);
        let (w, grad) = (&self.weights.0, &mut self.gradient.0);
        grad[OUTPUT_BIAS] += g_out;
        for (half, inputs) in [&sample.ours, &sample.theirs].into_iter().enumerate() {
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
            for &input in &inputs[..sample.count as usize] {
                grad[input as usize * HIDDEN..][..HIDDEN].iter_mut().zip(&g_sum).for_each(|(g, d)| *g += d);
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
            feature_weights: (0..INPUTS).map(|i| row(i * HIDDEN, QA)).collect(),
            feature_bias: row(FEATURE_BIAS, QA),
            output_weights: [row(OUTPUT, QB), row(OUTPUT + HIDDEN, QB)],
            output_bias: (w[OUTPUT_BIAS] * (QA * QB) as f32).round() as i32,
        }
    }

    /// The floating-point network's value of `board` in centipawns (mover's view), to
    /// check the quantised one against.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let p = self.forward(&Sample::new(board, 0.0), &mut [[0.0; HIDDEN]; 2]);
        SCALE as f32 * (p / (1.0 - p)).ln()
    }
}
