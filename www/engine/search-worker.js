// The single-thread build's search worker (started by worker.js on pages that are not
// cross-origin isolated). It runs the engine on its own thread, which may block: a `go`
// runs to its end inside `send`, and every output line is posted the moment it is
// emitted, as `{ line, event }`. `{ ready: true }` says the wasm is loaded; `{ crashed }`
// that a panic killed the engine.
import init, { WasmEngine, uciEvent } from '../pkg/single/meshmate.js';
import { inbox } from './inbox.js';

const postEvents = new URL(self.location.href).searchParams.get('events') !== '0';
let engine = null;
let crashed = false;
const lines = inbox(handle);
self.onmessage = (e) => lines.receive(e.data);

function handle(line) {
  if (crashed) return;
  try {
    engine.send(line);
  } catch (error) {
    crashed = true;
    self.postMessage({ crashed: String(error?.message ?? error) });
  }
}

await init();
engine = new WasmEngine();
engine.listen((line) => self.postMessage({ line, event: postEvents ? uciEvent(line) : undefined }));
self.postMessage({ ready: true });
lines.open();
