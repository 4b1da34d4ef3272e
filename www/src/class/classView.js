// The Class view: a lecture's class as the parallel computer. The lecturer's tab creates a
// session at the relay and shows its link and QR code, who has joined, the search form, each
// processor's nodes and state, the result, and the class drawn live from the relay's trace
// (on the virtual network the search runs on, if the lecturer picked one), replayable once
// the search is over. A student's tab (opened by the link, `#class?code=…`) joins at once
// and shows which processor it is, the searched position and its own node count.
//
// This file wires the parts around one state (classState.js): every message, the class
// worker's (classClient.js) and the user's, goes through `dispatch`, which reduces the state,
// does what the message asks of the world (the worker, the map, the replay, the boards) and
// renders. The parts, each one job:
//   classState.js    the state and its reducer (pure)      classText.js     its words (pure)
//   classForm.js     the start form                        classInvite.js   the link and QR code
//   classLecturer.js members, progress, result, board      classTable.js    the processors' table
//   classStudent.js  a student's panel                     classMap.js      the class drawn live
//   classReplay.js   the last search's replay, over its recording (classRecording.js)
//   classPrediction.js  the classroom model's speedups (the Lab's simulator in its worker)
//   classPredictionPanel.js  them, and the measured one    classLatency.js  the relay's, measured
//   classAlone.js    this tab searching a search's position alone, for the measured speedup
import './class.css';
import { AloneSearch } from './classAlone.js';
import { probeRelay, relayHoldMs } from './classLatency.js';
import { fastest, Predictor } from './classPrediction.js';
import { PredictionPanel } from './classPredictionPanel.js';
import { ClassClient } from './classClient.js';
import { checkStart, StartForm } from './classForm.js';
import { Invite } from './classInvite.js';
import { LecturerPanel } from './classLecturer.js';
import { defaultRelayUrl, isRelayUrl, joinLink, readClassHash } from './classLink.js';
import { ClassMap } from './classMap.js';
import { Recording } from './classRecording.js';
import { ClassReplay } from './classReplay.js';
import { canStart, initialState, mapNodes, oneWayMs, processorRows, reduce } from './classState.js';
import { StudentPanel } from './classStudent.js';
import { ProcessorTable } from './classTable.js';
import { statusText } from './classText.js';
import { CLASS_ALGORITHMS, classHtml } from './template.js';

/** How long a note (e.g. "The link is copied.") stays on the status line. */
const NOTE_MS = 4000;
/** How long the form rests before the prediction follows what was typed. */
const PREDICT_AFTER_MS = 400;

export class ClassView {
  /**
   * @param {{ root: HTMLElement, isolated: boolean, location?: Location, engine?: {engine: object, boot: () => void} }} options
   *   isolated: whether the page is cross-origin isolated (a lecturer's tab needs threads;
   *   a student's runs the single build otherwise); engine: the Play engine and how to
   *   start it, with which the lecturer's tab times a search's position alone
   */
  constructor({ root, isolated, location = window.location, engine = null }) {
    this.root = root;
    this.isolated = isolated;
    this.location = location;
    this.state = initialState();
    this.visible = false;
    root.innerHTML = classHtml();
    const $ = (selector) => root.querySelector(selector);
    this.el = { status: $('.class-status'), error: $('.class-error'), relay: $('[name="class-relay"]'), create: $('[data-class="create"]') };
    this.el.relay.value = defaultRelayUrl(location);
    this.form = new StartForm($('.class-form'), { onSubmit: () => this.start(), onInput: () => this.state.error?.form && this.dispatch({ class: 'problem', message: null }) });
    this.invite = new Invite($('.class-invite'), { onNote: (text) => this.note(text), onProblem: (message) => this.dispatch({ class: 'problem', message }) });
    this.lecturer = new LecturerPanel(root);
    this.table = new ProcessorTable($('.class-processors tbody'));
    this.student = new StudentPanel(root);
    this.map = new ClassMap($('.class-map'));
    this.replay = new ClassReplay(root, this.map);
    /** lecturer: the trace of the running or last search, kept for its replay */
    this.recording = null;
    this.predictionPanel = new PredictionPanel($('.class-prediction'), CLASS_ALGORITHMS);
    this.predictor = new Predictor({ algorithms: CLASS_ALGORITHMS.map(([a]) => a), onPrediction: (p) => this.predicted(p) });
    this.alone = engine ? new AloneSearch(engine) : null;
    /** whether the lecturer chose the algorithm: the menu then stays where it was put */
    this.algorithmChosen = false;
    this.form.form.elements['class-algorithm'].addEventListener('change', () => (this.algorithmChosen = true));
    this.form.form.addEventListener('input', () => this.schedulePrediction());
    this.client = new ClassClient({ onMessage: (message) => this.dispatch(message) });
    this.el.create.addEventListener('click', () => this.create());
    for (const button of root.querySelectorAll('[data-class="leave"]')) button.addEventListener('click', () => this.leave());
    this.render();
  }

