// Wires the page: one engine client, one game session, and the views that follow them.
// Each concern lives in its own module; this file only connects their callbacks.
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { Analysis } from './analysis.js';
import { Board } from './board.js';
import { ClassView } from './class/classView.js';
import { isClassHash } from './class/classLink.js';
import { EngineClient } from './engineClient.js';
import { EnginePanel } from './enginePanel.js';
import { EvalBar } from './evalBar.js';
import { ImportExport } from './importExport.js';
import { Lab } from './lab/lab.js';
import { isLabHash } from './lab/experimentLink.js';
import { isolationMessage, probeDevice } from './isolation.js';
import { MoveList } from './moveList.js';
import { Notices } from './notices.js';
import { Play } from './play.js';
import { Session } from './session.js';
import { loadSettings, saveSettings } from './settings.js';
import { WorkerView } from './workerView.js';

const $ = (selector) => document.querySelector(selector);
const settings = loadSettings();
const save = () => saveSettings(settings);
const device = probeDevice();
const notices = new Notices($('.notices'));

const notice = $('.isolation-notice');
notice.textContent = isolationMessage(device);
notice.hidden = device.isolated;
document.body.classList.toggle('not-isolated', !device.isolated);

const workerView = new WorkerView($('.worker-view'), () => engine.current && { fen: engine.current.fen, moves: engine.current.moves });
const engine = new EngineClient({
  // A plain module worker served as a static file next to the page (not bundled).
  createWorker: () => new Worker(new URL('engine/worker.js', document.baseURI), { type: 'module', name: 'meshmate-engine' }),
  onStatus: (status) => {
    enginePanel.showStatus(status);
    active().render();
  },
  onError: (message) => {
    notices.error(message, 'engine');
    enginePanel.engineError(message);
  },
  onEvent: (event) => {
    workerView.receive(event);
    lab.receiveEngineEvent(event);
  },
  onOptions: (options) => {
    enginePanel.setOptions(options);
    active().update();
  },
});

const session = new Session({ onChange: () => refresh(), onTick: () => play.render() });
const board = new Board($('#board'), {
  onMove: (move) => {
    const ok = settings.mode === 'analyse' ? session.explore(move) : session.move(move);
    if (!ok) notices.error(`Illegal move ${move.from}-${move.to}.`);
  },
  onCancel: () => refresh(),
});
const moveList = new MoveList($('.move-list'), (ply) => session.goTo(ply));
const play = new Play({
  panel: $('.play-panel'),
  bars: { top: $('.player-bar.top'), bottom: $('.player-bar.bottom') },
  engine,
  session,
  settings,
  onSettings: save,
  onError: (message) => notices.error(message),
  orientation: () => board.orientation,
  onNewGame: (color) => board.setOrientation(color),
  onAnalyse: () => setMode('analyse'),
});
const analysis = new Analysis({
  panel: $('.analysis-panel'),
  engine,
  session,
  evalBar: new EvalBar($('.eval-bar')),
  board,
  settings,
  onSettings: save,
  onPlayLine: (uci) => session.explore(uci),
});
const enginePanel = new EnginePanel({
  panel: $('.engine-panel'),
  statusEl: $('.engine-status'),
  engine,
  settings,
  maxThreads: device.maxThreads,
  onChange: () => {
    save();
    if (settings.mode === 'analyse') analysis.restart();
  },
});
new ImportExport({
  panel: $('.import-export'),
  currentGame: () => session.game,
  onLoad: (game) => {
    setMode('analyse');
    session.replaceGame(game);
  },
  onError: (message) => notices.error(message),
  onNote: (message) => notices.note(message),
});

const lab = new Lab({ root: $('.lab'), currentFen: () => session.game.fenAt(), engine, maxThreads: device.maxThreads });
const classView = new ClassView({ root: $('.class-view'), isolated: device.isolated, engine: { engine, boot: () => bootEngine() } });

/** The Play engine starts with the first view that uses it: a class's tab (a student's
 * phone) runs only the class's own engine. */
let engineBooted = false;
function bootEngine() {
  if (engineBooted) return;
  engineBooted = true;
  engine.boot();
}

function active() {
  return settings.mode === 'analyse' ? analysis : play;
}

/** Redraws the board and the move list and lets the active view react to the new state. */
function refresh() {
  const { game } = session;
  const position = game.positionAt();
  const last = game.moves[game.cursor - 1];
  const movable = settings.mode === 'analyse' ? (position.isGameOver() ? null : 'both') : play.movableColor();
  board.show(position, { movable, lastMove: last ? [last.from, last.to] : undefined });
  moveList.render(game);
  play.update();
  analysis.update();
  analysis.render();
}

function setMode(mode) {
  settings.mode = mode;
  save();
  // The address holds a Lab experiment only while the Lab is open, a class only while the Class view is.
  if ((mode !== 'lab' && isLabHash(location.hash)) || (mode !== 'class' && isClassHash(location.hash))) {
    history.replaceState(null, '', location.pathname + location.search);
  }
  document.body.dataset.view = mode;
  for (const tab of document.querySelectorAll('[data-mode]')) tab.setAttribute('aria-selected', String(tab.dataset.mode === mode));
  for (const panel of document.querySelectorAll('[data-panel]')) panel.hidden = panel.dataset.panel !== mode;
  // Deactivate first, so the newly active view's job is the one the engine keeps.
  (mode === 'analyse' ? play : analysis).setActive(false);
  if (mode === 'lab' || mode === 'class') play.setActive(false);
  else active().setActive(true);
  lab.show(mode === 'lab');
  classView.show(mode === 'class');
  refresh();
  if (mode !== 'class') bootEngine();
}

for (const tab of document.querySelectorAll('[data-mode]')) tab.addEventListener('click', () => setMode(tab.dataset.mode));
const navigate = { first: () => 0, prev: (g) => g.cursor - 1, next: (g) => g.cursor + 1, last: (g) => g.moves.length };
for (const button of document.querySelectorAll('[data-nav]')) {
  button.addEventListener('click', () => session.goTo(navigate[button.dataset.nav](session.game)));
}
$('[data-action="flip"]').addEventListener('click', () => {
  board.flip();
  refresh();
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'f' && !e.target.closest('input, textarea, select')) $('[data-action="flip"]').click();
});

const restoreError = session.restore();
if (restoreError) notices.error(restoreError);
board.setOrientation(session.playerColor);
// A link to a Lab experiment (#lab?…) opens the Lab, whatever view was open last, also
// when it is pasted into the address bar of the open page (only the fragment changes).
// A class's link (#class?code=…) opens the Class view and joins that class.
window.addEventListener('hashchange', () => {
  if (isLabHash(location.hash)) {
    if (settings.mode !== 'lab') setMode('lab');
    lab.followLink();
  } else if (isClassHash(location.hash)) {
    if (settings.mode !== 'class') setMode('class');
    classView.followLink();
  }
});
const linked = isLabHash(location.hash) ? 'lab' : isClassHash(location.hash) ? 'class' : null;
setMode(linked ?? (['analyse', 'lab', 'class'].includes(settings.mode) ? settings.mode : 'play'));
if (linked === 'class') classView.followLink();
