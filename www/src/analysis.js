// Analysis: infinite search of the position on the board with MultiPV lines in SAN,
// score, depth, speed and hash use; the evaluation bar and the best-move arrows. The
// search follows the cursor: every new position swaps in a new job.
import { EngineStatus } from './engineClient.js';
import { lineToSan } from './game.js';
import { oncePerFrame } from './frame.js';
import { formatCount, formatNps, formatScore, numberedLine, whiteScore } from './format.js';

/** How many moves of each line are shown. */
const PV_MOVES = 12;
/** Arrow widths for lines 1..5: the best line is drawn boldest. */
const ARROW_WIDTHS = [12, 9, 7, 6, 5];

/**
 * `lines` with `line` at `index`. Lines of the previous iteration stay until this one
 * reaches them; where another line starts with the move `line` starts with (the newest
 * report on a root move is the one that counts), the line `line` displaced takes its
 * place. So two lines never show the same first move, and a panel of three lines keeps
 * three while an iteration reorders them.
 */
export function withLine(lines, index, line) {
  const merged = [...lines];
  const same = merged.findIndex((old, i) => old && i !== index && old.pv[0] === line.pv[0]);
  if (same >= 0) merged[same] = merged[index];
  merged[index] = line;
  return merged;
}

export class Analysis {
  /**
   * @param {object} p
   * @param {HTMLElement} p.panel  the Analyse panel (controls, summary, lines)
   * @param {import('./engineClient.js').EngineClient} p.engine
   * @param {import('./session.js').Session} p.session
   * @param {import('./evalBar.js').EvalBar} p.evalBar
   * @param {import('./board.js').Board} p.board
   * @param {object} p.settings  shared settings (multiPv, analysing)
   * @param {() => void} p.onSettings  settings changed
   * @param {(uci: string) => void} p.onPlayLine  the user clicked a line: play its first move
   */
  constructor({ panel, engine, session, evalBar, board, settings, onSettings, onPlayLine }) {
    Object.assign(this, { panel, engine, session, evalBar, board, settings, onSettings, onPlayLine });
    this.active = false;
    /** the job searching now, or null */
    this.job = null;
    /** key of the searched position: fen + moves */
    this.jobKey = '';
    /** lines by multipv index (0-based), each {depth, seldepth, score (White's view), pv, sans} */
    this.lines = [];
    /** latest speed figures of the search */
    this.stats = {};
    this.scheduleRender = oncePerFrame(() => this.render());

    this.toggle = panel.querySelector('[data-action="toggle-analysis"]');
    this.multiPv = panel.querySelector('[name="multipv"]');
    this.summary = panel.querySelector('.analysis-summary');
    this.list = panel.querySelector('.analysis-lines');
    this.variation = panel.querySelector('.variation-note');
    panel.querySelector('[data-action="back-to-game"]').addEventListener('click', () => session.backToGame());
    this.multiPv.value = String(settings.multiPv);
    this.toggle.addEventListener('click', () => {
      settings.analysing = !settings.analysing;
      onSettings();
      this.update();
    });
    this.multiPv.addEventListener('change', () => {
      settings.multiPv = Number(this.multiPv.value);
      onSettings();
      this.restart();
    });
    this.list.addEventListener('click', (e) => {
      const uci = e.target.closest('[data-uci]')?.dataset.uci;
      if (uci) onPlayLine(uci);
    });
  }

  setActive(active) {
    this.active = active;
    this.evalBar.setVisible(active);
    if (!active) {
      this.halt();
      this.board.setArrows([]);
    }
    this.update();
  }

  /** Follows the session: starts a search for a new position, stops when analysis is off. */
  update() {
    this.toggle.textContent = this.settings.analysing ? 'Stop' : 'Start';
    this.toggle.setAttribute('aria-pressed', String(this.settings.analysing));
    if (!this.active) return;
    if (!this.settings.analysing) {
      this.halt();
      this.render();
      return;
    }
    const game = this.session.game;
    const key = `${game.startFen}|${game.uciMovesTo().join(' ')}`;
    if (key !== this.jobKey || !this.job || !this.engine.has(this.job)) this.search(key);
  }

