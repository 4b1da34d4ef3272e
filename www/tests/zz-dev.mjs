import { servedApp, recordUciTraffic } from './browser.mjs';
import { test } from 'node:test';
const app = servedApp();
test('dev', { timeout: 300000 }, async () => {
  const context = await app.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(recordUciTraffic);
  const page = await context.newPage();
  await page.goto(app.server.url);
  await page.click('[data-mode="lab"]');
  await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: 90000 });
  await page.waitForSelector('.lab:not([data-status="loading"])', { timeout: 60000 });
  for (const [pos, algo] of [['BK.02', 'abdada'], ['BK.05', 'abdada'], ['BK.05', 'lazysmp']]) {
    await page.selectOption('.lab-controls [name="algorithm"]', algo);
    await page.selectOption('.lab-controls [name="position"]', pos);
    await page.locator('.lab-controls [name="position"]').dispatchEvent('change');
    const mark = await page.evaluate(() => window.uciTraffic.length);
    await page.click('[data-lab="measure"]');
    await page.waitForFunction(() => /^On this device/.test(window.__lab.snapshot().statusText), null, { timeout: 200000 });
    const s = await page.evaluate(() => window.__lab.snapshot());
    console.log(s.statusText);
    for (const r of s.table) console.log(r.join(' | '));
    const tr = await page.evaluate((m) => window.uciTraffic.slice(m).filter((l) => /^> (go|setoption)|^< bestmove|^< info depth \d+ seldepth/.test(l)), mark);
    console.log(tr.filter((l) => !l.startsWith('< info')).slice(0, 12).join('\n'));
  }
  await context.close();
});
