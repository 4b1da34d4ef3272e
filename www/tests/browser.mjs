// Shared parts of the browser tests: the app served by www/serve.mjs on a free localhost
// port, and Debian's Chromium driven by playwright-core (no browser download).
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const WWW = dirname(dirname(fileURLToPath(import.meta.url)));
export const RESULTS = join(WWW, 'test-results');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/**
 * The native binary the tests start (`meshmate relay`): the one `./build.sh test` built and
 * names in MESHMATE_NATIVE, else the release build of `./build.sh build`.
 */
export const NATIVE = process.env.MESHMATE_NATIVE ?? join(WWW, '..', 'target', 'release', 'meshmate');

/**
 * Starts www/serve.mjs on a free port over the built app (www/dist), or over another site.
 * @param {string[]} extraArgs e.g. ['--no-isolation']
 * @param {{root?: string}} [site] the directory to serve instead of www/dist
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startServer(extraArgs = [], { root } = {}) {
  const dist = join(WWW, 'dist');
  if (!root && !existsSync(join(dist, 'index.html'))) throw new Error('www/dist is not built: run ./build.sh build (or npx vite build in www/)');
  const child = spawn(process.execPath, [join(WWW, 'serve.mjs'), '--root', root ?? dist, '--port', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.mjs did not start within 10 s: ${stderr}`)), 10000);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}: ${stderr}`)));
  });
  return { url, stop: () => stopChild(child) };
}

/** Ends a child process started for a test (a server, a relay); resolves once it exited. */
export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Launches headless Chromium with the flags that keep it off the network, and `extraArgs`. */
export async function launchBrowser(extraArgs = []) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium (./build.sh setup)`);
  mkdirSync(RESULTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/**
 * The served app and a browser for a test file (launched with `browserArgs`): started
 * before its tests, stopped after.
 * @returns {{server: {url: string}, browser: import('playwright-core').Browser}} filled in before the tests run
 */
export function servedApp({ browserArgs = [] } = {}) {
  const app = { server: null, browser: null };
  before(async () => {
    app.server = await startServer();
    app.browser = await launchBrowser(browserArgs);
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}

/**
 * Records console errors and uncaught exceptions of a page, so a test can assert there were none.
 * @returns {string[]} the list, filled as the page runs
 */
export function collectErrors(page) {
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
  return errors;
}

/**
 * Init script: records the UCI lines the page sends to its workers ('> ...') and the lines
 * they answer ('< ...', a string or an event's `line`) in window.uciTraffic, so a test can
 * see what reached the engine; window.engineWorkers holds the workers the page talked to, and
 * window.uciWorkers those it sent `uci` to, in order (an engine client's boots and restarts).
 */
export function recordUciTraffic() {
  window.uciTraffic = [];
  window.engineWorkers = [];
  window.uciWorkers = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (!window.engineWorkers.includes(this)) window.engineWorkers.push(this);
    if (message === 'uci') window.uciWorkers.push(this);
    if (typeof message === 'string') window.uciTraffic.push(`> ${message}`);
    return post.call(this, message);
  };
  const onmessage = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  Object.defineProperty(Worker.prototype, 'onmessage', {
    get() {
      return onmessage.get.call(this);
    },
    set(handler) {
      onmessage.set.call(this, (e) => {
        const text = typeof e.data === 'string' ? e.data : e.data?.line;
        if (typeof text === 'string') for (const line of text.split('\n')) window.uciTraffic.push(`< ${line}`);
        return handler(e);
      });
    },
  });
}

/**
 * The rank numbers of the chessground board inside `selector` whose text lies outside its
 * own rank's row (on a small board chessground's default offsets put each one a rank up).
 * @returns {Promise<string[]>} the misplaced numbers, empty when all are on their ranks
 */
export function rankNumbersOffTheirRanks(page, selector) {
  return page.evaluate((selector) => {
    const board = document.querySelector(`${selector} cg-board`).getBoundingClientRect();
    const square = board.height / 8;
    const white = !document.querySelector(`${selector} coords.ranks.black`);
    return [...document.querySelectorAll(`${selector} coords.ranks coord`)]
      .filter((coord) => {
        const range = document.createRange();
        range.selectNodeContents(coord);
        const text = range.getBoundingClientRect();
        const rank = Number(coord.textContent);
        const rowTop = board.top + (white ? 8 - rank : rank - 1) * square;
        return text.top < rowTop - 1 || text.bottom > rowTop + square + 1;
      })
      .map((coord) => coord.textContent);
  }, selector);
}
