// The Lab's lectures in Debian's Chromium against the built app: each opens from a link,
// runs to its last stop with the keyboard alone (Space, →, ←, F, Esc), and every number a
// stop's text names is one of the run's counters at that moment: the replay's totals and
// message counts, or at the end the report's row (the table's and the result element's).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RESULTS } from './browser.mjs';
import { RUN_MS, labSuite, resultData, snapshot } from './labPage.mjs';
import { LECTURES } from '../src/lab/lectures.js';

/** Figures measured by these tests, printed at the end for the report. */
const { figures, openLab } = labSuite();

/** Event codes a stop's event has (eventColumns.js EV). */
const STOP_CODES = { send: 3, split: 9, helperNode: 7, helperCut: 8, helperTable: 8 };

/** Waits for the lecture to stand at stop `at`, paused, and returns the snapshot. */
async function atStop(page, at) {
  await page.waitForFunction((at) => {
    const s = window.__lab.snapshot();
    return s.lecture?.at === at && !s.running && s.lecture.text !== '';
  }, at, { timeout: 60000 });
  return snapshot(page);
}

/** Checks that stop `snap.lecture` says only the run's own numbers, and that they are its counters. */
async function checkStop(page, snap, spec) {
  const { lecture } = snap;
  const { facts } = lecture;
  const stop = spec.stops.find((s) => s.on === lecture.on && (s.kind ?? null) === lecture.kind);
  assert.ok(stop, `stop ${lecture.at} is one of the lecture's (${lecture.on} ${lecture.kind})`);
  assert.equal(lecture.text, stop.text(facts), 'the text is the stop\'s, with these facts');
  assert.equal(snap.cursor, lecture.index + 1, 'the replay stands just after the stop\'s event');
  assert.equal(facts.t, (snap.clock / 1e6).toFixed(3), 'the time named is the replay\'s');
  if (stop.on === 'end') {
    const row = snap.report.rows[1];
    const result = await resultData(page);
    assert.deepEqual(
      [facts.spe, facts.so, facts.ld, facts.np, facts.messages, facts.tp, facts.n1, facts.t1],
      [row.speedup.toFixed(2), row.searchOverhead.toFixed(3), row.load.toFixed(3), row.nodes, row.messages, (row.timeNs / 1e6).toFixed(3), snap.report.rows[0].nodes, (snap.report.rows[0].timeNs / 1e6).toFixed(3)],
    );
    assert.equal(facts.spe, Number(result.spe).toFixed(2), 'the speedup named is the result element\'s');
    // The table shows the run, or (once the lecture's scaling curve is on) the curve's runs: the run at its own count is one of them.
    const shown = snap.table.find((r) => r[1] === row.algorithm && Number(r[2]) === row.processors);
    if (shown) assert.equal(shown[7], facts.spe, 'and the table\'s');
  } else {
    assert.equal(facts.nodes, snap.totals.nodes);
    assert.equal(facts.messages, snap.totals.messages);
    assert.equal(facts.busy, snap.totals.busy);
    for (const [kind, count] of Object.entries(snap.kindCounts)) assert.equal(facts[kind], count, kind);
    const code = await page.evaluate((i) => window.__lab.codes(i, 1)[0], lecture.event);
    assert.equal(code, STOP_CODES[stop.on], `the stop's event is a ${stop.on}`);
    if (stop.kind) assert.equal(facts[stop.kind] >= 1, true, `at least the stop's own ${stop.kind}`);
    // The stop's event is the first of its kind in the run: none before it.
    const before = await page.evaluate((i) => window.__lab.codes(0, i), lecture.event);
    if (stop.on === 'split') assert.ok(!before.includes(9), 'no split before the first split');
  }
  // Every number in the text (moves in «…» aside) is one of the facts, written as they are.
  const named = new Set(Object.values(facts).map(String));
  const numbers = lecture.text.replace(/«[^»]*»/g, '').match(/-?\d+(?:\.\d+)?/g) ?? [];
  assert.ok(numbers.length >= 3, lecture.text);
  for (const number of numbers) assert.ok(named.has(number), `${number} in "${lecture.text}" is none of the run's counters ${JSON.stringify(facts)}`);
}

