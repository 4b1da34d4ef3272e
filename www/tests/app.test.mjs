// End-to-end tests of the play/analyse app: Debian's Chromium (playwright-core) against the
// built app served by www/serve.mjs, with the real engine worker and wasm packages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { ENGINE_STATUSES, statusLabel } from '../src/enginePanel.js';
import { RESULTS, collectErrors, rankNumbersOffTheirRanks, recordUciTraffic, servedApp, startServer } from './browser.mjs';

const ENGINE_READY_MS = 90000;
const ENGINE_MOVE_MS = 60000;
/** How long the page may take to show moves it made without the engine (clicks, an import): a
 * loaded CI machine, with the Analyse engine searching beside them, has taken more than 5 s. */
const PAGE_MOVES_MS = 20000;
const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };

const app = servedApp();

/** A fresh page (empty localStorage) on the app, its error log, and the engine up. */
async function openApp(t, { viewport = DESKTOP, url = app.server.url, contextOptions = {}, initScript = null } = {}) {
  const context = await app.browser.newContext({ viewport, ...contextOptions });
  t.after(() => context.close());
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: ENGINE_READY_MS });
  return { page, errors };
}

/** The centre of a square on screen, for the board's current orientation. */
async function squareCenter(page, square) {
  const box = await page.locator('.board-column cg-board').boundingBox();
  const flipped = await page.locator('.board-column .cg-wrap').evaluate((el) => el.classList.contains('orientation-black'));
  let file = square.charCodeAt(0) - 97;
  let rank = Number(square[1]) - 1;
  if (flipped) [file, rank] = [7 - file, 7 - rank];
  return { x: box.x + ((file + 0.5) * box.width) / 8, y: box.y + ((7 - rank + 0.5) * box.height) / 8 };
}

