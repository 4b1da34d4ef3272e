#!/usr/bin/env python3
"""Does the second core make meshmate play better? Parallel search judged as engine authors
judge it: the Elo of Threads=2 against Threads=1 at a fixed time control, for each
algorithm, beside the ceiling — one thread with twice the time against one thread, the Elo
of doubling the time. A parallel search that reaches a depth sooner but plays no better has
gained nothing; the share of the ceiling says how much of a second core's worth it turns
into strength.

Each row is one tests/tuning/match.py run on the fixed openings (tests/tuning/openings.txt,
colours alternated), one game at a time, so the 2-thread side owns both cores while it
thinks: run it on a quiet machine. Hash 16 MiB for both sides. A row's games are kept in
--work DIR, pair by pair, and never played twice: a run that is cut off goes on where it
stopped, and a row asked for more pairs than it has plays only the new ones. The table goes
to --out.

    python3 tests/experiments/threads_elo.py --work docs/experiments/threads-elo --out /tmp/table.md
        # the kept rows of docs/threads-elo.md (whose prose is written around the table by
        # hand); a fresh --work plays them all again at 5+0.05: about five hours
    python3 tests/experiments/threads_elo.py --tc 1+0.01 --pairs-scale 0.02 --out /tmp/t.md   # a look
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "tuning"))
from match import kept_pairs, pair_line, report, tally  # noqa: E402  (match.py lives beside the tuning scripts)

MATCH = os.path.join(ROOT, "tests", "tuning", "match.py")
OPENINGS = os.path.join(ROOT, "tests", "tuning", "openings.txt")

# (row, algorithm or None for the ceiling, pairs): 200 games for the default and the
# work-splitting algorithms, 100 for the others.
ROWS = [
    ("ceiling", None, 100),
    ("abdada", "abdada", 100),
    ("ybwc", "ybwc", 100),
    ("ybwc-all", "ybwc-all", 100),
    ("jamboree", "jamboree", 100),
    ("dts", "dts", 100),
    ("lazysmp", "lazysmp", 50),
    ("tdsab", "tdsab", 50),
]


def clock(text):
    """'5+0.05' as (5.0, 0.05)."""
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def text_of(tc):
    return f"{tc[0]:g}+{tc[1]:g}"


def match_command(args, algorithm, start, pairs):
    """The match.py command of one row's pairs `start` to `start + pairs - 1`: Threads=2
    against Threads=1 with `algorithm`, or for the ceiling (None) one thread on twice the
    clock against one thread."""
    tc = args.tc
    command = [sys.executable, MATCH, "--first", args.engine, "--second", args.engine, "--start-pair", str(start), "--pairs", str(pairs), "--openings", OPENINGS, "--concurrency", "1"]
    for side in ("first", "second"):
        command += [f"--{side}-option", "Hash=16"]
    if algorithm is None:
        command += ["--tc", text_of((2 * tc[0], 2 * tc[1])), "--second-tc", text_of(tc), "--first-option", "Threads=1", "--second-option", "Threads=1"]
    else:
        command += ["--tc", text_of(tc)]
        for side, threads in (("first", 2), ("second", 1)):
            command += [f"--{side}-option", f"Threads={threads}", f"--{side}-option", f"Algorithm={algorithm}"]
    return command


def run_row(args, name, algorithm, pairs):
    """The row's result over its first `pairs` pairs (wins, draws, losses, games, score, Elo,
    low, high), playing only the pairs its kept output lacks."""
    path = os.path.join(args.work, f"{name}.txt")
    kept = {}
    if os.path.exists(path):
        with open(path) as out:
            kept = kept_pairs(out.read())
    if sorted(kept) != list(range(len(kept))):
        sys.exit(f"{name}: {path} keeps pairs {sorted(kept)}, not a run from pair 0: move it aside")
    if len(kept) < pairs:
        command = match_command(args, algorithm, len(kept), pairs - len(kept))
        print(f"{name}: {' '.join(command)}", flush=True)
        with open(path, "a") as out:
            subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
        with open(path) as out:
            kept = kept_pairs(out.read())
        if len(kept) < pairs:
            sys.exit(f"{name}: match.py stopped after {len(kept)} of {pairs} pairs; its output is in {path}")
    # One summary over every kept pair, in place of each run's own.
    with open(path, "w") as out:
        out.write("".join(pair_line(pair, kept[pair]) + "\n" for pair in sorted(kept)) + report(kept) + "\n")
    return tally({pair: kept[pair] for pair in range(pairs)})


def commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "meshmate"))
    parser.add_argument("--tc", type=clock, default=(5.0, 0.05), help="BASE+INC of the 1-thread side (default 5+0.05)")
    parser.add_argument("--pairs-scale", type=float, default=1.0, help="play this share of each row's pairs (at least one)")
    parser.add_argument("--rows", default=",".join(name for name, _, _ in ROWS), help="rows to play, by name")
    parser.add_argument("--work", default=os.path.join(ROOT, "target", "threads-elo"), help="where each row's match output is kept")
    parser.add_argument("--out", default=None, help="Markdown table to write (default: print it)")
    args = parser.parse_args()
    if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
        parser.error(f"engine '{args.engine}' is not an executable file: cargo build --release")
    wanted = args.rows.split(",")
    unknown = [name for name in wanted if name not in {n for n, _, _ in ROWS}]
    if unknown:
        parser.error(f"unknown rows {unknown}: the rows are {[n for n, _, _ in ROWS]}")
    os.makedirs(args.work, exist_ok=True)

    results = {}
    for name, algorithm, pairs in ROWS:
        if name in wanted:
            results[name] = run_row(args, name, algorithm, max(1, round(pairs * args.pairs_scale)))
    ceiling = round(results["ceiling"][5]) if "ceiling" in results else None
    lines = [
        "# Strength from the second core",
        "",
        "Threads=2 against Threads=1 for each algorithm, beside the ceiling: one thread with twice the",
        "time against one thread. The share of the ceiling is a row's Elo over the ceiling's.",
        "",
        f"Measured at {commit()} by `python3 tests/experiments/threads_elo.py --tc {text_of(args.tc)}"
        + (f" --pairs-scale {args.pairs_scale:g}" if args.pairs_scale != 1.0 else "") + "`: each row one match of "
        "tests/tuning/match.py on the fixed openings, colours alternated, one game at a time, Hash 16 MiB.",
        "",
        "| row | first engine | games | +/=/- | score | Elo | 95 % | share of the ceiling |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, algorithm, _ in ROWS:
        if name not in results:
            continue
        wins, draws, losses, games, score, elo, low, high = results[name]
        first = "1 thread, twice the time, against 1 thread" if algorithm is None else f"{algorithm}, 2 threads, against 1 thread"
        share = "" if algorithm is None or not ceiling else f"{round(elo) / ceiling:.0%}"
        lines.append(f"| {name} | {first} | {games} | {wins}/{draws}/{losses} | {score:.3f} | {elo:+.0f} | {low:+.0f} to {high:+.0f} | {share} |")
    table = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as out:
            out.write(table)
    print(table)


if __name__ == "__main__":
    main()
