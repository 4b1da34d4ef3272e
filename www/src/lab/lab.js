// The Lab view: a simulated parallel machine searching a real position, replayed from the
// simulator's trace. Wires the form (controls.js), the worker client (labClient.js), the
// replay (playback.js), the drawing (networkView.js), the charts (charts.js), the table
// (resultsTable.js) and the exports; owns the animation loop and the keyboard.
import './lab.css';
import { Chess } from 'chess.js';
import { Board } from '../board.js';
import { LabCharts, SweepCharts } from './charts.js';
import { DEFAULTS, LabControls } from './controls.js';
import { experimentHash, ignoredNotice, readExperimentHash } from './experimentLink.js';
import { explain } from './explanations.js';
import { download, downloadCsv, downloadPng, tableCsv } from './exports.js';
import { LabClient } from './labClient.js';
import { Lecture } from './lecture.js';
import { LECTURES, lectureById } from './lectures.js';
import { DETAIL_LIMIT, KIND_COLORS, NetworkView, STATE_COLORS } from './networkView.js';
import { Playback, WINDOW_EVENTS } from './playback.js';
import { ScalingCurve, curveCounts } from './scalingCurve.js';
import { MARK_COLORS, TYPE_COLORS, TreeView, UNTREED_THREADS, describeNode, processorColor } from './treeView.js';
import { ThreadsActivity } from './threadsActivity.js';
import { COLUMNS, ResultsTable, rowCells } from './resultsTable.js';
import { PRESETS, REPRODUCE_COLUMNS, reproductionRows, suiteText } from './reproduce.js';
import { SUITES } from './positions.js';
import { DEVICE_COLUMNS, DeviceSpeedup, PROBE_MS, ROUNDS, deviceRows, pooled, searchOverhead, speedup } from './deviceSpeedup.js';

/** Virtual time per wall second offered by the speed menu, in ns ('auto': the run in AUTO_SECONDS). */
const SPEEDS = [
  ['auto', 'auto (whole run in 30 s)'],
  [1e4, '10 µs / s'],
  [1e5, '100 µs / s'],
  [1e6, '1 ms / s'],
  [1e7, '10 ms / s'],
  [1e8, '100 ms / s'],
  [1e9, '1 s / s'],
  [1e10, '10 s / s'],
];
const AUTO_SECONDS = 30;
/** How long the real threads view lets the Play engine search the current board. */
const THREADS_SEARCH_MS = 15000;
/** How often the charts and the readouts are redrawn. */
const CHART_MS = 250;
/** The largest machine the background sweep over p = 1, 2, 4, … runs for. */
const SWEEP_MAX = 64;
/** Utilisation samples taken while a lecture jumps to a stop, so its chart has no gaps. */
const CHART_SAMPLES_PER_JUMP = 200;

/** The button of a "reproduce a paper" preset (Zugzwang's keeps its first name). */
/** The form's position in words. */
const positionName = (position) => (position === 'board' ? 'the current board' : position);
const presetButton = (preset) => (preset.id === 'zugzwang' ? 'reproduce' : `reproduce-${preset.id}`);

