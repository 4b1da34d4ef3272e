// The trace's events kept as columns of typed arrays instead of one object per event: a
// run of a few hundred processors streams millions of events, which as JS objects would
// take several times the memory and keep the garbage collector busy while replaying. The
// Lab worker sends them as numbers (crate/wasm/lab.rs `replay_words`), so nothing is
// parsed here; the JSON lines themselves stay in the worker for the export.

/** Event codes by name. crate/wasm/lab.rs declares them (`Code`) and sends them in the
 * catalogue; `checkLayout` refuses a simulator whose layout differs from these. */
export const EV = { state: 1, nodes: 2, send: 3, hop: 4, deliver: 5, end: 6, node: 7, leave: 8, split: 9 };
/** The columns, one number each per event, in the order the worker sends them. */
const COLUMNS = ['code', 'time', 'a', 'b', 'c', 'e', 'd'];
const WORDS_PER_EVENT = COLUMNS.length;
/** Processor states by index (the simulator's order), as the drawing colours them. */
export const STATES = ['busy', 'waiting', 'done'];
const INITIAL_CAPACITY = 1 << 16;

/**
 * Throws unless the simulator's replay layout (its catalogue's `replay`: numbers per event,
 * and each code's name and number) is the one these columns read.
 * @param {{ wordsPerEvent: number, codes: [string, number][] }} replay
 */
export function checkLayout(replay) {
  const codes = Object.fromEntries(replay?.codes ?? []);
  const same = replay?.wordsPerEvent === WORDS_PER_EVENT && Object.keys(codes).length === Object.keys(EV).length && Object.entries(EV).every(([name, code]) => codes[name] === code);
  if (!same) throw new Error(`the simulator's event layout (${JSON.stringify(replay)}) is not the one the Lab reads (${WORDS_PER_EVENT} numbers, codes ${JSON.stringify(EV)}): rebuild the page and the wasm together`);
}

/**
 * Column meaning by code (time is when the event happens, for ordering the replay):
 * state: a = p, b = state index, d = nodes · nodes: a = p, d = nodes · send: a = msg,
 * b = from, c = kind index, e = to · hop: a = msg, b = link, c = from, e = to, d = end ·
 * deliver: a = to, b = msg · end: d = the last processor's end · node, leave, split (the top of
 * the search tree, decoded in searchTree.js): a = p, b and c = the path's moves, e =
 * length and flags, d = window or value.
 */
export class EventColumns {
  constructor() {
    /** Events held, from slot 0. */
    this.length = 0;
    /** The run's number of the event in slot 0 (events before it were applied and dropped). */
    this.offset = 0;
    this.allocate(INITIAL_CAPACITY);
  }

  /** Drops the first `count` events held (applied ones), keeping the rest from slot 0. */
  drop(count) {
    if (count <= 0) return;
    for (const name of COLUMNS) this[name].copyWithin(0, count, this.length);
    this.length -= count;
    this.offset += count;
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

  /** Adds a batch from the worker: WORDS_PER_EVENT numbers per event. */
  append(words) {
    const count = Math.floor(words.length / WORDS_PER_EVENT);
    let capacity = this.capacity;
    while (this.length + count > capacity) capacity *= 2;
    if (capacity !== this.capacity) this.allocate(capacity);
    for (let k = 0, w = 0; k < count; k++, w += WORDS_PER_EVENT) {
      const i = this.length++;
      this.code[i] = words[w];
      this.time[i] = words[w + 1];
      this.a[i] = words[w + 2];
      this.b[i] = words[w + 3];
      this.c[i] = words[w + 4];
      this.e[i] = words[w + 5];
      this.d[i] = words[w + 6];
    }
  }
}
