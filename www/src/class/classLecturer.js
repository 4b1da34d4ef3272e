// The lecturer's side of the Class view, beside its form, invitation, table and map: who
// has joined, the running search's progress, the result, and the searched position with
// the best move on a board.
import { Chess } from 'chess.js';
import { Board } from '../board.js';
import { formatMs, formatNodes, readScore, uciScoreText, whiteScoreText } from './classFormat.js';
import { progressText } from './classText.js';

export class LecturerPanel {
  /** @param {HTMLElement} root  the view (template.js) */
  constructor(root) {
    const $ = (selector) => root.querySelector(selector);
    this.el = { members: $('.class-members'), memberCount: $('.class-member-count'), info: $('.class-info'), result: $('.class-result') };
    this.board = new Board($('.class-lecturer-board'), { onMove: () => {}, onCancel: () => {} });
    /** what the members list shows, so it is rebuilt only when that changes */
    this.membersShown = '';
    /** the result shown (the state's object: a new result is a new object) */
    this.resultShown = undefined;
  }

  render(s) {
    this.renderMembers(s);
    this.el.info.textContent = progressText(s);
    this.renderResult(s.result);
  }

  renderMembers(s) {
    const inSearch = new Set(s.searching && s.search ? s.search.members : []);
    const waiting = (m) => Boolean(s.searching && s.search && !inSearch.has(m));
    const shown = JSON.stringify(s.members.map((m) => [m, waiting(m)]));
    if (shown === this.membersShown) return;
    this.membersShown = shown;
    const students = s.members.filter((m) => m !== 0).length;
    this.el.memberCount.textContent = `(${students} student${students === 1 ? '' : 's'})`;
    this.el.members.replaceChildren(
      ...s.members.map((m) => {
        const item = document.createElement('li');
        item.dataset.member = String(m);
        item.textContent = m === 0 ? 'You (member 0)' : `Member ${m}`;
        if (waiting(m)) {
          item.classList.add('waiting');
          item.append(Object.assign(document.createElement('span'), { textContent: ' · next search' }));
        }
        return item;
      }),
    );
  }

  renderResult(result) {
    if (result === this.resultShown) return;
    this.resultShown = result;
    const el = this.el.result;
    if (!result) {
      el.textContent = '';
      delete el.dataset.score;
      delete el.dataset.bestmove;
      return;
    }
    const score = readScore(result.score);
    el.dataset.score = uciScoreText(score);
    el.dataset.bestmove = result.bestmove ?? '';
    el.replaceChildren(
      ...[
        ['Best move', `${sanOf(result.fen, result.bestmove)}${result.bestmove ? ` (${result.bestmove})` : ''}`],
        ['Score', `${whiteScoreText(score, result.fen)} (${uciScoreText(score) || '–'})`],
        ['Depth', String(result.depth ?? '–')],
        ['Nodes', formatNodes(result.nodes)],
        ['Time', formatMs(result.ms)],
      ].map(([name, value]) => {
        const item = document.createElement('span');
        item.append(Object.assign(document.createElement('b'), { textContent: `${name} ` }), value);
        return item;
      }),
    );
  }

  /** The searched position on the board, with the best move once there is one (an arrow
   * only on a board on screen: chessground cannot place one on a hidden board). */
  showBoard(s, visible) {
    const fen = s.result?.fen ?? s.search?.fen;
    if (!fen) return;
    try {
      this.board.show(new Chess(fen), { movable: null });
      const move = typeof s.result?.bestmove === 'string' && /^[a-h][1-8][a-h][1-8]/.test(s.result.bestmove) ? s.result.bestmove : null;
      this.board.setArrows(move && visible ? [{ orig: move.slice(0, 2), dest: move.slice(2, 4), brush: 'green' }] : []);
    } catch {}
  }
}

/** The SAN of a UCI move in `fen`, or the UCI text when it cannot be read. */
function sanOf(fen, uci) {
  if (!uci) return 'none';
  try {
    const chess = new Chess(fen);
    return chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] }).san;
  } catch {
    return uci;
  }
}
