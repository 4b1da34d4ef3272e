// The Lab worker: runs the simulated parallel machine (crate/wasm/lab.rs) off the page's
// main thread. The simulator is single-threaded by design, so the single build is enough
// and this worker may block while it runs. Typed messages, one request at a time:
//
//   page → worker   { id, type: 'network', net, processors }
//                   { id, type: 'run', request: { algorithm, net, processors, preset, tt, pure, fen, depth, seed }, replay, pace }
//                                                           replay: false sends no trace (the sweep)
//                                                           pace: { buffer, ahead } or absent (see below)
//                   { id, type: 'export' }                  the last replayed run's trace as JSON lines
//   worker → page   { type: 'ready', catalogue }            once, when the wasm is loaded
//                   { id, type: 'network', drawing }
//                   { id, type: 'trace', words }            events as numbers (Float64Array,
//                                                           catalogue.replay.wordsPerEvent per event:
//                                                           see src/lab/eventColumns.js), in order
//                   { id, type: 'report', report, wallMs, memoryMiB }  after the last trace message
//                   { id, type: 'export', blob }            header line, then one line per event
//                   { id, type: 'error', message }          bad input; the worker stays usable
//                   { type: 'crashed', message }            the wasm trapped; start a new worker
//
// Trace batches are coalesced: the simulator streams TRACE_BATCH events at a time (it keeps
// none, so 1024 processors fit its memory) and this worker posts at most one message per
// POST_MS (the rest before the report), transferring the buffers, so the page gets few
// messages and never parses text. With `pace` the page bounds what it holds: `buffer` is a
// SharedArrayBuffer of two Int32 words, [events the replay applied, cancelled]; the
// simulator waits (Atomics.wait, in this worker only) whenever it is more than `ahead`
// events ahead of the replay, and drops the rest of a cancelled run's trace. Its report
// then says how long it waited (`waitedMs`, taken out of `simulationMs`). The export runs
// the last experiment again with the trace as JSON lines, handed over piece by piece as
// Blobs (same seed, same trace: the hash is checked).
import init, { labCatalogue, labNetwork, labPanicMessage, labReproduce, labSimulate } from '../pkg/single/meshmate.js';
import { inbox } from './inbox.js';

/** Events per call of the simulator's sink. */
const TRACE_BATCH = 4096;
/** Least time between two trace messages to the page. */
const POST_MS = 40;
/** Events per piece of the JSON lines export. */
const EXPORT_PIECE = 65536;
const MIB = 2 ** 20;
/** Memory in use at which an abort without a panic means the wasm memory (1 GiB at most) ran out. */
const MEMORY_FULL_MIB = 768;

let crashed = false;
/** The last replayed run's request and report, for its export. */
let lastRun = null;

const requests = inbox(handle);
self.onmessage = (e) => requests.receive(e.data);

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
      run(id, message.request, message.replay !== false, message.pace ?? null);
    } else if (type === 'export') {
      exportTrace(id);
    } else if (type === 'reproduce') {
      const progress = (done, total) => self.postMessage({ id, type: 'progress', done, total });
      const result = labReproduce(String(message.paper), String(message.suite), message.quick !== false, Number(message.seed ?? 1) >>> 0, progress);
      self.postMessage({ id, type: 'reproduce', ...result });
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
  const mib = Math.round(wasm.memory.buffer.byteLength / MIB);
  if (mib >= MEMORY_FULL_MIB) return `out of memory: the run and its trace filled the simulator's ${mib} MiB; try fewer processors or a shallower depth`;
  return String(error.message ?? error);
}

/** Runs `request`; its events go to the page for the replay unless `replay` is false (the
 * background sweep needs only the report, and a stream of events it ignores would make the
 * page's replay stutter). */
function run(id, request, replay, pace) {
  // The export is the shown run's: a run without replay (the sweep) leaves it alone.
  if (replay) lastRun = null;
  const started = performance.now();
  let pending = [];
  let lastPost = 0;
  const ack = pace ? new Int32Array(pace.buffer) : null;
  let sent = 0;
  let waitedMs = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const words = new Float64Array(pending.reduce((n, batch) => n + batch.length, 0));
    let at = 0;
    for (const batch of pending) {
      words.set(batch, at);
      at += batch.length;
    }
    self.postMessage({ id, type: 'trace', words }, [words.buffer]);
    pending = [];
    lastPost = performance.now();
  };
  const result = labSimulate(request, (words) => {
    if (!replay || (ack && Atomics.load(ack, 1))) return;
    pending.push(words);
    sent += words.length / catalogue.replay.wordsPerEvent;
    if (performance.now() - lastPost >= POST_MS) flush();
    if (ack && sent - Atomics.load(ack, 0) > pace.ahead) {
      flush();
      const waiting = performance.now();
      for (let applied = Atomics.load(ack, 0); sent - applied > pace.ahead / 2 && !Atomics.load(ack, 1); applied = Atomics.load(ack, 0)) Atomics.wait(ack, 0, applied, 1000);
      waitedMs += performance.now() - waiting;
    }
  }, TRACE_BATCH, false);
  flush();
  const report = result.report();
  result.free();
  report.simulationMs -= waitedMs;
  report.waitedMs = waitedMs;
  if (replay) lastRun = { request, report };
  const memoryMiB = wasm.memory.buffer.byteLength / MIB;
  self.postMessage({ id, type: 'report', report, wallMs: performance.now() - started, memoryMiB });
}

function exportTrace(id) {
  if (!lastRun) {
    self.postMessage({ id, type: 'error', message: 'no run to export yet' });
    return;
  }
  const parts = [];
  const again = labSimulate(lastRun.request, (text) => parts.push(new Blob([text])), EXPORT_PIECE, true);
  const { hash } = again.report();
  const header = again.header();
  again.free();
  if (hash !== lastRun.report.hash) {
    self.postMessage({ id, type: 'error', message: `the run did not repeat (trace ${hash}, shown ${lastRun.report.hash}); export refused` });
    return;
  }
  self.postMessage({ id, type: 'export', blob: new Blob([`${header}\n`, ...parts], { type: 'application/x-ndjson' }) });
}

const wasm = await init();
const catalogue = labCatalogue();
self.postMessage({ type: 'ready', catalogue });
requests.open();
