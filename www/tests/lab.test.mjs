// End-to-end tests of the Lab: Debian's Chromium (playwright-core) against the built app,
// with the real Lab worker running the simulator from the single wasm package. The page
// exposes what it shows as window.__lab.snapshot(); pixels are read from the canvas.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { RESULTS, WWW, rankNumbersOffTheirRanks, recordUciTraffic } from './browser.mjs';
import { RUN_MS, formValues, labSuite, measureFps, runAndWatch, setForm, snapshot } from './labPage.mjs';

/** Figures measured by these tests, printed at the end for the report. */
const { figures, openLab } = labSuite();

/** The Lab with the UCI traffic recorded, once the Play engine is ready; `pool` is its
 * web workers. */
async function openLabWithEngine(t) {
  const { page, errors } = await openLab(t, { initScript: recordUciTraffic });
  await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: 90000 });
  const pool = await page.evaluate(() => Number(document.querySelector('.worker-build')?.dataset.pool ?? 1));
  return { page, errors, pool };
}

/** Waits until the replay's tree satisfies `ready(tree)` (a snapshot's `tree`), then pauses. */
async function treeUntil(page, ready, timeout = 60000) {
  await page.waitForFunction((source) => {
    const tree = window.__lab.snapshot().tree;
    return tree && new Function('tree', `return ${source}`)(tree);
  }, ready, { timeout });
  await page.click('[data-lab="pause"]');
  return (await snapshot(page)).tree;
}

/** A processor whose current node is open and below the root, or null. */
async function busyHelper(page) {
  return page.evaluate(() => {
    const { processors } = window.__lab.snapshot().drawn;
    for (let p = 1; p < processors; p++) {
      const node = window.__lab.current(p);
      if (node?.open && node.path.length > 0) return { p, node };
    }
    return null;
  });
}

/** BK.01's position, from the shared reference data (../shared/data beside the repository). */
function firstBratkoKopec() {
  const record = readFileSync(join(WWW, '..', '..', 'shared', 'data', 'bratko-kopec.epd'), 'utf8')
    .split('\n')
    .find((line) => line.trim() && !line.startsWith('#'));
  return `${record.split(/\s+/).slice(0, 4).join(' ')} 0 1`;
}

