// How the class's numbers are written: scores as UCI writes them (the side to move's view,
// `cp 35` or `mate -3`, the form a test compares with the native engine's) and for people.
import { formatCount, formatScore } from '../format.js';

/**
 * A score from the class worker in one shape, whatever shape it came in: a number
 * (centipawns), `{cp}` / `{mate}`, `{scoreCp}` / `{scoreMate}` (the engine's events), or
 * UCI text (`cp 35`, `mate -3`).
 * @returns {{cp: number}|{mate: number}|null} null when it cannot be read
 */
export function readScore(score) {
  if (typeof score === 'number' && Number.isFinite(score)) return { cp: score };
  if (typeof score === 'string') {
    const m = /^\s*(cp|mate)\s+(-?\d+)\s*$/.exec(score);
    return m ? { [m[1]]: Number(m[2]) } : null;
  }
  if (score && typeof score === 'object') {
    const mate = score.mate ?? score.scoreMate;
    const cp = score.cp ?? score.scoreCp;
    if (Number.isInteger(mate)) return { mate };
    if (Number.isFinite(cp)) return { cp };
  }
  return null;
}

/** `cp 35` or `mate -3` (side to move's view), '' when there is no score. */
export function uciScoreText(score) {
  if (!score) return '';
  return score.mate !== undefined ? `mate ${score.mate}` : `cp ${score.cp}`;
}

/** "+0.35" or "#−3" from White's view, for a score from the side to move of `fen`. */
export function whiteScoreText(score, fen) {
  if (!score) return '–';
  const sign = /^\S+ b /.test(fen ?? '') ? -1 : 1;
  return formatScore(score.mate !== undefined ? { mate: sign * score.mate } : { cp: sign * score.cp });
}

/** "1.2 s" or "850 ms". */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}

/** Node counts as the rest of the page writes them ("12.3 M"). */
export const formatNodes = (n) => (Number.isFinite(n) ? formatCount(n) : '–');
