// The npm package as a web developer gets it: `./build.sh pack`'s tarball installed with
// `npm install` into a scratch site in a temp dir, served by www/serve.mjs with COOP/COEP
// and without, in Debian's Chromium. Its pages run the package README's own snippets (the
// ```js blocks: events, then UCI text alone), so the README cannot drift from what works; the example page in
// the package plays too; and the events seen are type-checked against index.d.ts by tsc.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { RESULTS, WWW, collectErrors, launchBrowser, startServer } from './browser.mjs';

const PACK_DIR = join(WWW, '..', 'target', 'pack');
const TSC = join(WWW, 'node_modules', '.bin', 'tsc');
const SEARCH_MS = 60000;
const START_MOVES = new Chess().moves({ verbose: true }).map((m) => m.lan);

/** The one tarball `./build.sh pack` wrote. */
function tarball() {
  const found = readdirSync(PACK_DIR, { withFileTypes: true }).filter((f) => f.isFile() && /^meshmate-.*\.tgz$/.test(f.name));
  assert.equal(found.length, 1, `one package tarball in ${PACK_DIR} (run ./build.sh pack): ${found.map((f) => f.name)}`);
  return join(PACK_DIR, found[0].name);
}

/** The ```js blocks of a README: the start snippet (events), then the stockfish.js way (text). */
function snippets(readme) {
  const found = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(found.length >= 2, 'the package README has a ```js start snippet and a text-only one');
  return found;
}

/** Init script: every message a page's workers post, in window.received, from the first one on. */
function recordWorkerMessages() {
  window.received = [];
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(url, options) {
      super(url, options);
      this.addEventListener('message', (e) => window.received.push(e.data));
    }
  };
}

let site;
/** Every event the served pages received, for the type check. */
const seenEvents = [];

before(() => {
  site = mkdtempSync(join(tmpdir(), 'meshmate-site-'));
  writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'scratch-site', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball()], { cwd: site, stdio: 'inherit' });
  const readme = readFileSync(join(site, 'node_modules/meshmate/README.md'), 'utf8');
  const [events, text] = snippets(readme);
  const page = (snippet) => `<!doctype html>\n<meta charset="utf-8">\n<title>scratch site</title>\n<link rel="icon" href="data:,">\n<script>\n${snippet}</script>\n`;
  writeFileSync(join(site, 'index.html'), page(events));
  writeFileSync(join(site, 'text.html'), page(text));
});

after(() => rmSync(site, { recursive: true, force: true }));

/** Serves the scratch site (`serverArgs` to serve.mjs) to a fresh Chromium for a suite. */
function servedSite(serverArgs) {
  const served = {};
  before(async () => {
    served.server = await startServer(serverArgs, { root: site });
    served.browser = await launchBrowser();
  });
  after(async () => {
    await served.browser?.close();
    await served.server?.stop();
  });
  return served;
}

/** Opens the site's page running the README snippet, waits for its bestmove and checks the
 * answers; returns the page (for more commands to its `engine`) and the lines received. */
