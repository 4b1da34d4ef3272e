// The class worker: this tab's end of a class session (docs/class.md), where the tabs of
// an online lecture are the processors of one search. The wasm engine holds the tab's
// membership at the relay (crate/wasm/class/membership.rs: the relay client a native
// member holds too, over this worker's WebSocket and timer: the beats, the lecturer's
// resume, which losses count) and runs the processor (crate/wasm/class.rs): a student's
// tab the helper program of every search, the lecturer's tab processor 0. A cross-origin
// isolated tab runs the threaded build, whose pool thread runs the processor; any other
// tab runs the single build, whose processor runs on this worker's thread in slices and
// awaits `pause` between them. Only a student can: the lecturer's processor 0 needs the
// threaded build.
//
// What stays here, and why: loading the module and its thread pool (wasm-bindgen's glue is
// JavaScript); the page's requests and the page's messages (postMessage); the lecturer's
// pending start, held until the relay's roster comes and then led, and the map's drawing
// of the roster's network (both page concerns the relay client does not know); the
// activity posted while a search runs; and the two ways the processor's queue is flushed:
// the threaded build's wait on its signal (Atomics.waitAsync, on this thread's event loop)
// and the single build's pauses, which need the event loop's turns.
//
// Page → worker: {class:'create', url, token} | {class:'join', url, code} |
//   {class:'start', algorithm, depth, fen, pure, papersSplit, network} (the lecturer; ybwc, jamboree or
//   pvsplit; network: a crate/net name the relay routes by, or absent) |
//   {class:'leave'}.
// Worker → page: {class:'created', code, member} | {class:'joined', member} |
//   {class:'waiting'} | {class:'members', members} | {class:'away', withinMs, at} (a
//   student: the lecturer's connection dropped at `at`, ms since the epoch; the class waits
//   withinMs for it) | {class:'back'} (a student: the lecturer resumed) | {class:'reconnecting'} | {class:'resumed'} (the lecturer's socket
//   failed; the relay took it back) | {class:'search', search, processor,
//   processors, members, network, drawing} (drawing: the lecturer's, labNetwork's, or null) | {class:'position', fen} (a student's search) |
//   {class:'activity', processors:[{nodes, busy}]} |
//   {class:'info', depth, score, nodes, pv, line} | {class:'result', bestmove, score, depth,
//   nodes, ms} | {class:'ended', search} | {class:'lost', search, processor} |
//   {class:'closed', reason} | {class:'trace', events, dropped} | {class:'error', message}.
//
// Usage: new Worker(new URL('engine/class-worker.js', document.baseURI), { type: 'module' })

/** How often the processors' activity is posted during a search. */
const ACTIVITY_MS = 250;
/** Fallback poll period of the outgoing queue where Atomics.waitAsync is missing. */
const POLL_MS = 5;
/** Single build: how long a waiting processor's pause lasts when no frame comes (it ends
 * at once when one does). */
const WAITING_PAUSE_MS = 50;

/** @type {any} the wasm module, once loaded */
let wasm = null;
/** 'lecturer' or 'student', once the page said which. */
let role = null;
/** The lecturer's search request, waiting for the relay's roster. */
let pendingStart = null;
let activityTimer = null;
let served = false;

const post = (message) => self.postMessage(message);
const fail = (message) => post({ class: 'error', message });

