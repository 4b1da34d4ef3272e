// The Lab stays light, in Debian's Chromium launched with --enable-precise-memory-info:
// through a 1024-processor run replayed to its end and through its trace export, the
// page's JS heap (performance.memory.usedJSHeapSize) stays under 300 MB. The run has more
// events than the replay's window, so the window and the worker's pacing are what keep it
// there. Also: the heat map at 1024 keeps the network's coordinates, and a hover names
// the processor under the pointer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS } from './browser.mjs';
import { labSuite, setForm, snapshot } from './labPage.mjs';

const LIMIT_MB = 300;
const MB = 2 ** 20;
/** Figures measured by these tests, printed at the end for the report. */
const { figures, openLab } = labSuite({ browserArgs: ['--enable-precise-memory-info', '--js-flags=--expose-gc'] });

/** The page's JS heap in MB, after a collection (what it holds, not what it has yet to free). */
const heapMb = (page) =>
  page.evaluate(() => {
    globalThis.gc?.();
    return performance.memory.usedJSHeapSize / 2 ** 20;
  });

describe('Lab memory', () => {
  test('a 1024-processor run replayed to its end and exported keeps the JS heap under 300 MB', { timeout: 600000 }, async (t) => {
    const { page, errors } = await openLab(t);
    assert.ok(await page.evaluate(() => performance.memory.usedJSHeapSize > 0 && crossOriginIsolated), 'precise memory info and a cross-origin isolated page');
    await setForm(page, { algorithm: 'ybwc', net: 'debruijn', processors: 1024, preset: 't800', tt: 'global', search: 'modern', position: 'BK.01', depth: 5, seed: 1 });
    await page.selectOption('[name="speed"]', '1000000000');
    const started = Date.now();
    await page.click('[data-lab="run"]');
    let peak = 0;
    let windowPeak = 0;
    let snap;
    for (;;) {
      await page.waitForTimeout(2000);
      snap = await snapshot(page);
      peak = Math.max(peak, await page.evaluate(() => performance.memory.usedJSHeapSize / 2 ** 20));
      windowPeak = Math.max(windowPeak, snap.held);
      assert.notEqual(snap.status, 'error', snap.statusText);
      if (snap.complete && snap.cursor === snap.events && snap.events > 0) break;
      assert.ok(Date.now() - started < 480000, `the replay has not reached its end: event ${snap.cursor} of ${snap.events}, ${snap.statusText}`);
    }
    const end = await heapMb(page);
    const seconds = (Date.now() - started) / 1000;
    assert.ok(snap.report.events > 1 << 20, `${snap.report.events} events: more than the replay's window, or the test shows nothing`);
    // Every event the replay uses (all but the trace's run and note lines) was applied.
    assert.ok(snap.cursor === snap.events && snap.events > 0.99 * snap.report.events, `${snap.cursor} of ${snap.events} replayed, ${snap.report.events} in the trace`);
    assert.ok(windowPeak <= 1 << 20, `the page held ${windowPeak} events at once`);
    // The heat map keeps DeBruijn's coordinates: the hover over a cell names its processor.
    assert.equal(snap.drawn.mode, 'aggregate');
    await page.screenshot({ path: join(RESULTS, 'lab-1024-heat.png') });
    const cell = await page.evaluate(() => window.__lab.processorPoint(0b1000000011));
    const box = await page.locator('.lab-canvas').boundingBox();
    await page.mouse.move(box.x + cell[0], box.y + cell[1]);
    assert.match(await page.textContent('.lab-tooltip'), /^P515 \(1000000011\) /);

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 300000 }), page.click('[data-lab="export-trace"]')]);
    let exportPeak = 0;
    const path = await Promise.race([
      download.path(),
      (async () => {
        for (;;) {
          exportPeak = Math.max(exportPeak, await page.evaluate(() => performance.memory.usedJSHeapSize / 2 ** 20));
          await page.waitForTimeout(500);
        }
      })(),
    ]);
    const afterExport = await heapMb(page);
    const bytes = statSync(path).size;
    figures.push(
      `memory: ybwc debruijn 1024 modern BK.01 depth 5: ${snap.report.events} events, simulated in ${(snap.report.simulationMs / 1000).toFixed(1)} s, replayed to the end in ${seconds.toFixed(0)} s at 1 s/s; ` +
        `JS heap peak ${peak.toFixed(0)} MB, at the end ${end.toFixed(0)} MB (window at most ${windowPeak} events); export ${(bytes / MB).toFixed(0)} MB, heap after it ${afterExport.toFixed(0)} MB (peak while exporting ${exportPeak.toFixed(0)} MB)`,
    );
    assert.ok(peak < LIMIT_MB, `heap peak ${peak} MB during the replay`);
    assert.ok(end < LIMIT_MB && afterExport < LIMIT_MB && exportPeak < LIMIT_MB, `heap ${end} MB at the end, ${afterExport} MB after the export`);
    assert.ok(bytes > snap.report.events * 30, `the export has ${bytes} bytes for ${snap.report.events} events`);
    assert.deepEqual(errors, []);
  });
});
