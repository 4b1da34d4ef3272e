// The page's side of the Lab worker (www/engine/lab-worker.js): typed requests, one run at
// a time, trace text handed on as it streams in. A crashed worker is replaced by a fresh
// one on the next request.
import { checkLayout } from './eventColumns.js';

/** How long the simulator may take to load before the Lab says so. */
const LOAD_TIMEOUT_MS = 60000;

export class LabClient {
  /** @param {{ onTrace: (id: number, words: Float64Array) => void }} callbacks */
  constructor({ onTrace }) {
    this.onTrace = onTrace;
    this.nextId = 1;
    this.pending = new Map();
    /** Progress listeners of the running reproductions, by request id. */
    this.progress = new Map();
    this.worker = null;
    this.ready = null;
    /** Rejects the load under way (a worker dropped while it loads), or null. */
    this.abortLoad = null;
    /** The paced run's shared words [events applied, cancelled], or null. */
    this.pace = null;
  }

  /** Starts the worker if needed; resolves with the catalogue (algorithms, nets, presets, kinds). */
  start() {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('engine/lab-worker.js', document.baseURI), { type: 'module', name: 'meshmate-lab' });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the simulator did not load within a minute')), LOAD_TIMEOUT_MS);
      this.abortLoad = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      worker.onmessage = (e) => {
        const message = e.data;
        if (message.type === 'ready') {
          clearTimeout(timer);
          this.abortLoad = null;
          try {
            checkLayout(message.catalogue.replay);
            resolve(message.catalogue);
          } catch (error) {
            reject(error);
          }
        } else this.receive(message);
      };
      worker.onerror = (e) => {
        clearTimeout(timer);
        const error = new Error(`the Lab worker failed: ${e.message ?? 'could not load the simulator'}`);
        reject(error);
        this.failAll(error);
        this.discard();
      };
    });
    return this.ready;
  }

  /** Where to draw `processors` processors wired as `net` (the drawing keeps `net`). */
  network(net, processors) {
    return this.request({ type: 'network', net, processors }).then((m) => ({ ...m.drawing, net }));
  }

  /**
   * Runs one experiment (`{ algorithm, net, processors, preset, tt, fen, depth, seed }`, `tt` the
   * table placement: global, local, distributed or tds); resolves with `{ report, wallMs }` after
   * the whole trace went to onTrace (none with `replay: false`). A placement the algorithm cannot
   * use is refused with an error. With `ahead` (and a cross-origin isolated page) the run is
   * paced: the simulator stays at most `ahead` events ahead of what acknowledge() reports, and
   * a new replayed run cancels the pacing of the last.
   */
  run(request, { replay = true, ahead = 0 } = {}) {
    if (replay) this.cancelPace();
    // Pacing needs memory shared with the worker: a cross-origin isolated page.
    const paced = replay && ahead > 0 && globalThis.crossOriginIsolated === true;
    const pace = paced ? { buffer: new SharedArrayBuffer(8), ahead } : undefined;
    if (paced) this.pace = new Int32Array(pace.buffer);
    return this.request({ type: 'run', request, replay, pace });
  }

  /** Whether the last replayed run is paced (and not cancelled). */
  get paced() {
    return this.pace !== null;
  }

  /** Tells the worker how many events of the paced run the replay has applied. */
  acknowledge(applied) {
    if (!this.pace || Atomics.load(this.pace, 0) === applied) return;
    Atomics.store(this.pace, 0, applied);
    Atomics.notify(this.pace, 0);
  }

  /** The page no longer replays the paced run: the worker finishes it without waiting. */
  cancelPace() {
    if (!this.pace) return;
    Atomics.store(this.pace, 1, 1);
    Atomics.notify(this.pace, 0);
    this.pace = null;
  }

  /**
   * Runs a paper's experiment (`meshmate reproduce NAME`) on the positions of `suite` (the text
   * of its EPD file); resolves with `{ report: { paper, rows }, notes }`, the rows carrying the
   * published figures from the engine's copy of the papers. `onProgress(done, total)` hears
   * each search.
   */
  reproduce(paper, suite, { quick = true, seed = 1, onProgress = () => {} } = {}) {
    const id = this.nextId;
    this.progress.set(id, onProgress);
    return this.request({ type: 'reproduce', paper, suite, quick, seed }).finally(() => this.progress.delete(id));
  }

  /** The last run's trace as JSON lines (a Blob). */
  exportTrace() {
    return this.request({ type: 'export' }).then((m) => m.blob);
  }

  /** The id the next request will get (trace messages carry it). */
  peekId() {
    return this.nextId;
  }

  async request(body) {
    await this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...body });
    });
  }

  receive(message) {
    if (message.type === 'trace') {
      this.onTrace(message.id, message.words);
      return;
    }
    if (message.type === 'progress') {
      this.progress.get(message.id)?.(message.done, message.total);
      return;
    }
    if (message.type === 'crashed') {
      this.failAll(new Error(`the simulator crashed: ${message.message}`));
      this.discard();
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (message.type === 'error') waiter.reject(new Error(message.message));
    else waiter.resolve(message);
  }

  failAll(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  /** Drops the worker (it is replaced on the next request). A request still waiting for
   * it to load fails now, not when the load's minute is up. */
  discard() {
    this.abortLoad?.(new Error('the simulator was stopped while it loaded'));
    this.abortLoad = null;
    this.worker?.terminate();
    this.worker = null;
    this.ready = null;
  }
}
