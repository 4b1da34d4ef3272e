// A lecture in progress: which stops its run has (found in the trace, lectures.js), which
// one is shown, and the card that says it. The Lab owns the replay and the keys; this
// keeps the place in the lecture and writes the card from the stop's facts.
import { findStops, stopFacts } from './lectures.js';

export const LECTURE_KEYS = 'Space: play on or pause · →: next stop · ←: back · F: full screen · Esc: leave';

export class Lecture {
  /**
   * @param {object} spec a lecture of LECTURES
   * @param {HTMLElement} card the element the stops are written into
   */
  constructor(spec, card) {
    this.spec = spec;
    this.card = card;
    /** The stops the run reaches (with their event index), once its trace is complete. */
    this.stops = null;
    /** The stop shown (index into stops), -1 before the first. */
    this.at = -1;
    /** The shown stop's facts (the numbers its text names). */
    this.facts = null;
    this.text = '';
    this.write(spec.title, 'Simulating the run…', '');
  }

  /** The run's trace is complete: find the stops in it. */
  begin(events, kinds) {
    this.stops = findStops(this.spec, events, kinds);
    this.write(this.spec.title, `${this.stops.length} stops. Space plays the run to the first.`, '');
  }

  /** The event index the replay must not pass (the next stop), or Infinity. */
  nextIndex() {
    return this.stops?.[this.at + 1]?.index ?? Infinity;
  }

  get last() {
    return this.stops ? this.stops.length - 1 : -1;
  }

  /** Shows stop `at`, the replay standing just after its event; `rows` the run's report rows. */
  show(at, playback, rows) {
    this.at = at;
    if (at < 0) {
      this.facts = null;
      this.text = '';
      this.write(this.spec.title, 'The start of the run. Space plays it to the first stop.', '');
      return;
    }
    const stop = this.stops[at];
    this.facts = stopFacts(stop, playback, rows);
    this.text = stop.text(this.facts);
    this.write(`${this.spec.title} · stop ${at + 1} of ${this.stops.length}: ${stop.title}`, this.text, LECTURE_KEYS);
  }

  /** The card while the replay plays on to the next stop. */
  playing() {
    this.write(this.spec.title, this.at < this.last ? `Playing on to stop ${this.at + 2} of ${this.stops.length}…` : 'The run is over.', LECTURE_KEYS);
  }

  /** The card when the replay is paused between two stops. */
  paused() {
    this.facts = null;
    this.text = '';
    this.write(this.spec.title, `Paused after stop ${this.at + 1} of ${this.stops.length}. Space plays on, → goes to the next stop.`, LECTURE_KEYS);
  }

  write(title, text, keys) {
    this.card.hidden = false;
    this.card.querySelector('h3').textContent = title;
    this.card.querySelector('.lab-lecture-text').textContent = text;
    this.card.querySelector('.lab-lecture-keys').textContent = keys;
  }

  /** What a test reads (window.__lab.snapshot().lecture). */
  snapshot() {
    const stop = this.stops?.[this.at];
    return { id: this.spec.id, at: this.at, stops: this.stops?.length ?? null, title: stop?.title ?? null, on: stop?.on ?? null, kind: stop?.kind ?? null, event: stop?.event ?? null, index: stop?.index ?? null, text: this.text, facts: this.facts };
  }
}
