// The vertical evaluation bar beside the board: White's share grows from the bottom
// (from the top when the board is flipped).
import { formatScore, whiteWinningChance } from './format.js';

export class EvalBar {
  constructor(el) {
    this.el = el;
    el.innerHTML = '<div class="eval-white"></div><div class="eval-text"></div>';
    this.white = el.querySelector('.eval-white');
    this.text = el.querySelector('.eval-text');
  }

  /** @param {{cp?: number, mate?: number} | null} score White's view; null clears the bar */
  show(score, orientation) {
    this.el.classList.toggle('flipped', orientation === 'black');
    const share = score ? whiteWinningChance(score) : 0.5;
    this.white.style.height = `${(share * 100).toFixed(1)}%`;
    this.text.textContent = score ? formatScore(score) : '';
    this.el.title = score ? `Evaluation ${formatScore(score)} (White's view)` : 'No evaluation yet';
  }

  setVisible(visible) {
    this.el.hidden = !visible;
  }
}
