// Shared parts of the engine worker's browser test and of the wasm-vs-native measurement:
// an engine worker driven inside a page, the native bench, and CPU time read from /proc
// (wall time means little on a shared machine; CPU time of the processes doing the work
// does).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { NATIVE } from './browser.mjs';

export { NATIVE };

/** Drives one engine worker inside a page: the events it posted, their UCI lines (or the
 * lines alone, with `?events=0`), and a sender. */
export async function openWorker(page, query = '') {
  await page.evaluate((query) => {
    window.lines = [];
    window.events = [];
    window.engine = new Worker(`engine/worker.js${query}`, { type: 'module' });
    window.engine.onmessage = ({ data }) => {
      if (typeof data !== 'string') window.events.push(data);
      const line = typeof data === 'string' ? data : data.line;
      if (line !== undefined) window.lines.push(line);
    };
  }, query);
  return {
    send: (...commands) => page.evaluate((commands) => commands.forEach((c) => window.engine.postMessage(c)), commands),
    /** Waits for a line matching `pattern` posted at or after index `from`; returns its index. */
    waitFor: async (pattern, from = 0, timeout = 60000) => {
      const handle = await page.waitForFunction(
        ([source, from]) => {
          const i = window.lines.findIndex((l, k) => k >= from && new RegExp(source).test(l));
          return i >= 0 ? i + 1 : 0;
        },
        [pattern.source, from],
        { timeout, polling: 20 },
      );
      return (await handle.jsonValue()) - 1;
    },
    lines: () => page.evaluate(() => window.lines),
    events: () => page.evaluate(() => window.events),
  };
}

/** The `N nodes M nps` summary of a bench's output lines. */
export function benchSummary(lines) {
  const m = lines.map((l) => /^(\d+) nodes (\d+) nps$/.exec(l)).find(Boolean);
  assert.ok(m, 'bench printed its summary');
  return { nodes: Number(m[1]), nps: Number(m[2]) };
}

/** CPU seconds of this process's finished, waited-for children (/proc/self/stat). */
function childrenCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs the native `meshmate bench [depth] [--eval evaluation]`: signature, speed, and the
 * CPU seconds it took. */
export function nativeBench(depth, evaluation) {
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run ./build.sh build`);
  const before = childrenCpuSeconds();
  const args = ['bench', ...(depth ? [String(depth)] : []), ...(evaluation ? ['--eval', evaluation] : [])];
  const out = execFileSync(NATIVE, args, { encoding: 'utf8' });
  return { ...benchSummary(out.split('\n')), cpuSeconds: childrenCpuSeconds() - before };
}

/** Runs `bench [depth]` in an engine worker, with the UCI option `Eval` set first if
 * `evaluation` is given: signature, speed, the CPU seconds the browser's processes (this
 * process's descendants) used meanwhile, and those of the thread that searched (the one
 * that used the most: the engine's search worker). */
export async function workerBench(engine, depth, evaluation) {
  if (evaluation) {
    const ready = (await engine.lines()).length;
    await engine.send(`setoption name Eval value ${evaluation}`, 'isready');
    await engine.waitFor(/^readyok$/, ready);
  }
  const from = (await engine.lines()).length;
  const before = descendantsCpuSeconds(process.pid);
  const threadsBefore = descendantsThreadsCpu(process.pid);
  await engine.send(depth ? `bench ${depth}` : 'bench');
  await engine.waitFor(/^\d+ nodes \d+ nps$/, from, 600000);
  const cpuSeconds = descendantsCpuSeconds(process.pid) - before;
  let searchThreadCpuSeconds = 0;
  for (const [tid, seconds] of descendantsThreadsCpu(process.pid)) {
    searchThreadCpuSeconds = Math.max(searchThreadCpuSeconds, seconds - (threadsBefore.get(tid) ?? 0));
  }
  return { ...benchSummary((await engine.lines()).slice(from)), cpuSeconds, searchThreadCpuSeconds };
}

/** User and system CPU seconds in a /proc stat line. */
function statCpuSeconds(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}

/** The living descendants of a process (Linux /proc), with their CPU seconds so far. */
function descendants(rootPid) {
  const children = new Map();
  const cpu = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = statCpuSeconds(readFileSync(`/proc/${name}/stat`, 'utf8'));
    } catch {
      continue; // the process ended meanwhile
    }
    cpu.set(Number(name), stat.seconds);
    if (!children.has(stat.ppid)) children.set(stat.ppid, []);
    children.get(stat.ppid).push(Number(name));
  }
  const found = new Map();
  const stack = [...(children.get(rootPid) ?? [])];
  while (stack.length) {
    const pid = stack.pop();
    found.set(pid, cpu.get(pid) ?? 0);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** CPU seconds used so far by the living descendants of a process (Linux /proc). */
export function descendantsCpuSeconds(rootPid) {
  let total = 0;
  for (const seconds of descendants(rootPid).values()) total += seconds;
  return total;
}

/** CPU seconds used so far by each thread of the living descendants of a process, by
 * thread id (an ended thread's time stays in its process's total, not here). */
function descendantsThreadsCpu(rootPid) {
  const threads = new Map();
  for (const pid of descendants(rootPid).keys()) {
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        threads.set(Number(tid), statCpuSeconds(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')).seconds);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return threads;
}

/** Cores kept busy over `ms` milliseconds by this process's children (Chromium, the server). */
export async function coresBusy(ms) {
  const before = descendantsCpuSeconds(process.pid);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (descendantsCpuSeconds(process.pid) - before) / (ms / 1000);
}
