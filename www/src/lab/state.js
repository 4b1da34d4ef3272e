// The Lab's one state: every field its parts read and write, in one place, with what it
// means. lab.js puts it on the Lab at the start; the parts (input, inspect, experiment,
// animation, onDevice, sweep, lectureMode) are methods of the Lab that share it.
import { Playback } from './playback.js';

/** The Lab's state before anything ran. */
export function initialState() {
  return {
    /** The simulator's algorithms, networks, presets and message kinds (from the Lab
     * worker), once it has loaded; null before. */
    catalogue: null,
    /** The replay on show: a Playback of a simulated run, a ThreadsActivity of the real
     * workers, or null. */
    playback: null,
    /** The shown run's report (rows, hash, timings), once the simulator has finished it. */
    report: null,
    /** The request and position id of the last run (Restart runs it again). */
    lastRequest: null,
    lastPosition: null,
    /** The run whose trace is replayed: batches of other runs are dropped. */
    runId: 0,
    /** Runs finished since the page loaded. */
    runs: 0,
    /** Whether the replay plays (not paused). */
    running: false,
    /** Whether the Lab tab is shown: the animation runs only then. */
    visible: false,
    /** Whether a paper's preset is running (its rows gather in one table). */
    reproducing: false,
    /** The rows of the results table, as shown and exported. */
    tableRows: [],
    /** The position on the Lab's board (the selected processor's node), or null. */
    boardFen: null,
    /** Frames drawn per second, and when the charts were last redrawn. */
    fps: { frames: 0, since: 0, value: 0 },
    lastChart: 0,
    lastFrame: 0,
    /** The utilisation charts of the run, once the tab was first shown. */
    charts: null,
    /** The sweep over p after a run: its charts, points, run in flight, state, and a
     * token that cancels it. */
    sweepCharts: null,
    sweepPoints: [],
    sweepToken: 0,
    sweepRun: null,
    sweepState: 'idle',
    /** The scaling curve: its chart, its table rows, its run in flight, its state and a
     * token that cancels it. */
    scaling: null,
    scalingRows: [],
    scalingRun: null,
    scalingState: 'idle',
    scalingToken: 0,
    /** The latency lecture's break-even chart (breakEven.js): its chart, points, state
     * (idle, running, done), sentences, and a token that cancels it. */
    breakEven: null,
    breakEvenPoints: [],
    breakEvenState: 'idle',
    breakEvenText: '',
    breakEvenToken: 0,
    /** The lecture in progress (a Lecture), or null. */
    lecture: null,
    /** The real threads view, or null: its search (an engine job), whether that ended,
     * and the drawing of its workers (a promise, made at their first report). */
    threads: null,
    /** The running measurement on this device (a DeviceSpeedup), or null. */
    device: null,
  };
}

/** What the Lab shows now, for tests (window.__lab.snapshot()). */
export function snapshot(lab) {
  const pb = lab.playback;
  return {
    status: lab.root.dataset.status,
    statusText: lab.el.status.textContent,
    running: lab.running,
    runs: lab.runs,
    drawn: { ...lab.view.lastFrame },
    fps: lab.fps.value,
    clock: pb?.clock ?? 0,
    source: lab.root.dataset.source ?? 'simulator',
    cursor: pb instanceof Playback ? pb.applied : 0,
    events: pb instanceof Playback ? pb.arrived : 0,
    held: pb instanceof Playback ? pb.events.length : 0,
    complete: pb?.complete ?? false,
    totals: pb?.totals() ?? null,
    report: lab.report && { hash: lab.report.hash, events: lab.report.events, rows: lab.report.rows, simulationMs: lab.report.simulationMs, wallMs: lab.report.wallMs, elapsedNs: lab.report.elapsedNs, memoryMiB: lab.report.memoryMiB },
    treeNotice: lab.treeView.lastFrame?.notice ?? null,
    tree: pb?.tree ? { ...pb.tree.summary(), firstPly: pb.tree.root?.children.map((n) => n.san) ?? [], drawn: { ...lab.treeView.lastFrame } } : null,
    nextCode: pb instanceof Playback && !pb.atEnd ? pb.events.code[pb.cursor] : null,
    selected: lab.view.selected,
    boardFen: lab.boardFen,
    nodeText: lab.el.nodeText.textContent,
    table: lab.tableRows,
    lecture: lab.lecture?.snapshot() ?? null,
    scaling: { state: lab.scalingState, curves: lab.scaling?.plotted() ?? {}, counts: lab.scaling?.counts ?? [], rows: lab.scalingRows },
    breakEven: { state: lab.breakEvenState, points: lab.breakEvenPoints, text: lab.breakEvenText },
    kindCounts: pb instanceof Playback ? Object.fromEntries(pb.kinds.map((k, i) => [k, pb.kindCounts[i]])) : null,
    presenting: document.body.classList.contains('lab-presenting'),
    sweep: { state: lab.sweepState, points: lab.sweepPoints, fit: lab.sweepCharts?.fit ?? null, plotted: lab.sweepCharts?.plotted() ?? null },
  };
}
