//! Texel tuning: fit the evaluation weights to game results.
//!
//! CITE: Peter Österlund's "Texel's Tuning Method" (Chess Programming Wiki): choose the
//! weights that minimise the mean squared error between the game result (1, ½, 0 for
//! White) and `sigmoid(eval) = 1 / (1 + 10^(-K·eval/400))`, with `K` fitted first to the
//! starting weights. Texel searched the weights one step at a time; we follow the same
//! error with gradient descent (Adam), which the evaluation allows because it is linear
//! in its weights: each position is traced once into "weight j counts c_j times (White
//! minus Black)", after which an iteration over all positions is a few multiply-adds.
//! Everything is deterministic: the same positions and iterations give the same weights.
//!
//! Positions should be quiet (the static evaluation is what gets fitted): the generator
//! that writes the position file is expected to skip checks and tactical moments.
use cozy_chess::{Board, Color};

use super::{add_terms, evaluate_with, phase, EvalParams, Score, Terms, PHASE_MAX};

/// Reads a position file: one `FEN;result` per line, result `1-0`, `1/2-1/2` or `0-1`.
/// Blank lines and lines starting with `#` are skipped; a FEN may leave out the two move
/// counters. Returns each board with White's result (1, 0.5, 0), or the first bad line.
pub fn load_positions(text: &str) -> Result<Vec<(Board, f64)>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = parse_line(line).map_err(|why| format!("line {}: {why}: `{line}`", number + 1))?;
        positions.push(position);
    }
    Ok(positions)
}

fn parse_line(line: &str) -> Result<(Board, f64), String> {
    let (fen, result) = line.split_once(';').ok_or("expected `FEN;result`, found no `;`")?;
    let result = match result.trim() {
        "1-0" => 1.0,
        "1/2-1/2" => 0.5,
        "0-1" => 0.0,
        other => return Err(format!("unknown result `{other}` (expected 1-0, 1/2-1/2 or 0-1)")),
    };
    let fen = fen.trim();
    let with_counters;
    let full_fen = if fen.split_whitespace().count() == 4 {
        with_counters = format!("{fen} 0 1");
        &with_counters
    } else {
        fen
    };
    let board: Board = full_fen.parse().map_err(|error| format!("bad FEN ({error})"))?;
    Ok((board, result))
}

/// Expected score for White of a White-relative evaluation, with scaling constant `k`.
pub fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The evaluation from White's point of view.
fn white_eval(board: &Board, params: &EvalParams) -> f64 {
    let eval = evaluate_with(board, params) as f64;
    if board.side_to_move() == Color::White { eval } else { -eval }
}

/// Mean squared error of `params` (the real, integer evaluation) over `positions`.
pub fn mean_squared_error(positions: &[(Board, f64)], params: &EvalParams, k: f64) -> f64 {
    let evals: Vec<f64> = positions.iter().map(|(board, _)| white_eval(board, params)).collect();
    error_of_evals(&evals, positions, k)
}

fn error_of_evals(evals: &[f64], positions: &[(Board, f64)], k: f64) -> f64 {
    let total: f64 = evals.iter().zip(positions).map(|(&eval, (_, result))| (result - sigmoid(eval, k)).powi(2)).sum();
    total / positions.len().max(1) as f64
}

/// The `K` that minimises the error of `params` on `positions` (golden-section search;
/// the error is unimodal in `K`).
pub fn fit_k(positions: &[(Board, f64)], params: &EvalParams) -> f64 {
    let evals: Vec<f64> = positions.iter().map(|(board, _)| white_eval(board, params)).collect();
    let error = |k: f64| error_of_evals(&evals, positions, k);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.0, 5.0);
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Progress of [`tune`], reported after each iteration.
#[derive(Clone, Copy, Debug)]
pub struct TuneProgress {
    /// Iterations done (1-based).
    pub iteration: usize,
    /// The fitted scaling constant.
    pub k: f64,
    /// Mean squared error of the current (unrounded) weights on the training positions.
    pub error: f64,
    /// The same on the validation positions, if any were given.
    pub validation_error: Option<f64>,
}

/// Settings of [`tune`].
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Full passes over the positions.
    pub iterations: usize,
    /// Adam's step size, in centipawns per iteration.
    pub learning_rate: f64,
    /// Fields of [`EvalParams`] (by name) kept at their starting values, e.g. `psqt`
    /// when there are too few positions to fit 768 square weights.
    pub frozen: Vec<&'static str>,
    /// Weight of an L2 penalty on moving away from the starting weights, per squared
    /// centipawn: a prior that keeps weights the positions say little about near their
    /// published or hand-set values.
    pub regularization: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig { iterations: 1000, learning_rate: 1.0, frozen: Vec::new(), regularization: 0.0 }
    }
}