  /** Shows or hides the view (main.js, on a change of view). */
  show(visible) {
    this.visible = visible;
    this.map.show(visible && this.state.role === 'lecturer');
    if (!visible) this.replay.pause();
    if (visible) {
      this.render();
      this.showBoards();
    } else this.clearBoards();
  }

  /**
   * Follows the page's `#class…` address: a code joins that session as a student (leaving
   * any other class first); `#class` alone just opens the view.
   */
  followLink() {
    const { code, relay, error } = readClassHash(this.location.hash, this.location);
    const s = this.state;
    if (error) this.dispatch({ class: 'problem', message: error });
    // A code joins, unless this tab is in that session already.
    else if (code && !(s.role !== 'none' && s.phase !== 'closed' && s.code === code)) this.join(code, relay);
  }

  // --- the user's actions ------------------------------------------------------------

  create() {
    const relay = this.el.relay.value.trim() || defaultRelayUrl(this.location);
    if (!isRelayUrl(relay)) {
      this.dispatch({ class: 'problem', message: `The relay's address "${relay}" is not a ws:// or wss:// address.`, form: true });
      return;
    }
    this.dispatch({ class: 'begin', role: 'lecturer', relay, code: null });
    this.client.open({ class: 'create', url: relay });
  }

  join(code, relay) {
    this.dispatch({ class: 'begin', role: 'student', relay, code });
    this.client.open({ class: 'join', url: relay, code });
  }

  leave() {
    const { role } = this.state;
    this.client.leave();
    this.dispatch({ class: 'leave' });
    // A student's address named the class it left: reopening the page must not join again.
    if (role === 'student' && this.location.hash.startsWith('#class?')) history.replaceState(null, '', `${this.location.pathname}${this.location.search}#class`);
  }

  start() {
    const checked = checkStart(this.form.values(), this.state.members.length);
    if (checked.error) {
      this.dispatch({ class: 'problem', message: checked.error, form: true });
      return;
    }
    if (!canStart(this.state)) return;
    const { network, ...rest } = checked.request;
    this.dispatch({ class: 'start', ...checked.request });
    this.client.post({ class: 'start', ...rest, ...(network ? { network } : {}) });
  }

  // --- the prediction and the measured speedup ------------------------------------------

  /** Predicts the class as the form and the roster have it, once they rest. */
  schedulePrediction() {
    clearTimeout(this.predictTimer);
    this.predictTimer = setTimeout(() => this.predictForm(), PREDICT_AFTER_MS);
  }

  predictForm() {
    const s = this.state;
    if (s.role !== 'lecturer' || s.phase !== 'open' || s.searching) return;
    const oneWay = oneWayMs(s.latency);
    const checked = checkStart(this.form.values(), s.members.length);
    if (oneWay === null || checked.error) return;
    const { algorithm, ...setup } = checked.request;
    this.predictor.predict({ ...setup, processors: s.members.length, oneWayMs: oneWay });
  }

  /** The prediction of the running search's own setup (kept, if it was shown before the start). */
  predictSearch() {
    const s = this.state;
    const oneWay = oneWayMs(s.latency);
    if (oneWay === null) return;
    const { processors, depth, fen, pure, papersSplit, network } = s.search;
    this.predictor.predict({ processors, depth, fen, pure, papersSplit, network: network ?? '', oneWayMs: oneWay });
  }

  /** A prediction came (or grew by an algorithm): shown, and the menu on the fastest unless chosen. */
  predicted(prediction) {
    this.dispatch({ class: 'prediction', ...prediction });
    const best = prediction.done ? fastest(prediction.rows) : null;
    if (best && !this.algorithmChosen && !this.state.searching) this.form.form.elements['class-algorithm'].value = best;
  }

  /** The lecturer's round trip to the relay, by the probe (classLatency.js). */
  async probe(relay) {
    try {
      const probeMs = await probeRelay(relay);
      if (this.state.relay === relay) this.dispatch({ class: 'latency', probeMs });
    } catch (e) {
      if (this.state.relay === relay) this.dispatch({ class: 'latency', probeError: e.message });
    }
  }

  /** The search is over: this tab searches its position alone for the measured speedup,
   * the simulator still held so that nothing else takes the cores meanwhile. */
  async measureAlone() {
    const { search, fen, depth, pure } = this.state.search;
    if (!this.alone) {
      this.dispatch({ class: 'alone', search, state: 'failed', why: 'this page has no engine of its own to search alone' });
      this.predictor.release();
      return;
    }
    this.dispatch({ class: 'alone', search, state: 'running' });
    const timed = await this.alone.search({ fen, depth, pure });
    if (timed.why) this.dispatch({ class: 'alone', search, state: 'failed', why: timed.why });
    else this.dispatch({ class: 'alone', search, state: 'done', ...timed });
    if (!this.state.searching) {
      this.predictor.release();
      this.schedulePrediction();
    }
  }

