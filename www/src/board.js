// The board on screen: chessground configured from a chess.js position, plus the
// promotion chooser chessground leaves to its host. It knows nothing of play or analysis:
// it shows what it is told and reports the moves the user makes.
import { Chessground } from 'chessground';
import { SQUARES } from 'chess.js';

const PROMOTION_ROLES = [
  ['q', 'queen'],
  ['n', 'knight'],
  ['r', 'rook'],
  ['b', 'bishop'],
];

export class Board {
  /**
   * @param {HTMLElement} el   the element chessground fills
   * @param {object} p
   * @param {(move: {from: string, to: string, promotion?: string}) => void} p.onMove  a legal move the user made
   * @param {() => void} p.onCancel  the user dismissed the promotion chooser; the host redraws the position
   */
  constructor(el, { onMove, onCancel }) {
    this.el = el;
    this.onMove = onMove;
    this.onCancel = onCancel;
    /** the chess.js position shown, to tell promotions apart */
    this.position = null;
    this.cg = Chessground(el, {
      coordinates: true,
      animation: { enabled: true, duration: 180 },
      movable: { free: false, showDests: true, events: { after: (orig, dest) => this.userMoved(orig, dest) } },
      premovable: { enabled: false },
      draggable: { showGhost: true },
      highlight: { lastMove: true, check: true },
      drawable: { enabled: true, visible: true },
    });
  }

  /**
   * Shows a position.
   * @param {import('chess.js').Chess} chess  the position (its last history move is highlighted)
   * @param {object} p
   * @param {'white'|'black'|'both'|null} p.movable  who may move pieces now (null: nobody)
   * @param {string[]} [p.lastMove]  [from, to] of the move that led here
   */
  show(chess, { movable, lastMove }) {
    this.position = chess;
    this.closePromotion();
    const turn = chess.turn() === 'w' ? 'white' : 'black';
    this.cg.set({
      fen: chess.fen(),
      turnColor: turn,
      check: chess.inCheck() ? turn : false,
      lastMove: lastMove ?? undefined,
      movable: { color: movable ?? undefined, dests: movable ? legalDests(chess) : new Map() },
    });
  }

  /** Arrows drawn by the program (engine lines), kept apart from the user's own drawings. */
  setArrows(shapes) {
    this.cg.setAutoShapes(shapes);
  }

  flip() {
    this.cg.toggleOrientation();
  }

  setOrientation(color) {
    if (this.cg.state.orientation !== color) this.cg.toggleOrientation();
  }

  get orientation() {
    return this.cg.state.orientation;
  }

  userMoved(from, to) {
    const piece = this.position?.get(from);
    if (piece?.type === 'p' && (to[1] === '8' || to[1] === '1')) this.askPromotion(from, to, piece.color === 'w' ? 'white' : 'black');
    else this.onMove({ from, to });
  }

  /** Shows the four pieces over the promotion square's file; a click picks, Escape or a click elsewhere cancels. */
  askPromotion(from, to, color) {
    this.closePromotion();
    const chooser = document.createElement('div');
    chooser.className = 'promotion-chooser';
    chooser.setAttribute('role', 'dialog');
    chooser.setAttribute('aria-label', 'Choose a promotion piece');
    const file = to.charCodeAt(0) - 97;
    const fromTop = (color === 'white') === (this.orientation === 'white');
    const column = this.orientation === 'white' ? file : 7 - file;
    chooser.style.left = `${column * 12.5}%`;
    chooser.style.flexDirection = fromTop ? 'column' : 'column-reverse';
    chooser.style[fromTop ? 'top' : 'bottom'] = '0';
    for (const [letter, role] of PROMOTION_ROLES) {
      const button = document.createElement('button');
      button.type = 'button';
      button.title = role;
      button.dataset.role = letter;
      button.innerHTML = `<piece class="${role} ${color}"></piece>`;
      button.addEventListener('click', (e) => {
        e.stopPropagation();
        this.closePromotion();
        this.onMove({ from, to, promotion: letter });
      });
      chooser.append(button);
    }
    const cancel = (e) => {
      if (e.type === 'keydown' && e.key !== 'Escape') return;
      if (e.type === 'pointerdown' && chooser.contains(e.target)) return;
      this.closePromotion();
      this.onCancel();
    };
    document.addEventListener('keydown', cancel);
    document.addEventListener('pointerdown', cancel, true);
    this.promotion = { chooser, cancel };
    this.el.append(chooser);
    chooser.querySelector('button').focus();
  }

  closePromotion() {
    if (!this.promotion) return;
    this.promotion.chooser.remove();
    document.removeEventListener('keydown', this.promotion.cancel);
    document.removeEventListener('pointerdown', this.promotion.cancel, true);
    this.promotion = null;
  }
}

/** chessground's legal destinations from chess.js: square -> squares. */
function legalDests(chess) {
  const dests = new Map();
  for (const square of SQUARES) {
    const moves = chess.moves({ square, verbose: true });
    if (moves.length) dests.set(square, [...new Set(moves.map((m) => m.to))]);
  }
  return dests;
}
