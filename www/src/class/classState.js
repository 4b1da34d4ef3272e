// The Class view's one state and the only way it changes: `reduce(state, message)` returns
// the state after one message, a new object (the old one is never changed), with no page,
// worker or clock in sight, so node tests it alone. The messages are the class worker's
// (classClient.js lists them) and the page's own, each named by `class` as the worker's are:
//   begin {role, relay, code}   this tab creates (lecturer) or joins (student) a session
//   leave                       the user left the class
//   start {algorithm, depth, fen, pure, network}   the lecturer asked for a search
//   problem {message, form}     the page found something wrong (message null: it is mended)
//   note {text}                 a passing word on the status line (text null: gone)
//   latency {probeMs} | {probeError} | {holdMs, frames}   the lecturer's round trip to the relay (a probe),
//                               or the relay's hold of a frame per hop (the last search's trace)
//   prediction {key, setup, depth, rows, done, error}   the classroom model's speedups
//                               (classPrediction.js), rows [{algorithm, speedup}] as they come
//   alone {search, state, ms, nodes, depth, why}   this tab searching the last search's
//                               position alone (state running, done or failed)
// What the page shows of a state is read from it by classText.js and the parts.

/** A fresh state: nobody in a class. */
export function initialState() {
  return {
    /** 'none' (not in a class), 'lecturer' (owns the session), 'student' */
    role: 'none',
    /** 'idle', 'connecting' (worker starting, socket opening), 'open', 'reconnecting' (the
     *  lecturer's socket failed; it resumes), 'closed' (the session is over) */
    phase: 'idle',
    /** the session's code (32 hex digits) once created or joined */
    code: null,
    /** the relay's WebSocket address */
    relay: null,
    /** this tab's member number in the session */
    member: null,
    /** lecturer: the live member numbers (0 = the lecturer) */
    members: [],
    /** student: joined while a search ran, takes part in the next */
    waiting: false,
    /** student: the lecturer's connection dropped: {withinMs, at} (the class waits withinMs
     *  from `at`, ms since the epoch), until the next search or the end */
    away: null,
    /** lecturer: its socket failed: {search} (the search the relay ended then, or null),
     *  from the drop until the next start */
    dropped: null,
    /** lecturer: the search asked for, until the relay's `search` (or an error) answers:
     *  {algorithm, depth, fen, pure, network} */
    asked: null,
    /** the running or last search: {search, processor, processors, members, network, fen, algorithm, depth, pure} */
    search: null,
    /** whether `search` is still running (or, after `start`, is about to) */
    searching: false,
    /** per processor of `search`: {nodes, busy, lost, line}; a student's holds its own only
     *  (line: the first plies of the line it is on, UCI moves from the root, or null) */
    processors: [],
    /** student: the other processors of the running search that were lost */
    lost: [],
    /** lecturer: the last `info` of the running search (its last finished iteration) */
    info: null,
    /** lecturer: the last search's `result` plus its fen, or null */
    result: null,
    /** why the session closed, for the status line */
    closedReason: null,
    /** the error to show (the worker's, the relay's, the form's): {message, form}, or null */
    error: null,
    /** a passing word for the status line in place of the usual text, or null */
    note: null,
    /** lecturer: what was measured of the relay: {probeMs, probeError, holdMs, frames} (null: not yet) */
    latency: { probeMs: null, probeError: null, holdMs: null, frames: 0 },
    /** lecturer: the classroom model's prediction shown (classPrediction.js), or null */
    prediction: null,
    /** lecturer: the prediction of the running or last search's own setup, the first one
     * complete (the one shown at its start, if it was), which its measured speedup stands beside */
    searchPrediction: null,
    /** lecturer: this tab's search alone of the last search's position and depth, or null */
    alone: null,
  };
}

