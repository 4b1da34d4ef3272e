// The class drawn live from the relay's trace: its processors on a circle (processor 0, the
// lecturer, at the top), coloured by state, and each frame the relay delivers as a line from
// sender to receiver that flashes in its kind's colour while a dot runs along it. It keeps
// no history: a flash lives FLASH_MS and is gone, so a long class costs nothing.
import { fitCanvas } from '../lab/canvasFit.js';

/** How long one delivered frame stays on screen; the dot runs in its first half. */
const FLASH_MS = 700;
/** Most flashes drawn at once (a burst beyond is counted, not drawn). */
const MAX_FLASHES = 400;
/** A batch of trace events is spread over at most this much time (they arrive every ~100 ms). */
const MAX_SPREAD_MS = 150;

export const STATE_COLORS = { busy: '#3fb950', waiting: '#e3a21a', lost: '#cc3333', idle: '#6e7681' };
/** One colour per frame kind (crate/machine/frame.rs `FrameKind::name`). */
export const KIND_COLORS = {
  program: '#58a6ff',
  start: '#d2a8ff',
  finished: '#d2a8ff',
  done: '#8b949e',
  nodes: '#6e7681',
  quit: '#ff5c5c',
  'table-request': '#39d0d8',
  'table-answer': '#39d0d8',
  'table-put': '#39d0d8',
};
const OTHER_KIND = '#c9d1d9';

export class ClassMap {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    /** @type {{label: string, sub: string, state: string}[]} the drawn processors (or members) */
    this.nodes = [];
    /** @type {{from: number, to: number, color: string, start: number}[]} */
    this.flashes = [];
    /** frames delivered since the last `setNodes` with `reset` (counted, drawn or not) */
    this.delivered = 0;
    this.frame = 0;
    this.visible = false;
  }

  /** Sets the processors drawn; `reset` also clears the flashes and the count (a new search). */
  setNodes(nodes, { reset = false } = {}) {
    this.nodes = nodes;
    if (reset) {
      this.flashes = [];
      this.delivered = 0;
    }
    this.request();
  }

  /** Shows or hides (a hidden map does not animate). */
  show(visible) {
    this.visible = visible;
    this.request();
  }

  /**
   * Takes a batch of the relay's trace events: each `deliver` flashes, spread over the
   * batch's own time (its `t`, µs on the relay's clock) so a burst is not one blink.
   */
  trace(events) {
    const delivers = events.filter((e) => e && e.ev === 'deliver' && Number.isInteger(e.from) && Number.isInteger(e.to));
    if (delivers.length === 0) return;
    this.delivered += delivers.length;
    this.canvas.dataset.delivered = String(this.delivered);
    const first = delivers[0].t ?? 0;
    const span = Math.max(1, (delivers.at(-1).t ?? 0) - first);
    const now = performance.now();
    for (const e of delivers) {
      if (this.flashes.length >= MAX_FLASHES) break;
      const offset = (((e.t ?? first) - first) / span) * Math.min(MAX_SPREAD_MS, span / 1000);
      this.flashes.push({ from: e.from, to: e.to, color: KIND_COLORS[e.kind] ?? OTHER_KIND, start: now + offset });
    }
    this.request();
  }

  request() {
    if (this.frame || !this.visible) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw(performance.now());
      if (this.flashes.length > 0) this.request();
    });
  }

  /** Where node `i` of `n` sits (CSS pixels): on a circle, node 0 at the top, clockwise. */
  point(i, n, width, height) {
    const cx = width / 2;
    const cy = height / 2;
    if (n <= 1) return { x: cx, y: cy };
    const r = Math.min(width, height) / 2 - 34;
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) };
  }

  draw(now) {
    const ratio = fitCanvas(this.canvas, 200, 200);
    const { ctx, canvas } = this;
    const width = canvas.width / ratio;
    const height = canvas.height / ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#0d1117';
    ctx.fillRect(0, 0, width, height);
    const n = this.nodes.length;
    if (n === 0) {
      ctx.fillStyle = '#8a8784';
      ctx.font = '14px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('Nobody here yet', width / 2, height / 2);
      this.flashes = [];
      return;
    }
    const points = this.nodes.map((_, i) => this.point(i, n, width, height));
    const radius = Math.max(6, Math.min(18, (Math.PI * Math.min(width, height)) / (2.6 * n)));
    // The links every pair could use, faint, so the flashes have a place to run.
    if (n <= 32) {
      ctx.strokeStyle = '#21262d';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          ctx.moveTo(points[i].x, points[i].y);
          ctx.lineTo(points[j].x, points[j].y);
        }
      }
      ctx.stroke();
    }
    this.flashes = this.flashes.filter((f) => now - f.start < FLASH_MS);
    for (const f of this.flashes) {
      const age = now - f.start;
      const a = points[f.from];
      const b = points[f.to];
      if (age < 0 || !a || !b) continue;
      const fade = 1 - age / FLASH_MS;
      ctx.globalAlpha = 0.15 + 0.6 * fade;
      ctx.strokeStyle = f.color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
      const run = Math.min(1, (2 * age) / FLASH_MS);
      ctx.globalAlpha = Math.max(0.3, fade);
      ctx.fillStyle = f.color;
      ctx.beginPath();
      ctx.arc(a.x + (b.x - a.x) * run, a.y + (b.y - a.y) * run, 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    this.nodes.forEach((node, i) => {
      const { x, y } = points[i];
      ctx.fillStyle = STATE_COLORS[node.state] ?? STATE_COLORS.idle;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, 2 * Math.PI);
      ctx.fill();
      if (node.state === 'lost') {
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x - radius * 0.5, y - radius * 0.5);
        ctx.lineTo(x + radius * 0.5, y + radius * 0.5);
        ctx.moveTo(x + radius * 0.5, y - radius * 0.5);
        ctx.lineTo(x - radius * 0.5, y + radius * 0.5);
        ctx.stroke();
      } else if (radius >= 10) {
        ctx.fillStyle = '#0d1117';
        ctx.font = `600 ${Math.round(radius * 0.8)}px system-ui, sans-serif`;
        ctx.fillText(node.label, x, y + 1);
      }
      if (n <= 32) {
        // The label outside the circle, away from the centre, so no link crosses it.
        const dx = n > 1 ? x - width / 2 : 0;
        const dy = n > 1 ? y - height / 2 : -1;
        const length = Math.hypot(dx, dy) || 1;
        const ux = dx / length;
        const uy = dy / length;
        ctx.fillStyle = '#bababa';
        ctx.font = '11px system-ui, sans-serif';
        ctx.textAlign = ux > 0.35 ? 'left' : ux < -0.35 ? 'right' : 'center';
        ctx.fillText(node.sub, x + ux * (radius + 6), y + uy * (radius + 10));
        ctx.textAlign = 'center';
      }
    });
  }
}
