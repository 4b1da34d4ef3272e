// What the Class view says of its state (classState.js), in words: the status line, the
// search's progress, the student's heading and node count. Pure functions of the state,
// so node tests read them as the page shows them.
import { formatMs, formatNodes, readScore, uciScoreText } from './classFormat.js';
import { measuredSpeedup, oneWayMs } from './classState.js';
import { CLASS_ALGORITHMS, CLASS_NETWORKS } from './template.js';

/** The status line under the title. */
export function statusText(s, { isolated }) {
  if (s.note) return s.note;
  if (s.role === 'none') {
    if (!isolated) return s.error ? '' : 'This page is not cross-origin isolated, so it cannot lead a class (the lecturer\'s tab needs threads: open it on localhost or over HTTPS); it can join one by a student\'s link.';
    if (s.phase === 'closed' && !s.error) return `Your class was closed${s.closedReason ? ` (${s.closedReason})` : ''}. Create a new one to go on.`;
    return 'Create a class, then show your students the link or the QR code.';
  }
  if (s.phase === 'connecting') return s.role === 'lecturer' ? 'Starting the class engine and opening the session at the relay…' : 'Joining the class…';
  if (s.phase === 'reconnecting') return `The connection to the relay dropped: reconnecting…${endedByRelay(s)}`;
  if (s.phase === 'closed') return s.error ? 'Not in a class.' : `The class is over${s.closedReason ? ` (${s.closedReason})` : ''}.`;
  return s.role === 'student' ? studentStatus(s) : lecturerStatus(s);
}

function studentStatus(s) {
  const search = s.search;
  if (s.away) return `The lecturer's connection dropped: the class waits up to ${Math.round(s.away.withinMs / 1000)} s for it to come back (until ${clock(s.away.at + s.away.withinMs)}), and ends if it does not.`;
  if (s.waiting) return 'A search is running: you take part in the next one.';
  if (search && s.searching) {
    const lost = s.lost.length === 0 ? '' : ` ${plural(s.lost.length, 'Processor')} ${s.lost.join(', ')} left: ${s.lost.length === 1 ? 'its' : 'their'} work is searched again.`;
    return `Searching ${describeSearch(search)}.${lost}`;
  }
  if (search) {
    const none = s.processors[0]?.nodes === 0 ? ' and got no work (the others searched the whole tree)' : '';
    return `Search ${search.search} is over: you were processor ${search.processor} of ${search.processors}${none}.`;
  }
  return `You are in the class (member ${s.member}). Waiting for the lecturer to start a search…`;
}

function lecturerStatus(s) {
  const search = s.search;
  // Asked for, not yet begun: `search` is still the last one.
  if (s.asked) return 'Starting the search…';
  if (s.dropped) return `The class is back.${endedByRelay(s)}${s.searching ? '' : ` ${classSize(s)}`}`;
  if (s.searching && search) {
    const wired = search.network ? ` wired as ${networkName(search.network)}` : '';
    return `Search ${search.search}: ${describeSearch(search)} on ${liveProcessors(s)}${wired}…`;
  }
  return classSize(s);
}

/** "3 students joined: the next search runs on 4 processors." */
function classSize(s) {
  const students = s.members.filter((m) => m !== 0).length;
  return `${students === 0 ? 'Nobody has joined yet' : `${students} ${plural(students, 'student')} joined`}: the next search runs on ${students + 1} ${plural(students + 1, 'processor')}.`;
}

/** What became of the search running when the lecturer's socket dropped: the relay ended
 * it for the students, and processor 0 finishes it alone (or has). */
function endedByRelay(s) {
  const ended = s.dropped?.search;
  if (ended === null || ended === undefined) return '';
  return s.searching && s.search?.search === ended
    ? ` The relay ended search ${ended} for the students when the connection dropped: your processor finishes it alone…`
    : ` The relay ended search ${ended} for the students when the connection dropped: your processor finished it alone.`;
}

/** A time of day, "10:31:05". */
const clock = (ms) => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });

/** "4 processors", or "3 of 4 processors (processor 2 lost)" once the roster lost some. */
function liveProcessors(s) {
  const count = s.search.processors;
  const lost = s.processors.flatMap((p, i) => (p.lost ? [i] : []));
  if (lost.length === 0) return `${count} ${plural(count, 'processor')}`;
  return `${count - lost.length} of ${count} processors (${plural(lost.length, 'processor')} ${lost.join(', ')} lost)`;
}

/**
 * The line under the status during a search: the last finished iteration, labelled as
 * such ("finished depth 5 of 7 · cp 0 · 81 k nodes"), or that none has finished yet.
 */
export function progressText(s) {
  if (!s.searching || !s.search || s.asked) return '';
  const of = s.search.depth ? ` of ${s.search.depth}` : '';
  const info = s.info;
  if (!info) return `no depth${of} finished yet`;
  const score = readScore(info.score);
  const pv = Array.isArray(info.pv) ? info.pv.join(' ') : info.pv;
  return [`finished depth ${info.depth}${of}`, score ? uciScoreText(score) : null, `${formatNodes(info.nodes)} nodes`, pv ? `pv ${pv}` : null].filter(Boolean).join(' · ');
}

