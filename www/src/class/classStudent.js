// A student's side of the Class view: which processor this tab is (large, to be read from
// across a room), the searched position and its own part in the search.
import { Chess } from 'chess.js';
import { Board } from '../board.js';
import { ownNodesText, studentHeading } from './classText.js';

export class StudentPanel {
  /** @param {HTMLElement} root  the view (template.js) */
  constructor(root) {
    const $ = (selector) => root.querySelector(selector);
    this.root = root;
    this.el = { heading: $('.class-heading'), board: $('.class-student-board'), leave: $('.class-stage [data-class="leave"]'), ownNodes: $('.class-own-nodes') };
    this.board = new Board($('.class-board'), { onMove: () => {}, onCancel: () => {} });
  }

  render(s) {
    this.el.heading.textContent = studentHeading(s);
    this.el.leave.textContent = s.phase === 'closed' ? 'Close' : 'Leave the class';
    if (s.search) {
      this.root.dataset.processor = String(s.search.processor);
      this.root.dataset.processors = String(s.search.processors);
    }
    // The relay's roster does not name the position: the board shows only one the worker sent.
    this.el.board.hidden = !s.search?.fen;
    this.el.ownNodes.textContent = ownNodesText(s);
    const own = s.processors[0];
    if (own) this.el.ownNodes.dataset.nodes = String(own.nodes);
  }

  /** The searched position on the board. */
  showBoard(s) {
    if (!s.search?.fen) return;
    try {
      this.board.show(new Chess(s.search.fen), { movable: null });
    } catch {}
  }
}
