// The page's client of the engine worker, in the style of lichess's ceval protocol:
// a small interface (start/stop/setOption/destroy), an explicit status, one pending job
// (new work stops the current search and is swapped in when `bestmove` arrives), and UCI
// options sent only when their value changes. Jobs carry their own callbacks, so the
// player and the analyser never see each other's output.
//
// A `go`, from a click to the search and back: Play or Analysis calls `start(job)`;
// `launch` sends `position` and `go` (formatted by uci.js) to the worker
// (www/engine/worker.js), which hands each line to the engine in wasm (crate/wasm.rs
// `WasmEngine::send`), where crate/uci parses it and starts the search. Every report comes
// back as one typed event (crate/uci/report.rs `Event`, types in
// www/package/index.d.ts): `receive` gives the job its `info` events and its `bestmove`.
// Nothing here reads UCI text: the event's `line` only goes to the log.
import { formatGo, formatPosition } from './uci.js';

/** What the client is doing; every transition is reported through `onStatus`. */
export const EngineStatus = Object.freeze({
  Loading: 'loading', // worker started; waiting for `uciok` and `readyok`
  Ready: 'ready', // idle, takes work at once
  Computing: 'computing', // a `go` is running
  Stopping: 'stopping', // `stop` sent, waiting for the `bestmove` that ends the search
  Failed: 'failed', // the worker crashed or never came up; a restart may be scheduled
});

/** How long the worker may take to answer `uci` before we call it failed. */
const BOOT_TIMEOUT_MS = 60000;
/** Restarts after a crash back off (1 s, 2 s, 4 s...) and give up after this many in a row. */
const MAX_RESTARTS = 4;

/**
 * @typedef {object} EngineJob
 * @property {string} fen            position to search from
 * @property {string[]} [moves]      UCI moves played from `fen`
 * @property {object} go             search limits for `formatGo`
 * @property {string} [gameId]       a change of game id sends `ucinewgame` first
 * @property {Record<string, string|number>} [options] option values for this search only;
 *                                    the next job without them gets the wanted values back
 * @property {(info: object) => void} [onInfo]            each `info` event with a score or pv
 *                                    (fields as index.d.ts `InfoEvent`: depth, scoreCp or scoreMate, bound, pv, ...)
 * @property {(best: string|null, ponder: string|null) => void} [onBestMove] only for searches
 *                                    not superseded or stopped; `best` is null when there is no legal move
 * @property {() => void} [onDropped] other work withdrew the job (another job's `start`, or
 *                                    `stop`): it gets no `bestmove`. Its own `cancel` does not call it.
 * @property {(message: string) => void} [onFailed] the engine gave up after its restarts, with the
 *                                    job unfinished or started after that: it gets no `bestmove`, and
 *                                    waits (for `has`) until withdrawn, as no restart will come
 */

export class EngineClient {
  /**
   * @param {object} p
   * @param {() => Worker} p.createWorker  makes a fresh engine worker (called again on restart)
   * @param {(status: string) => void} [p.onStatus]
   * @param {(message: string) => void} [p.onError]  errors to show the user
   * @param {(event: object) => void} [p.onEvent]    every event the worker posts
   * @param {(options: Map<string, object>) => void} [p.onOptions] the engine's options (`option`
   *                                                  events: name, kind, default, min, max, vars), after each boot
   * @param {(line: string) => void} [p.onLine]      every UCI line sent and received, for logs
   */
  constructor({ createWorker, onStatus, onError, onEvent, onOptions, onLine }) {
    this.createWorker = createWorker;
    this.onStatus = onStatus ?? (() => {});
    this.onError = onError ?? (() => {});
    this.onEvent = onEvent ?? (() => {});
    this.onOptions = onOptions ?? (() => {});
    this.onLine = onLine ?? (() => {});
    /** @type {Worker|null} */
    this.worker = null;
    this.status = EngineStatus.Loading;
    /** name -> `option` event of the last boot */
    this.options = new Map();
    /** engine name from the `idName` event */
    this.name = '';
    /** name -> value the user wants; sent when it differs from `sentOptions` */
    this.wantedOptions = new Map();
    /** name -> value the running engine has been told */
    this.sentOptions = new Map();
    /** @type {EngineJob|null} the search running now */
    this.current = null;
    /** @type {EngineJob|null} the one job waiting for the current search to end */
    this.pending = null;
    /** whether the current search's result is still wanted */
    this.currentWanted = false;
    this.lastGameId = undefined;
    this.restarts = 0;
    /** why the engine gave up after MAX_RESTARTS, once it has; no job runs after that */
    this.gaveUp = null;
    this.bootTimer = null;
    this.restartTimer = null;
    /** resolves the wait for `readyok` after options were sent */
    this.readyWaiter = null;
  }

