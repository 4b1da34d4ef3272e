// Browser tests of the engine worker (www/engine/worker.js) and the UCI console page:
// Debian's Chromium (playwright-core) against www/serve.mjs serving the built site, the
// real wasm packages and real web workers. Served with COOP/COEP the threaded build must
// run; served without them the single-thread build must still play.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { RESULTS, collectErrors, launchBrowser, startServer } from './browser.mjs';
import { coresBusy, nativeBench, openWorker, workerBench } from './engine-harness.mjs';

const READY_MS = 60000;
const SEARCH_MS = 60000;
const MOVES = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'];

function assertLegal(best, moves) {
  const chess = new Chess();
  for (const m of moves) chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] });
  const legal = chess.moves({ verbose: true }).map((m) => m.from + m.to + (m.promotion ?? ''));
  assert.ok(legal.includes(best), `bestmove ${best} is not legal after ${moves.join(' ')}`);
}

/** Runs `bench` in the worker right after the native one; both must search the same tree. */
async function benchAgainstNative(engine, build) {
  const native = nativeBench();
  const wasm = await workerBench(engine);
  console.log(
    `# bench ${build}: wasm ${wasm.nodes} nodes ${wasm.nps} nps, native ${native.nodes} nodes ${native.nps} nps; ` +
      `wasm/native speed by wall clock ${(wasm.nps / native.nps).toFixed(2)}, by CPU time ${(native.cpuSeconds / wasm.cpuSeconds).toFixed(2)}`,
  );
  assert.equal(wasm.nodes, native.nodes, 'the wasm bench searched a different tree than the native one');
}

/** A burst of position/go/stop sent without waiting, as a user clicking through a game does. */
async function burstIsAnswered(page, engine, rounds) {
  await engine.send('uci', 'isready');
  await engine.waitFor(/^readyok$/, 0, READY_MS);
  const burst = [];
  for (let i = 0; i < rounds; i++) {
    burst.push(`position startpos moves ${MOVES.slice(0, i % MOVES.length).join(' ')}`.trim(), 'go depth 30', 'stop');
  }
  burst.push(`position startpos moves ${MOVES.join(' ')}`, 'go depth 5', 'isready');
  const from = (await engine.lines()).length;
  await engine.send(...burst);
  await engine.waitFor(/^readyok$/, from);
  const answers = rounds + 1;
  await page.waitForFunction(([from, n]) => window.lines.slice(from).filter((l) => l.startsWith('bestmove')).length >= n, [from, answers], { timeout: SEARCH_MS });
  await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more may follow
  const lines = (await engine.lines()).slice(from);
  const bestmoves = lines.filter((l) => l.startsWith('bestmove'));
  assert.equal(bestmoves.length, answers, 'one bestmove per go');
  assert.deepEqual(lines.filter((l) => l.startsWith('info string error')), []);
  assertLegal(bestmoves.at(-1).split(' ')[1], MOVES);
}

/** `setoption name Hash value 1024` is taken (no refusal) and a search runs with it. */
async function hash1024IsAccepted(page) {
  const engine = await openWorker(page);
  await engine.send('uci', 'setoption name Hash value 128', 'isready');
  await engine.waitFor(/^readyok$/, 0, READY_MS);
  const from = (await engine.lines()).length;
  await engine.send('setoption name Hash value 1024', 'isready');
  const at = await engine.waitFor(/^readyok$/, from, READY_MS);
  assert.deepEqual((await engine.lines()).slice(from, at).filter((l) => l.startsWith('info string error')), []);
  await engine.send('position startpos', 'go depth 6');
  await engine.waitFor(/^bestmove /, at);
  await engine.send('quit');
}

