// The Class view's state, words, start form, replay readout and prediction, without a browser: the
// reducer (classState.js) fed the class worker's messages as a class sends them, and what
// the page would say of each state (classText.js, classReplay.js `replayReadout`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canStart, initialState, mapNodes, measuredSpeedup, oneWayMs, predicts, processorRows, reduce } from '../src/class/classState.js';
import { measuredText, ownNodesText, predictionAbout, progressText, statusText, studentHeading } from '../src/class/classText.js';
import { fastest, predictionKey, predictionRequest } from '../src/class/classPrediction.js';
import { relayHoldMs } from '../src/class/classLatency.js';
import { checkStart } from '../src/class/classForm.js';
import { Recording } from '../src/class/classRecording.js';
import { replayReadout } from '../src/class/classReplay.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** The state after `messages`, from a fresh one. */
const after = (messages, state = initialState()) => messages.reduce(reduce, state);

/** A lecturer with three students, in search 1 (ybwc, depth 7) on four processors. */
const lecturerSearching = () =>
  after([
    { class: 'begin', role: 'lecturer', relay: 'ws://localhost/class' },
    { class: 'created', code: 'c0de', member: 0 },
    { class: 'members', members: [0, 1, 2, 3] },
    { class: 'start', algorithm: 'ybwc', depth: 7, fen: KIWIPETE, pure: true, network: '' },
    { class: 'search', search: 1, processor: 0, processors: 4, members: [0, 1, 2, 3], network: null },
  ]);

test('a message is a new state: the old one is never changed', () => {
  const before = lecturerSearching();
  const copy = structuredClone(before);
  const next = reduce(before, { class: 'activity', processors: [{ nodes: 5, busy: true, line: 'e2a6' }] });
  assert.deepEqual(before, copy);
  assert.notEqual(next, before);
  assert.equal(next.processors[0].nodes, 5);
  assert.equal(next.processors[1], before.processors[1], 'an unreported processor is the same object');
  assert.equal(reduce(before, { class: 'trace', events: [] }), before, 'a trace changes no state');
  assert.equal(reduce(before, { class: 'nonsense' }), before);
});

test('the lecturer\'s search: asked, begun with the form\'s fields, reported, over', () => {
  let s = after([{ class: 'begin', role: 'lecturer', relay: 'ws://r' }, { class: 'created', code: 'c0de', member: 0 }]);
  assert.deepEqual([s.phase, s.members], ['open', [0]]);
  s = reduce(s, { class: 'start', algorithm: 'ybwc', depth: 7, fen: KIWIPETE, pure: true, network: '' });
  assert.equal(s.searching, true, 'searching from the start button on');
  s = reduce(s, { class: 'search', search: 1, processor: 0, processors: 2, members: [0, 1] });
  assert.deepEqual([s.search.fen, s.search.algorithm, s.search.depth, s.asked], [KIWIPETE, 'ybwc', 7, null]);
  s = reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp -69', depth: 7, nodes: 9000, ms: 400 });
  assert.equal(s.searching, false);
  assert.equal(s.result.fen, KIWIPETE, 'the result keeps its position');
  assert.ok(s.processors.every((p) => !p.busy));
});

test('a refused start ends the wait; an error before the session opens ends the attempt', () => {
  const refused = after([{ class: 'start', algorithm: 'ybwc', depth: 4, fen: KIWIPETE, pure: false, network: '' }, { class: 'error', message: 'a search is running' }], after([{ class: 'begin', role: 'lecturer', relay: 'ws://r' }, { class: 'created', code: 'c', member: 0 }]));
  assert.deepEqual([refused.searching, refused.phase, refused.error.message], [false, 'open', 'A search is running']);
  const lecturer = after([{ class: 'begin', role: 'lecturer', relay: 'ws://r' }, { class: 'error', message: 'not isolated' }]);
  assert.deepEqual([lecturer.role, lecturer.phase, lecturer.error.message], ['none', 'closed', 'Not isolated'], 'back at the start, the error on screen');
  const student = after([{ class: 'begin', role: 'student', relay: 'ws://r', code: 'c' }, { class: 'error', message: 'no such session' }]);
  assert.deepEqual([student.role, student.phase], ['student', 'closed']);
});

