// The single-thread build's search worker (started by worker.js on pages that are not
// cross-origin isolated). Without shared memory a search holds this thread, so it runs in
// slices of SLICE_MS: between two slices the worker goes back to its event loop and takes
// the lines that arrived (`stop`, `isready`, `ponderhit`, a new `position` and `go`), so
// `go infinite` searches until `stop` and the hash table is kept. Every output line is
// posted the moment it is emitted, as `{ line, event }` (the event the engine wrote the
// line from); `bench` still runs to its end.
// `{ ready: true }` says the wasm is loaded; `{ crashed }` that a panic killed the engine;
// `{ quit: true }` that it took `quit`; `{ searching }` that the slices start or stop.
import init, { WasmEngine } from '../pkg/single/meshmate.js';
import { inbox } from './inbox.js';

/** Milliseconds a search runs before the worker looks at its messages again: `stop`
 * waits at most this long, and each slice costs one trip through the event loop. */
const SLICE_MS = 50;

let engine = null;
let crashed = false;
/** Whether the slice loop is running (a search is under way). */
let searching = false;
const lines = inbox(handle);
self.onmessage = (e) => lines.receive(e.data);

/** One trip through the event loop: a message-channel task, which browsers do not delay
 * the way they clamp nested timers. */
const channel = new MessageChannel();
const yielded = [];
channel.port1.onmessage = () => yielded.shift()?.();
function yieldToEventLoop() {
  return new Promise((resolve) => {
    yielded.push(resolve);
    channel.port2.postMessage(null);
  });
}

function fail(error) {
  crashed = true;
  self.postMessage({ crashed: String(error?.message ?? error) });
}

function handle(line) {
  if (crashed) return;
  try {
    if (!engine.send(line)) return self.postMessage({ quit: true });
  } catch (error) {
    return fail(error);
  }
  if (!searching && !engine.idle()) runSlices();
}

/** Runs the search in slices until it is over or waits for `stop`/`ponderhit`. */
async function runSlices() {
  searching = true;
  self.postMessage({ searching });
  try {
    while (!crashed && engine.resume(SLICE_MS) === 'searching') await yieldToEventLoop();
  } catch (error) {
    fail(error);
  } finally {
    searching = false;
    self.postMessage({ searching });
  }
}

await init();
engine = new WasmEngine();
engine.listen((line, event) => self.postMessage({ line, event }));
self.postMessage({ ready: true });
lines.open();
