// The scaling sweeps: after a run, the background sweep over p = 1, 2, 4, … up to its
// processors (the sweep charts); on demand, the scaling curve of each ticked algorithm
// (its chart and the results table). Both simulate without replay and are cancelled by a
// new run.
import { curveCounts } from './scalingCurve.js';
import { COLUMNS, rowCells } from './resultsTable.js';

/** The largest machine the background sweep over p = 1, 2, 4, … runs for. */
const SWEEP_MAX = 64;

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const Sweep = {
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
  },

  /** Cancels the sweep and waits for its run in flight (the worker runs one at a time). */
  async stopSweep() {
    this.sweepToken++;
    await this.sweepRun;
    if (this.sweepState === 'running') this.sweepStatus('idle', 'Sweep cancelled by a new run.');
  },

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
  },

  /** Cancels the scaling curve and waits for its run in flight; `why` is its status. */
  async stopScaling(why = 'Scaling curve cancelled by a new run.') {
    if (this.scalingState !== 'running') return;
    this.scalingToken++;
    await this.scalingRun?.catch(() => {});
    this.root.querySelector('.lab-scaling-progress').hidden = true;
    this.root.querySelector('[data-lab="scaling"]').textContent = 'Draw the curve';
    this.setScalingExports(this.scalingRows.length > 0);
    this.scalingStatus('idle', why);
  },

  /** Offers the curve's PNG and CSV (once it has a point). */
  setScalingExports(enabled) {
    for (const name of ['scaling-png', 'scaling-csv']) this.root.querySelector(`[data-lab="${name}"]`).disabled = !enabled;
  },

  /** The scaling curve's state (idle, running, done) and its status line. */
  scalingStatus(state, text) {
    this.scalingState = state;
    this.root.querySelector('.lab-scaling-status').textContent = text;
  },

  /** The background sweep's state (idle, running, done) and its status line. */
  sweepStatus(state, text) {
    this.sweepState = state;
    this.root.querySelector('.lab-sweep-status').textContent = text;
  },
};