/** The student's big heading. */
export function studentHeading(s) {
  const search = s.search;
  if (s.phase === 'closed') return s.error ? 'Could not join the class' : 'The lecturer left';
  if (s.away) return 'The lecturer\'s connection dropped';
  if (s.waiting) return 'Waiting for the next search';
  if (search && s.searching) return `Processor ${search.processor} of ${search.processors}`;
  if (search) return 'Waiting for the next search';
  if (s.phase === 'open') return 'Waiting for the lecturer';
  return 'Joining the class…';
}

/** The student's own part in the search: its nodes, or that it got no work. */
export function ownNodesText(s) {
  const own = s.processors[0];
  const search = s.search;
  if (!own || !search) return '';
  if (s.searching) return `${formatNodes(own.nodes)} nodes searched in search ${search.search} · ${own.busy ? 'busy' : 'waiting for work'}`;
  if (own.nodes === 0) return `No work came to you in search ${search.search}.`;
  return `${formatNodes(own.nodes)} nodes searched in search ${search.search}`;
}

/** "ybwc, depth 4, Pure" for the status line (only the parts known). */
export function describeSearch(search) {
  return [search.algorithm, search.depth ? `depth ${search.depth}` : null, search.pure ? 'Pure' : null].filter(Boolean).join(', ') || 'the position';
}

/** A network's name as the form lists it. */
export function networkName(network) {
  return CLASS_NETWORKS.find(([n]) => n === network)?.[1] ?? network;
}

/** `word` with an s when `count` is not one. */
const plural = (count, word) => (count === 1 ? word : `${word}s`);

/** A time in ms with two decimals below 10 ms, whole above. */
const ms = (t) => (t < 10 ? t.toFixed(2) : t.toFixed(0));

/** A speedup as the prediction panel writes it, "1.63×". */
export const speedupText = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');

/**
 * What the prediction panel says it shows: the model, the class's size, the depth simulated
 * and the one-way time, with how each part of it was measured.
 */
export function predictionAbout(s) {
  const latency = s.latency;
  if (latency.probeError) return `The relay's round trip could not be measured (${latency.probeError}), so there is no prediction.`;
  const oneWay = oneWayMs(latency);
  if (oneWay === null) return 'Measuring the round trip to the relay…';
  const how = `${ms(oneWay)} ms one-way, measured: this tab's round trip to the relay, ${ms(latency.probeMs)} ms (the least of three probes), for a frame's way up to the relay and down to the receiver, plus ${
    Number.isFinite(latency.holdMs) ? `the relay's hold of a frame, ${ms(latency.holdMs)} ms a hop (the median of the last search's ${latency.frames} frames in its trace)` : "the relay's hold of a frame, 0 until a search's trace shows it"
  }`;
  const p = s.prediction;
  if (!p) return `Predicting with the classroom model at ${how}…`;
  const size = `${p.setup.processors} ${plural(p.setup.processors, 'processor')}`;
  const depth = p.depth === p.setup.depth ? `depth ${p.depth}` : `depth ${p.depth} (the simulator's deepest in the page; the form asks ${p.setup.depth})`;
  const state = p.done ? (s.searching ? '' : ' The menu starts on the fastest until you choose.') : ` Simulating: ${p.rows.length} of ${CLASS_ALGORITHM_COUNT} algorithms done…`;
  const split = p.setup.papersSplit ? 'splitting as the papers do' : 'jobs of four round trips or more';
  return `The classroom model (the Lab's simulator, in a worker; a native processor's node rate) for ${size}, ${depth}, ${split}, ${how}.${state}`;
}

/** The algorithms the panel predicts (the menu's). */
const CLASS_ALGORITHM_COUNT = CLASS_ALGORITHMS.length;

/** The model's row for the last search's algorithm on its setup ({algorithm, speedup}), or null. */
export function searchPredicted(s) {
  const row = s.searchPrediction?.rows.find((r) => r.algorithm === s.search?.algorithm);
  return row && Number.isFinite(row.speedup) ? row : null;
}

/** The last search's measured speedup beside its prediction, or what the measurement is doing. */
export function measuredText(s) {
  const alone = s.alone;
  const search = s.search;
  if (!alone || !search || alone.search !== search.search) return '';
  if (alone.state === 'running') return `Search ${search.search} is over. Measuring one tab: this tab searches the same position to depth ${search.depth} alone (serial, one thread, from an empty table)…`;
  if (alone.state === 'failed') return `Search ${search.search}'s speedup was not measured: ${alone.why}.`;
  const measured = measuredSpeedup(s);
  if (!measured) return '';
  const row = searchPredicted(s);
  const predicted = row ? `; the model predicted ${speedupText(row.speedup)} at ${ms(s.searchPrediction.setup.oneWayMs)} ms one-way` : '';
  const nodes = (n) => (Number.isFinite(n) ? ` (${formatNodes(n)} nodes)` : '');
  return `Search ${search.search} (${describeSearch(search)}, ${search.processors} ${plural(search.processors, 'processor')}): the class took ${formatMs(measured.classMs)}${nodes(measured.classNodes)}; this tab alone, serial on one thread from an empty table, took ${formatMs(measured.aloneMs)}${nodes(measured.aloneNodes)} to the same depth. Measured speedup ${speedupText(measured.speedup)}${predicted}.`;
}
