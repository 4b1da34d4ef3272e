"""The scaling of every parallel algorithm with the engine's own search on the simulator:
SPE, SO, LD, idle share and messages per node at each processor count, written as a
Markdown table (docs/scaling.md) and a plot of speedup against processors
(docs/images/scaling.svg; for another --out, its name with .svg in images/ beside it) with
the ideal line, 1 + 0.7(N - 1) and Hyatt's 1.7 per doubling drawn for reference;
--confirm-seed adds each SPE at a second seed.

    python3 tests/experiments/scaling.py --depth 17 --procs 16,64 --confirm-seed 2
    python3 tests/experiments/scaling.py --depth 21 --procs 16,64 --confirm-seed 2 --out docs/scaling-21.md
    python3 tests/experiments/scaling.py --from-json DIR ...   # format runs made before

Each algorithm runs as one `meshmate sim --json` process (two at a time), its JSON kept
in --work DIR, so a long sweep can be formatted again without running it again. The
figures are virtual time: they do not depend on how loaded this machine is.
"""

import argparse
import concurrent.futures
import datetime
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from report import table  # noqa: E402  (docs/experiments.md's Markdown tables)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COLOURS = {"ybwc": "#d62728", "jamboree": "#1f77b4", "dts": "#2ca02c", "abdada": "#9467bd", "lazysmp": "#8c564b", "pvsplit": "#e377c2", "tdsab": "#7f7f7f"}


def run_algorithm(args, algorithm, seed):
    """Runs one algorithm over the processor counts at `seed`; returns its JSON rows."""
    folder = args.work if seed == args.seed else os.path.join(args.work, f"seed{seed}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{algorithm}.json")
    if not os.path.exists(path):
        command = [args.binary, "sim", "--algo", algorithm, "--procs", args.procs, "--preset", args.preset,
                   "--suite", args.suite, "--depth", str(args.depth), "--seed", str(seed), "--hash", str(args.hash), "--json"]
        print(" ".join(command), file=sys.stderr, flush=True)
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        with open(path + ".tmp", "w") as f:
            f.write(out)
        os.replace(path + ".tmp", path)
    with open(path) as f:
        return json.load(f)["rows"]


def totals(group):
    """The suite's totals: SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1, mean LD,
    the work and critical path summed over the suite (None when a run has no path), and
    the serial time over the suite's positions."""
    spans = [r["critical_path_ns"] for r in group if r["critical_path_ns"] is not None]
    t1 = sum(r["serial_ns"] for r in group)
    return {
        "spe": t1 / max(1, sum(r["time_ns"] for r in group)),
        "so": sum(r["nodes"] for r in group) / max(1, sum(r["serial_nodes"] for r in group)) - 1,
        "ld": sum(r["load"] for r in group) / len(group),
        "work": sum(r["work_ns"] for r in group),
        "span": sum(spans) if len(spans) == len(group) else None,
        "t1": t1,
        "positions": len(group),
    }


def figures(rows):
    """Per processor count: the suite's totals plus idle share and messages per node."""
    by_p = {}
    for r in rows:
        by_p.setdefault(r["processors"], []).append(r)
    result = {}
    for p, group in sorted(by_p.items()):
        t = totals(group)
        t["idle"] = 1 - t["ld"]
        t["msgs_per_node"] = sum(r["messages"] for r in group) / max(1, sum(r["nodes"] for r in group))
        t["w_over_c"] = t["work"] / t["span"] if t["span"] else None
        result[p] = t
    return result


def per_doubling(p):
    """Hyatt's rule of thumb for split-point engines: 1.7 times faster per doubling."""
    return 1.7 ** math.log2(p)


