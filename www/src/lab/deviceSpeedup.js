// Time-to-depth speedup on this device's own web workers, measured through the Play
// engine the way `meshmate speedup` measures it natively: the serial search and the
// parallel algorithm search the same position to the same depth, each from an empty
// table, in turn, for a few rounds; SPE = ΣT(1)/ΣT(p) and SO = ΣN(p)/ΣN(1) − 1. The depth
// is the deepest the serial search completes in PROBE_MS, so each search takes up to about
// a second on whatever device the lecture runs on. Times and nodes are the engine's own
// (its report of the last iteration), not the page's clock.

/** How long the serial search may think to choose the depth. */
export const PROBE_MS = 1000;
/** Serial and parallel searches in turn, this many times: a parallel search's tree, and so
 * its time, changes from run to run, most of all on one position. */
export const ROUNDS = 5;
/** The shallowest depth measured (a quick mate may complete less). */
const MIN_DEPTH = 6;

/** The table's columns for a device measurement. */
export const DEVICE_COLUMNS = ['round', 'algorithm', 'p', 'depth', 'T(1) (ms)', 'T(p) (ms)', 'N(1)', 'N(p)', 'SO', 'SPE'];

export class DeviceSpeedup {
  /** @param {import('../engineClient.js').EngineClient} engine the Play engine */
  constructor(engine) {
    this.engine = engine;
    /** The running search's job and how to end its wait, while one runs. */
    this.running = null;
    this.stopped = false;
    /** Why something outside the Lab ended the measurement, as a sentence (a Play or Analyse
     * search took the engine, or the engine gave up); null while nothing has. */
    this.interrupted = null;
    this.searches = 0;
  }

  /**
   * Measures `algorithm` on `threads` workers against the serial search at `fen`.
   * Calls `onRow` with each round as it is measured; resolves with the depth and the
   * rounds (fewer if stopped, none if the position has no move to search).
   * @returns {Promise<{ depth: number, rows: object[], searchable: boolean }>}
   */
  async run({ algorithm, threads, fen }, onRow) {
    const serial = { Threads: 1, Algorithm: 'serial' };
    const probe = await this.search(fen, { movetime: PROBE_MS }, serial);
    if (!probe && !this.stopped) return { depth: 0, rows: [], searchable: false };
    const depth = Math.max(MIN_DEPTH, probe?.depth ?? 0);
    const rows = [];
    for (let round = 1; round <= ROUNDS && !this.stopped; round++) {
      const one = await this.search(fen, { depth }, serial);
      const many = one && (await this.search(fen, { depth }, { Threads: threads, Algorithm: algorithm }));
      if (!many) break;
      const row = { round, algorithm, threads, depth, serialMs: one.ms, ms: many.ms, serialNodes: one.nodes, nodes: many.nodes };
      rows.push(row);
      onRow(row);
    }
    return { depth, rows, searchable: true };
  }

  /** Ends the measurement: the running search is withdrawn, no further one starts. */
  stop() {
    this.stopped = true;
    if (this.running) {
      this.engine.cancel(this.running.job);
      this.running.end(null);
    }
  }

  /** Ends the measurement for a reason outside the Lab. */
  interrupt(why) {
    this.interrupted = why;
    this.stop();
  }

  /**
   * One search from an empty table (a new game id clears it) with these options; resolves
   * with the engine's time, nodes and depth at its last completed iteration, or null if
   * it was stopped or other work (a Play search) took the engine over.
   */
  search(fen, go, options) {
    return new Promise((resolve) => {
      let last = null;
      const end = (result) => {
        this.running = null;
        resolve(result);
      };
      const job = {
        fen,
        go,
        gameId: `device-speedup-${++this.searches}`,
        options: { ...options, MultiPV: 1, UCI_LimitStrength: false },
        onInfo: (info) => {
          if (info.depth && (info.scoreCp !== undefined || info.scoreMate !== undefined) && !info.bound) last = { ms: info.timeMs, nodes: info.nodes, depth: info.depth };
        },
        onBestMove: () => end(last),
        onDropped: () => this.interrupt('Play or Analyse took the engine.'),
        onFailed: (message) => this.interrupt(`The engine failed: ${message}.`),
      };
      this.running = { job, end };
      this.engine.start(job);
    });
  }
}

/** The rounds' table rows, then one pooling them all. */
export function deviceRows(rows) {
  const cells = (label, r) => [label, r.algorithm, r.threads, r.depth, fmt(r.serialMs), fmt(r.ms), r.serialNodes, r.nodes, searchOverhead(r).toFixed(3), speedup(r).toFixed(2)];
  const table = rows.map((r) => cells(r.round, r));
  if (rows.length) table.push(cells('all', pooled(rows)));
  return table;
}

/** The rounds pooled: sums of times and nodes (so SPE is ΣT(1)/ΣT(p)). */
export function pooled(rows) {
  const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
  return { ...rows[0], serialMs: sum('serialMs'), ms: sum('ms'), serialNodes: sum('serialNodes'), nodes: sum('nodes') };
}

/** N(p)/N(1) − 1. */
export function searchOverhead(r) {
  return r.nodes / Math.max(1, r.serialNodes) - 1;
}

/** T(1)/T(p) (a search too quick to time counts as 1 ms). */
export function speedup(r) {
  return Math.max(1, r.serialMs) / Math.max(1, r.ms);
}

const fmt = (ms) => Math.round(ms);
