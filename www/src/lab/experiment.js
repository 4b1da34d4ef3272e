// One experiment: the form (and the link that sets it), a run on the simulator and the
// replay of its trace, a paper's preset run position after position, and the lines that
// say what happened (status, notice, result, legend).
import { LabCharts, SweepCharts } from './charts.js';
import { DEFAULTS } from './controls.js';
import { experimentHash, ignoredNotice, readExperimentHash } from './experimentLink.js';
import { explain } from './explanations.js';
import { LECTURES } from './lectures.js';
import { DETAIL_LIMIT } from './networkView.js';
import { KIND_COLORS, STATE_COLORS } from './palette.js';
import { Playback, WINDOW_EVENTS } from './playback.js';
import { ScalingCurve } from './scalingCurve.js';
import { MARK_COLORS, TYPE_COLORS, processorColor } from './treeView.js';
import { COLUMNS, rowCells } from './resultsTable.js';
import { REPRODUCE_COLUMNS, reproductionRows, suiteText } from './reproduce.js';
import { SUITES } from './positions.js';

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const Experiment = {
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
    this.breakEven?.resize();
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
  },

  /** Opens what the page's address links to: a lecture at its stop, or an experiment
   * (run at once); an address without one leaves the form as it is. */
  async followLink() {
    if (!this.catalogue) return;
    const linked = this.readLink();
    if (linked) this.leaveLecture();
    await this.formChanged();
    if (linked?.id) await this.startLecture(linked.id, linked.stop);
    else if (linked) await this.run();
  },

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
  },

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
  },

  /** Runs one experiment (the form's, or `request` again) and replays its trace. */
  async run(request = null, position = null) {
    if (!this.catalogue) return null;
    this.stopThreads();
    this.stopDevice();
    await this.stopSweep();
    await this.stopScaling();
    this.stopBreakEven();
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
  },

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
  },

  /** Runs a paper's experiment as `meshmate reproduce NAME --quick` does, in the Lab worker,
   * and shows every measure with the published figure beside ours. The form and the
   * network view show the paper's machine (its largest p), not the last run's. */
  async reproduce(preset) {
    if (this.reproducing || !this.catalogue) return;
    this.reproducing = true;
    const machine = this.catalogue.papers.find((p) => p.name === preset.id)?.machine;
    if (machine) {
      const { algorithm, preset: machinePreset, net, processors, tt, depth } = machine;
      this.controls.set({ algorithm, preset: machinePreset, net, processors, tt, depth, search: 'period' });
      await this.formChanged();
    }
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
  },

  /** The legends of the network (states, message kinds, links) and of the tree. */
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
  },

  /** Shows `text` above the status until the user presses Run (empty: hides it). */
  showNotice(text) {
    this.el.notice.textContent = text;
    this.el.notice.hidden = !text;
  },

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
  },

  /** Offers the trace and table downloads (once a run has finished). */
  setExportsEnabled(enabled) {
    for (const name of ['export-trace', 'export-csv']) this.root.querySelector(`[data-lab="${name}"]`).disabled = !enabled;
  },

  /** The status line, and `data-status` on the Lab (loading, idle, running, done, error, ...). */
  setStatus(status, text) {
    this.root.dataset.status = status;
    this.el.status.textContent = text;
  },

  /** The downloads' file name: the last run's settings. */
  fileStem() {
    const r = this.lastRequest;
    return r ? `${r.algorithm}-${r.net}-p${r.processors}-d${r.depth}-s${r.seed}` : 'idle';
  },
};
