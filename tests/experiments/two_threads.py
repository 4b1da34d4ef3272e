#!/usr/bin/env python3
"""Does the simulator agree with two real threads? The check every simulated figure of the
`multicore` preset rests on (docs/scaling.md, "The model against real threads").

For each algorithm, the same suite and depth, one table size for both:
- real: `meshmate speedup --threads 2 --rounds R` (real time, against the serial search,
  the whole suite R times over, each round against its own serial reference); its node
  cost is the busy time per node over the serial search's time per node (1.0: a busy
  processor searches as fast as one alone);
- model: `meshmate sim --procs 2 --preset multicore --seed 1-R` (virtual time, the same).

SPE = sum T(1) / sum T(2) over every round (seed), with a 95 % interval from the spread
of the rounds' own SPE (Student's t). The model passes when its SPE is within 10 % of the
real one. Real times need a quiet machine (both cores free); the model's do not.

    python3 tests/experiments/two_threads.py --depth 14 --rounds 8
    python3 tests/experiments/two_threads.py --depth 17 --rounds 3 --algo ybwc,abdada

`--model-only --preset browser` prints the model's side alone, here for the web workers
(their real side: www/tests/speedup-wasm-vs-native.mjs, docs/work-splitting.md).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ALGORITHMS = "ybwc,jamboree,dts,abdada,lazysmp"
# Student's t at 97.5 % for 1..30 degrees of freedom (beyond: 2.0).
T975 = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13,
        2.12, 2.11, 2.10, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04]


def interval(values):
    """Half the width of the 95 % interval of the mean of `values` (0 for one value)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return T975[min(n - 2, len(T975) - 1)] * sd / math.sqrt(n)


def pooled(rows, group, serial_time, time):
    """Pooled SPE over all rows, and each group's (round's or seed's) own SPE."""
    groups = {}
    for r in rows:
        t1, tp = groups.get(r[group], (0.0, 0.0))
        groups[r[group]] = (t1 + r[serial_time], tp + r[time])
    t1 = sum(a for a, _ in groups.values())
    tp = sum(b for _, b in groups.values())
    return t1 / tp, [a / b for a, b in groups.values()]


def overhead(rows, serial_nodes=None):
    """SO = sum N(2) / sum N(1) - 1."""
    n = sum(r["nodes"] for r in rows)
    n1 = sum(r[serial_nodes] for r in rows) if serial_nodes else None
    return n / n1 - 1 if n1 else float("nan")


def node_cost(rows, serial):
    """Busy time per node of the parallel runs over the serial search's time per node on
    the same position and round: 1.0 when a busy processor searches as fast as one alone."""
    busy = sum(r["ms"] * r["threads"] * r["load"] for r in rows)
    expected = sum(r["nodes"] * serial[(r["round"], r["position"])]["ms"] / serial[(r["round"], r["position"])]["nodes"] for r in rows)
    return busy / expected


def real_rows(args):
    """The rows of `meshmate speedup --threads 2` (serial ones included)."""
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(args.work or work, "real.json")
        command = [args.binary, "speedup", "--algo", args.algo, "--threads", "2", "--suite", args.suite,
                   "--depth", str(args.depth), "--hash", str(args.hash), "--rounds", str(args.rounds), "--json", path]
        print(" ".join(command), file=sys.stderr, flush=True)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            text = f.read().strip()
    return json.loads(text) if text.startswith("[") else [json.loads(line) for line in text.splitlines() if line.strip()]


def model_rows(args):
    """The rows of `meshmate sim --procs 2 --preset PRESET`."""
    command = [args.binary, "sim", "--algo", args.algo, "--procs", "2", "--preset", args.preset, "--suite", args.suite,
               "--depth", str(args.depth), "--hash", str(args.hash), "--seed", f"1-{args.rounds}", "--json"]
    print(" ".join(command), file=sys.stderr, flush=True)
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["rows"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "meshmate"))
    parser.add_argument("--suite", default=os.path.join(ROOT, "..", "shared", "data", "bratko-kopec.epd"))
    parser.add_argument("--algo", default=ALGORITHMS)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--hash", type=int, default=64, help="table size, MiB, for both (default 64)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of the real suite, and seeds of the model's")
    parser.add_argument("--json", help="also write the table's figures as JSON to FILE")
    parser.add_argument("--work", help="keep the real runs' rows in DIR/real.json")
    parser.add_argument("--preset", default="multicore", help="the model's machine (default multicore)")
    parser.add_argument("--model-only", action="store_true", help="run and print the model's side alone")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary}: not built (cargo build --release)")
    if args.model_only:
        print_model(args, model_rows(args))
        return
    real = real_rows(args)
    model = model_rows(args)
    print(f"Bratko-Kopec to {args.depth} plies, {args.hash} MiB, 2 processors; real: {args.rounds} rounds, model: seeds 1-{args.rounds}")
    print("| algorithm | real SPE | SO | LD | node cost | model SPE | SO | LD | model / real |")
    print("|---|---|---|---|---|---|---|---|---|")
    figures = []
    for algorithm in args.algo.split(","):
        r = [row for row in real if row["algorithm"] == algorithm]
        serial = {(row["round"], row["position"]): row for row in real if row["algorithm"] == "serial"}
        for row in r:
            row["serial_nodes"] = serial[(row["round"], row["position"])]["nodes"]
        m = [row for row in model if row["algorithm"] == algorithm]
        real_spe, real_rounds = pooled(r, "round", "serial_ms", "ms")
        model_spe, model_seeds = pooled(m, "seed", "serial_ns", "time_ns")
        ratio = model_spe / real_spe
        verdict = "within 10 %" if abs(ratio - 1) <= 0.10 else "OUTSIDE 10 %"
        load = lambda rows: sum(x["load"] for x in rows) / len(rows)
        print(f"| {algorithm} | {real_spe:.2f} ± {interval(real_rounds):.2f} | {overhead(r, 'serial_nodes'):.3f} | {load(r):.2f} | {node_cost(r, serial):.3f} "
              f"| {model_spe:.2f} ± {interval(model_seeds):.2f} | {overhead(m, 'serial_nodes'):.3f} | {load(m):.2f} | {ratio:.2f} ({verdict}) |")
        figures.append({"algorithm": algorithm, "real_spe": round(real_spe, 4), "real_interval": round(interval(real_rounds), 4),
                        "model_spe": round(model_spe, 4), "model_interval": round(interval(model_seeds), 4), "ratio": round(ratio, 4)})
    if args.json:
        with open(args.json, "w") as f:
            commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
            json.dump({"commit": commit, "depth": args.depth, "hash": args.hash, "rounds": args.rounds, "figures": figures}, f, indent=1)


def print_model(args, model):
    """The model's side alone: pooled SPE over the seeds, SO and LD per algorithm."""
    print(f"Bratko-Kopec to {args.depth} plies, {args.hash} MiB, 2 processors, preset {args.preset}, seeds 1-{args.rounds}")
    print("| algorithm | model SPE | SO | LD |")
    print("|---|---|---|---|")
    for algorithm in args.algo.split(","):
        m = [row for row in model if row["algorithm"] == algorithm]
        spe, seeds = pooled(m, "seed", "serial_ns", "time_ns")
        print(f"| {algorithm} | {spe:.2f} ± {interval(seeds):.2f} | {overhead(m, 'serial_nodes'):.3f} | {sum(x['load'] for x in m) / len(m):.2f} |")


if __name__ == "__main__":
    main()
