// The network above DETAIL_LIMIT processors, where single dots and lines stop being
// readable: two heat maps side by side. Processors (state, brighter with more nodes) on a
// grid that keeps the network's coordinates (labels' bits for DeBruijn and hypercube,
// layouts.js heatGrid), and links (load, white while carrying a message).
import { STATES } from './eventColumns.js';
import { heatGrid } from './layouts.js';
import { STATE_COLORS } from './palette.js';

export class HeatMaps {
  /**
   * @param {object} drawing  the machine as NetworkView draws it (net, processors, links, host)
   * @param {number} margin   the canvas's margin (CSS pixels), as NetworkView keeps it
   */
  constructor(drawing, margin) {
    this.drawing = drawing;
    this.margin = margin;
    this.heat = heatGrid(drawing.net, drawing.processors);
    /** Which processor sits in each cell (row-major), built at the first hover. */
    this.cellIndex = null;
  }

  /** Grid geometry in a `width` × `height` canvas (CSS pixels): processors on the left
   * (on the network's own grid), links on the right. */
  grids(width, height) {
    const m = this.margin;
    const half = (width - 3 * m) / 2;
    const cell = (count, room) => {
      const cols = Math.ceil(Math.sqrt(count * (room / (height - 2 * m))));
      const rows = Math.ceil(count / cols);
      return { cols, size: Math.min(room / cols, (height - 2 * m) / rows) };
    };
    const { cols, rows } = this.heat;
    return {
      procs: { x: m, y: m + 14, cols, rows, size: Math.min(half / cols, (height - 2 * m - 14) / rows) },
      links: { x: 2 * m + half, y: m, ...cell(Math.max(1, this.drawing.links.length), half) },
    };
  }

  /** Top-left corner of processor `p`'s cell in the processor map. */
  cellOf(p, procs) {
    const [col, row] = this.heat.cell(p);
    return [procs.x + col * procs.size, procs.y + row * procs.size];
  }

  /** Draws both maps at `playback`'s time (an empty machine when it is null), outlining the
   * host and the `selected` processor. Returns the hops carrying a message now. */
  draw(ctx, width, height, playback, selected) {
    const { drawing, margin: m } = this;
    const { procs, links } = this.grids(width, height);
    let most = 1;
    if (playback) for (const n of playback.nodes) most = Math.max(most, n);
    for (let p = 0; p < drawing.processors; p++) {
      const [x, y] = this.cellOf(p, procs);
      ctx.fillStyle = STATE_COLORS[STATES[playback ? playback.state[p] : 1]];
      ctx.globalAlpha = playback ? 0.35 + 0.65 * Math.sqrt(playback.nodes[p] / most) : 0.5;
      ctx.fillRect(x, y, procs.size - 1, procs.size - 1);
    }
    ctx.globalAlpha = 1;
    for (let id = 0; id < drawing.links.length; id++) {
      const x = links.x + (id % links.cols) * links.size;
      const y = links.y + Math.floor(id / links.cols) * links.size;
      const load = playback ? playback.linkLoad(id) : 0;
      ctx.fillStyle = playback && playback.linkActive[id] > 0 ? '#ffffff' : heatColour(load);
      ctx.fillRect(x, y, links.size - 1, links.size - 1);
    }
    const outline = (p, color) => {
      const [x, y] = this.cellOf(p, procs);
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1, y - 1, procs.size + 1, procs.size + 1);
    };
    if (drawing.host != null) outline(drawing.host, '#ffffff');
    if (selected !== null) outline(selected, '#00e5ff');
    ctx.fillStyle = '#c9d1d9';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    const flying = playback ? playback.flights.filter((f) => f.start <= playback.clock).length : 0;
    // Two short lines per map: the two maps share the width, half of a narrow canvas.
    ctx.fillText(`${drawing.processors} processors: state,`, procs.x, m - 15);
    ctx.fillText('brighter = more nodes', procs.x, m - 3);
    const { axes } = this.heat;
    ctx.fillStyle = '#8b949e';
    ctx.fillText(axes ? `label = row's ${axes.rowBits} bits, then column's ${axes.colBits}` : `processor order, ${this.heat.cols} a row${drawing.net === 'ring' ? ', snaking' : ''}`, procs.x, m + 9);
    ctx.fillText(`${drawing.links.length} links: load, white =`, links.x, m - 15);
    ctx.fillText(`carrying now (${flying} hops)`, links.x, m - 3);
    return flying;
  }

  /** The centre of processor `p`'s cell (CSS pixels). */
  centre(p, width, height) {
    const { procs } = this.grids(width, height);
    const [x, y] = this.cellOf(p, procs);
    return [x + procs.size / 2, y + procs.size / 2];
  }

  /** The processor whose cell holds point (x, y), or null. */
  processorAt(x, y, width, height) {
    const { procs } = this.grids(width, height);
    const col = Math.floor((x - procs.x) / procs.size);
    const row = Math.floor((y - procs.y) / procs.size);
    if (col < 0 || col >= procs.cols || row < 0 || row >= procs.rows) return null;
    this.cellIndex ??= this.indexCells();
    return this.cellIndex[row * procs.cols + col] ?? null;
  }

  indexCells() {
    const index = new Array(this.heat.cols * this.heat.rows).fill(null);
    for (let p = 0; p < this.drawing.processors; p++) {
      const [col, row] = this.heat.cell(p);
      index[row * this.heat.cols + col] = p;
    }
    return index;
  }
}

/** A dark-to-hot colour for a load in 0..1. */
function heatColour(load) {
  const l = Math.max(0, Math.min(1, load));
  const r = Math.round(30 + 225 * Math.min(1, l * 2));
  const g = Math.round(40 + 180 * Math.max(0, l * 2 - 1));
  return `rgb(${r}, ${g}, 50)`;
}
