// The lecturer's table of the search's processors: who each is, its nodes, its state and
// the line it is on. It is redrawn some ten times a second during a search, so each row is
// kept and only the cells that changed are written, and a line is turned into SAN only
// when that row's line changed.
import { lineToSan } from '../game.js';
import { formatNodes } from './classFormat.js';

/** A row's state as its cell says it (the row's `data-state` is the key). */
const STATE_TEXT = { busy: 'busy', waiting: 'waiting', done: 'done', 'no-work': 'got no work', lost: 'lost' };

export class ProcessorTable {
  /** @param {HTMLTableSectionElement} body  the table's tbody */
  constructor(body) {
    this.body = body;
    /** per processor: {row, cells, shown: the row and the fen its cells show} */
    this.rows = [];
  }

  /**
   * Shows `rows` (classState.js `processorRows`), lines in SAN from `fen`.
   * @param {{processor: number, who: string, nodes: number, state: string, line: string|null}[]} rows
   */
  render(rows, fen) {
    while (this.rows.length > rows.length) this.rows.pop().row.remove();
    while (this.rows.length < rows.length) this.rows.push(this.addRow(this.rows.length));
    rows.forEach((r, i) => this.update(this.rows[i], r, fen));
  }

  addRow(processor) {
    const row = document.createElement('tr');
    row.dataset.processor = String(processor);
    const cells = Array.from({ length: 5 }, () => row.appendChild(document.createElement('td')));
    cells[0].textContent = String(processor);
    this.body.append(row);
    return { row, cells, shown: {} };
  }

  update(kept, r, fen) {
    const { row, cells, shown } = kept;
    if (shown.state !== r.state) {
      row.dataset.state = r.state;
      cells[3].textContent = STATE_TEXT[r.state] ?? r.state;
    }
    if (shown.who !== r.who) cells[1].textContent = r.who;
    if (shown.nodes !== r.nodes) {
      cells[2].textContent = formatNodes(r.nodes);
      cells[2].dataset.nodes = String(r.nodes);
    }
    if (shown.line !== r.line || shown.fen !== fen) {
      if (r.line === null) delete cells[4].dataset.line;
      else cells[4].dataset.line = r.line;
      cells[4].textContent = lineText(fen, r.line);
    }
    kept.shown = { ...r, fen };
  }
}

/** A processor's line as the table shows it: SAN from the search's position ("root" for
 * the root itself, "" for none). */
function lineText(fen, line) {
  if (line === null || !fen) return '';
  if (line === '') return 'root';
  return lineToSan(fen, line.split(' ')).join(' ');
}
