// The animation loop: each frame advances the replay by the speed menu's virtual time,
// draws the network and the tree, samples the charts and redraws the readout; pause, step
// and step-node move the replay by hand.
import { Playback } from './playback.js';
import { UNTREED_THREADS } from './treeView.js';
import { ThreadsActivity } from './threadsActivity.js';

/** Virtual time per wall second offered by the speed menu, in ns ('auto': the run in AUTO_SECONDS). */
export const SPEEDS = [
  ['auto', 'auto (whole run in 30 s)'],
  [1e4, '10 µs / s'],
  [1e5, '100 µs / s'],
  [1e6, '1 ms / s'],
  [1e7, '10 ms / s'],
  [1e8, '100 ms / s'],
  [1e9, '1 s / s'],
  [1e10, '10 s / s'],
];
const AUTO_SECONDS = 30;
/** How often the charts and the readouts are redrawn. */
const CHART_MS = 250;

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const Animation = {
  /** Plays (if there is a replay) or pauses it, and says so on the Pause button. */
  setRunning(running) {
    this.running = running && !!this.playback;
    const pause = this.root.querySelector('[data-lab="pause"]');
    pause.setAttribute('aria-pressed', String(!this.running));
    pause.textContent = this.running ? 'Pause' : 'Resume';
    this.root.dataset.playing = String(this.running);
  },

  /** Pauses and applies one event. */
  step() {
    this.setRunning(false);
    if (this.playback instanceof Playback) this.playback.step();
  },

  /** Pauses and goes on to the next node a processor enters. */
  stepNode() {
    this.setRunning(false);
    if (this.playback instanceof Playback) this.playback.stepNode();
  },

  /** Virtual ns per wall second. */
  speed() {
    const value = this.el.speed.value;
    if (value !== 'auto') return Number(value);
    const pb = this.playback;
    const span = this.report ? this.report.endNs : pb?.lastTime ?? 0;
    // A paced run's length is known only at its end, and its simulator waits for the
    // replay: follow what has arrived, closing half the gap every half second.
    const chase = !this.report && this.client.paced && pb ? 2 * (pb.lastTime - pb.clock) : 0;
    return Math.max(1000, span / AUTO_SECONDS, chase);
  },

  /** One animation frame; schedules the next while the Lab is shown. */
  frame(now) {
    if (!this.visible) return;
    const dt = this.lastFrame ? Math.min(0.1, (now - this.lastFrame) / 1000) : 0;
    this.lastFrame = now;
    if (this.running && this.playback instanceof Playback) {
      const next = this.lecture?.nextIndex() ?? Infinity;
      this.playback.advanceTo(this.playback.clock + this.speed() * dt, next);
      if (this.playback.cursor > next) this.showStop(this.lecture.at + 1);
    }
    if (this.playback instanceof Playback) this.client.acknowledge(this.playback.applied);
    this.view.draw(this.playback);
    this.treeView.draw(this.playback?.tree ?? null, now, this.playback instanceof ThreadsActivity ? UNTREED_THREADS : undefined);
    if (this.playback) this.charts.sample(this.playback);
    if (now - this.lastChart >= CHART_MS) {
      this.lastChart = now;
      if (this.playback) this.charts.render(this.playback);
      this.readout();
    }
    this.countFrame(now);
    requestAnimationFrame((t) => this.frame(t));
  },

  /** Frames per second, over the last second. */
  countFrame(now) {
    const fps = this.fps;
    fps.frames++;
    if (now - fps.since >= 1000) {
      fps.value = (1000 * fps.frames) / (now - fps.since);
      fps.frames = 0;
      fps.since = now;
    }
  },

  /** The line under the views: virtual time, events, processor states, frame rate. */
  readout() {
    const pb = this.playback;
    if (this.view.selected !== null && pb) this.showNode(this.view.selected);
    if (!pb) {
      this.el.readout.textContent = '';
      return;
    }
    const totals = pb.totals();
    const selected = this.view.selected;
    const sel = selected !== null && selected < pb.machine.processors ? ` · selected P${selected}: ${pb.processor(selected).state}, ${pb.nodes[selected]} nodes` : '';
    const time = pb instanceof Playback ? `t = ${(pb.clock / 1e6).toFixed(3)} ms virtual · event ${pb.applied} / ${pb.arrived}` : `real threads · ${(pb.clock / 1e9).toFixed(1)} s`;
    this.el.readout.textContent =
      `${time} · ` +
      `busy ${totals.busy}, waiting ${totals.waiting}, done ${totals.done} · ${totals.nodes} nodes · ${totals.messages} messages · ` +
      `${this.view.lastFrame.messages} in flight · ${this.fps.value.toFixed(0)} fps${sel}`;
  },
};