/// Tunes every weight of `start` to `training` (each position with White's result) and
/// returns the rounded weights. Fits `K` to `start` first and keeps it fixed.
///
/// With `validation` positions (best from other games than the training ones), stops
/// early: returns the weights of the iteration with the lowest validation error, so the
/// weights do not learn the training games by heart.
pub fn tune(
    training: &[(Board, f64)],
    validation: &[(Board, f64)],
    config: &TuneConfig,
    start: &EvalParams,
    mut progress: impl FnMut(&TuneProgress),
) -> EvalParams {
    let k = fit_k(training, start);
    let training_traces = Traces::new(training, start);
    let validation_traces = (!validation.is_empty()).then(|| Traces::new(validation, start));
    let initial: Vec<[f64; 2]> = start.to_flat().iter().map(|w| [w.mg as f64, w.eg as f64]).collect();
    let mut weights = initial.clone();
    let frozen = frozen_mask(start, &config.frozen);
    let mut adam = Adam::new(weights.len(), config.learning_rate);
    let mut gradient = vec![[0.0; 2]; weights.len()];
    let mut best = (f64::INFINITY, weights.clone());
    for iteration in 1..=config.iterations {
        let error = training_traces.error(&weights, k, Some(&mut gradient));
        for (((g, w), w0), &frozen) in gradient.iter_mut().zip(&weights).zip(&initial).zip(&frozen) {
            *g = if frozen {
                [0.0; 2]
            } else {
                let pull = |i: usize| 2.0 * config.regularization * (w[i] - w0[i]);
                [g[0] + pull(0), g[1] + pull(1)]
            };
        }
        adam.step(&mut weights, &gradient);
        let validation_error = validation_traces.as_ref().map(|traces| traces.error(&weights, k, None));
        if validation_error.is_none_or(|e| e < best.0) {
            best = (validation_error.unwrap_or(error), weights.clone());
        }
        progress(&TuneProgress { iteration, k, error, validation_error });
    }
    let rounded: Vec<Score> = best.1.iter().map(|w| Score { mg: w[0].round() as i32, eg: w[1].round() as i32 }).collect();
    EvalParams::from_flat(&rounded)
}

/// For each flat weight: whether it belongs to one of the `frozen` fields.
fn frozen_mask(params: &EvalParams, frozen: &[&str]) -> Vec<bool> {
    let mut mask = Vec::with_capacity(EvalParams::LEN);
    params.for_each_field(|name, field| mask.extend(field.scores().iter().map(|_| frozen.contains(&name))));
    mask
}

/// The evaluation of every position as a linear function of the weights.
struct Traces {
    /// All positions' (weight index, count) pairs, position after position.
    coefficients: Vec<(u32, f64)>,
    /// Per position: end of its run in `coefficients`, middlegame share, White's result.
    positions: Vec<(usize, f64, f64)>,
}

/// A [`Terms`] sink that records which weights are used and how often, White minus Black.
struct Recorder<'a> {
    params: &'a EvalParams,
    counts: Vec<(u32, f64)>,
}

impl Terms for Recorder<'_> {
    fn add(&mut self, weight: &Score, color: Color, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        if signed != 0 {
            self.counts.push((self.params.index_of(weight) as u32, signed as f64));
        }
    }
}

/// Sorts `counts` by weight, adds up repeats and drops weights whose counts cancel
/// (White and Black using the same weight equally often).
fn merge_counts(counts: &mut Vec<(u32, f64)>) {
    counts.sort_unstable_by_key(|&(index, _)| index);
    let mut merged: Vec<(u32, f64)> = Vec::with_capacity(counts.len());
    for &(index, count) in counts.iter() {
        match merged.last_mut() {
            Some(last) if last.0 == index => last.1 += count,
            _ => merged.push((index, count)),
        }
    }
    merged.retain(|&(_, count)| count != 0.0);
    *counts = merged;
}

impl Traces {
    fn new(positions: &[(Board, f64)], params: &EvalParams) -> Traces {
        let mut traces = Traces { coefficients: Vec::new(), positions: Vec::with_capacity(positions.len()) };
        let mut recorder = Recorder { params, counts: Vec::new() };
        for (board, result) in positions {
            recorder.counts.clear();
            add_terms(board, params, &mut recorder);
            merge_counts(&mut recorder.counts);
            traces.coefficients.extend_from_slice(&recorder.counts);
            let mg_share = phase(board) as f64 / PHASE_MAX as f64;
            traces.positions.push((traces.coefficients.len(), mg_share, *result));
        }
        traces
    }

