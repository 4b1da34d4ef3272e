// "Reproduce a paper": `meshmate reproduce NAME --quick` in the Lab worker. The engine runs
// the paper's experiment under its conditions (its search, positions, measure and machine,
// at the quick size) and returns every measure with the paper's printed figure beside ours;
// the published figures come from the engine's own copy of the papers' tables (stats::papers
// in the crate), so this file holds none. The full runs are tests/experiments/run.sh and
// docs/experiments.md.
import { EPD_FILES } from './positions.js';

/** Columns of a reproduction's table: the command's rows. */
export const REPRODUCE_COLUMNS = ['measure', 'p', 'position', 'ours', 'published', 'ours / published'];

/** Each paper's button: `id` (data-lab="reproduce" for Zugzwang, "reproduce-<id>" for the others) is the paper's name in the engine. */
export const PRESETS = [
  { id: 'zugzwang', button: 'Zugzwang', title: 'Zugzwang: YBWC on T800 Transputers, Bratko-Kopec (Figures 3–5)' },
  { id: 'crayblitz', button: 'Cray Blitz', title: 'Cray Blitz: DTS on a Cray C916, the 1993 game in sequence (Tables 3 and 6)' },
  { id: 'startech', button: 'StarTech', title: "StarTech: Jamboree on a CM-5, Kaufman's positions (Figure 5, Eq. 1–2)" },
  { id: 'tdsab', button: 'TDSAB', title: 'TDSAB: transposition-driven MTD(f) on a Pentium III cluster (Tables 1–2)' },
  { id: 'pvsplit', button: 'PV-splitting, unequal PCs', title: "Hasan: PV-splitting on three unequal PCs, the four states' reply times" },
];

/** The EPD text of `paper`'s positions (`papers` of the Lab catalogue names the file). */
export function suiteText(catalogue, paper) {
  const file = catalogue.papers.find((p) => p.name === paper)?.suite;
  const text = EPD_FILES[file];
  if (!text) throw new Error(`no positions for ${paper} (${file})`);
  return text;
}

const figure = (x) => {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return Math.abs(x) >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toFixed(3).replace(/\.?0+$/, '');
};

/** The report's rows as REPRODUCE_COLUMNS cells. */
export function reproductionRows(report) {
  return report.rows.map(({ measure, p, position, ours, published }) => [
    measure,
    p === null || p === undefined ? '–' : String(p),
    position ?? 'all',
    figure(ours),
    figure(published),
    published ? (ours / published).toFixed(2) : '',
  ]);
}
