#!/usr/bin/env python3
"""How long `go` takes to answer when the search itself costs nothing: `go depth 1` from the
start position over real pipes, timed from the command to the first `info` line and to
`bestmove`, with Threads 1 and 2 taken in turn. The difference between the two thread counts is
what starting the helper costs each search. Given several engines (an older build beside a
newer one), it runs them side by side, round by round, so that both see the same load.

    python3 tests/experiments/go_latency.py [ENGINE ...] [ROUNDS]

ENGINE defaults to target/release/meshmate, ROUNDS to 300.
"""
import statistics
import subprocess
import sys
import time

engines = [a for a in sys.argv[1:] if not a.isdigit()] or ["target/release/meshmate"]
rounds = next((int(a) for a in sys.argv[1:] if a.isdigit()), 300)


class Engine:
    def __init__(self, path):
        self.path = path
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        while not (line := self.proc.stdout.readline()).startswith(prefix):
            if not line:
                sys.exit(f"{self.path} ended before answering {prefix}")
        return line

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def go(self):
        """Microseconds from `go depth 1` to the first info line and to bestmove."""
        self.send("position startpos")
        self.ready()
        start = time.perf_counter()
        self.send("go depth 1")
        self.wait("info")
        first = time.perf_counter()
        self.wait("bestmove")
        end = time.perf_counter()
        return (first - start) * 1e6, (end - start) * 1e6


players = [Engine(path) for path in engines]
for e in players:
    e.send("uci")
    e.wait("uciok")
print(f"go depth 1, startpos, {rounds} rounds per row; µs, median (tenth percentile)")
print("| engine | Threads | to first info | to bestmove |")
print("|---|---|---|---|")
for threads in (1, 2, 1, 2):
    for e in players:
        e.send(f"setoption name Threads value {threads}")
        e.ready()
    times = {e.path: ([], []) for e in players}
    for _ in range(rounds):
        for e in players:
            first, best = e.go()
            times[e.path][0].append(first)
            times[e.path][1].append(best)
    for e in players:
        cells = []
        for series in times[e.path]:
            series.sort()
            cells.append(f"{statistics.median(series):.0f} ({series[len(series) // 10]:.0f})")
        print(f"| {e.path} | {threads} | {cells[0]} | {cells[1]} |", flush=True)
for e in players:
    e.send("quit")
    e.proc.wait()
