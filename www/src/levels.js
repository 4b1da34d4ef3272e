// The playing levels: one table, so the ratings can be replaced by calibrated ones in one
// place. Low levels weaken the engine with UCI_LimitStrength/UCI_Elo; high levels play at
// full strength and differ by thinking time.
//
// `elo` is the rating shown to the player. `calibrated` says whether it was measured in
// engine matches (true) or is still the nominal UCI_Elo / an estimate (false, shown with "≈").
// Measured by tests/tuning/levels.sh (method and figures in tests/tuning/README.md, "Playing
// levels"): each level as the page plays it (these options and movetime, Hash 64, the
// serial search on one thread, native build) against Stockfish 15.1 limited to a
// UCI_Elo near it, both colours of each opening of the balanced book; rating = Stockfish's
// UCI_Elo + the Elo difference of the score, rounded to 10. 95% intervals are about ±100.
// The full-strength levels search the nodes one native core searches in their time (1.92 M
// a second with the fifth network at c275b65; 1.42 M in the first calibration), so the machine's
// load did not weaken them; in the browser they depend on the
// device (wasm speed, threads: they search with ABDADA on every core the Play panel
// gives). The weakened levels search serially on one thread wherever they run (the
// engine ignores Threads under UCI_LimitStrength), so their ratings hold on any device.
//   Beginner     40 games vs 1350: 22.5% -> 1135 (970 to 1240)
//   Novice       50 games vs 1350: 35.0% -> 1242 (1135 to 1330)
//   Casual       50 games vs 1350: 52.0% -> 1364 (1270 to 1460)
//   Club         50 games vs 1600: 48.0% -> 1586 (1490 to 1680)
//   Strong club  50 games vs 1700: 61.0% -> 1778 (1690 to 1875)
//   Expert       50 games vs 1900: 54.0% -> 1928 (1845 to 2015)
//   Master       20 games vs 2300: 82.5% -> 2569 (2447 to 2813), the seventh network (9117e30);
//                with the quiescence table (6206b0f) 85.0% -> 2601 (2455 to 3104); the fifth
//                network (c275b65) 80.0% -> 2541, the fourth (36a9adb) 67.5% -> 2427
//   Full strength 4 games vs 2500: 62.5% -> 2589 (2439 to 2784), the seventh network (9117e30);
//                with the quiescence table (6206b0f) 8 games vs 2500, all drawn: no interval.
//                Both keep the seventh network's ratings until Full strength is measured
//                against a stronger opponent: 2601 for Master and nothing for Full strength
//                would show Master above the level that searches five times its nodes.
//                The fifth network (c275b65) 62.5% -> 2589 for Full strength;
//                the fourth (36a9adb): 4 games vs 2300 all won, 2 vs 2500 lost, most likely
//                2495; the second 2491 (2303 to 3220), the hand-written evaluation 2491
//                (5 s a move costs about 10 CPU-minutes a game).
// The weakened levels stop at a node cap within a few ms, so their movetime does not bind.
// The weakened levels search with the hand-written evaluation whatever the engine's `Eval`
// (the engine keeps it under UCI_LimitStrength), so the figures above still hold for them.
// Master and Full strength play with the network and were measured with it; their
// intervals are wide (few games: each game costs minutes of a core), the ratings are
// the point estimates.

/** @typedef {{name: string, elo: number, calibrated: boolean, limitElo?: number, movetime: number}} Level */

/** @type {Level[]} */
export const LEVELS = [
  { name: 'Beginner', elo: 1140, calibrated: true, limitElo: 1000, movetime: 300 },
  { name: 'Novice', elo: 1240, calibrated: true, limitElo: 1200, movetime: 300 },
  { name: 'Casual', elo: 1360, calibrated: true, limitElo: 1400, movetime: 500 },
  { name: 'Club', elo: 1590, calibrated: true, limitElo: 1600, movetime: 500 },
  { name: 'Strong club', elo: 1780, calibrated: true, limitElo: 1800, movetime: 800 },
  { name: 'Expert', elo: 1930, calibrated: true, limitElo: 2000, movetime: 1000 },
  { name: 'Master', elo: 2570, calibrated: true, movetime: 1000 },
  { name: 'Full strength', elo: 2590, calibrated: true, movetime: 5000 },
];

/** The level a new player gets. */
export const DEFAULT_LEVEL = 2;

/** "Casual (≈1400)" */
export function levelLabel(level) {
  return `${level.name} (${level.calibrated ? '' : '≈'}${level.elo})`;
}

/**
 * UCI options and go limits for a level. With a clock, the think time is capped so the
 * engine keeps about 1/30 of its remaining time per move plus its increment.
 * @param {Level} level
 * @param {{remaining: number, increment: number} | null} clock the engine's own clock in ms
 */
export function levelSearch(level, clock) {
  const options = { UCI_LimitStrength: level.limitElo !== undefined, MultiPV: 1 };
  if (level.limitElo !== undefined) options.UCI_Elo = level.limitElo;
  let movetime = level.movetime;
  if (clock) movetime = Math.max(50, Math.min(movetime, clock.remaining / 30 + clock.increment * 0.8));
  return { options, go: { movetime } };
}