test('a student who got no work is shown so, not "done" as one who searched', () => {
  let s = lecturerSearching();
  s = reduce(s, { class: 'activity', processors: [{ nodes: 9000, busy: true }, { nodes: 500, busy: true }, { nodes: 0, busy: false }, { nodes: 20, busy: false }] });
  assert.deepEqual(processorRows(s).map((r) => r.state), ['busy', 'busy', 'waiting', 'waiting']);
  s = reduce(s, { class: 'lost', search: 1, processor: 3 });
  s = reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp 0', depth: 7, nodes: 9520, ms: 900 });
  assert.deepEqual(processorRows(s).map((r) => r.state), ['done', 'done', 'no-work', 'lost']);
  assert.deepEqual(processorRows(s).map((r) => r.who), ['you (lecturer)', 'member 1', 'member 2', 'member 3']);
  assert.deepEqual(mapNodes(s).map((n) => n.state), ['idle', 'idle', 'idle', 'lost']);

  // The student's own tab says it too.
  let student = after([{ class: 'begin', role: 'student', relay: 'ws://r', code: 'c' }, { class: 'joined', member: 2 }, { class: 'search', search: 1, processor: 2, processors: 4, members: [0, 1, 2, 3] }]);
  student = after([{ class: 'activity', processors: [{ nodes: 0, busy: false }] }, { class: 'ended', search: 1 }], student);
  assert.match(statusText(student, { isolated: true }), /^Search 1 is over: you were processor 2 of 4 and got no work/);
  assert.equal(ownNodesText(student), 'No work came to you in search 1.');
  const worked = after([{ class: 'search', search: 2, processor: 2, processors: 4, members: [0, 1, 2, 3] }, { class: 'activity', processors: [{ nodes: 1234, busy: true }] }, { class: 'ended', search: 2 }], student);
  assert.equal(statusText(worked, { isolated: true }), 'Search 2 is over: you were processor 2 of 4.');
});

test('the progress line names the last finished iteration as such, of the depth asked', () => {
  let s = lecturerSearching();
  assert.equal(progressText(s), 'no depth of 7 finished yet');
  s = reduce(s, { class: 'info', depth: 5, score: 'cp 0', nodes: 81000, pv: [] });
  assert.equal(progressText(s), 'finished depth 5 of 7 · cp 0 · 81 k nodes');
  s = reduce(s, { class: 'info', depth: 6, score: 'cp 12', nodes: 200000, pv: ['e2a6', 'b4c3'] });
  assert.equal(progressText(s), 'finished depth 6 of 7 · cp 12 · 200 k nodes · pv e2a6 b4c3');
  s = reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp 12', depth: 7, nodes: 300000, ms: 900 });
  assert.equal(progressText(s), '', 'the result says the rest');
  // The next search asked for: until it begins, nothing is said of the last one.
  s = reduce(s, { class: 'start', algorithm: 'jamboree', depth: 5, fen: KIWIPETE, pure: false, network: '' });
  assert.equal(progressText(s), '');
  assert.equal(statusText(s, { isolated: true }), 'Starting the search…');
  s = reduce(s, { class: 'search', search: 2, processor: 0, processors: 4, members: [0, 1, 2, 3] });
  assert.equal(progressText(s), 'no depth of 5 finished yet');
  assert.equal(statusText(s, { isolated: true }), 'Search 2: jamboree, depth 5 on 4 processors…');
});

test('the status line follows the live roster: a lost processor is no longer counted', () => {
  let s = lecturerSearching();
  assert.equal(statusText(s, { isolated: true }), 'Search 1: ybwc, depth 7, Pure on 4 processors…');
  s = reduce(s, { class: 'lost', search: 1, processor: 2 });
  assert.equal(statusText(s, { isolated: true }), 'Search 1: ybwc, depth 7, Pure on 3 of 4 processors (processor 2 lost)…');
  s = reduce(s, { class: 'lost', search: 0, processor: 1 });
  assert.match(statusText(s, { isolated: true }), /on 3 of 4 processors/, 'a notice of an earlier search counts nothing');
  s = reduce(s, { class: 'lost', search: 1, processor: 1 });
  assert.match(statusText(s, { isolated: true }), /on 2 of 4 processors \(processors 1, 2 lost\)/);
});