/** The state after `message` (the same object when the message changes nothing). */
export function reduce(state, message) {
  const s = state;
  switch (message?.class) {
    case 'begin':
      return { ...initialState(), role: message.role, relay: message.relay, code: message.code ?? null, phase: 'connecting' };
    case 'leave':
      return initialState();
    case 'start': {
      const { algorithm, depth, fen, pure, papersSplit, network } = message;
      // Searching until the relay's `search` (or an error) says otherwise.
      return { ...s, asked: { algorithm, depth, fen, pure, papersSplit, network }, result: null, info: null, searching: true, error: null, dropped: null };
    }
    case 'problem':
      return { ...s, error: message.message ? { message: message.message, form: Boolean(message.form) } : null };
    case 'note':
      return { ...s, note: message.text ?? null };
    case 'created':
      return { ...s, phase: 'open', code: message.code, member: message.member ?? 0, members: [message.member ?? 0] };
    case 'joined':
      return { ...s, phase: 'open', member: message.member };
    case 'waiting':
      return { ...s, waiting: true };
    case 'away':
      return { ...s, away: { withinMs: Number(message.withinMs) || 0, at: Number(message.at) || 0 } };
    case 'back':
      return { ...s, away: null };
    case 'reconnecting':
      return { ...s, phase: 'reconnecting', dropped: { search: s.searching && s.search ? s.search.search : null } };
    case 'resumed':
      return s.phase === 'reconnecting' ? { ...s, phase: 'open' } : s;
    case 'members':
      return { ...s, members: Array.isArray(message.members) ? message.members : [] };
    case 'search':
      return searchBegan(s, message);
    case 'activity':
      return activity(s, message.processors);
    case 'info':
      return { ...s, info: message };
    case 'result':
      return { ...s, result: { ...message, fen: s.search?.fen ?? null }, searching: false, processors: idle(s.processors) };
    case 'ended':
      return { ...s, searching: false, waiting: false, asked: null, processors: idle(s.processors) };
    case 'lost':
      return lost(s, message);
    case 'closed':
      return closed(s, message.reason ?? null);
    case 'error':
      return failed(s, message.message);
    case 'latency':
      return { ...s, latency: measuredLatency(s.latency, message) };
    case 'prediction': {
      const prediction = { key: message.key, setup: message.setup, depth: message.depth, rows: message.rows ?? [], done: Boolean(message.done), error: message.error ?? null };
      // The search's own prediction is the first whole one of its setup; one with a failed
      // run gives way to the next.
      const settled = s.searchPrediction?.done && !s.searchPrediction.error;
      const ofSearch = prediction.done && !settled && predicts(prediction, s.search);
      return { ...s, prediction, searchPrediction: ofSearch ? prediction : s.searchPrediction };
    }
    case 'alone':
      return s.search?.search === message.search ? { ...s, alone: { search: message.search, state: message.state, ms: message.ms ?? null, nodes: message.nodes ?? null, depth: message.depth ?? null, why: message.why ?? null } } : s;
    case 'position':
      // The searched position, where the worker sends it apart from `search`.
      return s.search && typeof message.fen === 'string' ? { ...s, search: { ...s.search, fen: message.fen } } : s;
    default:
      return s;
  }
}

/** The latency after a measurement: the probe's round trip, or the relay's hold per hop. */
function measuredLatency(latency, message) {
  if (Number.isFinite(message.probeMs)) return { ...latency, probeMs: message.probeMs, probeError: null };
  if (typeof message.probeError === 'string') return { ...latency, probeMs: null, probeError: message.probeError };
  if (Number.isFinite(message.holdMs)) return { ...latency, holdMs: message.holdMs, frames: Number(message.frames) || 0 };
  return latency;
}

/**
 * A frame's one-way time from one processor to another over one hop, in ms, from what was
 * measured: up to the relay and down from it (each half the lecturer's probe round trip:
 * the students' links are taken as the lecturer's) and the relay's hold of a frame (0 until
 * a search's trace shows it). Null before the probe.
 */
export function oneWayMs(latency) {
  if (!Number.isFinite(latency?.probeMs)) return null;
  return latency.probeMs + (latency.holdMs ?? 0);
}

/**
 * The last search's measured speedup: this tab's time alone over the class's, at the same
 * position and depth, or null until both are in.
 */
export function measuredSpeedup(s) {
  const classMs = s.result?.ms;
  if (!s.alone || s.alone.state !== 'done' || !Number.isFinite(classMs) || classMs <= 0 || s.alone.search !== s.search?.search) return null;
  return { classMs, aloneMs: s.alone.ms, speedup: Math.max(1, s.alone.ms) / classMs, classNodes: s.result.nodes ?? null, aloneNodes: s.alone.nodes ?? null };
}

/** Whether `prediction` was made for the setup of `search` (its size, depth, position, Pure, way of splitting, network). */
export function predicts(prediction, search) {
  const setup = prediction?.setup;
  if (!setup || !search) return false;
  return setup.processors === search.processors && setup.depth === search.depth && setup.fen === search.fen && Boolean(setup.pure) === Boolean(search.pure) && Boolean(setup.papersSplit) === Boolean(search.papersSplit) && (setup.network || null) === (search.network || null);
}