/** A SAN move, or castling. */
const SAN = /^(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?)[+#]?$/;

describe('Lab', () => {
  test('before a run, the tree panel\'s notice wraps to the panel on a laptop screen', { timeout: 60000 }, async (t) => {
    const { page, errors } = await openLab(t, { viewport: { width: 1280, height: 800 } });
    await page.waitForFunction(() => window.__lab.snapshot().treeNotice !== null);
    const { lines, widest, room } = (await snapshot(page)).treeNotice;
    assert.ok(lines >= 3, `${lines} lines: the two sentences need more than one line each at this width`);
    assert.ok(widest <= room, `the widest line (${widest.toFixed(0)} px) runs past the panel (${room} px)`);
    assert.deepEqual(errors, []);
  });

  test('tree view after ybwc on 16: SAN labels and node types, a split point and a cutoff; hover shows a path, click puts the node on the board', { timeout: 240000 }, async (t) => {
    const { page, errors } = await openLab(t);
    await runAndWatch(page, { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', search: 'modern', position: 'BK.01', depth: 5 });
    const tree = await treeUntil(page, 'tree.iteration >= 3 && tree.owners >= 4 && tree.drawn.marks.split > 0 && tree.drawn.marks.cut > 0 && tree.received > 0 && tree.nodes > 20 && tree.drawn.labels.length > 3');
    assert.ok(tree.types.pv > 0 && tree.types.cut > 0, JSON.stringify(tree.types));
    assert.ok(tree.splitPoints >= tree.drawn.marks.split && tree.cuts >= tree.drawn.marks.cut, JSON.stringify(tree));
    // The first ply's labels are legal moves of BK.01 in SAN (chess.js in Node checks them).
    const legal = new Set(new Chess(firstBratkoKopec()).moves());
    assert.ok(tree.firstPly.length > 0);
    for (const san of tree.firstPly) assert.ok(legal.has(san), `${san} is not a legal move of BK.01`);
    await page.locator('.lab-tree').screenshot({ path: join(RESULTS, 'lab-tree-16.png') });
    // Hovering the root (top band) gives its window.
    const treeBox = await page.locator('.lab-tree').boundingBox();
    await page.mouse.move(treeBox.x + 8, treeBox.y + 10);
    assert.match(await page.textContent('.lab-tree-tooltip'), /^root · P0 · PV · window \[-?\d+, -?\d+\] · depth \d+/);
    const { labels } = tree.drawn;
    assert.ok(labels.length > 3, `only ${labels.length} labels drawn`);
    for (const label of labels.filter((l) => !l.startsWith('root'))) assert.match(label, SAN);

    // Hover a helper with an open node: its path in SAN, window, depth and type.
    const helper = await busyHelper(page);
    assert.ok(helper, 'no helper has an open node below the root');
    const box = await page.locator('.lab-canvas').boundingBox();
    const [x, y] = await page.evaluate((p) => window.__lab.processorPoint(p), helper.p);
    await page.mouse.move(box.x + x, box.y + y);
    const tip = await page.textContent('.lab-tooltip');
    assert.match(tip, new RegExp(`^P${helper.p} `));
    assert.ok(tip.includes(`at ${helper.node.san.join(' ')} · window [${helper.node.alpha}, ${helper.node.beta}] · depth ${helper.node.depth} · ${helper.node.type.toUpperCase()}`), tip);

    // Click it: the Lab's board shows that node's position, its nodes are highlighted.
    await page.mouse.click(box.x + x, box.y + y);
    const clicked = await snapshot(page);
    assert.equal(clicked.selected, helper.p);
    assert.equal(clicked.boardFen, helper.node.fen);
    const pieces = helper.node.fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;
    // chessground animates from the board shown before: wait for the pieces to settle.
    await page.waitForFunction((n) => document.querySelectorAll('.lab-board cg-board piece:not(.ghost):not(.fading)').length === n, pieces, { timeout: 5000 });
    await page.waitForFunction((p) => window.__lab.snapshot().tree.drawn.highlighted > 0, helper.p);
    assert.deepEqual(await rankNumbersOffTheirRanks(page, '.lab-board'), [], 'the small board\'s rank numbers sit on their ranks');
    await page.screenshot({ path: join(RESULTS, 'lab-tree-selected-16.png') });
    assert.deepEqual(errors, []);
  });

  test('step node (button and Shift+→) advances to exactly the next node event', { timeout: 180000 }, async (t) => {
    const { page, errors } = await openLab(t);
    await runAndWatch(page, { algorithm: 'ybwc', processors: 16, depth: 4 });
    await page.click('[data-lab="pause"]');
    const nextNode = () =>
      page.evaluate(() => {
        const { cursor, events } = window.__lab.snapshot();
        const codes = window.__lab.codes(cursor, events - cursor);
        const k = codes.indexOf(7);
        return k < 0 ? null : cursor + k;
      });
    for (const press of [() => page.click('[data-lab="step-node"]'), () => page.keyboard.press('Shift+ArrowRight'), () => page.click('[data-lab="step-node"]')]) {
      const before = await snapshot(page);
      const target = await nextNode();
      assert.ok(target !== null, 'no node event left to step to');
      assert.ok(target > before.cursor || before.nextCode === 7);
      await press();
      const after = await snapshot(page);
      assert.equal(after.running, false);
      assert.equal(after.cursor, target + 1, `from ${before.cursor}: the next node event is ${target}`);
      assert.equal((await page.evaluate((i) => window.__lab.codes(i, 1), target))[0], 7);
    }
    assert.deepEqual(errors, []);
  });

  test('ybwc on DeBruijn with 16 processors: 16 processors drawn, messages moving, pixels changing', { timeout: 180000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const started = Date.now();
    const snap = await runAndWatch(page, { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', position: 'BK.01', depth: 5 });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(snap.drawn.processors, 16);
    assert.equal(snap.drawn.mode, 'detailed');
    // DeBruijn as the shuffle-exchange graph, binary labels written, messages' routes lit.
    assert.equal(snap.drawn.layout, 'shuffle-exchange');
    assert.equal(snap.drawn.labels, true);
    await page.waitForFunction(() => window.__lab.snapshot().drawn.routes > 0, null, { timeout: 20000 });
    assert.ok(snap.drawn.seen > 0, 'messages were drawn moving');
    assert.ok(snap.report.events > 100, `only ${snap.report.events} events`);
    assert.equal(snap.report.rows.length, 2);
    assert.deepEqual(snap.report.rows.map((r) => r.processors), [1, 16]);
    assert.equal(snap.table.length, 2);
    const canvas = page.locator('.lab-canvas');
    const first = await canvas.screenshot();
    await page.waitForTimeout(400);
    const second = await canvas.screenshot();
    assert.notDeepEqual(first, second, 'the picture did not change between frames');
    await page.screenshot({ path: join(RESULTS, 'lab-16.png') });
    const fps = await measureFps(page);
    const rate = snap.report.events / (snap.report.simulationMs / 1000);
    figures.push(`p=16 ybwc debruijn depth 5: ${snap.report.events} events simulated in ${snap.report.simulationMs.toFixed(0)} ms = ${Math.round(rate)} events/s; run to moving messages ${seconds.toFixed(1)} s; ${fps.toFixed(1)} fps`);
    assert.ok(fps > 5, `${fps} frames per second`);
    assert.deepEqual(errors, []);
  });

  test('pause stops virtual time, step (button and →) advances exactly one event, space resumes', { timeout: 180000 }, async (t) => {
    const { page, errors } = await openLab(t);
    await runAndWatch(page, { processors: 16, depth: 4 });
    await page.click('[data-lab="pause"]');
    const paused = await snapshot(page);
    assert.equal(paused.running, false);
    await page.waitForTimeout(600);
    const still = await snapshot(page);
    assert.equal(still.clock, paused.clock, 'virtual time moved while paused');
    assert.equal(still.cursor, paused.cursor);
    await page.click('[data-lab="step"]');
    const stepped = await snapshot(page);
    assert.equal(stepped.cursor, paused.cursor + 1);
    assert.ok(stepped.clock >= paused.clock);
    await page.locator('.lab-canvas').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    assert.equal((await snapshot(page)).cursor, paused.cursor + 2);
    await page.keyboard.press(' ');
    await page.waitForTimeout(500);
    const resumed = await snapshot(page);
    assert.equal(resumed.running, true);
    assert.ok(resumed.clock > stepped.clock, 'space did not resume the replay');
    assert.deepEqual(errors, []);
  });

  test('the same seed gives the same trace and counters twice (Restart)', { timeout: 240000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const first = await runAndWatch(page, { algorithm: 'dts', net: 'hypercube', processors: 8, depth: 4, seed: 7 });
    await page.click('[data-lab="restart"]');
    await page.waitForFunction((runs) => window.__lab.snapshot().runs === runs + 1, first.runs, { timeout: RUN_MS });
    const second = await snapshot(page);
    assert.equal(second.report.hash, first.report.hash);
    assert.equal(second.report.events, first.report.events);
    assert.deepEqual(second.report.rows, first.report.rows);
    assert.deepEqual(second.table, first.table);
    assert.deepEqual(errors, []);
  });

  test('exports: the trace as JSON lines, the table as CSV, the picture as PNG', { timeout: 180000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const snap = await runAndWatch(page, { processors: 16, depth: 6, seed: 3 });
    // Exported while the background sweep still runs p = 2, 4, 8: the trace is the shown run's.
    await page.waitForFunction(() => window.__lab.snapshot().sweep.points.length >= 1, null, { timeout: 60000 });
    const fetch = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-lab="${button}"]`)]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const trace = await fetch('export-trace');
    assert.match(trace.name, /^meshmate-trace-ybwc-debruijn-p16-d6-s3\.jsonl$/);
    const lines = trace.bytes.toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.equal(lines[0].ev, 'machine');
    assert.equal(lines[0].processors, 16);
    assert.equal(lines[0].net, 'debruijn');
    assert.equal(lines.length, snap.report.events + 1);
    for (const ev of ['run', 'state', 'send', 'hop', 'deliver', 'end']) assert.ok(lines.some((l) => l.ev === ev), `no ${ev} line`);
    const csv = await fetch('export-csv');
    const rows = csv.bytes.toString('utf8').trimEnd().split('\n').map((line) => line.split(','));
    assert.deepEqual(rows[0], ['position', 'algorithm', 'p', 'N', 'T (virtual ms)', 'LD', 'SO', 'SPE']);
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.slice(1).map((r) => r[2]), ['1', '16']);
    for (const row of rows.slice(1)) for (const cell of row.slice(2)) assert.ok(Number.isFinite(Number(cell)), `not a number: ${cell}`);
    assert.equal(Number(rows[2][3]), snap.report.rows[1].nodes);
    const png = await fetch('export-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.deepEqual(errors, []);
  });

  test("the position menu offers the project's suites, and a Kaufman position runs", { timeout: 120000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const groups = await page.$$eval('.lab-controls [name="position"] optgroup', (gs) => gs.map((g) => [g.label, g.children.length]));
    assert.deepEqual(groups.map(([label]) => label), ['Bratko-Kopec', 'Mchess Pro – Cray Blitz 1993', 'Kaufman']);
    assert.ok(groups.every(([, count]) => count >= 24), JSON.stringify(groups));
    const snap = await runAndWatch(page, { algorithm: 'ybwc', net: 'hypercube', processors: 4, preset: 't800', position: 'KF.03', depth: 3 });
    assert.equal(snap.status, 'done');
    assert.deepEqual(snap.report.rows.map((r) => r.processors), [1, 4]);
    assert.deepEqual(errors, []);
  });

  test('bad input is refused with the reason: a count the network cannot have, a bad FEN', { timeout: 120000 }, async (t) => {
    const { page, errors } = await openLab(t);
    await setForm(page, { net: 'debruijn', processors: 12 });
    await page.waitForSelector('.lab[data-status="error"]');
    assert.match(await page.textContent('.lab-status'), /power of two/i);
    await page.click('[data-lab="run"]');
    await page.waitForSelector('.lab[data-status="error"]');
    assert.match(await page.textContent('.lab-status'), /power of two/i);
    await setForm(page, { processors: 2000 });
    await page.click('[data-lab="run"]');
    // The form's check ("1 to 1024") or the network's ("at most 1024"), whichever answered last.
    await page.waitForFunction(() => /1024/.test(document.querySelector('.lab-status').textContent));
    assert.equal(await page.getAttribute('.lab', 'data-status'), 'error');
    // The worker itself refuses a bad FEN and stays usable.
    const answers = await page.evaluate(async () => {
      const worker = new Worker(new URL('engine/lab-worker.js', document.baseURI), { type: 'module' });
      const replies = [];
      const done = new Promise((resolve) => {
        worker.onmessage = (e) => {
          if (e.data.type === 'ready') {
            worker.postMessage({ id: 1, type: 'run', request: { algorithm: 'ybwc', net: 'ring', processors: 4, preset: 't800', fen: 'not a position', depth: 3, seed: 1 } });
            worker.postMessage({ id: 2, type: 'network', net: 'ring', processors: 5 });
          } else {
            replies.push(e.data);
            if (replies.length === 2) resolve();
          }
        };
      });
      await done;
      worker.terminate();
      return replies;
    });
    assert.equal(answers[0].type, 'error');
    assert.match(answers[0].message, /bad FEN/);
    assert.equal(answers[1].type, 'network');
    assert.equal(answers[1].drawing.processors, 5);
    assert.deepEqual(errors, []);
  });

  test('64 and 256 processors: detailed then aggregate drawing; 1024 as heat maps; screenshots and frame rates', { timeout: 600000 }, async (t) => {
    const { page, errors } = await openLab(t);
    // 1024 with ybwc: the simulator streams the trace (keeps none), so it fits the wasm memory.
    for (const [algorithm, processors, depth, mode] of [['ybwc', 64, 4, 'detailed'], ['ybwc', 256, 4, 'aggregate'], ['ybwc', 1024, 3, 'aggregate']]) {
      const snap = await runAndWatch(page, { algorithm, net: 'debruijn', processors, preset: 't800', search: 'modern', position: 'BK.01', depth });
      assert.equal(snap.drawn.processors, processors);
      assert.equal(snap.drawn.mode, mode);
      await page.waitForFunction(() => window.__lab.snapshot().tree?.nodes > 0, null, { timeout: 30000 });
      if (processors !== 256) await page.screenshot({ path: join(RESULTS, `lab-${processors}.png`) });
      await page.locator('.lab-tree').screenshot({ path: join(RESULTS, `lab-tree-${processors}.png`) });
      const fps = await measureFps(page);
      const rate = snap.report.events / (snap.report.simulationMs / 1000);
      figures.push(
        `p=${processors} ${algorithm} debruijn depth ${depth}: ${snap.report.events} events in ${snap.report.simulationMs.toFixed(0)} ms = ${Math.round(rate)} events/s ` +
          `(trace streamed, total ${snap.report.wallMs.toFixed(0)} ms, simulator memory ${snap.report.memoryMiB} MiB); ${fps.toFixed(1)} fps`,
      );
      assert.ok(fps > 5, `${fps} frames per second at ${processors} processors`);
    }
    assert.deepEqual(errors, []);
  });

  test('Reproduce Zugzwang runs the quick experiment and shows the published figures beside ours', { timeout: 300000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const started = Date.now();
    await page.click('[data-lab="reproduce"]');
    await page.waitForFunction(() => ['done', 'error'].includes(window.__lab.snapshot().status) && window.__lab.snapshot().table.length > 0, null, { timeout: 240000 });
    const seconds = (Date.now() - started) / 1000;
    const { table, statusText, status } = await snapshot(page);
    assert.equal(status, 'done', statusText);
    // The command's rows: measure, p, position, ours, published, ours / published.
    const spe = table.filter((row) => row[0] === 'spe' && row[2] === 'all');
    assert.deepEqual(spe.map((row) => [row[1], row[4]]), [['16', '15.77'], ['64', '34.77']], 'SPE beside the published 15.77 and 34.77 (from the engine)');
    for (const row of spe) assert.ok(Number(row[3]) > 1 && Number(row[5]) > 0, `ours ${row[3]}, ratio ${row[5]}`);
    const b01 = table.find((row) => row[0] === 'n1' && row[2] === 'B01');
    assert.equal(b01?.[4], '279', "Figure 5's B01 row beside ours");
    assert.match(statusText, /--pure/);
    assert.ok(seconds < 60, `the quick version took ${seconds} s`);
    figures.push(`Reproduce Zugzwang (quick) in ${seconds.toFixed(1)} s: ${spe.map((row) => `SPE ${row[3]} at ${row[1]} (paper ${row[4]})`).join(', ')}`);
    assert.deepEqual(errors, []);
  });

  test('real threads view: the Play engine web workers run the form\'s algorithm, drawn from their activity events', { timeout: 120000 }, async (t) => {
    const { page, errors, pool } = await openLabWithEngine(t);
    // DTS sends HELP between the workers; the Play engine's own algorithm (ABDADA) sends none.
    await setForm(page, { algorithm: 'dts', position: 'BK.02' });
    const sent = (line) => page.evaluate((l) => window.uciTraffic.includes(`> ${l}`), line);
    await page.click('[data-lab="threads"]');
    await page.waitForFunction((pool) => {
      const s = window.__lab.snapshot();
      return s.source === 'threads' && s.drawn.processors > 0 && s.totals?.nodes > 0 && s.totals.busy > 0 && (pool < 2 || s.totals.messages > 0);
    }, pool, { timeout: 30000 });
    const snap = await snapshot(page);
    assert.ok(snap.drawn.processors >= 1 && snap.drawn.processors <= Math.max(1, pool), `${snap.drawn.processors} processors, pool ${pool}`);
    assert.ok(await sent('setoption name Algorithm value dts'), 'the form\'s algorithm reaches the engine');
    assert.ok(await sent('setoption name Threads value ' + Math.min(pool, 16)), 'as many workers as the form has processors');
    assert.match(snap.statusText, /BK\.02 with dts on \d web worker/);
    assert.equal(snap.boardFen?.split(' ')[0], '3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5', 'the board shows the searched position');
    const fen = await page.evaluate(() => window.uciTraffic.findLast((l) => l.startsWith('> position fen ')));
    assert.match(fen, /^> position fen 3r1k2\/4npp1\/1ppr3p\/p6P\/P2PPPP1\/1NR5\/5K2\/2R5 w/, 'the form\'s position');
    // Each busy worker's line is written beside it.
    await page.waitForFunction(() => window.__lab.snapshot().drawn.lines >= 1, null, { timeout: 15000 });
    // Clicking a worker shows the line it is on: its first plies in SAN, and their end on the board.
    const last = snap.drawn.processors - 1;
    const [x, y] = await page.evaluate((p) => window.__lab.processorPoint(p), last);
    const canvas = await page.locator('.lab-canvas').boundingBox();
    await page.mouse.click(canvas.x + x, canvas.y + y);
    await page.waitForFunction((p) => new RegExp(`^P${p} on (?!the root)`).test(window.__lab.snapshot().nodeText), last, { timeout: 15000 });
    const shown = await snapshot(page);
    const san = shown.nodeText.match(/^P\d+ on (.*?)(?: …)? \(/)[1].split(' ');
    const chess = new Chess(fen.slice('> position fen '.length));
    for (const move of san) chess.move(move);
    assert.equal(shown.boardFen, chess.fen(), `the board shows the end of ${san.join(' ')}`);
    // Its tooltip counts what it received too (DTS's workers answer each other's HELP).
    await page.mouse.move(canvas.x + x + 1, canvas.y + y);
    const received = Number((await page.textContent('.lab-tooltip')).match(/received (\d+)/)[1]);
    assert.ok(pool < 2 || received > 0, `P${last} received ${received} messages`);
    await page.screenshot({ path: join(RESULTS, 'lab-threads.png') });
    await page.click('[data-lab="threads"]');
    assert.equal((await snapshot(page)).source, 'simulator');
    await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: 30000 });
    // The Play engine's next search has its own settings back (the default algorithm).
    const mark = await page.evaluate(() => window.uciTraffic.length);
    await page.click('[data-mode="analyse"]');
    await page.waitForFunction((from) => window.uciTraffic.slice(from).includes('> go infinite'), mark, { timeout: 30000 });
    const before = await page.evaluate((from) => { const t = window.uciTraffic.slice(from); return t.slice(0, t.indexOf('> go infinite')); }, mark);
    assert.ok(before.includes('> setoption name Algorithm value abdada'), before.join('\n'));
    // A search that ends before the first sample (BK.01 is a quick mate) still leaves its
    // workers drawn with their final counts.
    await page.click('[data-mode="lab"]');
    await setForm(page, { position: 'BK.01' });
    await page.click('[data-lab="threads"]');
    // The engine first ends Analyse's search and takes the Lab's worker count: on a loaded
    // CI machine that took more than 30 s once.
    await page.waitForFunction(() => /finished its search/.test(window.__lab.snapshot().statusText), null, { timeout: 60000 });
    await page.waitForFunction(() => window.__lab.snapshot().totals?.nodes > 0 && window.__lab.snapshot().drawn.processors >= 1, null, { timeout: 30000 });
    assert.deepEqual(errors, []);
  });

  test('measure on this device: the form\'s algorithm against the serial search on the Play engine\'s workers, round by round', { timeout: 180000 }, async (t) => {
    const { page, errors, pool } = await openLabWithEngine(t);
    await setForm(page, { algorithm: 'abdada', position: 'BK.02' });
    await page.click('[data-lab="measure"]');
    if (pool < 2) {
      await page.waitForFunction(() => /no speedup to measure/.test(window.__lab.snapshot().statusText));
      return;
    }
    assert.equal(await page.getAttribute('[data-lab="measure"]', 'aria-pressed'), 'true');
    await page.waitForFunction(() => /^On this device/.test(window.__lab.snapshot().statusText), null, { timeout: 150000 });
    const { table, statusText } = await snapshot(page);
    // Five rounds and the pooled row, each against its own serial search at one depth.
    assert.deepEqual(table.map((row) => String(row[0])), ['1', '2', '3', '4', '5', 'all']);
    const depth = Number(table[0][3]);
    assert.ok(depth >= 6, `depth ${depth}`);
    for (const row of table) {
      assert.deepEqual([row[1], Number(row[2]), Number(row[3])], ['abdada', Math.min(pool, 16), depth]);
      assert.ok(Number(row[4]) > 0 && Number(row[5]) > 0 && Number(row[6]) > 0 && Number(row[7]) > 0, row.join(' '));
    }
    const [t1, tp] = [Number(table[5][4]), Number(table[5][5])];
    assert.equal(Number(table[5][4]), table.slice(0, 5).reduce((s, row) => s + Number(row[4]), 0), 'the pooled T(1) is the sum');
    assert.match(statusText, new RegExp(`abdada on ${Math.min(pool, 16)} web workers .* BK\\.02 at depth ${depth}: SPE ${(t1 / tp).toFixed(2).replace('.', '\\.')}`));
    figures.push(`On this device: ${statusText}`);
    // The engine was asked for exactly that: serial on one thread, then abdada on the pool, to the depth.
    const sent = await page.evaluate(() => window.uciTraffic.filter((l) => /^> (setoption name (Threads|Algorithm)|go )/.test(l)));
    assert.ok(sent.includes('> setoption name Algorithm value serial') && sent.includes('> setoption name Threads value 1'), sent.join('\n'));
    assert.ok(sent.includes('> setoption name Algorithm value abdada'), sent.join('\n'));
    assert.equal(sent.filter((l) => l === `> go depth ${depth}`).length, 10, sent.join('\n'));
    assert.equal(await page.getAttribute('[data-lab="measure"]', 'aria-pressed'), 'false');
    assert.equal((await snapshot(page)).boardFen?.split(' ')[0], '3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5', 'the board shows the measured position');
    await page.screenshot({ path: join(RESULTS, 'lab-device.png') });
    // A second press stops a measurement at once, and the engine is free again.
    await page.click('[data-lab="measure"]');
    await page.click('[data-lab="measure"]');
    await page.waitForFunction(() => /^(Measurement stopped|On this device)/.test(window.__lab.snapshot().statusText), null, { timeout: 10000 });
    assert.equal(await page.getAttribute('[data-lab="measure"]', 'aria-pressed'), 'false');
    await page.waitForSelector('.engine-status[data-status="ready"]', { timeout: 10000 });
    // A checkmated board has nothing to measure, and says so.
    await page.click('[data-mode="analyse"]');
    await page.locator('details.import-export').evaluate((d) => (d.open = true));
    await page.fill('.import-export textarea', 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    await page.click('.import-export [data-action="load"]');
    await page.click('[data-mode="lab"]');
    await setForm(page, { position: 'board' });
    await page.click('[data-lab="measure"]');
    await page.waitForFunction(() => /nothing to search in this position/.test(window.__lab.snapshot().statusText), null, { timeout: 20000 });
    assert.deepEqual(errors, []);
  });

  test('Analyse taking the Play engine ends the real threads view and a measurement on this device, and the Lab says so', { timeout: 120000 }, async (t) => {
    const { page, errors, pool } = await openLabWithEngine(t);
    await setForm(page, { algorithm: 'dts', position: 'BK.02' });
    const tookOver = async (button, status) => {
      await page.click('[data-mode="analyse"]');
      await page.waitForFunction(() => window.uciTraffic.includes('> go infinite'), null, { timeout: 30000 });
      await page.click('[data-mode="lab"]');
      const snap = await snapshot(page);
      assert.match(snap.statusText, status);
      assert.equal(await page.getAttribute(`[data-lab="${button}"]`, 'aria-pressed'), 'false', `${button} is released`);
    };
    await page.click('[data-lab="threads"]');
    await page.waitForFunction(() => window.__lab.snapshot().totals?.nodes > 0, null, { timeout: 30000 });
    await tookOver('threads', /Analyse took the engine/);
    assert.equal((await snapshot(page)).source, 'simulator');
    if (pool < 2) return;
    await page.evaluate(() => (window.uciTraffic.length = 0));
    await page.click('[data-lab="measure"]');
    await page.waitForFunction(() => window.uciTraffic.some((l) => l.startsWith('> go movetime')), null, { timeout: 30000 });
    await tookOver('measure', /^Measurement stopped\. Play or Analyse took the engine/);
    await page.screenshot({ path: join(RESULTS, 'lab-taken-over.png') });
    assert.deepEqual(errors, []);
  });

  test('a Play engine that gives up after its restarts ends the real threads view with its reason, and a view or a measurement started after that at once', { timeout: 120000 }, async (t) => {
    const { page, errors } = await openLabWithEngine(t);
    await setForm(page, { algorithm: 'dts', position: 'BK.02' });
    // What the browser delivers when a worker dies of a wasm trap, to the Play engine's n-th worker.
    const crash = async (n) => {
      await page.waitForFunction((n) => window.uciWorkers.length === n, n, { timeout: 30000 });
      await page.evaluate((n) => window.uciWorkers[n - 1].dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable' })), n);
    };
    const gaveUp = /^The engine failed: the engine crashed: RuntimeError: unreachable; gave up after 4 restarts \(reload the page to try again\)\.$/;
    for (let n = 1; n <= 4; n++) await crash(n);
    // The fourth restart is 8 s away: the view's search waits for it, and the fifth worker's crash ends the wait.
    await page.click('[data-lab="threads"]');
    assert.equal(await page.getAttribute('[data-lab="threads"]', 'aria-pressed'), 'true');
    await crash(5);
    await page.waitForFunction(() => /gave up/.test(window.__lab.snapshot().statusText), null, { timeout: 10000 });
    assert.match((await snapshot(page)).statusText, gaveUp);
    assert.equal(await page.getAttribute('[data-lab="threads"]', 'aria-pressed'), 'false');
    // A view started once the engine has given up ends at once, with the same reason; no sixth worker is made.
    await page.click('[data-lab="threads"]');
    assert.match((await snapshot(page)).statusText, gaveUp);
    assert.equal(await page.getAttribute('[data-lab="threads"]', 'aria-pressed'), 'false');
    assert.equal(await page.evaluate(() => window.uciWorkers.length), 5);
    // So does a measurement on the device, rather than blaming the device's one worker.
    await page.click('[data-lab="measure"]');
    assert.match((await snapshot(page)).statusText, gaveUp);
    assert.equal(await page.getAttribute('[data-lab="measure"]', 'aria-pressed'), 'false');
    assert.deepEqual(errors, []);
  });

  test('a measured one-way time in place of the preset\'s: the 10 ms classroom is the plain one at its one-way time, and a time below the link\'s is refused', { timeout: 120000 }, async (t) => {
    const { page, errors } = await openLab(t);
    // The Lab worker itself, as the Class view's prediction drives it (no replay).
    const runs = await page.evaluate(async () => {
      const worker = new Worker(new URL('engine/lab-worker.js', document.baseURI), { type: 'module' });
      let id = 0;
      const ask = (request) =>
        new Promise((resolve) => {
          const mine = ++id;
          worker.addEventListener('message', function heard({ data }) {
            if (data.id !== mine || data.type === 'trace') return;
            worker.removeEventListener('message', heard);
            resolve(data.type === 'report' ? { hash: data.report.hash, rows: data.report.rows } : { error: data.message });
          });
          worker.postMessage({ id: mine, type: 'run', request, replay: false });
        });
      await new Promise((resolve) => worker.addEventListener('message', ({ data }) => data.type === 'ready' && resolve(), { once: true }));
      const base = { algorithm: 'ybwc', net: 'bus', processors: 4, tt: 'local', pure: true, fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 4, seed: 1 };
      const out = {
        tenMs: await ask({ ...base, preset: 'classroom-10ms' }),
        measured: await ask({ ...base, preset: 'classroom', oneWayNs: 11459000 }),
        plain: await ask({ ...base, preset: 'classroom' }),
        tooShort: await ask({ ...base, preset: 'classroom', oneWayNs: 1000 }),
      };
      worker.terminate();
      return out;
    });
    assert.equal(runs.measured.hash, runs.tenMs.hash, 'the same run, event for event');
    assert.deepEqual(runs.measured.rows, runs.tenMs.rows);
    assert.notEqual(runs.plain.hash, runs.tenMs.hash, 'the one-way time changes the run');
    assert.ok(runs.plain.rows[1].timeNs < runs.tenMs.rows[1].timeNs, 'and makes the class slower');
    assert.match(runs.tooShort.error, /a one-way time of 1000 ns is shorter than the 40000 ns the classroom preset holds a link/);
    assert.deepEqual(errors, []);
  });

  test('presentation mode: large type and the algorithm explained', { timeout: 120000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const before = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    await page.click('[data-lab="present"]');
    const after = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    assert.ok(after >= before * 1.25, `font ${before} → ${after}`);
    await setForm(page, { algorithm: 'dts' });
    assert.match(await page.textContent('.lab-explain'), /HELP/);
    await page.screenshot({ path: join(RESULTS, 'lab-presentation.png') });
    assert.deepEqual(errors, []);
  });
});

describe('Lab: the papers\' presets and the sweep over p', () => {
  // Zugzwang's has its own test above; these are the others (button data-lab="reproduce-<id>"),
  // each with its headline measure and a published figure the engine's copy of the paper gives.
  // `machine`: the form and the network view show the paper's machine, not the last run's.
  const PRESETS = [
    { id: 'crayblitz', measure: 'mean_speedup', p: '16', published: '11.1', machine: { algorithm: 'dts', preset: 'c916', net: 'bus', processors: '16' } },
    { id: 'startech', measure: 't20_ratio', p: '16', published: '7.2', machine: { algorithm: 'jamboree', preset: 'cm5', net: 'fattree', processors: '64', tt: 'distributed' } },
    { id: 'tdsab', measure: 'spe', p: '16', published: '8.59', machine: { algorithm: 'tdsab', preset: 'p3-ethernet', net: 'full', processors: '16', tt: 'tds' } },
    { id: 'pvsplit', measure: 'reply_speedup', p: '4', published: '2.84', machine: { algorithm: 'pvsplit-available', preset: 'lan', net: 'full', processors: '4' } },
  ];

  for (const preset of PRESETS) {
    test(`Reproduce ${preset.id} shows ${preset.measure} beside the published figure`, { timeout: 300000 }, async (t) => {
      const { page, errors } = await openLab(t);
      await setForm(page, { algorithm: 'ybwc', net: 'ring', processors: 8, preset: 'multicore' });
      await page.click(`[data-lab="reproduce-${preset.id}"]`);
      await page.waitForFunction((p) => window.__lab.snapshot().drawn.processors === p, Number(preset.machine.processors), { timeout: 30000 });
      const form = await formValues(page);
      for (const [name, value] of Object.entries(preset.machine)) assert.equal(form[name], value, `${preset.id}: ${name}`);
      assert.equal(form.search, 'period');
      await page.waitForFunction(() => ['done', 'error'].includes(window.__lab.snapshot().status) && window.__lab.snapshot().table.length > 0, null, { timeout: 240000 });
      const { table, statusText, status } = await snapshot(page);
      assert.equal(status, 'done', statusText);
      const rows = table.filter((row) => row[0] === preset.measure && row[1] === preset.p);
      assert.ok(rows.some((row) => row[4] === preset.published), `${preset.measure} at ${preset.p} beside ${preset.published}: ${JSON.stringify(rows)}`);
      for (const row of rows) assert.ok(Number(row[3]) > 0, `ours ${row[3]}`);
      figures.push(`Reproduce ${preset.id} (quick): ${rows.map((row) => `${row[0]} ${row[2]} ${row[3]} (paper ${row[4]})`).join(', ')}`);
      assert.deepEqual(errors, []);
    });
  }

  test('after a run, the sweep over p = 1, 2, 4, 8 plots SPE/LD/SO and W, C with the fit', { timeout: 300000 }, async (t) => {
    const { page, errors } = await openLab(t);
    await runAndWatch(page, { algorithm: 'ybwc', net: 'full', processors: 8, preset: 'multicore', position: 'BK.02', depth: 5 });
    await page.waitForFunction(() => window.__lab.snapshot().sweep.state === 'done', null, { timeout: 240000 });
    const { sweep } = await snapshot(page);
    assert.deepEqual(sweep.points.map((q) => q.p), [1, 2, 4, 8]);
    assert.deepEqual(sweep.plotted, { measures: 4, work: 4 });
    const one = sweep.points[0];
    assert.ok(Math.abs(one.speedup - 1) < 0.05, `SPE at p = 1 is ${one.speedup}`);
    for (const q of sweep.points) {
      assert.ok(q.criticalPathNs > 0 && q.criticalPathNs <= q.timeNs && q.criticalPathNs <= q.workNs, `p = ${q.p}: C ${q.criticalPathNs}, T ${q.timeNs}, W ${q.workNs}`);
    }
    assert.ok(sweep.fit && Number.isFinite(sweep.fit.a) && Number.isFinite(sweep.fit.b), JSON.stringify(sweep.fit));
    assert.match(await page.textContent('.lab-sweep-status'), /Fit T_P/);
    await page.screenshot({ path: join(RESULTS, 'lab-sweep.png') });
    figures.push(`sweep ybwc full multicore BK.02 depth 5: ${sweep.points.map((q) => `p=${q.p} SPE ${q.speedup.toFixed(2)}`).join(', ')}; fit a ${sweep.fit.a.toFixed(3)} b ${sweep.fit.b.toFixed(3)}`);
    assert.deepEqual(errors, []);
  });
});
