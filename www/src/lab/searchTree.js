// The top of the search tree as the trace's node, leave and split events built it up to
// the playback's time: which nodes were entered, by which processor, with what window and
// type, how each ended (value, cutoff, table hit, aborted), where moves were given away.
// Each processor's open nodes are kept too (its "current subtree" for the hover and the
// board). Moves arrive as numbers (crate/wasm/lab.rs `tree_words`) and get their SAN from
// chess.js, played from the run's position.
import { playUciLine } from '../game.js';
import { EV } from './eventColumns.js';

/** Node types by the simulator's index. */
export const NODE_TYPES = ['pv', 'cut', 'all'];
const PROMOTIONS = ['', 'n', 'b', 'r', 'q'];
const MOVE_MASK = 0x7fff;
const SCORE_OFFSET = 2 ** 16;
const WINDOW_SHIFT = 2 ** 17;

/** A square's name from cozy-chess's index (a1 = 0, b1 = 1, ... h8 = 63). */
const squareName = (index) => 'abcdefgh'[index & 7] + ((index >> 3) + 1);

/** One packed move (15 bits: from, to, promotion) as UCI text. */
export function moveUci(packed) {
  return squareName(packed & 63) + squareName((packed >> 6) & 63) + PROMOTIONS[(packed >> 12) & 7];
}

/** The UCI moves of a path from its replay columns (b: moves 0 and 1, c: 2 and 3, length). */
export function decodePath(b, c, length) {
  const words = [b & MOVE_MASK, (b >>> 15) & MOVE_MASK, c & MOVE_MASK, (c >>> 15) & MOVE_MASK];
  return words.slice(0, length).map(moveUci);
}

/** Plays UCI moves from `fen`: the SAN of each and the final position (null if one is illegal). */
function playLine(fen, uciMoves) {
  const line = playUciLine(fen, uciMoves);
  return line.complete ? line : null;
}

export class SearchTree {
  /** @param {string} fen the root position of the run */
  constructor(fen, processors) {
    this.fen = fen;
    /** Root searches seen (processor 0 entering the root starts a new picture). */
    this.iteration = 0;
    /** Bumped on every change, so the view redraws only when something happened. */
    this.version = 0;
    /** Per processor: its open nodes, innermost last ({ key, path, depth, alpha, beta, type }). */
    this.open = Array.from({ length: processors }, () => []);
    /** Per processor: the last node it entered (shown when none is open). */
    this.last = new Array(processors).fill(null);
    this.clear();
  }

  clear() {
    /** The root node, or null before the first node event. */
    this.root = null;
    /** Every node by its path key (UCI moves joined by spaces). */
    this.nodes = new Map();
  }

  /** The node at `path` (UCI moves), created with its ancestors when new. */
  ensure(path) {
    const key = path.join(' ');
    let node = this.nodes.get(key);
    if (node) return node;
    const parent = path.length ? this.ensure(path.slice(0, -1)) : null;
    const uci = path[path.length - 1] ?? null;
    let san = uci;
    let fen = this.fen;
    if (parent) {
      const played = playLine(parent.fen, [uci]);
      if (played) [san, fen] = [played.san[0], played.fen];
    }
    node = { key, path, ply: path.length, uci, san, fen, parent, children: [], owner: null, type: null, depth: 0, alpha: 0, beta: 0, entries: 0, open: 0, state: 'unseen', value: null, cut: false, tt: false, received: false, splits: [] };
    this.nodes.set(key, node);
    if (parent) parent.children.push(node);
    else this.root = node;
    return node;
  }

  /** Applies a node, leave or split event from its replay columns (eventColumns.js). */
  apply(code, p, b, c, e, d) {
    const path = decodePath(b, c, e & 7);
    const flags = e >>> 3;
    if (code === EV.node) {
      const [alpha, beta] = [Math.floor(d / WINDOW_SHIFT) - SCORE_OFFSET, (d % WINDOW_SHIFT) - SCORE_OFFSET];
      this.enter(p, path, { depth: flags & 255, type: NODE_TYPES[(flags >> 8) & 3], received: ((flags >> 10) & 1) === 1, alpha, beta });
    } else if (code === EV.leave) {
      this.leave(p, path, { value: d, cut: (flags & 1) === 1, tt: (flags & 2) === 2, aborted: (flags & 4) === 4 });
    } else if (code === EV.split) {
      this.split(p, path, flags);
    }
  }

  /** Processor `p` entered the node at `path`. */
  enter(p, path, { depth, alpha, beta, type, received }) {
    if (path.length === 0 && p === 0 && !received) {
      this.iteration++;
      this.clear();
    }
    const node = this.ensure(path);
    Object.assign(node, { owner: p, type, depth, alpha, beta, state: 'open', value: null, cut: false, tt: false });
    node.received ||= received;
    node.entries++;
    node.open++;
    const entry = { key: node.key, path, depth, alpha, beta, type };
    this.open[p].push(entry);
    this.last[p] = entry;
    this.version++;
  }

  /** Processor `p` left the node at `path`. */
  leave(p, path, { value, cut, tt, aborted }) {
    const key = path.join(' ');
    const stack = this.open[p];
    for (let i = stack.length - 1; i >= 0; i--) {
      if (stack[i].key === key) {
        stack.splice(i, 1);
        break;
      }
    }
    const node = this.nodes.get(key);
    if (!node) return;
    node.open = Math.max(0, node.open - 1);
    Object.assign(node, { state: aborted ? 'aborted' : 'done', value: aborted ? null : value, cut: cut && !aborted, tt });
    this.version++;
  }

  /** Processor `p`'s node at `path` gave a move to processor `to`. */
  split(p, path, to) {
    const node = this.nodes.get(path.join(' '));
    if (!node) return;
    node.splits.push(to);
    this.version++;
  }

  /** Processor `p`'s current node: its innermost open one, else the last it entered. */
  current(p) {
    const stack = this.open[p] ?? [];
    const entry = stack[stack.length - 1] ?? this.last[p];
    if (!entry) return null;
    const line = playLine(this.fen, entry.path);
    return { ...entry, open: stack.length > 0, san: line?.san ?? entry.path, fen: line?.fen ?? null };
  }

  /** A path from its replay columns (see decodePath) in SAN, moves separated by spaces
   * ("the root" for the empty path). */
  sanPath(b, c, length) {
    const path = decodePath(b, c, length);
    if (!path.length) return 'the root';
    return (playLine(this.fen, path)?.san ?? path).join(' ');
  }

  /** The type (PV, CUT, ALL) of the node at a path from its replay columns, as known now. */
  typeAt(b, c, length) {
    return this.nodes.get(decodePath(b, c, length).join(' '))?.type?.toUpperCase() ?? 'unknown';
  }

  /** Counts for tests and the readout. */
  summary() {
    const types = { pv: 0, cut: 0, all: 0 };
    let splitPoints = 0;
    let cuts = 0;
    let aborted = 0;
    let tt = 0;
    let received = 0;
    const owners = new Set();
    for (const node of this.nodes.values()) {
      if (node.owner !== null) owners.add(node.owner);
      if (node.type) types[node.type]++;
      if (node.splits.length) splitPoints++;
      if (node.cut) cuts++;
      if (node.state === 'aborted') aborted++;
      if (node.tt) tt++;
      if (node.received) received++;
    }
    return { iteration: this.iteration, nodes: this.nodes.size, owners: owners.size, types, splitPoints, cuts, aborted, tt, received };
  }
}
