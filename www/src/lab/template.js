// The Lab's page: its form, buttons, views, charts and tables as HTML, filled in once (lab.js).
// The parts find their elements in it by class and `data-lab` name.
import { SPEEDS } from './animation.js';
import { LECTURES } from './lectures.js';
import { PRESETS } from './reproduce.js';

/** The button of a "reproduce a paper" preset (Zugzwang's keeps its first name). */
export const presetButton = (preset) => (preset.id === 'zugzwang' ? 'reproduce' : `reproduce-${preset.id}`);

/** The Lab's HTML. */
export function labHtml() {
  return `
    <div class="lab-grid">
      <div class="lab-left">
        <form class="lab-controls panel" aria-label="Experiment"></form>
        <div class="button-row lab-presets" aria-label="Reproduce a paper (browser scale)">
          ${PRESETS.map((p) => `<button type="button" data-lab="${presetButton(p)}" title="${p.title}">Reproduce ${p.button}</button>`).join('')}
        </div>
        <section class="panel lab-lectures" aria-label="Lectures"><h3>Lectures</h3>
          ${LECTURES.map((l) => `<button type="button" data-lecture="${l.id}">${l.title}</button>`).join('')}
        </section>
        <section class="panel lab-explain" aria-label="How the algorithm works"><h3></h3><p></p></section>
      </div>
      <div class="lab-stage">
        <div class="lab-toolbar">
          <button type="button" class="primary" data-lab="run">Run</button>
          <button type="button" data-lab="pause" aria-pressed="false" title="Pause or resume (space)">Pause</button>
          <button type="button" data-lab="step" title="Apply one event (→)">Step</button>
          <button type="button" data-lab="step-node" title="Go on to the next node a processor enters (Shift+→)">Step node</button>
          <button type="button" data-lab="restart" title="Run again with the same seed">Restart</button>
          <label>Speed <select name="speed">${SPEEDS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
          <button type="button" data-lab="present" aria-pressed="false" title="Large type, high contrast">Presentation</button>
          <button type="button" data-lab="threads" aria-pressed="false" title="The Play engine's web workers searching this position with this algorithm">Real threads</button>
          <button type="button" data-lab="measure" aria-pressed="false" title="Time-to-depth speedup of this algorithm on this device's web workers against the serial search, at this position">Measure on this device</button>
          <button type="button" data-lab="copy-link" title="Copy a link that opens this experiment (the address bar holds it too)">Copy link</button>
        </div>
        <p class="lab-notice" role="alert" hidden></p>
        <p class="lab-status" role="status"></p>
        <output class="lab-result" aria-label="The run's result"></output>
        <section class="lab-lecture" aria-label="Lecture" aria-live="polite" tabindex="-1" hidden><h3></h3><p class="lab-lecture-text"></p><p class="lab-lecture-keys"></p></section>
        <div class="lab-views">
          <div class="lab-canvas-box">
            <canvas class="lab-canvas" aria-label="The simulated network"></canvas>
            <div class="lab-tooltip" hidden></div>
          </div>
          <div class="lab-tree-box">
            <canvas class="lab-tree" aria-label="The top of the search tree"></canvas>
            <div class="lab-tree-tooltip" hidden></div>
            <div class="lab-node">
              <div class="lab-board board" aria-label="The selected processor's node"></div>
              <p class="lab-node-text">Click a processor to see its current node.</p>
            </div>
          </div>
        </div>
        <div class="lab-legend"></div>
        <div class="lab-tree-legend"></div>
        <p class="lab-readout"></p>
        <table class="lab-table"></table>
        <div class="button-row lab-exports">
          <button type="button" data-lab="export-trace" disabled>Trace (JSONL)</button>
          <button type="button" data-lab="export-csv" disabled>Table (CSV)</button>
          <button type="button" data-lab="export-png">Picture (PNG)</button>
        </div>
      </div>
      <div class="lab-side">
        <div class="lab-charts"></div>
        <section class="panel lab-break-even" aria-label="Break-even chart" hidden>
          <h3>Break-even: the class against one laptop</h3>
          <p class="lab-break-even-help">SPE against T(1), the seconds one processor takes, one point per depth; colour: the algorithm; dash: the preset (solid no delay, long dashes 10 ms, short 50 ms). Simulated without replay.</p>
          <progress class="lab-break-even-progress" max="1" value="0"></progress>
          <p class="lab-break-even-status" role="status"></p>
          <div class="lab-charts lab-break-even-chart"></div>
        </section>
        <section class="panel lab-scaling" aria-label="Scaling curve">
          <h3>Scaling curve</h3>
          <p class="lab-scaling-help">SPE against p = 1, 2, 4, … up to the form's processors, for each algorithm ticked, on the form's machine and position (simulated without replay).</p>
          <div class="lab-scaling-algorithms"></div>
          <div class="button-row">
            <button type="button" data-lab="scaling">Draw the curve</button>
            <button type="button" data-lab="scaling-png" disabled>Curve (PNG)</button>
            <button type="button" data-lab="scaling-csv" disabled>Curve (CSV)</button>
          </div>
          <progress class="lab-scaling-progress" max="1" value="0" hidden></progress>
          <p class="lab-scaling-status" role="status"></p>
          <div class="lab-charts lab-scaling-chart"></div>
        </section>
        <p class="lab-sweep-status" role="status"></p>
        <div class="lab-charts lab-sweep"></div>
      </div>
    </div>`;
}
