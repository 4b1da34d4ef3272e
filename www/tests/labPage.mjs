// Shared parts of the Lab's browser tests: one set-up for a test file (the app served to a
// Chromium, and its figures printed at the end), a fresh page on the Lab with the simulator
// loaded, the form set as a user sets it, a run watched to its moving picture, and the
// page's own account of what it shows (window.__lab.snapshot()).
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, servedApp } from './browser.mjs';

export const LAB_READY_MS = 60000;
export const RUN_MS = 120000;
export const VIEWPORT = { width: 1500, height: 950 };

/**
 * One Lab test file's set-up: the built app served to its own Chromium (`browserArgs` for
 * its launch). Returns `openLab(t, options)`, a fresh page on the Lab (see `openLab`), and
 * `figures`, the lines a test measured, printed as `# lab figure: ...` after the file.
 */
export function labSuite({ browserArgs = [] } = {}) {
  const app = servedApp({ browserArgs });
  const figures = [];
  after(() => {
    for (const line of figures) console.log(`# lab figure: ${line}`);
  });
  return { figures, openLab: (t, options) => openLab(app, t, options) };
}

/**
 * A fresh page on the Lab tab with the simulator loaded, and its error log. With `hash` the
 * page opens that address fragment (a link to an experiment) and must open the Lab itself.
 */
export async function openLab(app, t, { initScript = null, viewport = VIEWPORT, hash = null } = {}) {
  const context = await app.browser.newContext({ viewport, acceptDownloads: true });
  t.after(() => context.close());
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(app.server.url + (hash ?? ''));
  if (!hash) await page.click('[data-mode="lab"]');
  await page.waitForSelector('.lab:not([data-status="loading"])', { timeout: LAB_READY_MS });
  if (!hash) assert.equal(await page.getAttribute('.lab', 'data-status'), 'idle', await page.textContent('.lab-status'));
  return { page, errors };
}

export const snapshot = (page) => page.evaluate(() => window.__lab.snapshot());

/** Sets the experiment form (fields by name) the way a user does. */
export async function setForm(page, values) {
  for (const [name, value] of Object.entries(values)) {
    const field = page.locator(`.lab-controls [name="${name}"]`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(String(value));
    else await field.fill(String(value));
    await field.dispatchEvent('change');
  }
}

/** The form's fields as they are now. */
export const formValues = (page) =>
  page.$$eval('.lab-controls [name]', (fields) => Object.fromEntries(fields.map((f) => [f.name, f.value])));

/** Presses Run and waits until the report is in and the drawing shows messages moving
 * (or, for an algorithm that sends none, virtual time moving). */
export async function runAndWatch(page, values, { messages = true } = {}) {
  await setForm(page, values);
  await page.click('[data-lab="run"]');
  return watchRun(page, { messages });
}

/** Waits for the run in progress to end and its replay to show something moving. */
export async function watchRun(page, { messages = true } = {}) {
  await page.waitForFunction(() => window.__lab.snapshot().status !== 'running', null, { timeout: RUN_MS });
  const snap = await snapshot(page);
  assert.equal(snap.status, 'done', snap.statusText);
  if (messages) await page.waitForFunction(() => window.__lab.snapshot().drawn.seen > 0, null, { timeout: 20000 });
  else await page.waitForFunction(() => window.__lab.snapshot().clock > 0, null, { timeout: 20000 });
  return snapshot(page);
}

/** The result element's data attributes (data-spe …), as the page set them. */
export const resultData = (page) => page.$eval('.lab-result', (el) => ({ ...el.dataset }));

/** Average frames per second over `ms` while the replay runs (a second is 60 frames at full rate: enough for the tests' bound of 5). */
export async function measureFps(page, ms = 1000) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        let count = 0;
        const start = performance.now();
        const tick = (now) => {
          count++;
          if (now - start < ms) requestAnimationFrame(tick);
          else resolve((1000 * count) / (now - start));
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}
