// The classroom model's prediction for the Class view: before the lecturer starts, the
// simulator (the Lab's, in its worker: crate/wasm/lab.rs through www/engine/lab-worker.js,
// never on the page's thread) runs each algorithm of the menu on the `classroom` preset
// with the class's size, the relay's measured one-way time, the form's position, depth,
// Pure, network and way of splitting, and its speedup T(1)/T(p) is shown beside each. Each algorithm is a
// serial and a parallel simulation of the one position, so a prediction takes a few
// seconds at the Lab's deepest depth; each is kept by its setup and run once.
import { LabClient } from '../lab/labClient.js';

/** The simulated machine: a class joined through the relay, every frame one hop (a network
 * the lecturer picks routes it over more). */
const PREDICTION_PRESET = 'classroom';
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
    papersSplit: Boolean(setup.papersSplit),
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
    /** the prediction to make: its key and setup */
    this.wanted = null;
    /** the prediction under way: its key, or null */
    this.running = null;
    /** while true nothing is simulated (a class search or this tab's own is being timed) */
    this.held = false;
    /** the simulator's deepest search (its catalogue's), once it has loaded */
    this.maxDepth = null;
    /** the setup asked for last (predicted once the simulator has loaded) */
    this.latest = null;
  }

  /** Predicts `setup` (see predictionRequest), at once if it is kept, else in the worker
   * after the prediction under way (which a newer setup makes give up between runs). While
   * held, nothing is started: not even the worker's load takes the cores of a timed search. */
  async predict(setup) {
    this.latest = setup;
    if (this.maxDepth === null) {
      if (this.held) return;
      this.client ??= this.makeClient();
      try {
        this.maxDepth = (await this.client.start()).maxDepth;
      } catch (e) {
        this.onPrediction({ key: null, setup, depth: null, rows: [], done: true, error: `the simulator did not load: ${e.message}` });
        return;
      }
      if (this.latest !== setup) return;
    }
    const key = predictionKey(setup, this.maxDepth);
    this.wanted = { key, setup };
    const kept = this.kept.get(key);
    if (kept) return this.onPrediction(kept);
    this.pump();
  }

  /** Runs the wanted prediction if none is under way and nothing holds the simulator. */
  async pump() {
    if (this.running || this.held || !this.wanted || this.kept.has(this.wanted.key)) return;
    this.client ??= this.makeClient();
    const { key, setup } = this.wanted;
    this.running = key;
    const depth = Math.min(setup.depth, this.maxDepth);
    const rows = [];
    let error = null;
    for (const algorithm of this.algorithms) {
      if (this.wanted?.key !== key || this.held) break;
      try {
        const { report } = await this.client.run(predictionRequest(algorithm, setup, this.maxDepth), { replay: false });
        rows.push({ algorithm, speedup: report.rows.at(-1).speedup });
      } catch (e) {
        if (this.held) break;
        rows.push({ algorithm, speedup: null, why: e.message });
        error = e.message;
      }
      if (this.wanted?.key === key) this.onPrediction({ key, setup, depth, rows: [...rows], done: rows.length === this.algorithms.length, error });
    }
    this.running = null;
    // A prediction with a failed run is not kept: the setup is simulated again when asked.
    if (rows.length === this.algorithms.length && !error) this.kept.set(key, { key, setup, depth, rows, done: true, error: null });
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
    if (this.maxDepth === null && this.latest) this.predict(this.latest);
    else this.pump();
  }
}