  note(text) {
    this.dispatch({ class: 'note', text });
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => this.dispatch({ class: 'note', text: null }), NOTE_MS);
  }

  // --- one message: the state, the world, the page --------------------------------------

  /** Takes one message of the worker or the page (classState.js lists the page's). */
  dispatch(message) {
    const before = this.state;
    this.state = reduce(before, message);
    this.affect(before, message);
    if (this.state !== before) this.render();
  }

  /** What `message` asks of the world beyond the state (`before`: the state it found). */
  affect(before, message) {
    const s = this.state;
    if (s.phase === 'closed' && before.phase !== 'closed') {
      this.client.end();
      if (s.role === 'none') this.forget();
      return;
    }
    switch (message.class) {
      case 'begin':
        this.client.end();
        this.forget();
        this.map.setNodes([], { reset: true });
        break;
      case 'leave':
        this.forget();
        break;
      case 'created':
        this.invite.show(joinLink(this.location, s.code, s.relay));
        this.probe(s.relay);
        break;
      case 'members':
      case 'latency':
        if (s.role === 'lecturer') this.schedulePrediction();
        break;
      case 'start':
        // The class's time is measured: the simulator gives the cores back.
        this.predictor.hold();
        this.alone?.stop();
        break;
      case 'search':
        if (s.role === 'lecturer') {
          this.predictor.hold();
          this.predictSearch();
          const { search, processors, members, network, fen, algorithm, depth, pure } = s.search;
          this.recording = new Recording({ search, processors, members, network, fen, algorithm, depth, pure });
          this.replay.offer(null);
          this.map.setNetwork(network, message.drawing ?? null);
        }
        this.map.setNodes(mapNodes(s), { reset: true });
        this.showBoards();
        break;
      case 'result':
      case 'ended':
        this.map.settle();
        this.replay.offer(this.recording);
        this.showBoards();
        if (s.role !== 'lecturer') break;
        if (message.class === 'result' && before.searching && s.search && Number.isFinite(s.result?.ms)) this.measureAlone();
        else if (!this.alone?.running) {
          this.predictor.release();
          this.schedulePrediction();
        }
        break;
      case 'trace':
        if (!Array.isArray(message.events)) break;
        this.recording?.add(message.events, performance.now());
        this.map.trace(message.events);
        // Frames of a search that is over still arrive (the relay sends its trace every 100 ms).
        if (!s.searching) {
          this.replay.offer(this.recording);
          this.noteRelayHold();
        }
        break;
      case 'position':
        this.showBoards();
        break;
      default:
    }
  }

  /** The relay's hold of a frame as the last search's kept trace has it, once it has more frames. */
  noteRelayHold() {
    const delivers = this.recording?.delivers ?? [];
    if (delivers.length === 0 || delivers.length === this.state.latency.frames) return;
    const holdMs = relayHoldMs(delivers);
    if (holdMs !== null) this.dispatch({ class: 'latency', holdMs, frames: delivers.length });
  }

  /** No class or search to show any more (the class is left, over, or begun anew). */
  forget() {
    this.alone?.stop();
    this.clearBoards();
    this.recording = null;
    this.replay.offer(null);
    this.map.setNetwork(null, null);
    this.map.show(this.visible && this.state.role === 'lecturer');
  }

  /** Takes the arrows off before the boards are hidden: chessground cannot draw them at size 0. */
  clearBoards() {
    this.lecturer.board.setArrows([]);
    this.student.board.setArrows([]);
  }

  /** The searched position on this side's board. */
  showBoards() {
    if (this.state.role === 'student') this.student.showBoard(this.state);
    else if (this.state.role === 'lecturer') this.lecturer.showBoard(this.state, this.visible);
  }

  render() {
    const s = this.state;
    const view = this.root.dataset;
    Object.assign(view, { role: s.role, phase: s.phase, searching: String(s.searching) });
    for (const key of ['processor', 'processors', 'search']) delete view[key];
    if (s.search) view.search = String(s.search.search);
    this.el.status.textContent = statusText(s, { isolated: this.isolated });
    this.el.error.hidden = !s.error;
    this.el.error.textContent = s.error?.message ?? '';
    this.el.create.disabled = s.phase === 'connecting' || (s.role !== 'none' && (s.phase === 'open' || s.phase === 'reconnecting'));
    this.form.render(s);
    if (s.role === 'lecturer') {
      this.lecturer.render(s);
      this.predictionPanel.render(s);
      this.table.render(processorRows(s), s.search?.fen);
      const nodes = mapNodes(s);
      this.map.setNodes(nodes);
      this.recording?.noteStates(nodes.map((n) => n.state), performance.now());
    }
    if (s.role === 'student') this.student.render(s);
  }
}
