// The move list: numbered pairs in SAN, the current ply highlighted, a click or the
// keyboard (← → one move, ↑/Home start, ↓/End last move) moves through the game.

export class MoveList {
  /**
   * @param {HTMLElement} el
   * @param {(ply: number) => void} onGoTo  the user asked to show the position after `ply` moves
   */
  constructor(el, onGoTo) {
    this.el = el;
    this.onGoTo = onGoTo;
    this.cursor = 0;
    this.length = 0;
    el.addEventListener('click', (e) => {
      const ply = e.target.closest('[data-ply]')?.dataset.ply;
      if (ply !== undefined) onGoTo(Number(ply));
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  /** Redraws from the game record. */
  render(game) {
    this.cursor = game.cursor;
    this.length = game.moves.length;
    const blackFirst = game.turnAt(0) === 'black';
    const firstNumber = Number(game.startFen.split(' ')[5]) || 1;
    const cells = [];
    if (blackFirst) cells.push(`<span class="num">${firstNumber}.</span><span class="move empty">…</span>`);
    game.moves.forEach((m, i) => {
      const ply = i + 1;
      const white = (i + (blackFirst ? 1 : 0)) % 2 === 0;
      if (white) cells.push(`<span class="num">${firstNumber + Math.floor((i + (blackFirst ? 1 : 0)) / 2)}.</span>`);
      cells.push(`<span class="move${ply === game.cursor ? ' current' : ''}" data-ply="${ply}" role="button">${m.san}</span>`);
    });
    if (game.end) cells.push(`<div class="result">${game.end.result} <span>(${game.end.reason})</span></div>`);
    this.el.innerHTML = cells.join('') || '<div class="empty-list">No moves yet</div>';
    const current = this.el.querySelector('.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
    else if (game.cursor === 0) this.el.scrollTop = 0;
  }

  key(e) {
    if (e.target.closest?.('input, textarea, select, [contenteditable]') || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = {
      ArrowLeft: this.cursor - 1,
      ArrowRight: this.cursor + 1,
      ArrowUp: 0,
      Home: 0,
      ArrowDown: this.length,
      End: this.length,
    }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    this.onGoTo(target);
  }
}
