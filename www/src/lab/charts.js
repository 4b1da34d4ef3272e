// Live charts beside the animation (uPlot): processor utilisation over virtual time (the
// idle-time picture of TDSAB's Figure 5), nodes per processor, messages sent by kind. They
// read the same Playback the drawing reads, so they show the replayed moment.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { KIND_COLORS } from './networkView.js';

/** Most utilisation samples kept; beyond it every other one is dropped. */
const MAX_SAMPLES = 1200;
const AXIS = { stroke: '#8b949e', grid: { stroke: '#30363d', width: 1 }, ticks: { stroke: '#30363d' } };

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
      axes: [xValues ? { ...AXIS, values: xValues, rotate: -45, size: 70 } : AXIS, { ...AXIS, size: 50 }],
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

  /** Forgets the last run's samples. */
  reset(kinds) {
    this.kinds = kinds;
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
