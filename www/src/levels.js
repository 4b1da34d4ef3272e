// The playing levels: one table, so the ratings can be replaced by calibrated ones in one
// place. Low levels weaken the engine with UCI_LimitStrength/UCI_Elo; high levels play at
// full strength and differ by thinking time.
//
// `elo` is the rating shown to the player. `calibrated` says whether it was measured in
// engine matches (true) or is still the nominal UCI_Elo / an estimate (false, shown with "≈").
// Measured: 20 games each against Stockfish 15.1 at the same UCI_Elo, 0.1 s a move
// (tests/tuning/strength.sh): UCI_Elo 1400 scored 45% (about 1370), 1800 scored 30%
// (about 1650); the error bars are wide (±150 Elo).

/** @typedef {{name: string, elo: number, calibrated: boolean, limitElo?: number, movetime: number}} Level */

/** @type {Level[]} */
export const LEVELS = [
  { name: 'Beginner', elo: 1000, calibrated: false, limitElo: 1000, movetime: 300 },
  { name: 'Novice', elo: 1200, calibrated: false, limitElo: 1200, movetime: 300 },
  { name: 'Casual', elo: 1370, calibrated: true, limitElo: 1400, movetime: 500 },
  { name: 'Club', elo: 1600, calibrated: false, limitElo: 1600, movetime: 500 },
  { name: 'Strong club', elo: 1650, calibrated: true, limitElo: 1800, movetime: 800 },
  { name: 'Expert', elo: 2000, calibrated: false, limitElo: 2000, movetime: 1000 },
  { name: 'Master', elo: 2300, calibrated: false, movetime: 1000 },
  { name: 'Full strength', elo: 2450, calibrated: false, movetime: 5000 },
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