test('a student is told the lecturer\'s connection dropped, how long the class waits for it, and not once the next search begins', () => {
  let s = after([{ class: 'begin', role: 'student', relay: 'ws://r', code: 'c' }, { class: 'joined', member: 2 }, { class: 'search', search: 1, processor: 2, processors: 3, members: [0, 1, 2] }]);
  // As the relay tells it: processor 0 lost, the search ended, then `away`.
  const at = Date.UTC(2026, 11, 5, 10, 31, 5);
  s = after([{ class: 'lost', search: 1, processor: 0 }, { class: 'ended', search: 1 }, { class: 'away', withinMs: 30000, at }], s);
  assert.equal(studentHeading(s), 'The lecturer\'s connection dropped');
  const until = new Date(at + 30000).toLocaleTimeString('en-GB', { hour12: false });
  assert.equal(statusText(s, { isolated: true }), `The lecturer's connection dropped: the class waits up to 30 s for it to come back (until ${until}), and ends if it does not.`);
  const resumed = reduce(s, { class: 'back' });
  assert.equal(resumed.away, null, 'the relay says the lecturer resumed');
  assert.notEqual(studentHeading(resumed), 'The lecturer\'s connection dropped');
  const back = reduce(s, { class: 'search', search: 2, processor: 2, processors: 3, members: [0, 1, 2] });
  assert.deepEqual([back.away, studentHeading(back)], [null, 'Processor 2 of 3'], 'the lecturer is back: it started a search');
  const gone = reduce(s, { class: 'closed', reason: 'the owner left: its connection dropped and it did not resume within 30000 ms' });
  assert.deepEqual([gone.away, studentHeading(gone)], [null, 'The lecturer left']);
});

