// The game record: a start position, the moves of the main line, a cursor (the ply the
// board shows), and how the game ended. chess.js is the authority for legality, SAN, PGN
// and the automatic end rules; this module adds the cursor and the ends chess.js cannot
// see (resignation, agreed draw, time).
import { Chess, DEFAULT_POSITION, validateFen } from 'chess.js';

/** @typedef {{san: string, uci: string, from: string, to: string, promotion?: string}} GameMove */

/** Thrown for bad input; the message says what is wrong and is meant for the user. */
export class InputError extends Error {}

export class Game {
  constructor(startFen = DEFAULT_POSITION) {
    /** FEN of the position before the first move */
    this.startFen = startFen;
    /** @type {GameMove[]} the main line */
    this.moves = [];
    /** the ply the board shows: 0 = start position, moves.length = last move */
    this.cursor = 0;
    /** @type {{result: string, reason: string} | null} result '1-0' | '0-1' | '1/2-1/2'; set when the game is over */
    this.end = null;
    /** PGN tag pairs kept from an import (Event, White, Black...) */
    this.headers = {};
  }

  /** A new game from a FEN; throws InputError with chess.js's reason if the FEN is invalid. */
  static fromFen(fen) {
    const trimmed = fen.trim();
    const check = validateFen(trimmed);
    if (!check.ok) throw new InputError(`Invalid FEN: ${check.error.replace(/^Invalid FEN: /, '')}`);
    const game = new Game(new Chess(trimmed).fen());
    game.end = game.ruleEnd();
    return game;
  }

  /** A game from PGN text; throws InputError if it does not parse or has an illegal move. */
  static fromPgn(pgn) {
    const chess = new Chess();
    try {
      chess.loadPgn(pgn.trim());
    } catch (e) {
      throw new InputError(`Invalid PGN: ${e.message}`);
    }
    const headers = chess.getHeaders();
    const game = new Game(headers.FEN && headers.SetUp !== '0' ? headers.FEN : DEFAULT_POSITION);
    game.headers = Object.fromEntries(Object.entries(headers).filter(([k, v]) => v && !/^\?[?.]*$/.test(v) && !['FEN', 'SetUp', 'Result'].includes(k)));
    game.moves = chess.history({ verbose: true }).map(toGameMove);
    game.cursor = game.moves.length;
    game.end = game.ruleEnd() ?? resultFromHeader(headers.Result);
    return game;
  }

  /** A chess.js position after `ply` moves (default: at the cursor), with its history. */
  positionAt(ply = this.cursor) {
    const chess = new Chess(this.startFen);
    for (let i = 0; i < ply; i++) chess.move(this.moves[i].uci);
    return chess;
  }

  fenAt(ply = this.cursor) {
    return this.positionAt(ply).fen();
  }

  /** UCI moves from the start up to `ply`, for `position fen ... moves ...`. */
  uciMovesTo(ply = this.cursor) {
    return this.moves.slice(0, ply).map((m) => m.uci);
  }

  /** The side to move at `ply`: 'white' or 'black'. */
  turnAt(ply = this.cursor) {
    const startTurn = this.startFen.split(' ')[1] === 'b' ? 1 : 0;
    return (startTurn + ply) % 2 === 0 ? 'white' : 'black';
  }

  atEnd() {
    return this.cursor === this.moves.length;
  }

  /** Moves the cursor, clamped to the game. */
  goTo(ply) {
    this.cursor = Math.max(0, Math.min(this.moves.length, ply));
  }

  /**
   * Plays a move at the cursor. A move equal to the next main-line move just advances;
   * a different one replaces the rest of the line. Returns the move, or null if illegal.
   * @param {string | {from: string, to: string, promotion?: string}} move UCI text or squares
   */
  play(move) {
    const chess = this.positionAt();
    let played;
    try {
      played = chess.move(typeof move === 'string' ? uciToMove(move) : move);
    } catch {
      return null;
    }
    const gameMove = toGameMove(played);
    if (this.moves[this.cursor]?.uci === gameMove.uci) {
      this.cursor++;
      return gameMove;
    }
    this.moves = this.moves.slice(0, this.cursor);
    this.moves.push(gameMove);
    this.cursor++;
    this.end = ruleEndOf(chess);
    return gameMove;
  }

