// The replay of one simulated run: the trace's events (docs/trace-schema.md) applied in
// order up to a virtual time, giving what the drawing and the charts show at that time —
// each processor's state and counters, the messages crossing links, each link's load.
// Nothing here is invented: every number comes from an event of the real trace.
//
// The page stays light whatever the run's size: what the replay shows is aggregates
// (counters per processor, link and kind), and of the events it holds a bounded window —
// applied events are dropped once WINDOW_EVENTS are held, and the Lab worker sends no more
// than the window's half ahead of the replay (labClient.js `paced`). A lecture keeps every
// event (`keepAll`): going back a stop replays from the start.
import { EV, EventColumns, STATES } from './eventColumns.js';
import { SearchTree } from './searchTree.js';

/** Most events held at once (about 33 bytes each in the columns). */
export const WINDOW_EVENTS = 1 << 20;

export class Playback {
  /**
   * @param {{ processors: number, links: number }} machine what the drawing shows
   * @param {string[]} kinds message kinds, in the simulator's order
   * @param {string} fen the searched position (for the tree's moves)
   */
  constructor(machine, kinds, fen) {
    const p = machine.processors;
    /** The header line. */
    this.machine = machine;
    this.kinds = kinds;
    /** Every event received so far that the replay uses, in trace order. */
    this.events = new EventColumns();
    /** The next event to apply (a slot of `events`; the run's event number is `applied`). */
    this.cursor = 0;
    /** Keep every event, for going back (a lecture); else only a window. */
    this.keepAll = false;
    /** Virtual nanoseconds shown. */
    this.clock = 0;
    /** Whether the whole trace has arrived. */
    this.complete = false;
    /** Per processor: state index (STATES), node count, messages sent and received. */
    this.state = new Uint8Array(p);
    this.nodes = new Float64Array(p);
    this.sent = new Uint32Array(p);
    this.received = new Uint32Array(p);
    /** Per link: virtual ns held by messages applied so far, and messages on it now. */
    this.linkBusy = new Float64Array(machine.links);
    this.linkActive = new Uint16Array(machine.links);
    /** Messages sent so far, by kind index. */
    this.kindCounts = new Uint32Array(kinds.length);
    /** Messages sent and not yet delivered, by number: `{ from, to, kind }` (their routes are lit). */
    this.inFlight = new Map();
    /** Hops applied whose `end` is not yet past: `{ msg, link, from, to, start, end, kind }`. */
    this.flights = [];
    /** Processors per state, kept up to date for the utilisation picture. */
    this.stateCounts = [p, 0, 0];
    /** When the last processor finished, once the `end` event is applied. */
    this.ended = null;
    /** The top of the search tree so far (node, leave and split events). */
    this.tree = new SearchTree(fen, p);
  }

  /** Adds a batch of events from the worker (numbers, see eventColumns.js), first dropping
   * the applied ones if the window is full. */
  append(words) {
    if (!this.keepAll && this.events.length + words.length / 7 > WINDOW_EVENTS) {
      this.events.drop(this.cursor);
      this.cursor = 0;
    }
    this.events.append(words);
  }

  /** Events of the run applied so far (the window's start plus its cursor). */
  get applied() {
    return this.events.offset + this.cursor;
  }

  /** Events of the run received so far. */
  get arrived() {
    return this.events.offset + this.events.length;
  }

  /** Whether every received event has been applied. */
  get atEnd() {
    return this.cursor >= this.events.length;
  }

  /** The time of the last event, when the trace is complete (else of the last received). */
  get lastTime() {
    if (this.ended !== null) return this.ended;
    return this.events.length ? this.events.time[this.events.length - 1] : 0;
  }

  /** Applies every event due by virtual time `t`, none after event `last` (a lecture's
   * next stop), and shows time `t`, or `last`'s time when it held there. */
  advanceTo(t, last = Infinity) {
    const shown = this.flights.length;
    const { time, length } = this.events;
    const end = Math.min(length, last + 1);
    while (this.cursor < end && time[this.cursor] <= t) this.apply(this.cursor++);
    const held = end < length && this.cursor === end;
    this.clock = Math.max(this.clock, Math.min(t, held ? time[last] : this.lastTime));
    this.retireFlights(shown);
  }

