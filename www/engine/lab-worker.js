// The Lab worker: runs the simulated parallel machine (crate/wasm/lab.rs) off the page's
// main thread. The simulator is single-threaded by design, so the single build is enough
// and this worker may block while it runs. Typed messages, one request at a time:
//
//   page → worker   { id, type: 'network', net, processors }
//                   { id, type: 'run', request: { algorithm, net, processors, preset, fen, depth, seed } }
//   worker → page   { type: 'ready', catalogue }            once, when the wasm is loaded
//                   { id, type: 'network', drawing }
//                   { id, type: 'trace', text }             JSON lines (docs/trace-schema.md), in order
//                   { id, type: 'report', report, wallMs }  after the last trace message
//                   { id, type: 'error', message }          bad input; the worker stays usable
//                   { type: 'crashed', message }            the wasm trapped; start a new worker
//
// Trace lines are coalesced: the simulator hands over TRACE_BATCH events at a time and
// this worker posts at most one message per POST_MS (and the rest before the report), so
// the page is not flooded with tiny messages.
import init, { labCatalogue, labNetwork, labPanicMessage, labSimulate } from '../pkg/single/meshmate.js';

/** Events per call of the simulator's sink. */
const TRACE_BATCH = 2000;
/** Least time between two trace messages to the page. */
const POST_MS = 40;
/** Memory in use at which an abort without a panic means the wasm memory (1 GiB at most) ran out. */
const MEMORY_FULL_MIB = 768;

const early = [];
let ready = false;
let crashed = false;

self.onmessage = (e) => {
  if (ready) handle(e.data);
  else early.push(e.data);
};

function handle(message) {
  if (crashed) {
    self.postMessage({ id: message?.id, type: 'error', message: 'the simulator crashed earlier; reload the Lab' });
    return;
  }
  const { id, type } = message ?? {};
  try {
    if (type === 'network') {
      self.postMessage({ id, type: 'network', drawing: labNetwork(String(message.net), Number(message.processors) >>> 0) });
    } else if (type === 'run') {
      run(id, message.request);
    } else {
      self.postMessage({ id, type: 'error', message: `unknown Lab request '${type}'` });
    }
  } catch (error) {
    // A wasm trap (RuntimeError) leaves the instance unusable; anything else is a refusal.
    if (error instanceof WebAssembly.RuntimeError) {
      crashed = true;
      self.postMessage({ type: 'crashed', message: labPanicMessage() || abortReason(error) });
    } else {
      self.postMessage({ id, type: 'error', message: String(error?.message ?? error) });
    }
  }
}

/** Why the wasm aborted without a panic message: allocation failures abort silently. */
function abortReason(error) {
  const mib = Math.round(wasm.memory.buffer.byteLength / 2 ** 20);
  if (mib >= MEMORY_FULL_MIB) return `out of memory: the run and its trace filled the simulator's ${mib} MiB; try fewer processors or a shallower depth`;
  return String(error.message ?? error);
}

function run(id, request) {
  const started = performance.now();
  let pending = [];
  let lastPost = 0;
  const flush = () => {
    if (pending.length === 0) return;
    self.postMessage({ id, type: 'trace', text: pending.join('\n') });
    pending = [];
    lastPost = performance.now();
  };
  const report = labSimulate(request, (text) => {
    pending.push(text);
    if (performance.now() - lastPost >= POST_MS) flush();
  }, TRACE_BATCH);
  flush();
  self.postMessage({ id, type: 'report', report, wallMs: performance.now() - started });
}

const wasm = await init();
self.postMessage({ type: 'ready', catalogue: labCatalogue() });
ready = true;
for (const message of early.splice(0)) handle(message);