  /** Searches the current position again (after an option changed). */
  restart() {
    this.jobKey = '';
    this.update();
  }

  halt() {
    if (this.job) this.engine.cancel(this.job);
    this.job = null;
    this.jobKey = '';
  }

  search(key) {
    const game = this.session.game;
    const fen = game.fenAt();
    const turn = game.turnAt();
    this.lines = [];
    this.stats = {};
    this.engine.setOption('UCI_LimitStrength', false);
    this.engine.setOption('MultiPV', this.settings.multiPv);
    const job = {
      fen: game.startFen,
      moves: game.uciMovesTo(),
      go: { infinite: true },
      gameId: this.session.id,
      onInfo: (info) => this.receive(info, fen, turn),
      onBestMove: () => {
        if (this.job === job) this.job = null;
        this.scheduleRender();
      },
    };
    this.job = job;
    this.jobKey = key;
    if (game.positionAt().isGameOver()) {
      // Nothing to search in a finished position; show why instead.
      this.job = null;
      this.render();
      return;
    }
    this.engine.start(job);
    this.render();
  }

  receive(info, fen, turn) {
    this.stats = { depth: info.depth ?? this.stats.depth, seldepth: info.seldepth ?? this.stats.seldepth, nps: info.nps ?? this.stats.nps, nodes: info.nodes ?? this.stats.nodes, hashfull: info.hashfull ?? this.stats.hashfull };
    if (!info.pv.length || (info.scoreCp === undefined && info.scoreMate === undefined)) return;
    if (info.bound) return; // aspiration fail: wait for the exact score
    const index = (info.multipv ?? 1) - 1;
    if (index >= this.settings.multiPv) return;
    this.lines = withLine(this.lines, index, { depth: info.depth, score: whiteScore(info, turn), pv: info.pv, sans: lineToSan(fen, info.pv, PV_MOVES), fen });
    this.scheduleRender();
  }

  render() {
    if (!this.active) return;
    const position = this.session.game.positionAt();
    const lines = this.lines.filter(Boolean);
    const saved = this.session.savedLine;
    this.variation.hidden = !saved;
    if (saved) this.variation.firstElementChild.textContent = `Exploring a variation: the game (${saved.moves.length} plies) is kept.`;
    const s = this.stats;
    if (position.isGameOver()) {
      this.summary.textContent = 'Game over in this position: nothing to analyse.';
    } else if (this.engine.status === EngineStatus.Failed) {
      this.summary.textContent = 'The engine is not running (see the message above).';
    } else if (!this.settings.analysing) {
      this.summary.textContent = 'Analysis is stopped.';
    } else {
      this.summary.innerHTML = s.depth
        ? `<span title="depth / selective depth">depth ${s.depth}${s.seldepth ? `/${s.seldepth}` : ''}</span>` +
          `<span title="nodes searched">${formatCount(s.nodes ?? 0)} nodes</span>` +
          `<span title="nodes per second">${formatNps(s.nps)}</span>` +
          `<span title="transposition table use">hash ${s.hashfull !== undefined ? (s.hashfull / 10).toFixed(0) : '–'}%</span>`
        : 'Thinking…';
    }
    this.list.innerHTML = lines
      .map(
        (line) =>
          `<li class="analysis-line" data-uci="${line.pv[0]}" title="Click to play ${line.sans[0] ?? ''}">` +
          `<span class="score">${formatScore(line.score)}</span>` +
          `<span class="line-depth">d${line.depth}</span>` +
          `<span class="pv">${numberedLine(line.sans, line.fen)}</span></li>`,
      )
      .join('');
    const best = lines[0];
    this.evalBar.show(best ? best.score : null, this.board.orientation);
    this.board.setArrows(
      lines.map((line, i) => ({
        orig: line.pv[0].slice(0, 2),
        dest: line.pv[0].slice(2, 4),
        brush: i === 0 ? 'paleBlue' : 'paleGrey',
        modifiers: { lineWidth: ARROW_WIDTHS[i] },
      })),
    );
  }
}