    /// Mean squared error of the weights (middlegame, endgame pairs); writes its gradient
    /// into `gradient` if given.
    fn error(&self, weights: &[[f64; 2]], k: f64, mut gradient: Option<&mut Vec<[f64; 2]>>) -> f64 {
        if let Some(gradient) = gradient.as_deref_mut() {
            gradient.iter_mut().for_each(|g| *g = [0.0; 2]);
        }
        let mut total = 0.0;
        let scale = k * std::f64::consts::LN_10 / 400.0;
        let mut start = 0;
        for &(end, mg_share, result) in &self.positions {
            let run = &self.coefficients[start..end];
            start = end;
            let (mg, eg) = run.iter().fold((0.0, 0.0), |(mg, eg), &(index, count)| {
                let w = weights[index as usize];
                (mg + count * w[0], eg + count * w[1])
            });
            let eval = mg * mg_share + eg * (1.0 - mg_share);
            let expected = sigmoid(eval, k);
            total += (result - expected).powi(2);
            let Some(gradient) = gradient.as_deref_mut() else { continue };
            let slope = 2.0 * (expected - result) * expected * (1.0 - expected) * scale;
            for &(index, count) in run {
                let g = &mut gradient[index as usize];
                g[0] += slope * count * mg_share;
                g[1] += slope * count * (1.0 - mg_share);
            }
        }
        let n = self.positions.len().max(1) as f64;
        if let Some(gradient) = gradient {
            gradient.iter_mut().for_each(|g| *g = [g[0] / n, g[1] / n]);
        }
        total / n
    }
}

/// Adam (Kingma and Ba, 2015): per-weight step sizes from running gradient moments, so
/// weights seen in few positions still move.
struct Adam {
    rate: f64,
    first: Vec<[f64; 2]>,
    second: Vec<[f64; 2]>,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-12;

    fn new(len: usize, rate: f64) -> Adam {
        Adam { rate, first: vec![[0.0; 2]; len], second: vec![[0.0; 2]; len], steps: 0 }
    }

    fn step(&mut self, weights: &mut [[f64; 2]], gradient: &[[f64; 2]]) {
        self.steps += 1;
        let correct1 = 1.0 - Self::BETA1.powi(self.steps);
        let correct2 = 1.0 - Self::BETA2.powi(self.steps);
        for (((w, g), m), v) in weights.iter_mut().zip(gradient).zip(&mut self.first).zip(&mut self.second) {
            for i in 0..2 {
                m[i] = Self::BETA1 * m[i] + (1.0 - Self::BETA1) * g[i];
                v[i] = Self::BETA2 * v[i] + (1.0 - Self::BETA2) * g[i] * g[i];
                let step = (m[i] / correct1) / ((v[i] / correct2).sqrt() + Self::EPSILON);
                w[i] -= self.rate * step;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The traced linear model must reproduce the real evaluation, or tuning would fit
    /// something other than what the search uses.
    #[test]
    fn trace_matches_evaluation() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R b KQ - 3 9",
            "8/5pk1/6p1/3P4/1p6/1P3KP1/8/8 w - - 0 45",
            "4r1k1/1q3ppp/p7/1p1Pb3/8/1P2Q1P1/P4P1P/4R1K1 b - - 1 30",
        ];
        let params = EvalParams::DEFAULT;
        let positions: Vec<(Board, f64)> = fens.iter().map(|fen| (fen.parse().unwrap(), 0.5)).collect();
        let traces = Traces::new(&positions, &params);
        let weights: Vec<[f64; 2]> = params.to_flat().iter().map(|w| [w.mg as f64, w.eg as f64]).collect();
        let mut start = 0;
        for ((board, _), &(end, mg_share, _)) in positions.iter().zip(&traces.positions) {
            let (mg, eg) = traces.coefficients[start..end]
                .iter()
                .fold((0.0, 0.0), |(mg, eg), &(i, c)| (mg + c * weights[i as usize][0], eg + c * weights[i as usize][1]));
            start = end;
            let linear = mg * mg_share + eg * (1.0 - mg_share);
            let real = white_eval(board, &params);
            assert!((linear - real).abs() <= 1.0, "{board}: linear {linear}, real {real}");
        }
    }

    #[test]
    fn index_of_follows_field_order() {
        let params = EvalParams::DEFAULT;
        let mut offset = 0;
        params.for_each_field(|_, field| {
            let first = &field.scores()[0];
            assert_eq!(params.index_of(first), offset);
            offset += field.scores().len();
        });
        assert_eq!(offset, EvalParams::LEN);
        assert_eq!(EvalParams::from_flat(&params.to_flat()), params);
    }
}
