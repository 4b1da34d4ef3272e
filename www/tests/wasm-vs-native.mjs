// Measures the wasm engine against the native one on the bench signature: the threaded
// build (Threads=1) and the single build in Debian's Chromium, each right after a native
// run, in rounds. Reports nodes per second by wall clock and the speed ratio by CPU time,
// which stays meaningful on a busy machine: of the browser's processes whole, and of the
// worker thread that searched alone. Each round runs the wasm bench twice in one fresh
// worker: `first` includes compiling the module and V8's tier-up from its baseline code,
// `again` is the engine as a game or an analysis runs it, optimised.
// Both sides search with the same evaluation: the engine's default (nnue), or the one named last
// (native `bench --eval E`, the worker's UCI option `Eval`).
// Needs ./build.sh build first.
// Usage (from www/): node tests/wasm-vs-native.mjs [rounds] [bench depth] [classic|nnue]
import { launchBrowser, startServer } from './browser.mjs';
import { nativeBench, openWorker, workerBench } from './engine-harness.mjs';

const rounds = Number(process.argv[2] ?? 3);
const depth = process.argv[3] ? Number(process.argv[3]) : undefined;
const evaluation = process.argv[4];

/** The ratios of one wasm bench against a native one. */
function ratios(native, wasm) {
  if (wasm.nodes !== native.nodes) throw new Error(`signatures differ: wasm ${wasm.nodes}, native ${native.nodes}`);
  return (
    `wasm ${wasm.nps} nps, ${wasm.cpuSeconds.toFixed(2)} s CPU (search thread ${wasm.searchThreadCpuSeconds.toFixed(2)} s); ` +
    `wasm/native by wall ${(wasm.nps / native.nps).toFixed(2)}, by CPU ${(native.cpuSeconds / wasm.cpuSeconds).toFixed(2)}, ` +
    `by search thread CPU ${(native.cpuSeconds / wasm.searchThreadCpuSeconds).toFixed(2)}`
  );
}

for (const [build, serverArgs] of [['threads', []], ['single', ['--no-isolation']]]) {
  const server = await startServer(serverArgs);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}console.html`);
    for (let round = 1; round <= rounds; round++) {
      const native = nativeBench(depth, evaluation);
      const engine = await openWorker(page, '?threads=1&events=0');
      await engine.send('uci', 'setoption name Threads value 1', 'isready');
      await engine.waitFor(/^readyok$/);
      const first = await workerBench(engine, depth, evaluation);
      const nativeAgain = nativeBench(depth, evaluation);
      const again = await workerBench(engine, depth, evaluation);
      await engine.send('quit');
      console.log(`${build} round ${round}: ${native.nodes} nodes, evaluation ${evaluation ?? 'nnue (the default)'}`);
      console.log(`  first: native ${native.nps} nps, ${native.cpuSeconds.toFixed(2)} s CPU; ${ratios(native, first)}`);
      console.log(`  again: native ${nativeAgain.nps} nps, ${nativeAgain.cpuSeconds.toFixed(2)} s CPU; ${ratios(nativeAgain, again)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
