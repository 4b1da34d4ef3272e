// The Lab's scaling curve in Debian's Chromium against the built app: two algorithms over
// p = 1, 2, 4, 8, 16 on one chart with the ideal and 1 + 0.7(p − 1) lines; each point is a
// row of the results table with the same SPE; PNG and CSV downloads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS } from './browser.mjs';
import { labSuite, snapshot } from './labPage.mjs';

/** Figures measured by these tests, printed at the end for the report. */
const { figures, openLab } = labSuite();

describe('Lab scaling curve', () => {
  test('two algorithms at 16: one point per p each, equal to the table\'s SPE; PNG and CSV', { timeout: 400000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const algorithms = ['ybwc', 'jamboree'];
    for (const box of await page.$$('[name="scaling"]')) {
      const value = await box.getAttribute('value');
      if ((await box.isChecked()) !== algorithms.includes(value)) await box.click();
    }
    await page.click('[data-lab="scaling"]');
    await page.waitForFunction(() => window.__lab.snapshot().scaling.state === 'running');
    assert.equal(await page.isVisible('.lab-scaling-progress'), true, 'the progress shows');
    await page.waitForFunction(() => window.__lab.snapshot().scaling.state === 'done', null, { timeout: 360000 });
    const { scaling, table } = await snapshot(page);
    assert.deepEqual(scaling.counts, [1, 2, 4, 8, 16]);
    assert.deepEqual(Object.keys(scaling.curves), algorithms);
    assert.equal(table.length, algorithms.length * 5);
    for (const algorithm of algorithms) {
      const points = scaling.curves[algorithm];
      assert.deepEqual(points.map((q) => q.p), [1, 2, 4, 8, 16], algorithm);
      for (const q of points) {
        const row = table.find((r) => r[1] === algorithm && Number(r[2]) === q.p);
        assert.ok(row, `no table row for ${algorithm} at p = ${q.p}`);
        assert.equal(row[7], q.speedup.toFixed(2), `${algorithm} at p = ${q.p}: the point is the table's SPE`);
        assert.equal(Number(row[3]), q.nodes);
      }
      assert.ok(Math.abs(points[0].speedup - 1) < 0.1, `${algorithm} on one processor: SPE ${points[0].speedup}`);
    }
    // The chart plots the two guides and both curves at every p.
    const plotted = await page.evaluate(() => document.querySelectorAll('.lab-scaling-chart .u-legend .u-series').length);
    assert.equal(plotted, 1 + 2 + algorithms.length, 'legend: p, ideal, 1 + 0.7(p − 1), each algorithm');
    assert.match(await page.textContent('.lab-scaling-status'), /SPE on 16 processors: ybwc \d+\.\d\d, jamboree \d+\.\d\d/);
    await page.locator('.lab-scaling').screenshot({ path: join(RESULTS, 'lab-scaling-16.png') });
    const fetch = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-lab="${button}"]`)]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const png = await fetch('scaling-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const csv = (await fetch('scaling-csv')).bytes.toString('utf8').trimEnd().split('\n').map((line) => line.split(','));
    assert.deepEqual(csv[0], ['position', 'algorithm', 'p', 'N', 'T (virtual ms)', 'LD', 'SO', 'SPE']);
    assert.deepEqual(csv.slice(1), table.map((row) => row.map(String)));
    figures.push(`scaling curve at 16 (${(await snapshot(page)).report === null ? 'no run' : 'after a run'}): ${algorithms.map((a) => `${a} ${scaling.curves[a].map((q) => q.speedup.toFixed(2)).join('/')}`).join('; ')}`);
    assert.deepEqual(errors, []);
  });
});