test('the lecturer\'s socket drops during a search: reconnecting, then back, the ended search said so and finished alone', () => {
  let s = reduce(lecturerSearching(), { class: 'reconnecting' });
  assert.equal(s.phase, 'reconnecting');
  assert.equal(canStart(s), false, 'no search starts while the class is away');
  assert.equal(statusText(s, { isolated: true }), 'The connection to the relay dropped: reconnecting… The relay ended search 1 for the students when the connection dropped: your processor finishes it alone…');
  s = reduce(s, { class: 'resumed' });
  assert.deepEqual([s.phase, s.searching, canStart(s)], ['open', true, false]);
  assert.equal(statusText(s, { isolated: true }), 'The class is back. The relay ended search 1 for the students when the connection dropped: your processor finishes it alone…');
  s = reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp -69', depth: 7, nodes: 9000, ms: 400 });
  assert.equal(canStart(s), true);
  assert.equal(statusText(s, { isolated: true }), 'The class is back. The relay ended search 1 for the students when the connection dropped: your processor finished it alone. 3 students joined: the next search runs on 4 processors.');
  s = reduce(s, { class: 'start', algorithm: 'ybwc', depth: 5, fen: KIWIPETE, pure: true, network: '' });
  s = reduce(s, { class: 'search', search: 2, processor: 0, processors: 4, members: [0, 1, 2, 3] });
  assert.equal(statusText(s, { isolated: true }), 'Search 2: ybwc, depth 5, Pure on 4 processors…', 'the next search is the news');
  // Dropped between searches: nothing was ended.
  const idle = after([{ class: 'reconnecting' }, { class: 'resumed' }], reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp 1', depth: 5, nodes: 9, ms: 4 }));
  assert.equal(statusText(idle, { isolated: true }), 'The class is back. 3 students joined: the next search runs on 4 processors.');
  const fresh = initialState();
  assert.equal(reduce(fresh, { class: 'resumed' }), fresh, 'a resume nobody waits for changes nothing');
});

test('the start form checks what was typed and what the class can run', () => {
  const good = { algorithm: 'ybwc', depth: '6', fen: ` ${KIWIPETE} `, pure: true, network: '' };
  assert.deepEqual(checkStart(good, 4), { request: { algorithm: 'ybwc', depth: 6, fen: KIWIPETE, pure: true, network: '', papersSplit: false } });
  assert.equal(checkStart({ ...good, papersSplit: true }, 4).request.papersSplit, true, 'the papers\' way of splitting is asked for');
  assert.equal(checkStart({ ...good, fen: '' }, 4).request.fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'empty: the start position');
  assert.match(checkStart({ ...good, algorithm: 'dts' }, 4).error, /Unknown algorithm dts/);
  assert.match(checkStart({ ...good, depth: '2.5' }, 4).error, /whole number from 1 to 20/);
  assert.match(checkStart({ ...good, fen: 'not a fen' }, 4).error, /not a legal position/);
  assert.match(checkStart({ ...good, fen: '7k/5QQ1/8/8/8/8/8/K7 b - - 0 1' }, 4).error, /game is over/);
  assert.match(checkStart({ ...good, network: 'debruijn' }, 3).error, /power of two processors .*the class has 3.*wait for 1 more student\b/);
  assert.ok(checkStart({ ...good, network: 'debruijn' }, 4).request);
});

test('after a search the replay line shows the search as it ended: every frame, the whole time, the scrubber at its end', () => {
  const recording = new Recording({ search: 1, processors: 2, network: null });
  const events = [
    { ev: 'start', search: 1, t: 1000 },
    { ev: 'send', search: 1, t: 1100, from: 0, to: 1, kind: 'program' },
    { ev: 'deliver', search: 1, t: 1300, from: 0, to: 1, kind: 'program', hops: 1 },
    { ev: 'send', search: 1, t: 500000, from: 1, to: 0, kind: 'done' },
    { ev: 'deliver', search: 1, t: 600000, from: 1, to: 0, kind: 'done', hops: 1 },
    { ev: 'end', search: 1, t: 951000 },
  ];
  recording.add(events, 2000);
  const ended = replayReadout(recording, null, false);
  assert.equal(ended.text, '2 of 2 frames · 0.950 of 0.950 s');
  assert.deepEqual([ended.at, ended.max, ended.shown, ended.kept, ended.button], [950000, 950000, 2, 2, 'Replay']);
  const partway = replayReadout(recording, { t: 1000 + 400000, seen: new Set() }, false);
  assert.deepEqual([partway.text, partway.at, partway.button], ['1 of 2 frames · 0.400 of 0.950 s', 400000, 'Resume']);
  assert.equal(replayReadout(recording, { t: 1000, seen: new Set() }, true).button, 'Pause');
});

// --- the prediction and the measured speedup (issue 68, goal 4) ------------------------


/** The setup of lecturerSearching's search, as the prediction takes it. */
const SETUP = { processors: 4, depth: 7, fen: KIWIPETE, pure: true, network: '', oneWayMs: 0.5 };
const ROWS = [
  { algorithm: 'ybwc', speedup: 0.8 },
  { algorithm: 'jamboree', speedup: 1.7 },
  { algorithm: 'aphid', speedup: 1.2 },
];

test('the one-way time is the probe\'s round trip, plus the relay\'s hold once a search\'s trace showed it', () => {
  let s = after([{ class: 'begin', role: 'lecturer', relay: 'ws://r' }, { class: 'created', code: 'c0de', member: 0 }]);
  assert.equal(oneWayMs(s.latency), null, 'nothing measured, nothing predicted');
  assert.match(predictionAbout(s), /Measuring the round trip/);
  s = reduce(s, { class: 'latency', probeMs: 0.4 });
  assert.equal(oneWayMs(s.latency), 0.4, 'up to the relay and down to the receiver: a round trip of the probe');
  assert.match(predictionAbout(s), /0\.40 ms one-way.*0 until a search's trace shows it/);
  s = reduce(s, { class: 'latency', holdMs: 10.5, frames: 120 });
  assert.equal(oneWayMs(s.latency), 10.9);
  assert.match(predictionAbout(s), /\b11 ms one-way/);
  assert.match(predictionAbout(s), /median of the last search's 120 frames/);
  s = reduce(s, { class: 'latency', probeError: 'the relay did not answer within 5 s' });
  assert.equal(oneWayMs(s.latency), null, 'a failed probe predicts nothing');
  assert.match(predictionAbout(s), /could not be measured \(the relay did not answer/);
});

test('the relay\'s hold is the median per hop of the frames\' send to delivery', () => {
  assert.equal(relayHoldMs([]), null);
  const delivers = [
    { t: 10_500, sent: 500, hops: 1 },
    { t: 30_000, sent: 10_000, hops: 2 },
    { t: 1_000_000, sent: 0, hops: 1 },
  ];
  assert.equal(relayHoldMs(delivers), 10, 'the median, each frame over its hops: an outlier moves it not');
  const recording = new Recording({ search: 1, processors: 2, network: null });
  recording.add([{ t: 100, ev: 'send', search: 1, from: 0, to: 1 }, { t: 2100, ev: 'deliver', search: 1, from: 0, to: 1 }], 0);
  assert.equal(relayHoldMs(recording.delivers), 2, 'read from a recording\'s kept deliveries');
});

test('the model\'s request: the classroom preset, a table per processor, the depth held to the simulator\'s', () => {
  const request = predictionRequest('aphid', { ...SETUP, depth: 12, network: 'debruijn', oneWayMs: 11.4567 }, 8);
  assert.deepEqual(request, { algorithm: 'aphid', net: 'debruijn', processors: 4, preset: 'classroom', tt: 'local', pure: true, papersSplit: false, fen: KIWIPETE, depth: 8, seed: 1, oneWayNs: 11_460_000 });
  assert.equal(predictionRequest('ybwc', SETUP, 8).net, 'bus', 'no network: every frame one hop through the relay');
  assert.equal(predictionKey({ ...SETUP, oneWayMs: 0.501 }, 8), predictionKey(SETUP, 8), 'a probe that moves by less than the grain predicts nothing anew');
  assert.notEqual(predictionKey({ ...SETUP, processors: 5 }, 8), predictionKey(SETUP, 8));
  assert.notEqual(predictionKey({ ...SETUP, papersSplit: true }, 8), predictionKey(SETUP, 8), 'the papers\' split is another model');
});

test('the fastest is the greatest predicted speedup; an algorithm the model could not run is no candidate', () => {
  assert.equal(fastest(ROWS), 'jamboree');
  assert.equal(fastest([{ algorithm: 'ybwc', speedup: null }, { algorithm: 'pvsplit', speedup: 0.3 }]), 'pvsplit');
  assert.equal(fastest([]), null);
});

test('after a search the measured speedup, this tab alone over the class, stands beside the prediction of that very setup', () => {
  let s = reduce(lecturerSearching(), { class: 'prediction', key: 'k', setup: SETUP, depth: 7, rows: ROWS, done: true });
  assert.ok(predicts(s.prediction, s.search), 'the search\'s own size, depth, position, Pure and network');
  assert.equal(predicts({ setup: { ...SETUP, processors: 3 } }, s.search), false);
  assert.equal(predicts({ setup: { ...SETUP, papersSplit: true } }, s.search), false, 'the papers\' split is another setup');
  const papers = after([{ class: 'start', algorithm: 'ybwc', depth: 7, fen: KIWIPETE, pure: true, papersSplit: true, network: '' }, { class: 'search', search: 2, processor: 0, processors: 4, members: [0, 1, 2, 3], network: null }], s);
  assert.equal(papers.search.papersSplit, true, 'the search begun keeps the way of splitting asked for');
  assert.ok(predicts({ setup: { ...SETUP, papersSplit: true } }, papers.search));
  s = reduce(s, { class: 'result', bestmove: 'e2a6', score: 'cp 20', depth: 7, nodes: 100000, ms: 2000 });
  assert.equal(measuredSpeedup(s), null, 'no speedup before one tab\'s time is in');
  s = reduce(s, { class: 'alone', search: 1, state: 'running' });
  assert.match(measuredText(s), /this tab searches the same position to depth 7 alone/);
  assert.equal(reduce(s, { class: 'alone', search: 9, state: 'done', ms: 1 }), s, 'a measurement of another search is dropped');
  s = reduce(s, { class: 'alone', search: 1, state: 'done', ms: 3000, nodes: 90000, depth: 7 });
  assert.deepEqual(measuredSpeedup(s), { classMs: 2000, aloneMs: 3000, speedup: 1.5, classNodes: 100000, aloneNodes: 90000 });
  assert.match(measuredText(s), /the class took 2\.0 s \(100 k nodes\); this tab alone, .* took 3\.0 s \(90 k nodes\)/, 'both searches\' nodes, so a reader sees whether the trees differ');
  assert.match(measuredText(s), /Measured speedup 1\.50×; the model predicted 0\.80× at 0\.50 ms one-way\.$/, 'ybwc was searched: its prediction beside it');
  const later = [
    { class: 'prediction', key: 'k2', setup: { ...SETUP, depth: 5 }, depth: 5, rows: [{ algorithm: 'ybwc', speedup: 3 }], done: true },
    { class: 'prediction', key: 'k3', setup: { ...SETUP, oneWayMs: 11 }, depth: 7, rows: [{ algorithm: 'ybwc', speedup: 0.1 }], done: true },
  ];
  assert.equal(measuredText(after(later, s)), measuredText(s), 'a later prediction, of another setup or at another latency, does not replace the one the search began with');
  const unpredicted = after([{ class: 'result', ms: 2000 }, { class: 'alone', search: 1, state: 'done', ms: 3000 }], lecturerSearching());
  assert.doesNotMatch(measuredText(unpredicted), /predicted/, 'no prediction of the search\'s setup, none beside it');
  const predictedAfter = reduce(unpredicted, { class: 'prediction', key: 'k4', setup: SETUP, depth: 7, rows: ROWS, done: true });
  assert.match(measuredText(predictedAfter), /the model predicted 0\.80×/, 'one made after the search (the model waits while it is timed) is put beside it');
  assert.equal(measuredText(reduce(unpredicted, { class: 'prediction', key: 'k5', setup: SETUP, depth: 7, rows: ROWS, done: false })), measuredText(unpredicted), 'an unfinished one is not');
  const brokenRows = ROWS.map((r) => (r.algorithm === 'ybwc' ? { algorithm: 'ybwc', speedup: null, why: 'the simulator was stopped while it loaded' } : r));
  const broken = reduce(unpredicted, { class: 'prediction', key: 'k6', setup: SETUP, depth: 7, rows: brokenRows, done: true, error: 'the simulator was stopped while it loaded' });
  assert.doesNotMatch(measuredText(broken), /predicted/, 'a failed run predicts nothing for its algorithm');
  assert.match(measuredText(reduce(broken, { class: 'prediction', key: 'k6', setup: SETUP, depth: 7, rows: ROWS, done: true })), /the model predicted 0\.80×/, 'a prediction with a failed run gives way to the next whole one of the same setup');
  const failed = reduce(s, { class: 'alone', search: 1, state: 'failed', why: 'another search took the Play engine' });
  assert.equal(measuredSpeedup(failed), null);
  assert.match(measuredText(failed), /not measured: another search took the Play engine/);
  const next = reduce(s, { class: 'search', search: 2, processor: 0, processors: 4, members: [0, 1, 2, 3] });
  assert.equal(next.alone, null, 'the next search starts without the last one\'s measurement');
});

test('the prediction says what it simulated: the class\'s size, the depth (held to the simulator\'s), the one-way time', () => {
  let s = after([{ class: 'begin', role: 'lecturer', relay: 'ws://r' }, { class: 'created', code: 'c0de', member: 0 }, { class: 'latency', probeMs: 0.5 }]);
  s = reduce(s, { class: 'prediction', key: 'k', setup: { ...SETUP, depth: 12 }, depth: 8, rows: ROWS.slice(0, 2), done: false });
  assert.match(predictionAbout(s), /for 4 processors, depth 8 \(the simulator's deepest in the page; the form asks 12\)/);
  assert.match(predictionAbout(s), /2 of 5 algorithms done/);
  s = reduce(s, { class: 'prediction', key: 'k', setup: SETUP, depth: 7, rows: ROWS, done: true });
  assert.match(predictionAbout(s), /depth 7, jobs of four round trips or more, 0\.50 ms one-way.*The menu starts on the fastest until you choose/);
  s = reduce(s, { class: 'prediction', key: 'k2', setup: { ...SETUP, papersSplit: true }, depth: 7, rows: ROWS, done: true });
  assert.match(predictionAbout(s), /depth 7, splitting as the papers do, 0\.50 ms one-way/);
});
