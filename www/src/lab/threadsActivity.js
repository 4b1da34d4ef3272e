// The real threads view's source: the Play engine's web workers as the processors of a
// shared-memory machine, from the `workers` events its engine worker posts while it
// searches (www/engine/worker.js: busy, nodes, busyMs, idleMs, sent [kind, count] pairs,
// received, splits, line). It offers what the drawing and the charts read from a Playback, with
// wall-clock time in place of virtual time; there are no per-message events, so no
// messages move, and no tree: each worker tells only the first plies of the line it is on.
import { playUciLine } from '../game.js';
import { STATES } from './eventColumns.js';
import { processorTotals } from './playback.js';

export class ThreadsActivity {
  /**
   * @param {number} processors workers drawn (the engine's Threads)
   * @param {{ links: number }} drawing the shared bus the workers sit on
   * @param {string[]} kinds message kinds, in the simulator's order
   * @param {string} fen the searched position
   */
  constructor(processors, drawing, kinds, fen) {
    this.machine = { processors, links: drawing.links.length };
    this.fen = fen;
    this.kindIndex = Object.fromEntries(kinds.map((k, i) => [k, i]));
    this.state = new Uint8Array(processors).fill(1);
    this.nodes = new Float64Array(processors);
    this.sent = new Uint32Array(processors);
    this.received = new Uint32Array(processors);
    this.splits = new Uint32Array(processors);
    /** Per worker: the line it is on as UCI moves from the root ('' the root), or null. */
    this.lines = new Array(processors).fill(null);
    /** Per worker: the last line put into SAN, `{ uci, line }`. */
    this.shownLines = new Array(processors).fill(null);
    this.kindCounts = new Uint32Array(kinds.length);
    this.linkActive = new Uint16Array(drawing.links.length);
    this.flights = [];
    this.stateCounts = [0, processors, 0];
    /** Nanoseconds of wall time since the first sample (the charts' time axis). */
    this.clock = 0;
    this.started = null;
    this.busyShare = 0;
    this.complete = false;
  }

  /** Takes one `workers` event: `[{ busy, nodes, busyMs, idleMs, sent, received, splits, line }]`. */
  receive(workers) {
    const now = performance.now();
    this.started ??= now;
    this.clock = (now - this.started) * 1e6;
    this.kindCounts.fill(0);
    this.stateCounts = [0, 0, 0];
    workers.slice(0, this.machine.processors).forEach((w, p) => {
      this.state[p] = w.busy ? 0 : 1;
      this.stateCounts[this.state[p]]++;
      this.nodes[p] = w.nodes ?? 0;
      this.splits[p] = w.splits ?? 0;
      this.received[p] = w.received ?? 0;
      this.lines[p] = typeof w.line === 'string' ? w.line : null;
      let sent = 0;
      for (const [kind, count] of w.sent ?? []) {
        sent += count;
        const k = this.kindIndex[kind];
        if (k !== undefined) this.kindCounts[k] += count;
      }
      this.sent[p] = sent;
    });
    // The shared bus: busy while any worker works (its load: the busy share).
    this.busyShare = this.stateCounts[0] / Math.max(1, this.machine.processors);
    this.linkActive.fill(this.stateCounts[0] > 0 ? 1 : 0);
  }

  /**
   * The line worker `p` is on: `{ san, fen, lastMove }` (the position at its end, the last
   * move as [from, to]), or null when it is on none.
   */
  line(p) {
    const uci = this.lines[p];
    if (uci === null || uci === undefined) return null;
    if (this.shownLines[p]?.uci !== uci) this.shownLines[p] = { uci, line: playUciLine(this.fen, uci.split(' ').filter(Boolean)) };
    return this.shownLines[p].line;
  }

  linkLoad() {
    return this.busyShare;
  }

  processor(p) {
    return { id: p, state: STATES[this.state[p]], nodes: this.nodes[p], sent: this.sent[p], received: this.received[p], splits: this.splits[p] };
  }

  totals() {
    return processorTotals(this);
  }
}
