"""Time-to-depth speedup at p ranks of `meshmate-cluster` beside p threads of `meshmate`,
measured in one run, round by round (threads, then ranks with a table per rank, then
ranks with Zugzwang's distributed table), on the first Bratko-Kopec positions. Every
engine measures with its UCI `speedup` command: per position the serial search's time
T(1) and the algorithm's T(p), each round against its own serial reference.

Usage (from the repository, after ./build.sh build):
  python3 tests/cluster/speedup.py [--algo ybwc] [--p 2] [--depth 12] [--positions 12] [--rounds 3] [--hash 16]
      [--machines threads,ranks,distributed]
Prints one row per round and the pooled SPE = sum T(1) / sum T(p), SO and LD per machine,
and the table messages (lookups and stores) of the distributed table.
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fens(positions):
    path = os.path.join(ROOT, "..", "shared", "data", "bratko-kopec.epd")
    with open(path) as f:
        records = [line.split()[:4] for line in f if line.strip() and not line.startswith("#")]
    return ["{} 0 1".format(" ".join(r)) for r in records[:positions]]


def measure(command, setup, args, boards):
    """Rows of one `speedup` run of the engine started by `command`, after the `setup` lines."""
    request = setup + "speedup algo {} threads {} depth {} hash {} fens {}\n".format(args.algo, args.p, args.depth, args.hash, "; ".join(boards))
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    engine.stdin.write(request)
    engine.stdin.flush()
    rows = []
    # `quit` would stop the measurement: it waits for the end.
    for line in engine.stdout:
        if line.startswith("info string speedup {"):
            rows.append(json.loads(line[len("info string speedup "):]))
        elif line.startswith("info string speedup done") or line.startswith("info string error"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    if engine.wait() != 0:
        raise SystemExit(f"{command[0]} exited with {engine.returncode}")
    return rows


def pooled(rows, algo):
    serial = [r for r in rows if r["algorithm"] == "serial"]
    runs = [r for r in rows if r["algorithm"] == algo]
    spe = sum(r["serial_ms"] for r in runs) / max(sum(r["ms"] for r in runs), 1e-3)
    so = sum(r["nodes"] for r in runs) / max(sum(r["nodes"] for r in serial), 1) - 1
    ld = sum(r["load"] for r in runs) / max(len(runs), 1)
    return spe, so, ld, sum(r["ms"] for r in runs), sum(r["serial_ms"] for r in runs)


def table_messages(rows, algo):
    """Table lookups and stores sent in the algorithm's searches."""
    runs = [r for r in rows if r["algorithm"] == algo]
    return sum(r["messages"]["tt-request"] for r in runs), sum(r["messages"]["tt-put"] for r in runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--algo", default="ybwc")
    parser.add_argument("--p", type=int, default=2)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--machines", default="threads,ranks,distributed", help="of threads, ranks (a table per rank), distributed (ranks, one distributed table)")
    args = parser.parse_args()
    boards = fens(args.positions)
    release = os.path.join(ROOT, "target", "release")
    threads = [os.path.join(release, "meshmate")]
    ranks = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(args.p), os.path.join(release, "meshmate-cluster")]
    known = {
        "threads": (threads, ""),
        "ranks": (ranks, "setoption name Table value local\n"),
        "distributed": (ranks, "setoption name Table value distributed\n"),
    }
    names = args.machines.split(",")
    if any(name not in known for name in names):
        raise SystemExit(f"--machines: choose among {', '.join(known)}")
    every = {name: [] for name in names}
    print(f"{args.algo}, p = {args.p}, depth {args.depth}, {len(boards)} Bratko-Kopec positions, hash {args.hash} MiB")
    print(f"{'round':>5} {'machine':<11} {'SPE':>5} {'SO':>6} {'LD':>5} {'T(p) ms':>9} {'T(1) ms':>9}")
    for round in range(1, args.rounds + 1):
        for name in names:
            command, setup = known[name]
            rows = measure(command, setup, args, boards)
            every[name].extend(rows)
            spe, so, ld, tp, t1 = pooled(rows, args.algo)
            print(f"{round:>5} {name:<11} {spe:>5.2f} {so:>6.3f} {ld:>5.2f} {tp:>9.0f} {t1:>9.0f}", flush=True)
    for name, rows in every.items():
        spe, so, ld, tp, t1 = pooled(rows, args.algo)
        lookups, stores = table_messages(rows, args.algo)
        print(f"pooled {name:<11} SPE {spe:.2f}  SO {so:.3f}  LD {ld:.2f}  (sum T(p) {tp:.0f} ms, sum T(1) {t1:.0f} ms; table lookups {lookups}, stores {stores} by message)")


if __name__ == "__main__":
    main()
