// The Class view's HTML, filled in once (classView.js). The section's `data-role` (none,
// lecturer, student) shows one side's parts; the parts are found by class name.
import { KIND_COLORS, STATE_COLORS } from './classMap.js';
import { REPLAY_SPEEDS } from './classReplay.js';

/** The algorithms a class can run: the message-passing programs of the cluster machine. */
export const CLASS_ALGORITHMS = [
  ['ybwc', 'YBWC (Zugzwang)'],
  ['ybwc-all', 'YBWC-ALL (hybrid with DTS\'s ALL-node rule)'],
  ['jamboree', 'Jamboree (StarTech)'],
  ['pvsplit', 'PV-splitting (Marsland)'],
  ['aphid', 'APHID (asynchronous, Brockington)'],
];
/** Shown but not offered, with why (crate/parallel `Algorithm::needs_shared_memory`). */
const SHARED_MEMORY_ONLY = [['dts', 'DTS (Cray Blitz): needs shared memory', "Cray Blitz's processors read each other's tree state in shared memory; a class's tabs share none"]];
export const MAX_DEPTH = 20;
/** The virtual networks the relay routes a search's frames by (crate/net `Kind::name`, the
 * relay's `start` request): each frame waits the relay's --delay-ms once per hop, and the map
 * draws the class as the Lab draws that network. '' is none: every frame one hop. */
export const CLASS_NETWORKS = [
  ['', 'none (one hop each)'],
  ['debruijn', 'DeBruijn (Zugzwang)'],
  ['hypercube', 'hypercube'],
  ['fattree', 'fat tree (CM-5)'],
  ['bus', 'bus'],
  ['ring', 'ring'],
  ['full', 'full'],
];
/** The networks that exist on a power of two processors only (crate/net `Kind::check`). */
export const POWER_OF_TWO_NETWORKS = ['debruijn', 'hypercube'];

/** The HTML. Its fields are named `class-…`: the page has an Algorithm and a Depth elsewhere. */
export function classHtml() {
  return `
    <div class="class-grid">
      <div class="class-left">
        <section class="panel class-intro" aria-label="Start a class">
          <h2>Class</h2>
          <p>Turn a lecture's class into a parallel computer: every student who opens your link becomes one processor of the search you start, its messages carried by the class's relay.</p>
          <button type="button" class="primary" data-class="create">Create a class</button>
          <details class="class-relay">
            <summary>Relay</summary>
            <label>WebSocket address <input name="class-relay" autocomplete="off" spellcheck="false" /></label>
          </details>
        </section>
        <section class="panel class-invite lecturer-only" aria-label="Invite the students">
          <h3>Students join here</h3>
          <canvas class="class-qr" title="Click to enlarge" aria-label="QR code of the join link"></canvas>
          <p><a class="class-link" target="_blank" rel="noopener"></a></p>
          <div class="button-row">
            <button type="button" data-class="copy-link">Copy link</button>
            <button type="button" data-class="leave">End the class</button>
          </div>
        </section>
        <section class="panel class-members-panel lecturer-only" aria-label="Who has joined">
          <h3>Joined <span class="class-member-count"></span></h3>
          <ul class="class-members"></ul>
        </section>
        <form class="panel class-form lecturer-only" aria-label="The search">
          <label>Algorithm <select name="class-algorithm">${CLASS_ALGORITHMS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}${SHARED_MEMORY_ONLY.map(([v, t, why]) => `<option value="${v}" disabled title="${why}">${t}</option>`).join('')}</select></label>
          <label>Depth <input name="class-depth" type="number" min="1" max="${MAX_DEPTH}" step="1" value="6" inputmode="numeric" /></label>
          <label class="wide" title="The relay delays each frame once per hop of its route on this network, and the map draws the class as the Lab draws it">Network <select name="class-network">${CLASS_NETWORKS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
          <label class="wide">Position (FEN) <textarea name="class-fen" rows="3" placeholder="the start position" autocomplete="off" spellcheck="false"></textarea></label>
          <label class="check wide" title="No TT cutoffs, null move or reductions: every algorithm must return exactly the serial minimax value"><input name="class-pure" type="checkbox" /> Pure (exact minimax value)</label>
          <label class="check wide" title="Give away any subtree deep enough, as the papers' machines did. Unticked, processor 0 measures the relay's round trip and gives away only jobs expected to take four round trips or more: a short search then stays on the lecturer's tab"><input name="class-papers-split" type="checkbox" /> Split as the papers do (small jobs, whatever the round trip)</label>
          <button type="submit" class="primary wide" data-class="start" disabled>Start</button>
        </form>
        <section class="panel class-prediction lecturer-only" aria-label="Which algorithm: predicted and measured speedup">
          <h3>Speedup over one tab</h3>
          <table>
            <thead><tr><th>Algorithm</th><th title="The classroom model's T(1)/T(p) for this class, position and depth">Predicted</th><th title="The last search: this tab's time alone over the class's">Measured</th></tr></thead>
            <tbody></tbody>
          </table>
          <p class="class-prediction-about"></p>
          <p class="class-measured"></p>
        </section>
      </div>
      <div class="class-stage">
        <h2 class="class-heading student-only" aria-live="polite"></h2>
        <p class="class-status" role="status"></p>
        <p class="class-error" role="alert" hidden></p>
        <output class="class-info lecturer-only" aria-label="The search's progress"></output>
        <output class="class-result lecturer-only" aria-label="The search's result"></output>
        <div class="class-student-board student-only">
          <div class="class-board board" aria-label="The searched position"></div>
        </div>
        <p class="class-own-nodes student-only"></p>
        <div class="button-row student-only">
          <button type="button" data-class="leave">Leave the class</button>
        </div>
        <canvas class="class-map lecturer-only" aria-label="The class: processors and the frames between them"></canvas>
        <div class="class-replay lecturer-only" aria-label="Replay of the last search" hidden>
          <button type="button" data-class="replay">Replay</button>
          <input name="class-replay-at" type="range" min="0" max="1" step="1" value="0" aria-label="The moment shown" />
          <label>Speed <select name="class-replay-speed">${REPLAY_SPEEDS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
          <output class="class-replay-count"></output>
          <button type="button" data-class="export-trace" title="The kept trace of the last search, and the processors' states, as JSON">Export trace</button>
        </div>
        <div class="class-legend lecturer-only">${legendHtml()}</div>
        <table class="class-processors lecturer-only" aria-label="Processors">
          <thead><tr><th>Processor</th><th>Who</th><th>Nodes</th><th>State</th><th title="The first plies of the line each processor is on: the top of the tree it searches">Line</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
      <div class="class-side lecturer-only">
        <div class="class-lecturer-board board" aria-label="The searched position"></div>
      </div>
    </div>`;
}

/** The map's key: the processors' colours and the frames'. */
function legendHtml() {
  const states = Object.entries({ busy: 'busy', waiting: 'waiting for work', lost: 'lost', idle: 'no search' })
    .map(([key, text]) => `<span><i style="background:${STATE_COLORS[key]}"></i>${text}</span>`)
    .join('');
  const kinds = [
    ['program', 'work, results, bounds'],
    ['table-request', 'table'],
    ['start', 'start, finished'],
    ['done', 'done'],
  ]
    .map(([kind, text]) => `<span><b style="border-color:${KIND_COLORS[kind]}"></b>${text}</span>`)
    .join('');
  return `<div>${states}</div><div>Frames the relay delivers: ${kinds}</div><div>On a network, drawn as the Lab draws it: a frame's dot runs along its route's hops, the links it crosses white.</div>`;
}
