// A lecture in progress: runs its experiment, moves the replay from stop to stop (forward
// or back, paused), keeps the address on the shown stop and takes the lecture's keys.
// The stops are found in lectures.js; the panel that tells them is lecture.js.
import { breakEvenText } from './breakEven.js';
import { BreakEvenChart } from './breakEvenChart.js';
import { experimentHash } from './experimentLink.js';
import { Lecture } from './lecture.js';
import { lectureById } from './lectures.js';
import { Playback } from './playback.js';

/** Utilisation samples taken while a lecture jumps to a stop, so its chart has no gaps. */
const CHART_SAMPLES_PER_JUMP = 200;

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const LectureMode = {
  /** Runs lecture `id` (LECTURES) and shows its stop `stop` (1 the first; 0 the start). */
  async startLecture(id, stop = 0) {
    const spec = lectureById(id);
    if (!spec || !this.catalogue) return;
    this.leaveLecture();
    this.showNotice('');
    this.controls.set(spec.settings);
    await this.formChanged();
    const lecture = (this.lecture = new Lecture(spec, this.el.lecture));
    this.el.lecture.focus();
    const report = await this.run();
    if (this.lecture !== lecture) return;
    if (!report || !this.playback) {
      lecture.write(spec.title, `The lecture's run failed: ${this.el.status.textContent}`, '');
      return;
    }
    lecture.begin(this.playback.events, this.catalogue.messageKinds);
    const at = Math.min(stop, lecture.stops.length) - 1;
    if (at >= 0) this.showStop(at);
    else {
      lecture.show(-1);
      this.setLectureAddress();
    }
  },

  /** Moves the replay of the lecture's run to just after stop `at` (forward or back) and shows it, paused. */
  showStop(at) {
    const lecture = this.lecture;
    const stop = lecture.stops[at];
    if (this.playback.cursor > stop.index + 1) {
      this.playback = this.playback.rewound();
      this.charts?.reset(this.catalogue.messageKinds);
    }
    this.playback.seek(stop.index, (pb) => this.charts?.sample(pb), CHART_SAMPLES_PER_JUMP);
    this.setRunning(false);
    lecture.show(at, this.playback, this.report.rows);
    this.setLectureAddress();
    if (stop.on === 'end' && !lecture.curveDrawn && lecture.spec.curve?.kind === 'break-even') {
      lecture.curveDrawn = true;
      this.drawBreakEven(lecture.spec.curve);
    } else if (stop.on === 'end' && !lecture.curveDrawn) {
      // The lecture ends on its algorithm's scaling curve, p = 1, 2, 4, … up to the run's.
      lecture.curveDrawn = true;
      for (const box of this.root.querySelectorAll('[name="scaling"]')) box.checked = box.value === lecture.spec.settings.algorithm;
      this.drawScalingCurve();
    }
  },

  /**
   * The break-even chart (breakEven.js): the lecture's run again for each of `algorithms`
   * on each of `presets` at each of `depths`, one simulation a point without replay, its
   * sentences written from the points once all are in. Leaving the lecture or a new run
   * cancels it.
   */
  async drawBreakEven({ algorithms, presets, depths }) {
    const { request, error } = this.controls.read();
    if (error) return this.setStatus('error', error);
    const token = ++this.breakEvenToken;
    const panel = this.root.querySelector('.lab-break-even');
    panel.hidden = false;
    this.breakEven ??= new BreakEvenChart(panel.querySelector('.lab-break-even-chart'));
    this.breakEven.reset(algorithms, presets);
    this.breakEvenPoints = [];
    this.breakEvenText = '';
    const progress = panel.querySelector('.lab-break-even-progress');
    const status = panel.querySelector('.lab-break-even-status');
    const runs = algorithms.length * presets.length * depths.length;
    Object.assign(progress, { hidden: false, max: runs, value: 0 });
    this.breakEvenState = 'running';
    const failed = [];
    for (const depth of depths) {
      for (const preset of presets) {
        for (const algorithm of algorithms) {
          status.textContent = `Simulating ${algorithm} on ${preset} at depth ${depth} (run ${progress.value + 1} of ${runs})…`;
          try {
            const { report } = await this.client.run({ ...request, algorithm, preset, depth }, { replay: false });
            if (token !== this.breakEvenToken) return;
            const [serial, parallel] = [report.rows[0], report.rows[report.rows.length - 1]];
            const point = { algorithm, preset, depth, t1: serial.timeNs / 1e9, speedup: parallel.speedup, searchOverhead: parallel.searchOverhead };
            this.breakEvenPoints.push(point);
            this.breakEven.add(point);
          } catch (e) {
            if (token !== this.breakEvenToken) return;
            failed.push(`${algorithm} on ${preset} at depth ${depth}: ${e.message}`);
          }
          progress.value++;
        }
      }
    }
    progress.hidden = true;
    this.breakEvenText = breakEvenText(this.breakEvenPoints, { algorithms, presets });
    status.textContent = `${this.breakEvenText}${failed.length ? ` Not run: ${failed.join('; ')}.` : ''}`;
    this.breakEvenState = 'done';
  },

  /** Cancels the break-even chart's runs (the one in flight finishes unheard) and hides it. */
  stopBreakEven() {
    this.breakEvenToken++;
    this.breakEvenState = 'idle';
    this.root.querySelector('.lab-break-even').hidden = true;
  },

  /** The address of the lecture at its shown stop, for a link to this moment. */
  setLectureAddress() {
    const { spec, at } = this.lecture;
    history.replaceState(null, '', experimentHash(null, { id: spec.id, stop: at + 1 }));
  },

  /** Ends the lecture (the run stays, as an ordinary replay). */
  leaveLecture() {
    if (!this.lecture) return;
    this.lecture = null;
    this.stopBreakEven();
    this.el.lecture.hidden = true;
    if (document.body.classList.contains('lab-presenting')) this.toggleFullScreen();
    if (this.lastRequest) history.replaceState(null, '', experimentHash(this.controls.values()));
  },

  /** A lecture's keys: Space plays on or pauses, → the next stop, ← back a stop, F full
   * screen, Esc leaves. */
  lectureKey(e) {
    const lecture = this.lecture;
    if (!lecture || !this.visible || e.target.closest?.('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const ready = lecture.stops !== null && this.playback instanceof Playback;
    const actions = {
      ' ': () => {
        if (!ready) return;
        if (!this.running && lecture.at >= lecture.last) return;
        this.setRunning(!this.running);
        if (this.running) lecture.playing();
        else lecture.paused();
      },
      ArrowRight: () => ready && lecture.at < lecture.last && this.showStop(lecture.at + 1),
      ArrowLeft: () => {
        if (!ready) return;
        if (lecture.at > 0) this.showStop(lecture.at - 1);
        else {
          this.playback = this.playback.rewound();
          this.charts?.reset(this.catalogue.messageKinds);
          this.setRunning(false);
          lecture.show(-1);
          this.setLectureAddress();
        }
      },
      f: () => this.toggleFullScreen(),
      F: () => this.toggleFullScreen(),
      Escape: () => this.leaveLecture(),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  },
};
