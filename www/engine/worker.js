// The meshmate engine worker: a plain ES module Worker that speaks UCI over postMessage,
// like stockfish.js: each message in is one UCI command line (a string), each line out is
// one message (a string). Besides the text it posts structured events (plain objects with
// a `type`: `info`, `message`, `bestmove`, `bench`, `workers`, `engine`, `crashed`) for
// user interfaces; `?events=0` in the worker URL turns them off for strict drop-in use.
// Their TypeScript types: www/package/index.d.ts (index.d.ts in the npm package).
//
// It loads only the wasm package, by relative path, so any static server that sends
// COOP/COEP can serve www/engine/ and pkg/ as they are:
// - cross-origin isolated page: ../pkg/threads/ runs here, with shared memory; searches
//   run on a rayon pool of web workers (`?threads=N`, default hardwareConcurrency), so this
//   thread stays free for `stop` and `isready`;
// - otherwise (no SharedArrayBuffer): ../pkg/single/ runs in search-worker.js, which
//   blocks while it searches; this worker stands in front of it (see SingleEngine).
//
// Usage: new Worker(new URL('engine/worker.js', document.baseURI), { type: 'module' })

import { inbox } from './inbox.js';

/** Most pool threads we start: each is a web worker with its own stack and wasm instance. */
const MAX_POOL_THREADS = 32;
/** Fallback poll period of the output queue where Atomics.waitAsync is missing. */
const POLL_MS = 10;
/** How often the per-worker activity is posted while the engine works. */
const ACTIVITY_MS = 250;
/** The engine's deepest iteration (search::MAX_DEPTH): a search limited by it ends by itself. */
const MAX_DEPTH = 100;

const params = new URL(self.location.href).searchParams;
const postEvents = params.get('events') !== '0';

/** @type {ThreadedEngine|SingleEngine|null} */
let engine = null;
/** Command lines, held until the engine is up. */
const commands = inbox((line) => engine.handle(line));

self.onmessage = (e) => {
  if (typeof e.data !== 'string') {
    self.postMessage('info string error: messages to the engine must be UCI command strings');
    return;
  }
  for (const line of e.data.split('\n')) {
    if (!line.trim()) continue;
    commands.receive(line.trim());
  }
};

/** Posts one UCI line and, unless turned off, its structured event. */
function post(line, event) {
  self.postMessage(line);
  if (postEvents && event !== undefined) self.postMessage(event);
}

/** Reports a dead engine once; later commands are answered with the same error. */
function crashReporter() {
  let crashed = false;
  return {
    get crashed() {
      return crashed;
    },
    report(reason) {
      if (!crashed) {
        crashed = true;
        console.error('meshmate engine crashed:', reason);
        post('info string error: engine crashed', { type: 'crashed', reason: String(reason) });
      } else {
        self.postMessage('info string error: engine crashed');
      }
    },
  };
}

/** Whether this browser can run the threaded build: isolation gives SharedArrayBuffer. */
function canUseThreads() {
  if (self.crossOriginIsolated !== true || typeof SharedArrayBuffer !== 'function') return false;
  try {
    new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return true;
  } catch {
    return false;
  }
}

function poolSize() {
  const wanted = Number.parseInt(params.get('threads') ?? '', 10);
  const n = Number.isInteger(wanted) && wanted > 0 ? wanted : navigator.hardwareConcurrency || 1;
  return Math.min(Math.max(1, n), MAX_POOL_THREADS);
}

/** The threaded build, running in this worker; pool threads queue output in shared memory. */
class ThreadedEngine {
  static async start(pool) {
    const wasm = await import('../pkg/threads/meshmate.js');
    await wasm.default();
    await wasm.initThreadPool(pool);
    return new ThreadedEngine(wasm);
  }

  constructor(wasm) {
    this.wasm = wasm;
    this.engine = new wasm.WasmEngine();
    this.crash = crashReporter();
    this.quit = false;
    this.activityTimer = null;
    /** A `go` or `bench` was sent and has not answered yet. */
    this.searching = false;
    this.watchOutput();
  }

  /** Posts the search processors' activity while a search is unanswered or any processor is
   * busy, and once more when all are idle. (Idle processors alone do not end the sampling:
   * a new search's first moments, before the pool takes it up, look idle too.) */
  sampleActivity() {
    if (!postEvents || this.activityTimer !== null) return;
    this.activityTimer = setInterval(() => {
      const workers = this.crash.crashed ? [] : this.engine.workerActivity();
      if (workers.length) self.postMessage({ type: 'workers', workers });
      if (!(this.searching && !this.crash.crashed) && !workers.some((w) => w.busy)) {
        clearInterval(this.activityTimer);
        this.activityTimer = null;
      }
    }, ACTIVITY_MS);
  }

