#!/usr/bin/env python3
"""Nodes per second of meshmate against other UCI engines, measured in one run.

Every engine searches the positions of meshmate's `bench` (read from its output, so the
list lives in one place) for --seconds each, one thread, the same hash size and a new
game before every search. The engines take turns position by position (the first engine
of each round rotates), so a change in the machine's load falls on all of them alike.

Speed is nodes over the CPU time the engine's process used during the search (read from
/proc), so a search that shared its core with other work is not counted slow; the wall
clock nps the engines report is printed beside it. The last lines are the ratios of
meshmate's nodes per CPU second to each other engine's, over all positions.

Usage: nps.py [--meshmate target/release/meshmate] [--engine /usr/games/glaurung ...]
              [--seconds 2] [--rounds 1]
"""
import argparse
import os
import subprocess

import chess
import chess.engine

# Engines whose default is more than one thread (Debian's Glaurung starts with 2).
ONE_THREAD = {"Threads": 1}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def bench_positions(meshmate):
    """The FENs of meshmate's bench, from the lines `position i/n: N nodes  FEN`."""
    out = subprocess.run([meshmate, "bench", "1"], capture_output=True, text=True, check=True).stdout
    return [line.split("  ", 1)[1].strip() for line in out.splitlines() if line.startswith("position ")]


def cpu_seconds(pid):
    """User plus system CPU time of process `pid` and all its threads so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Contender:
    """One engine process and its totals."""

    def __init__(self, path, hash_mib):
        self.path = path
        self.engine = chess.engine.SimpleEngine.popen_uci(path)
        self.pid = self.engine.transport.get_pid()
        self.name = self.engine.id.get("name", os.path.basename(path))
        options = {"Hash": hash_mib}
        options.update({k: v for k, v in ONE_THREAD.items() if k in self.engine.options})
        self.engine.configure(options)
        self.nodes = 0
        self.cpu = 0.0
        self.per_position = {}

    def search(self, fen, seconds):
        """Searches `fen` for `seconds` in a new game; returns (nodes, cpu s, reported nps)."""
        board = chess.Board(fen)
        before = cpu_seconds(self.pid)
        info = self.engine.analyse(board, chess.engine.Limit(time=seconds), game=object())
        cpu = cpu_seconds(self.pid) - before
        nodes = info.get("nodes", 0)
        self.nodes += nodes
        self.cpu += cpu
        self.per_position.setdefault(fen, [0, 0.0])
        self.per_position[fen][0] += nodes
        self.per_position[fen][1] += cpu
        return nodes, cpu, info.get("nps", 0)

    def nps(self):
        return self.nodes / max(self.cpu, 1e-9)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--meshmate", default="target/release/meshmate")
    parser.add_argument("--engine", action="append", default=None, help="another UCI engine (repeatable)")
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the positions")
    parser.add_argument("--hash", type=int, default=16, help="hash size in MiB for every engine")
    args = parser.parse_args()
    others = args.engine or ["/usr/games/glaurung", "/usr/games/toga2"]

    positions = bench_positions(args.meshmate)
    contenders = [Contender(path, args.hash) for path in [args.meshmate] + others]
    try:
        header = f"{'position':>8} " + " ".join(f"{c.name[:22]:>24}" for c in contenders)
        print(f"{len(positions)} positions, {args.seconds} s each, {args.rounds} round(s); nodes per CPU second (reported nps)")
        print(header)
        turn = 0
        for round_ in range(args.rounds):
            for i, fen in enumerate(positions):
                cells = {}
                for k in range(len(contenders)):
                    c = contenders[(turn + k) % len(contenders)]
                    nodes, cpu, reported = c.search(fen, args.seconds)
                    cells[c.path] = f"{nodes / max(cpu, 1e-9) / 1e3:>9.0f}k ({reported / 1e3:>7.0f}k)"
                turn += 1
                print(f"{round_ + 1}.{i + 1:<6} " + " ".join(f"{cells[c.path]:>24}" for c in contenders), flush=True)
    finally:
        for c in contenders:
            c.engine.quit()

    meshmate = contenders[0]
    print(f"{'total':>8} " + " ".join(f"{c.nps() / 1e3:>23.0f}k" for c in contenders))
    for c in contenders[1:]:
        per_position = [meshmate.per_position[f][0] / max(meshmate.per_position[f][1], 1e-9)
                        / (c.per_position[f][0] / max(c.per_position[f][1], 1e-9)) for f in positions]
        geometric = 1.0
        for r in per_position:
            geometric *= r
        geometric **= 1 / len(per_position)
        print(f"meshmate / {c.name}: {meshmate.nps() / c.nps():.2f} (all nodes over all CPU time), "
              f"{geometric:.2f} (geometric mean of the positions' ratios)")


if __name__ == "__main__":
    main()
