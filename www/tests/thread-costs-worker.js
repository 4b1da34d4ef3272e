// The measuring worker of thread-costs-wasm.mjs: the threaded wasm build with a pool of two
// web workers, started as Play's engine worker starts it (engine/worker.js), runs the
// threads machine's round trips (crate/machine/costs.rs) and posts the rows.
import init, { initThreadPool, threadCosts } from '/pkg/threads/meshmate.js';

try {
  await init();
  await initThreadPool(2);
  postMessage({ rows: threadCosts() });
} catch (e) {
  postMessage({ error: String(e?.stack ?? e) });
}
