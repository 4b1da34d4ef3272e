// The class drawn from the relay's trace: its processors on a circle (processor 0, the
// lecturer, at the top) or, when the search runs on a virtual network, on that network as
// the Lab draws it (the Lab's NetworkView: its layout, links and host); coloured by state;
// each frame the relay delivers as a dot in its kind's colour running from sender to
// receiver: on a network along the hops of its route, the links it crosses lit. Live, a
// flash lives FLASH_MS and is gone, so a long class costs nothing; a replay (classReplay.js)
// draws a kept search (classRecording.js) at any moment of it instead.
import { fitCanvas } from '../lab/canvasFit.js';
import { NetworkView } from '../lab/networkView.js';

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
/** A state's index in the Lab's drawing (eventColumns.js `STATES`: busy, waiting, done). */
const LAB_STATES = { busy: 0, waiting: 1 };
const LAB_OTHER_STATE = 2;

export class ClassMap {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    /** @type {{label: string, sub: string, state: string, nodes?: number}[]} the drawn processors (or members) */
    this.nodes = [];
    /** @type {{route: {nodes: number[], links: number[]}, color: string, start: number}[]} live flashes */
    this.flashes = [];
    /** frames delivered since the last `setNodes` with `reset` (counted, drawn or not) */
    this.delivered = 0;
    /** the hops of their routes as drawn here (the relay delays each frame by as many) */
    this.routeHops = 0;
    /** of those frames, the ones that flashed */
    this.drawn = 0;
    /** the network the search runs on: {view, drawing, routes (memo by pair)}, or null (a circle) */
    this.network = null;
    /** the replay shown instead of the live trace: {recording, t, rate, seen}, or null */
    this.replay = null;
    this.frame = 0;
    this.visible = false;
    /** whether delivered frames flash: from a search's start to its end (frames of a search
     * that is over still arrive, the relay's last trace ticks; the replay shows them) */
    this.live = true;
  }

  /** Sets the processors drawn; `reset` also clears the flashes and the counts (a new search). */
  setNodes(nodes, { reset = false } = {}) {
    this.nodes = nodes;
    if (reset) {
      this.live = true;
      this.flashes = [];
      this.delivered = this.routeHops = this.drawn = 0;
      this.counted();
    }
    this.request();
  }

  /** Draws the processors on network `net` as labNetwork (crate/wasm/lab.rs) placed them in
   * `drawing`, or on a circle when `drawing` is null. */
  setNetwork(net, drawing) {
    if (drawing) {
      const view = new NetworkView(this.canvas);
      view.setDrawing({ ...drawing, net });
      this.network = { view, drawing, routes: new Map() };
    } else this.network = null;
    this.flashes = [];
    this.request();
  }

  /** The search is over: no frame is on its way any more, and none flashes until the next
   * search (the processors are idle; a dot running between them would say otherwise). */
  settle() {
    this.live = false;
    this.flashes = [];
    this.request();
  }

  /** Shows or hides (a hidden map does not animate). */
  show(visible) {
    this.visible = visible;
    this.request();
  }

  /** Draws `replay` ({recording, t: relay µs, rate: relay µs per wall µs, seen: a Set the
   * frames drawn are added to}) instead of the live trace; null goes back to live. */
  showReplay(replay) {
    this.replay = replay;
    this.flashes = [];
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
    const first = delivers[0].t ?? 0;
    const span = Math.max(1, (delivers.at(-1).t ?? 0) - first);
    const now = performance.now();
    for (const e of delivers) {
      const route = this.route(e.from, e.to);
      this.routeHops += route.nodes.length - 1;
      if (!this.live || this.replay || this.flashes.length >= MAX_FLASHES) continue;
      const offset = (((e.t ?? first) - first) / span) * Math.min(MAX_SPREAD_MS, span / 1000);
      this.flashes.push({ route, color: KIND_COLORS[e.kind] ?? OTHER_KIND, start: now + offset });
      this.drawn++;
    }
    this.counted();
    this.request();
  }

  /** The counts on the canvas, for tests and tools. */
  counted() {
    Object.assign(this.canvas.dataset, { delivered: String(this.delivered), routeHops: String(this.routeHops), drawn: String(this.drawn) });
  }

  /** The way a frame from processor `from` to `to` is drawn: the network nodes it passes
   * (its route's, on a network: the relay counts its delay in these hops) and the links. */
  route(from, to) {
    const network = this.network;
    const p = network?.drawing.processors ?? 0;
    const { routeStart, routeLinks, links } = network?.drawing ?? {};
    if (!network || from >= p || to >= p || !routeStart?.length) return { nodes: [from, to], links: [] };
    const pair = from * p + to;
    let route = network.routes.get(pair);
    if (!route) {
      route = { nodes: [from], links: routeLinks.slice(routeStart[pair], routeStart[pair + 1]) };
      for (const id of route.links) {
        const { a, b } = links[id];
        const at = route.nodes.at(-1);
        // A shared bus has no ends: it takes the frame straight to its receiver.
        route.nodes.push(a == null ? to : a === at ? b : a);
      }
      network.routes.set(pair, route);
    }
    return route;
  }

  request() {
    if (this.frame || !this.visible) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw(performance.now());
      if (this.flashes.length > 0) this.request();
    });
  }

  /** What is drawn now: each flash's route, colour, how far its dot ran (0..1) and how faded. */
  currentFlashes(now) {
    if (this.replay) return this.replayFlashes(this.replay);
    this.flashes = this.flashes.filter((f) => now - f.start < FLASH_MS);
    return this.flashes
      .filter((f) => now >= f.start)
      .map((f) => ({ route: f.route, color: f.color, run: Math.min(1, (2 * (now - f.start)) / FLASH_MS), fade: 1 - (now - f.start) / FLASH_MS }));
  }

  /** The replay's flashes at its time: a frame's dot runs from its send to its delivery on the
   * relay's clock (FLASH_MS / 2 of the wall's at least), then fades for FLASH_MS / 2. */
  replayFlashes({ recording, t, rate, seen }) {
    // At its end the search is over, as live: nothing left on its way.
    if (t >= recording.span.to) return [];
    const least = (FLASH_MS / 2) * 1000 * rate;
    const flashes = [];
    for (const d of recording.around(t, 2 * least).slice(-MAX_FLASHES)) {
      const travel = Math.max(least, d.t - d.sent);
      const age = t - d.sent;
      if (age >= travel + least) continue;
      seen.add(d);
      flashes.push({ route: this.route(d.from, d.to), color: KIND_COLORS[d.kind] ?? OTHER_KIND, run: Math.min(1, age / travel), fade: age < travel ? 1 : 1 - (age - travel) / least });
    }
    return flashes;
  }

  draw(now) {
    const flashes = this.currentFlashes(now);
    const states = this.replay?.recording.statesAt(this.replay.t);
    const nodes = states ? this.nodes.map((node, i) => ({ ...node, state: states[i] ?? node.state })) : this.nodes;
    // A roster the drawing was not made for (none yet, or the members before a search) goes on the circle.
    const onNetwork = this.network !== null && nodes.length === this.network.drawing.processors;
    const points = onNetwork ? this.drawNetwork(nodes, flashes) : this.drawCircle(nodes, flashes);
    const layout = points.length === 0 ? 'none' : onNetwork ? this.network.view.drawing.layout : 'circle';
    const placed = JSON.stringify(points.map(([x, y]) => [Math.round(x), Math.round(y)]));
    if (this.canvas.dataset.layout !== layout) this.canvas.dataset.layout = layout;
    this.canvas.dataset.flying = String(flashes.length);
    if (this.canvas.dataset.points !== placed) this.canvas.dataset.points = placed;
  }

  /** The class on its network, drawn by the Lab's NetworkView with the flashes and the lost
   * marks on top. Returns the processors' points (CSS pixels). */
  drawNetwork(nodes, flashes) {
    const { view, drawing } = this.network;
    const active = new Uint16Array(drawing.links.length);
    for (const f of flashes) for (const id of f.route.links) active[id]++;
    view.draw({
      state: Uint8Array.from(nodes, (n) => LAB_STATES[n.state] ?? LAB_OTHER_STATE),
      nodes: Float64Array.from(nodes, (n) => n.nodes ?? 0),
      linkActive: active,
      linkLoad: () => 0,
      flights: [],
      inFlight: new Map(),
      clock: 0,
    });
    const { ctx } = this;
    const points = nodes.map((_, p) => view.processorPoint(p));
    const r = view.aggregate ? 4 : view.radius();
    if (!view.aggregate) {
      // A dot shows between its ends only, so no processor's number is hidden; one that
      // arrived is gone (as the Lab's), its route lit while it fades.
      for (const f of flashes) {
        const path = f.route.nodes.map((n) => view.point(n));
        const [x, y] = along(path, f.run);
        if (f.run >= 1 || [path[0], path.at(-1)].some(([u, v]) => Math.hypot(x - u, y - v) < r)) continue;
        ctx.globalAlpha = Math.max(0.3, f.fade);
        ctx.fillStyle = f.color;
        ctx.beginPath();
        ctx.arc(x, y, Math.max(3, r * 0.45), 0, 2 * Math.PI);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
      if (nodes.length <= 16) {
        ctx.fillStyle = '#bababa';
        ctx.font = '11px system-ui, sans-serif';
        ctx.textAlign = 'left';
        // Above the middle: a link through the processor's centre does not cross it.
        ctx.textBaseline = 'bottom';
        nodes.forEach((node, i) => ctx.fillText(node.sub, points[i][0] + r + 6, points[i][1] - 2));
      }
    }
    nodes.forEach((node, i) => node.state === 'lost' && lostMark(ctx, ...points[i], r));
    return points;
  }

  /** The class on a circle, node 0 at the top, clockwise. Returns the points (CSS pixels). */
  drawCircle(nodes, flashes) {
    const ratio = fitCanvas(this.canvas, 200, 200);
    const { ctx, canvas } = this;
    const width = canvas.width / ratio;
    const height = canvas.height / ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#0d1117';
    ctx.fillRect(0, 0, width, height);
    const n = nodes.length;
    if (n === 0) {
      ctx.fillStyle = '#8a8784';
      ctx.font = '14px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('Nobody here yet', width / 2, height / 2);
      this.flashes = [];
      return [];
    }
    const points = nodes.map((_, i) => circlePoint(i, n, width, height));
    const radius = Math.max(6, Math.min(18, (Math.PI * Math.min(width, height)) / (2.6 * n)));
    // The links every pair could use, faint, so the flashes have a place to run.
    if (n <= 32) {
      ctx.strokeStyle = '#21262d';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          ctx.moveTo(...points[i]);
          ctx.lineTo(...points[j]);
        }
      }
      ctx.stroke();
    }
    for (const f of flashes) {
      const [from, to] = [points[f.route.nodes[0]], points[f.route.nodes.at(-1)]];
      if (!from || !to) continue;
      ctx.globalAlpha = 0.15 + 0.6 * f.fade;
      ctx.strokeStyle = f.color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(...from);
      ctx.lineTo(...to);
      ctx.stroke();
      const [x, y] = along([from, to], f.run);
      ctx.globalAlpha = Math.max(0.3, f.fade);
      ctx.fillStyle = f.color;
      ctx.beginPath();
      ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    nodes.forEach((node, i) => {
      const [x, y] = points[i];
      ctx.fillStyle = STATE_COLORS[node.state] ?? STATE_COLORS.idle;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, 2 * Math.PI);
      ctx.fill();
      if (node.state === 'lost') lostMark(ctx, x, y, radius);
      else if (radius >= 10) {
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
    return points;
  }
}

/** Where node `i` of `n` sits on the circle (CSS pixels): node 0 at the top, clockwise. */
function circlePoint(i, n, width, height) {
  const cx = width / 2;
  const cy = height / 2;
  if (n <= 1) return [cx, cy];
  const r = Math.min(width, height) / 2 - 34;
  const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
}

/** The point a share `run` (0..1) along the path through `points`, each hop taking as long. */
function along(points, run) {
  if (points.length < 2) return points[0];
  const at = run * (points.length - 1);
  const hop = Math.min(points.length - 2, Math.floor(at));
  const [[x0, y0], [x1, y1]] = [points[hop], points[hop + 1]];
  return [x0 + (x1 - x0) * (at - hop), y0 + (y1 - y0) * (at - hop)];
}

/** A lost processor: red, crossed out. */
function lostMark(ctx, x, y, radius) {
  ctx.fillStyle = STATE_COLORS.lost;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.fill();
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x - radius * 0.5, y - radius * 0.5);
  ctx.lineTo(x + radius * 0.5, y + radius * 0.5);
  ctx.moveTo(x + radius * 0.5, y - radius * 0.5);
  ctx.lineTo(x - radius * 0.5, y + radius * 0.5);
  ctx.stroke();
}
