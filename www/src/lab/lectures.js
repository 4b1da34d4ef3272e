// The Lab's lectures: guided runs that stop at the moments that matter (the first work
// request, the first split, the first cutoff in a helper's subtree, the first table answer
// over the network, the end with its speedup). A stop is found in the run's own trace, and
// its text is written from that run's counters at that moment (`facts`), never from a
// canned figure: change the algorithm and the sentences change their numbers with it.
import { EV } from './eventColumns.js';

/**
 * What a stop waits for, as a test on stored event `i` of a replay's columns:
 * `send` of a message kind, `split` (moves given away), `helperNode`, `helperCut` and
 * `helperTable` (a processor other than P0 enters a node, or leaves one with a cutoff or
 * with the table's answer), `end` (the last event).
 */
const FINDERS = {
  send: (events, i, kind) => events.code[i] === EV.send && events.c[i] === kind,
  split: (events, i) => events.code[i] === EV.split,
  helperNode: (events, i) => events.code[i] === EV.node && events.a[i] !== 0,
  helperCut: (events, i) => events.code[i] === EV.leave && events.a[i] !== 0 && ((events.e[i] >>> 3) & 5) === 1,
  helperTable: (events, i) => events.code[i] === EV.leave && events.a[i] !== 0 && ((events.e[i] >>> 3) & 6) === 2,
};

/** The end of a run, in the same words for every lecture. */
const END = {
  on: 'end',
  title: 'The end: what the processors bought',
  text: (f) =>
    `The search ends at ${f.tp} ms. One processor needed ${f.t1} ms for ${n(f.n1, 'node')}; ${f.processors} needed ${f.tp} ms for ${n(f.np, 'node')}. ` +
    `Speedup ${f.spe}, search overhead ${f.so}, load ${f.ld}, with ${n(f.messages, 'message')} sent. ` +
    'The scaling curve on the right runs the same search on fewer processors: where the curve bends away from the ideal line is where the idle time and the extra nodes go.',
};

/** `count` and `noun`, plural unless it is one. */
const n = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Counters at a stop, as a sentence's tail (all of them the run's own). */
const sofar = (f) => `So far ${n(f.nodes, 'node')} searched, ${n(f.messages, 'message')} sent, ${f.busy} of ${f.processors} processors busy.`;

/** The latency lecture's run: YBWC on eight processors behind the relay with ten
 * milliseconds injected, the period's full-width search (bigger trees, so deeper searches
 * take long enough to matter). Its chart repeats the search on the three classroom presets
 * at shallower depths and this one, for three algorithms. */
const LATENCY_RUN = { algorithm: 'ybwc', net: 'bus', processors: 8, preset: 'classroom-10ms', tt: 'local', search: 'period', position: 'BK.02', depth: 6, seed: 1 };

/**
 * Each lecture: its id (for the address), title, the experiment it runs (the form's fields)
 * and its stops, each `{ on, kind?, title, text(facts) }`; it ends on its algorithm's
 * scaling curve, or with `curve` on the chart that names (the break-even chart).
 */
