#!/usr/bin/env python3
"""Where a parallel search's idle time falls: the mean number of busy processors during
each iteration of processor 0's iterative deepening, from a simulator trace
(docs/work-splitting.md, "Why not 11 and 25").

    meshmate sim --algo ybwc --procs 64 --preset multicore --suite ONE.epd --depth 17 --trace T.jsonl
    python3 tests/experiments/busy_by_iteration.py T.jsonl

A trace holds a serial run and then the parallel one for each position; this reads the
parallel run numbered --run (default 1, the first parallel run of the first position). A
processor counts as busy between its "busy" state event and its next other state
("waiting", "done"); an iteration runs from processor 0's entry into the root at that
depth (aspiration re-searches included) to its entry at the next depth.
"""

import argparse
import json


def read_run(path, wanted):
    """The label, the state changes (time, processor, state) and processor 0's root entries
    (time, depth) of run number `wanted` in the trace."""
    label, states, roots, run = None, [], [], -1
    with open(path) as f:
        for line in f:
            if '"ev":"run"' in line:
                run += 1
                if run == wanted:
                    label = json.loads(line)["label"]
                continue
            if run != wanted:
                continue
            if '"ev":"state"' in line:
                e = json.loads(line)
                states.append((e["t"], e["p"], e["state"]))
            elif '"ev":"node"' in line and '"path":[]' in line:
                e = json.loads(line)
                if e["p"] == 0 and (not roots or roots[-1][1] != e["depth"]):
                    roots.append((e["t"], e["depth"]))
    return label, states, roots


def busy_profile(states):
    """Pieces (start, end, busy processors) covering the run."""
    pieces, state, busy, last = [], {}, 0, 0
    for t, p, s in sorted(states):
        pieces.append((last, t, busy))
        last = t
        was, now = state.get(p) == "busy", s == "busy"
        state[p] = s
        busy += int(now) - int(was)
    return pieces, last


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--run", type=int, default=1, help="which run of the trace (0: the first serial run)")
    args = ap.parse_args()
    try:
        label, states, roots = read_run(args.trace, args.run)
    except OSError as e:
        raise SystemExit(f"{args.trace}: {e.strerror}")
    if not states or not roots:
        raise SystemExit(f"{args.trace}: no run {args.run} with state events and root entries in this trace")
    pieces, end = busy_profile(states)
    processors = len({p for _, p, _ in states})
    print(f"{label}: {processors} processors, {end / 1e6:.2f} ms of virtual time")
    print("| iteration | starts at, ms | lasts, ms | share of the run | mean busy processors |")
    print("|---|---|---|---|---|")
    bounds = [t for t, _ in roots[1:]] + [end]
    for (start, depth), stop in zip(roots, bounds):
        if stop <= start:
            continue
        area = sum((min(b, stop) - max(a, start)) * n for a, b, n in pieces if b > start and a < stop)
        print(f"| {depth} | {start / 1e6:.2f} | {(stop - start) / 1e6:.2f} | {(stop - start) / end:.3f} | {area / (stop - start):.1f} |")
    total = sum((b - a) * n for a, b, n in pieces)
    print(f"| all | 0 | {end / 1e6:.2f} | 1 | {total / end:.1f} |")


if __name__ == "__main__":
    main()
