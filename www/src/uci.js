// The UCI text protocol as the page sees it: parse what the engine prints, format what we send.
// Pure functions only, so they are easy to test and to reuse in the engine client.

/**
 * Parses one `option name ... type ...` line.
 * @returns {{name: string, type: string, default?: string, min?: number, max?: number, vars: string[]} | null}
 */
export function parseOption(line) {
  const m = /^option name (.+?) type (\w+)(.*)$/.exec(line);
  if (!m) return null;
  const option = { name: m[1], type: m[2], vars: [] };
  // The rest is a sequence of `default X`, `min N`, `max N`, `var V` (values may contain spaces).
  const rest = m[3].trim();
  const re = /(default|min|max|var)\s+(.*?)(?=\s+(?:default|min|max|var)\s|$)/g;
  let part;
  while ((part = re.exec(rest))) {
    const [, key, value] = part;
    if (key === 'var') option.vars.push(value);
    else if (key === 'min' || key === 'max') option[key] = Number(value);
    else option.default = value;
  }
  return option;
}

/** Keys of an `info` line that take exactly one numeric argument. */
const NUMERIC_INFO = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'hashfull', 'time', 'tbhits', 'currmovenumber']);

/**
 * Parses one `info ...` line into an object; `pv` is a list of UCI moves, `score` is
 * {cp} or {mate} from the side to move's point of view, with `bound` 'lower'/'upper' if given.
 * @returns {object | null} null for lines that are not `info`.
 */
export function parseInfo(line) {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info') return null;
  const info = {};
  for (let i = 1; i < tokens.length; i++) {
    const key = tokens[i];
    if (NUMERIC_INFO.has(key)) {
      info[key] = Number(tokens[++i]);
    } else if (key === 'score') {
      const kind = tokens[++i];
      info.score = { [kind]: Number(tokens[++i]) };
      const bound = tokens[i + 1];
      if (bound === 'lowerbound' || bound === 'upperbound') {
        info.score.bound = bound === 'lowerbound' ? 'lower' : 'upper';
        i++;
      }
    } else if (key === 'pv') {
      info.pv = tokens.slice(i + 1);
      break;
    } else if (key === 'string') {
      info.string = tokens.slice(i + 1).join(' ');
      break;
    } else if (key === 'currmove') {
      info.currmove = tokens[++i];
    }
  }
  return info;
}

/** Parses `bestmove X [ponder Y]`; returns null for other lines. `best` is null for `(none)`/`0000`. */
export function parseBestMove(line) {
  const m = /^bestmove\s+(\S+)(?:\s+ponder\s+(\S+))?/.exec(line.trim());
  if (!m) return null;
  const best = m[1] === '(none)' || m[1] === '0000' ? null : m[1];
  return { best, ponder: m[2] ?? null };
}

/**
 * Formats a `go` command from limits such as {infinite: true}, {movetime: 500}, {depth: 8}
 * or clock times {wtime, btime, winc, binc}.
 */
export function formatGo(limits) {
  const parts = ['go'];
  if (limits.infinite) parts.push('infinite');
  for (const key of ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes', 'movetime']) {
    if (limits[key] !== undefined) parts.push(key, String(Math.max(0, Math.round(limits[key]))));
  }
  return parts.join(' ');
}

/** Formats `position fen F [moves ...]`. */
export function formatPosition(fen, moves = []) {
  return `position fen ${fen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
}