function searchBegan(s, message) {
  const asked = s.role === 'lecturer' ? s.asked : null;
  const search = {
    search: message.search,
    processor: message.processor,
    processors: message.processors,
    members: Array.isArray(message.members) ? message.members : [],
    fen: message.fen ?? asked?.fen ?? null,
    algorithm: message.algorithm ?? asked?.algorithm ?? null,
    depth: message.depth ?? asked?.depth ?? null,
    pure: message.pure ?? asked?.pure ?? null,
    papersSplit: message.papersSplit ?? asked?.papersSplit ?? null,
    network: message.network ?? null,
  };
  const count = s.role === 'lecturer' ? message.processors : 1;
  return {
    ...s,
    search,
    asked: null,
    searching: true,
    waiting: false,
    away: null,
    info: null,
    lost: [],
    result: s.role === 'lecturer' ? null : s.result,
    alone: null,
    searchPrediction: predicts(s.prediction, search) ? s.prediction : null,
    processors: Array.from({ length: count }, () => ({ nodes: 0, busy: true, lost: false, line: null })),
  };
}

/** The worker's counters `[{nodes, busy, line}]`, one per processor this tab shows. */
function activity(s, reported) {
  if (!Array.isArray(reported)) return s;
  const processors = s.processors.map((mine, i) => {
    const p = reported[i];
    if (!p) return mine;
    return {
      ...mine,
      nodes: Number.isFinite(p.nodes) ? p.nodes : mine.nodes,
      busy: !mine.lost && s.searching ? Boolean(p.busy) : mine.busy,
      line: s.searching && typeof p.line === 'string' ? p.line : null,
    };
  });
  return { ...s, processors };
}

/** Processors at rest: the search is over. */
const idle = (processors) => processors.map((p) => (p.busy ? { ...p, busy: false } : p));

function lost(s, message) {
  // A notice of an earlier search names a processor that may be somebody else now.
  if (s.search?.search !== message.search) return s;
  const p = message.processor;
  if (s.processors[p]) return { ...s, processors: s.processors.map((mine, i) => (i === p ? { ...mine, lost: true } : mine)) };
  if (s.searching && Number.isInteger(p) && !s.lost.includes(p)) return { ...s, lost: [...s.lost, p] };
  return s;
}

/** The session is over for this tab (the relay closed it, or it could not be opened). */
function closed(s, reason) {
  // A lecturer is back at the start, where a new class can be created; the reason stays on screen.
  if (s.role === 'lecturer') return { ...initialState(), phase: 'closed', closedReason: reason, error: s.error };
  return { ...s, phase: 'closed', searching: false, away: null, closedReason: reason, note: null, processors: idle(s.processors) };
}

function failed(s, message) {
  const text = String(message || 'the class engine reported an error');
  const next = { ...s, error: { message: text.charAt(0).toUpperCase() + text.slice(1), form: false } };
  // Before the session is open an error ends the attempt (isolation, relay refused, bad
  // code); after it, the relay refused one request (a start during a search) and the
  // class goes on.
  if (s.phase === 'connecting') return closed(next, null);
  // The relay or the worker refused the start: no search runs.
  if (s.asked) return { ...next, asked: null, searching: false };
  return next;
}

/** What a processor of the search is doing, as its row and its place on the map say. */
export function processorState(state, p) {
  if (p.lost) return 'lost';
  if (state.searching) return p.busy ? 'busy' : 'waiting';
  // A processor nobody gave work to did not search: it is not "done" as one that did.
  return p.nodes > 0 ? 'done' : 'no-work';
}

/** The lecturer's table: one row per processor of the search. */
export function processorRows(state) {
  const members = state.search?.members ?? [];
  return state.processors.map((p, i) => ({
    processor: i,
    who: members[i] === 0 ? 'you (lecturer)' : `member ${members[i] ?? '?'}`,
    nodes: p.nodes,
    state: processorState(state, p),
    line: p.line,
  }));
}

/** The map's nodes: the search's processors, or the members before a search. */
export function mapNodes(state) {
  if (state.search) {
    const members = state.search.members;
    return state.processors.map((p, i) => ({
      label: String(i),
      sub: members[i] === 0 ? 'lecturer' : `member ${members[i] ?? '?'}`,
      state: p.lost ? 'lost' : state.searching ? (p.busy ? 'busy' : 'waiting') : 'idle',
      nodes: p.nodes,
    }));
  }
  return state.members.map((m) => ({ label: String(m), sub: m === 0 ? 'lecturer' : `member ${m}`, state: 'idle' }));
}

/** Whether the lecturer's form may start a search now. */
export const canStart = (state) => state.role === 'lecturer' && state.phase === 'open' && !state.searching;