export class Lab {
  /**
   * @param {{ root: HTMLElement, currentFen: () => string, engine: import('../engineClient.js').EngineClient, maxThreads: number }} options
   *   maxThreads: the engine's web workers (1 if the page is not cross-origin isolated)
   */
  constructor({ root, currentFen, engine, maxThreads }) {
    this.root = root;
    this.engine = engine;
    this.maxThreads = maxThreads;
    /** The real threads view, or null: its search (an engine job), whether that ended, and
     * the drawing of its workers (a promise, made at their first report). */
    this.threads = null;
    /** The running measurement on this device (a DeviceSpeedup), or null. */
    this.device = null;
    root.innerHTML = `
      <div class="lab-grid">
        <div class="lab-left">
          <form class="lab-controls panel" aria-label="Experiment"></form>
          <div class="button-row lab-presets" aria-label="Reproduce a paper (browser scale)">
            ${PRESETS.map((p) => `<button type="button" data-lab="${presetButton(p)}" title="${p.title}">Reproduce ${p.button}</button>`).join('')}
          </div>
          <section class="panel lab-lectures" aria-label="Lectures"><h3>Lectures</h3>
            ${LECTURES.map((l) => `<button type="button" data-lecture="${l.id}">${l.title}</button>`).join('')}
          </section>
          <section class="panel lab-explain" aria-label="How the algorithm works"><h3></h3><p></p></section>
        </div>
        <div class="lab-stage">
          <div class="lab-toolbar">
            <button type="button" class="primary" data-lab="run">Run</button>
            <button type="button" data-lab="pause" aria-pressed="false" title="Pause or resume (space)">Pause</button>
            <button type="button" data-lab="step" title="Apply one event (→)">Step</button>
            <button type="button" data-lab="step-node" title="Go on to the next node a processor enters (Shift+→)">Step node</button>
            <button type="button" data-lab="restart" title="Run again with the same seed">Restart</button>
            <label>Speed <select name="speed">${SPEEDS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
            <button type="button" data-lab="present" aria-pressed="false" title="Large type, high contrast">Presentation</button>
            <button type="button" data-lab="threads" aria-pressed="false" title="The Play engine's web workers searching this position with this algorithm">Real threads</button>
            <button type="button" data-lab="measure" aria-pressed="false" title="Time-to-depth speedup of this algorithm on this device's web workers against the serial search, at this position">Measure on this device</button>
            <button type="button" data-lab="copy-link" title="Copy a link that opens this experiment (the address bar holds it too)">Copy link</button>
          </div>
          <p class="lab-notice" role="alert" hidden></p>
          <p class="lab-status" role="status"></p>
          <output class="lab-result" aria-label="The run's result"></output>
          <section class="lab-lecture" aria-label="Lecture" aria-live="polite" tabindex="-1" hidden><h3></h3><p class="lab-lecture-text"></p><p class="lab-lecture-keys"></p></section>
          <div class="lab-views">
            <div class="lab-canvas-box">
              <canvas class="lab-canvas" aria-label="The simulated network"></canvas>
              <div class="lab-tooltip" hidden></div>
            </div>
            <div class="lab-tree-box">
              <canvas class="lab-tree" aria-label="The top of the search tree"></canvas>
              <div class="lab-tree-tooltip" hidden></div>
              <div class="lab-node">
                <div class="lab-board board" aria-label="The selected processor's node"></div>
                <p class="lab-node-text">Click a processor to see its current node.</p>
              </div>
            </div>
          </div>
          <div class="lab-legend"></div>
          <div class="lab-tree-legend"></div>
          <p class="lab-readout"></p>
          <table class="lab-table"></table>
          <div class="button-row lab-exports">
            <button type="button" data-lab="export-trace" disabled>Trace (JSONL)</button>
            <button type="button" data-lab="export-csv" disabled>Table (CSV)</button>
            <button type="button" data-lab="export-png">Picture (PNG)</button>
          </div>
        </div>
        <div class="lab-side">
          <div class="lab-charts"></div>
          <section class="panel lab-scaling" aria-label="Scaling curve">
            <h3>Scaling curve</h3>
            <p class="lab-scaling-help">SPE against p = 1, 2, 4, … up to the form's processors, for each algorithm ticked, on the form's machine and position (simulated without replay).</p>
            <div class="lab-scaling-algorithms"></div>
            <div class="button-row">
              <button type="button" data-lab="scaling">Draw the curve</button>
              <button type="button" data-lab="scaling-png" disabled>Curve (PNG)</button>
              <button type="button" data-lab="scaling-csv" disabled>Curve (CSV)</button>
            </div>
            <progress class="lab-scaling-progress" max="1" value="0" hidden></progress>
            <p class="lab-scaling-status" role="status"></p>
            <div class="lab-charts lab-scaling-chart"></div>
          </section>
          <p class="lab-sweep-status" role="status"></p>
          <div class="lab-charts lab-sweep"></div>
        </div>
      </div>`;
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      status: $('.lab-status'), notice: $('.lab-notice'), lecture: $('.lab-lecture'), result: $('.lab-result'), readout: $('.lab-readout'), tooltip: $('.lab-tooltip'), canvas: $('.lab-canvas'), speed: $('[name="speed"]'), explain: $('.lab-explain'), legend: $('.lab-legend'),
      tree: $('.lab-tree'), treeTooltip: $('.lab-tree-tooltip'), treeLegend: $('.lab-tree-legend'), nodeText: $('.lab-node-text'),
    };
    this.controls = new LabControls($('.lab-controls'), { currentFen, onChange: () => this.formChanged() });
    this.view = new NetworkView(this.el.canvas);
    this.treeView = new TreeView(this.el.tree);
    this.board = new Board($('.lab-board'), { onMove: () => {}, onCancel: () => {} });
    /** The position on the Lab's board (the selected processor's node), or null. */
    this.boardFen = null;
    this.table = new ResultsTable($('.lab-table'));
    this.client = new LabClient({ onTrace: (id, text) => this.receiveTrace(id, text) });
    this.charts = null;
    /** The sweep over p after a run: its charts, points, and a token that cancels it. */
    this.sweepCharts = null;
    this.sweepPoints = [];
    this.sweepToken = 0;
    this.sweepRun = null;
    this.sweepState = 'idle';
    /** The scaling curve: its chart, its table rows, its state and a token that cancels it. */
    this.scaling = null;
    this.scalingRows = [];
    this.scalingState = 'idle';
    this.scalingToken = 0;
    this.catalogue = null;
    /** The replay of the current run, and what the run streamed and reported. */
    this.playback = null;
    this.report = null;
    this.runId = 0;
    /** Runs finished since the page loaded. */
    this.runs = 0;
    this.running = false;
    this.visible = false;
    this.tableRows = [];
    this.fps = { frames: 0, since: 0, value: 0 };
    this.lastChart = 0;
    this.lastFrame = 0;
    this.wireButtons();
    this.wireCanvas();
    this.wireTree();
    document.addEventListener('keydown', (e) => this.key(e));
    // A lecture's keys come first (capture): ← and F mean something else on the Play board.
    document.addEventListener('keydown', (e) => this.lectureKey(e), true);
    /** The lecture in progress (a Lecture), or null. */
    this.lecture = null;
    window.__lab = {
      snapshot: () => this.snapshot(),
      /** Where processor `p` is drawn (CSS pixels in the network canvas). */
      processorPoint: (p) => this.view.processorPoint(p),
      /** Processor `p`'s current node of the tree (see SearchTree.current). */
      current: (p) => this.playback?.tree?.current(p) ?? null,
      /** Event codes `from..from + count` of the run (eventColumns.js EV), of those still held. */
      codes: (from, count) => {
        const events = this.playback?.events;
        if (!events) return [];
        const start = Math.max(0, from - events.offset);
        return Array.from(events.code.subarray(start, Math.max(start, from + count - events.offset)));
      },
    };
    this.setStatus('loading', 'Loading the simulator…');
  }

  wireButtons() {
    const on = (name, handler) => this.root.querySelector(`[data-lab="${name}"]`).addEventListener('click', handler);
    on('run', () => {
      this.showNotice('');
      this.leaveLecture();
      this.run();
    });
    for (const button of this.root.querySelectorAll('[data-lecture]')) button.addEventListener('click', () => this.startLecture(button.dataset.lecture));
    on('restart', () => this.run(this.lastRequest));
    on('pause', () => this.setRunning(!this.running));
    on('step', () => this.step());
    on('step-node', () => this.stepNode());
    on('present', (e) => {
      const on = document.body.classList.toggle('lab-presenting');
      e.currentTarget.setAttribute('aria-pressed', String(on));
      this.charts?.resize();
      this.sweepCharts?.resize();
    });
    for (const preset of PRESETS) on(presetButton(preset), () => this.reproduce(preset));
    on('threads', () => (this.threads && !this.threads.ended ? this.stopThreads() : this.watchThreads()));
    on('measure', () => (this.device ? this.device.stop() : this.measureOnDevice()));
    on('export-trace', async () => {
      try {
        download(await this.client.exportTrace(), `meshmate-trace-${this.fileStem()}.jsonl`);
      } catch (error) {
        this.setStatus('error', error.message);
      }
    });
    on('export-csv', () => downloadCsv(this.table.columns, this.tableRows, `meshmate-table-${this.fileStem()}.csv`));
    on('export-png', () => downloadPng(this.el.canvas, `meshmate-network-${this.fileStem()}.png`));
    on('scaling', () => this.drawScalingCurve());
    on('scaling-png', async () => download(await this.scaling.png(), `meshmate-scaling-${this.fileStem()}.png`));
    on('scaling-csv', () => download(new Blob([tableCsv(COLUMNS, this.scalingRows)], { type: 'text/csv' }), `meshmate-scaling-${this.fileStem()}.csv`));
    on('copy-link', async () => {
      const link = new URL(experimentHash(this.controls.values()), location.href).href;
      try {
        await navigator.clipboard.writeText(link);
        this.setStatus(this.root.dataset.status, `Copied ${link}`);
      } catch {
        this.setStatus(this.root.dataset.status, `The browser refused the clipboard; the link is ${link}`);
      }
    });
  }

  wireCanvas() {
    const { canvas, tooltip } = this.el;
    const at = (e) => {
      const box = canvas.getBoundingClientRect();
      return [e.clientX - box.left, e.clientY - box.top];
    };
    canvas.addEventListener('mousemove', (e) => {
      const [x, y] = at(e);
      const p = this.view.processorAt(x, y);
      tooltip.hidden = p === null || !this.playback;
      if (tooltip.hidden) return;
      const c = this.playback.processor(p);
      tooltip.textContent = `${this.view.processorName(p)}${p === this.view.drawing.host ? ' (host)' : ''} · ${c.state} · ${c.nodes} nodes · sent ${c.sent} · received ${c.received}`;
      const subtree = this.subtreeText(p);
      if (subtree) tooltip.append(document.createElement('br'), subtree);
      tooltip.style.left = `${x + 14}px`;
      tooltip.style.top = `${y + 10}px`;
    });
    canvas.addEventListener('mouseleave', () => (tooltip.hidden = true));
    canvas.addEventListener('click', (e) => {
      const p = this.view.processorAt(...at(e));
      this.select(p === this.view.selected ? null : p);
    });
  }

  wireTree() {
    const { tree, treeTooltip } = this.el;
    tree.addEventListener('mousemove', (e) => {
      const box = tree.getBoundingClientRect();
      const [x, y] = [e.clientX - box.left, e.clientY - box.top];
      const node = this.treeView.nodeAt(x, y);
      treeTooltip.hidden = !node || node.owner === null;
      if (treeTooltip.hidden) return;
      treeTooltip.textContent = describeNode(node);
      treeTooltip.style.left = `${Math.min(x + 14, box.width - 260)}px`;
      treeTooltip.style.top = `${y + 12}px`;
    });
    tree.addEventListener('mouseleave', () => (treeTooltip.hidden = true));
  }

  /** Processor `p`'s current subtree in words: its innermost open node (or the last it
   * entered); for a real worker, the line it is on. */
  subtreeText(p) {
    if (this.playback instanceof ThreadsActivity) {
      const line = this.playback.line(p);
      if (!line) return 'on no single line now: idle, or (TDSAB) working through a queue of nodes';
      return `on ${line.san.length ? line.san.join(' ') : 'the root'}${line.san.length < 4 ? '' : ' …'}`;
    }
    const node = this.playback?.tree?.current(p);
    if (!node) return this.playback?.tree ? 'no node of the top plies yet' : '';
    const path = node.san.length ? node.san.join(' ') : 'root';
    return `${node.open ? 'at' : 'last at'} ${path} · window [${node.alpha}, ${node.beta}] · depth ${node.depth} · ${node.type.toUpperCase()}`;
  }

  /** Selects processor `p` (or none): outlined in the network, its nodes highlighted in
   * the tree, its current node on the board. */
  select(p) {
    this.view.selected = p;
    this.treeView.highlight = p;
    this.showNode(p);
  }

  /** Shows processor `p`'s current node on the Lab's board. */
  showNode(p) {
    if (p !== null && this.playback instanceof ThreadsActivity) return this.showWorkerLine(p);
    const node = p === null ? null : this.playback?.tree?.current(p);
    if (!node?.fen) {
      // The real threads' search (its job, or the activity drawn once it ended).
      const realThreads = this.threads?.job ?? (this.playback instanceof ThreadsActivity ? this.playback : null);
      this.el.nodeText.textContent = realThreads
        ? 'The searched position. Click a worker to see the line it is on.'
        : p === null
          ? 'The searched position. Click a processor to see its current node.'
          : `P${p} has not entered a node of the top plies yet.`;
      const fen = realThreads ? realThreads.fen : this.lastRequest?.fen;
      if (fen) this.showBoard(fen);
      return;
    }
    const last = node.path[node.path.length - 1];
    this.showBoard(node.fen, last ? [last.slice(0, 2), last.slice(2, 4)] : undefined);
    this.el.nodeText.textContent = `P${p}: ${this.subtreeText(p)}`;
  }

  /** Puts `fen` on the Lab's board (`lastMove` marked), unless it is there already. */
  showBoard(fen, lastMove) {
    if (this.boardFen === fen) return;
    this.board.show(new Chess(fen), { movable: null, lastMove });
    this.boardFen = fen;
  }

  /** Shows where real worker `p` is: the position at the end of its line's first plies. */
  showWorkerLine(p) {
    const pb = this.playback;
    const line = pb.line(p);
    const fen = line?.fen ?? pb.fen;
    this.el.nodeText.textContent = line ? `P${p} ${this.subtreeText(p)} (the first plies of its line, sampled every quarter second).` : `P${p} is ${this.subtreeText(p)}.`;
    this.showBoard(fen, line?.lastMove);
  }

  /** Shows or hides the view (the app's tab); the animation runs only while shown. */
  async show(visible) {
    this.visible = visible;
    if (!visible) {
      this.stopThreads();
      this.stopDevice('Measurement stopped.');
      return;
    }
    if (!this.charts) this.charts = new LabCharts(this.root.querySelector('.lab-charts'));
    if (!this.sweepCharts) this.sweepCharts = new SweepCharts(this.root.querySelector('.lab-sweep'));
    if (!this.scaling) this.scaling = new ScalingCurve(this.root.querySelector('.lab-scaling-chart'));
    this.charts.resize();
    this.sweepCharts.resize();
    this.scaling.resize();
    requestAnimationFrame((t) => this.frame(t));
    if (this.catalogue) return;
    try {
      this.catalogue = await this.client.start();
      this.controls.populate(this.catalogue);
      this.root.querySelector('.lab-scaling-algorithms').innerHTML = this.catalogue.algorithms
        .map((a) => `<label><input type="checkbox" name="scaling" value="${a}"${a === DEFAULTS.algorithm ? ' checked' : ''} /> ${a}</label>`)
        .join('');
      this.drawLegend();
      this.setStatus('idle', 'Choose an experiment and press Run.');
      await this.followLink();
    } catch (error) {
      this.setStatus('error', error.message);
    }
  }

  /** Opens what the page's address links to: a lecture at its stop, or an experiment
   * (run at once); an address without one leaves the form as it is. */
  async followLink() {
    if (!this.catalogue) return;
    const linked = this.readLink();
    if (linked) this.leaveLecture();
    await this.formChanged();
    if (linked?.id) await this.startLecture(linked.id, linked.stop);
    else if (linked) await this.run();
  }

  /** Sets the form from the page's address (a link to an experiment), if it holds one, and
   * says what of it was ignored. Returns the lecture it names (`{ id, stop }`), or whether
   * it named settings to run. */
  readLink() {
    if (!location.hash.startsWith('#lab?')) return false;
    const positions = SUITES.flatMap((s) => s.positions.map((p) => p.id));
    const { values, lecture, ignored } = readExperimentHash(location.hash, this.catalogue, positions, LECTURES.map((l) => l.id));
    this.controls.set({ ...DEFAULTS, ...values });
    this.showNotice(ignored.length ? ignoredNotice(ignored) : '');
    if (lecture) return lecture;
    return Object.keys(values).length > 0 || ignored.length > 0;
  }

  /** Shows `text` above the status until the user presses Run (empty: hides it). */
  showNotice(text) {
    this.el.notice.textContent = text;
    this.el.notice.hidden = !text;
  }

  /** The form changed: redraw the (idle) machine it describes and the explanation. */
  async formChanged() {
    const { elements } = this.controls.form;
    const algorithm = elements.algorithm.value;
    this.el.explain.querySelector('h3').textContent = algorithm;
    this.el.explain.querySelector('p').textContent = explain(algorithm);
    if (this.playback && !this.playback.complete) return;
    const processors = Number(elements.processors.value);
    try {
      this.view.setDrawing(await this.client.network(elements.net.value, processors));
      this.playback = null;
      if (this.root.dataset.status === 'error') this.setStatus('idle', 'Choose an experiment and press Run.');
    } catch (error) {
      this.view.setDrawing(null);
      this.setStatus('error', error.message);
    }
  }

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
    };
    this.threads = { job, ended: false, finalSampleTaken: false, drawing: null };
    this.threadsPressed(true);
    this.showNode(null);
    const algorithm = options.Algorithm ?? 'the Play algorithm';
    this.setStatus('threads', `The Play engine searches ${positionName(position)} with ${algorithm} on ${workers} web worker${workers === 1 ? '' : 's'} for ${THREADS_SEARCH_MS / 1000} s; they are drawn as they report.`);
    this.engine.start(job);
  }

  /** Takes a structured event of the Play engine; only `workers` events matter here: while
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
  }

  /** The view's search ended: with its bestmove, or taken over by other work (`why`). */
  threadsDone(job, why = 'The Play engine finished its search; the drawing shows its workers at the end.') {
    if (this.threads?.job !== job) return;
    this.threads.ended = true;
    this.threadsPressed(false);
    this.setStatus('done', why);
  }

  /** Ends the view: stops its search if it still runs; the drawing stays. */
  stopThreads() {
    if (!this.threads) return;
    if (!this.threads.ended) {
      this.engine.cancel(this.threads.job);
      this.setStatus('done', 'Real threads view stopped.');
    }
    this.threads = null;
    this.threadsPressed(false);
  }

  /** Whether the Play engine's Algorithm option offers `algorithm` (the Lab has variants it lacks). */
  engineOffers(algorithm) {
    return this.engine.option('Algorithm')?.vars?.includes(algorithm) ?? false;
  }

  /** The Play engine's workers a request may use: its processors, at most the pool. */
  engineWorkers(request) {
    return Math.max(1, Math.min(request.processors, this.maxThreads, Number(this.engine.option('Threads')?.max ?? 1)));
  }

  /** Measures the form's algorithm against the serial search on this device's web workers
   * (the Play engine) at the form's position; the rounds fill the table as they come. */
  async measureOnDevice() {
    if (!this.catalogue) return;
    const { request, position, error } = this.controls.read();
    if (error) return this.setStatus('error', error);
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
    // status now; a Play or Analyse search that took the engine has not.
    if (this.device !== device && !device.takenOver) return;
    if (this.device === device) this.stopDevice();
    if (!searchable) return this.setStatus('error', 'There is nothing to search in this position: the side to move has no legal move.');
    const takenOver = device.takenOver ? ' Play or Analyse took the engine.' : '';
    if (!rows.length) return this.setStatus('done', `Measurement stopped.${takenOver}`);
    const all = pooled(rows);
    const singles = rows.map(speedup);
    this.setStatus(
      'done',
      `On this device, ${where} at depth ${depth}: SPE ${speedup(all).toFixed(2)} (single rounds ${Math.min(...singles).toFixed(2)} to ${Math.max(...singles).toFixed(2)}), ` +
        `search overhead ${searchOverhead(all).toFixed(3)}, ${rows.length} round${rows.length === 1 ? '' : 's'}.${takenOver} One position's parallel tree changes from run to run; ` +
        'the native meshmate speedup pools a whole suite. The Play settings are back for the engine\'s next search.',
    );
  }

  /** Ends a measurement on this device; `why` is the status (without it, the other work
   * that ends the measurement takes the status over). */
  stopDevice(why) {
    if (!this.device) return;
    this.device.stop();
    this.device = null;
    this.devicePressed(false);
    if (why) this.setStatus('done', why);
  }

  devicePressed(on) {
    this.root.querySelector('[data-lab="measure"]').setAttribute('aria-pressed', String(on));
  }

  threadsPressed(on) {
    this.root.querySelector('[data-lab="threads"]').setAttribute('aria-pressed', String(on));
    this.root.dataset.source = on ? 'threads' : 'simulator';
  }

  /** Runs one experiment (the form's, or `request` again) and replays its trace. */
  async run(request = null, position = null) {
    if (!this.catalogue) return null;
    this.stopThreads();
    this.stopDevice();
    await this.stopSweep();
    await this.stopScaling();
    if (!request) {
      const read = this.controls.read();
      if (read.error) {
        this.setStatus('error', read.error);
        return null;
      }
      ({ request, position } = read);
    }
    this.lastRequest = request;
    this.lastPosition = position ?? this.lastPosition;
    history.replaceState(null, '', experimentHash(this.controls.values()));
    this.playback = null;
    this.report = null;
    this.showResult(null);
    this.setExportsEnabled(false);
    this.charts?.reset(this.catalogue.messageKinds);
    this.setStatus('running', `Simulating ${request.algorithm} on ${request.processors} processors (${request.net}, ${request.preset}), depth ${request.depth}…`);
    try {
      this.view.setDrawing(await this.client.network(request.net, request.processors));
      this.select(null);
      this.runId = this.client.peekId();
      const runId = this.runId;
      const { report, wallMs, memoryMiB } = await this.client.run(request, { ahead: this.lecture ? 0 : WINDOW_EVENTS / 2 });
      if (runId !== this.runId) return null; // a newer run took over while this one finished
      this.report = { ...report, wallMs, memoryMiB };
      this.runs++;
      if (this.playback) this.playback.complete = true;
      this.tableRows = report.rows.map((row) => rowCells(this.lastPosition, row));
      this.table.show(this.tableRows, COLUMNS);
      this.setExportsEnabled(true);
      this.showResult(report.rows[report.rows.length - 1]);
      const rate = report.events / Math.max(0.001, report.simulationMs / 1000);
      this.setStatus('done', `Simulated ${report.events} events in ${report.simulationMs.toFixed(0)} ms (${Math.round(rate)} events/s); trace ${report.hash}. Replaying.`);
      this.sweep(request);
      return this.report;
    } catch (error) {
      this.setStatus('error', error.message);
      return null;
    }
  }

  /** A batch of the current run's events (numbers, see eventColumns.js). */
  receiveTrace(id, words) {
    if (id !== this.runId) return;
    if (!this.playback) {
      const { drawing } = this.view;
      this.playback = new Playback({ processors: drawing.processors, links: drawing.links.length }, this.catalogue.messageKinds, this.lastRequest.fen);
      this.playback.keepAll = !!this.lecture;
      // A lecture plays once its stops are known, from the complete trace.
      this.setRunning(!this.lecture);
    }
    this.playback.append(words);
  }

  setRunning(running) {
    this.running = running && !!this.playback;
    const pause = this.root.querySelector('[data-lab="pause"]');
    pause.setAttribute('aria-pressed', String(!this.running));
    pause.textContent = this.running ? 'Pause' : 'Resume';
    this.root.dataset.playing = String(this.running);
  }

  step() {
    this.setRunning(false);
    if (this.playback instanceof Playback) this.playback.step();
  }

  /** Pauses and goes on to the next node a processor enters. */
  stepNode() {
    this.setRunning(false);
    if (this.playback instanceof Playback) this.playback.stepNode();
  }

  /** Virtual ns per wall second. */
  speed() {
    const value = this.el.speed.value;
    if (value !== 'auto') return Number(value);
    const pb = this.playback;
    const span = this.report ? this.report.endNs : pb?.lastTime ?? 0;
    // A paced run's length is known only at its end, and its simulator waits for the
    // replay: follow what has arrived, closing half the gap every half second.
    const chase = !this.report && this.client.paced && pb ? 2 * (pb.lastTime - pb.clock) : 0;
    return Math.max(1000, span / AUTO_SECONDS, chase);
  }

  frame(now) {
    if (!this.visible) return;
    const dt = this.lastFrame ? Math.min(0.1, (now - this.lastFrame) / 1000) : 0;
    this.lastFrame = now;
    if (this.running && this.playback instanceof Playback) {
      const next = this.lecture?.nextIndex() ?? Infinity;
      this.playback.advanceTo(this.playback.clock + this.speed() * dt, next);
      if (this.playback.cursor > next) this.showStop(this.lecture.at + 1);
    }
    if (this.playback instanceof Playback) this.client.acknowledge(this.playback.applied);
    this.view.draw(this.playback);
    this.treeView.draw(this.playback?.tree ?? null, now, this.playback instanceof ThreadsActivity ? UNTREED_THREADS : undefined);
    if (this.playback) this.charts.sample(this.playback);
    if (now - this.lastChart >= CHART_MS) {
      this.lastChart = now;
      if (this.playback) this.charts.render(this.playback);
      this.readout();
    }
    this.countFrame(now);
    requestAnimationFrame((t) => this.frame(t));
  }

  countFrame(now) {
    const fps = this.fps;
    fps.frames++;
    if (now - fps.since >= 1000) {
      fps.value = (1000 * fps.frames) / (now - fps.since);
      fps.frames = 0;
      fps.since = now;
    }
  }

  readout() {
    const pb = this.playback;
    if (this.view.selected !== null && pb) this.showNode(this.view.selected);
    if (!pb) {
      this.el.readout.textContent = '';
      return;
    }
    const totals = pb.totals();
    const selected = this.view.selected;
    const sel = selected !== null && selected < pb.machine.processors ? ` · selected P${selected}: ${pb.processor(selected).state}, ${pb.nodes[selected]} nodes` : '';
    const time = pb instanceof Playback ? `t = ${(pb.clock / 1e6).toFixed(3)} ms virtual · event ${pb.applied} / ${pb.arrived}` : `real threads · ${(pb.clock / 1e9).toFixed(1)} s`;
    this.el.readout.textContent =
      `${time} · ` +
      `busy ${totals.busy}, waiting ${totals.waiting}, done ${totals.done} · ${totals.nodes} nodes · ${totals.messages} messages · ` +
      `${this.view.lastFrame.messages} in flight · ${this.fps.value.toFixed(0)} fps${sel}`;
  }

  /** Runs a paper's experiment as `meshmate reproduce NAME --quick` does, in the Lab worker,
   * and shows every measure with the published figure beside ours. */
  async reproduce(preset) {
    if (this.reproducing || !this.catalogue) return;
    this.reproducing = true;
    this.setStatus('running', `${preset.title}: starting…`);
    try {
      const onProgress = (done, total) => this.setStatus('running', `${preset.title}: search ${done} of ${total}…`);
      const { report, notes } = await this.client.reproduce(preset.id, suiteText(this.catalogue, preset.id), { quick: true, seed: 1, onProgress });
      this.tableRows = reproductionRows(report);
      this.table.show(this.tableRows, REPRODUCE_COLUMNS);
      this.setStatus('done', notes.join(' · '));
    } catch (error) {
      this.setStatus('error', `${preset.title}: ${error.message}`);
    } finally {
      this.reproducing = false;
    }
  }

  /** In the background, `request` again on p = 1, 2, 4, … below its p, then on its p,
   * without replay (the worker keeps the shown run's trace for the export); the sweep
   * charts plot each point as it comes. A new run cancels the sweep. */
  async sweep(request) {
    const token = ++this.sweepToken;
    if (request.processors > SWEEP_MAX || !this.sweepCharts) return this.sweepStatus('idle', `The background sweep stops at ${SWEEP_MAX} processors; the scaling curve above draws any count, with its progress.`);
    const counts = [];
    for (let p = 1; p < request.processors; p *= 2) counts.push(p);
    counts.push(request.processors);
    const points = [];
    this.sweepPoints = points;
    this.sweepCharts.show(points);
    this.sweepStatus('running', `Sweeping p = ${counts.join(', ')} in the background…`);
    for (const p of counts) {
      this.sweepRun = this.client.run({ ...request, processors: p }, { replay: false }).then((r) => r.report, () => null);
      const report = await this.sweepRun;
      this.sweepRun = null;
      if (token !== this.sweepToken) return;
      if (!report) continue; // a count the network cannot have (DeBruijn, hypercube and fat tree need some)
      const row = report.rows[report.rows.length - 1];
      points.push({ p, speedup: row.speedup, load: row.load, searchOverhead: row.searchOverhead, timeNs: row.timeNs, workNs: row.workNs, criticalPathNs: row.criticalPathNs ?? null });
      this.sweepCharts.show(points);
    }
    const fit = this.sweepCharts.fit;
    const fitted = fit ? ` Fit T_P ≈ ${fit.a.toFixed(2)}·W/P + ${fit.b.toFixed(2)}·C.` : ' No a·W/P + b·C fit (the algorithm times no critical path, or too few points).';
    this.sweepStatus('done', `Sweep over p = ${points.map((q) => q.p).join(', ')} of ${request.algorithm} done.${fitted}`);
  }

  /** Cancels the sweep and waits for its run in flight (the worker runs one at a time). */
  async stopSweep() {
    this.sweepToken++;
    await this.sweepRun;
    if (this.sweepState === 'running') this.sweepStatus('idle', 'Sweep cancelled by a new run.');
  }

  /** The scaling curve: each ticked algorithm on p = 1, 2, 4, … up to the form's processors,
   * one simulation a point (no replay), into the chart and the results table. A run, or
   * pressing the button again, cancels it. */
  async drawScalingCurve() {
    if (this.scalingState === 'running') return this.stopScaling('Scaling curve cancelled.');
    const { request, position, error } = this.controls.read();
    if (error) return this.setStatus('error', error);
    const algorithms = [...this.root.querySelectorAll('[name="scaling"]:checked')].map((box) => box.value);
    if (!algorithms.length) return this.scalingStatus('idle', 'Tick at least one algorithm.');
    await this.stopSweep();
    const token = ++this.scalingToken;
    const counts = curveCounts(request.processors);
    const runs = algorithms.length * counts.length;
    this.scaling.reset(algorithms, counts);
    this.scalingRows = [];
    this.tableRows = this.scalingRows;
    this.table.show(this.tableRows, COLUMNS);
    this.setScalingExports(false);
    const progress = this.root.querySelector('.lab-scaling-progress');
    Object.assign(progress, { hidden: false, max: runs, value: 0 });
    this.scalingState = 'running';
    this.root.querySelector('[data-lab="scaling"]').textContent = 'Stop the curve';
    const failed = [];
    let done = 0;
    for (const algorithm of algorithms) {
      for (const p of counts) {
        this.scalingStatus('running', `Simulating ${algorithm} on ${p} processor${p === 1 ? '' : 's'} (run ${done + 1} of ${runs})…`);
        let report = null;
        try {
          this.scalingRun = this.client.run({ ...request, algorithm, processors: p }, { replay: false });
          ({ report } = await this.scalingRun);
        } catch (e) {
          failed.push(`${algorithm} on ${p}: ${e.message}`);
        }
        this.scalingRun = null;
        if (token !== this.scalingToken) return;
        progress.value = ++done;
        if (!report) continue;
        const row = report.rows[report.rows.length - 1];
        this.scalingRows.push(rowCells(position, row));
        this.table.show(this.tableRows, COLUMNS);
        this.scaling.add(algorithm, { p, speedup: row.speedup, load: row.load, searchOverhead: row.searchOverhead, nodes: row.nodes });
      }
    }
    progress.hidden = true;
    this.root.querySelector('[data-lab="scaling"]').textContent = 'Draw the curve';
    this.setScalingExports(this.scalingRows.length > 0);
    const last = counts[counts.length - 1];
    const ends = algorithms.map((a) => this.scaling.curves.get(a).find((q) => q.p === last)).map((q, i) => (q ? `${algorithms[i]} ${q.speedup.toFixed(2)}` : null)).filter(Boolean);
    this.scalingStatus('done', `SPE on ${last} processors: ${ends.join(', ') || 'none'} (ideal ${last}, 1 + 0.7(p − 1) = ${(1 + 0.7 * (last - 1)).toFixed(1)}).${failed.length ? ` Not run: ${failed.join('; ')}.` : ''}`);
  }

  /** Cancels the scaling curve and waits for its run in flight; `why` is its status. */
  async stopScaling(why = 'Scaling curve cancelled by a new run.') {
    if (this.scalingState !== 'running') return;
    this.scalingToken++;
    await this.scalingRun?.catch(() => {});
    this.root.querySelector('.lab-scaling-progress').hidden = true;
    this.root.querySelector('[data-lab="scaling"]').textContent = 'Draw the curve';
    this.setScalingExports(this.scalingRows.length > 0);
    this.scalingStatus('idle', why);
  }

  setScalingExports(enabled) {
    for (const name of ['scaling-png', 'scaling-csv']) this.root.querySelector(`[data-lab="${name}"]`).disabled = !enabled;
  }

  scalingStatus(state, text) {
    this.scalingState = state;
    this.root.querySelector('.lab-scaling-status').textContent = text;
  }

  sweepStatus(state, text) {
    this.sweepState = state;
    this.root.querySelector('.lab-sweep-status').textContent = text;
  }

  /** Runs lecture `id` (LECTURES) and shows its stop `stop` (1 the first; 0 the start). */
  async startLecture(id, stop = 0) {
    const spec = lectureById(id);
    if (!spec || !this.catalogue) return;
    this.leaveLecture();
    this.showNotice('');
    this.controls.set(spec.settings);
    await this.formChanged();
    const lecture = (this.lecture = new Lecture(spec, this.el.lecture));
    this.el.lecture.focus();
    const report = await this.run();
    if (this.lecture !== lecture) return;
    if (!report || !this.playback) {
      lecture.write(spec.title, `The lecture's run failed: ${this.el.status.textContent}`, '');
      return;
    }
    lecture.begin(this.playback.events, this.catalogue.messageKinds);
    const at = Math.min(stop, lecture.stops.length) - 1;
    if (at >= 0) this.showStop(at);
    else {
      lecture.show(-1);
      this.setLectureAddress();
    }
  }

  /** Moves the replay of the lecture's run to just after stop `at` (forward or back) and shows it, paused. */
  showStop(at) {
    const lecture = this.lecture;
    const stop = lecture.stops[at];
    if (this.playback.cursor > stop.index + 1) {
      this.playback = this.playback.rewound();
      this.charts?.reset(this.catalogue.messageKinds);
    }
    this.playback.seek(stop.index, (pb) => this.charts?.sample(pb), CHART_SAMPLES_PER_JUMP);
    this.setRunning(false);
    lecture.show(at, this.playback, this.report.rows);
    this.setLectureAddress();
    if (stop.on === 'end' && !lecture.curveDrawn) {
      // The lecture ends on its algorithm's scaling curve, p = 1, 2, 4, … up to the run's.
      lecture.curveDrawn = true;
      for (const box of this.root.querySelectorAll('[name="scaling"]')) box.checked = box.value === lecture.spec.settings.algorithm;
      this.drawScalingCurve();
    }
  }

  /** The address of the lecture at its shown stop, for a link to this moment. */
  setLectureAddress() {
    const { spec, at } = this.lecture;
    history.replaceState(null, '', experimentHash(null, { id: spec.id, stop: at + 1 }));
  }

  /** Ends the lecture (the run stays, as an ordinary replay). */
  leaveLecture() {
    if (!this.lecture) return;
    this.lecture = null;
    this.el.lecture.hidden = true;
    if (document.body.classList.contains('lab-presenting')) this.toggleFullScreen();
    if (this.lastRequest) history.replaceState(null, '', experimentHash(this.controls.values()));
  }

  /** A lecture's keys: Space plays on or pauses, → the next stop, ← back a stop, F full
   * screen, Esc leaves. */
  lectureKey(e) {
    const lecture = this.lecture;
    if (!lecture || !this.visible || e.target.closest?.('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const ready = lecture.stops !== null && this.playback instanceof Playback;
    const actions = {
      ' ': () => {
        if (!ready) return;
        if (!this.running && lecture.at >= lecture.last) return;
        this.setRunning(!this.running);
        if (this.running) lecture.playing();
        else lecture.paused();
      },
      ArrowRight: () => ready && lecture.at < lecture.last && this.showStop(lecture.at + 1),
      ArrowLeft: () => {
        if (!ready) return;
        if (lecture.at > 0) this.showStop(lecture.at - 1);
        else {
          this.playback = this.playback.rewound();
          this.charts?.reset(this.catalogue.messageKinds);
          this.setRunning(false);
          lecture.show(-1);
          this.setLectureAddress();
        }
      },
      f: () => this.toggleFullScreen(),
      F: () => this.toggleFullScreen(),
      Escape: () => this.leaveLecture(),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  }

  /** Full screen for the Lab (where the browser allows it) with presentation mode's large type. */
  toggleFullScreen() {
    const on = !document.body.classList.contains('lab-presenting');
    document.body.classList.toggle('lab-presenting', on);
    this.root.querySelector('[data-lab="present"]').setAttribute('aria-pressed', String(on));
    if (on && !document.fullscreenElement) this.root.requestFullscreen?.().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    this.charts?.resize();
    this.sweepCharts?.resize();
  }

  key(e) {
    if (!this.visible || e.target.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === ' ') {
      e.preventDefault();
      this.setRunning(!this.running);
    } else if (e.key === 'ArrowRight' && e.shiftKey) {
      e.preventDefault();
      this.stepNode();
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      this.step();
    }
  }

  drawLegend() {
    const swatch = (color, text) => `<span><i style="background:${color}"></i>${text}</span>`;
    const states = Object.entries(STATE_COLORS).map(([s, c]) => swatch(c, s));
    const kinds = this.catalogue.messageKinds.map((k, i) => swatch(KIND_COLORS[i % KIND_COLORS.length], k));
    this.el.legend.innerHTML =
      `<div>Processors: ${states.join('')} <span>(ring: host)</span></div>` +
      `<div>Messages: ${kinds.join('')}</div>` +
      `<div>DeBruijn links: <span class="lab-line shuffle"></span>shuffle <span class="lab-line exchange"></span>exchange <span class="lab-line added"></span>added · ` +
      `thicker = more load · above ${DETAIL_LIMIT} processors: heat maps</div>`;
    const types = Object.entries(TYPE_COLORS).map(([t, c]) => `<span><b style="background:${c}"></b>${t.toUpperCase()}</span>`);
    const owners = Array.from({ length: 8 }, (_, p) => swatch(processorColor(p), `P${p}`));
    this.el.treeLegend.innerHTML =
      `<div>Tree (top 4 plies, eldest brother on the left; width = nodes below): fill = owning processor ${owners.join('')}…</div>` +
      `<div>Top stripe = node type: ${types.join('')} · marks: <span><b class="open"></b>open now</span>` +
      `<span><b class="diamond" style="background:${MARK_COLORS.split}"></b>split point (moves given away)</span>` +
      `<span><b style="background:${MARK_COLORS.cut}"></b>cutoff (bar on the right)</span>` +
      `<span><b style="background:${MARK_COLORS.tt}"></b>table hit (corner)</span>` +
      `<span><b class="hatched"></b>aborted = wasted</span> · hover a node for its window</div>`;
  }

  /** The run's result in words and as data attributes a script reads (`data-spe`, `data-so`,
   * `data-ld`, `data-nodes`, `data-messages`, `data-virtual-ns`): the p-processor row of the
   * report, the same numbers the table shows rounded. `row` null: no result (yet). */
  showResult(row) {
    const el = this.el.result;
    for (const name of ['spe', 'so', 'ld', 'nodes', 'messages', 'virtualNs']) delete el.dataset[name];
    if (!row) {
      el.textContent = '';
      return;
    }
    Object.assign(el.dataset, { spe: row.speedup, so: row.searchOverhead, ld: row.load, nodes: row.nodes, messages: row.messages, virtualNs: row.timeNs });
    el.textContent = `${row.algorithm} on ${row.processors} processors: SPE ${row.speedup.toFixed(2)} · SO ${row.searchOverhead.toFixed(3)} · LD ${row.load.toFixed(3)} · ${row.nodes} nodes · ${row.messages} messages · ${(row.timeNs / 1e6).toFixed(3)} virtual ms`;
  }

  setExportsEnabled(enabled) {
    for (const name of ['export-trace', 'export-csv']) this.root.querySelector(`[data-lab="${name}"]`).disabled = !enabled;
  }

  setStatus(status, text) {
    this.root.dataset.status = status;
    this.el.status.textContent = text;
  }

  fileStem() {
    const r = this.lastRequest;
    return r ? `${r.algorithm}-${r.net}-p${r.processors}-d${r.depth}-s${r.seed}` : 'idle';
  }

  /** What the page shows now, for tests (window.__lab.snapshot()). */
  snapshot() {
    const pb = this.playback;
    return {
      status: this.root.dataset.status,
      statusText: this.el.status.textContent,
      running: this.running,
      runs: this.runs,
      drawn: { ...this.view.lastFrame },
      fps: this.fps.value,
      clock: pb?.clock ?? 0,
      source: this.root.dataset.source ?? 'simulator',
      cursor: pb instanceof Playback ? pb.applied : 0,
      events: pb instanceof Playback ? pb.arrived : 0,
      held: pb instanceof Playback ? pb.events.length : 0,
      complete: pb?.complete ?? false,
      totals: pb?.totals() ?? null,
      report: this.report && { hash: this.report.hash, events: this.report.events, rows: this.report.rows, simulationMs: this.report.simulationMs, wallMs: this.report.wallMs, elapsedNs: this.report.elapsedNs, memoryMiB: this.report.memoryMiB },
      treeNotice: this.treeView.lastFrame?.notice ?? null,
      tree: pb?.tree ? { ...pb.tree.summary(), firstPly: pb.tree.root?.children.map((n) => n.san) ?? [], drawn: { ...this.treeView.lastFrame } } : null,
      nextCode: pb instanceof Playback && !pb.atEnd ? pb.events.code[pb.cursor] : null,
      selected: this.view.selected,
      boardFen: this.boardFen,
      nodeText: this.el.nodeText.textContent,
      table: this.tableRows,
      lecture: this.lecture?.snapshot() ?? null,
      scaling: { state: this.scalingState, curves: this.scaling?.plotted() ?? {}, counts: this.scaling?.counts ?? [], rows: this.scalingRows },
      kindCounts: pb instanceof Playback ? Object.fromEntries(pb.kinds.map((k, i) => [k, pb.kindCounts[i]])) : null,
      presenting: document.body.classList.contains('lab-presenting'),
      sweep: { state: this.sweepState, points: this.sweepPoints, fit: this.sweepCharts?.fit ?? null, plotted: this.sweepCharts?.plotted() ?? null },
    };
  }
}
