// The network animation on a canvas: processors placed by the topology's layout hints
// (crate/net `layout()`), DeBruijn as its shuffle-exchange drawing and a bus as a row
// (layouts.js), coloured by state; links drawn by kind (DeBruijn's shuffle and exchange
// edges differ in colour and dash), thicker with load; a message's whole route lit in its
// kind's colour from its send to its delivery, and the message moving along the hops of
// that route. Above DETAIL_LIMIT processors it draws heat maps instead (heatMaps.js).
import { fitCanvas } from './canvasFit.js';
import { STATES } from './eventColumns.js';
import { HeatMaps } from './heatMaps.js';
import { binaryLabel, deBruijnLayout, labelBits } from './layouts.js';
import { KIND_COLORS, STATE_COLORS } from './palette.js';

/** Most real workers whose lines are written beside them. */
const MAX_LINE_LABELS = 16;

/** Most processors drawn one by one; above, the aggregate view. */
export const DETAIL_LIMIT = 128;

const LINK_STYLES = {
  shuffle: { color: '#6e8fb5', dash: [] },
  exchange: { color: '#c98a4b', dash: [6, 4] },
  added: { color: '#a77fd1', dash: [2, 3] },
};
const DEFAULT_LINK = { color: '#5c6670', dash: [] };
const MARGIN = 28;
/** Height of a processor's label line (CSS pixels): labels closer in height can collide. */
const LABEL_LINE = 14;

