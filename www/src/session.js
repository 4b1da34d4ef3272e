// The game being played: the record, which side the player has, the clocks and an id
// that changes with every new game (the engine gets `ucinewgame` when it does). Every
// change is saved, so the game survives a reload, and announced through `onChange`.
import { Game } from './game.js';
import { Clock, TIME_CONTROLS } from './clock.js';
import { loadGameSession, saveGameSession } from './settings.js';

export class Session {
  /**
   * @param {object} p
   * @param {() => void} p.onChange  the game, the cursor or the clocks changed state
   * @param {() => void} p.onTick    the clocks' display needs a refresh
   */
  constructor({ onChange, onTick }) {
    this.onChange = onChange;
    this.onTick = onTick;
    this.game = new Game();
    /** the player's side in Play; the engine has the other */
    this.playerColor = 'white';
    /** index into TIME_CONTROLS */
    this.timeControl = 0;
    /** @type {Clock|null} */
    this.clock = null;
    this.id = newId();
    /**
     * The game as it was before the user tried other moves in analysis, or null:
     * {moves, end, ply} where ply is where the variation left the game.
     */
    this.savedLine = null;
  }

  /** Starts a new game; `fen` may be '' for the standard start. Throws InputError for a bad FEN. */
  newGame({ fen, playerColor, timeControl }) {
    const game = fen ? Game.fromFen(fen) : new Game();
    this.clock?.pause();
    this.game = game;
    this.playerColor = playerColor;
    this.timeControl = timeControl;
    this.clock = this.makeClock();
    this.id = newId();
    this.savedLine = null;
    this.changed();
  }

  /** Replaces the record by an imported game; the player keeps their side, clocks stop. */
  replaceGame(game) {
    this.clock?.pause();
    this.game = game;
    this.timeControl = 0;
    this.clock = null;
    this.id = newId();
    this.savedLine = null;
    this.changed();
  }

  /** Plays a move at the cursor; returns false if it is illegal. Runs the clocks in a live game. */
  move(move) {
    const mover = this.game.turnAt();
    const wasLive = this.isLive();
    if (!this.game.play(move)) return false;
    if (this.clock && wasLive) {
      if (this.game.end) this.clock.pause();
      else this.clock.switchAfterMove(mover);
    }
    this.changed();
    return true;
  }

  /** Shows the position after `ply` moves (clamped to the game). */
  /**
   * Plays a move in analysis: the first time it leaves the game's line, the game is kept
   * aside, so `backToGame` can bring it back after the variation was explored.
   */
  explore(move) {
    const { game } = this;
    const next = game.moves[game.cursor];
    const uci = typeof move === 'string' ? move : move.from + move.to + (move.promotion ?? '');
    const leaves = !this.savedLine && next && next.uci !== uci;
    if (leaves) this.savedLine = { moves: [...game.moves], end: game.end, ply: game.cursor };
    const ok = this.move(move);
    if (!ok && leaves) this.savedLine = null;
    return ok;
  }

  /** Restores the game kept aside by `explore`, showing the position where the variation began. */
  backToGame() {
    if (!this.savedLine) return;
    const { moves, end, ply } = this.savedLine;
    this.game.moves = moves;
    this.game.end = end;
    this.game.cursor = ply;
    this.savedLine = null;
    this.changed();
  }

  goTo(ply) {
    const before = this.game.cursor;
    this.game.goTo(ply);
    if (this.game.cursor !== before) this.changed();
  }

  /** Ends the game by resignation, agreement or flag. */
  finish(result, reason) {
    this.game.finish(result, reason);
    this.clock?.pause();
    this.changed();
  }

  /** The game is in progress and the board shows its last position. */
  isLive() {
    return !this.game.end && this.game.atEnd();
  }

  /** The engine's side in Play. */
  get engineColor() {
    return this.playerColor === 'white' ? 'black' : 'white';
  }

  makeClock() {
    const control = TIME_CONTROLS[this.timeControl];
    if (!control) return null;
    return new Clock(control, (color) => this.flag(color), this.onTick);
  }

  /** A flag fall loses, unless the other side cannot mate at all (then it is a draw). */
  flag(color) {
    const other = color === 'white' ? 'b' : 'w';
    const pieces = this.game
      .positionAt(this.game.moves.length)
      .board()
      .flat()
      .filter((p) => p && p.color === other && p.type !== 'k');
    if (!pieces.length) this.finish('1/2-1/2', `${color} ran out of time, but the opponent has only a king`);
    else this.finish(color === 'white' ? '0-1' : '1-0', `${color} ran out of time`);
  }

  changed() {
    const saved = this.savedLine && { moves: this.savedLine.moves.map((m) => m.uci), end: this.savedLine.end, ply: this.savedLine.ply };
    saveGameSession({ game: this.game.toJSON(), playerColor: this.playerColor, timeControl: this.timeControl, clock: this.clock?.toJSON() ?? null, id: this.id, savedLine: saved });
    this.onChange();
  }

  /** Restores the saved game; returns an error message if the saved data was unusable. */
  restore() {
    const saved = loadGameSession();
    if (!saved) return null;
    try {
      this.game = Game.fromJSON(saved.game);
      this.playerColor = saved.playerColor === 'black' ? 'black' : 'white';
      this.timeControl = TIME_CONTROLS[saved.timeControl] !== undefined ? saved.timeControl : 0;
      this.clock = this.makeClock();
      if (this.clock && saved.clock) this.clock.restore(saved.clock);
      this.id = typeof saved.id === 'string' ? saved.id : newId();
      if (saved.savedLine) {
        const line = Game.fromJSON({ startFen: this.game.startFen, moves: saved.savedLine.moves, cursor: 0, end: saved.savedLine.end });
        this.savedLine = { moves: line.moves, end: line.end, ply: Math.min(saved.savedLine.ply | 0, line.moves.length) };
      }
      return null;
    } catch (e) {
      this.game = new Game();
      return `The saved game could not be restored (${e.message}); a new game was started.`;
    }
  }
}

function newId() {
  return Math.random().toString(36).slice(2, 10);
}
