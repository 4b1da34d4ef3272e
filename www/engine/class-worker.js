// The class worker: this tab's end of a class session (docs/class.md), where the tabs of
// an online lecture are the processors of one search. It holds the tab's membership at the
// relay (class-connection.js: the WebSocket, its beats, the lecturer's resume; the protocol:
// crate/relay/mod.rs) and the wasm engine, which runs the processor
// (crate/wasm/class.rs): a student's tab the helper program of every search, the
// lecturer's tab processor 0. A cross-origin isolated tab runs the threaded build, whose
// pool thread runs the processor; any other tab runs the single build, whose processor
// runs on this worker's thread in slices and awaits `pause` between them. Only a student
// can: the lecturer's processor 0 needs the threaded build.
//
// Page → worker: {class:'create', url, token} | {class:'join', url, code} |
//   {class:'start', algorithm, depth, fen, pure, network} (the lecturer; ybwc, jamboree or
//   pvsplit; network: a crate/net name the relay routes by, or absent) |
//   {class:'leave'}.
// Worker → page: {class:'created', code, member} | {class:'joined', member} |
//   {class:'waiting'} | {class:'members', members} | {class:'away', withinMs, at} (a
//   student: the lecturer's connection dropped at `at`, ms since the epoch; the class waits
//   withinMs for it) | {class:'reconnecting'} | {class:'resumed'} (the lecturer's socket
//   failed; the relay took it back) | {class:'search', search, processor,
//   processors, members, network, drawing} (drawing: the lecturer's, labNetwork's, or null) | {class:'position', fen} (a student's search) |
//   {class:'activity', processors:[{nodes, busy}]} |
//   {class:'info', depth, score, nodes, pv, line} | {class:'result', bestmove, score, depth,
//   nodes, ms} | {class:'ended', search} | {class:'lost', search, processor} |
//   {class:'closed', reason} | {class:'trace', events, dropped} | {class:'error', message}.
//
// Usage: new Worker(new URL('engine/class-worker.js', document.baseURI), { type: 'module' })

import { RelayConnection } from './class-connection.js';

/** How often the processors' activity is posted during a search. */
const ACTIVITY_MS = 250;
/** Fallback poll period of the outgoing queue where Atomics.waitAsync is missing. */
const POLL_MS = 5;
/** Single build: how long a waiting processor's pause lasts when no frame comes (it ends
 * at once when one does). */
const WAITING_PAUSE_MS = 50;

/** @type {any} the wasm module, once loaded */
let wasm = null;
/** @type {RelayConnection|null} this tab's membership of the class */
let connection = null;
/** Whether a search of this tab's runs at the relay, as far as the tab heard: frames, `end`
 * and `expel` go out only then (a search the relay ended when the lecturer's socket dropped
 * is over there, whatever processor 0 still sends). */
let running = false;
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
  switch (data?.class) {
    case 'create':
      if (build === 'single') {
        return fail('this page is not cross-origin isolated (it needs Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), so it cannot lead a class: open it on localhost or over HTTPS to be the lecturer; students may join from any tab');
      }
      role = 'lecturer';
      return connect(data.url, { type: 'create', token: String(data.token ?? '') });
    case 'join':
      role = 'student';
      return connect(data.url, { type: 'join', code: String(data.code ?? '') });
    case 'start':
      if (role !== 'lecturer' || !connection?.connected) return fail('only the lecturer starts a search, once the class is created');
      pendingStart = data;
      return connection.send(data.network ? { type: 'start', network: String(data.network) } : { type: 'start' });
    case 'leave':
      connection?.leave();
      return undefined;
    default:
      return fail(`unknown request ${JSON.stringify(data)}`);
  }
};

/** Opens the membership (class-connection.js), which says `hello` (create or join). */
function connect(url, hello) {
  if (connection) return fail('this tab is already in a class');
  connection = new RelayConnection({
    url,
    hello,
    onControl: (message) => {
      control(message);
      wakeProcessor();
    },
    onFrame: (bytes) => {
      wasm.classDeliver(new Uint8Array(bytes));
      wakeProcessor();
    },
    onError: fail,
    onDropped: () => {
      // The relay ends the running search; processor 0 finishes it alone.
      running = false;
      wasm.classDisconnected(false);
      wakeProcessor();
      post({ class: 'reconnecting' });
    },
    onResumed: () => post({ class: 'resumed' }),
    onClosed: (reason) => {
      running = false;
      wasm.classDisconnected(true);
      wakeProcessor();
      stopActivity();
      post({ class: 'closed', reason });
    },
  });
  return undefined;
}

/** One control message of the relay. */
function control(message) {
  switch (message.type) {
    case 'created':
      return post({ class: 'created', code: message.code, member: message.member });
    case 'joined':
      if (!served) {
        served = true;
        if (build === 'threads') wasm.classServe();
        else wasm.classServe(pause);
      }
      return post({ class: 'joined', member: message.member });
    case 'search':
      running = true;
      wasm.classRoster(message.search, message.processor, message.processors);
      post({ class: 'search', search: message.search, processor: message.processor, processors: message.processors, members: message.members, network: message.network ?? null, drawing: drawing(message) });
      startActivity();
      if (role === 'lecturer' && pendingStart) lead(pendingStart);
      return undefined;
    case 'lost':
      wasm.classLost(message.search, message.processor);
      return post({ class: 'lost', search: message.search, processor: message.processor });
    case 'ended':
      running = false;
      stopActivity();
      return post({ class: 'ended', search: message.search });
    case 'members':
      return post({ class: 'members', members: message.members });
    case 'waiting':
      return post({ class: 'waiting' });
    case 'away':
      return post({ class: 'away', withinMs: message.within_ms, at: Date.now() });
    case 'trace':
      return post({ class: 'trace', events: message.events, dropped: message.dropped });
    case 'error':
      return fail(message.message);
    default:
      return undefined;
  }
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
function lead({ algorithm, depth, fen, pure }) {
  pendingStart = null;
  try {
    wasm.classLead(String(algorithm), Number(depth), String(fen), Boolean(pure));
  } catch (error) {
    fail(String(error?.message ?? error));
    connection.send({ type: 'end' });
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

/** Sends what the processor queued and posts what the page should show. */
function flush() {
  for (const item of wasm.classTake()) {
    if (item.class === 'frame') {
      if (running) connection?.send(item.bytes);
    } else if (item.class === 'end') {
      if (running) connection?.send({ type: 'end' });
    } else if (item.class === 'expel') {
      if (running) connection?.send({ type: 'expel', processor: item.processor, reason: item.reason });
    } else if (item.class === 'leave') {
      fail(item.message);
      connection?.leave('cannot take part');
    } else {
      post(item);
    }
  }
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
