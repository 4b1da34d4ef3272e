// The Lab view: a simulated parallel machine searching a real position, replayed from the
// simulator's trace. This file wires it together around one state (state.js): it makes the
// page (template.js), the views and the clients, puts the state on the Lab, and gives the
// Lab its parts' methods, each part one job:
//   experiment.js   the form, a run and its trace, a paper's preset, the status lines
//   animation.js    the frame loop: replay, drawing, charts, readout; pause and step
//   input.js        the buttons, the pointer, the keyboard, full screen
//   inspect.js      the selected processor's subtree and node on the board
//   sweep.js        the background sweep over p and the scaling curve
//   lectureMode.js  a lecture: its run, its stops, its keys
//   onDevice.js     the Play engine's real workers: drawn, and measured on this device
// A part calls another through the Lab (`this.run()`, `this.setStatus()`); main.js uses
// only `show`, `followLink` and `receiveEngineEvent`.
import './lab.css';
import { Board } from '../board.js';
import { Animation } from './animation.js';
import { LabControls } from './controls.js';
import { Experiment } from './experiment.js';
import { Input } from './input.js';
import { Inspect } from './inspect.js';
import { LabClient } from './labClient.js';
import { LectureMode } from './lectureMode.js';
import { NetworkView } from './networkView.js';
import { OnDevice } from './onDevice.js';
import { ResultsTable } from './resultsTable.js';
import { initialState, snapshot } from './state.js';
import { Sweep } from './sweep.js';
import { labHtml } from './template.js';
import { TreeView } from './treeView.js';

export class Lab {
  /**
   * @param {{ root: HTMLElement, currentFen: () => string, engine: import('../engineClient.js').EngineClient, maxThreads: number }} options
   *   maxThreads: the engine's web workers (1 if the page is not cross-origin isolated)
   */
  constructor({ root, currentFen, engine, maxThreads }) {
    Object.assign(this, initialState());
    this.root = root;
    this.engine = engine;
    this.maxThreads = maxThreads;
    root.innerHTML = labHtml();
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      status: $('.lab-status'), notice: $('.lab-notice'), lecture: $('.lab-lecture'), result: $('.lab-result'), readout: $('.lab-readout'), tooltip: $('.lab-tooltip'), canvas: $('.lab-canvas'), speed: $('[name="speed"]'), explain: $('.lab-explain'), legend: $('.lab-legend'),
      tree: $('.lab-tree'), treeTooltip: $('.lab-tree-tooltip'), treeLegend: $('.lab-tree-legend'), nodeText: $('.lab-node-text'),
    };
    this.controls = new LabControls($('.lab-controls'), { currentFen, onChange: () => this.formChanged() });
    this.view = new NetworkView(this.el.canvas);
    this.treeView = new TreeView(this.el.tree);
    this.board = new Board($('.lab-board'), { onMove: () => {}, onCancel: () => {} });
    this.table = new ResultsTable($('.lab-table'));
    this.client = new LabClient({ onTrace: (id, text) => this.receiveTrace(id, text) });
    this.wireButtons();
    this.wireCanvas();
    this.wireTree();
    document.addEventListener('keydown', (e) => this.key(e));
    // A lecture's keys come first (capture): ← and F mean something else on the Play board.
    document.addEventListener('keydown', (e) => this.lectureKey(e), true);
    window.__lab = {
      snapshot: () => snapshot(this),
      /** Where processor `p` is drawn (CSS pixels in the network canvas). */
      processorPoint: (p) => this.view.processorPoint(p),
      /** Processor `p`'s current node of the tree (see SearchTree.current). */
      current: (p) => this.playback?.tree?.current(p) ?? null,
      /** Event codes `from..from + count` of the run (eventColumns.js EV), of those still held. */
      codes: (from, count) => {
        const events = this.playback?.events;
        if (!events) return [];
        const start = Math.max(0, from - events.offset);
        return Array.from(events.code.subarray(start, Math.max(start, from + count - events.offset)));
      },
    };
    this.setStatus('loading', 'Loading the simulator…');
  }
}

// Each part's methods, on the Lab (a name defined twice would be a mistake: checked here).
for (const part of [Experiment, Animation, Input, Inspect, Sweep, LectureMode, OnDevice]) {
  for (const name of Object.keys(part)) {
    if (name in Lab.prototype) throw new Error(`two Lab parts define ${name}`);
    Lab.prototype[name] = part[name];
  }
}