  handle(line) {
    if (this.quit) return;
    if (this.crash.crashed) return this.crash.report();
    try {
      if (!this.engine.send(line)) this.quit = true;
    } catch (error) {
      // A panic aborts the wasm call: the engine's state is gone.
      this.crash.report(error?.message ?? error);
      return;
    }
    this.flush();
    if (this.quit) self.close();
    else if (/^(go|bench)\b/.test(line)) {
      this.searching = true;
      this.sampleActivity();
    }
  }

  /** Posts every pending output line, then reports a panic on a pool thread. */
  flush() {
    let lines = [];
    try {
      lines = this.engine.drain();
    } catch (error) {
      this.crash.report(error?.message ?? error);
      return;
    }
    for (const line of lines) {
      if (/^bestmove\b|^\d+ nodes \d+ nps$/.test(line)) this.searching = false;
      post(line, postEvents ? this.wasm.uciEvent(line) : undefined);
    }
    if (!this.crash.crashed && this.engine.crashed()) this.crash.report('a search thread panicked (see the console)');
  }

  /** Sleeps until a pool thread bumps the output signal (no polling while idle). */
  async watchOutput() {
    const signal = this.engine.outputSignal();
    while (!this.crash.crashed && !this.quit) {
      const seen = Atomics.load(signal, 0);
      this.flush();
      const wait = typeof Atomics.waitAsync === 'function' ? Atomics.waitAsync(signal, 0, seen) : null;
      if (wait === null) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      else if (wait.async) await wait.value;
    }
  }
}

/**
 * The single build, for pages without SharedArrayBuffer. The engine runs in
 * search-worker.js, which blocks while it searches; this worker keeps the protocol live:
 * - `isready` during a search is answered here (everything before it was handled);
 * - `stop` ends the search worker and answers with the best move of the last completed
 *   iteration (what the search itself would answer), then starts a fresh search worker
 *   and replays the options and position (the hash table starts empty again);
 * - `go infinite` and `go ponder` become `go depth 100` (the search's own limit), whose
 *   `bestmove` is held back until `stop`; `ponderhit` restarts the search with the clock;
 * - other commands (and any command after one that waits) wait until the search ends,
 *   then go through in order.
 */
class SingleEngine {
  static async start() {
    const engine = new SingleEngine();
    await engine.spawn();
    return engine;
  }

  constructor() {
    this.crash = crashReporter();
    /** setoption lines by option name, and the last position line: replayed after a restart */
    this.options = new Map();
    this.position = null;
    /** null, or the running search: { kind: 'go'|'bench', hold, ponderhitGo, best, ponder, held, stopAsked } */
    this.search = null;
    /** lines that arrived during a search */
    this.waiting = [];
    /** nodes the running (or last) search reported, for the `workers` event */
    this.nodes = 0;
  }

  /** Starts a search worker; resolves when its wasm is loaded. */
  spawn() {
    this.worker?.terminate();
    const url = new URL('./search-worker.js', import.meta.url);
    if (!postEvents) url.searchParams.set('events', '0');
    const worker = new Worker(url, { type: 'module', name: 'meshmate-search' });
    this.worker = worker;
    return new Promise((resolve) => {
      worker.onmessage = (e) => {
        if (worker !== this.worker) return; // replaced by a newer search worker
        if (e.data.ready) resolve();
        else if (e.data.crashed) this.crash.report(e.data.crashed);
        else this.output(e.data.line, e.data.event);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        this.crash.report(e.message || 'the search worker failed to load');
        resolve();
      };
      for (const line of this.options.values()) worker.postMessage(line);
      if (this.position) worker.postMessage(this.position);
    });
  }

  handle(line) {
    if (this.crash.crashed) return this.crash.report();
    const command = line.split(/\s+/)[0];
    if (command === 'quit') {
      this.worker.terminate();
      self.close();
    } else if (this.search === null) {
      this.forward(line, command);
    } else if (this.waiting.length > 0) {
      this.waiting.push(line); // commands after a waiting one wait too, to keep their order
    } else if (command === 'isready') {
      self.postMessage('readyok');
    } else if (command === 'stop') {
      this.stop();
    } else if (command === 'ponderhit') {
      this.ponderhit();
    } else {
      this.waiting.push(line);
    }
  }

  forward(line, command) {
    if (command === 'go') {
      const go = rewriteGo(line);
      this.search = { kind: 'go', hold: go.hold, ponderhitGo: go.ponderhitGo, best: null, ponder: null, held: null, stopAsked: false };
      this.nodes = 0;
      line = go.line;
    } else if (command === 'bench') {
      this.search = { kind: 'bench' };
    } else if (command === 'setoption') {
      const name = /^setoption\s+name\s+(.*?)(\s+value\s|$)/.exec(line)?.[1];
      if (name) this.options.set(name.toLowerCase(), line);
    } else if (command === 'position') {
      this.position = line;
    } else if (command === 'stop' || command === 'ponderhit') {
      return; // no search: nothing to do
    }
    this.worker.postMessage(line);
  }

