// The Lab's experiment form: algorithm, network, processors, machine preset, table
// placement, search, position, depth, seed. It builds its menus from the simulator's own catalogue and reads back one
// request for the Lab worker, or says what is wrong with the input.
import { SUITES } from './positions.js';

const POWERS_OF_TWO = Array.from({ length: 11 }, (_, i) => 2 ** i);

/** Default experiment: Zugzwang's setting at lecture scale, chosen to show a real speedup in a
 * few seconds: the period's full-width search (whose trees have the young brothers YBWC
 * shares) on BK.06, a small tree, at depth 5. Natively (`meshmate sim --algo ybwc --procs 16
 * --preset t800 --pure --depth 5 --seed 1`) BK.06 reaches SPE 7.78 and the whole
 * Bratko-Kopec suite 7.46; the Lab's test checks the rule (at least half the suite's
 * figure) against the suite measured in the same test run. */
export const DEFAULTS = { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', tt: 'global', search: 'period', position: 'BK.06', depth: 5, seed: 1 };

const option = (value, text = value) => Object.assign(document.createElement('option'), { value, textContent: text });

export class LabControls {
  /**
   * @param {HTMLFormElement} form
   * @param {{ currentFen: () => string, onChange: () => void }} callbacks
   */
  constructor(form, { currentFen, onChange }) {
    this.form = form;
    this.currentFen = currentFen;
    form.innerHTML = `
      <label>Algorithm <select name="algorithm"></select></label>
      <label>Network <select name="net"></select></label>
      <label>Processors <input name="processors" type="number" min="1" max="1024" step="1" list="lab-processor-counts" inputmode="numeric" /></label>
      <datalist id="lab-processor-counts">${POWERS_OF_TWO.map((n) => `<option value="${n}"></option>`).join('')}</datalist>
      <label>Machine <select name="preset"></select></label>
      <label>Table <select name="tt" title="Where the transposition table lives: shared, one per processor, split among the processors (Zugzwang), or at TDSAB's home processors"></select></label>
      <label>Search <select name="search" title="Modern: this engine's selective search (null move, reductions, pruning). Period: full width, as the papers' programs searched — far bigger trees, far more to share">
        <option value="modern">modern</option><option value="period">period (full width)</option></select></label>
      <label class="wide">Position <select name="position"></select></label>
      <label>Depth <input name="depth" type="number" min="1" step="1" /></label>
      <label title="Draws the random work requests and each step's node time: another seed, another timing, and often another tree">Seed <input name="seed" type="number" min="0" step="1" /></label>`;
    form.addEventListener('change', () => onChange());
    form.addEventListener('submit', (e) => e.preventDefault());
  }

  /** Fills the menus from the simulator's catalogue and sets the defaults. */
  populate(catalogue) {
    const { elements } = this.form;
    elements.algorithm.replaceChildren(...catalogue.algorithms.map((a) => option(a)));
    elements.net.replaceChildren(...catalogue.nets.map((n) => option(n)));
    elements.preset.replaceChildren(...catalogue.presets.map((p) => option(p.name, `${p.name} — ${p.title}`)));
    elements.tt.replaceChildren(...catalogue.ttModes.map((m) => option(m)));
    const groups = SUITES.map((suite) => {
      const group = Object.assign(document.createElement('optgroup'), { label: suite.name });
      group.append(...suite.positions.map((p) => option(p.id)));
      return group;
    });
    elements.position.replaceChildren(option('board', 'The current board'), ...groups);
    elements.depth.max = String(catalogue.maxDepth);
    this.set(DEFAULTS);
  }

  /** Sets some fields (the names of DEFAULTS). */
  set(values) {
    for (const [name, value] of Object.entries(values)) this.form.elements[name].value = String(value);
  }

  /** The form's fields as they are (the names of DEFAULTS), for the page's address. */
  values() {
    return Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, this.form.elements[name].value]));
  }

  /** The form's values, checked: `{ request }` for the worker, or `{ error }`. */
  read() {
    const { elements } = this.form;
    const processors = Number(elements.processors.value);
    if (!Number.isInteger(processors) || processors < 1 || processors > 1024) return { error: 'Processors must be a whole number from 1 to 1024.' };
    const depth = Number(elements.depth.value);
    const maxDepth = Number(elements.depth.max);
    if (!Number.isInteger(depth) || depth < 1 || depth > maxDepth) return { error: `Depth must be a whole number from 1 to ${maxDepth}.` };
    const seed = Number(elements.seed.value);
    if (!Number.isSafeInteger(seed) || seed < 0) return { error: 'The seed must be a whole number, 0 or more.' };
    const position = elements.position.value;
    const fen = position === 'board' ? this.currentFen() : SUITES.flatMap((s) => s.positions).find((p) => p.id === position)?.fen;
    if (!fen) return { error: `Unknown position ${position}.` };
    return {
      request: { algorithm: elements.algorithm.value, net: elements.net.value, processors, preset: elements.preset.value, tt: elements.tt.value, pure: elements.search.value === 'period', fen, depth, seed },
      position,
    };
  }
}