async function readmeSnippetPlays(served, build) {
  const page = await served.browser.newPage();
  const errors = collectErrors(page);
  await page.addInitScript(recordWorkerMessages);
  await page.goto(served.server.url);
  await page.waitForFunction(() => window.received.some((d) => d?.type === 'bestmove'), null, { timeout: SEARCH_MS });
  const events = await page.evaluate(() => window.received);
  assert.deepEqual(events.filter((e) => typeof e?.type !== 'string'), [], 'one event per message, never a bare string');
  assert.deepEqual(events.filter((e) => e.type !== 'workers' && typeof e.line !== 'string'), [], 'every event of a report has its line');
  const lines = events.filter((e) => e.line !== undefined).map((e) => e.line);
  seenEvents.push(...events);
  assert.ok(events.some((e) => e.type === 'uciok') && events.some((e) => e.type === 'readyok'), 'uciok and readyok');
  const hash = events.find((e) => e.type === 'option' && e.name === 'Hash');
  assert.ok(hash?.kind === 'spin' && hash.max >= 1024 && hash.line === `option name Hash type spin default ${hash.default} min ${hash.min} max ${hash.max}`, `the Hash option's values and its line: ${JSON.stringify(hash)}`);
  const best = lines.find((l) => l.startsWith('bestmove')).split(' ')[1];
  assert.ok(START_MOVES.includes(best), `bestmove ${best} is legal from the start position`);
  assert.ok(lines.some((l) => /^info depth 6 .* pv /.test(l)), 'go depth 6 reached depth 6');
  assert.equal(events.find((e) => e.type === 'engine')?.build, build, `the ${build} build started`);
  assert.equal(events.filter((e) => e.type === 'bestmove').at(-1)?.best, best, 'the bestmove event matches its line');
  assert.ok(events.some((e) => e.type === 'info' && e.depth === 6 && e.pv.length > 0 && Number.isInteger(e.nodes)), 'structured info events');
  assert.deepEqual(errors, []);
  return { page, lines };
}

/** Opens the package's example page, searches `depth` plies with its form, and checks what it shows. */
async function examplePagePlays(served, build, depth) {
  const page = await served.browser.newPage({ viewport: { width: 1000, height: 900 } });
  const errors = collectErrors(page);
  await page.addInitScript(recordWorkerMessages);
  await page.goto(`${served.server.url}node_modules/meshmate/example/`);
  const announced = build === 'threads' ? /^threaded build/ : /^single-thread build/;
  await page.waitForFunction((source) => new RegExp(source).test(document.getElementById('build').textContent), announced.source, { timeout: SEARCH_MS });
  await page.fill('input[name=depth]', String(depth));
  await page.click('button[name=go]');
  await page.waitForFunction(() => /^bestmove \S+/.test(document.getElementById('best').textContent), null, { timeout: SEARCH_MS });
  await page.waitForFunction(() => document.querySelectorAll('#workers .bar').length > 0, null, { timeout: 5000 });
  await page.screenshot({ path: join(RESULTS, `package-example-${build}.png`), fullPage: true });
  const received = await page.evaluate(() => window.received);
  seenEvents.push(...received.filter((d) => typeof d !== 'string'));
  // Deepest first, one row per depth reported (a parallel search may start reporting past depth 1).
  const depths = await page.locator('#infos tr td:first-child').allTextContents();
  const reported = received.filter((d) => d.type === 'info' && d.pv.length > 0).map((d) => String(d.depth));
  assert.equal(depths[0], String(depth));
  assert.deepEqual(depths, reported.reverse());
  const pool = build === 'threads' ? received.find((d) => d?.type === 'engine').poolThreads : 1;
  assert.equal(await page.locator('#workers .bar').count(), pool, 'one bar per searching worker');
  assert.deepEqual(errors, []);
  await page.close();
}