export const LECTURES = [
  {
    id: 'ybwc',
    title: 'YBWC and the eldest brother',
    settings: { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', tt: 'global', search: 'period', position: 'BK.06', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'work-request',
        title: 'Idle processors ask for work',
        text: (f) =>
          `At ${f.t} ms P${f.p} sends the first work request, to a processor chosen at random; ${f['work-request']} idle processors ask at this instant. ` +
          `Only the processor that started the search has work: it searches the eldest brother at the root alone, because YBWC gives no younger brother away before the eldest is done. ${sofar(f)}`,
      },
      {
        on: 'split',
        title: 'The eldest brother is done: the first split',
        text: (f) =>
          `At ${f.t} ms P${f.p} has the eldest brother's value at «${f.path}», a ${f.type} node, and gives a younger brother to P${f.to}. ` +
          `Until now ${n(f['work-request'], 'work request')} went out and ${f['no-work']} came back empty. ${sofar(f)}`,
      },
      {
        on: 'helperCut',
        title: "A cutoff in a helper's subtree",
        text: (f) =>
          `At ${f.t} ms P${f.p}, a helper, finds a cutoff at «${f.path}»: one move is good enough that its brothers need no search. ` +
          `The bound it came with was known only because the eldest brother went first. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'ybwc-all',
    title: 'YBWC-ALL: not waiting where waiting buys nothing',
    settings: { algorithm: 'ybwc-all', net: 'debruijn', processors: 16, preset: 't800', tt: 'global', search: 'period', position: 'BK.06', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'work-request',
        title: 'Idle processors ask for work, as in YBWC',
        text: (f) =>
          `At ${f.t} ms P${f.p} sends the first work request; ${f['work-request']} idle processors ask at this instant. ` +
          `This is YBWC's program with one rule of DTS's: YBWC leaves these processors idle until an eldest brother is back; the hybrid lets an expected ALL node, ` +
          `where every move must be searched anyway, give its younger brothers away as soon as the eldest is under way. ${sofar(f)}`,
      },
      {
        on: 'split',
        title: 'The first split',
        text: (f) =>
          `At ${f.t} ms P${f.p} gives a younger brother at «${f.path}», ${f.type === 'ALL' ? 'an ALL node: by the hybrid\'s rule it need not wait for the eldest brother\'s value' : `a ${f.type} node: here the hybrid waits for the eldest brother's value, as YBWC does`}, to P${f.to}. ` +
          `Until now ${n(f['work-request'], 'work request')} went out and ${f['no-work']} came back empty; open the YBWC lecture on the same position to see how long its processors waited. ${sofar(f)}`,
      },
      {
        on: 'helperCut',
        title: 'The price: a cutoff where none was expected',
        text: (f) =>
          `At ${f.t} ms P${f.p}, a helper, finds a cutoff at «${f.path}». Wherever a node expected to be ALL cuts instead, the brothers given away before its eldest was back ` +
          `searched for nothing, with ${n(f.cutoff, 'cutoff message')} sent so far to stop them: the search overhead the hybrid pays for its busier processors. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'jamboree',
    title: 'Jamboree and the work requests',
    settings: { algorithm: 'jamboree', net: 'fattree', processors: 16, preset: 'cm5', tt: 'global', search: 'period', position: 'BK.06', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'work-request',
        title: 'Thieves on the fat tree',
        text: (f) => `At ${f.t} ms P${f.p} is idle and sends the first work request across the fat tree, to a random victim: Jamboree's scheduler steals, nobody hands work out. ${sofar(f)}`,
      },
      {
        on: 'send',
        kind: 'work',
        title: 'A steal succeeds',
        text: (f) =>
          `At ${f.t} ms P${f.p} answers a request with work: the first child was valued, so the others may be tested in parallel with a null window. ` +
          `${n(f['work-request'], 'request')} went out before this first success, ${f['no-work']} came back empty. ${sofar(f)}`,
      },
      {
        on: 'helperCut',
        title: 'A test fails high',
        text: (f) => `At ${f.t} ms P${f.p}, a thief, finds a cutoff at «${f.path}». A cutoff aborts the tests still running below the same parent. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'dts',
    title: 'DTS on a shared bus',
    settings: { algorithm: 'dts', net: 'bus', processors: 16, preset: 'c916', tt: 'global', search: 'period', position: 'BK.06', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'work-request',
        title: 'Reading the split points',
        text: (f) =>
          `At ${f.t} ms P${f.p} has no work of its own. In shared memory it needs no HELP broadcast: the busy processors keep their best split point posted (Cray Blitz's tree state, kept current), ` +
          `so it reads them and asks the best for work. ${sofar(f)}`,
      },
      {
        on: 'split',
        title: 'The idle processor chooses the split',
        text: (f) =>
          `At ${f.t} ms P${f.p}'s node «${f.path}», a ${f.type} node, becomes a split point and P${f.to} joins it: the helper chose the node from the posted split points ` +
          `(DTS prefers ALL nodes near the root, never CUT nodes). ${n(f['work-request'], 'work request')} so far. ${sofar(f)}`,
      },
      {
        on: 'helperCut',
        title: 'A cutoff below a split point',
        text: (f) => `At ${f.t} ms P${f.p} finds a cutoff at «${f.path}»; any processor at a split point may finish it, so nobody waits for a master. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'zugzwang-table',
    title: "Zugzwang's DeBruijn mesh and its table",
    settings: { algorithm: 'ybwc', net: 'debruijn', processors: 16, preset: 't800', tt: 'distributed', search: 'period', position: 'BK.06', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'tt-request',
        title: 'The table is spread over the machine',
        text: (f) =>
          `At ${f.t} ms P${f.p} needs a table entry that another processor keeps: each of the ${f.processors} holds its share, ` +
          `so it sends a TT-REQUEST along the DeBruijn links and goes on searching while it waits. ${sofar(f)}`,
      },
      {
        on: 'send',
        kind: 'tt-answer',
        title: 'The first table answer over the network',
        text: (f) => `At ${f.t} ms P${f.p} sends the first TT-ANSWER back over the network; ${n(f['tt-request'], 'request')} and ${n(f['tt-put'], 'store')} have gone out so far. ${sofar(f)}`,
      },
      {
        on: 'split',
        title: 'The first split',
        text: (f) => `At ${f.t} ms P${f.p} gives a younger brother at «${f.path}» to P${f.to}; the table traffic goes on beside the work: ${n(f['tt-answer'], 'answer')} so far. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'tdsab',
    title: "TDSAB's home processors",
    settings: { algorithm: 'tdsab', net: 'full', processors: 16, preset: 'p3-ethernet', tt: 'tds', search: 'period', position: 'BK.22', depth: 5, seed: 1 },
    stops: [
      {
        on: 'send',
        kind: 'tt-request',
        title: 'A node goes home',
        text: (f) => `At ${f.t} ms P${f.p} sends a node to its home processor, the one its hash names: in TDSAB a position is always searched where its table entry lives. ${sofar(f)}`,
      },
      {
        on: 'send',
        kind: 'cutoff',
        title: 'A cutoff goes out',
        text: (f) => `At ${f.t} ms P${f.p} sends the first CUTOFF: the signature of a refuted node, so that the processors holding its descendants drop them. ${n(f['tt-request'], 'node')} sent home so far. ${sofar(f)}`,
      },
      {
        on: 'send',
        kind: 'tt-answer',
        title: 'A home processor answers',
        text: (f) => `At ${f.t} ms P${f.p} sends the first answer back from a home processor: the value of a node it searched for another. ${n(f['tt-request'], 'node')} sent home, ${f['tt-answer']} answered so far. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'abdada',
    title: 'One machine, many cores: ABDADA',
    settings: { algorithm: 'abdada', net: 'bus', processors: 8, preset: 'multicore', tt: 'global', search: 'modern', position: 'BK.22', depth: 8, seed: 1 },
    stops: [
      {
        on: 'helperNode',
        title: 'Every core starts at the root',
        text: (f) => `At ${f.t} ms P${f.p} enters «${f.path}»: every core searches the whole tree, and the shared table tells it which moves another core is already on. No message is sent. ${sofar(f)}`,
      },
      {
        on: 'helperCut',
        title: 'A cutoff one core found orders the others',
        text: (f) => `At ${f.t} ms P${f.p} finds a cutoff at «${f.path}»; the table and the shared history pass it on to all cores. ${sofar(f)}`,
      },
      {
        on: 'helperTable',
        title: 'The table answers',
        text: (f) => `At ${f.t} ms P${f.p} leaves «${f.path}» with the table's answer: an entry stored earlier, by this core or another, saved it a search. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'lazysmp',
    title: 'One machine, many cores: Lazy SMP',
    settings: { algorithm: 'lazysmp', net: 'bus', processors: 8, preset: 'multicore', tt: 'global', search: 'modern', position: 'BK.12', depth: 8, seed: 1 },
    stops: [
      {
        on: 'helperNode',
        title: 'Everybody searches everything',
        text: (f) => `At ${f.t} ms P${f.p} enters «${f.path}»: each core runs its own iterative deepening; only the table is shared. ${sofar(f)}`,
      },
      {
        on: 'helperTable',
        title: 'The table answers',
        text: (f) => `At ${f.t} ms P${f.p} leaves «${f.path}» with the table's answer. This sharing is all of Lazy SMP's cooperation. ${sofar(f)}`,
      },
      END,
    ],
  },
  {
    id: 'latency',
    title: 'Latency: when the class beats one laptop',
    settings: LATENCY_RUN,
    curve: { kind: 'break-even', algorithms: ['ybwc', 'jamboree', 'aphid'], presets: ['classroom', 'classroom-10ms', 'classroom-50ms'], depths: [LATENCY_RUN.depth - 2, LATENCY_RUN.depth - 1, LATENCY_RUN.depth] },
    stops: [
      {
        on: 'send',
        kind: 'work-request',
        title: 'A request crosses the relay',
        text: (f) =>
          `At ${f.t} ms P${f.p}, a student's laptop, asks for work. Every frame of a class passes the relay, and on this preset the relay holds each for ten milliseconds: ` +
          `the answer is a round trip away, and a laptop searches tens of thousands of nodes in that time. On a Transputer the same request cost less than one node. ${sofar(f)}`,
      },
      {
        on: 'send',
        kind: 'no-work',
        title: 'Work kept at home',
        text: (f) =>
          `At ${f.t} ms P${f.p} answers a request with no work. On a class a job crosses the relay only if it is expected to take four round trips of the asker's search or more ` +
          `(the owner waits a round trip for its value, and the helper another to ask again), measured from the search's own iterations; no subtree of this search is that large yet, so the owner keeps searching it alone. ` +
          `${n(f['work-request'], 'request')} have gone out and ${f['no-work']} come back empty. ${sofar(f)}`,
      },
      {
        on: 'end',
        title: 'The end: the class against one laptop',
        text: (f) =>
          `The search ends at ${f.tp} ms. One laptop needed ${f.t1} ms for ${n(f.n1, 'node')}; the class of ${f.processors} needed ${f.tp} ms for ${n(f.np, 'node')}: speedup ${f.spe}, load ${f.ld}, with ${n(f.messages, 'message')} through the relay. ` +
          'The chart on the right runs YBWC, Jamboree and APHID again on the three classroom presets (no delay, ten and fifty milliseconds) at this depth and shallower ones, against the seconds one laptop takes: ' +
          'where a line crosses the one-laptop line, the class wins. Synchronous splitting waits a round trip for every value it gives away, so a line rises only as searches grow longer than many round trips; ' +
          "APHID's master never waits for a reply (a leaf not back yet is an estimate, searched again on the next pass), so latency costs it stale leaves instead of idle time, and coarse jobs (giving away only subtrees worth four round trips, as here) keep the synchronous methods from waiting on small ones, at the price of sharing nothing in short searches.",
      },
    ],
  },
];

/** The lecture called `id`, or undefined. */
export const lectureById = (id) => LECTURES.find((lecture) => lecture.id === id);

/**
 * Each of `lecture`'s stops found in a complete replay's columns: the first event of the
 * run it waits for (`event`; so "the first split" is the run's first), and `index`, the
 * last event of that instant, where the replay stands. Stops come in the run's order; a
 * stop the run never reaches is left out.
 * @param {import('./eventColumns.js').EventColumns} events
 * @param {string[]} kinds message kinds in the simulator's order
 */
export function findStops(lecture, events, kinds) {
  const found = [];
  for (const stop of lecture.stops) {
    let at = -1;
    if (stop.on === 'end') at = events.length - 1;
    else {
      const test = FINDERS[stop.on];
      const kind = kinds.indexOf(stop.kind);
      for (let i = 0; i < events.length; i++) {
        if (test(events, i, kind)) {
          at = i;
          break;
        }
      }
    }
    if (at < 0) continue;
    // The replay stands at the end of the stop's instant: what happened at that very
    // time (the other processors' requests, their change to waiting) is shown with it.
    let index = at;
    while (index + 1 < events.length && events.time[index + 1] === events.time[at]) index++;
    found.push({ ...stop, event: at, index });
  }
  return found.sort((x, y) => x.index - y.index || x.event - y.event);
}

/**
 * The counters a stop's text names, read from the replay standing just after the stop's
 * instant (`playback.cursor === stop.index + 1`) and, at the end, from the run's report rows
 * (serial and parallel). Numbers are written as the text shows them.
 */
export function stopFacts(stop, playback, rows) {
  const { events } = playback;
  const i = stop.event;
  const totals = playback.totals();
  const facts = {
    t: (events.time[i] / 1e6).toFixed(3),
    nodes: totals.nodes,
    messages: totals.messages,
    busy: totals.busy,
    processors: playback.machine.processors,
  };
  playback.kinds.forEach((kind, k) => (facts[kind] = playback.kindCounts[k]));
  const code = events.code[i];
  if (code === EV.send) facts.p = events.b[i];
  else if (code === EV.node || code === EV.leave || code === EV.split) {
    facts.p = events.a[i];
    facts.path = playback.tree.sanPath(events.b[i], events.c[i], events.e[i] & 7);
    facts.type = playback.tree.typeAt(events.b[i], events.c[i], events.e[i] & 7);
    if (code === EV.split) facts.to = events.e[i] >>> 3;
  }
  if (stop.on === 'end') {
    const [serial, parallel] = [rows[0], rows[rows.length - 1]];
    Object.assign(facts, {
      t1: (serial.timeNs / 1e6).toFixed(3),
      n1: serial.nodes,
      tp: (parallel.timeNs / 1e6).toFixed(3),
      np: parallel.nodes,
      spe: parallel.speedup.toFixed(2),
      so: parallel.searchOverhead.toFixed(3),
      ld: parallel.load.toFixed(3),
      messages: parallel.messages,
      processors: parallel.processors,
    });
  }
  return facts;
}
