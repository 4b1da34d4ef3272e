// "Reproduce a paper": Zugzwang's experiment (Feldmann et al.: YBWC on Transputers wired as
// a DeBruijn graph, Bratko-Kopec, their Figure 5) at browser scale, with our mean beside
// the published figure. Browser scale means fewer positions, a shallower search and fewer
// processors than the paper's 7 plies on 64 T800s, so the numbers are comparable in kind,
// not equal.
import { SUITES } from './positions.js';

const POSITIONS = 4;

export const ZUGZWANG = {
  title: `Zugzwang, Figure 5: ybwc on DB(4) of T800 Transputers, Bratko-Kopec 1–${POSITIONS}, depth 4`,
  note: 'the paper reports SPE 34.77 on 64 processors at 7 plies (its Figure 5); at this scale expect far less.',
  settings: { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', position: 'BK.01', depth: 4, seed: 1 },
  positions: SUITES[0].positions.slice(0, POSITIONS),
};

/** The per-position rows, then the means of the finished p-processor runs and the published row. */
export function reproduceRows(rows, reports) {
  const parallel = reports.map((r) => r.rows[r.rows.length - 1]);
  const mean = (f) => parallel.reduce((sum, row) => sum + f(row), 0) / parallel.length;
  const { processors, algorithm } = parallel[0];
  return [
    ...rows,
    ['mean', algorithm, processors, Math.round(mean((r) => r.nodes)), (mean((r) => r.timeNs) / 1e6).toFixed(3), mean((r) => r.load).toFixed(3), mean((r) => r.searchOverhead).toFixed(3), mean((r) => r.speedup).toFixed(2)],
    ['Zugzwang, Figure 5 (published)', 'ybwc', 64, '', '', '', '', '34.77'],
  ];
}
