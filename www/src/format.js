// How numbers from the engine are written for people.

/**
 * The score of an `info` event (side to move's view) turned to White's view.
 * @param {{scoreCp?: number, scoreMate?: number}} info
 * @param {'white'|'black'} turn side to move in the searched position
 */
export function whiteScore(info, turn) {
  const sign = turn === 'white' ? 1 : -1;
  return info.scoreMate !== undefined ? { mate: sign * info.scoreMate } : { cp: sign * info.scoreCp };
}

/** "+0.35", "−1.20", "#3", "#−2" from a White's-view score. */
export function formatScore(score) {
  if (score.mate !== undefined) return score.mate < 0 ? `#−${-score.mate}` : `#${score.mate}`;
  const pawns = (score.cp / 100).toFixed(2);
  return score.cp > 0 ? `+${pawns}` : score.cp < 0 ? `−${pawns.slice(1)}` : '0.00';
}

/** White's winning chance in [0, 1] for the evaluation bar (the logistic curve lichess uses). */
export function whiteWinningChance(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp));
  return 1 / (1 + Math.exp(-0.00368208 * cp));
}

/** "850 kn/s", "1.3 Mn/s". */
export function formatNps(nps) {
  if (!nps) return '–';
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(1)} Mn/s`;
  return `${Math.round(nps / 1e3)} kn/s`;
}

/** "12.3 M", "450 k", "2.5 k", "900". */
export function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)} k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

/** SAN moves with move numbers: "12. Nf3 Nc6 13. Bb5" or "12… Nc6 13. Bb5". */
export function numberedLine(sans, fen) {
  const [, turn, , , , full] = fen.split(' ');
  let number = Number(full) || 1;
  let white = turn === 'w';
  const parts = [];
  sans.forEach((san, i) => {
    if (white) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}…`);
    parts.push(san);
    if (!white) number++;
    white = !white;
  });
  return parts.join(' ');
}