  /** Ends the game by a decision the rules cannot see: resignation, agreement, time. */
  finish(result, reason) {
    this.end = { result, reason };
  }

  /** The end by the rules at the last move (mate, stalemate, repetition, 50 moves, material), or null. */
  ruleEnd() {
    return ruleEndOf(this.positionAt(this.moves.length));
  }

  /** The whole game as PGN, with the result. */
  toPgn() {
    const chess = new Chess(this.startFen);
    for (const [k, v] of Object.entries(this.headers)) chess.setHeader(k, v);
    if (this.startFen !== DEFAULT_POSITION) {
      chess.setHeader('SetUp', '1');
      chess.setHeader('FEN', this.startFen);
    }
    for (const m of this.moves) chess.move(m.uci);
    chess.setHeader('Result', this.end?.result ?? '*');
    return chess.pgn();
  }

  /** A plain object for localStorage. */
  toJSON() {
    return { startFen: this.startFen, moves: this.moves.map((m) => m.uci), cursor: this.cursor, end: this.end, headers: this.headers };
  }

  /** Rebuilds a game saved by toJSON; throws if the saved moves are not legal. */
  static fromJSON(data) {
    const game = Game.fromFen(data.startFen);
    for (const uci of data.moves) if (!game.play(uci)) throw new InputError(`saved move ${uci} is illegal`);
    game.cursor = Math.max(0, Math.min(game.moves.length, data.cursor | 0));
    game.end = data.end ?? game.end;
    game.headers = data.headers ?? {};
    return game;
  }
}

/** Converts a UCI move text to the squares chess.js takes. */
export function uciToMove(uci) {
  return { from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] };
}

function toGameMove(m) {
  return { san: m.san, uci: m.from + m.to + (m.promotion ?? ''), from: m.from, to: m.to, promotion: m.promotion };
}

function ruleEndOf(chess) {
  if (chess.isCheckmate()) return { result: chess.turn() === 'w' ? '0-1' : '1-0', reason: 'checkmate' };
  if (chess.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate' };
  if (chess.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'insufficient material' };
  if (chess.isThreefoldRepetition()) return { result: '1/2-1/2', reason: 'threefold repetition' };
  if (chess.isDrawByFiftyMoves()) return { result: '1/2-1/2', reason: 'fifty-move rule' };
  return null;
}

function resultFromHeader(result) {
  return ['1-0', '0-1', '1/2-1/2'].includes(result) ? { result, reason: 'result given in the PGN' } : null;
}

/**
 * Plays a line of UCI moves from a position, stopping at the first illegal move (a line
 * sampled from a search that moved on, say): the SAN of the moves played, the position
 * they reach, the last one's squares, and whether every move was played.
 * @returns {{ san: string[], fen: string, lastMove?: [string, string], complete: boolean }}
 */
export function playUciLine(fen, uciMoves) {
  const chess = new Chess(fen);
  const san = [];
  let lastMove;
  for (const uci of uciMoves) {
    let move;
    try {
      move = chess.move(uciToMove(uci));
    } catch {
      return { san, fen: chess.fen(), lastMove, complete: false };
    }
    san.push(move.san);
    lastMove = [move.from, move.to];
  }
  return { san, fen: chess.fen(), lastMove, complete: true };
}

/** SAN of the first `max` moves of a line of UCI moves, up to the first illegal one. */
export function lineToSan(fen, uciMoves, max = Infinity) {
  return playUciLine(fen, uciMoves.slice(0, max)).san;
}
