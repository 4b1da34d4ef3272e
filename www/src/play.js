// Play against the engine: new games (side, level, time control, start FEN), the engine's
// replies, clocks, undo/redo, draw offers and resignation, and the game's status line.
import { EngineStatus } from './engineClient.js';
import { InputError } from './game.js';
import { LEVELS, levelLabel, levelSearch } from './levels.js';
import { TIME_CONTROLS, formatClock, timeControlLabel } from './clock.js';

/** The engine accepts a draw from this move on, if it does not think it is better. */
const DRAW_OFFER_FROM_PLY = 40;
/** ...where "better" means more than this many centipawns in its favour. */
const DRAW_ACCEPT_MAX_CP = 20;

const RESULT_TEXT = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' };

export class Play {
  /**
   * @param {object} p
   * @param {HTMLElement} p.panel  the Play panel
   * @param {{top: HTMLElement, bottom: HTMLElement}} p.bars  player name and clock above and below the board
   * @param {import('./engineClient.js').EngineClient} p.engine
   * @param {import('./session.js').Session} p.session
   * @param {object} p.settings  shared settings (level, timeControl, playerColor)
   * @param {() => void} p.onSettings  settings changed
   * @param {(message: string) => void} p.onError
   * @param {() => 'white'|'black'} p.orientation  how the board is turned now
   * @param {(playerColor: 'white'|'black') => void} p.onNewGame  a new game started (the board turns to the player)
   * @param {() => void} p.onAnalyse  the player wants to analyse the finished game
   */
  constructor({ panel, bars, engine, session, settings, onSettings, onError, orientation, onNewGame, onAnalyse }) {
    Object.assign(this, { panel, bars, engine, session, settings, onSettings, onError, orientation, onNewGame, onAnalyse });
    this.active = false;
    /** the engine's search for its move, or null */
    this.job = null;
    /** the engine's last score of its own position, in centipawns from its side, for draw offers */
    this.engineCp = null;
    this.status = panel.querySelector('.play-status');
    const q = (name) => panel.querySelector(`[name="${name}"]`);
    this.form = panel.querySelector('form.new-game');
    this.level = q('level');
    this.timeControl = q('time-control');
    this.color = q('color');
    this.fen = q('start-fen');
    this.level.innerHTML = LEVELS.map((l, i) => `<option value="${i}">${i + 1}. ${levelLabel(l)}</option>`).join('');
    this.timeControl.innerHTML = TIME_CONTROLS.map((tc, i) => `<option value="${i}">${timeControlLabel(tc)}</option>`).join('');
    this.level.value = String(Math.min(settings.level, LEVELS.length - 1));
    this.timeControl.value = String(settings.timeControl);
    this.color.value = settings.playerColor;
    this.level.addEventListener('change', () => {
      settings.level = Number(this.level.value);
      onSettings();
      this.render();
    });
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.newGame();
    });
    const action = (name, fn) => panel.querySelector(`[data-action="${name}"]`).addEventListener('click', fn);
    action('undo', () => this.undo());
    action('redo', () => this.redo());
    action('draw', () => this.offerDraw());
    action('resign', (e) => this.resign(e.currentTarget));
    action('analyse-game', () => this.onAnalyse());
  }

  setActive(active) {
    this.active = active;
    if (!active && this.job) {
      this.engine.cancel(this.job);
      this.job = null;
    }
    this.update();
  }

  /** Who may move pieces on the board in Play. */
  movableColor() {
    const { game, playerColor } = this.session;
    if (game.turnAt() !== playerColor) return null;
    if (game.end && game.atEnd()) return null;
    return playerColor;
  }

  /** Follows the session: asks the engine to move on its turn, keeps the clocks running. */
  update() {
    this.render();
    if (!this.active) return;
    const { session } = this;
    const { game, clock } = session;
    if (clock && session.isLive() && game.moves.length > 0 && !clock.running) clock.start(game.turnAt());
    const engineToMove = session.isLive() && game.turnAt() === session.engineColor;
    if (engineToMove) {
      if (!this.job || !this.engine.has(this.job) || this.job.ply !== game.moves.length || this.job.gameId !== session.id) this.think();
    } else if (this.job) {
      this.engine.cancel(this.job);
      this.job = null;
    }
  }

  think() {
    const { game, clock, engineColor } = this.session;
    const level = LEVELS[this.settings.level];
    const engineClock = clock ? { remaining: clock.remaining(engineColor), increment: clock.increment } : null;
    const { options, go } = levelSearch(level, engineClock);
    const elo = this.engine.option('UCI_Elo');
    if (options.UCI_Elo !== undefined && elo) options.UCI_Elo = Math.max(elo.min, Math.min(elo.max, options.UCI_Elo));
    for (const [name, value] of Object.entries(options)) this.engine.setOption(name, value);
    const ply = game.moves.length;
    const job = {
      fen: game.startFen,
      moves: game.uciMovesTo(ply),
      go,
      gameId: this.session.id,
      ply,
      onInfo: (info) => {
        if (info.scoreCp !== undefined && (info.multipv ?? 1) === 1) this.engineCp = info.scoreCp;
        else if (info.scoreMate !== undefined) this.engineCp = info.scoreMate > 0 ? 100000 : -100000;
      },
      onBestMove: (best) => {
        if (this.job !== job) return;
        this.job = null;
        if (!best) return this.onError(`the engine found no move in ${game.fenAt(ply)}`);
        if (this.session.isLive() && this.session.game.moves.length === ply && !this.session.move(best)) {
          this.onError(`the engine played an illegal move (${best}); the game is paused`);
        }
      },
    };
    this.job = job;
    this.engine.start(job);
    this.render();
  }

  newGame() {
    const choice = this.color.value;
    const playerColor = choice === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : choice;
    this.settings.playerColor = choice;
    this.settings.timeControl = Number(this.timeControl.value);
    this.onSettings();
    try {
      this.session.newGame({ fen: this.fen.value.trim(), playerColor, timeControl: this.settings.timeControl });
      this.onNewGame(playerColor);
      this.render();
      this.engineCp = null;
      this.fen.value = '';
    } catch (e) {
      if (e instanceof InputError) this.onError(`${e.message}. The current game is kept.`);
      else throw e;
    }
  }

  /** Back to the player's previous turn (before their last move). */
  undo() {
    const { game, playerColor } = this.session;
    for (let ply = game.cursor - 1; ply >= 0; ply--) {
      if (game.turnAt(ply) === playerColor) return this.session.goTo(ply);
    }
  }

  /** Forward to the player's next turn, or the last move. */
  redo() {
    const { game, playerColor } = this.session;
    for (let ply = game.cursor + 1; ply <= game.moves.length; ply++) {
      if (game.turnAt(ply) === playerColor || ply === game.moves.length) return this.session.goTo(ply);
    }
  }

  /** Undo is not offered once a game was decided by resignation, agreement or time. */
  canUndo() {
    const { game } = this.session;
    return game.cursor > 0 && !(game.end && !game.ruleEnd());
  }

  offerDraw() {
    const { game } = this.session;
    if (!this.session.isLive()) return;
    const accepts = game.moves.length >= DRAW_OFFER_FROM_PLY && this.engineCp !== null && this.engineCp <= DRAW_ACCEPT_MAX_CP;
    if (accepts) this.session.finish('1/2-1/2', 'draw agreed');
    else this.flash(game.moves.length < DRAW_OFFER_FROM_PLY ? `meshmate declines: it plays on before move ${DRAW_OFFER_FROM_PLY / 2}.` : 'meshmate declines the draw.');
  }

  /** Resigning takes two clicks, so a slip of the finger does not end the game. */
  resign(button) {
    if (!this.session.isLive()) return;
    if (button.dataset.confirm !== 'yes') {
      button.dataset.confirm = 'yes';
      button.textContent = 'Really resign?';
      setTimeout(() => {
        button.dataset.confirm = '';
        button.textContent = 'Resign';
      }, 3000);
      return;
    }
    button.dataset.confirm = '';
    button.textContent = 'Resign';
    this.session.finish(this.session.playerColor === 'white' ? '0-1' : '1-0', `${this.session.playerColor} resigned`);
  }

  flash(message) {
    this.flashMessage = message;
    this.render();
    setTimeout(() => {
      if (this.flashMessage === message) this.flashMessage = null;
      this.render();
    }, 4000);
  }

  /** The status line, the buttons' states and the player bars. */
  render() {
    const { game, playerColor, engineColor } = this.session;
    let status;
    if (this.flashMessage) status = this.flashMessage;
    else if (game.end) status = `${RESULT_TEXT[game.end.result]} · ${game.end.reason}`;
    else if (!game.atEnd()) status = `Viewing move ${game.cursor} of ${game.moves.length}: play a move to take back from here, or press End.`;
    else if (game.turnAt() === engineColor) status = this.engine.status === EngineStatus.Failed ? 'The engine is not running (see the message above).' : 'meshmate is thinking…';
    else status = 'Your move.';
    if (game.end && !game.atEnd()) status += ` (viewing move ${game.cursor})`;
    this.status.textContent = status;
    this.status.classList.toggle('over', Boolean(game.end));
    this.panel.querySelector('[data-action="undo"]').disabled = !this.canUndo();
    this.panel.querySelector('[data-action="redo"]').disabled = game.atEnd();
    this.panel.querySelector('[data-action="draw"]').disabled = !this.session.isLive();
    this.panel.querySelector('[data-action="resign"]').disabled = !this.session.isLive();
    this.panel.querySelector('[data-action="analyse-game"]').hidden = !game.end;
    this.renderBars(playerColor);
  }

  renderBars(playerColor) {
    const bottom = this.orientation();
    const top = bottom === 'white' ? 'black' : 'white';
    const level = LEVELS[this.settings.level];
    for (const [el, color] of [
      [this.bars.top, top],
      [this.bars.bottom, bottom],
    ]) {
      const name = !this.active ? (color === 'white' ? 'White' : 'Black') : color === playerColor ? 'You' : `meshmate · ${levelLabel(level)}`;
      const clock = this.session.clock;
      el.querySelector('.player-name').textContent = name;
      const clockEl = el.querySelector('.clock');
      clockEl.hidden = !clock;
      if (clock) {
        const ms = clock.remaining(color);
        clockEl.textContent = formatClock(ms);
        clockEl.classList.toggle('running', clock.running === color);
        clockEl.classList.toggle('low', ms < 20000);
      }
      el.dataset.color = color;
    }
  }
}