def svg_plot(series, procs):
    """Speedup against processors on log-log axes, one line per algorithm."""
    width, height, left, bottom, top, right = 640, 420, 60, 50, 20, 150
    lo, hi = 1, max(procs)

    def x(p):
        return left + (width - left - right) * math.log(p / lo) / math.log(hi / lo)

    def y(s):
        return height - bottom - (height - bottom - top) * math.log(max(s, lo) / lo) / math.log(hi / lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    ticks = [1, 4, 16, 64, 256, 1024]
    for t in [t for t in ticks if t <= hi]:
        out.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{width - right}" y2="{y(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x(t):.1f}" y="{height - bottom + 16}" text-anchor="middle">{t}</text>')
        out.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">processors</text>')
    out.append(f'<text x="16" y="{(top + height - bottom) / 2}" transform="rotate(-90 16 {(top + height - bottom) / 2})" text-anchor="middle">speedup (SPE)</text>')
    reference = [("ideal", lambda p: p, "#000", "2,3"), ("1 + 0.7(N - 1)", lambda p: 1 + 0.7 * (p - 1), "#999", "6,3"),
                 ("1.7 per doubling", per_doubling, "#bbb", "1,3")]
    lines = [(name, [(p, f(p)) for p in [1] + procs], colour, dash) for name, f, colour, dash in reference]
    lines += [(name, [(1, 1.0)] + [(p, t["spe"]) for p, t in pts.items()], COLOURS.get(name, "#333"), None) for name, pts in series.items()]
    for i, (name, pts, colour, dash) in enumerate(lines):
        path = " ".join(f"{x(p):.1f},{y(s):.1f}" for p, s in pts)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{style}/>')
        if not dash:
            out += [f'<circle cx="{x(p):.1f}" cy="{y(s):.1f}" r="3" fill="{colour}"/>' for p, s in pts[1:]]
        ly = top + 14 + 18 * i
        out.append(f'<line x1="{width - right + 10}" y1="{ly - 4}" x2="{width - right + 34}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"{style}/>')
        out.append(f'<text x="{width - right + 40}" y="{ly}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def measured_commit(args):
    """The commit the runs in --work were measured at (recorded when they ran)."""
    path = os.path.join(args.work, "commit.txt")
    if not os.path.exists(path):
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        with open(path, "w") as f:
            f.write(commit + "\n")
    with open(path) as f:
        return f.read().strip()


def markdown(args, series, confirming, command):
    rows = []
    for name, pts in series.items():
        for p, t in pts.items():
            wc = f"{t['w_over_c']:.0f}" if t["w_over_c"] else "–"
            other = [f"{confirming[name][p]['spe']:.2f}"] if confirming else []
            rows.append([name, p, f"{t['spe']:.2f}"] + other + [f"{1 + 0.7 * (p - 1):.1f}", f"{per_doubling(p):.1f}", f"{t['so']:.3f}", f"{t['ld']:.2f}", f"{t['idle']:.2f}", f"{t['msgs_per_node']:.4f}", wc])
    serial_s = next(iter(series.values()))
    mean_t1 = next(iter(serial_s.values()))["t1"] / 1e9 / next(iter(serial_s.values()))["positions"]
    commit = measured_commit(args)
    header = ["algorithm", "p", "SPE"] + ([f"SPE, seed {args.confirm_seed}"] if confirming else []) + ["1 + 0.7(p − 1)", "1.7 per doubling", "SO", "LD", "idle", "messages / node", "W/C"]
    return f"""# Scaling with the engine's own search

Every parallel algorithm on the simulator's `{args.preset}` machine, the {os.path.basename(args.suite)} positions,
depth {args.depth} (the serial search averages {mean_t1:.2f} s of virtual time per position), seed
{args.seed}{f" (and SPE at seed {args.confirm_seed})" if confirming else ""}, the modern search (null move, reductions, pruning; not `--pure`). SPE = sum T(1) /
sum T(p) over the suite; SO = sum N(p) / sum N(1) − 1; LD the mean load; idle = 1 − LD;
messages per node counts every message (work requests, work, results, bounds, cut-offs, HELP
and offers); W/C is the work over the critical path of the parallel run, the most
processors the tree could keep busy (StarTech's average parallelism).

Measured at {commit} by `{command}`; written on {datetime.date.today().isoformat()}.

![speedup against processors](images/{plot_name(args.out)})

How the work-splitting algorithms divide the tree, how they differ from their papers,
their figures at other depths (`tests/experiments/by_depth.py`), and the check against two
real threads these figures rest on: [work-splitting.md](work-splitting.md).

{table(header, rows)}
"""


def plot_name(out):
    """The plot beside the table `out` (docs/scaling.md: images/scaling.svg)."""
    return os.path.splitext(os.path.basename(out))[0] + ".svg"


def sweep_arguments(ap, procs):
    """The options of one sweep of `meshmate sim` runs (what `run_algorithm` reads), shared
    with by_depth.py."""
    ap.add_argument("--algos", default="ybwc,jamboree,dts,abdada,lazysmp")
    ap.add_argument("--procs", default=procs)
    ap.add_argument("--preset", default="multicore")
    ap.add_argument("--suite", default=os.path.join(ROOT, "..", "shared", "data", "bratko-kopec.epd"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "meshmate"))
    ap.add_argument("--jobs", type=int, default=2)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sweep_arguments(ap, "4,16,64,256")
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--confirm-seed", type=int, default=None, help="also run at this seed and show its SPE beside (kept in WORK/seedN)")
    ap.add_argument("--work", default=None, help="where the JSON of each algorithm is kept (default: a new folder under /tmp)")
    ap.add_argument("--from-json", dest="work_existing", default=None, help="format the JSON already in this folder")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "scaling.md"))
    args = ap.parse_args()
    args.work = args.work_existing or args.work or f"/tmp/scaling-d{args.depth}-{args.preset}"
    os.makedirs(args.work, exist_ok=True)
    algos = args.algos.split(",")
    measured_commit(args)
    seeds = [args.seed] + ([args.confirm_seed] if args.confirm_seed is not None else [])
    runs = [(a, seed) for seed in seeds for a in algos]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = dict(zip(runs, pool.map(lambda run: run_algorithm(args, *run), runs)))
    series = {a: figures(rows[(a, args.seed)]) for a in algos}
    confirming = {a: figures(rows[(a, args.confirm_seed)]) for a in algos} if args.confirm_seed is not None else None
    procs = sorted({p for pts in series.values() for p in pts})
    confirm = f" --confirm-seed {args.confirm_seed}" if args.confirm_seed is not None else ""
    default_out = os.path.abspath(args.out) == os.path.join(ROOT, "docs", "scaling.md")
    out = "" if default_out else f" --out {os.path.relpath(args.out, ROOT)}"
    command = f"python3 tests/experiments/scaling.py --algos {args.algos} --procs {args.procs} --preset {args.preset} --depth {args.depth} --seed {args.seed}{confirm} --hash {args.hash}{out}"
    plot = os.path.join(os.path.dirname(args.out), "images", plot_name(args.out))
    os.makedirs(os.path.dirname(plot), exist_ok=True)
    with open(plot, "w") as f:
        f.write(svg_plot(series, procs))
    with open(args.out, "w") as f:
        f.write(markdown(args, series, confirming, command))
    print(f"wrote {args.out} and {plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
