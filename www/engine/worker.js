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

  /** Posts every pending output line with its event, then reports a panic on a pool thread. */
  flush() {
    let outputs = [];
    try {
      outputs = this.engine.drain();
    } catch (error) {
      this.crash.report(error?.message ?? error);
      return;
    }
    for (const { line, event } of outputs) {
      if (event?.type === 'bestmove' || event?.type === 'bench') this.searching = false;
      post(line, event);
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
 * search-worker.js, which searches in slices and takes `stop`, `isready` and `ponderhit`
 * between them, so lines go straight through. Only `bench` holds the search worker to its
 * end: meanwhile `isready` is answered here (everything before it was handled) and other
 * lines wait, in order, until the bench reports.
 */
class SingleEngine {
  static async start() {
    const engine = new SingleEngine();
    await engine.spawn();
    return engine;
  }

  constructor() {
    this.crash = crashReporter();
    /** Whether a bench runs (it blocks the search worker). */
    this.benching = false;
    /** lines that arrived during a bench */
    this.waiting = [];
    /** `go` commands not yet answered by `bestmove`, and the nodes last reported, for the `workers` event */
    this.searches = 0;
    this.nodes = 0;
  }

  /** Starts the search worker; resolves when its wasm is loaded. */
  spawn() {
    const url = new URL('./search-worker.js', import.meta.url);
    const worker = new Worker(url, { type: 'module', name: 'meshmate-search' });
    this.worker = worker;
    return new Promise((resolve) => {
      worker.onmessage = (e) => {
        if (e.data.ready) resolve();
        else if (e.data.crashed) this.crash.report(e.data.crashed);
        else this.output(e.data.line, e.data.event);
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
    const command = line.split(/\s+/)[0];
    if (command === 'quit') {
      this.worker.terminate();
      self.close();
    } else if (!this.benching) {
      if (command === 'bench') this.benching = true;
      if (command === 'go') this.searches++;
      this.worker.postMessage(line);
    } else if (command === 'isready' && this.waiting.length === 0) {
      self.postMessage('readyok');
    } else {
      this.waiting.push(line);
    }
  }

  /** One output line of the search worker. */
  output(line, event) {
    post(line, event);
    if (line.startsWith('bestmove')) {
      this.searches = Math.max(0, this.searches - 1);
      if (postEvents && this.searches === 0) self.postMessage({ type: 'workers', workers: [{ busy: false, nodes: this.nodes }] });
    } else if (postEvents && event?.type === 'info' && event.nodes !== undefined) {
      this.nodes = event.nodes;
      self.postMessage({ type: 'workers', workers: [{ busy: true, nodes: event.nodes }] });
    } else if (this.benching && event?.type === 'bench') {
      this.benching = false;
      const waiting = this.waiting.splice(0);
      for (const waited of waiting) this.handle(waited);
    }
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
