#!/usr/bin/env python3
"""How speedup grows with depth on the simulator: SPE, SO, LD and W/C of every algorithm at
each processor count and depth (docs/work-splitting.md, "With depth"). W/C, the work over the
critical path, is the most processors the tree could keep busy; it grows with depth, so
deeper searches leave more for the split-point searches to share.

    python3 tests/experiments/by_depth.py --depths 15,17,19,21 --procs 16,64

Each depth is one scaling.py sweep at one seed: the JSON of each algorithm is kept in
WORK-ROOT/dDEPTH (scaling.py's --work), so depths run before are formatted, not run again,
and a depth measured by scaling.py --work WORK-ROOT/dDEPTH is reused here. Virtual time:
the figures do not depend on how loaded this machine is.
"""

import argparse
import concurrent.futures
import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(__file__))
from report import table  # noqa: E402
from scaling import figures, measured_commit, per_doubling, run_algorithm, sweep_arguments  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sweep_arguments(ap, "16,64")
    ap.add_argument("--depths", default="15,17,19,21")
    ap.add_argument("--work-root", default="/tmp/scaling-by-depth", help="WORK-ROOT/dDEPTH keeps each depth's JSON")
    args = ap.parse_args()
    algos, depths = args.algos.split(","), [int(d) for d in args.depths.split(",")]
    sweeps = {}
    for depth in depths:
        work = os.path.join(args.work_root, f"d{depth}")
        os.makedirs(work, exist_ok=True)
        sweeps[depth] = SimpleNamespace(**{**vars(args), "depth": depth, "work": work})
        measured_commit(sweeps[depth])
    runs = [(depth, a) for depth in depths for a in algos]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip(runs, pool.map(lambda run: figures(run_algorithm(sweeps[run[0]], run[1], args.seed)), runs)))
    commits = sorted({measured_commit(s) for s in sweeps.values()})
    serial = {d: results[(d, algos[0])] for d in depths}
    print(f"{os.path.basename(args.suite)}, `{args.preset}`, seed {args.seed}, measured at {', '.join(commits)}")
    print("serial time per position (virtual): " + ", ".join(f"depth {d} {next(iter(serial[d].values()))['t1'] / 1e9 / next(iter(serial[d].values()))['positions']:.2f} s" for d in depths))
    print()
    procs = sorted({p for t in results.values() for p in t})
    header = ["algorithm", "p"] + [f"SPE {d}" for d in depths] + ["1.7 per doubling"] + [f"SO / LD {d}" for d in depths] + [f"W/C {d}" for d in depths]
    rows = []
    for a in algos:
        for p in procs:
            pts = [results[(d, a)][p] for d in depths]
            wc = [f"{t['w_over_c']:.0f}" if t["w_over_c"] else "–" for t in pts]
            rows.append([a, p] + [f"{t['spe']:.2f}" for t in pts] + [f"{per_doubling(p):.1f}"] + [f"{t['so']:.2f} / {t['ld']:.2f}" for t in pts] + wc)
    print(table(header, rows))


if __name__ == "__main__":
    main()