describe('the packed npm package, installed into a scratch site', () => {
  test('the package holds the worker Play uses, both wasm builds, the types, README and example', () => {
    const installed = join(site, 'node_modules/meshmate');
    for (const file of ['worker.js', 'search-worker.js', 'inbox.js']) {
      assert.equal(readFileSync(join(installed, 'engine', file), 'utf8'), readFileSync(join(WWW, 'engine', file), 'utf8'), `engine/${file} is Play's`);
    }
    for (const flavor of ['threads', 'single']) {
      assert.ok(readFileSync(join(installed, 'pkg', flavor, 'meshmate_bg.wasm')).length > 100000, `pkg/${flavor} wasm`);
    }
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.types, './index.d.ts');
    assert.equal(manifest.exports['./worker'], './engine/worker.js');
    for (const file of ['index.d.ts', 'README.md', 'LICENSE', 'example/index.html', 'example/example.js']) readFileSync(join(installed, file));
  });

  describe('served with COOP/COEP', () => {
    const served = servedSite([]);

    test("the README's start snippet plays a legal move on the threaded build, with events", async () => {
      const { page } = await readmeSnippetPlays(served, 'threads');
      // An error message and the bench's summary are events too (for the type check below).
      await page.evaluate(() => ['setoption name Nonexistent value 1', 'bench 1'].forEach((c) => engine.postMessage(c)));
      await page.waitForFunction(() => window.received.some((d) => d?.type === 'bench'), null, { timeout: SEARCH_MS });
      const later = await page.evaluate(() => window.received.filter((d) => ['bench', 'message', 'text'].includes(d?.type)));
      assert.ok(later.some((e) => e.type === 'message' && /^error: /.test(e.text)), 'an error is a message event');
      seenEvents.push(...later);
      await page.close();
    });

    test('the example page plays on every worker of the pool and shows the events', async () => {
      await examplePagePlays(served, 'threads', 8);
    });

    test("the README's stockfish.js snippet (?events=0) gets UCI lines alone, as strings", async () => {
      const page = await served.browser.newPage();
      const errors = collectErrors(page);
      await page.addInitScript(recordWorkerMessages);
      await page.goto(`${served.server.url}text.html`);
      await page.waitForFunction(() => window.received.some((d) => typeof d === 'string' && d.startsWith('bestmove')), null, { timeout: SEARCH_MS });
      const received = await page.evaluate(() => window.received);
      assert.deepEqual(received.filter((d) => typeof d !== 'string'), [], 'strings only');
      assert.ok(received.some((l) => /^info depth 6 .* pv /.test(l)), 'go depth 6 reached depth 6');
      assert.ok(START_MOVES.includes(received.find((l) => l.startsWith('bestmove')).split(' ')[1]), 'a legal bestmove');
      assert.deepEqual(errors, []);
      await page.close();
    });
  });

  describe('served without COOP/COEP', () => {
    const served = servedSite(['--no-isolation']);

    test('the same snippet falls back to the single-thread build and says why', async () => {
      const { page, lines } = await readmeSnippetPlays(served, 'single');
      assert.ok(lines.some((l) => /^info string meshmate wasm: single-thread build \(the page is not cross-origin isolated/.test(l)), 'the fallback is announced');
      await page.close();
    });

    test('the example page plays on the single-thread build', async () => {
      await examplePagePlays(served, 'single', 6);
    });
  });

  test('the types compile, and type every event the pages received', () => {
    for (const type of ['engine', 'idName', 'idAuthor', 'option', 'uciok', 'readyok', 'info', 'message', 'bestmove', 'bench', 'text', 'workers']) {
      assert.ok(seenEvents.some((e) => e.type === type), `${type} events were seen`);
    }
    // An object literal typed as the union gets excess-property checks against its own
    // `type`'s interface: a field the engine sends and index.d.ts lacks fails, as does a
    // required field it lacks.
    writeFileSync(
      join(site, 'check.ts'),
      `import type { EngineEvent, EngineWorker } from 'meshmate';\n` +
        `export const seen: EngineEvent[] = ${JSON.stringify(seenEvents, null, 1)};\n` +
        `const engine = new Worker('node_modules/meshmate/engine/worker.js', { type: 'module' }) as EngineWorker;\n` +
        `engine.onmessage = ({ data }) => {\n  if (typeof data !== 'string' && data.type === 'bestmove') console.log(data.best.slice(0, 2));\n};\n` +
        `engine.postMessage('go depth 6');\n`,
    );
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], allowJs: true, checkJs: true };
    writeFileSync(join(site, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts', 'node_modules/meshmate/example/example.js'] }));
    try {
      execFileSync(TSC, ['-p', site], { cwd: site, encoding: 'utf8' });
    } catch (error) {
      assert.fail(`tsc found errors:\n${error.stdout}${error.stderr}`);
    }
  });
});