/** Drags a piece with the mouse, in small steps as a hand would. */
async function drag(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

/** Clicks the piece, then its destination. */
async function clickMove(page, from, to) {
  for (const square of [from, to]) {
    const p = await squareCenter(page, square);
    await page.mouse.click(p.x, p.y);
  }
}

const moveTexts = (page) => page.locator('.move-list .move[data-ply]').allTextContents();

async function waitForMoves(page, count, timeout = ENGINE_MOVE_MS) {
  await page.waitForFunction((n) => document.querySelectorAll('.move-list .move[data-ply]').length >= n, count, { timeout });
  return moveTexts(page);
}

/** Starts a new game in Play with the given side and level index. */
async function newGame(page, { color = 'white', level = '0', fen = '' } = {}) {
  await page.click('[data-mode="play"]');
  await page.selectOption('[name="color"]', color);
  await page.selectOption('[name="level"]', level);
  await page.fill('[name="start-fen"]', fen);
  await page.click('form.new-game button[type="submit"]');
}

/** The piece chessground shows on a square ('white pawn'), once animations have settled. */
async function pieceOn(page, square) {
  await page.waitForFunction(() => !document.querySelector('.board-column cg-board piece.anim, .board-column cg-board piece.fading, .board-column cg-board piece.dragging'));
  return page.evaluate((sq) => {
    const piece = [...document.querySelectorAll('.board-column cg-board piece')].find((p) => p.cgKey === sq);
    return piece ? piece.className : null;
  }, square);
}

async function importText(page, text) {
  await page.locator('details.import-export').evaluate((d) => (d.open = true));
  await page.fill('.import-export textarea', text);
  await page.click('[data-action="load"]');
}

describe('meshmate app in Chromium', () => {
  test('the page is cross-origin isolated and offers every core', async (t) => {
    const { page, errors } = await openApp(t);
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    assert.equal(await page.locator('.isolation-notice').isHidden(), true);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = await page.locator('[name="threads"] option').count();
    assert.equal(threads, cores, 'Threads offers 1..hardwareConcurrency');
    assert.deepEqual(errors, []);
  });

  test('a mouse move is accepted and the engine answers at the lowest level', async (t) => {
    const { page, errors } = await openApp(t);
    await newGame(page, { color: 'white', level: '0' });
    await drag(page, 'e2', 'e4');
    const moves = await waitForMoves(page, 2);
    assert.equal(moves[0], 'e4');
    assert.match(moves[1], /^[a-hNBRQKO]/, `engine reply ${moves[1]} is a SAN move`);
    assert.equal(await pieceOn(page, 'e4'), 'white pawn');
    assert.match(await page.locator('.play-status').textContent(), /Your move/);
    await page.screenshot({ path: join(RESULTS, 'play-desktop.png') });
    assert.deepEqual(errors, []);
  });

  test('an illegal drag is refused and the piece goes back', async (t) => {
    const { page, errors } = await openApp(t);
    await newGame(page, { color: 'white', level: '0' });
    await drag(page, 'e2', 'e5');
    await drag(page, 'g1', 'g3');
    await page.waitForTimeout(300);
    assert.deepEqual(await moveTexts(page), []);
    assert.equal(await pieceOn(page, 'e2'), 'white pawn');
    assert.equal(await pieceOn(page, 'g1'), 'white knight');
    assert.equal(await pieceOn(page, 'e5'), null);
    assert.deepEqual(errors, []);
  });

  test('a pawn promotes to the piece chosen', async (t) => {
    const { page, errors } = await openApp(t);
    await page.click('[data-mode="analyse"]');
    await importText(page, '8/4P3/8/8/8/2k5/8/4K3 w - - 0 1');
    await drag(page, 'e7', 'e8');
    await page.click('.promotion-chooser button[data-role="n"]');
    assert.deepEqual(await waitForMoves(page, 1), ['e8=N']);
    assert.equal(await pieceOn(page, 'e8'), 'white knight');
    assert.deepEqual(errors, []);
  });

  /** Presses Copy PGN and reads the box it fills. On a loaded machine one CI run read an
   * empty box after the click; a second press is allowed, so a button that never fills it
   * still fails. */
  async function copyPgn(page) {
    const box = '.import-export textarea';
    await page.fill(box, '');
    for (let press = 0; press < 2; press++) {
      await page.click('[data-action="copy-pgn"]');
      const filled = await page.waitForFunction((selector) => document.querySelector(selector).value !== '', box, { timeout: 3000 }).then(() => true, () => false);
      if (filled) break;
    }
    return page.inputValue(box);
  }

  test('PGN export then import reproduces the game', async (t) => {
    const { page, errors } = await openApp(t);
    await page.click('[data-mode="analyse"]');
    for (const [from, to] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'b5'], ['a7', 'a6'], ['b5', 'c6'], ['d7', 'c6'], ['e1', 'g1']]) {
      await clickMove(page, from, to);
    }
    const played = await waitForMoves(page, 9, PAGE_MOVES_MS);
    assert.deepEqual(played, ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6', 'O-O']);
    await page.locator('details.import-export').evaluate((d) => (d.open = true));
    const pgn = await copyPgn(page);
    assert.match(pgn, /1\. e4 e5 2\. Nf3 Nc6 3\. Bb5 a6 4\. Bxc6 dxc6 5\. O-O/);
    await importText(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    assert.deepEqual(await moveTexts(page), []);
    // Open the exported game as a file, as a player would.
    await page.setInputFiles('.import-export input[type="file"]', { name: 'game.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(pgn) });
    assert.deepEqual(await waitForMoves(page, 9, PAGE_MOVES_MS), played);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="download-pgn"]')]);
    assert.match(download.suggestedFilename(), /^meshmate-\d{4}-\d\d-\d\d\.pgn$/);
    await importText(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    await importText(page, pgn);
    assert.deepEqual(await waitForMoves(page, 9, PAGE_MOVES_MS), played);
    assert.equal(await copyPgn(page), pgn);
    // The keyboard moves through the game.
    await page.locator('.move-list').focus();
    const current = () => page.locator('.move-list .move.current').textContent();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await current(), 'dxc6');
    await page.keyboard.press('Home');
    assert.equal(await page.locator('.move-list .move.current').count(), 0);
    assert.equal(await pieceOn(page, 'e2'), 'white pawn');
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(), 'e4');
    await page.keyboard.press('End');
    assert.equal(await current(), 'O-O');
    // Trying another move keeps the game aside; one click brings it back.
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    // Click only once the board shows that position and its pieces stand still.
    await page.waitForFunction(() => document.querySelector('.move-list .move.current')?.textContent === 'Nc6');
    assert.equal(await pieceOn(page, 'f1'), 'white bishop');
    await clickMove(page, 'f1', 'c4');
    await page.waitForFunction(() => document.querySelector('.move-list .move.current')?.textContent === 'Bc4');
    assert.deepEqual(await moveTexts(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
    assert.match(await page.locator('.variation-note').textContent(), /variation.*9 plies/);
    await page.click('[data-action="back-to-game"]');
    assert.deepEqual(await moveTexts(page), played);
    assert.equal(await current(), 'Nc6');
    assert.equal(await page.locator('.variation-note').isHidden(), true);
    await page.keyboard.press('End');
    // The game and the settings survive a reload.
    await page.selectOption('[name="multipv"]', '2');
    await page.reload();
    assert.deepEqual(await waitForMoves(page, 9, 10000), played);
    assert.equal(await page.inputValue('[name="multipv"]'), '2');
    assert.equal(await page.locator('[data-mode="analyse"]').getAttribute('aria-selected'), 'true');
    assert.deepEqual(errors, []);
  });

  test('a bad FEN or PGN is refused with the reason and the game is kept', async (t) => {
    const { page, errors } = await openApp(t);
    await newGame(page, { fen: '8/8/8/8/8/8/8/8 w - - 0 1' });
    await page.waitForSelector('.notice.error');
    assert.match(await page.locator('.notice.error').last().textContent(), /Invalid FEN: .*king.*current game is kept/i);
    await page.click('[data-mode="analyse"]');
    await clickMove(page, 'd2', 'd4');
    await importText(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1');
    await page.waitForFunction(() => document.querySelectorAll('.notice.error').length >= 2);
    assert.match(await page.locator('.notice.error').last().textContent(), /Invalid FEN: .*piece.*current game is kept/);
    await importText(page, '1. e4 e5 2. Ke3');
    await page.waitForFunction(() => document.querySelectorAll('.notice.error').length >= 3);
    assert.match(await page.locator('.notice.error').last().textContent(), /Invalid PGN: .*Ke3/);
    assert.deepEqual(await moveTexts(page), ['d4']);
    assert.deepEqual(errors, []);
  });

  test('checkmate on the board is detected and shown, with the check highlighted', async (t) => {
    const { page, errors } = await openApp(t);
    await page.click('[data-mode="analyse"]');
    await importText(page, '1. f3 e5 2. g4');
    await drag(page, 'd8', 'h4');
    assert.deepEqual(await waitForMoves(page, 4, PAGE_MOVES_MS), ['f3', 'e5', 'g4', 'Qh4#']);
    assert.match(await page.locator('.move-list .result').textContent(), /0-1 \(checkmate\)/);
    assert.equal(await page.evaluate(() => [...document.querySelectorAll('.board-column cg-board square.check')].map((s) => s.cgKey).join()), 'e1');
    assert.match(await page.locator('.analysis-summary').textContent(), /Game over/);
    await page.click('[data-mode="play"]');
    assert.match(await page.locator('.play-status').textContent(), /Black wins · checkmate/);
    assert.deepEqual(errors, []);
  });

  test('MultiPV 3 shows three lines in SAN with scores, the eval bar and arrows', async (t) => {
    const { page, errors } = await openApp(t);
    await page.click('[data-mode="analyse"]');
    await page.selectOption('[name="multipv"]', '3');
    await page.waitForFunction(() => document.querySelectorAll('.analysis-line').length === 3, null, { timeout: ENGINE_MOVE_MS });
    const lines = await page.locator('.analysis-line').evaluateAll((els) =>
      els.map((el) => ({ score: el.querySelector('.score').textContent, pv: el.querySelector('.pv').textContent })),
    );
    for (const line of lines) {
      assert.match(line.score, /^([+−]\d+\.\d\d|0\.00|#−?\d+)$/);
      assert.match(line.pv, /^1\. [a-hNBRQK]/);
    }
    assert.equal(new Set(lines.map((l) => l.pv.split(' ')[1])).size, 3, 'three different first moves');
    assert.match(await page.locator('.analysis-summary').textContent(), /depth \d+.*nodes.*n\/s.*hash/);
    assert.equal(await page.locator('.eval-bar').isVisible(), true);
    assert.ok((await page.locator('svg.cg-shapes line').count()) >= 1, 'best-move arrow drawn');
    // Analysis follows the position: after a move, the lines are for the new side to move.
    await clickMove(page, 'e2', 'e4');
    await page.waitForFunction(() => [...document.querySelectorAll('.analysis-line .pv')].length === 3 && [...document.querySelectorAll('.analysis-line .pv')].every((el) => el.textContent.startsWith('1…')), null, { timeout: ENGINE_MOVE_MS });
    await page.screenshot({ path: join(RESULTS, 'analysis-desktop.png') });
    await page.click('[data-action="toggle-analysis"]');
    await page.waitForSelector('.engine-status[data-status="ready"]');
    assert.match(await page.locator('.analysis-summary').textContent(), /stopped/);
    assert.deepEqual(errors, []);
  });

  test('Algorithm lists what the engine offers, and Algorithm and Threads changes reach the engine and its workers', async (t) => {
    const { page, errors } = await openApp(t, { initScript: recordUciTraffic });
    const offered = await page.locator('[name="algorithm"] option').allTextContents();
    const declared = await page.evaluate(() => window.uciTraffic.find((l) => l.startsWith('< option name Algorithm ')));
    assert.ok(declared, 'the engine declares an Algorithm option');
    assert.deepEqual(offered, declared.split(' var ').slice(1), 'the choices are read from the option line');
    const threads = await page.locator('[name="threads"] option').allTextContents();
    // The defaults put every core to work: the engine's default algorithm is parallel.
    assert.equal(await page.inputValue('[name="algorithm"]'), 'abdada');
    await page.click('[data-mode="analyse"]');
    await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    await page.waitForFunction((n) => document.querySelectorAll('.worker-row.busy').length === n, threads.length, { timeout: ENGINE_MOVE_MS });
    // Each busy worker shows the line it is on, in SAN from the analysed position.
    await page.waitForFunction(() => [...document.querySelectorAll('.worker-row.busy')].every((row) => row.querySelector('.worker-line').textContent.includes(' ')), null, { timeout: ENGINE_MOVE_MS });
    for (const line of await page.locator('.worker-row.busy .worker-line').allTextContents()) {
      const chess = new Chess();
      for (const san of line.split(' ')) assert.doesNotThrow(() => chess.move(san), `${line}: ${san} is not legal there`);
    }
    // Another algorithm reaches the engine while it analyses.
    await page.selectOption('[name="algorithm"]', 'lazysmp');
    await page.waitForFunction(() => window.uciTraffic.includes('> setoption name Algorithm value lazysmp'), null, { timeout: ENGINE_MOVE_MS });
    // The default is every core; go down to one and back up (on a one-core device: just one).
    for (const n of threads.length > 1 ? ['1', threads.at(-1)] : []) {
      const mark = await page.evaluate(() => window.uciTraffic.length);
      await page.selectOption('[name="threads"]', n);
      // The running search is stopped, the option sent, and the analysis starts again with it.
      await page.waitForFunction(
        ([from, n]) => {
          const sent = window.uciTraffic.slice(from);
          const set = sent.indexOf(`> setoption name Threads value ${n}`);
          return set >= 0 && sent.indexOf('> go infinite', set) > set;
        },
        [mark, n],
        { timeout: ENGINE_MOVE_MS },
      );
      await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
      // The worker view shows that many workers busy.
      await page.waitForFunction((n) => document.querySelectorAll('.worker-row.busy').length === Number(n), n, { timeout: ENGINE_MOVE_MS });
    }
    const refused = await page.evaluate(() => window.uciTraffic.filter((l) => l.startsWith('< info string error')));
    assert.deepEqual(refused, []);
    assert.equal(await page.locator('.notice.error').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('a Hash the wasm memory cannot hold is refused, and the control shows the size in use', async (t) => {
    const { page, errors } = await openApp(t);
    const sizes = await page.locator('[name="hash"] option').evaluateAll((els) => els.map((e) => Number(e.value)));
    const before = await page.inputValue('[name="hash"]');
    await page.click('[data-mode="analyse"]');
    await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    await page.selectOption('[name="hash"]', String(Math.max(...sizes)));
    const refused = page.locator('.notice.error', { hasText: 'hash table' });
    const accepted = page.locator('.analysis-line');
    // Either the engine takes the largest table it offers, or it says why not and keeps the old one.
    await refused.or(accepted).first().waitFor({ timeout: ENGINE_MOVE_MS });
    if (await refused.count()) {
      assert.match(await refused.textContent(), /cannot allocate a \d+ MiB hash table; keeping the \d+ MiB table/);
      await page.waitForFunction((b) => document.querySelector('[name="hash"]').value !== String(b), Math.max(...sizes));
      t.diagnostic(`Hash ${Math.max(...sizes)} MB refused; control back to ${await page.inputValue('[name="hash"]')} (was ${before})`);
      await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    }
    assert.deepEqual(errors, []);
  });

  test('the Hash menu offers what the device can hold: 1024 MB with 8 GB of memory, 512 with 2 GB', async (t) => {
    const offered = async (gib) => {
      const initScript = `Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => ${gib} });`;
      const { page, errors } = await openApp(t, { initScript });
      const sizes = await page.locator('[name="hash"] option').evaluateAll((els) => els.map((e) => Number(e.value)));
      assert.deepEqual(errors, []);
      return Math.max(...sizes);
    };
    // The engine's own maximum (the 4 GiB wasm memory holds a 1024 MiB table) bounds an 8 GB device.
    assert.equal(await offered(8), 1024);
    assert.equal(await offered(2), 512);
  });

  test('an engine crash is reported and the engine restarted, analysis resumes', async (t) => {
    const { page, errors } = await openApp(t, { initScript: recordUciTraffic });
    await page.click('[data-mode="analyse"]');
    await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    // What the browser delivers when a worker dies of an uncaught error (a wasm trap). The
    // status is read in the same task: a second later the restart has begun, and a slow
    // test run may look only then.
    const statusAtCrash = await page.evaluate(() => {
      window.engineWorkers[0].dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable' }));
      return document.querySelector('.engine-status').getAttribute('data-status');
    });
    assert.equal(statusAtCrash, 'failed');
    await page.waitForSelector('.notice.error');
    assert.match(await page.locator('.notice.error').textContent(), /engine crashed: RuntimeError: unreachable; restarting the engine in 1 s/);
    await page.waitForFunction(() => window.engineWorkers.length === 2, null, { timeout: 10000 });
    await page.waitForSelector('.engine-status[data-status="computing"]', { timeout: ENGINE_READY_MS });
    await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    // The page's own console shows nothing unexpected besides the reported crash.
    assert.deepEqual(errors, []);
  });

  test('clocks run for the side to move in a timed game', async (t) => {
    const { page, errors } = await openApp(t);
    await page.selectOption('[name="time-control"]', { label: '3+2' });
    await newGame(page, { color: 'white', level: '0' });
    assert.equal(await page.locator('.player-bar.bottom .clock').textContent(), '3:00');
    await drag(page, 'e2', 'e4');
    await waitForMoves(page, 2);
    await page.waitForSelector('.player-bar.bottom .clock.running');
    assert.equal(await page.locator('.player-bar.top .clock.running').count(), 0);
    // White moved once: 3:00 plus the 2 s increment, less the time the move took.
    assert.match(await page.locator('.player-bar.bottom .clock').textContent(), /^3:0[0-2]$|^2:5\d$/);
    assert.match(await page.locator('.player-bar.top .clock').textContent(), /^3:0[0-2]$|^2:5\d$/);
    assert.deepEqual(errors, []);
  });

  test('resigning takes two clicks and ends the game', async (t) => {
    const { page, errors } = await openApp(t);
    await newGame(page, { color: 'black', level: '0' });
    await waitForMoves(page, 1);
    await page.click('[data-action="resign"]');
    assert.equal(await page.locator('[data-action="resign"]').textContent(), 'Really resign?');
    await page.click('[data-action="resign"]');
    assert.match(await page.locator('.play-status').textContent(), /White wins · black resigned/);
    assert.match(await page.locator('.move-list .result').textContent(), /1-0/);
    assert.equal(await page.locator('[data-action="undo"]').isDisabled(), true);
    await page.click('[data-action="analyse-game"]');
    await page.waitForSelector('.analysis-panel:not([hidden])');
    assert.deepEqual(errors, []);
  });

  test('a new game from a FEN: the engine moves first when it is its turn, and declines an early draw', async (t) => {
    const { page, errors } = await openApp(t);
    await newGame(page, { color: 'white', level: '0', fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' });
    const moves = await waitForMoves(page, 1);
    assert.equal(moves.length, 1);
    assert.equal(await page.locator('.move-list .num').first().textContent(), '1.');
    assert.equal(await page.locator('.move-list .move.empty').count(), 1, 'the empty white half-move of move 1 is shown');
    await page.click('[data-action="draw"]');
    assert.match(await page.locator('.play-status').textContent(), /declines/);
    assert.equal(await page.locator('.play-status.over').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('phone layout: play and analysis fit the screen', async (t) => {
    const { page, errors } = await openApp(t, { viewport: PHONE, contextOptions: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } });
    await newGame(page, { color: 'white', level: '0' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `no horizontal scrolling (page is ${width}px wide)`);
    const board = await page.locator('.board-column cg-board').boundingBox();
    assert.ok(board.width >= PHONE.width * 0.85, `board uses the width (${board.width}px)`);
    assert.deepEqual(await rankNumbersOffTheirRanks(page, '.board-column'), [], 'the rank numbers sit on their ranks');
    await drag(page, 'd2', 'd4');
    await waitForMoves(page, 2);
    // A finger: tap the knight, then its square.
    for (const square of ['g1', 'f3']) {
      const p = await squareCenter(page, square);
      await page.touchscreen.tap(p.x, p.y);
    }
    const moves = await waitForMoves(page, 4);
    assert.equal(moves[2], 'Nf3');
    await page.screenshot({ path: join(RESULTS, 'play-phone.png') });
    await page.click('[data-mode="analyse"]');
    await page.waitForSelector('.analysis-line', { timeout: ENGINE_MOVE_MS });
    await page.screenshot({ path: join(RESULTS, 'analysis-phone.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });

  test('phone layout: every header item is shown whole, the engine status untruncated', async (t) => {
    const { page, errors } = await openApp(t, { viewport: PHONE, contextOptions: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } });
    await page.click('[data-mode="analyse"]');
    await page.waitForSelector('.engine-status[data-status="computing"]', { timeout: ENGINE_MOVE_MS });
    for (const viewport of [PHONE, { width: 360, height: 740 }]) {
      await page.setViewportSize(viewport);
      const items = await page.evaluate(() => {
        const header = document.querySelector('.top-bar').getBoundingClientRect();
        return [...document.querySelectorAll('.top-bar > *')].map((el) => {
          const { left, right, top, bottom, width } = el.getBoundingClientRect();
          return { name: el.className, text: el.textContent.trim(), width, left, right, top, bottom, inHeader: left >= header.left && right <= header.right && top >= header.top && bottom <= header.bottom, clipped: el.scrollWidth > el.clientWidth };
        });
      });
      const where = `at ${viewport.width}×${viewport.height}`;
      assert.deepEqual(items.map((i) => i.name), ['brand', 'mode-tabs', 'engine-status', 'console-link']);
      for (const item of items) {
        assert.ok(item.width > 0, `${where}: ${item.name} is shown`);
        assert.ok(item.left >= 0 && item.right <= viewport.width, `${where}: ${item.name} spans ${item.left}..${item.right}, outside the viewport`);
        assert.ok(item.inHeader, `${where}: ${item.name} lies outside the header`);
        assert.ok(!item.clipped, `${where}: ${item.name} ("${item.text}") is cut short`);
      }
      for (const [i, a] of items.entries()) {
        for (const b of items.slice(i + 1)) {
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          assert.ok(apart, `${where}: ${a.name} and ${b.name} overlap`);
        }
      }
      assert.equal(items.find((i) => i.name === 'engine-status').text, 'engine thinking');
    }
    await page.screenshot({ path: join(RESULTS, 'header-phone.png') });
    assert.deepEqual(errors, []);
  });

  test('the header keeps its height whatever the engine status says, at every width', async (t) => {
    const { page, errors } = await openApp(t, { viewport: PHONE });
    const jumps = [];
    for (let width = 340; width <= 900; width += 4) {
      await page.setViewportSize({ width, height: 800 });
      const heights = await page.evaluate((labels) => {
        const status = document.querySelector('.engine-status');
        const shown = status.textContent;
        const heights = Object.fromEntries(labels.map((label) => {
          status.textContent = label;
          return [label, document.querySelector('.top-bar').getBoundingClientRect().height];
        }));
        status.textContent = shown;
        return heights;
      }, ENGINE_STATUSES.map(statusLabel));
      if (new Set(Object.values(heights)).size > 1) jumps.push(`${width}px: ${JSON.stringify(heights)}`);
    }
    assert.deepEqual(jumps, [], 'the header grew or shrank with the status text');
    assert.deepEqual(errors, []);
  });

  test('windows between phone and desktop width: board and panels fit side by side without sideways scrolling', async (t) => {
    const { page, errors } = await openApp(t, { viewport: { width: 840, height: 800 } });
    for (const mode of ['play', 'analyse']) {
      await page.click(`[data-mode="${mode}"]`);
      for (const width of [840, 900, 1000]) {
        await page.setViewportSize({ width, height: 800 });
        const fit = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          view: innerWidth,
          side: document.querySelector('.side').getBoundingClientRect().right,
          board: document.querySelector('.board-host').getBoundingClientRect().right,
        }));
        assert.ok(fit.page <= fit.view, `${mode} at ${width} px: the page is ${fit.page} px wide`);
        assert.ok(fit.side <= fit.view && fit.board < fit.side, `${mode} at ${width} px: board ends at ${fit.board}, panels at ${fit.side}`);
      }
    }
    assert.deepEqual(errors, []);
  });

  test('time from page load to the first engine move at the default level', async (t) => {
    const context = await app.browser.newContext({ viewport: DESKTOP });
    t.after(() => context.close());
    const page = await context.newPage();
    const errors = collectErrors(page);
    const started = Date.now();
    await page.goto(app.server.url);
    await page.selectOption('[name="color"]', 'black');
    await page.click('form.new-game button[type="submit"]');
    await waitForMoves(page, 1, ENGINE_READY_MS + ENGINE_MOVE_MS);
    const ms = Date.now() - started;
    t.diagnostic(`page load to first engine move (default level, engine plays White): ${ms} ms`);
    assert.ok(ms < ENGINE_READY_MS + ENGINE_MOVE_MS);
    assert.deepEqual(errors, []);
  });
});

describe('meshmate app without cross-origin isolation', () => {
  let plain;
  before(async () => {
    plain = await startServer(['--no-isolation']);
  });
  after(async () => plain?.stop());

  test('says why in one sentence naming the two headers, and plays with one thread', async (t) => {
    // coi-serviceworker told not to register: what a browser without service workers shows on such a host.
    const { page, errors } = await openApp(t, { url: plain.url, initScript: () => (window.coi = { shouldRegister: () => false }) });
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    const notice = await page.locator('.isolation-notice').textContent();
    assert.match(notice, /not cross-origin isolated.*one thread.*Cross-Origin-Opener-Policy: same-origin.*Cross-Origin-Embedder-Policy: require-corp/);
    assert.deepEqual(await page.locator('[name="threads"] option').allTextContents(), ['1']);
    await newGame(page, { color: 'white', level: '0' });
    await drag(page, 'e2', 'e4');
    await waitForMoves(page, 2);
    await page.screenshot({ path: join(RESULTS, 'not-isolated-desktop.png') });
    assert.deepEqual(errors, []);
  });

  test('coi-serviceworker makes the page isolated on a host without the headers', async (t) => {
    const context = await app.browser.newContext({ viewport: DESKTOP });
    t.after(() => context.close());
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(plain.url);
    await page.waitForFunction(() => crossOriginIsolated === true, null, { timeout: 20000 });
    await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: ENGINE_READY_MS });
    assert.equal(await page.locator('.isolation-notice').isHidden(), true);
    assert.match(await page.locator('.worker-build').textContent(), /Threaded build/);
    assert.deepEqual(errors, []);
  });
});