export class NetworkView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.drawing = null;
    this.selected = null;
    /** What the last frame showed, for tests and the legend (`seen`: messages drawn in all
     * frames since the machine was set, as bursts of messages can fall between two looks). */
    this.lastFrame = { processors: 0, messages: 0, seen: 0, mode: 'none' };
    this.seen = 0;
  }

  /** The machine to draw (from labNetwork, with its `net`), or null. */
  setDrawing(drawing) {
    this.drawing = drawing && { ...drawing, ...readableLayout(drawing) };
    this.heatMaps = drawing ? new HeatMaps(drawing, MARGIN) : null;
    this.selected = null;
    this.seen = 0;
    this.radiusKey = null;
  }

  get aggregate() {
    return (this.drawing?.processors ?? 0) > DETAIL_LIMIT;
  }

  /** Sizes the backing store to the canvas's box. */
  fit() {
    this.ratio = fitCanvas(this.canvas, 200, 150);
  }

  /** Draws `playback` at its current time (an empty machine when it is null). */
  draw(playback) {
    this.fit();
    const { ctx, canvas } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#0d1117';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!this.drawing) {
      this.lastFrame = { processors: 0, messages: 0, seen: this.seen, mode: 'none' };
      return;
    }
    ctx.scale(this.ratio, this.ratio);
    if (this.aggregate) this.drawAggregate(playback);
    else this.drawDetailed(playback);
  }

  /** The canvas's size in CSS pixels. */
  size() {
    return [this.canvas.width / this.ratio, this.canvas.height / this.ratio];
  }

  /** Canvas position (CSS pixels) of network node `n`. */
  point(n) {
    const [u, v] = this.drawing.points[n];
    const w = this.canvas.width / this.ratio - 2 * MARGIN;
    const h = this.canvas.height / this.ratio - 2 * MARGIN;
    // DeBruijn's rows run down a tall canvas as columns (the drawing turned a quarter).
    const [x, y] = this.turned() ? [v, u] : [u, v];
    return [MARGIN + x * w, MARGIN + y * h];
  }

  /** Whether the shuffle-exchange drawing is turned, its rows as columns (a tall canvas). */
  turned() {
    return this.drawing.layout === 'shuffle-exchange' && this.canvas.height > this.canvas.width;
  }

  /** Processor radius: under half the closest two processors' distance, so none overlap. */
  radius() {
    const key = `${this.canvas.width}x${this.canvas.height}`;
    if (this.radiusKey === key) return this.radiusCache;
    let closest = Infinity;
    /** Closest two processors side by side (a text line apart or less): room for labels. */
    let besideClosest = Infinity;
    for (let p = 0; p < this.drawing.processors; p++) {
      const [x, y] = this.point(p);
      for (let q = p + 1; q < this.drawing.processors; q++) {
        const [u, v] = this.point(q);
        closest = Math.min(closest, Math.hypot(u - x, v - y));
        if (Math.abs(v - y) < LABEL_LINE) besideClosest = Math.min(besideClosest, Math.abs(u - x));
      }
    }
    this.radiusKey = key;
    this.besideClosest = besideClosest;
    this.radiusCache = Math.max(3, Math.min(18, closest * 0.4));
    return this.radiusCache;
  }

  drawDetailed(playback) {
    const { ctx, drawing } = this;
    const r = this.radius();
    this.drawRowCaptions();
    drawing.links.forEach((link, id) => {
      const load = playback ? playback.linkLoad(id) : 0;
      const active = playback ? playback.linkActive[id] > 0 : false;
      const style = LINK_STYLES[link.kind] ?? DEFAULT_LINK;
      ctx.strokeStyle = active ? '#e6edf3' : style.color;
      ctx.globalAlpha = active ? 0.9 : 0.6 + 0.4 * load;
      ctx.lineWidth = 1.5 + 5 * load;
      ctx.setLineDash(style.dash);
      ctx.beginPath();
      this.tracePath(link);
      ctx.stroke();
    });
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
    const routes = this.drawRoutes(playback);
    for (let n = drawing.processors; n < drawing.nodes; n++) {
      const [x, y] = this.point(n);
      ctx.fillStyle = '#30363d';
      ctx.fillRect(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2);
    }
    for (let p = 0; p < drawing.processors; p++) {
      const [x, y] = this.point(p);
      ctx.fillStyle = STATE_COLORS[STATES[playback ? playback.state[p] : 1]];
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fill();
      if (p === drawing.host || p === this.selected) {
        ctx.lineWidth = p === this.selected ? 3 : 2;
        ctx.strokeStyle = p === this.selected ? '#00e5ff' : '#ffffff';
        ctx.beginPath();
        ctx.arc(x, y, r + 3, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    this.drawLabels(r);
    const lines = this.drawLines(r, playback);
    let messages = 0;
    if (playback) {
      for (const flight of playback.flights) {
        if (flight.start > playback.clock) continue;
        const f = Math.min(1, (playback.clock - flight.start) / Math.max(1, flight.end - flight.start));
        const [x0, y0] = this.point(flight.from);
        const [x1, y1] = this.point(flight.to);
        ctx.fillStyle = KIND_COLORS[flight.kind % KIND_COLORS.length];
        ctx.beginPath();
        ctx.arc(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f, Math.max(3, r * 0.45), 0, 2 * Math.PI);
        ctx.fill();
        messages++;
      }
    }
    this.seen += messages;
    this.lastFrame = { processors: drawing.processors, messages, seen: this.seen, mode: 'detailed', lines, routes, layout: drawing.layout, labels: drawing.layout === 'shuffle-exchange' && this.labelsDrawn };
  }

  /** The links of every message in flight, in its kind's colour, under the processors.
   * Returns how many routes are lit. */
  drawRoutes(playback) {
    const { ctx, drawing } = this;
    if (!playback?.inFlight?.size || !drawing.routeStart?.length) return 0;
    const p = drawing.processors;
    ctx.lineWidth = 3;
    // Many routes at once fade, so the wiring stays readable under them.
    ctx.globalAlpha = Math.max(0.12, 0.6 / Math.sqrt(playback.inFlight.size));
    let lit = 0;
    for (const { from, to, kind } of playback.inFlight.values()) {
      const pair = from * p + to;
      const [start, end] = [drawing.routeStart[pair], drawing.routeStart[pair + 1]];
      if (start === undefined || start === end) continue;
      ctx.strokeStyle = KIND_COLORS[kind % KIND_COLORS.length];
      ctx.beginPath();
      for (let k = start; k < end; k++) this.tracePath(drawing.links[drawing.routeLinks[k]]);
      ctx.stroke();
      lit++;
    }
    ctx.globalAlpha = 1;
    return lit;
  }

  /** Adds link `link` to the canvas's current path. */
  tracePath(link) {
    const { ctx, drawing } = this;
    if (link.a == null) {
      // A shared bus: one medium beside the processors (left of a column, under rows),
      // each tapped onto it.
      const at = this.busAt();
      const column = drawing.layout === 'bus-column';
      if (column) {
        ctx.moveTo(at, MARGIN);
        ctx.lineTo(at, this.canvas.height / this.ratio - MARGIN);
      } else {
        ctx.moveTo(MARGIN, at);
        ctx.lineTo(this.canvas.width / this.ratio - MARGIN, at);
      }
      if (!drawing.layout.startsWith('bus')) return;
      for (let p = 0; p < drawing.processors; p++) {
        const [x, y] = this.point(p);
        ctx.moveTo(x, y);
        if (column) ctx.lineTo(at, y);
        else ctx.lineTo(x, at);
      }
    } else {
      ctx.moveTo(...this.point(link.a));
      ctx.lineTo(...this.point(link.b));
    }
  }

  /** Where a bus runs: left of the column of processors (its x), under their rows (its y),
   * or, in other layouts, along the bottom. */
  busAt() {
    const { layout, processors } = this.drawing;
    if (layout === 'bus-column') return Math.max(MARGIN / 2, this.point(0)[0] - 3 * this.radius());
    const bottom = this.canvas.height / this.ratio - MARGIN / 2;
    if (layout !== 'bus') return bottom;
    let lowest = 0;
    for (let p = 0; p < processors; p++) lowest = Math.max(lowest, this.point(p)[1]);
    return Math.min(bottom, lowest + 3 * this.radius());
  }

  /** DeBruijn's rows (columns when turned): how many 1 bits their labels have. */
  drawRowCaptions() {
    const { ctx, drawing } = this;
    if (!drawing.rows?.length) return;
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#8b949e';
    ctx.textBaseline = 'middle';
    const turned = this.turned();
    ctx.textAlign = turned ? 'center' : 'left';
    const along = (turned ? this.canvas.width : this.canvas.height) / this.ratio - 2 * MARGIN;
    for (const { weight, y } of drawing.rows) {
      const at = MARGIN + y * along;
      if (turned) ctx.fillText(`${weight} × 1`, at, 10);
      else ctx.fillText(`${weight} × 1`, 4, at);
    }
  }

  drawLabels(r) {
    const { ctx, drawing } = this;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    if (drawing.layout === 'shuffle-exchange') {
      // The binary label under each processor (what the shuffle rotates and the exchange
      // flips), where there is room for it; else the hover gives it.
      const bits = labelBits(drawing.processors);
      ctx.font = `${drawing.processors <= 16 ? 12 : 9}px ui-monospace, Menlo, monospace`;
      const room = ctx.measureText('0'.repeat(bits)).width + 2 <= this.besideClosest;
      ctx.fillStyle = '#c9d1d9';
      for (let p = 0; p < drawing.processors && room; p++) {
        const [x, y] = this.point(p);
        ctx.fillText(binaryLabel(p, bits), x, y + r + 8);
      }
      this.labelsDrawn = room;
    }
    if (drawing.processors <= 32) {
      ctx.font = `${Math.max(9, r * 0.9)}px system-ui, sans-serif`;
      ctx.fillStyle = '#0d1117';
      for (let p = 0; p < drawing.processors; p++) ctx.fillText(String(p), ...this.point(p));
    }
    ctx.font = '12px system-ui, sans-serif';
    if (drawing.host != null) {
      const [x, y] = this.point(drawing.host);
      ctx.fillStyle = '#ffffff';
      ctx.fillText('host', x, y - r - 10);
    }
    if (this.selected !== null) {
      const [x, y] = this.point(this.selected);
      ctx.fillStyle = '#00e5ff';
      ctx.fillText(`P${this.selected}`, x, y + r + 12);
    }
  }

  /** Real workers tell the line they are on (see ThreadsActivity.line): written beside
   * each, in SAN, while there are few enough to read. Returns how many were written. */
  drawLines(r, playback) {
    if (typeof playback?.line !== 'function' || this.drawing.processors > MAX_LINE_LABELS) return 0;
    const { ctx } = this;
    ctx.textAlign = 'left';
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillStyle = '#c9d1d9';
    let written = 0;
    for (let p = 0; p < this.drawing.processors; p++) {
      const line = playback.line(p);
      if (!line?.san.length) continue;
      const [x, y] = this.point(p);
      ctx.fillText(line.san.join(' '), x + r + 8, y);
      written++;
    }
    return written;
  }

  drawAggregate(playback) {
    const flying = this.heatMaps.draw(this.ctx, ...this.size(), playback, this.selected);
    this.seen += flying;
    this.lastFrame = { processors: this.drawing.processors, messages: flying, seen: this.seen, mode: 'aggregate' };
  }

  /** Where processor `p` is drawn (CSS pixels): its dot, or the centre of its heat-map cell. */
  processorPoint(p) {
    return this.aggregate ? this.heatMaps.centre(p, ...this.size()) : this.point(p);
  }

  /** Processor `p`'s name in the tooltip: with its binary label where the network has one. */
  processorName(p) {
    const net = this.drawing?.net;
    return net === 'debruijn' || net === 'hypercube' ? `P${p} (${binaryLabel(p, labelBits(this.drawing.processors))})` : `P${p}`;
  }

  /** The processor under canvas point (x, y) in CSS pixels, or null. */
  processorAt(x, y) {
    if (!this.drawing) return null;
    if (this.aggregate) return this.heatMaps.processorAt(x, y, ...this.size());
    const reach = this.radius() * 1.6;
    let best = null;
    let bestDistance = reach;
    for (let p = 0; p < this.drawing.processors; p++) {
      const [px, py] = this.point(p);
      const d = Math.hypot(px - x, py - y);
      if (d <= bestDistance) [best, bestDistance] = [p, d];
    }
    return best;
  }
}

/** The layout a student can follow, where crate/net's hints are not it: DeBruijn as its
 * shuffle-exchange drawing, a bus as a column of processors beside the bus line (rows
 * over it above 16). */
function readableLayout(drawing) {
  if (drawing.processors > DETAIL_LIMIT) return { layout: 'grid' };
  if (drawing.net === 'debruijn' && drawing.processors >= 4) {
    const { points, rows } = deBruijnLayout(drawing.processors);
    return { points, rows, layout: 'shuffle-exchange' };
  }
  if (drawing.net === 'bus' && drawing.processors <= MAX_LINE_LABELS) {
    // A column, so a real worker's line can be written beside it.
    return { points: Array.from({ length: drawing.processors }, (_, p) => [0.12, (p + 0.5) / drawing.processors]), layout: 'bus-column' };
  }
  if (drawing.net === 'bus') {
    const perRow = Math.min(16, drawing.processors);
    const rows = Math.ceil(drawing.processors / perRow);
    const row = (p) => Math.floor(p / perRow);
    const points = Array.from({ length: drawing.processors }, (_, p) => [((p % perRow) + 0.5) / perRow, rows === 1 ? 0.5 : 0.25 + (0.5 * row(p)) / (rows - 1)]);
    return { points, layout: 'bus' };
  }
  return { layout: drawing.net };
}
