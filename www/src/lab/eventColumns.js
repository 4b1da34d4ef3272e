// The trace's events kept as columns of typed arrays instead of one object per event: a
// run of a few hundred processors streams millions of events, which as JS objects would
// take about three times the memory and keep the garbage collector busy while replaying.
// Only what the replay reads is kept; the JSON lines themselves stay with the exports.

/** Event codes (the `ev` names the replay uses; others are not stored). */
export const EV = { state: 1, nodes: 2, send: 3, hop: 4, deliver: 5, end: 6 };
/** Processor states by index, as the drawing colours them. */
export const STATES = ['busy', 'waiting', 'done'];
const STATE_CODES = Object.fromEntries(STATES.map((s, i) => [s, i]));
const INITIAL_CAPACITY = 1 << 16;

/**
 * Column meaning by code (time is when the event happens, for ordering the replay):
 * state: a = p, b = state index, d = nodes · nodes: a = p, d = nodes · send: a = msg,
 * b = from, c = kind index · hop: a = msg, b = link, c = from, e = to, d = end ·
 * deliver: a = to · end: d = the last processor's end.
 */
export class EventColumns {
  /** @param {Record<string, number>} kindIndex message kind name → index */
  constructor(kindIndex) {
    this.kindIndex = kindIndex;
    this.length = 0;
    this.allocate(INITIAL_CAPACITY);
  }

  allocate(capacity) {
    const old = this.length ? this : null;
    const columns = {
      code: new Uint8Array(capacity),
      time: new Float64Array(capacity),
      a: new Uint32Array(capacity),
      b: new Uint32Array(capacity),
      c: new Uint32Array(capacity),
      e: new Uint32Array(capacity),
      d: new Float64Array(capacity),
    };
    if (old) for (const [name, column] of Object.entries(columns)) column.set(old[name].subarray(0, this.length));
    Object.assign(this, columns);
    this.capacity = capacity;
  }

  /** Adds one JSON line of the trace (lines the replay does not use are skipped). */
  push(line) {
    const ev = JSON.parse(line);
    const code = EV[ev.ev];
    if (!code) return;
    if (this.length === this.capacity) this.allocate(this.capacity * 2);
    const i = this.length++;
    this.code[i] = code;
    switch (code) {
      case EV.state:
        [this.time[i], this.a[i], this.b[i], this.d[i]] = [ev.t, ev.p, STATE_CODES[ev.state] ?? 1, ev.nodes];
        break;
      case EV.nodes:
        [this.time[i], this.a[i], this.d[i]] = [ev.t, ev.p, ev.nodes];
        break;
      case EV.send:
        [this.time[i], this.a[i], this.b[i], this.c[i]] = [ev.t, ev.msg, ev.from, this.kindIndex[ev.kind] ?? 0];
        break;
      case EV.hop:
        [this.time[i], this.a[i], this.b[i], this.c[i], this.e[i], this.d[i]] = [ev.start, ev.msg, ev.link, ev.from, ev.to, ev.end];
        break;
      case EV.deliver:
        [this.time[i], this.a[i]] = [ev.t, ev.to];
        break;
      case EV.end:
        [this.time[i], this.d[i]] = [ev.end, ev.end];
        break;
    }
  }
}
