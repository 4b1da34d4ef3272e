// The positions the Lab offers besides the current board: the Bratko-Kopec test (Zugzwang's
// experiment), the Mchess Pro – Cray Blitz game (Cray Blitz's Table 6) and the Kaufman test
// (the project's other suite). The EPD files
// live in ../shared/data and are bundled at build time, never copied into the repository.
import bratkoKopec from '../../../../shared/data/bratko-kopec.epd?raw';
import crayBlitz from '../../../../shared/data/crayblitz-1993.epd?raw';
import kaufman from '../../../../shared/data/kaufman.epd?raw';

/** `{ id, fen }` for each EPD record of `text` (comments and blank lines skipped). */
export function parseEpd(text) {
  const positions = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    if (fields.length < 4) continue;
    const id = /\bid\s+"([^"]*)"/.exec(line)?.[1] ?? `#${positions.length + 1}`;
    // EPD has no move counters; the Lab searches from the position, so any counters do.
    positions.push({ id, fen: `${fields.slice(0, 4).join(' ')} 0 1` });
  }
  return positions;
}

/** The EPD files' texts by file name, for the papers' experiments (the catalogue's `papers`). */
export const EPD_FILES = { 'bratko-kopec.epd': bratkoKopec, 'crayblitz-1993.epd': crayBlitz, 'kaufman.epd': kaufman };

/** The suites by name, as the position menu groups them. */
export const SUITES = [
  { name: 'Bratko-Kopec', positions: parseEpd(bratkoKopec) },
  { name: 'Mchess Pro – Cray Blitz 1993', positions: parseEpd(crayBlitz) },
  { name: 'Kaufman', positions: parseEpd(kaufman).map((p, i) => ({ ...p, id: `KF.${String(i + 1).padStart(2, '0')}` })) },
];
