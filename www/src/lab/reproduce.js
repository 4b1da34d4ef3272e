// "Reproduce a paper": the seeds' experiments at browser scale, each with our means beside
// the published figures. Browser scale means fewer positions, shallower searches and fewer
// processors than the papers', so the numbers are comparable in kind, not equal; the full
// reruns are tests/experiments/run.sh and docs/experiments.md. Published figures are the
// ones the project's issues cite; where none was at hand the row says so.
import { SUITES } from './positions.js';

const [BRATKO_KOPEC, CRAY_BLITZ] = SUITES;

/** Columns of a preset's table: the Figure 5 columns, then StarTech's and TDSAB's measures. */
export const PRESET_COLUMNS = ['position', 'algorithm', 'p', 'N', 'T (virtual ms)', 'LD', 'SO', 'SPE', 'W/C', 'sync', 'comm'];

/**
 * Each preset: the button's `id` (data-lab="reproduce" for Zugzwang, "reproduce-<id>" for
 * the others), what it shows, the form settings, the algorithms run on each position, and
 * the published figures: `{ label, algorithm, processors?, speedup? }` (what the paper
 * gives; the other columns stay empty).
 */
export const PRESETS = [
  {
    id: 'zugzwang',
    button: 'Zugzwang',
    title: "Zugzwang, Figure 5: ybwc on DB(4) of T800 Transputers, the period's full-width search, Bratko-Kopec 1–4, depth 5",
    note: 'the paper reports SPE 34.77 on 64 processors at 7 plies (its Figure 5); 16 processors and 5 plies give less. Switch Search to modern to see how selective search leaves little to share.',
    settings: { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', search: 'period', depth: 5, seed: 1 },
    positions: BRATKO_KOPEC.positions.slice(0, 4),
    published: [{ label: 'Zugzwang, Figure 5 (published)', algorithm: 'ybwc', processors: 64, speedup: '34.77' }],
  },
  {
    id: 'crayblitz',
    button: 'Cray Blitz',
    title: "Cray Blitz, Table 6: dts on 16 CPUs of a Cray C916 (shared memory), the period's full-width search, the game Mchess Pro – Cray Blitz CB.01–04, depth 5",
    note: 'the paper reports a mean speedup of 11.1 on 16 processors over its 24 positions at 10 to 11 plies.',
    settings: { algorithm: 'dts', net: 'bus', processors: 16, preset: 'c916', search: 'period', depth: 5, seed: 1 },
    positions: CRAY_BLITZ.positions.slice(0, 4),
    published: [{ label: 'Cray Blitz, Table 6 (published)', algorithm: 'dts', processors: 16, speedup: '11.1' }],
  },
  {
    id: 'startech',
    button: 'StarTech',
    title: "StarTech: jamboree on 16 nodes of a CM-5 (fat tree), Bratko-Kopec 1–3, depth 4; W, C and the fit after the sweep",
    note: "StarTech's own a and b were not at hand here; the sweep charts show W/P, C and the fitted a·W/P + b·C against p.",
    settings: { algorithm: 'jamboree', net: 'fattree', processors: 16, preset: 'cm5', search: 'modern', depth: 4, seed: 1 },
    positions: BRATKO_KOPEC.positions.slice(0, 3),
    published: [{ label: 'StarTech (published a, b not at hand)', algorithm: 'jamboree' }],
    sweep: true,
  },
  {
    id: 'tdsab',
    button: 'TDSAB',
    title: 'TDSAB, Tables 1–2: tdsab on 16 Pentium III PCs on switched Ethernet, Bratko-Kopec 1–3, depth 5',
    note: "Kishimoto and Schaeffer's Tables 1–2 (8 to 64 processors) were not at hand here; sync = idle share, comm = message-handling share.",
    settings: { algorithm: 'tdsab', net: 'full', processors: 16, preset: 'p3-ethernet', search: 'modern', depth: 5, seed: 1 },
    positions: BRATKO_KOPEC.positions.slice(0, 3),
    published: [{ label: 'TDSAB, Tables 1–2 (published figures not at hand)', algorithm: 'tdsab', processors: '8–64' }],
  },
  {
    id: 'lan',
    button: 'PV-splitting, unequal PCs',
    title: 'PV-splitting on three unequal, loaded PCs on a LAN, with and without CPU-availability-aware assignment, Bratko-Kopec 1–4, depth 6',
    note: 'pvsplit-aware sizes the work it gives by each PC\'s measured speed; the published figures were not at hand here.',
    settings: { algorithm: 'pvsplit', net: 'bus', processors: 3, preset: 'lan', search: 'modern', depth: 6, seed: 1 },
    algorithms: ['pvsplit', 'pvsplit-aware'],
    positions: BRATKO_KOPEC.positions.slice(0, 4),
    published: [],
  },
];

/** The preset a button names. */
export function presetById(id) {
  return PRESETS.find((p) => p.id === id) ?? null;
}

const ratio = (num, den) => (den > 0 ? num / den : NaN);
const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

/** One report row (from the Lab worker) as PRESET_COLUMNS cells. */
export function presetCells(position, row) {
  const parallelism = row.criticalPathNs ? ratio(row.workNs, row.criticalPathNs) : NaN;
  return [position, row.algorithm, row.processors, row.nodes, (row.timeNs / 1e6).toFixed(3), row.load.toFixed(3), row.searchOverhead.toFixed(3), row.speedup.toFixed(2), fixed(parallelism, 2), row.synchronization.toFixed(3), row.communication.toFixed(3)];
}

/** The per-position rows, then per algorithm the mean of the finished p-processor runs,
 * then the published rows. `reports` are the Lab worker's reports (serial row first). */
export function reproduceRows(preset, rows, reports) {
  const parallel = reports.map((r) => r.rows[r.rows.length - 1]);
  const means = [];
  for (const algorithm of new Set(parallel.map((r) => r.algorithm))) {
    const group = parallel.filter((r) => r.algorithm === algorithm);
    const mean = (f) => group.reduce((sum, row) => sum + f(row), 0) / group.length;
    const spans = group.filter((r) => r.criticalPathNs);
    const parallelism = spans.length === group.length ? ratio(mean((r) => r.workNs), mean((r) => r.criticalPathNs)) : NaN;
    means.push([
      'mean', algorithm, group[0].processors, Math.round(mean((r) => r.nodes)), (mean((r) => r.timeNs) / 1e6).toFixed(3), mean((r) => r.load).toFixed(3),
      mean((r) => r.searchOverhead).toFixed(3), mean((r) => r.speedup).toFixed(2), fixed(parallelism, 2), mean((r) => r.synchronization).toFixed(3), mean((r) => r.communication).toFixed(3),
    ]);
  }
  return [...rows, ...means, ...preset.published.map(publishedCells)];
}

/** A published figure as a table row: the paper's cells under their columns, the rest empty. */
function publishedCells({ label, algorithm, processors = '', speedup = '' }) {
  const cells = { position: label, algorithm, p: processors, SPE: speedup };
  return PRESET_COLUMNS.map((column) => cells[column] ?? '');
}