/** `go ponder` searches until `ponderhit`, then the clock applies and the search answers. */
async function ponderhitIsAnswered(engine) {
  await engine.send('uci', `position startpos moves ${MOVES.join(' ')}`, 'go ponder wtime 2000 btime 2000');
  await engine.waitFor(/^info depth 3 /, 0, READY_MS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.ok(!(await engine.lines()).some((l) => l.startsWith('bestmove')), 'no bestmove while pondering');
  const from = (await engine.lines()).length;
  await engine.send('ponderhit');
  const at = await engine.waitFor(/^bestmove /, from, 5000);
  assertLegal((await engine.lines())[at].split(' ')[1], MOVES);
}

/**
 * A suite against www/serve.mjs (with or without COOP/COEP) in a fresh Chromium, with the
 * console page open; `tests(ctx)` registers the suite's own tests, then the protocol tests
 * both builds must pass are added.
 */
function suite(title, { serverArgs, build, burstRounds }, tests) {
  describe(title, () => {
    const ctx = {};
    let server;
    let browser;

    before(async () => {
      server = await startServer(serverArgs);
      browser = await launchBrowser();
      ctx.page = await browser.newPage();
      ctx.errors = collectErrors(ctx.page);
      await ctx.page.goto(`${server.url}console.html`);
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    test('the console page is isolated as served and its engine answers readyok', async () => {
      const { page } = ctx;
      assert.equal(await page.evaluate(() => crossOriginIsolated), build === 'threads');
      await page.waitForFunction(() => document.body.dataset.readyMs, null, { timeout: READY_MS });
      const ready = Number(await page.evaluate(() => document.body.dataset.readyMs));
      console.log(`# console.html: readyok ${ready} ms after page load (${build} build)`);
      const status = build === 'threads' ? /threads build · cross-origin isolated/ : /single build · NOT cross-origin isolated/;
      assert.match(await page.textContent('#status'), status);
    });

    tests(ctx);

    test('stop during go infinite answers bestmove, isready answers during the search, and play goes on', async () => {
      const engine = await openWorker(ctx.page);
      await engine.send('uci', 'setoption name Hash value 32', `position startpos moves ${MOVES.join(' ')}`, 'go infinite');
      await engine.waitFor(/^info depth 4 /, 0, READY_MS);
      let from = (await engine.lines()).length;
      await engine.send('isready');
      await engine.waitFor(/^readyok$/, from, 2000);
      assert.ok(!(await engine.lines()).some((l) => l.startsWith('bestmove')), 'no bestmove before stop');
      from = (await engine.lines()).length;
      const stopped = Date.now();
      await engine.send('stop');
      const at = await engine.waitFor(/^bestmove /, from, 3000);
      console.log(`# stop answered in ${Date.now() - stopped} ms (${build} build)`);
      assertLegal((await engine.lines())[at].split(' ')[1], MOVES);
      await engine.send('go depth 6');
      const next = await engine.waitFor(/^bestmove /, at + 1);
      assertLegal((await engine.lines())[next].split(' ')[1], MOVES);
      assert.deepEqual((await engine.lines()).filter((l) => l.startsWith('info string error')), []);
      await engine.send('quit');
    });

    test('a burst of position/go/stop never hangs: every go is answered, in order', async () => {
      const engine = await openWorker(ctx.page);
      await burstIsAnswered(ctx.page, engine, burstRounds);
      await engine.send('quit');
    });

    test('go ponder answers after ponderhit', async () => {
      const engine = await openWorker(ctx.page);
      await ponderhitIsAnswered(engine);
      await engine.send('quit');
    });

    test('bench with Threads=1 gives the native signature', async () => {
      const engine = await openWorker(ctx.page);
      await engine.send('uci', 'setoption name Threads value 1');
      await benchAgainstNative(engine, build);
      await engine.send('quit');
    });

    test('no page errors', () => {
      assert.deepEqual(ctx.errors, []);
    });
  });
}

suite('served with COOP/COEP: threaded build', { serverArgs: [], build: 'threads', burstRounds: 15 }, (ctx) => {
  test('a person types UCI commands into the console and reads the answers', async () => {
    const { page } = ctx;
    await page.fill('#command', 'position startpos moves e2e4');
    await page.press('#command', 'Enter');
    await page.fill('#command', 'go depth 6');
    await page.press('#command', 'Enter');
    await page.waitForFunction(() => /bestmove \S+/.test(document.getElementById('log').textContent), null, { timeout: SEARCH_MS });
    await page.screenshot({ path: join(RESULTS, 'console-threads.png') });
  });

  test('uci, isready, and go depth 8 from a position given with moves, on two processors', async () => {
    const engine = await openWorker(ctx.page, '?threads=2');
    await engine.send('uci', 'setoption name Algorithm value lazysmp', 'setoption name Threads value 2');
    await engine.waitFor(/^uciok$/, 0, READY_MS);
    await engine.send('isready');
    await engine.waitFor(/^readyok$/);
    const from = (await engine.lines()).length;
    await engine.send(`position startpos moves ${MOVES.join(' ')}`, 'go depth 8');
    const at = await engine.waitFor(/^bestmove /, from);
    const lines = await engine.lines();
    assert.ok(lines.slice(from, at).some((l) => /^info depth 8 .* pv /.test(l)), 'depth 8 was reported');
    const best = lines[at].split(' ')[1];
    assertLegal(best, MOVES);
    const events = await engine.events();
    assert.equal(events.find((e) => e.type === 'engine')?.build, 'threads');
    assert.equal(events.find((e) => e.type === 'engine')?.poolThreads, 2);
    assert.deepEqual(events.filter((e) => e.type === 'bestmove').at(-1)?.best, best);
    assert.ok(events.some((e) => e.type === 'info' && e.depth === 8 && e.pv.length > 0), 'structured info events');
    await ctx.page.waitForFunction(() => window.events.some((e) => e.type === 'workers'), null, { timeout: 5000 });
    const workers = (await engine.events()).filter((e) => e.type === 'workers').at(-1).workers;
    assert.equal(workers.length, 2, 'one record per processor (Threads)');
    assert.ok(workers.every((w) => w.nodes > 0), `both processors searched: ${JSON.stringify(workers)}`);
    await engine.send('quit');
  });

  test('the pool sleeps after bestmove: no core stays busy while the engine is idle', async () => {
    const engine = await openWorker(ctx.page);
    await engine.send('uci', 'position startpos', 'go infinite');
    await engine.waitFor(/^info depth 5 /, 0, READY_MS);
    const searching = await coresBusy(2000);
    assert.ok((await engine.events()).some((e) => e.type === 'workers' && e.workers.some((w) => w.busy)), 'a busy worker is reported');
    await engine.send('stop');
    await engine.waitFor(/^bestmove /);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = await coresBusy(3000);
    console.log(`# browser CPU: ${searching.toFixed(2)} cores while searching, ${idle.toFixed(3)} cores idle after bestmove`);
    // The same measure sees the search (the machine may be shared, so only relatively).
    assert.ok(searching > Math.max(0.05, 5 * idle), `the measure should see the search (${searching.toFixed(2)} cores)`);
    assert.ok(idle < 0.1, `idle engine uses ${idle.toFixed(3)} cores`);
    await engine.send('quit');
  });

  test('Hash 1024 fits the 4 GiB shared memory: accepted, and searched with', async () => {
    await hash1024IsAccepted(ctx.page);
  });
});

suite('served without COOP/COEP: single-thread build', { serverArgs: ['--no-isolation'], build: 'single', burstRounds: 6 }, (ctx) => {
  test('Hash 1024 fits the single build\'s memory: accepted, and searched with', async () => {
    await hash1024IsAccepted(ctx.page);
  });

  test('go infinite searches on past depth 8 until stop, keeping what it learnt', async () => {
    const engine = await openWorker(ctx.page);
    await engine.send('uci', `position startpos moves ${MOVES.join(' ')}`, 'go infinite');
    await engine.waitFor(/^info depth 9 /, 0, SEARCH_MS);
    assert.ok(!(await engine.lines()).some((l) => l.startsWith('bestmove')), 'no bestmove before stop');
    const from = (await engine.lines()).length;
    await engine.send('stop');
    await engine.waitFor(/^bestmove /, from, 2000);
    // The same search worker goes on with what it learnt (its table and its move-ordering
    // history), so searching the position again costs less than in a new worker, where the
    // same search (deterministic in one thread) repeats the empty table's counts exactly.
    // Where it shows depends on how deep the stop let the search go: with the sixth network,
    // natively, a stop at depth 11 cost more nodes than an empty table to depth 6 (6,646
    // against 5,967) and far fewer to depth 8 (16,090 against 38,539); with the fifth, a
    // late stop once cost more to depth 8. So either depth may show it. A table cleared at
    // stop while the history stays is not told apart by node counts (natively, 4,381-10,960
    // to depth 6 and 16,002-25,424 to depth 8): this checks that the worker keeps its state.
    const nodesTo = async (e) => {
      const first = (await e.lines()).length;
      await e.send('go depth 8');
      const done = await e.waitFor(/^bestmove /, first);
      const lines = (await e.lines()).slice(first, done);
      const at = (depth) => Number(/ nodes (\d+)/.exec(lines.findLast((l) => l.startsWith(`info depth ${depth} `)))[1]);
      return { 6: at(6), 8: at(8) };
    };
    const kept = await nodesTo(engine);
    await engine.send('quit');
    const fresh = await openWorker(ctx.page);
    await fresh.send('uci', `position startpos moves ${MOVES.join(' ')}`);
    const empty = await nodesTo(fresh);
    console.log(`# after stop: ${kept[6]} nodes to depth 6, ${kept[8]} to depth 8; from an empty table: ${empty[6]} and ${empty[8]}`);
    assert.ok(kept[6] < 0.9 * empty[6] || kept[8] < 0.9 * empty[8], `the worker kept what it learnt after stop (${kept[6]} and ${kept[8]} nodes to depths 6 and 8, against ${empty[6]} and ${empty[8]})`);
    await fresh.send('quit');
  });

  test('the single build plays go depth 8 from a position given with moves', async () => {
    const engine = await openWorker(ctx.page);
    await engine.send('uci', 'isready', `position startpos moves ${MOVES.join(' ')}`, 'go depth 8');
    const at = await engine.waitFor(/^bestmove /, 0);
    const lines = await engine.lines();
    assert.ok(lines.some((l) => l.includes('single-thread build')), 'the worker says why it runs one thread');
    assert.ok(lines.slice(0, at).some((l) => /^info depth 8 .* pv /.test(l)), 'depth 8 was reported');
    assertLegal(lines[at].split(' ')[1], MOVES);
    const events = await engine.events();
    assert.equal(events.find((e) => e.type === 'engine')?.build, 'single');
    assert.deepEqual(events.filter((e) => e.type === 'workers').at(-1)?.workers.map((w) => w.busy), [false]);
    await engine.send('quit');
  });
});