describe('Lab lectures', () => {
  for (const spec of LECTURES) {
    test(`lecture ${spec.id}: opened by its link, run to its last stop with the keyboard, every stop naming the run's counters`, { timeout: 300000 }, async (t) => {
      const started = Date.now();
      const { page, errors } = await openLab(t, { hash: `#lab?lecture=${spec.id}` });
      await page.waitForFunction(() => window.__lab.snapshot().lecture?.stops !== null && window.__lab.snapshot().lecture?.stops !== undefined, null, { timeout: RUN_MS });
      const first = await snapshot(page);
      assert.equal(first.lecture.stops, spec.stops.length, 'the run reaches every stop of the lecture');
      assert.equal(first.lecture.at, -1);
      // Space plays the run to the first stop.
      await page.keyboard.press(' ');
      let snap = await atStop(page, 0);
      await checkStop(page, snap, spec);
      if (spec.id === LECTURES[0].id) await page.screenshot({ path: join(RESULTS, `lab-lecture-${spec.id}-1.png`) });
      // → to each further stop; ← goes back one and → returns.
      for (let at = 1; at < spec.stops.length; at++) {
        await page.keyboard.press('ArrowRight');
        snap = await atStop(page, at);
        await checkStop(page, snap, spec);
        assert.equal(new URL(page.url()).hash, `#lab?lecture=${spec.id}&stop=${at + 1}`, 'the address holds the stop');
      }
      const end = snap;
      await page.keyboard.press('ArrowLeft');
      await checkStop(page, await atStop(page, spec.stops.length - 2), spec);
      await page.keyboard.press('ArrowRight');
      await checkStop(page, await atStop(page, spec.stops.length - 1), spec);
      if (spec.curve?.kind === 'break-even') await checkBreakEven(page, spec, end);
      else await checkScalingCurve(page, spec, end);
      // F: full screen with presentation's large type; Esc leaves the lecture.
      await page.keyboard.press('f');
      assert.equal((await snapshot(page)).presenting, true);
      await page.keyboard.press('Escape');
      const left = await snapshot(page);
      assert.equal(left.lecture, null);
      assert.equal(left.presenting, false);
      assert.equal(await page.isHidden('.lab-lecture'), true);
      figures.push(
        `lecture ${spec.id}: ${spec.stops.length} stops; simulated in ${(end.report.simulationMs / 1000).toFixed(1)} s, opened to last stop in ${((Date.now() - started) / 1000).toFixed(1)} s with →; ` +
          `played through at auto speed: the replay's 30 s plus reading at ${spec.stops.length} stops; ends at SPE ${end.lecture.facts.spe} on ${end.lecture.facts.processors}`,
      );
      assert.deepEqual(errors, []);
    });
  }

  /** The lecture ends on its algorithm's scaling curve, whose last point is the run's speedup. */
  async function checkScalingCurve(page, spec, end) {
    await page.waitForFunction(() => window.__lab.snapshot().scaling.state === 'done', null, { timeout: 120000 });
    const { scaling } = await snapshot(page);
    const curve = scaling.curves[spec.settings.algorithm];
    assert.deepEqual(curve.map((q) => q.p), scaling.counts);
    assert.equal(curve[curve.length - 1].speedup.toFixed(2), end.lecture.facts.spe, 'the same seed gives the same run at the lecture\'s count');
    const tableRow = (await snapshot(page)).table.find((r) => r[1] === spec.settings.algorithm && Number(r[2]) === spec.settings.processors);
    assert.equal(tableRow?.[7], end.lecture.facts.spe, 'the table shows the curve\'s runs, the lecture\'s among them');
    if (spec.id === LECTURES[0].id) await page.screenshot({ path: join(RESULTS, `lab-lecture-${spec.id}-end.png`) });
  }

  /**
   * The latency lecture ends on its break-even chart: every algorithm on every preset at
   * every depth, the lecture's own run among them with the speedup its end names, and
   * sentences whose every number is one of the points'.
   */
  async function checkBreakEven(page, spec, end) {
    const { algorithms, presets, depths } = spec.curve;
    await page.waitForFunction(() => window.__lab.snapshot().breakEven.state === 'done', null, { timeout: 600000 });
    const { breakEven } = await snapshot(page);
    assert.equal(breakEven.points.length, algorithms.length * presets.length * depths.length, 'a point for each algorithm, preset and depth');
    const { algorithm, preset, depth } = spec.settings;
    const own = breakEven.points.find((q) => q.algorithm === algorithm && q.preset === preset && q.depth === depth);
    assert.equal(own.speedup.toFixed(2), end.lecture.facts.spe, 'the same seed gives the same run at the lecture\'s depth and preset');
    assert.equal(own.t1.toFixed(6), (Number(end.lecture.facts.t1) / 1000).toFixed(6), 'its T(1) is the run\'s');
    for (const d of depths) assert.equal(new Set(breakEven.points.filter((q) => q.depth === d).map((q) => q.t1)).size, 1, 'one laptop\'s time at a depth is the same on every preset');
    const named = new Set(breakEven.points.flatMap((q) => [q.t1.toFixed(3), q.speedup.toFixed(2), q.searchOverhead.toFixed(2), String(q.depth)]));
    named.add('1');
    const numbers = breakEven.text.replace(/classroom(-\d+ms)?/g, '').match(/\d+(?:\.\d+)?/g) ?? [];
    assert.ok(numbers.length >= presets.length, breakEven.text);
    for (const number of numbers) assert.ok(named.has(number), `${number} in "${breakEven.text}" is none of the chart's points`);
    assert.equal(await page.textContent('.lab-break-even-status'), breakEven.text);
    figures.push(`break-even: ${breakEven.points.map((q) => `${q.algorithm}/${q.preset}/d${q.depth} T1 ${q.t1.toFixed(3)} s SPE ${q.speedup.toFixed(2)}`).join('; ')}`);
    await page.screenshot({ path: join(RESULTS, `lab-lecture-${spec.id}-end.png`) });
    await page.locator('.lab-break-even').screenshot({ path: join(RESULTS, `lab-lecture-${spec.id}-chart.png`) });
  }

  test('a link to a lecture\'s stop opens that stop; the menu button starts a lecture', { timeout: 180000 }, async (t) => {
    const spec = LECTURES[0];
    const { page, errors } = await openLab(t, { hash: `#lab?lecture=${spec.id}&stop=3` });
    const snap = await atStop(page, 2);
    await checkStop(page, snap, spec);
    await page.keyboard.press('Escape');
    await page.click(`[data-lecture="${LECTURES[1].id}"]`);
    await page.waitForFunction((id) => window.__lab.snapshot().lecture?.id === id && window.__lab.snapshot().lecture.stops !== null, LECTURES[1].id, { timeout: RUN_MS });
    await page.keyboard.press('ArrowRight');
    await checkStop(page, await atStop(page, 0), LECTURES[1]);
    assert.deepEqual(errors, []);
  });
});
