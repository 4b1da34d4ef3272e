// Live charts beside the animation (uPlot): processor utilisation over virtual time (the
// idle-time picture of TDSAB's Figure 5), nodes per processor, messages sent by kind. They
// read the same Playback the drawing reads, so they show the replayed moment.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { KIND_COLORS } from './palette.js';
import { formatCount } from '../format.js';

/** Most utilisation samples kept; beyond it every other one is dropped. */
const MAX_SAMPLES = 1200;
const AXIS = { stroke: '#8b949e', grid: { stroke: '#30363d', width: 1 }, ticks: { stroke: '#30363d' } };
/** Tick steps for an axis of processor numbers (no half processors). */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/**
 * A bar chart of one series; `colors(i)` colours bar i (one colour when absent), `xValues`
 * names the bars on the axis (numbers when absent).
 */
function barChart(target, title, label, color, { colors = null, xValues = null } = {}) {
  const paths = uPlot.paths.bars({ size: [0.8, 60, 1], disp: colors ? { fill: { unit: 3, values: (u) => u.data[0].map((_, i) => colors(i)) } } : undefined });
  return new uPlot(
    {
      title,
      width: 300,
      height: 170,
      legend: { show: false },
      cursor: { show: true, points: { show: false } },
      scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (u, min, max) => [0, Math.max(1, max)] } },
      axes: [xValues ? { ...AXIS, values: xValues, rotate: -45, size: 70 } : { ...AXIS, incrs: WHOLE_STEPS }, { ...AXIS, size: 56, values: (u, splits) => splits.map(formatCount) }],
      series: [{}, { label, fill: color, stroke: color, width: colors ? 0 : 1, paths, points: { show: false } }],
    },
    [[], []],
    target,
  );
}

export class LabCharts {
  /** @param {HTMLElement} host element the three charts go into */
  constructor(host) {
    this.host = host;
    this.kinds = [];
    this.utilisation = new uPlot(
      {
        title: 'Utilisation (share of processors)',
        width: 300,
        height: 170,
        scales: { x: { time: false }, y: { range: [0, 100] } },
        axes: [{ ...AXIS, label: 'virtual ms' }, { ...AXIS, size: 40 }],
        series: [
          {},
          { label: 'busy %', stroke: '#3fb950', fill: 'rgba(63,185,80,0.25)', points: { show: false } },
          { label: 'waiting %', stroke: '#e3a21a', points: { show: false } },
        ],
      },
      [[], [], []],
      host,
    );
    this.nodes = barChart(host, 'Nodes per processor', 'nodes', '#58a6ff');
    this.messages = barChart(host, 'Messages by kind', 'messages', '#d2a8ff', {
      colors: (i) => KIND_COLORS[i % KIND_COLORS.length],
      xValues: (u, splits) => splits.map((i) => this.kinds[i] ?? ''),
    });
    this.samples = [[], [], []];
    this.resize();
  }

  /** Forgets the last run's samples; `timeLabel` names the utilisation's time axis (the
   * simulator's virtual time, or the wall clock of the real threads). */
  reset(kinds, timeLabel = 'virtual ms') {
    this.kinds = kinds;
    this.utilisation.axes[0].label = timeLabel;
    this.samples = [[], [], []];
    this.utilisation.setData(this.samples);
    this.nodes.setData([[], []]);
    this.messages.setData([[], []]);
  }

  /** Records the replay's state at its current time (call each frame; cheap). */
  sample(playback) {
    const [t, busy, waiting] = this.samples;
    const ms = playback.clock / 1e6;
    if (t.length && t[t.length - 1] >= ms) return;
    const p = playback.machine.processors;
    t.push(ms);
    busy.push((100 * playback.stateCounts[0]) / p);
    waiting.push((100 * playback.stateCounts[1]) / p);
    if (t.length > MAX_SAMPLES) for (const series of this.samples) series.splice(0, series.length, ...series.filter((_, i) => i % 2 === 0));
  }

  /** Redraws the three charts from the replay (a few times a second is plenty). */
  render(playback) {
    this.utilisation.setData(this.samples);
    this.nodes.setData([Array.from(playback.nodes, (_, i) => i), Array.from(playback.nodes)]);
    this.messages.setData([Array.from(playback.kindCounts, (_, i) => i), Array.from(playback.kindCounts)]);
  }

