// Runs `bench` in the native binary and then in one wasm build in Chromium, with V8
// writing its code map (/tmp/perf-PID.map, wasm function names included), so that one
// `perf record` around this script samples both sides with the same sampler.
// Usage (from www/): perf record -k monotonic -e cpu-clock -F 1999 -o FILE -- node tests/wasm-profile.mjs threads|single [depth] [classic|nnue]
// (tests/tuning/wasm_profile.py runs it so and prints the table). V8_FLAGS replaces the V8
// flags: `--perf-prof` writes jit-PID.dump files instead, for `perf inject --jit` and
// `perf annotate` of the machine code V8 made of each wasm function.
import { launchBrowser, startServer } from './browser.mjs';
import { nativeBench, openWorker, workerBench } from './engine-harness.mjs';

const build = process.argv[2] ?? 'threads';
const depth = Number(process.argv[3] ?? 12);
const evaluation = process.argv[4];

const native = nativeBench(depth, evaluation);
const server = await startServer(build === 'single' ? ['--no-isolation'] : []);
const browser = await launchBrowser([`--js-flags=${process.env.V8_FLAGS ?? '--perf-basic-prof'}`]);
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}console.html`);
  const engine = await openWorker(page, '?threads=1&events=0');
  await engine.send('uci', 'setoption name Threads value 1', 'isready');
  await engine.waitFor(/^readyok$/);
  // The window of the wasm bench in CLOCK_MONOTONIC seconds (perf record -k monotonic).
  const start = process.hrtime.bigint();
  const wasm = await workerBench(engine, depth, evaluation);
  const end = process.hrtime.bigint();
  console.log(`wasm bench window: ${Number(start) / 1e9} ${Number(end) / 1e9}`);
  await engine.send('quit');
  console.log(`${build}: ${native.nodes} nodes; native ${native.nps} nps, ${native.cpuSeconds.toFixed(2)} s CPU; wasm ${wasm.nodes} nodes ${wasm.nps} nps, ${wasm.cpuSeconds.toFixed(2)} s CPU`);
} finally {
  await browser.close();
  await server.stop();
}
