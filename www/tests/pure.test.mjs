// Unit tests of the page's pure modules (no browser): UCI parsing, the game record,
// PGN/FEN import, formatting, levels, the Lab's replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGo, formatPosition } from '../src/uci.js';
import { Game, InputError, lineToSan } from '../src/game.js';
import { parseGameText } from '../src/importExport.js';
import { formatScore, numberedLine, whiteScore, whiteWinningChance } from '../src/format.js';
import { LEVELS, levelSearch } from '../src/levels.js';
import { DEFAULT_POSITION } from 'chess.js';
import { Playback } from '../src/lab/playback.js';
import { EV, checkLayout } from '../src/lab/eventColumns.js';
import { withLine } from '../src/analysis.js';

test('the command formatters', () => {
  assert.equal(formatGo({ infinite: true }), 'go infinite');
  assert.equal(formatGo({ wtime: 60000.4, btime: 59000, winc: 1000, binc: 1000 }), 'go wtime 60000 btime 59000 winc 1000 binc 1000');
  assert.equal(formatPosition('8/8/8/8/8/8/8/K1k5 w - - 0 1', ['a1a2']), 'position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2');
});

test('the game record plays, refuses illegal moves, takes back by playing from the cursor', () => {
  const game = new Game();
  assert.ok(game.play('e2e4'));
  assert.ok(game.play({ from: 'e7', to: 'e5' }));
  assert.equal(game.play('e1e3'), null);
  game.goTo(1);
  assert.equal(game.turnAt(), 'black');
  assert.ok(game.play('e7e5'), 'the same move just advances');
  assert.equal(game.moves.length, 2);
  game.goTo(1);
  assert.ok(game.play('c7c5'));
  assert.deepEqual(game.moves.map((m) => m.san), ['e4', 'c5']);
});

