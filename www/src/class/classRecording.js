// The last search of a class as the relay's trace saw it, kept for its replay and its
// export: the trace events of that search (each delivered frame with when it was sent),
// and the processors' states as the page heard them. Times are the relay's clock (µs since
// the session was created); the states, which the relay does not see, are placed on it by
// the least lag between a trace event and its arrival at the page.

/** Most trace events kept of one search (and, apart, most state changes): a few hundred
 * bytes each with a delivery's copy for the replay, so some 10 MiB at most. A class search at 13 plies delivers a few thousand frames
 * (docs/class.md); a longer one is kept up to here, and its replay ends at the last kept. */
export const MAX_KEPT = 50000;

export class Recording {
  /** @param {{search: number, processors: number, network: string|null}} search  and whatever else describes it (the export keeps it) */
  constructor(search) {
    this.about = search;
    this.search = search.search;
    /** the kept events of this search, in arrival order */
    this.events = [];
    /** the kept `deliver` events, by time, each with `sent` (its `send`'s time) where known */
    this.delivers = [];
    /** {ms: page time, states: [per processor]} whenever the states changed */
    this.states = [];
    /** page µs minus relay µs, the least seen (an event cannot arrive before it happened) */
    this.offset = Infinity;
    this.startT = null;
    this.endT = null;
    /** events left out past MAX_KEPT */
    this.dropped = 0;
    /** per (from, to): the send times whose deliveries are not yet seen (the relay keeps each pair in order) */
    this.sends = new Map();
    /** the longest a kept frame took from send to delivery, µs */
    this.longest = 0;
  }

  /** Takes a batch of the relay's trace events that arrived at page time `ms`. */
  add(events, ms) {
    for (const e of events) {
      if (!Number.isFinite(e?.t)) continue;
      this.offset = Math.min(this.offset, ms * 1000 - e.t);
      if (e.search !== this.search) continue;
      if (e.ev === 'start') this.startT = e.t;
      if (e.ev === 'end') this.endT = e.t;
      if (this.events.length >= MAX_KEPT) {
        this.dropped++;
        continue;
      }
      this.events.push(e);
      if (!Number.isInteger(e.from) || !Number.isInteger(e.to)) continue;
      const pair = e.from * 65536 + e.to;
      if (e.ev === 'send') {
        if (!this.sends.has(pair)) this.sends.set(pair, []);
        this.sends.get(pair).push(e.t);
      } else if (e.ev === 'deliver') {
        const sent = this.sends.get(pair)?.shift() ?? e.t;
        this.longest = Math.max(this.longest, e.t - sent);
        this.delivers.push({ t: e.t, sent, from: e.from, to: e.to, kind: e.kind, hops: e.hops ?? 1 });
        // Deliveries come from several connections: keep them by time.
        for (let i = this.delivers.length - 1; i > 0 && this.delivers[i - 1].t > this.delivers[i].t; i--) {
          [this.delivers[i - 1], this.delivers[i]] = [this.delivers[i], this.delivers[i - 1]];
        }
      }
    }
  }

  /** Notes the processors' states (strings) at page time `ms`, when they changed. */
  noteStates(states, ms) {
    const last = this.states.at(-1)?.states;
    if (this.states.length >= MAX_KEPT || (last && last.length === states.length && last.every((s, i) => s === states[i]))) return;
    this.states.push({ ms, states });
  }

  /** The search's time on the relay's clock: from its start to its end or last kept event. */
  get span() {
    const from = this.startT ?? this.delivers[0]?.sent ?? 0;
    const last = Math.max(this.endT ?? 0, this.delivers.at(-1)?.t ?? 0, this.relayTime(this.states.at(-1)?.ms ?? 0));
    return { from, to: Math.max(from, last) };
  }

  /** Page time `ms` on the relay's clock. */
  relayTime(ms) {
    return Number.isFinite(this.offset) ? ms * 1000 - this.offset : 0;
  }

  /** How many kept frames were delivered by relay time `t`. */
  deliveredBy(t) {
    return countUpTo(this.delivers, t, (d) => d.t);
  }

  /** The kept frames on their way or just arrived at `t`: sent by `t`, delivered after `t - after`. */
  around(t, after) {
    const found = [];
    for (let i = this.deliveredBy(t - after); i < this.delivers.length && this.delivers[i].t <= t + this.longest; i++) {
      if (this.delivers[i].sent <= t) found.push(this.delivers[i]);
    }
    return found;
  }

  /** The processors' states at relay time `t` (the first known before any). */
  statesAt(t) {
    const known = countUpTo(this.states, t, ({ ms }) => this.relayTime(ms));
    return this.states[Math.max(0, known - 1)]?.states ?? [];
  }

  /** What the export writes: the search, its kept events and the states on the relay's clock. */
  toJSON() {
    return {
      ...this.about,
      kept: MAX_KEPT,
      dropped: this.dropped,
      events: this.events,
      states: this.states.map(({ ms, states }) => ({ t: Math.round(this.relayTime(ms)), states })),
    };
  }
}

/** How many items of `sorted` (ascending by `key`) have a key up to `t`. */
function countUpTo(sorted, t, key) {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (key(sorted[mid]) <= t) low = mid + 1;
    else high = mid;
  }
  return low;
}
