// The lecturer's prediction panel: each algorithm of the menu with the classroom model's
// predicted speedup for the class as it is (classPrediction.js computes it), the fastest
// marked, and after a search the measured speedup in the searched algorithm's row, with
// the sentences that say what was simulated and what was measured (classText.js).
import { measuredSpeedup } from './classState.js';
import { measuredText, predictionAbout, searchPredicted, speedupText } from './classText.js';
import { fastest } from './classPrediction.js';

export class PredictionPanel {
  /**
   * @param {HTMLElement} panel  template.js `.class-prediction`
   * @param {[string, string][]} algorithms  the menu's algorithms and names
   */
  constructor(panel, algorithms) {
    this.about = panel.querySelector('.class-prediction-about');
    this.measured = panel.querySelector('.class-measured');
    const body = panel.querySelector('tbody');
    /** per algorithm: its row and its predicted and measured cells */
    this.rows = new Map(
      algorithms.map(([algorithm, name]) => {
        const row = document.createElement('tr');
        row.dataset.algorithm = algorithm;
        const cells = [name, '–', ''].map((text) => Object.assign(document.createElement('td'), { textContent: text }));
        row.append(...cells);
        body.append(row);
        return [algorithm, { row, predicted: cells[1], measured: cells[2] }];
      }),
    );
  }

  render(s) {
    this.about.textContent = predictionAbout(s);
    this.measured.textContent = measuredText(s);
    const rows = s.prediction?.rows ?? [];
    const best = s.prediction?.done ? fastest(rows) : null;
    const measured = measuredSpeedup(s);
    for (const [algorithm, { row, predicted, measured: cell }] of this.rows) {
      const found = rows.find((r) => r.algorithm === algorithm);
      predicted.textContent = found ? speedupText(found.speedup) : '–';
      predicted.title = found?.why ?? '';
      if (found && Number.isFinite(found.speedup)) row.dataset.predicted = String(found.speedup);
      else delete row.dataset.predicted;
      row.classList.toggle('fastest', algorithm === best);
      const searched = measured && s.search?.algorithm === algorithm;
      cell.textContent = searched ? speedupText(measured.speedup) : '';
      if (searched) row.dataset.measured = String(measured.speedup);
      else delete row.dataset.measured;
    }
    // The model's speedup the sentence puts beside the measured one (of the search's own setup).
    const predicted = measured ? searchPredicted(s) : null;
    if (predicted) this.measured.dataset.predicted = String(predicted.speedup);
    else delete this.measured.dataset.predicted;
  }
}
