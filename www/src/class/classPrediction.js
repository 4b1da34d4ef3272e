// The classroom model's prediction for the Class view: before the lecturer starts, the
// simulator (the Lab's, in its worker: crate/wasm/lab.rs through www/engine/lab-worker.js,
// never on the page's thread) runs each algorithm of the menu on the `classroom` preset
// with the class's size, the relay's measured one-way time, the form's position, depth,
// Pure and network, and its speedup T(1)/T(p) is shown beside each. Each algorithm is a
// serial and a parallel simulation of the one position, so a prediction takes a few
// seconds at the Lab's deepest depth; each is kept by its setup and run once.
import { LabClient } from '../lab/labClient.js';

/** The simulated machine: a class joined through the relay, every frame one hop (a network
 * the lecturer picks routes it over more). */
export const PREDICTION_PRESET = 'classroom';
/** The simulator's seed: the same setup, the same prediction. */
const SEED = 1;
/** One-way times are kept to this grain, so a probe that moves by less predicts nothing anew. */
const GRAIN_NS = 10000;

/**
 * What the model runs for `algorithm` on the class's `setup` ({processors, depth, fen, pure,
 * network, oneWayMs}), the depth held to `maxDepth`, the simulator's deepest in the page.
 */
export function predictionRequest(algorithm, setup, maxDepth) {
  return {
    algorithm,
    net: setup.network || 'bus',
    processors: setup.processors,
    preset: PREDICTION_PRESET,
    // Every tab and `meshmate join` has its own table (a class shares none).
    tt: 'local',
    pure: Boolean(setup.pure),
    fen: setup.fen,
    depth: Math.min(setup.depth, maxDepth),
    seed: SEED,
    oneWayNs: Math.round((setup.oneWayMs * 1e6) / GRAIN_NS) * GRAIN_NS,
  };
}

/** The key a prediction is kept under: everything the simulation reads. */
export const predictionKey = (setup, maxDepth) => JSON.stringify(predictionRequest('', setup, maxDepth));

/** The algorithm of the greatest predicted speedup among `rows` ({algorithm, speedup}), or null. */
export function fastest(rows) {
  let best = null;
  for (const row of rows) if (Number.isFinite(row.speedup) && (!best || row.speedup > best.speedup)) best = row;
  return best?.algorithm ?? null;
}

export class Predictor {
  /**
   * @param {{algorithms: string[], onPrediction: (prediction: object) => void, client?: LabClient}} p
   *   onPrediction hears `{key, setup, depth, rows, done, error}` after each algorithm
   */
  constructor({ algorithms, onPrediction, client }) {
    this.algorithms = algorithms;
    this.onPrediction = onPrediction;
    this.makeClient = () => client ?? new LabClient({ onTrace: () => {} });
    this.client = null;
    /** finished predictions by key */
    this.kept = new Map();
    /** the setup asked for last (its key and setup) */
    this.wanted = null;
    /** the prediction under way: its key, or null */
    this.running = null;
    /** while true nothing is simulated (a class search or this tab's own is being timed) */
    this.held = false;
  }

  /** Predicts `setup` (see predictionRequest), at once if it is kept, else in the worker
   * after the prediction under way (which a newer setup makes give up between runs). */
  async predict(setup) {
    this.client ??= this.makeClient();
    let catalogue;
    try {
      catalogue = await this.client.start();
    } catch (e) {
      this.onPrediction({ key: null, setup, depth: null, rows: [], done: true, error: `the simulator did not load: ${e.message}` });
      return;
    }
    const key = predictionKey(setup, catalogue.maxDepth);
    this.wanted = { key, setup, maxDepth: catalogue.maxDepth };
    const kept = this.kept.get(key);
    if (kept) return this.onPrediction(kept);
    this.pump();
  }

  /** Runs the wanted prediction if none is under way and nothing holds the simulator. */
  async pump() {
    if (this.running || this.held || !this.wanted || this.kept.has(this.wanted.key)) return;
    const { key, setup, maxDepth } = this.wanted;
    this.running = key;
    const depth = Math.min(setup.depth, maxDepth);
    const rows = [];
    let error = null;
    for (const algorithm of this.algorithms) {
      if (this.wanted?.key !== key || this.held) break;
      try {
        const { report } = await this.client.run(predictionRequest(algorithm, setup, maxDepth), { replay: false });
        const [serial, parallel] = [report.rows[0], report.rows.at(-1)];
        rows.push({ algorithm, speedup: parallel.speedup, serialNs: serial.timeNs, parallelNs: parallel.timeNs });
      } catch (e) {
        if (this.held) break;
        rows.push({ algorithm, speedup: null, why: e.message });
        error = e.message;
      }
      if (this.wanted?.key === key) this.onPrediction({ key, setup, depth, rows: [...rows], done: rows.length === this.algorithms.length, error });
    }
    this.running = null;
    if (rows.length === this.algorithms.length) this.kept.set(key, { key, setup, depth, rows, done: true, error });
    this.pump();
  }

  /** Stops simulating until `release`: a search whose time is measured must have the tab's
   * cores to itself, so the run in flight is dropped with its worker. */
  hold() {
    this.held = true;
    if (this.running) {
      this.client?.discard();
      this.client?.failAll(new Error('held'));
    }
  }

  release() {
    this.held = false;
    this.pump();
  }
}
