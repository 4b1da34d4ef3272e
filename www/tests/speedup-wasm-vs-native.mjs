// Time-to-depth speedup of the parallel algorithms at 2 threads, natively and in the
// browser's engine worker (the threaded build, a pool of 2 web workers), measured in one
// run: for each algorithm the native `meshmate speedup` and the worker's `speedup`
// command search the same Bratko-Kopec positions to the same depth, one after the other.
// Prints SPE (sum of serial times over sum of parallel times), SO and idle time per
// algorithm for both. Needs ./build.sh build first; the machine should be quiet.
// Rounds > 1 search the positions that many times over, in one interleaved run: a
// parallel search's tree differs from run to run and a shared machine's speed drifts,
// so one round of 24 positions can land 0.3 either side of the mean.
// Usage (from www/): node tests/speedup-wasm-vs-native.mjs [depth] [algo,algo,...] [positions] [rounds]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, startServer, WWW } from './browser.mjs';
import { NATIVE, openWorker } from './engine-harness.mjs';

const depth = Number(process.argv[2] ?? 12);
const algorithms = (process.argv[3] ?? 'pvsplit,ybwc,jamboree,dts,tdsab,lazysmp,abdada').split(',');
const positions = Number(process.argv[4] ?? 24);
const rounds = Number(process.argv[5] ?? 1);
const suite = join(WWW, '..', '..', 'shared', 'data', 'bratko-kopec.epd');
const records = readFileSync(suite, 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .slice(0, positions);
const searched = Array.from({ length: rounds }, () => records).flat();
const fens = searched.map((l) => `${l.split(' ').slice(0, 4).join(' ')} 0 1`);
const dir = mkdtempSync(join(tmpdir(), 'meshmate-speedup-'));
const epd = join(dir, 'positions.epd');
writeFileSync(epd, searched.map((l) => `${l}\n`).join(''));

/** Sums rows into SPE, SO and idle time for one algorithm. */
function totals(rows, algorithm) {
  const serial = rows.filter((r) => r.algorithm === 'serial');
  const parallel = rows.filter((r) => r.algorithm === algorithm);
  const sum = (rs, key) => rs.reduce((s, r) => s + r[key], 0);
  return {
    spe: sum(serial, 'ms') / sum(parallel, 'ms'),
    so: sum(parallel, 'nodes') / sum(serial, 'nodes') - 1,
    idle: sum(parallel, 'idle_ms'),
  };
}

function native(algorithm) {
  const json = join(dir, `${algorithm}.json`);
  execFileSync(NATIVE, ['speedup', '--algo', algorithm, '--threads', '2', '--suite', epd, '--depth', String(depth), '--json', json], { stdio: 'ignore' });
  return JSON.parse(readFileSync(json, 'utf8'));
}

async function wasm(engine, algorithm) {
  const from = (await engine.lines()).length;
  await engine.send(`speedup algo ${algorithm} threads 2 depth ${depth} hash 64 fens ${fens.join('; ')}`);
  const end = await engine.waitFor(/^info string speedup done$/, from, 3_600_000);
  const lines = (await engine.lines()).slice(from, end);
  const errors = lines.filter((l) => l.startsWith('info string error'));
  if (errors.length) throw new Error(errors.join('\n'));
  return lines.filter((l) => l.startsWith('info string speedup {')).map((l) => JSON.parse(l.slice('info string speedup '.length)));
}

const server = await startServer([]);
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}console.html`);
  const engine = await openWorker(page, '?threads=2&events=0');
  await engine.send('uci', 'isready');
  await engine.waitFor(/^readyok$/);
  console.log(`time-to-depth speedup at 2 threads, ${records.length} Bratko-Kopec positions × ${rounds} rounds, depth ${depth}`);
  console.log('algorithm   native SPE   SO     idle ms |  wasm SPE   SO     idle ms');
  for (const algorithm of algorithms) {
    const n = totals(native(algorithm), algorithm);
    const w = totals(await wasm(engine, algorithm), algorithm);
    const cell = (t) => `${t.spe.toFixed(2).padStart(6)}  ${t.so.toFixed(3).padStart(6)}  ${t.idle.toFixed(0).padStart(8)}`;
    console.log(`${algorithm.padEnd(10)}  ${cell(n)}    | ${cell(w)}`);
  }
  await engine.send('quit');
} finally {
  await browser.close();
  await server.stop();
}