test('game ends: mate, stalemate, repetition, material, and decisions', () => {
  assert.deepEqual(Game.fromPgn('1. f3 e5 2. g4 Qh4#').end, { result: '0-1', reason: 'checkmate' });
  assert.equal(Game.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').end.reason, 'stalemate');
  assert.equal(Game.fromFen('8/8/8/4k3/8/8/3K4/8 w - - 0 1').end.reason, 'insufficient material');
  const g = new Game();
  for (const m of ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']) g.play(m);
  assert.equal(g.end.reason, 'threefold repetition');
  const r = new Game();
  r.play('e2e4');
  r.finish('0-1', 'white resigned');
  assert.match(r.toPgn(), /\[Result "0-1"\][\s\S]*1\. e4 0-1$/);
});

test('PGN round trip keeps moves, tags and a FEN start', () => {
  const game = Game.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  game.play('e1g1');
  game.play('e8c8');
  const again = Game.fromPgn(game.toPgn());
  assert.equal(again.startFen, game.startFen);
  assert.deepEqual(again.moves.map((m) => m.san), ['O-O', 'O-O-O']);
  assert.equal(again.toPgn(), game.toPgn());
  const saved = Game.fromJSON(JSON.parse(JSON.stringify(again)));
  assert.deepEqual(saved.toJSON(), again.toJSON());
});

test('import tells FEN from PGN and refuses bad input with the reason', () => {
  assert.equal(parseGameText('8/8/8/4k3/8/8/3K4/7Q w - - 0 1').moves.length, 0);
  assert.equal(parseGameText('[Event "x"]\n\n1. d4 d5 *').moves.length, 2);
  assert.throws(() => parseGameText('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1'), (e) => e instanceof InputError && /Invalid FEN: .*piece/.test(e.message));
  assert.throws(() => parseGameText('1. e4 e5 2. Ke3'), (e) => e instanceof InputError && /Invalid PGN/.test(e.message));
  assert.throws(() => parseGameText('   '), InputError);
  assert.throws(() => Game.fromFen('8/8/8/8/8/8/8/8 w - - 0 1'), InputError);
});

test('scores are shown from White\'s side with move numbers in lines', () => {
  assert.equal(formatScore(whiteScore({ scoreCp: 35 }, 'black')), '−0.35');
  assert.equal(formatScore(whiteScore({ scoreMate: 2 }, 'white')), '#2');
  assert.equal(formatScore(whiteScore({ scoreMate: 2 }, 'black')), '#−2');
  assert.ok(whiteWinningChance({ cp: 300 }) > 0.7 && whiteWinningChance({ cp: -300 }) < 0.3);
  const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  assert.equal(numberedLine(lineToSan(fen, ['e7e5', 'g1f3', 'b8c6', 'zz']), fen), '1… e5 2. Nf3 Nc6');
});

test('levels weaken low levels by UCI_Elo and cap think time by the clock', () => {
  assert.ok(LEVELS.every((l, i) => i === 0 || l.elo > LEVELS[i - 1].elo), 'ratings rise with the level');
  const low = levelSearch(LEVELS[0], null);
  assert.equal(low.options.UCI_LimitStrength, true);
  assert.equal(low.options.UCI_Elo, LEVELS[0].limitElo);
  const top = levelSearch(LEVELS.at(-1), { remaining: 30000, increment: 0 });
  assert.equal(top.options.UCI_LimitStrength, false);
  assert.equal(top.go.movetime, 1000);
});

test('analysis lines: a new report on a root move replaces any other line on that move, at any depth, and the line it displaced takes that place', () => {
  const line = (depth, move) => ({ depth, pv: [move] });
  const firsts = (lines) => lines.map((l) => (l ? `${l.pv[0]}/${l.depth}` : '-'));
  let lines = [line(8, 'e2e4'), line(8, 'd2d4'), line(8, 'g1f3')];
  // Iteration 9 reorders: d4 moves up, and e4's old line takes d4's old place (three
  // lines stay three); the old third line stays.
  lines = withLine(lines, 0, line(9, 'd2d4'));
  assert.deepEqual(firsts(lines), ['d2d4/9', 'e2e4/8', 'g1f3/8']);
  lines = withLine(lines, 1, line(9, 'e2e4'));
  assert.deepEqual(firsts(lines), ['d2d4/9', 'e2e4/9', 'g1f3/8']);
  // Two reports of one depth in another order: the newer wins, and no two lines start
  // with the same move.
  lines = withLine(lines, 0, line(9, 'e2e4'));
  assert.deepEqual(firsts(lines), ['e2e4/9', 'd2d4/9', 'g1f3/8']);
  // A move new to the panel displaces nothing else; at a place not yet shown, a line that
  // starts with the same move leaves a gap.
  lines = withLine(lines, 2, line(9, 'c2c4'));
  assert.deepEqual(firsts(lines), ['e2e4/9', 'd2d4/9', 'c2c4/9']);
  lines = withLine([line(8, 'e2e4')], 1, line(9, 'e2e4'));
  assert.deepEqual(firsts(lines), ['-', 'e2e4/9']);
});

test('a variation explored in analysis keeps the game aside until "back to the game"', async () => {
  const { Session } = await import('../src/session.js');
  const session = new Session({ onChange: () => {}, onTick: () => {} });
  session.replaceGame(Game.fromPgn('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6'));
  session.goTo(2);
  assert.ok(session.explore({ from: 'g1', to: 'f3' }), 'the game move itself');
  assert.equal(session.savedLine, null);
  assert.ok(session.explore('g8f6'));
  assert.deepEqual(session.game.moves.map((m) => m.san), ['e4', 'e5', 'Nf3', 'Nf6']);
  assert.equal(session.explore('e1e5'), false, 'an illegal move changes nothing');
  session.backToGame();
  assert.deepEqual(session.game.moves.map((m) => m.san), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
  assert.equal(session.game.cursor, 3);
  assert.equal(session.savedLine, null);
});

test('the Lab replay draws every hop at least once, even one that falls between two frames', () => {
  const replay = new Playback({ processors: 2, links: 1 }, ['work'], DEFAULT_POSITION);
  // Events as the worker sends them: code, time, a, b, c, e, d (eventColumns.js).
  const send = (time, msg) => [EV.send, time, msg, 0, 0, 0, 0];
  const hop = (time, msg, end) => [EV.hop, time, msg, 0, 0, 1, end];
  const end = (time) => [EV.end, time, 0, 0, 0, 0, time];
  replay.append([...send(10, 0), ...hop(10, 0, 12), ...send(300, 1), ...hop(300, 1, 1000), ...end(1000)]);
  const shown = () => replay.flights.map((f) => [f.start, f.end]);
  replay.advanceTo(5);
  assert.deepEqual(shown(), []);
  replay.advanceTo(100); // the short hop began and ended since the last frame
  assert.deepEqual(shown(), [[10, 12]]);
  assert.equal(replay.linkActive[0], 1);
  replay.advanceTo(400);
  assert.deepEqual(shown(), [[300, 1000]]);
  replay.advanceTo(900);
  assert.deepEqual(shown(), [[300, 1000]]);
  replay.advanceTo(1000);
  assert.deepEqual(shown(), []);
  assert.equal(replay.linkActive[0], 0);
});

test('experiment links: written in field order, read back, and every bad field named', async () => {
  const { experimentHash, readExperimentHash, isLabHash } = await import('../src/lab/experimentLink.js');
  const catalogue = { algorithms: ['ybwc', 'dts'], nets: ['debruijn', 'bus'], presets: [{ name: 't800' }], ttModes: ['global', 'distributed'], maxDepth: 8 };
  const values = { algorithm: 'dts', net: 'bus', processors: '16', preset: 't800', tt: 'global', search: 'period', position: 'BK.06', depth: '5', seed: '3' };
  const hash = experimentHash(values);
  assert.equal(hash, '#lab?algorithm=dts&net=bus&processors=16&preset=t800&tt=global&search=period&position=BK.06&depth=5&seed=3');
  assert.ok(isLabHash(hash) && isLabHash('#lab') && !isLabHash('#label'));
  const read = readExperimentHash(hash, catalogue, ['BK.06'], []);
  assert.deepEqual(read, { values: { ...values, processors: 16, depth: 5, seed: 3 }, lecture: null, ignored: [] });
  const bad = readExperimentHash('#lab?algorithm=minimax&processors=0&depth=9&seed=1.5&tt=distributed&x=1', catalogue, [], []);
  assert.deepEqual(bad.values, { tt: 'distributed' });
  assert.deepEqual(bad.ignored.map((s) => s.split(' ')[0]), ['algorithm=minimax', 'processors=0', 'depth=9', 'seed=1.5', 'x']);
  assert.deepEqual(readExperimentHash(experimentHash(null, { id: 'ybwc', stop: 3 }), catalogue, [], ['ybwc']).lecture, { id: 'ybwc', stop: 3 });
  assert.match(readExperimentHash('#lab?lecture=nope', catalogue, [], ['ybwc']).ignored[0], /^lecture=nope/);
});

test('DeBruijn layout: necklaces joined by the shuffle, rows by the number of 1 bits', async () => {
  const { deBruijnLayout, necklaces, heatGrid } = await import('../src/lab/layouts.js');
  // n = 4: 0000, 0001…, 0011…, 0101 1010, 0111…, 1111: six necklaces, sixteen labels.
  const found = necklaces(4);
  assert.deepEqual(found.map((n) => n.members.length), [1, 4, 4, 2, 4, 1]);
  assert.equal(found.flatMap((n) => n.members).length, 16);
  for (const { members } of found) members.forEach((x, i) => i && assert.equal(x, ((members[i - 1] << 1) | (members[i - 1] >> 3)) & 15));
  for (const processors of [16, 64]) {
    const { points, rows } = deBruijnLayout(processors);
    const bits = Math.log2(processors);
    assert.equal(rows.length, bits + 1);
    const key = (p) => points[p].map((v) => v.toFixed(4)).join();
    assert.equal(new Set(points.map((_, p) => key(p))).size, processors, 'no two processors on one point');
    for (const [x, y] of points) assert.ok(x >= 0 && x <= 1 && y >= 0 && y <= 1);
    // The row of a label is its number of 1 bits.
    for (let p = 0; p < processors; p++) {
      const weight = p.toString(2).split('').filter((b) => b === '1').length;
      assert.ok(Math.abs(points[p][1] - rows[weight].y) < 0.5 / rows.length, `${p} is drawn in row ${weight}`);
    }
  }
  // The heat grid keeps the label's bits: row = high bits, column = low bits.
  const grid = heatGrid('debruijn', 1024);
  assert.deepEqual([grid.cols, grid.rows, ...grid.cell(0b1000000011)], [32, 32, 3, 16]);
  const ring = heatGrid('ring', 16);
  assert.deepEqual([ring.cell(3), ring.cell(4), ring.cell(7)], [[3, 0], [3, 1], [0, 1]], 'a ring snakes through its rows');
});

test('lecture stops are found in order in the replay columns, and their facts are the replay\'s counters', async () => {
  const { findStops, stopFacts } = await import('../src/lab/lectures.js');
  const kinds = ['work-request', 'work', 'no-work'];
  const replay = new Playback({ processors: 2, links: 1 }, kinds, DEFAULT_POSITION);
  const words = [
    [EV.state, 0, 0, 0, 0, 0, 0],
    [EV.send, 10, 0, 1, 0, 0, 0], // P1 asks P0 for work
    [EV.nodes, 20, 0, 0, 0, 0, 5],
    [EV.split, 30, 0, 0, 0, 1 << 3, 0], // P0 gives its root's move to P1
    [EV.send, 40, 1, 0, 1, 1, 0], // P0 sends the work
    [EV.end, 50, 0, 0, 0, 0, 50],
  ].flat();
  replay.append(Float64Array.from(words));
  const spec = { stops: [{ on: 'split' }, { on: 'send', kind: 'work-request' }, { on: 'send', kind: 'no-work' }, { on: 'end' }] };
  const stops = findStops(spec, replay.events, kinds);
  assert.deepEqual(stops.map((s) => s.index), [1, 3, 5], 'in the run\'s order; no-work never comes: that stop is left out');
  assert.deepEqual(stops.map((s) => s.on), ['send', 'split', 'end']);
  assert.deepEqual(stops.map((s) => s.event), [1, 3, 5]);
  // A stop stands at the end of its instant: here the split and the work sent with it.
  const sameInstant = new Playback({ processors: 2, links: 1 }, kinds, DEFAULT_POSITION);
  sameInstant.append(Float64Array.from([[EV.split, 30, 0, 0, 0, 1 << 3, 0], [EV.send, 30, 1, 0, 1, 1, 0], [EV.end, 50, 0, 0, 0, 0, 50]].flat()));
  assert.deepEqual(findStops({ stops: [{ on: 'split' }] }, sameInstant.events, kinds).map((s) => [s.event, s.index]), [[0, 1]]);
  replay.seek(stops[1].index);
  const facts = stopFacts(stops[1], replay, []);
  assert.deepEqual([facts.t, facts.p, facts.to, facts.path, facts.nodes, facts.messages, facts['work-request'], facts.work], ['0.000', 0, 1, 'the root', 5, 1, 1, 0]);
  const rows = [{ timeNs: 100, nodes: 9, speedup: 1, searchOverhead: 0, load: 1, messages: 0, processors: 1 }, { timeNs: 50, nodes: 10, speedup: 2, searchOverhead: 0.111, load: 0.9, messages: 2, processors: 2 }];
  replay.seek(stops[2].index);
  assert.deepEqual([stopFacts(stops[2], replay, rows).spe, stopFacts(stops[2], replay, rows).messages], ['2.00', 2]);
  // Going back: a rewound replay over the same events stands where it is sent.
  const back = replay.rewound();
  back.seek(stops[0].index);
  assert.deepEqual([back.cursor, back.totals().messages], [2, 1]);
});

test('the Lab refuses a simulator whose replay layout is not the one its columns read', () => {
  const layout = { wordsPerEvent: 7, codes: Object.entries(EV) };
  assert.doesNotThrow(() => checkLayout(layout));
  assert.throws(() => checkLayout({ ...layout, wordsPerEvent: 8 }), /event layout/);
  assert.throws(() => checkLayout({ ...layout, codes: layout.codes.map(([name, code]) => [name, name === 'hop' ? 10 : code]) }), /event layout/);
  assert.throws(() => checkLayout({ ...layout, codes: [...layout.codes, ['probe', 10]] }), /event layout/);
  assert.throws(() => checkLayout(undefined), /event layout/);
});

test('the break-even chart\'s sentences: where each preset\'s lines reach SPE 1, and what latency did, from the points alone', async () => {
  const { breakEven, breakEvenText } = await import('../src/lab/breakEven.js');
  const spec = { algorithms: ['ybwc', 'aphid'], presets: ['classroom', 'classroom-50ms'] };
  const point = (algorithm, preset, depth, t1, speedup, searchOverhead = 0.1) => ({ algorithm, preset, depth, t1, speedup, searchOverhead });
  const points = [
    point('ybwc', 'classroom', 4, 0.01, 0.6),
    point('ybwc', 'classroom', 5, 0.03, 1.3),
    point('ybwc', 'classroom', 6, 0.09, 1.6, 0.29),
    point('aphid', 'classroom', 4, 0.01, 0.2),
    point('aphid', 'classroom', 5, 0.03, 0.9),
    point('aphid', 'classroom', 6, 0.09, 1.1, 3.9),
    point('ybwc', 'classroom-50ms', 6, 0.09, 0.12, 0.01),
    point('aphid', 'classroom-50ms', 4, 0.01, 0.05),
    point('aphid', 'classroom-50ms', 6, 0.09, 0.2, 3.1),
  ];
  assert.equal(breakEven(points, 'ybwc', 'classroom'), 0.03, 'the first T(1) at which the line reaches 1');
  assert.equal(breakEven(points, 'aphid', 'classroom'), 0.09);
  assert.equal(breakEven(points, 'ybwc', 'classroom-50ms'), null);
  assert.equal(
    breakEvenText(points, spec),
    'On classroom the class beats one laptop from T(1) 0.030 s with ybwc, T(1) 0.090 s with aphid. At depth 6 (T(1) 0.090 s) ybwc leads with SPE 1.60. ' +
      'On classroom-50ms no line reaches SPE 1: the class is slower than one laptop on every search here. At depth 6 (T(1) 0.090 s) aphid leads with SPE 0.20. ' +
      'From classroom to classroom-50ms, at depth 6: ybwc from 1.60 to 0.12 (search overhead 0.29 to 0.01); aphid from 1.10 to 0.20 (search overhead 3.90 to 3.10).',
  );
  assert.equal(breakEvenText([], spec), '');
});
