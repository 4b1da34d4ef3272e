// The tree view: the top plies of the search tree (searchTree.js) drawn as an icicle, the
// root on top and each ply a band below it; a node's width grows with the part of the
// tree below it (as a square root, so that small brothers stay readable), in the order
// its moves were searched, so the eldest brother is on the left. Fill: the processor that owns the node; stripe on top: its type (PV, CUT, ALL);
// marks: open now (white frame), split point (diamond), cutoff (red bar on the right),
// answered by the table (green corner), aborted (hatched, grey). A canvas rather than SVG:
// a ply-3 picture has thousands of nodes and redraws as the replay goes.
import { fitCanvas } from './canvasFit.js';
export const TYPE_COLORS = { pv: '#f0c000', cut: '#ff5c5c', all: '#58a6ff' };
export const MARK_COLORS = { open: '#ffffff', split: '#ffffff', cut: '#ff3030', tt: '#3fb950', aborted: '#6e7681' };
const ROOT_BAND = 26;
const STRIPE = 4;
const BACKGROUND = '#0d1117';
/** Plies drawn (the simulator reports nodes of plies 0..3). */
const PLIES = 4;
/** Least time between two drawings of a changing tree: at hundreds of processors the tree
 * has thousands of nodes and changes every frame; ten pictures a second read as well and
 * leave the frames to the network animation. */
const REDRAW_MS = 100;
/** Nodes narrower than this (CSS pixels) are not drawn, nor anything below them. */
const MIN_NODE_PX = 0.75;

/** What the tree panel says before a replay has drawn any node (paragraphs, wrapped to
 * the panel's width). */
export const UNTREED_REPLAY = ['The top of the search tree appears here as the replay runs.', '(TDSAB hands its top nodes around as messages: not drawn.)'];
/** What it says while the real threads are shown: they report activity, not their tree. */
export const UNTREED_THREADS = ['Real threads report their activity and the line each is on (click a worker), not their tree: the tree is drawn for simulated runs (Run).'];

/** Writes `paragraphs` from the panel's top left, each broken into lines no wider than
 * `width` (CSS pixels) where the words allow; returns how many lines and the widest. */
function writeWrapped(ctx, paragraphs, width) {
  let lines = 0;
  let widest = 0;
  const write = (line) => {
    ctx.fillText(line, 10, 22 + 18 * lines++);
    widest = Math.max(widest, ctx.measureText(line).width);
  };
  for (const paragraph of paragraphs) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const longer = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(longer).width > width) {
        write(line);
        line = word;
      } else {
        line = longer;
      }
    }
    write(line);
  }
  return { lines, widest };
}

/** A processor's colour: hues spread by the golden angle, so neighbours differ. */
export function processorColor(p, lightness = 48) {
  return `hsl(${(p * 137.508) % 360}, 62%, ${lightness}%)`;
}

