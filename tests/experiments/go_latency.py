#!/usr/bin/env python3
"""How long `go` takes to answer when the search itself costs nothing: `go depth 1` from the
start position, timed from the command to `bestmove` over real pipes, with Threads 1 and 2
taken in turn. The difference between the two is what starting the helper costs each search
(today: a std thread spawned per search and per helper).

    python3 tests/experiments/go_latency.py [target/release/meshmate] [rounds]
"""
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/meshmate"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 300
proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait(prefix):
    while not (line := proc.stdout.readline()).startswith(prefix):
        if not line:
            sys.exit(f"{engine} ended before answering {prefix}")
    return line


send("uci")
wait("uciok")
for threads in (1, 2, 1, 2):
    send(f"setoption name Threads value {threads}")
    send("isready")
    wait("readyok")
    micros = []
    for _ in range(rounds):
        send("position startpos")
        send("isready")
        wait("readyok")
        start = time.perf_counter()
        send("go depth 1")
        wait("bestmove")
        micros.append((time.perf_counter() - start) * 1e6)
    micros.sort()
    print(f"Threads {threads}: go depth 1 to bestmove, median {statistics.median(micros):.0f} µs, tenth percentile {micros[len(micros) // 10]:.0f} µs, over {rounds}")
send("quit")
proc.wait()