  /** One output line of the search worker. */
  output(line, event) {
    const search = this.search;
    if (search?.kind === 'go') {
      if (line.startsWith('bestmove')) {
        if (search.hold && !search.stopAsked) {
          search.held = [line, event];
          return;
        }
        post(line, event);
        return this.finish();
      }
      const pv = principalMove(line);
      if (pv) {
        search.best = pv.best;
        search.ponder = pv.ponder;
      }
      post(line, event);
      if (postEvents && event?.type === 'info' && event.nodes !== undefined) {
        this.nodes = event.nodes;
        self.postMessage({ type: 'workers', workers: [{ busy: true, nodes: event.nodes }] });
      }
      if (search.stopAsked && pv) this.stop();
      return;
    }
    post(line, event);
    if (search?.kind === 'bench' && /^\d+ nodes \d+ nps$/.test(line)) this.finish();
  }

  stop() {
    const search = this.search;
    if (search.kind !== 'go') return; // a bench ends by itself
    if (search.held) {
      post(...search.held);
      return this.finish();
    }
    if (!search.best) {
      search.stopAsked = true; // depth 1 reports within microseconds: answer then
      return;
    }
    const line = `bestmove ${search.best}${search.ponder ? ` ponder ${search.ponder}` : ''}`;
    post(line, { type: 'bestmove', best: search.best, ponder: search.ponder });
    this.spawn();
    this.finish();
  }

  ponderhit() {
    const search = this.search;
    if (search.kind !== 'go' || !search.ponderhitGo) return;
    const go = search.ponderhitGo;
    this.spawn();
    this.search = null;
    this.forward(go, 'go');
  }

  /** The search ended: hand over the commands that waited for it. */
  finish() {
    if (postEvents && this.search?.kind === 'go') self.postMessage({ type: 'workers', workers: [{ busy: false, nodes: this.nodes }] });
    this.search = null;
    const waiting = this.waiting.splice(0);
    for (const line of waiting) this.handle(line);
  }
}

/**
 * A `go` the search worker can run without hearing `stop`: `infinite` and `ponder` become
 * the search's own depth limit, and their `bestmove` is held until `stop` (or `ponderhit`).
 */
function rewriteGo(line) {
  const words = line.split(/\s+/);
  const infinite = words.includes('infinite');
  const ponder = words.includes('ponder');
  if (!infinite && !ponder) return { line, hold: false, ponderhitGo: null };
  const clock = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime']);
  const kept = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === 'infinite' || words[i] === 'ponder') continue;
    if (ponder && clock.has(words[i])) {
      i++; // pondering ignores the clock until ponderhit
      continue;
    }
    kept.push(words[i]);
  }
  if (!['depth', 'nodes', 'mate'].some((limit) => kept.includes(limit))) kept.push('depth', String(MAX_DEPTH));
  return { line: kept.join(' '), hold: true, ponderhitGo: ponder ? words.filter((w) => w !== 'ponder').join(' ') : null };
}

/** The move (and reply) of an exact, first-line `info ... pv` report, or null. */
function principalMove(line) {
  const words = line.split(/\s+/);
  if (words[0] !== 'info' || words.includes('string') || words.includes('lowerbound') || words.includes('upperbound')) return null;
  const multipv = words.indexOf('multipv');
  if (multipv >= 0 && words[multipv + 1] !== '1') return null;
  const pv = words.indexOf('pv');
  if (pv < 0 || pv + 1 >= words.length) return null;
  return { best: words[pv + 1], ponder: words[pv + 2] ?? null };
}

async function start() {
  const started = performance.now();
  const threads = canUseThreads();
  const pool = threads ? poolSize() : 1;
  try {
    engine = threads ? await ThreadedEngine.start(pool) : await SingleEngine.start();
  } catch (error) {
    console.error(error);
    post(`info string error: the engine could not start: ${error?.message ?? error}`, { type: 'crashed', reason: `start: ${error?.message ?? error}` });
    return;
  }
  const loadMs = Math.round(performance.now() - started);
  post(
    threads
      ? `info string meshmate wasm: threaded build, rayon pool of ${pool} web workers, loaded in ${loadMs} ms`
      : `info string meshmate wasm: single-thread build (the page is not cross-origin isolated: it needs the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), Threads fixed at 1, loaded in ${loadMs} ms`,
    { type: 'engine', build: threads ? 'threads' : 'single', poolThreads: pool, isolated: self.crossOriginIsolated === true, loadMs },
  );
  commands.open();
}

start();
