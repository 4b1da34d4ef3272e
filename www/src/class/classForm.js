// The lecturer's start form: algorithm, depth, network, position, Pure, how to split. It reads and
// checks what was entered (`checkStart`, pure, so node tests it) and says whether a search
// can start; the view sends the request.
import { Chess, DEFAULT_POSITION, validateFen } from 'chess.js';
import { canStart } from './classState.js';
import { networkName } from './classText.js';
import { CLASS_ALGORITHMS, CLASS_NETWORKS, MAX_DEPTH, POWER_OF_TWO_NETWORKS } from './template.js';

/**
 * The search the form's `values` ask for, on a class of `processors`, or why it cannot run.
 * @param {{algorithm: string, depth: string|number, fen: string, pure: boolean, network: string, papersSplit?: boolean}} values
 * @returns {{request: {algorithm: string, depth: number, fen: string, pure: boolean, network: string, papersSplit: boolean}} | {error: string}}
 */
export function checkStart(values, processors) {
  const { algorithm, pure, network } = values;
  const depth = Number(values.depth);
  const fen = String(values.fen ?? '').trim() || DEFAULT_POSITION;
  if (!CLASS_ALGORITHMS.some(([a]) => a === algorithm)) return { error: `Unknown algorithm ${algorithm}.` };
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) return { error: `The depth must be a whole number from 1 to ${MAX_DEPTH}.` };
  const check = validateFen(fen);
  if (!check.ok) return { error: `That FEN is not a legal position: ${check.error}` };
  if (new Chess(fen).isGameOver()) return { error: 'The game is over in that position: there is nothing to search.' };
  if (!CLASS_NETWORKS.some(([n]) => n === network)) return { error: `Unknown network ${network}.` };
  // The relay refuses such a start too; said here, before the class waits for it.
  if (POWER_OF_TWO_NETWORKS.includes(network) && (processors & (processors - 1)) !== 0) {
    const missing = 2 ** Math.ceil(Math.log2(processors)) - processors;
    const wait = `wait for ${missing} more student${missing === 1 ? '' : 's'}`;
    return { error: `A ${networkName(network)} network has a power of two processors (1, 2, 4, 8, …); the class has ${processors}. Pick another network, or ${wait}.` };
  }
  return { request: { algorithm, depth, fen, pure: Boolean(pure), network, papersSplit: Boolean(values.papersSplit) } };
}

export class StartForm {
  /**
   * @param {HTMLFormElement} form  template.js `.class-form`
   * @param {{onSubmit: () => void, onInput: () => void}} on  Start pressed; anything typed
   */
  constructor(form, { onSubmit, onInput }) {
    this.form = form;
    this.start = form.querySelector('[data-class="start"]');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      onSubmit();
    });
    form.addEventListener('input', onInput);
    // The position is a text area (a whole FEN on show); Enter still starts, as in a field.
    form.elements['class-fen'].addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
  }

  /** What the form holds now (checkStart reads it). */
  values() {
    const f = this.form.elements;
    return { algorithm: f['class-algorithm'].value, depth: f['class-depth'].value, fen: f['class-fen'].value, pure: f['class-pure'].checked, network: f['class-network'].value, papersSplit: f['class-papers-split'].checked };
  }

  render(state) {
    this.start.disabled = !canStart(state);
    this.start.textContent = state.searching ? 'Searching…' : 'Start';
  }
}
