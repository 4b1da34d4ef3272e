// The Class view's predicted and measured speedups side by side (docs/class.md): the
// lecturer's tab and STUDENTS students' tabs in headless Chromium through the real relay
// with 0, 10 and 50 ms injected per frame; for each algorithm the view's prediction of the
// search (the classroom model at the relay's measured one-way time) and, after it, the
// speedup it measured (this tab alone against the class). A warm-up search first lets the
// view see the relay's hold of a frame in a trace. A benchmark, not a test: it prints a
// table. Every tab shares this machine's cores, which a class of laptops would not.
//
// Usage: node www/tests/class-prediction-figures.mjs [DEPTH] [STUDENTS] [ALGORITHMS] [pure]
//   (after ./build.sh build; defaults 8, 1, ybwc,jamboree,aphid, not Pure; the position is BK.02)
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { WWW, launchBrowser, startServer } from './browser.mjs';
import { startRelay } from './class-relay.mjs';

const depth = Number(process.argv[2] ?? 8);
const students = Number(process.argv[3] ?? 1);
const algorithms = (process.argv[4] ?? 'ybwc,jamboree,aphid').split(',');
const pure = process.argv[5] === 'pure';
const BK02 = readFileSync(resolve(WWW, '../../shared/data/bratko-kopec.epd'), 'utf8').split('\n').find((l) => l.includes('"BK.02"'));
const fen = `${BK02.split(' ').slice(0, 4).join(' ')} 0 1`;
/** Long enough for a search, the tab's own, and the model's five simulations. */
const WAIT_MS = 600000;

/** Runs one search from the lecturer's view and waits for its measured speedup; returns the sentence's figures. */
async function searchOnce(page, algorithm, searchDepth) {
  const before = Number((await page.getAttribute('.class-view', 'data-search')) ?? 0);
  await page.selectOption('[name="class-algorithm"]', algorithm);
  await page.fill('[name="class-depth"]', String(searchDepth));
  await page.fill('[name="class-fen"]', fen);
  await page.setChecked('[name="class-pure"]', pure);
  // The model's prediction of this very setup, before the start (the view predicts after 0.4 s at rest;
  // beyond the simulator's deepest in the page, at that depth, and it says so).
  await page.waitForFunction(
    (d) => new RegExp(`(depth|the form asks) ${d}[ ,()]`).test(document.querySelector('.class-prediction-about').textContent) && /until you choose/.test(document.querySelector('.class-prediction-about').textContent),
    searchDepth,
    { timeout: WAIT_MS },
  );
  await page.click('[data-class="start"]');
  await page.waitForFunction((n) => document.querySelector('.class-view').dataset.search === String(n + 1) && document.querySelector('.class-measured').dataset.predicted, before, { timeout: WAIT_MS });
  await page.waitForFunction(() => /Measured speedup|not measured/.test(document.querySelector('.class-measured').textContent), null, { timeout: WAIT_MS });
  const text = await page.textContent('.class-measured');
  const measured = Number(await page.getAttribute('.class-prediction tr[data-measured]', 'data-measured').catch(() => NaN));
  const predicted = Number(await page.getAttribute('.class-measured', 'data-predicted'));
  const [, classTime, classNodes, aloneTime, aloneNodes] = /the class took (.*?)(?: \((.*?) nodes\))?; this tab alone.*?took (.*?)(?: \((.*?) nodes\))? to the same depth/.exec(text) ?? [];
  const oneWay = /at ([\d.]+) ms one-way/.exec(text)?.[1];
  return { algorithm, classTime, classNodes, aloneTime, aloneNodes, measured, predicted, oneWay, text };
}

async function measure(browser, delayMs) {
  const relay = await startRelay(['--delay-ms', String(delayMs)]);
  const server = await startServer(['--relay', `127.0.0.1:${relay.port}`]);
  const contexts = [];
  const open = async (url) => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(url);
    return page;
  };
  const lecturer = await open(`${server.url}#class?lecturer=${relay.token}`);
  await lecturer.click('[data-class="create"]');
  await lecturer.waitForSelector('.class-link', { timeout: WAIT_MS });
  const link = await lecturer.getAttribute('.class-link', 'href');
  for (let i = 0; i < students; i++) await open(link);
  await lecturer.waitForFunction((n) => document.querySelectorAll('.class-members li').length === n, students + 1, { timeout: WAIT_MS });
  await searchOnce(lecturer, algorithms[0], 4);
  const rows = [];
  for (const algorithm of algorithms) rows.push(await searchOnce(lecturer, algorithm, depth));
  await Promise.all(contexts.map((c) => c.close()));
  await server.stop();
  await relay.stop();
  return rows;
}

const browser = await launchBrowser();
console.log(`BK.02, ${depth} plies, ${pure ? 'Pure' : 'not Pure'}, the lecturer and ${students} student${students === 1 ? '' : 's'}, one Chromium on ${cpus().length} cores`);
console.log('| delay | algorithm | one-way the model took | class | its nodes | this tab alone | its nodes | measured speedup | predicted |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const delayMs of [0, 10, 50]) {
  for (const r of await measure(browser, delayMs)) {
    console.log(`| ${delayMs} ms | ${r.algorithm} | ${r.oneWay ?? '–'} ms | ${r.classTime ?? '–'} | ${r.classNodes ?? '–'} | ${r.aloneTime ?? '–'} | ${r.aloneNodes ?? '–'} | ${r.measured.toFixed(2)} | ${r.predicted.toFixed(2)} |`);
  }
}
await browser.close();
