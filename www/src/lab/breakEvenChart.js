// The break-even chart the latency lecture ends on (uPlot): each algorithm on each
// classroom preset as a line of SPE against T(1), beside the line SPE = 1 (one laptop).
// The points and their sentences are breakEven.js's.
import uPlot from 'uplot';

const AXIS = { stroke: '#8b949e', grid: { stroke: '#30363d', width: 1 }, ticks: { stroke: '#30363d' } };
/** An algorithm's colour, in the order the lecture names them (blue, green, orange, purple). */
const COLORS = ['#58a6ff', '#3fb950', '#f0883e', '#bc8cff'];
/** A preset's line style: the longer the delay, the sparser the dash. */
const DASHES = [[], [8, 4], [2, 4]];

export class BreakEvenChart {
  /** @param {HTMLElement} host */
  constructor(host) {
    this.host = host;
    this.chart = null;
    this.points = [];
    this.algorithms = [];
    this.presets = [];
  }

  /** Starts an empty chart of `algorithms` × `presets`. */
  reset(algorithms, presets) {
    Object.assign(this, { algorithms, presets, points: [] });
    this.chart?.destroy();
    const width = Math.max(240, this.host.clientWidth - 8);
    const series = [];
    presets.forEach((preset, j) => algorithms.forEach((algorithm, i) => series.push({ label: `${algorithm} · ${preset}`, stroke: COLORS[i % COLORS.length], dash: DASHES[j % DASHES.length], width: 2, spanGaps: true, points: { show: true, size: 6 } })));
    this.chart = new uPlot(
      {
        title: 'Speedup against one processor\'s time',
        // Ten lines: the legend names them; values under the cursor would crowd it.
        legend: { live: false },
        width,
        height: Math.max(200, Math.round(width * 0.75)),
        scales: { x: { time: false, distr: 3 }, y: { distr: 3, log: 2 } },
        axes: [{ ...AXIS, label: 'T(1), seconds a search' }, { ...AXIS, size: 50, label: 'SPE' }],
        series: [{ label: 'T(1)' }, { label: 'one laptop (SPE = 1)', stroke: '#8b949e', dash: [4, 4], width: 1.5, points: { show: false } }, ...series],
      },
      this.data(),
      this.host,
    );
  }

  add(point) {
    this.points.push(point);
    this.chart.setData(this.data());
  }

  /** uPlot's columns: every T(1) seen, the line SPE = 1, then each line (null where it has no point). */
  data() {
    const xs = [...new Set(this.points.map((q) => q.t1))].sort((a, b) => a - b);
    const lines = [];
    for (const preset of this.presets) for (const algorithm of this.algorithms) lines.push(xs.map((x) => this.points.find((q) => q.algorithm === algorithm && q.preset === preset && q.t1 === x)?.speedup ?? null));
    return [xs, xs.map(() => 1), ...lines];
  }

  resize() {
    if (!this.chart) return;
    const width = Math.max(240, this.host.clientWidth - 8);
    this.chart.setSize({ width, height: Math.max(200, Math.round(width * 0.75)) });
  }
}
