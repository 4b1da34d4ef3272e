// What the selected processor is doing: its subtree in words, its current node on the
// Lab's board (for a real worker, the first plies of its line).
import { Chess } from 'chess.js';
import { ThreadsActivity } from './threadsActivity.js';

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const Inspect = {
  /** Processor `p`'s current subtree in words: its innermost open node (or the last it
   * entered); for a real worker, the line it is on. */
  subtreeText(p) {
    if (this.playback instanceof ThreadsActivity) {
      const line = this.playback.line(p);
      if (!line) return 'on no single line now: idle, or (TDSAB) working through a queue of nodes';
      return `on ${line.san.length ? line.san.join(' ') : 'the root'}${line.san.length < 4 ? '' : ' …'}`;
    }
    const node = this.playback?.tree?.current(p);
    if (!node) return this.playback?.tree ? 'no node of the top plies yet' : '';
    const path = node.san.length ? node.san.join(' ') : 'root';
    return `${node.open ? 'at' : 'last at'} ${path} · window [${node.alpha}, ${node.beta}] · depth ${node.depth} · ${node.type.toUpperCase()}`;
  },

  /** Selects processor `p` (or none): outlined in the network, its nodes highlighted in
   * the tree, its current node on the board. */
  select(p) {
    this.view.selected = p;
    this.treeView.highlight = p;
    this.showNode(p);
  },

  /** Shows processor `p`'s current node on the Lab's board. */
  showNode(p) {
    if (p !== null && this.playback instanceof ThreadsActivity) return this.showWorkerLine(p);
    const node = p === null ? null : this.playback?.tree?.current(p);
    if (!node?.fen) {
      // The real threads' search (its job, or the activity drawn once it ended).
      const realThreads = this.threads?.job ?? (this.playback instanceof ThreadsActivity ? this.playback : null);
      this.el.nodeText.textContent = realThreads
        ? 'The searched position. Click a worker to see the line it is on.'
        : p === null
          ? 'The searched position. Click a processor to see its current node.'
          : `P${p} has not entered a node of the top plies yet.`;
      const fen = realThreads ? realThreads.fen : this.lastRequest?.fen;
      if (fen) this.showBoard(fen);
      return;
    }
    const last = node.path[node.path.length - 1];
    this.showBoard(node.fen, last ? [last.slice(0, 2), last.slice(2, 4)] : undefined);
    this.el.nodeText.textContent = `P${p}: ${this.subtreeText(p)}`;
  },

  /** Puts `fen` on the Lab's board (`lastMove` marked), unless it is there already. */
  showBoard(fen, lastMove) {
    if (this.boardFen === fen) return;
    this.board.show(new Chess(fen), { movable: null, lastMove });
    this.boardFen = fen;
  },

  /** Shows where real worker `p` is: the position at the end of its line's first plies. */
  showWorkerLine(p) {
    const pb = this.playback;
    const line = pb.line(p);
    const fen = line?.fen ?? pb.fen;
    this.el.nodeText.textContent = line ? `P${p} ${this.subtreeText(p)} (the first plies of its line, sampled every quarter second).` : `P${p} is ${this.subtreeText(p)}.`;
    this.showBoard(fen, line?.lastMove);
  },
};
