// The replay of a class's last search, as a Lab run is replayed: play and pause, a scrubber
// over the search's time on the relay's clock, a speed in relay time per wall second, and
// how many of the kept frames were delivered by the moment shown; the map (classMap.js)
// draws the kept trace (classRecording.js) at that moment. "Export trace" downloads it.
import { download } from '../lab/exports.js';

/** Relay time per wall second offered by the speed menu, in µs ('auto': the whole search in AUTO_SECONDS). */
export const REPLAY_SPEEDS = [
  ['auto', 'auto (whole search in 10 s)'],
  [1e4, '10 ms / s'],
  [1e5, '100 ms / s'],
  [1e6, '1 s / s (as it ran)'],
  [1e7, '10 s / s'],
];
const AUTO_SECONDS = 10;

export class ClassReplay {
  /**
   * @param {HTMLElement} root  the view, holding the controls (template.js `.class-replay`)
   * @param {import('./classMap.js').ClassMap} map
   */
  constructor(root, map) {
    const $ = (selector) => root.querySelector(selector);
    this.el = { box: $('.class-replay'), play: $('[data-class="replay"]'), at: $('[name="class-replay-at"]'), speed: $('[name="class-replay-speed"]'), count: $('.class-replay-count'), export: $('[data-class="export-trace"]') };
    this.map = map;
    /** @type {import('./classRecording.js').Recording|null} the search offered */
    this.recording = null;
    /** what the map draws: {recording, t, rate, seen}, once Replay was pressed */
    this.shown = null;
    this.playing = false;
    this.frame = 0;
    this.el.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.el.at.addEventListener('input', () => this.seek(this.recording.span.from + Number(this.el.at.value)));
    this.el.speed.addEventListener('change', () => this.shown && (this.shown.rate = this.rate()));
    this.el.export.addEventListener('click', () => download(new Blob([JSON.stringify(this.recording)], { type: 'application/json' }), `class-search-${this.recording.search}.json`));
  }

  /** Offers the replay of `recording`, a search that is over (the same one again: its span
   * may have grown); null takes it away and the map back to live. */
  offer(recording) {
    if (recording !== this.recording) {
      this.pause();
      this.shown = null;
      this.map.showReplay(null);
      this.recording = recording;
    }
    this.render();
  }

  /** Relay µs per wall µs at the chosen speed. */
  rate() {
    const speed = this.el.speed.value;
    if (speed !== 'auto') return Number(speed) / 1e6;
    const { from, to } = this.recording.span;
    return Math.max(1e-3, (to - from) / (AUTO_SECONDS * 1e6));
  }

  play() {
    const { from, to } = this.recording.span;
    if (!this.shown || this.shown.t >= to) this.shown = { recording: this.recording, t: from, rate: this.rate(), seen: new Set() };
    this.playing = true;
    let last = performance.now();
    const tick = (now) => {
      this.shown.t = Math.min(this.recording.span.to, this.shown.t + (now - last) * 1000 * this.shown.rate);
      last = now;
      if (this.shown.t >= this.recording.span.to) this.playing = false;
      this.map.showReplay(this.shown);
      this.render();
      this.frame = this.playing ? requestAnimationFrame(tick) : 0;
    };
    this.frame = requestAnimationFrame(tick);
    this.render();
  }

  pause() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.playing = false;
    this.render();
  }

  /** Shows relay time `t` (paused where it was paused). */
  seek(t) {
    this.shown ??= { recording: this.recording, t, rate: this.rate(), seen: new Set() };
    this.shown.t = t;
    this.map.showReplay(this.shown);
    this.render();
  }

  render() {
    const { el, recording, shown } = this;
    el.box.hidden = !recording;
    if (!recording) return;
    const readout = replayReadout(recording, shown, this.playing);
    el.play.textContent = readout.button;
    el.play.setAttribute('aria-pressed', String(this.playing));
    el.at.max = String(readout.max);
    el.at.value = String(readout.at);
    el.count.textContent = readout.text;
    Object.assign(el.count.dataset, { shown: String(readout.shown), kept: String(readout.kept), drawn: String(shown?.seen.size ?? 0), playing: String(this.playing) });
  }
}

/**
 * What the replay's controls say of `recording` at the moment `shown` shows (null: none
 * chosen yet, so the search as it ended): the button, the scrubber's place and end (µs
 * from the search's start), the frames delivered by then of those kept, and that in words.
 */
export function replayReadout(recording, shown, playing) {
  const { from, to } = recording.span;
  const t = shown?.t ?? to;
  const kept = recording.delivers.length;
  const delivered = recording.deliveredBy(t);
  const dropped = recording.dropped ? ` kept (${recording.dropped.toLocaleString('en')} events past the first ${recording.events.length.toLocaleString('en')} not kept)` : '';
  return {
    button: playing ? 'Pause' : shown && t < to ? 'Resume' : 'Replay',
    max: Math.max(1, Math.round(to - from)),
    at: Math.round(t - from),
    shown: delivered,
    kept,
    text: `${delivered.toLocaleString('en')} of ${kept.toLocaleString('en')} frames${dropped} · ${seconds(t - from)} of ${seconds(to - from)} s`,
  };
}

/** Relay µs as seconds, to the millisecond. */
const seconds = (us) => (Math.max(0, us) / 1e6).toFixed(3);
