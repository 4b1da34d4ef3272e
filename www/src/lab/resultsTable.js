// The measured table after a run, in the shape of Zugzwang's Figure 5: per position and
// machine size, N (nodes), T (virtual time to the result), LD (load), SO (search overhead)
// and SPE (speedup), each p-processor row measured against the same position at p = 1.

export const COLUMNS = ['position', 'algorithm', 'p', 'N', 'T (virtual ms)', 'LD', 'SO', 'SPE'];

/** One report row (from the Lab worker) as table cells. */
export function rowCells(position, row) {
  return [position, row.algorithm, row.processors, row.nodes, (row.timeNs / 1e6).toFixed(3), row.load.toFixed(3), row.searchOverhead.toFixed(3), row.speedup.toFixed(2)];
}

export class ResultsTable {
  /** @param {HTMLTableElement} table */
  constructor(table) {
    this.table = table;
    this.rows = [];
    this.columns = COLUMNS;
    this.render();
  }

  /** Replaces the rows (arrays of cells, in `columns` order: a preset's table has more). */
  show(rows, columns = COLUMNS) {
    this.rows = rows;
    this.columns = columns;
    this.render();
  }

  render() {
    const columns = this.columns;
    const head = `<thead><tr>${columns.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
    const body = this.rows.map((cells) => `<tr>${cells.map((c) => `<td>${escapeHtml(String(c))}</td>`).join('')}</tr>`).join('');
    this.table.innerHTML = `${head}<tbody>${body || `<tr><td colspan="${columns.length}">Run an experiment to fill the table.</td></tr>`}</tbody>`;
  }
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
