#!/usr/bin/env python3
"""Time-to-depth speedup of any UCI engine at 2 threads over 1, measured over real pipes.

What does this host give two threads of an established engine? `meshmate speedup`
measures meshmate from the inside; this measures any engine (Stockfish, Glaurung, Toga,
or meshmate itself) from the outside, the same way: each position of the suite is
searched to a fixed depth from a fresh engine (empty table, fresh heuristics) with 1
thread and with 2, the order alternating, and the totals pool every round:
SPE = sum T(1) / sum T(2), SO = sum N(2) / sum N(1) - 1, and the nodes-per-second ratio
(N(2)/T(2)) / (2 N(1)/T(1)), 1.0 when both threads keep the speed of one.

  python3 tests/experiments/reference_speedup.py --engine /usr/games/glaurung --depth 14
  python3 tests/experiments/reference_speedup.py --engine target/release/meshmate \\
      --depth 15 --option Algorithm=lazysmp

Needs python-chess (`./build.sh setup`).
"""
import argparse
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tuning"))
from match import option  # noqa: E402  (NAME=VALUE as the match script reads it)


def threads_option(engine: chess.engine.SimpleEngine) -> str:
    """The engine's name for its thread count (Toga calls it "Number of Threads")."""
    for name in ("Threads", "Number of Threads"):
        if name in engine.options:
            return name
    sys.exit("the engine has no Threads option")


def suite_positions(path: Path) -> list[str]:
    """The EPD records' positions as FENs (comments and blank lines skipped)."""
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        sys.exit(f"cannot read the suite: {e}")
    fens = [" ".join(line.split()[:4]) + " 0 1" for line in lines if line.strip() and not line.startswith("#")]
    if not fens:
        sys.exit(f"{path}: no positions")
    return fens


def timed_search(args, options: dict, threads: int, fen: str) -> tuple[float, int]:
    """Seconds and nodes of one search to the depth, from a freshly started engine."""
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        engine.configure({**options, threads_option(engine): threads, "Hash": args.hash})
        start = time.perf_counter()
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=args.depth))
        return time.perf_counter() - start, info.get("nodes", 0)
    finally:
        engine.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="path of a UCI engine")
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--hash", type=int, default=64, help="MiB")
    parser.add_argument("--suite", type=Path, default=ROOT.parent / "shared/data/bratko-kopec.epd")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option set for every search")
    args = parser.parse_args()
    if not Path(args.engine).is_file():
        sys.exit(f"no engine at {args.engine}")
    if any("=" not in o for o in args.option):
        sys.exit("--option takes NAME=VALUE")
    options = dict(option(o) for o in args.option)
    fens = suite_positions(args.suite)
    time_total, node_total, singles = {1: 0.0, 2: 0.0}, {1: 0, 2: 0}, []
    for round_number in range(args.rounds):
        round_time = {1: 0.0, 2: 0.0}
        for i, fen in enumerate(fens):
            for threads in (1, 2) if (i + round_number) % 2 == 0 else (2, 1):
                seconds, nodes = timed_search(args, options, threads, fen)
                round_time[threads] += seconds
                time_total[threads] += seconds
                node_total[threads] += nodes
        singles.append(round_time[1] / round_time[2])
        print(f"round {round_number + 1}: T(1) {round_time[1]:.1f} s  T(2) {round_time[2]:.1f} s  SPE {singles[-1]:.2f}", flush=True)
    spe = time_total[1] / time_total[2]
    so = node_total[2] / max(node_total[1], 1) - 1
    nps_ratio = (node_total[2] / time_total[2]) / (2 * node_total[1] / time_total[1]) if node_total[1] else float("nan")
    print(f"{len(fens)} positions x {args.rounds} rounds, depth {args.depth}: SPE {spe:.2f}  SO {so:.3f}  nodes per second of 2 threads / twice 1's {nps_ratio:.3f}")
    if len(singles) > 1:
        print(f"SPE of single rounds: {min(singles):.2f} to {max(singles):.2f}")


if __name__ == "__main__":
    main()
