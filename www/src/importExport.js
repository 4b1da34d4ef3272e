// PGN and FEN in and out: paste or open a file to load, copy or download to export.
// A bad input is refused with the parser's reason and the current game stays.
import { Game, InputError } from './game.js';

/** A FEN starts with eight ranks separated by slashes and then the side to move. */
const LOOKS_LIKE_FEN = /^\s*[pnbrqkPNBRQK1-8]+(\/[pnbrqkPNBRQK1-8]*){7}\s+[wb]\b/;

/** Reads pasted or file text as a FEN or a PGN; throws InputError with the reason. */
export function parseGameText(text) {
  if (!text.trim()) throw new InputError('Nothing to load: paste a FEN or a PGN first.');
  if (LOOKS_LIKE_FEN.test(text) || (text.includes('/') && !/\[|\d\./.test(text))) return Game.fromFen(text.trim());
  return Game.fromPgn(text);
}

export class ImportExport {
  /**
   * @param {object} p
   * @param {HTMLElement} p.panel
   * @param {() => Game} p.currentGame
   * @param {(game: Game) => void} p.onLoad  a valid game was loaded
   * @param {(message: string) => void} p.onError
   * @param {(message: string) => void} p.onNote
   */
  constructor({ panel, currentGame, onLoad, onError, onNote }) {
    Object.assign(this, { panel, currentGame, onLoad, onError, onNote });
    this.text = panel.querySelector('textarea');
    this.file = panel.querySelector('input[type="file"]');
    /** The last downloaded file's object URL, revoked when the next one is made. */
    this.downloadUrl = null;
    const action = (name, fn) => panel.querySelector(`[data-action="${name}"]`).addEventListener('click', fn);
    action('load', () => this.load(this.text.value, 'the pasted text'));
    action('copy-fen', () => this.export(this.currentGame().fenAt(), 'FEN'));
    action('copy-pgn', () => this.export(this.currentGame().toPgn(), 'PGN'));
    action('download-pgn', () => this.download());
    this.file.addEventListener('change', async () => {
      const file = this.file.files[0];
      if (!file) return;
      this.file.value = '';
      if (file.size > 4 * 1024 * 1024) return this.onError(`${file.name} is larger than 4 MB; that is not a single game.`);
      this.load(await file.text(), file.name);
    });
  }

  load(text, source) {
    let game;
    try {
      game = parseGameText(text);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.onError(`${e.message} (from ${source}). The current game is kept.`);
      return;
    }
    this.onLoad(game);
    this.onNote(`Loaded ${game.moves.length ? `a game of ${game.moves.length} plies` : 'a position'} from ${source}.`);
  }

  /** Shows the text in the box and copies it to the clipboard where the browser allows. */
  async export(text, what) {
    this.text.value = text;
    try {
      await navigator.clipboard.writeText(text);
      this.onNote(`${what} copied to the clipboard.`);
    } catch {
      this.text.select();
      this.onNote(`${what} is in the box (the browser did not allow copying to the clipboard).`);
    }
  }

  /**
   * Saves the game as a file. The file's URL lives until the next download: the browser
   * fetches it some time after the click, and on a busy machine a fixed delay before
   * revoking it could lose the download.
   */
  download() {
    const pgn = this.currentGame().toPgn();
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
    this.downloadUrl = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
    const a = document.createElement('a');
    a.href = this.downloadUrl;
    a.download = `meshmate-${new Date().toISOString().slice(0, 10)}.pgn`;
    a.click();
  }
}
