// The Lab's links and its default experiment, in Debian's Chromium against the built app:
// an address that holds an experiment opens that run with the same numbers; a malformed
// one opens the defaults and says what it ignored; the result element carries the run's
// figures; the default experiment shows a real speedup (at least half of what the same
// algorithm reaches over the whole Bratko-Kopec suite natively, measured in this run).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE, WWW } from './browser.mjs';
import { RUN_MS, formValues, labSuite, resultData, snapshot, watchRun } from './labPage.mjs';

/** Figures measured by these tests, printed at the end for the report. */
const { figures, openLab } = labSuite();

const BRATKO_KOPEC = join(WWW, '..', '..', 'shared', 'data', 'bratko-kopec.epd');

/** The same algorithm's speedup over the whole Bratko-Kopec suite at 16 processors, from
 * the native simulator (`meshmate sim`, ΣT(1)/ΣT(16)) with the form's machine and search. */
function suiteSpeedup(form) {
  assert.ok(existsSync(NATIVE), `${NATIVE} is not built (./build.sh build)`);
  const args = ['sim', '--algo', form.algorithm, '--procs', '16', '--preset', form.preset, '--net', form.net, '--tt', form.tt, '--suite', BRATKO_KOPEC, '--depth', form.depth, '--seed', form.seed];
  if (form.search === 'period') args.push('--pure');
  const run = spawnSync(NATIVE, args, { encoding: 'utf8', timeout: 300000 });
  assert.equal(run.status, 0, run.stderr);
  const spe = new RegExp(`^\\s*${form.algorithm}\\s+p=16\\s+SPE ([\\d.]+)`, 'm').exec(run.stdout);
  assert.ok(spe, run.stdout);
  return { spe: Number(spe[1]), command: `meshmate ${args.join(' ')}` };
}

/** Waits for the run a link started and returns its snapshot and result attributes. */
async function linkedRun(page) {
  await page.waitForFunction(() => ['done', 'error'].includes(window.__lab.snapshot().status) && window.__lab.snapshot().runs > 0, null, { timeout: RUN_MS });
  const snap = await watchRun(page);
  return { snap, result: await resultData(page) };
}

describe('Lab links and defaults', () => {
  const LINK = '#lab?algorithm=dts&net=hypercube&processors=8&preset=multicore&tt=global&search=modern&position=BK.02&depth=4&seed=7';

  test('a link with settings opens that run, and the result element carries the table\'s numbers', { timeout: 300000 }, async (t) => {
    const { page, errors } = await openLab(t, { hash: LINK });
    assert.equal(await page.getAttribute('[data-mode="lab"]', 'aria-selected'), 'true', 'the link opens the Lab');
    const { snap, result } = await linkedRun(page);
    assert.deepEqual(await formValues(page), { algorithm: 'dts', net: 'hypercube', processors: '8', preset: 'multicore', tt: 'global', search: 'modern', position: 'BK.02', depth: '4', seed: '7' });
    assert.equal(await page.isHidden('.lab-notice'), true, 'a good link gives no notice');
    assert.deepEqual(snap.report.rows.map((r) => r.processors), [1, 8]);
    assert.equal(snap.report.rows[1].algorithm, 'dts');
    // The result element: the p-processor row, exactly; the table shows the same numbers rounded.
    const row = snap.report.rows[1];
    assert.deepEqual(
      [result.spe, result.so, result.ld, result.nodes, result.messages, result.virtualNs].map(Number),
      [row.speedup, row.searchOverhead, row.load, row.nodes, row.messages, row.timeNs],
    );
    const cells = snap.table[1];
    assert.deepEqual(cells.slice(2).map(String), ['8', result.nodes, (Number(result.virtualNs) / 1e6).toFixed(3), Number(result.ld).toFixed(3), Number(result.so).toFixed(3), Number(result.spe).toFixed(2)]);
    assert.equal(new URL(page.url()).hash, LINK, 'the address still holds the run');

    // The same link in another browser context gives the same run and numbers.
    const again = await openLab(t, { hash: LINK });
    const second = await linkedRun(again.page);
    assert.equal(second.snap.report.hash, snap.report.hash);
    assert.deepEqual(second.result, result);

    // A run of other settings puts them in the address; that address reproduces it.
    await page.selectOption('.lab-controls [name="algorithm"]', 'ybwc');
    await page.fill('.lab-controls [name="seed"]', '11');
    await page.click('[data-lab="run"]');
    const third = await watchRun(page);
    const hash = new URL(page.url()).hash;
    assert.match(hash, /algorithm=ybwc.*seed=11/);
    const reopened = await openLab(t, { hash });
    assert.equal((await linkedRun(reopened.page)).snap.report.hash, third.report.hash);
    assert.deepEqual(errors, []);
    assert.deepEqual(again.errors, []);
  });

  test('a malformed link opens the defaults with a notice naming what it ignored', { timeout: 180000 }, async (t) => {
    const defaults = await (async () => {
      const { page } = await openLab(t);
      return formValues(page);
    })();
    const { page, errors } = await openLab(t, { hash: '#lab?algorithm=alphabeta&processors=99999&depth=x&colour=red&seed=-3' });
    const notice = await page.textContent('.lab-notice');
    assert.equal(await page.isVisible('.lab-notice'), true);
    for (const part of ['algorithm=alphabeta', 'processors=99999', 'depth=x', 'colour', 'seed=-3']) assert.ok(notice.includes(part), `the notice does not name ${part}: ${notice}`);
    assert.match(notice, /defaults/);
    assert.deepEqual(await formValues(page), defaults);
    const { snap } = await linkedRun(page);
    assert.equal(snap.report.rows[1].algorithm, defaults.algorithm);
    // The address now holds the experiment that ran.
    assert.equal(new URL(page.url()).hash, `#lab?${new URLSearchParams(defaults)}`);
    // A good link pasted into the open page's address bar runs its experiment; the notice goes.
    const runs = snap.runs;
    await page.evaluate((hash) => (location.hash = hash), LINK);
    await page.waitForFunction((runs) => window.__lab.snapshot().runs > runs && window.__lab.snapshot().status === 'done', runs, { timeout: RUN_MS });
    assert.equal((await formValues(page)).algorithm, 'dts');
    assert.equal((await snapshot(page)).report.rows[1].algorithm, 'dts');
    assert.equal(await page.isHidden('.lab-notice'), true);
    assert.deepEqual(errors, []);
  });

  test('the default experiment shows a real speedup: at least half the suite figure at 16 processors', { timeout: 300000 }, async (t) => {
    const { page, errors } = await openLab(t);
    const form = await formValues(page);
    assert.equal(form.processors, '16');
    const started = Date.now();
    await page.click('[data-lab="run"]');
    await page.waitForSelector('.lab-result[data-spe]', { timeout: RUN_MS });
    const seconds = (Date.now() - started) / 1000;
    const spe = Number((await resultData(page)).spe);
    const suite = suiteSpeedup(form);
    figures.push(`default ${new URLSearchParams(form)}: SPE ${spe.toFixed(2)} in ${seconds.toFixed(1)} s from Run to result (simulation ${(await snapshot(page)).report.simulationMs.toFixed(0)} ms); suite ${suite.spe} (${suite.command})`);
    assert.ok(spe >= suite.spe / 2, `the default's SPE ${spe} is under half the suite's ${suite.spe}`);
    assert.deepEqual(errors, []);
  });
});