/** Whether this browser can run the threaded build: isolation gives SharedArrayBuffer. */
function isolated() {
  return self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

/** Which build runs: 'threads' (isolated) or 'single'. */
const build = isolated() ? 'threads' : 'single';

const ready = (async () => {
  const module = await import(`../pkg/${build}/meshmate.js`);
  await module.default();
  wasm = module;
  if (build === 'threads') {
    // One processor a tab, on every core: its helper loop holds one pool thread, and a
    // student's job is searched on each further core too (crate/parallel/cores.rs); the
    // lecturer's search holds one more.
    await module.initThreadPool(Math.max(2, Math.min(navigator.hardwareConcurrency || 1, 16) + 1));
    watchOutgoing();
  }
})();

self.onmessage = async ({ data }) => {
  try {
    await ready;
  } catch (error) {
    return fail(error.message);
  }
  try {
    request(data);
  } catch (error) {
    fail(String(error?.message ?? error));
  }
};

/** One request of the page. */
function request(data) {
  switch (data?.class) {
    case 'create':
      if (build === 'single') {
        return fail('this page is not cross-origin isolated (it needs Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), so it cannot lead a class: open it on localhost or over HTTPS to be the lecturer; students may join from any tab');
      }
      wasm.classCreate(String(data.url), String(data.token ?? ''), hear, wakeProcessor);
      role = 'lecturer';
      return undefined;
    case 'join':
      wasm.classJoin(String(data.url), String(data.code ?? ''), hear, wakeProcessor);
      role = 'student';
      return undefined;
    case 'start':
      if (role !== 'lecturer') return fail('only the lecturer starts a search, once the class is created');
      pendingStart = data;
      try {
        return wasm.classStart(data.network ? String(data.network) : undefined);
      } catch (error) {
        pendingStart = null;
        throw error;
      }
    case 'leave':
      return wasm.classLeave();
    default:
      return fail(`unknown request ${JSON.stringify(data)}`);
  }
}

/** One message of the membership for the page, and what the worker does on it. */
function hear(message) {
  switch (message.class) {
    case 'joined':
      if (!served) {
        served = true;
        if (build === 'threads') wasm.classServe();
        else wasm.classServe(pause);
      }
      break;
    case 'search':
      post({ ...message, drawing: drawing(message) });
      startActivity();
      if (role === 'lecturer' && pendingStart) lead(pendingStart);
      return;
    case 'ended':
    case 'closed':
      stopActivity();
      break;
    default:
      break;
  }
  post(message);
}

/** Where the lecturer's map draws a search on a network: the same crate/net the relay
 * routes by, so each frame's route is the one the relay counted hops on. */
function drawing({ network, processors }) {
  if (role !== 'lecturer' || !network) return null;
  try {
    return wasm.labNetwork(String(network), processors);
  } catch {
    return null;
  }
}

/** The lecturer's search, on the roster the relay just froze. */
function lead({ algorithm, depth, fen, pure, papersSplit }) {
  pendingStart = null;
  try {
    wasm.classLead(String(algorithm), Number(depth), String(fen), Boolean(pure), Boolean(papersSplit));
  } catch (error) {
    // The search the relay started for it ends at the next flush.
    fail(String(error?.message ?? error));
  }
}

function startActivity() {
  if (activityTimer !== null) return;
  activityTimer = setInterval(() => post({ class: 'activity', processors: wasm.classActivity() }), ACTIVITY_MS);
}

function stopActivity() {
  if (activityTimer === null) return;
  clearInterval(activityTimer);
  activityTimer = null;
  post({ class: 'activity', processors: wasm.classActivity() });
}

/** Sends what the processor queued to the relay, and posts what the page should show. */
function flush() {
  for (const item of wasm.classFlush()) post(item);
}

/** Threaded build: flushes whenever a pool thread bumps the signal. */
async function watchOutgoing() {
  const signal = wasm.classSignal();
  for (;;) {
    const seen = Atomics.load(signal, 0);
    flush();
    const wait = typeof Atomics.waitAsync === 'function' ? Atomics.waitAsync(signal, 0, seen) : null;
    if (wait === null) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    else if (wait.async) await wait.value;
  }
}

// Single build: the processor's pauses between slices.

/** Ends the pause of a processor that waits for a frame, if one is pausing. */
let wakeWaiting = null;
/** A task queued behind whatever the event loop holds (the socket's messages first). */
const turn = new MessageChannel();
const turnEnds = [];
turn.port1.onmessage = () => turnEnds.shift()?.();

/** The pause the single build's processor awaits between slices: what it queued is sent,
 * then it goes on at the event loop's next turn, or, when it is `waiting` for a frame,
 * once one arrives (or after WAITING_PAUSE_MS). */
function pause(waiting) {
  flush();
  return new Promise((resolve) => {
    if (!waiting) {
      turnEnds.push(resolve);
      turn.port2.postMessage(0);
      return;
    }
    const timer = setTimeout(() => {
      wakeWaiting = null;
      resolve();
    }, WAITING_PAUSE_MS);
    wakeWaiting = () => {
      clearTimeout(timer);
      wakeWaiting = null;
      resolve();
    };
  });
}

function wakeProcessor() {
  wakeWaiting?.();
}
