// The README's two pictures, taken in Debian's Chromium against the built app (not a test:
// run it by hand after ./build.sh build, then look at the pictures before committing them).
//
//   cd www && node tests/readme-screenshots.mjs     # writes ../docs/images/play.png and lab.png
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { WWW, launchBrowser, startServer } from './browser.mjs';

const OUT = join(WWW, '..', 'docs', 'images');
const VIEWPORT = { width: 1400, height: 860 };

/** The centre of a square of the Play board (white at the bottom). */
async function squareCenter(page, square) {
  const box = await page.locator('.board-column cg-board').boundingBox();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  return { x: box.x + ((file + 0.5) * box.width) / 8, y: box.y + ((7 - rank + 0.5) * box.height) / 8 };
}

/** Plays `from`-`to` by clicks and waits for the engine's answer (`plies` moves in the list). */
async function play(page, from, to, plies) {
  for (const square of [from, to]) {
    const p = await squareCenter(page, square);
    await page.mouse.click(p.x, p.y);
  }
  await page.waitForFunction((n) => document.querySelectorAll('.move-list .move[data-ply]').length >= n, plies, { timeout: 60000 });
}

mkdirSync(OUT, { recursive: true });
const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(server.url);
  await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: 60000 });
  // Play: a few moves of an Italian game against the engine at a middle level.
  await page.click('[data-mode="play"]');
  await page.selectOption('[name="color"]', 'white');
  const levels = await page.locator('[name="level"] option').count();
  await page.selectOption('[name="level"]', String(Math.floor(levels / 2)));
  await page.click('form.new-game button[type="submit"]');
  await play(page, 'e2', 'e4', 2);
  await play(page, 'g1', 'f3', 4);
  await play(page, 'f1', 'c4', 6);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'play.png') });

  // Lab: the YBWC lecture at its second stop (the first split), on 16 T800s.
  await page.goto(`${server.url}#lab?lecture=ybwc&stop=2`);
  await page.waitForFunction(() => {
    const s = window.__lab?.snapshot();
    return s?.lecture?.at === 1 && !s.running && s.lecture.text !== '';
  }, null, { timeout: 120000 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(OUT, 'lab.png') });
  console.log(`wrote ${join(OUT, 'play.png')} and ${join(OUT, 'lab.png')}`);
} finally {
  await browser.close();
  await server.stop();
}
