// The class's figures (docs/class.md): time to depth and frames per node with 1, 2 and 4
// tabs as processors, through the real relay with 0, 10 and 50 ms of injected delay per
// frame, in headless Chromium contexts on this machine. A benchmark, not a test: it prints
// a table. Every tab runs on the same few cores, so more tabs share them: the figures say
// what the relay and the algorithm cost, not what a class of separate laptops would gain.
//
// Usage: node www/tests/class-figures.mjs [DEPTH] [ALGORITHM] [POSITIONS]
//   (after ./build.sh build; defaults 9, ybwc, 4 Bratko-Kopec positions)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import readline from 'node:readline';
import { WWW, launchBrowser, startServer, stopChild } from './browser.mjs';

const REPO = resolve(WWW, '..');
const depth = Number(process.argv[2] ?? 9);
const algorithm = process.argv[3] ?? 'ybwc';
const positionCount = Number(process.argv[4] ?? 4);
const fens = readFileSync(resolve(REPO, '../shared/data/bratko-kopec.epd'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .slice(0, positionCount + 1)
  .slice(1) // BK.01 ends at once with a mate found
  .map((l) => `${l.split(' ').slice(0, 4).join(' ')} 0 1`);

/** The first line of `proc`'s output that starts with `prefix`. */
async function lineOf(proc, prefix) {
  for await (const line of readline.createInterface({ input: proc.stdout })) if (line.startsWith(prefix)) return line;
  throw new Error(`no '${prefix}' line`);
}

async function measure(browser, delayMs) {
  // The lecturer's token, given to the relay in a file (creating a class takes it).
  const token = randomBytes(16).toString('hex');
  const tokenFile = join(mkdtempSync(join(tmpdir(), 'meshmate-figures-')), 'lecturer-token');
  writeFileSync(tokenFile, token);
  const relay = spawn(resolve(REPO, 'target/release/meshmate'), ['relay', '--listen', '127.0.0.1:0', '--delay-ms', String(delayMs), '--lecturer-token-file', tokenFile]);
  const relayPort = new URL((await lineOf(relay, 'relay listening')).split(' ').pop()).port;
  const server = await startServer(['--relay', `127.0.0.1:${relayPort}`]);
  const url = server.url;
  const wsUrl = `${url.replace(/^http/, 'ws')}class`;
  const contexts = [];
  async function tab() {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${url}console.html`);
    await page.evaluate(() => {
      window.messages = [];
      window.frames = 0;
      window.worker = new Worker('/engine/class-worker.js', { type: 'module' });
      window.worker.onmessage = ({ data }) => {
        if (data.class === 'trace') window.frames += data.events.filter((e) => e.ev === 'send').length;
        else if (data.class !== 'activity') window.messages.push(data);
      };
    });
    return page;
  }
  const lecturer = await tab();
  await lecturer.evaluate(([u, t]) => worker.postMessage({ class: 'create', url: u, token: t }), [wsUrl, token]);
  await lecturer.waitForFunction(() => messages.some((m) => m.class === 'created'), null, { timeout: 60_000 });
  const code = await lecturer.evaluate(() => messages.find((m) => m.class === 'created').code);
  const rows = [];
  let students = 0;
  for (const tabs of [1, 2, 4]) {
    while (students < tabs - 1) {
      const student = await tab();
      await student.evaluate(([u, c]) => worker.postMessage({ class: 'join', url: u, code: c }), [wsUrl, code]);
      students += 1;
    }
    await lecturer.waitForFunction((n) => (messages.filter((m) => m.class === 'members').at(-1)?.members.length ?? 1) === n, tabs, { timeout: 60_000 });
    let ms = 0;
    let nodes = 0;
    let frames = 0;
    for (const fen of fens) {
      const before = await lecturer.evaluate(() => [messages.length, frames]);
      await lecturer.evaluate(([a, d, f]) => worker.postMessage({ class: 'start', algorithm: a, depth: d, fen: f, pure: false }), [algorithm, depth, fen]);
      await lecturer.waitForFunction((n) => messages.slice(n).some((m) => m.class === 'ended' || m.class === 'error'), before[0], { timeout: 600_000 });
      // The last trace batch comes within 100 ms of the end.
      await new Promise((r) => setTimeout(r, 300));
      const [result, after] = await lecturer.evaluate((n) => [messages.slice(n).find((m) => m.class === 'result' || m.class === 'error'), frames], before[0]);
      if (result.class === 'error') throw new Error(result.message);
      ms += result.ms;
      nodes += result.nodes;
      frames += after - before[1];
    }
    rows.push({ tabs, delayMs, ms, nodes, frames });
  }
  await Promise.all(contexts.map((c) => c.close()));
  await stopChild(relay);
  await server.stop();
  return rows;
}

const browser = await launchBrowser();
console.log(`${algorithm}, ${depth} plies, ${fens.length} positions (BK.02 on), one Chromium on ${(await import('node:os')).cpus().length} cores`);
console.log('| tabs | delay | time to depth, s | against 1 tab | nodes | frames | frames per 1,000 nodes |');
console.log('|---|---|---|---|---|---|---|');
for (const delayMs of [0, 10, 50]) {
  const rows = await measure(browser, delayMs);
  for (const r of rows) {
    const ratio = rows[0].ms / r.ms;
    console.log(`| ${r.tabs} | ${r.delayMs} ms | ${(r.ms / 1000).toFixed(2)} | ${ratio.toFixed(2)} | ${r.nodes} | ${r.frames} | ${((1000 * r.frames) / r.nodes).toFixed(2)} |`);
  }
}
await browser.close();
