// What a message costs between two web workers of the threaded wasm build, in headless
// Chromium: the browser's side of `cargo run --release --example thread-costs`, the same
// Rust code (crate/machine/costs.rs, the wasm export `threadCosts`) on the threads machine
// as compiled to wasm, whose waiting worker looks at its mailbox, then blocks in
// `memory.atomic.wait32` until a sender's `memory.atomic.notify`. The source of the
// simulator's `browser` preset. Needs the threaded package (pkg/threads, ./build.sh build);
// the machine should be quiet (both cores free).
// Usage (from www/): node tests/thread-costs-wasm.mjs [runs]
import { launchBrowser, startServer, WWW } from './browser.mjs';

const runs = Number(process.argv[2] ?? 3);

/** One run: a fresh page and worker pool, the rows of every interval of waiting. */
async function measure(browser, url) {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}console.html`);
    return await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          if (!crossOriginIsolated) reject(new Error('the page is not cross-origin isolated: no shared memory'));
          const worker = new Worker('tests/thread-costs-worker.js', { type: 'module' });
          worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data.rows));
          worker.onerror = (e) => reject(new Error(e.message));
        }),
    );
  } finally {
    await page.close();
  }
}

const server = await startServer([], { root: WWW });
const browser = await launchBrowser();
try {
  const all = [];
  for (let run = 0; run < runs; run++) all.push(await measure(browser, server.url));
  console.log(`round trips between two web workers (threaded wasm build, ${runs} runs; µs; wake-up: the median less the one at no wait)`);
  const head = ['waited', 'rounds', 'median per run', 'mean per run', 'trimmed mean per run', 'caught per run', 'caught µs per run', 'median', 'wake-up'];
  const widths = [8, 7, 9 * runs, 9 * runs, 9 * runs, 9 * runs, 9 * runs, 8, 8];
  console.log(head.map((h, i) => h.padStart(widths[i])).join(' '));
  const average = (rows, key) => rows.reduce((s, r) => s + r[key], 0) / rows.length;
  const spinning = average(all.map((rows) => rows[0]), 'median_us');
  for (let i = 0; i < all[0].length; i++) {
    const rows = all.map((r) => r[i]);
    const median = average(rows, 'median_us');
    const cells = (key) => rows.map((r) => r[key].toFixed(key === 'caught_share' ? 3 : 2).padStart(8)).join(' ');
    const line = [rows[0].waited_us, rows[0].rounds, cells('median_us'), cells('mean_us'), cells('trimmed_us'), cells('caught_share'), cells('caught_mean_us'), median.toFixed(2), (median - spinning).toFixed(2)];
    console.log(line.map((c, k) => String(c).padStart(widths[k])).join(' '));
  }
} finally {
  await browser.close();
  await server.stop();
}
