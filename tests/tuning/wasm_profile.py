#!/usr/bin/env python3
"""Where wasm loses time against native: one `perf record` samples `meshmate bench` natively
and in a Chromium worker (www/tests/wasm-profile.mjs, V8 writing its code map so that wasm
functions keep their Rust names), then prints each function's CPU samples on both sides.

Usage: python3 tests/tuning/wasm_profile.py [--build threads|single] [--depth 12] [--eval classic|nnue] [--top 20]
Needs `./build.sh build` (the native binary, www/dist with the wasm packages, which keep
their name section) and perf (Debian's linux-perf). CPU-clock samples, so it works where
hardware counters do not (virtual machines); a run under perf is slower on both sides.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def short(symbol):
    """A Rust symbol as both sides print it, so native and wasm names match: crate hashes,
    generic arguments, V8's `JS:` prefix and `-INDEX-TIER` suffix dropped, `<Type>::f` and
    `module::<impl Type>::f` as `Type::f`, closures as `{{closure}}`. Wasm code V8 has not optimised yet (its baseline
    tier, Liftoff) is counted apart."""
    liftoff = symbol.endswith("-liftoff")
    symbol = re.sub(r"^JS:", "", symbol)
    symbol = re.sub(r"-\d+-(turbofan|liftoff)$", "", symbol)
    symbol = re.sub(r"\[[0-9a-f]{16}\]", "", symbol)
    symbol = re.sub(r"\{closure#\d+\}", "{{closure}}", symbol)
    symbol = re.sub(r"^<([^<> ]*)>::", r"\1::", symbol)
    symbol = re.sub(r"^[\w:]*::<impl ([^<> ]+)>::", r"\1::", symbol)
    return "(wasm baseline code, before V8 optimised it)" if liftoff else without_generics(symbol)


def without_generics(symbol):
    """`a::<T<U>>::b` as `a::b`."""
    out, depth, i = [], 0, 0
    while i < len(symbol):
        if symbol.startswith("::<", i) and depth == 0:
            depth, i = 1, i + 3
            continue
        c = symbol[i]
        if depth:
            depth += (c == "<") - (c == ">")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def samples(data):
    """Every sample as (seconds, comm, tid, symbol)."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,time,ip,sym"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*(.+?)\s+(\d+)\s+([\d.]+):\s+[0-9a-f]+\s+(.*)$", line)
        if m:
            comm, tid, time, sym = m.groups()
            rows.append((float(time), comm.strip(), int(tid), short(sym.strip()) or "[unknown]"))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="threads", choices=["threads", "single"])
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--eval", default="classic", choices=["classic", "nnue"], help="the evaluation both sides search with")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--frequency", type=int, default=1999, help="samples per second")
    ap.add_argument("--data", help="keep the recording (and the run's output, FILE.out) here (default: a temporary file)")
    ap.add_argument("--report-only", action="store_true", help="print the tables of the recording in --data again")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.abspath(args.data) if args.data else os.path.join(tmp, "perf.data")
        if not args.report_only:
            run = subprocess.run(
                ["perf", "record", "-q", "-k", "monotonic", "-e", "cpu-clock", "-F", str(args.frequency), "-o", data, "--",
                 "node", os.path.join(ROOT, "www", "tests", "wasm-profile.mjs"), args.build, str(args.depth), args.eval],
                cwd=tmp, capture_output=True, text=True)  # V8 writes its logs in the working directory
            if run.returncode != 0:
                sys.exit(f"the profiled run failed:\n{run.stdout}{run.stderr}")
            with open(data + ".out", "w") as f:
                f.write(run.stdout)
        with open(data + ".out") as f:
            output = f.read()
        print(output.strip())
        window = tuple(float(t) for t in re.search(r"wasm bench window: (\S+) (\S+)", output).groups())
        report(samples(data), window, args)


def report(rows, window, args):
    """The per-function table of native against wasm samples, and what else the browser
    did while the wasm bench ran."""
    by_thread = collections.defaultdict(collections.Counter)
    for _, comm, tid, sym in rows:
        by_thread[(comm, tid)][sym] += 1
    native = max((c for (comm, _), c in by_thread.items() if comm == "meshmate"), key=lambda c: sum(c.values()))
    # The worker that ran the bench: the browser's thread with the most samples in the
    # engine's code (any of its functions: with the network, `eval::evaluate` is not hot).
    def engine_samples(thread):
        return sum(n for sym, n in by_thread[thread].items() if sym.startswith("meshmate::"))
    worker = max((t for t in by_thread if t[0] != "meshmate"), key=engine_samples)
    wasm = by_thread[worker]
    n_total, w_total = sum(native.values()), sum(wasm.values())
    hz = args.frequency
    print(f"\nCPU samples at {hz} Hz: native {n_total} ({n_total / hz:.2f} s), wasm worker {w_total} ({w_total / hz:.2f} s); "
          f"wasm/native speed {n_total / w_total:.2f}\n")
    print("| function | native | wasm | native share | wasm share | wasm extra (share of native total) |")
    print("|---|---|---|---|---|---|")
    names = sorted(set(native) | set(wasm), key=lambda s: -(wasm[s] + native[s]))
    for name in names[: args.top]:
        extra = (wasm[name] - native[name]) / n_total
        print(f"| `{name}` | {native[name]} | {wasm[name]} | {100 * native[name] / n_total:.1f}% | {100 * wasm[name] / w_total:.1f}% | {100 * extra:+.1f}% |")
    rest_n = n_total - sum(native[s] for s in names[: args.top])
    rest_w = w_total - sum(wasm[s] for s in names[: args.top])
    print(f"| (the rest) | {rest_n} | {rest_w} | {100 * rest_n / n_total:.1f}% | {100 * rest_w / w_total:.1f}% | {100 * (rest_w - rest_n) / n_total:+.1f}% |")

    # The browser's other threads while the wasm bench ran (the harness's node process left out).
    beside = collections.Counter()
    for time, comm, tid, _ in rows:
        if window[0] <= time <= window[1] and (comm, tid) != worker and comm not in ("node", "perf", "meshmate"):
            beside[comm] += 1
    print(f"\nBeside the worker during the wasm bench ({window[1] - window[0]:.2f} s): {sum(beside.values())} samples "
          f"({sum(beside.values()) / hz:.2f} s) in the browser's other threads")
    for comm, n in beside.most_common(8):
        print(f"  {comm}: {n} ({n / hz:.2f} s)")


if __name__ == "__main__":
    main()
