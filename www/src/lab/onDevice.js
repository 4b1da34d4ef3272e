// The Play engine's real web workers in the Lab: the real threads view (the engine
// searches the form's position and its workers are drawn as they report) and the
// time-to-depth speedup measured on this device (deviceSpeedup.js runs the rounds).
import { ThreadsActivity } from './threadsActivity.js';
import { DEVICE_COLUMNS, DeviceSpeedup, PROBE_MS, ROUNDS, deviceRows, pooled, searchOverhead, speedup } from './deviceSpeedup.js';

/** How long the real threads view lets the Play engine search the current board. */
const THREADS_SEARCH_MS = 15000;

/** The form's position in words. */
const positionName = (position) => (position === 'board' ? 'the current board' : position);

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const OnDevice = {
  /** Real threads view: the Play engine searches the form's position with the form's
   * algorithm on as many of its web workers as the form has processors; they are drawn.
   * The Play settings are back for the engine's next search. */
  watchThreads() {
    if (!this.catalogue) return;
    this.stopDevice();
    const { request, position, error } = this.controls.read();
    if (error) {
      this.setStatus('error', error);
      return;
    }
    this.playback = null;
    this.charts.reset(this.catalogue.messageKinds, 'ms');
    this.view.setDrawing(null);
    const workers = this.engineWorkers(request);
    const options = { Threads: workers };
    if (this.engineOffers(request.algorithm)) options.Algorithm = request.algorithm;
    const job = {
      fen: request.fen,
      go: { movetime: THREADS_SEARCH_MS },
      options,
      onBestMove: () => this.threadsDone(job),
      onDropped: () => this.threadsDone(job, 'Play or Analyse took the engine; the drawing shows its workers as they last reported.'),
      onFailed: (message) => this.threadsDone(job, `The engine failed: ${message}.`),
    };
    this.threads = { job, ended: false, finalSampleTaken: false, drawing: null };
    this.threadsPressed(true);
    this.showNode(null);
    const algorithm = options.Algorithm ?? 'the Play algorithm';
    this.setStatus('threads', `The Play engine searches ${positionName(position)} with ${algorithm} on ${workers} web worker${workers === 1 ? '' : 's'} for ${THREADS_SEARCH_MS / 1000} s; they are drawn as they report.`);
    this.engine.start(job);
  },

  /** Takes an event of the Play engine; only `workers` events matter here: while
   * the view's search runs, and the first one after it ends (the workers' final counts, all
   * that a search shorter than the sampling period leaves to draw). */
  async receiveEngineEvent(event) {
    const threads = this.threads;
    if (!threads || event?.type !== 'workers' || !Array.isArray(event.workers) || !event.workers.length) return;
    if (threads.ended) {
      if (threads.finalSampleTaken) return;
      threads.finalSampleTaken = true;
    }
    threads.drawing ??= this.client.network('bus', event.workers.length);
    let drawing;
    try {
      drawing = await threads.drawing;
    } catch (error) {
      this.setStatus('error', error.message);
      return;
    }
    if (this.threads !== threads) return;
    if (!(this.playback instanceof ThreadsActivity)) {
      this.view.setDrawing(drawing);
      this.playback = new ThreadsActivity(event.workers.length, drawing, this.catalogue.messageKinds, threads.job.fen);
    }
    this.playback.receive(event.workers);
  },

  /** The view's search ended: with its bestmove, or taken over by other work (`why`). */
  threadsDone(job, why = 'The Play engine finished its search; the drawing shows its workers at the end.') {
    if (this.threads?.job !== job) return;
    this.threads.ended = true;
    this.threadsPressed(false);
    this.setStatus('done', why);
  },

  /** Ends the view: stops its search if it still runs; the drawing stays. */
  stopThreads() {
    if (!this.threads) return;
    if (!this.threads.ended) {
      this.engine.cancel(this.threads.job);
      this.setStatus('done', 'Real threads view stopped.');
    }
    this.threads = null;
    this.threadsPressed(false);
  },

  /** Whether the Play engine's Algorithm option offers `algorithm` (the Lab has variants it lacks). */
  engineOffers(algorithm) {
    return this.engine.option('Algorithm')?.vars?.includes(algorithm) ?? false;
  },

  /** The Play engine's workers a request may use: its processors, at most the pool. */
  engineWorkers(request) {
    return Math.max(1, Math.min(request.processors, this.maxThreads, Number(this.engine.option('Threads')?.max ?? 1)));
  },

  /** Measures the form's algorithm against the serial search on this device's web workers
   * (the Play engine) at the form's position; the rounds fill the table as they come. */
  async measureOnDevice() {
    if (!this.catalogue) return;
    const { request, position, error } = this.controls.read();
    if (error) return this.setStatus('error', error);
    // The engine's options (its Threads maximum) are gone once it gave up: say why, not "one worker".
    if (this.engine.gaveUp) return this.setStatus('error', `The engine failed: ${this.engine.gaveUp}.`);
    const workers = this.engineWorkers(request);
    if (workers < 2) return this.setStatus('error', 'The Play engine has one worker here (one core, one processor in the form, or a page that is not cross-origin isolated): there is no speedup to measure.');
    if (!this.engineOffers(request.algorithm)) return this.setStatus('error', `The engine does not offer ${request.algorithm}; choose another algorithm.`);
    if (this.sweepState === 'running') return this.setStatus('error', 'The sweep runs on the same cores; measure once it is done.');
    this.stopThreads();
    const device = (this.device = new DeviceSpeedup(this.engine));
    this.devicePressed(true);
    this.showBoard(request.fen);
    this.el.nodeText.textContent = 'The measured position.';
    const where = `${request.algorithm} on ${workers} web workers against the serial search, ${positionName(position)}`;
    this.setStatus('measuring', `Measuring ${where}: finding the depth the serial search completes in ${PROBE_MS / 1000} s…`);
    const rows = [];
    this.tableRows = [];
    this.table.show(this.tableRows, DEVICE_COLUMNS);
    const { depth, searchable } = await device.run({ algorithm: request.algorithm, threads: workers, fen: request.fen }, (row) => {
      rows.push(row);
      this.tableRows = deviceRows(rows);
      this.table.show(this.tableRows, DEVICE_COLUMNS);
      this.setStatus('measuring', `Measuring ${where} at depth ${row.depth}: round ${row.round} of ${ROUNDS} done…`);
    });
    // Other work of the Lab (a run, the real threads view, leaving it) ended it and has the
    // status now; a Play or Analyse search that took the engine, or its failure, has not.
    if (this.device !== device && !device.interrupted) return;
    if (this.device === device) this.stopDevice();
    if (!searchable) return this.setStatus('error', 'There is nothing to search in this position: the side to move has no legal move.');
    const interrupted = device.interrupted ? ` ${device.interrupted}` : '';
    if (!rows.length) return this.setStatus('done', `Measurement stopped.${interrupted}`);
    const all = pooled(rows);
    const singles = rows.map(speedup);
    this.setStatus(
      'done',
      `On this device, ${where} at depth ${depth}: SPE ${speedup(all).toFixed(2)} (single rounds ${Math.min(...singles).toFixed(2)} to ${Math.max(...singles).toFixed(2)}), ` +
        `search overhead ${searchOverhead(all).toFixed(3)}, ${rows.length} round${rows.length === 1 ? '' : 's'}.${interrupted} One position's parallel tree changes from run to run; ` +
        'the native meshmate speedup pools a whole suite. The Play settings are back for the engine\'s next search.',
    );
  },

  /** Ends a measurement on this device; `why` is the status (without it, the other work
   * that ends the measurement takes the status over). */
  stopDevice(why) {
    if (!this.device) return;
    this.device.stop();
    this.device = null;
    this.devicePressed(false);
    if (why) this.setStatus('done', why);
  },

  /** Shows the Measure button pressed while a measurement runs. */
  devicePressed(on) {
    this.root.querySelector('[data-lab="measure"]').setAttribute('aria-pressed', String(on));
  },

  /** Shows the Real threads button pressed, and the source of the drawing, while its search runs. */
  threadsPressed(on) {
    this.root.querySelector('[data-lab="threads"]').setAttribute('aria-pressed', String(on));
    this.root.dataset.source = on ? 'threads' : 'simulator';
  },
};
