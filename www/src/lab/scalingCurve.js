// The scaling curve a lecture ends on: the speedup SPE of each chosen algorithm against the
// processor count p = 1, 2, 4, … N on one chart (uPlot), beside the ideal line SPE = p and
// the line 1 + 0.7(p − 1) (70 % of every added processor). Each point is a run the Lab
// simulated without replay; the results table lists the same runs, so the points are the
// figures it shows.
import uPlot from 'uplot';
import { KIND_COLORS } from './palette.js';

const AXIS = { stroke: '#8b949e', grid: { stroke: '#30363d', width: 1 }, ticks: { stroke: '#30363d' } };
/** The reference lines: label, value at p, colour, dash. */
const GUIDES = [
  ['ideal (SPE = p)', (p) => p, '#6e7681', [4, 4]],
  ['1 + 0.7(p − 1)', (p) => 1 + 0.7 * (p - 1), '#8b949e', [2, 4]],
];

/** The processor counts of a curve up to `max`: 1, 2, 4, …, and `max` itself. */
export function curveCounts(max) {
  const counts = [];
  for (let p = 1; p < max; p *= 2) counts.push(p);
  counts.push(max);
  return counts;
}

export class ScalingCurve {
  /** @param {HTMLElement} host */
  constructor(host) {
    this.host = host;
    this.chart = null;
    /** Per algorithm, its points `{ p, speedup }` in the order they came. */
    this.curves = new Map();
    this.counts = [];
  }

  /** Starts an empty chart for `algorithms` over `counts`. */
  reset(algorithms, counts) {
    this.curves = new Map(algorithms.map((a) => [a, []]));
    this.counts = counts;
    this.chart?.destroy();
    /** Label and colour of each line, for the PNG's legend. */
    this.lines = [...GUIDES.map(([label, , color]) => [label, color]), ...algorithms.map((label, i) => [label, KIND_COLORS[i % KIND_COLORS.length]])];
    const width = Math.max(240, this.host.clientWidth - 8);
    this.chart = new uPlot(
      {
        title: 'Speedup against processors',
        width,
        height: Math.max(180, Math.round(width * 0.7)),
        scales: { x: { time: false, distr: 3, log: 2 }, y: { distr: 3, log: 2 } },
        axes: [{ ...AXIS, label: 'processors p' }, { ...AXIS, size: 50, label: 'SPE' }],
        series: [
          { label: 'p' },
          ...GUIDES.map(([label, , stroke, dash]) => ({ label, stroke, dash, width: 1.5, points: { show: false } })),
          ...algorithms.map((label, i) => ({ label, stroke: KIND_COLORS[i % KIND_COLORS.length], width: 2, spanGaps: true, points: { show: true, size: 7 } })),
        ],
      },
      this.data(),
      this.host,
    );
  }

  /** Adds `algorithm`'s point at `p`. */
  add(algorithm, point) {
    this.curves.get(algorithm).push(point);
    this.chart.setData(this.data());
  }

  /** uPlot's columns: p, the guides, then each algorithm (null where it has no point yet). */
  data() {
    const ps = this.counts;
    const guides = GUIDES.map(([, at]) => ps.map(at));
    const curves = [...this.curves.values()].map((points) => ps.map((p) => points.find((q) => q.p === p)?.speedup ?? null));
    return [ps, ...guides, ...curves];
  }

  /** Points plotted, per algorithm (for tests). */
  plotted() {
    return Object.fromEntries([...this.curves].map(([a, points]) => [a, points.map((q) => ({ ...q }))]));
  }

  /** The chart as a PNG: its canvas (axes and curves) under a legend line. */
  png() {
    const source = this.chart.ctx.canvas;
    const legend = 28;
    const canvas = document.createElement('canvas');
    canvas.width = source.width;
    canvas.height = source.height + legend;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#0d1117';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.font = '14px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    let x = 8;
    for (const [label, color] of this.lines) {
      ctx.fillStyle = color;
      ctx.fillRect(x, legend / 2 - 2, 16, 4);
      ctx.fillStyle = '#e6edf3';
      ctx.fillText(label, x + 20, legend / 2);
      x += 28 + ctx.measureText(label).width;
    }
    ctx.drawImage(source, 0, legend);
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  }

  resize() {
    if (!this.chart) return;
    const width = Math.max(240, this.host.clientWidth - 8);
    this.chart.setSize({ width, height: Math.max(180, Math.round(width * 0.7)) });
  }
}
