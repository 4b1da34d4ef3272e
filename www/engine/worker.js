// The meshmate engine worker: a plain ES module Worker that speaks UCI over postMessage,
// like stockfish.js: each message in is one UCI command line (a string), handed to the
// engine as it is (Rust parses it; this file never reads a command). Each report out is one
// message: by default its event, a plain object with a `type` (`info`, `bestmove`,
// `option`, `readyok`, ... and this worker's `engine`, `workers`, `crashed`) holding the
// values the engine wrote the report from and, as `line`, the UCI text; with `?events=0` in
// the worker URL, the UCI line alone (a string), for strict stockfish.js drop-in use.
// Their TypeScript types: www/package/index.d.ts (index.d.ts in the npm package).
//
// It loads only the wasm package, by relative path, so any static server that sends
// COOP/COEP can serve www/engine/ and pkg/ as they are:
// - cross-origin isolated page: ../pkg/threads/ runs here, with shared memory; searches
//   run on a rayon pool of web workers (`?threads=N`, default hardwareConcurrency), so this
//   thread stays free for `stop` and `isready`;
// - otherwise (no SharedArrayBuffer): ../pkg/single/ runs in search-worker.js, which
//   searches in slices and takes input in between; this worker stands in front of it
//   (see SingleEngine).
//
// Usage: new Worker(new URL('engine/worker.js', document.baseURI), { type: 'module' })

import { inbox } from './inbox.js';

/** Most pool threads we start: each is a web worker with its own stack and wasm instance. */
const MAX_POOL_THREADS = 32;
/** Fallback poll period of the output queue where Atomics.waitAsync is missing. */
const POLL_MS = 10;
/** How often the per-worker activity is posted while the engine works. */
const ACTIVITY_MS = 250;

const params = new URL(self.location.href).searchParams;
const postEvents = params.get('events') !== '0';

/** @type {ThreadedEngine|SingleEngine|null} */
let engine = null;
/** Command lines, held until the engine is up. */
const commands = inbox((line) => engine.handle(line));

self.onmessage = (e) => {
  if (typeof e.data !== 'string') {
    const text = 'error: messages to the engine must be UCI command strings';
    post(`info string ${text}`, { type: 'message', text });
    return;
  }
  for (const line of e.data.split('\n')) {
    if (!line.trim()) continue;
    commands.receive(line.trim());
  }
};

/** Posts one report: its event with the UCI `line` in it, or (`?events=0`) the line alone. */
function post(line, event) {
  self.postMessage(postEvents ? { ...event, line } : line);
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
        post('info string error: engine crashed', { type: 'message', text: 'error: engine crashed' });
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
    this.watchOutput();
  }

  /** Posts the search processors' activity while the engine has a search queued or running
   * or any processor is busy, and once more when all are idle. (Idle processors alone do
   * not end the sampling: a new search's first moments, before the pool takes it up, look
   * idle too.) Every line starts it, not only those that leave the engine busy: a quick
   * mate's search can end on the pool before this thread asks, and its final counts are
   * then the one sample there is. */
  sampleActivity() {
    if (!postEvents || this.activityTimer !== null) return;
    this.activityTimer = setInterval(() => {
      const workers = this.crash.crashed ? [] : this.engine.workerActivity();
      if (workers.length) self.postMessage({ type: 'workers', workers });
      if ((this.crash.crashed || this.engine.idle()) && !workers.some((w) => w.busy)) {
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
    else this.sampleActivity();
  }

  /** Posts every pending report, then reports a panic on a pool thread. */
  flush() {
    let outputs = [];
    try {
      outputs = this.engine.drain();
    } catch (error) {
      this.crash.report(error?.message ?? error);
      return;
    }
    for (const { line, event } of outputs) post(line, event);
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
 * search-worker.js, which searches in slices and takes the lines that arrived between
 * them, so every line goes straight through, in order. (A `bench` holds the search worker
 * to its end: the lines sent meanwhile, `isready` too, are handled after it.) The search
 * worker says when its engine quit, and when a search starts and ends, for the `workers`
 * event.
 */
class SingleEngine {
  static async start() {
    const engine = new SingleEngine();
    await engine.spawn();
    return engine;
  }

  constructor() {
    this.crash = crashReporter();
    /** Nodes of the running (or last) search, from its `info` events. */
    this.nodes = 0;
  }

  /** Starts the search worker; resolves when its wasm is loaded. */
  spawn() {
    const url = new URL('./search-worker.js', import.meta.url);
    const worker = new Worker(url, { type: 'module', name: 'meshmate-search' });
    this.worker = worker;
    return new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if (data.ready) resolve();
        else if (data.crashed) this.crash.report(data.crashed);
        else if (data.quit) this.quit();
        else if (data.searching !== undefined) this.postWorkers(data.searching);
        else this.output(data.line, data.event);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        this.crash.report(e.message || 'the search worker failed to load');
        resolve();
      };
    });
  }

  handle(line) {
    if (this.crash.crashed) return this.crash.report();
    this.worker.postMessage(line);
  }

  quit() {
    this.worker.terminate();
    self.close();
  }

  /** One report of the search worker; an `info` with nodes updates the one processor's row. */
  output(line, event) {
    post(line, event);
    if (event.type === 'info' && event.nodes !== undefined) {
      this.nodes = event.nodes;
      this.postWorkers(true);
    }
  }

  postWorkers(busy) {
    if (postEvents) self.postMessage({ type: 'workers', workers: [{ busy, nodes: this.nodes }] });
  }
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