  /** Fits the charts to the host's width. */
  resize() {
    const width = Math.max(240, this.host.clientWidth - 8);
    const height = Math.max(140, Math.round(width * 0.45));
    for (const chart of [this.utilisation, this.nodes, this.messages]) chart.setSize({ width, height });
  }
}

/**
 * StarTech's model T_P ≈ a·W/P + b·C fitted by least squares over `points`
 * ({ p, timeNs, workNs, criticalPathNs }): `{ a, b }`, or null with fewer than two points or
 * when W/P and C are proportional (a and b cannot be told apart). The simulator's own fit
 * for the command line is crate/machine/sim/measures.rs.
 */
export function fitWorkSpan(points) {
  if (points.length < 2) return null;
  let [xx, xy, yy, xt, yt] = [0, 0, 0, 0, 0];
  for (const { p, timeNs, workNs, criticalPathNs } of points) {
    const [x, y] = [workNs / p, criticalPathNs];
    [xx, xy, yy, xt, yt] = [xx + x * x, xy + x * y, yy + y * y, xt + x * timeNs, yt + y * timeNs];
  }
  const det = xx * yy - xy * xy;
  if (Math.abs(det) <= 1e-9 * xx * yy) return null;
  return { a: (xt * yy - yt * xy) / det, b: (yt * xx - xt * xy) / det };
}

/** A line chart of several series against the processor count (log scale). */
function sweepChart(target, title, series, yLabel) {
  return new uPlot(
    {
      title,
      width: 300,
      height: 170,
      scales: { x: { time: false, distr: 3, log: 2 }, y: { range: (u, min, max) => [0, Math.max(1, max) * 1.05] } },
      axes: [{ ...AXIS, label: 'processors p' }, { ...AXIS, size: 50, label: yLabel }],
      series: [{ label: 'p' }, ...series.map(([label, stroke, dash]) => ({ label, stroke, dash, width: 2, points: { show: true, size: 6 } }))],
    },
    [[], ...series.map(() => [])],
    target,
  );
}

/**
 * After a run, the same experiment over p = 1, 2, 4, … N: speedup, load and search overhead
 * against p (Zugzwang), and T_P, W/P and C with the fitted a·W/P + b·C (StarTech).
 */
export class SweepCharts {
  /** @param {HTMLElement} host */
  constructor(host) {
    this.host = host;
    this.measures = sweepChart(host, 'Speedup, load, search overhead against p', [['SPE', '#3fb950'], ['LD', '#58a6ff'], ['SO', '#e3a21a']], '');
    this.work = sweepChart(host, 'T_P, W/P, C and a·W/P + b·C (virtual ms)', [['T_P', '#f0f6fc'], ['W/P', '#58a6ff'], ['C', '#f85149'], ['fit', '#d2a8ff', [6, 4]]], 'ms');
    this.points = [];
    this.fit = null;
    this.resize();
  }

  /** Replaces the points ({ p, speedup, load, searchOverhead, timeNs, workNs, criticalPathNs }). */
  show(points) {
    this.points = [...points].sort((x, y) => x.p - y.p);
    const ps = this.points.map((q) => q.p);
    this.measures.setData([ps, this.points.map((q) => q.speedup), this.points.map((q) => q.load), this.points.map((q) => q.searchOverhead)]);
    const timed = this.points.filter((q) => q.criticalPathNs !== null && q.criticalPathNs !== undefined);
    this.fit = timed.length === this.points.length ? fitWorkSpan(timed) : null;
    const ms = (ns) => ns / 1e6;
    const model = (q) => (this.fit ? ms(this.fit.a * (q.workNs / q.p) + this.fit.b * q.criticalPathNs) : null);
    const span = (q) => (q.criticalPathNs === null || q.criticalPathNs === undefined ? null : ms(q.criticalPathNs));
    this.work.setData([ps, this.points.map((q) => ms(q.timeNs)), this.points.map((q) => ms(q.workNs / q.p)), this.points.map(span), this.points.map(model)]);
  }

  /** How many points each chart plots. */
  plotted() {
    return { measures: this.measures.data[0].length, work: this.work.data[0].length };
  }

  resize() {
    const width = Math.max(240, this.host.clientWidth - 8);
    const height = Math.max(140, Math.round(width * 0.45));
    for (const chart of [this.measures, this.work]) chart.setSize({ width, height });
  }
}