  /** Applies the events up to and including event `index` and shows its time (with the
   * hops still under way then; `sample` is called at `samples` moments on the way, for the
   * charts). */
  seek(index, sample = null, samples = 0) {
    const target = this.events.time[index];
    const from = this.clock;
    for (let k = 1; k <= samples; k++) {
      this.advanceTo(from + ((target - from) * k) / samples, index);
      sample?.(this);
    }
    while (this.cursor <= index && !this.atEnd) this.apply(this.cursor++);
    this.clock = Math.max(this.clock, target);
    this.retireFlights(this.flights.length);
  }

  /** The same run from its start: a fresh replay of the events received so far (going
   * back means replaying up to the earlier moment). */
  rewound() {
    if (this.events.offset > 0) throw new Error('the replay dropped its first events; it cannot go back');
    const fresh = new Playback(this.machine, this.kinds, this.tree.fen);
    fresh.events = this.events;
    fresh.complete = this.complete;
    fresh.keepAll = this.keepAll;
    return fresh;
  }

  /** Applies exactly one event (the next) and moves the clock to its time; false at the end. */
  step() {
    if (this.atEnd) return false;
    const shown = this.flights.length;
    const i = this.cursor++;
    this.apply(i);
    this.clock = Math.max(this.clock, this.events.time[i]);
    this.retireFlights(shown);
    return true;
  }

  /** Applies events up to and including the next `node` event (a processor entering a
   * node of the tree's top plies); false when there is none left. */
  stepNode() {
    const { code } = this.events;
    while (!this.atEnd) {
      const entering = code[this.cursor] === EV.node;
      this.step();
      if (entering) return true;
    }
    return false;
  }

  /** Applies stored event `i` (columns as in eventColumns.js). */
  apply(i) {
    const { code, time, a, b, c, e, d } = this.events;
    switch (code[i]) {
      case EV.state:
        this.stateCounts[this.state[a[i]]]--;
        this.stateCounts[b[i]]++;
        this.state[a[i]] = b[i];
        this.nodes[a[i]] = d[i];
        break;
      case EV.nodes:
        this.nodes[a[i]] = d[i];
        break;
      case EV.send:
        this.inFlight.set(a[i], { from: b[i], to: e[i], kind: c[i] });
        this.kindCounts[c[i]]++;
        this.sent[b[i]]++;
        break;
      case EV.hop:
        this.linkBusy[b[i]] += d[i] - time[i];
        this.linkActive[b[i]]++;
        this.flights.push({ link: b[i], from: c[i], to: e[i], start: time[i], end: d[i], kind: this.inFlight.get(a[i])?.kind ?? 0 });
        break;
      case EV.deliver:
        this.received[a[i]]++;
        this.inFlight.delete(b[i]);
        break;
      case EV.end:
        this.ended = d[i];
        break;
      case EV.node:
      case EV.leave:
      case EV.split:
        this.tree.apply(code[i], a[i], b[i], c[i], e[i], d[i]);
        break;
    }
  }

  /** Drops hops that are across by now, among the first `shown` (those on screen since the
   * last advance). A hop applied in this advance stays for one picture even if it is across
   * already: at a fast replay speed a short hop falls between two frames, and would never be seen. */
  retireFlights(shown) {
    const clock = this.clock;
    let kept = 0;
    this.flights.forEach((flight, i) => {
      if (i >= shown || flight.end > clock) this.flights[kept++] = flight;
      else this.linkActive[flight.link]--;
    });
    this.flights.length = kept;
  }

  /** Share of the time shown so far that link `id` carried a message (0..1, lanes ignored). */
  linkLoad(id) {
    return this.clock > 0 ? Math.min(1, this.linkBusy[id] / this.clock) : 0;
  }

  /** The counters a test or a hover shows for processor `p`. */
  processor(p) {
    return { id: p, state: STATES[this.state[p]], nodes: this.nodes[p], sent: this.sent[p], received: this.received[p] };
  }

  /** Totals at the current time, for the page's test snapshot. */
  totals() {
    return processorTotals(this);
  }
}

/** Nodes, messages and processors per state of a replay or of the real threads. */
export function processorTotals({ nodes, kindCounts, stateCounts }) {
  let nodeSum = 0;
  for (const n of nodes) nodeSum += n;
  let messages = 0;
  for (const n of kindCounts) messages += n;
  return { nodes: nodeSum, messages, busy: stateCounts[0], waiting: stateCounts[1], done: stateCounts[2] };
}