  /** Starts the worker and the UCI handshake. */
  boot() {
    this.setStatus(EngineStatus.Loading);
    this.options = new Map();
    this.sentOptions = new Map();
    this.lastGameId = undefined;
    let worker;
    try {
      worker = this.createWorker();
    } catch (e) {
      this.fail(`the engine worker could not be started: ${e.message ?? e}`);
      return;
    }
    this.worker = worker;
    worker.onmessage = (e) => this.receive(e.data);
    worker.onerror = (e) => {
      e.preventDefault?.();
      this.fail(e.message ? `the engine crashed: ${e.message}` : 'the engine worker failed to load or crashed');
    };
    worker.onmessageerror = () => this.fail('the engine sent a message the page could not read');
    this.bootTimer = setTimeout(() => this.fail('the engine did not answer within a minute'), BOOT_TIMEOUT_MS);
    this.send('uci');
  }

  /**
   * Runs a search. If one is running, it is stopped and this job replaces any job
   * already waiting; it starts when the running search's `bestmove` arrives.
   * @param {EngineJob} job
   */
  start(job) {
    const dropped = this.withdrawn(job);
    if (this.status === EngineStatus.Computing || this.status === EngineStatus.Stopping || this.readyWaiter) {
      this.pending = job;
      this.stopCurrent();
    } else if (this.status === EngineStatus.Ready) {
      this.launch(job);
    } else {
      // Loading or Failed: run it once the engine is up.
      this.pending = job;
    }
    for (const other of dropped) other.onDropped?.();
    if (this.gaveUp) job.onFailed?.(this.gaveUp);
  }

  /** Stops the running search (its bestmove is dropped) and forgets any waiting job. */
  stop() {
    const dropped = this.withdrawn(null);
    this.pending = null;
    this.stopCurrent();
    for (const other of dropped) other.onDropped?.();
  }

  /** Withdraws one job: forgets it if it waits, stops it if it runs; other work is left alone. */
  cancel(job) {
    if (this.pending === job) this.pending = null;
    if (this.current === job) this.stopCurrent();
  }

  /** Whether a job is running or waiting to run. */
  has(job) {
    return this.pending === job || (this.current === job && this.currentWanted);
  }

  /** Remembers an option value; it reaches the engine before the next search. */
  setOption(name, value) {
    this.wantedOptions.set(name, String(value));
  }

  /** Records a value the engine reports it is using (e.g. after refusing a request), so it is not resent. */
  confirmOption(name, value) {
    this.wantedOptions.set(name, String(value));
    this.sentOptions.set(name, String(value));
  }

  /** The descriptor of an engine option, or undefined if this engine lacks it. */
  option(name) {
    return this.options.get(name);
  }

  /** Ends the worker for good. */
  destroy() {
    clearTimeout(this.bootTimer);
    clearTimeout(this.restartTimer);
    this.worker?.terminate();
    this.worker = null;
    this.current = this.pending = null;
  }

  /** Terminates the worker and boots a new one, resubmitting the job that was running. */
  restart() {
    const resubmit = this.pending ?? (this.currentWanted ? this.current : null);
    this.teardown();
    this.pending = resubmit;
    this.boot();
  }

