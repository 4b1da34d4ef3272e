// User settings and the current game, kept in localStorage so both survive a reload.
// Stored values are checked against the defaults' types, so a stale or edited entry
// falls back to the default instead of breaking the page.

const SETTINGS_KEY = 'meshmate.settings.v1';
const GAME_KEY = 'meshmate.game.v1';

/** Every setting with its default; the comment says what it controls. */
export const DEFAULT_SETTINGS = Object.freeze({
  mode: 'play', // 'play' | 'analyse': which panel drives the engine
  level: 2, // index into LEVELS
  timeControl: 0, // index into TIME_CONTROLS (0 = untimed)
  playerColor: 'white', // 'white' | 'black' | 'random' for new games
  multiPv: 1, // analysis lines, 1..5
  analysing: true, // infinite analysis on in the Analyse view
  algorithm: '', // engine Algorithm option; '' = the engine's default
  threads: 0, // engine Threads; 0 = as many as the device has
  hash: 64, // engine Hash in MB
});

export function loadSettings() {
  const settings = { ...DEFAULT_SETTINGS };
  const saved = readJson(SETTINGS_KEY);
  if (saved && typeof saved === 'object') {
    for (const key of Object.keys(DEFAULT_SETTINGS)) {
      if (typeof saved[key] === typeof DEFAULT_SETTINGS[key]) settings[key] = saved[key];
    }
  }
  return settings;
}

export function saveSettings(settings) {
  writeJson(SETTINGS_KEY, settings);
}

/** The saved game session (game record, player colour, clocks), or null. */
export function loadGameSession() {
  return readJson(GAME_KEY);
}

export function saveGameSession(session) {
  writeJson(GAME_KEY, session);
}

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the page still works, it just forgets.
  }
}