export class TreeView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    /** The processor whose nodes are highlighted (the one clicked in the network), or null. */
    this.highlight = null;
    /** Rectangles of the last drawing, for hovering: { node, x, y, w, h }. */
    this.boxes = [];
    /** What the last frame showed, for tests: nodes, the labels that fitted, the
     * highlighted processor's nodes, and the marks drawn by kind. */
    this.lastFrame = { nodes: 0, labels: [], highlighted: 0, marks: {} };
    this.drawnKey = null;
    this.drawnAt = -Infinity;
    /** Text widths by label (SAN and types repeat): measuring is the costly part of a drawing. */
    this.textWidths = new Map();
  }

  /** Sizes the backing store to the canvas's box. */
  fit() {
    this.ratio = fitCanvas(this.canvas, 200, 120);
  }

  /** Draws `tree` (a SearchTree, or null: then the lines of `untreed`) at wall time `now`
   * (ms) if anything changed since the last drawing: at once for another tree, highlight or
   * size, else at most every REDRAW_MS. */
  draw(tree, now, untreed = UNTREED_REPLAY) {
    this.fit();
    const frameKey = `${this.highlight}:${this.canvas.width}x${this.canvas.height}`;
    const key = `${tree?.iteration}:${tree?.version}:${tree ? '' : untreed[0]}:${frameKey}`;
    if (key === this.drawnKey && this.lastTree === tree) return;
    const onlyGrew = this.lastTree === tree && this.drawnKey?.endsWith(`:${frameKey}`);
    if (onlyGrew && now - this.drawnAt < REDRAW_MS) return;
    this.drawnKey = key;
    this.drawnAt = now;
    this.lastTree = tree;
    const { ctx, canvas } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.scale(this.ratio, this.ratio);
    this.boxes = [];
    const width = canvas.width / this.ratio;
    const height = canvas.height / this.ratio;
    if (!tree?.root) {
      ctx.fillStyle = '#8b949e';
      ctx.font = '13px system-ui, sans-serif';
      const room = width - 20;
      this.lastFrame = { nodes: 0, labels: [], highlighted: 0, marks: {}, notice: { ...writeWrapped(ctx, untreed, room), room } };
      return;
    }
    const band = (height - ROOT_BAND) / (PLIES - 1);
    const weights = new Map();
    weigh(tree.root, weights);
    const labels = [];
    let highlighted = 0;
    this.marks = { open: 0, split: 0, cut: 0, tt: 0, aborted: 0 };
    const place = (node, x, w) => {
      if (w < MIN_NODE_PX) return;
      const y = node.ply === 0 ? 0 : ROOT_BAND + (node.ply - 1) * band;
      const h = node.ply === 0 ? ROOT_BAND : band;
      const box = { node, x, y, w, h };
      this.boxes.push(box);
      if (this.highlight !== null && node.owner === this.highlight) highlighted++;
      if (this.drawNode(box)) labels.push(node.san ?? 'root');
      let at = x;
      let total = 0;
      for (const child of node.children) total += weights.get(child);
      for (const child of node.children) {
        const share = (w * weights.get(child)) / total;
        place(child, at, share);
        at += share;
      }
    };
    place(tree.root, 0, width);
    this.lastFrame = { nodes: this.boxes.length, labels, highlighted, marks: this.marks };
  }

  /** Draws one node; returns whether its label fitted. */
  drawNode({ node, x, y, w, h }) {
    const { ctx } = this;
    const dim = this.highlight !== null && node.owner !== this.highlight;
    ctx.globalAlpha = dim ? 0.25 : 1;
    const inner = Math.max(0.5, w - 1);
    ctx.fillStyle = node.owner === null ? '#30363d' : node.state === 'aborted' ? MARK_COLORS.aborted : processorColor(node.owner);
    ctx.fillRect(x, y, inner, h - 1);
    if (node.state === 'aborted' && node.owner !== null) {
      hatch(ctx, x, y, inner, h - 1, processorColor(node.owner, 30));
      this.marks.aborted++;
    }
    if (node.type) {
      ctx.fillStyle = TYPE_COLORS[node.type];
      ctx.fillRect(x, y, inner, STRIPE);
    }
    if (node.cut) {
      this.marks.cut++;
      ctx.fillStyle = MARK_COLORS.cut;
      ctx.fillRect(x + inner - Math.min(4, inner / 3), y, Math.min(4, inner / 3), h - 1);
    }
    if (node.tt && inner > 6) {
      this.marks.tt++;
      ctx.fillStyle = MARK_COLORS.tt;
      ctx.beginPath();
      ctx.moveTo(x, y + h - 1);
      ctx.lineTo(x + Math.min(10, inner), y + h - 1);
      ctx.lineTo(x, y + h - 1 - Math.min(10, h / 2));
      ctx.fill();
    }
    if (node.splits.length && inner > 5) {
      this.marks.split++;
      const cx = x + inner / 2;
      const cy = y + h - 7;
      ctx.fillStyle = MARK_COLORS.split;
      ctx.beginPath();
      ctx.moveTo(cx, cy - 5);
      ctx.lineTo(cx + 5, cy);
      ctx.lineTo(cx, cy + 5);
      ctx.lineTo(cx - 5, cy);
      ctx.fill();
    }
    if (node.open > 0) {
      this.marks.open++;
      ctx.strokeStyle = MARK_COLORS.open;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, Math.max(1, inner - 2), h - 3);
    }
    const fitted = this.drawLabel(node, x, y, inner, h);
    ctx.globalAlpha = 1;
    return fitted;
  }

  /** The node's move (and type when there is room): across, or up the node when it is
   * narrow but tall; returns whether it fitted. */
  drawLabel(node, x, y, w, h) {
    const { ctx } = this;
    const label = node.ply === 0 ? `root · ${node.type?.toUpperCase() ?? ''}` : node.san;
    if (!label) return false;
    if (w < 12) return false;
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillStyle = '#ffffff';
    const type = node.ply > 0 ? node.type?.toUpperCase() : null;
    if (this.textWidth(label) + 6 <= w && h >= 18) {
      ctx.fillText(label, x + 3, y + STRIPE + 13);
      if (type && h >= 34 && this.textWidth(type) + 6 <= w) {
        ctx.font = '10px system-ui, sans-serif';
        ctx.fillText(type, x + 3, y + STRIPE + 26);
      }
      return true;
    }
    const full = type ? `${label} ${type}` : label;
    const length = this.textWidth(full) <= h - STRIPE - 6 ? full : label;
    if (this.textWidth(length) > h - STRIPE - 6) return false;
    ctx.save();
    ctx.translate(x + w / 2 + 4, y + h - 4);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(length, 0, 0);
    ctx.restore();
    return true;
  }

  /** The width of `text` in the 12 px label font (an upper bound for the 10 px type). */
  textWidth(text) {
    let width = this.textWidths.get(text);
    if (width === undefined) {
      const { ctx } = this;
      ctx.save();
      ctx.font = '12px system-ui, sans-serif';
      width = ctx.measureText(text).width;
      ctx.restore();
      this.textWidths.set(text, width);
    }
    return width;
  }

  /** The node under canvas point (x, y) in CSS pixels, or null. */
  nodeAt(x, y) {
    const box = this.boxes.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
    return box?.node ?? null;
  }
}

/** A node's width share: 1 for a leaf, else 1 + the square root of its children's shares. */
function weigh(node, weights) {
  let sum = 0;
  for (const child of node.children) sum += weigh(child, weights);
  const weight = node.children.length ? 1 + Math.sqrt(sum) : 1;
  weights.set(node, weight);
  return weight;
}

/** Diagonal lines over an aborted node: work a cutoff made useless. */
function hatch(ctx, x, y, w, h, color) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let d = -h; d < w; d += 6) {
    ctx.moveTo(x + d, y + h);
    ctx.lineTo(x + d + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** Text for a node: path, owner, type, window, depth, how it ended. */
export function describeNode(node) {
  const path = [];
  for (let n = node; n?.parent; n = n.parent) path.unshift(n.san);
  const ended = node.state === 'open' ? 'open' : node.state === 'aborted' ? 'aborted (wasted)' : `value ${node.value}${node.cut ? ' · cutoff' : ''}${node.tt ? ' · from the table' : ''}`;
  const split = node.splits.length ? ` · split to ${node.splits.map((p) => `P${p}`).join(', ')}` : '';
  const type = node.type ? node.type.toUpperCase() : '?';
  return `${path.join(' ') || 'root'} · P${node.owner} · ${type} · window [${node.alpha}, ${node.beta}] · depth ${node.depth} · ${ended}${node.received ? ' · received' : ''}${split}`;
}