  // --- internals ----------------------------------------------------------------------

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.onStatus(status);
  }

  send(line) {
    this.onLine(`> ${line}`);
    this.worker?.postMessage(line);
  }

  teardown() {
    clearTimeout(this.bootTimer);
    clearTimeout(this.restartTimer);
    if (this.worker) {
      this.worker.onmessage = this.worker.onerror = this.worker.onmessageerror = null;
      this.worker.terminate();
    }
    this.worker = null;
    this.current = null;
    this.currentWanted = false;
    this.readyWaiter = null;
  }

  /** Reports a failure, keeps the job that was running, and schedules a restart with backoff. */
  fail(message) {
    if (this.status === EngineStatus.Failed) return;
    const resubmit = this.pending ?? (this.currentWanted ? this.current : null);
    this.teardown();
    this.pending = resubmit;
    this.setStatus(EngineStatus.Failed);
    if (this.restarts >= MAX_RESTARTS) {
      this.gaveUp = `${message}; gave up after ${MAX_RESTARTS} restarts (reload the page to try again)`;
      this.onError(this.gaveUp);
      resubmit?.onFailed?.(this.gaveUp);
      return;
    }
    const delay = 1000 * 2 ** this.restarts++;
    this.onError(`${message}; restarting the engine in ${delay / 1000} s`);
    this.restartTimer = setTimeout(() => this.boot(), delay);
  }

  /** The jobs that lose the engine when `job` takes its place: the waiting one and the
   * running one whose result is still wanted. */
  withdrawn(job) {
    return [this.pending, this.currentWanted ? this.current : null].filter((other) => other && other !== job);
  }

  stopCurrent() {
    if (this.status !== EngineStatus.Computing) return;
    this.currentWanted = false;
    if (this.readyWaiter) return; // not searching yet: launch() sees the job is unwanted and moves on
    this.setStatus(EngineStatus.Stopping);
    this.send('stop');
  }

  /** The option values `job` searches with: its own, else the wanted ones, else (for an
   * option an earlier job set for itself alone) the engine's default. */
  optionsFor(job) {
    const values = new Map(this.wantedOptions);
    for (const name of this.sentOptions.keys()) {
      const fallback = this.options.get(name)?.default;
      if (!values.has(name) && fallback !== undefined) values.set(name, fallback);
    }
    for (const [name, value] of Object.entries(job.options ?? {})) values.set(name, String(value));
    return values;
  }

  /** Sends changed options, waits for `readyok` if any were sent, then position and go. */
  async launch(job) {
    this.current = job;
    this.currentWanted = true;
    this.setStatus(EngineStatus.Computing);
    const changed = [...this.optionsFor(job)].filter(([name, value]) => this.options.has(name) && this.sentOptions.get(name) !== value);
    const newGame = job.gameId !== undefined && job.gameId !== this.lastGameId;
    for (const [name, value] of changed) {
      this.send(this.options.get(name).kind === 'button' ? `setoption name ${name}` : `setoption name ${name} value ${value}`);
      this.sentOptions.set(name, value);
    }
    if (newGame) {
      this.send('ucinewgame');
      this.lastGameId = job.gameId;
    }
    if (changed.length || newGame) {
      const ok = await new Promise((resolve) => {
        this.readyWaiter = resolve;
        this.send('isready');
      });
      if (!ok || this.current !== job) return; // restarted meanwhile
      this.readyWaiter = null;
      if (!this.currentWanted) {
        // Superseded while the engine was getting ready: nothing was started, go on with the next.
        this.finishSearch();
        return;
      }
    }
    this.send(formatPosition(job.fen, job.moves ?? []));
    this.send(formatGo(job.go));
  }

  /** A search ended (bestmove) or never started: hand over to the waiting job, if any. */
  finishSearch() {
    this.current = null;
    this.currentWanted = false;
    this.setStatus(EngineStatus.Ready);
    const next = this.pending;
    this.pending = null;
    if (next) this.launch(next);
  }

  /** One message of the worker: an event (the worker runs with events on). */
  receive(event) {
    if (event?.line !== undefined) this.onLine(event.line);
    this.onEvent(event);
    switch (event?.type) {
      case 'crashed':
        // A dead engine (a trap in wasm, or a start that failed) is restarted.
        this.fail(`engine ${event.line.replace(/^info string /, '')}`);
        break;
      case 'message':
        if (/^error\b/i.test(event.text)) this.onError(`engine ${event.text}`);
        break;
      case 'info':
        if (this.currentWanted && this.current?.onInfo && (event.pv.length || event.scoreCp !== undefined || event.scoreMate !== undefined)) this.current.onInfo(event);
        break;
      case 'bestmove': {
        const job = this.current;
        const wanted = this.currentWanted;
        this.restarts = 0;
        this.finishSearch();
        if (wanted && job?.onBestMove) job.onBestMove(event.best === '0000' ? null : event.best, event.ponder ?? null);
        break;
      }
      case 'option':
        this.options.set(event.name, event);
        break;
      case 'idName':
        this.name = event.name;
        break;
      case 'uciok':
        this.send('isready');
        break;
      case 'readyok':
        if (this.readyWaiter) {
          const resolve = this.readyWaiter;
          resolve(true);
        } else if (this.status === EngineStatus.Loading) {
          clearTimeout(this.bootTimer);
          this.onOptions(this.options);
          this.finishSearch();
        }
        break;
    }
  }
}
