"""Formats the papers' experiments (the JSON of `meshmate sim --json`, one file per
experiment, written by run.sh) as docs/experiments.md: our figures beside the published
ones, with what the differences mean. Only figures from the papers as cited in the project's
issues are quoted; where none was at hand the table says so."""

import argparse
import datetime
import json
import os
import statistics


def load(directory, name):
    with open(os.path.join(directory, name + ".json")) as f:
        return json.load(f)


def by_procs(rows, algorithm):
    """Rows of one algorithm grouped by processor count, in increasing order."""
    groups = {}
    for r in rows:
        if r["algorithm"] == algorithm:
            groups.setdefault(r["processors"], []).append(r)
    return sorted(groups.items())


def totals(group):
    """The suite's totals: SPE = sum T(1) / sum T(p), SO = sum N(p) / sum N(1) - 1,
    the mean per-position speedup, mean LD and overheads, W / C over the suite."""
    t1 = sum(r["serial_ns"] for r in group)
    tp = sum(r["time_ns"] for r in group)
    n1 = sum(r["serial_nodes"] for r in group)
    np_ = sum(r["nodes"] for r in group)
    spans = [r["critical_path_ns"] for r in group if r["critical_path_ns"] is not None]
    work = sum(r["work_ns"] for r in group)
    return {
        "spe": t1 / max(tp, 1),
        "mean_spe": statistics.mean(r["speedup"] for r in group),
        "so": np_ / max(n1, 1) - 1,
        "ld": statistics.mean(r["load"] for r in group),
        "sync": statistics.mean(r["synchronization"] for r in group),
        "comm": statistics.mean(r["communication"] for r in group),
        "t1": t1,
        "tp": tp,
        "work": work,
        "span": sum(spans) if len(spans) == len(group) else None,
        "positions": len(group),
    }


def speedup_row(label, t, published):
    """A row of the speedup tables: label, SPE, mean SPE per position, SO, LD, published."""
    return [label, f"{t['spe']:.2f}", f"{t['mean_spe']:.2f}", f"{t['so']:.3f}", f"{t['ld']:.2f}", published]


def parallelism_at_most(groups):
    """The largest W/C of the suite over the processor counts."""
    values = [t["work"] / t["span"] for t in (totals(g) for _, g in groups) if t["span"]]
    return max(values, default=float("nan"))


def seconds(ns):
    return f"{ns / 1e9:.3f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def mean_serial_nodes(data):
    serial = {r["position"]: r["serial_nodes"] for r in data["rows"]}
    return sum(serial.values()) / max(1, len(serial))


def period_rows(data, algorithm, published_at, published):
    """The speedup rows of a run with the period's search, the published figure beside p."""
    return [speedup_row(p, totals(g), published if p == published_at else "") for p, g in by_procs(data["rows"], algorithm)]


def zugzwang(data, at_seven, period, depth, period_depth):
    groups = by_procs(data["rows"], "ybwc")
    period_groups = by_procs(period["rows"], "ybwc")
    period64 = next((totals(g)["spe"] for p, g in period_groups if p == 64), float("nan"))
    rows = [speedup_row(p, totals(g), "34.77 (7 plies)" if p == 64 else "") for p, g in groups]
    seven = totals(at_seven["rows"])
    rows.append(speedup_row("64 at 7 plies", seven, "34.77 (7 plies)"))
    spe64 = next((totals(g)["spe"] for p, g in groups if p == 64), None)
    return f"""## Zugzwang: YBWC on a DeBruijn network of T800 Transputers

**Paper.** R. Feldmann, B. Monien, P. Mysliwietz, O. Vornberger, "Distributed game-tree
search", ICCA Journal 12(2), 1989 / the 1990 Transputer papers: Figure 5 gives, per
Bratko-Kopec position, N, T for 1 and p processors, LD, SO and SPE; SPE(64) = **34.77** at
7 plies (the figure quoted in the project's issue #5; the other columns of Figure 5 were not
at hand and are not quoted).

**Setup here.** `meshmate sim --algo ybwc --preset t800 --net debruijn --procs 2,...,64
--suite bratko-kopec.epd --depth {depth}`: T800 constants as documented in
`crate/machine/sim/presets.rs` (2 ms per node, 100 µs per hop, 30 µs send overhead), DB(n)
in Zugzwang's modified form, 24 positions, one shared table (Zugzwang's was distributed),
T(1) = the serial searcher on one T800.

{table(["p", "SPE (ΣT1/ΣTp)", "mean SPE per position", "SO", "LD", "published SPE"], rows)}

**With the period's search.** Zugzwang searched full width: alpha-beta with quiescence,
no null move, no reductions. `--pure` makes our searcher do the same (the move ordering and
the table stay), with the table distributed as Zugzwang's was (`--tt distributed`: entry h
at processor h mod p, reached by routed messages), and at {period_depth} plies it searches {mean_serial_nodes(period):.0f} nodes per Bratko-Kopec
position on average:

{table(["p", "SPE (ΣT1/ΣTp)", "mean SPE per position", "SO", "LD", "published SPE"], period_rows(period, "ybwc", 64, "34.77 (7 plies)"))}

**Ours beside theirs.** With the period's search, SPE(64) = **{period64:.2f}** at {period_depth} plies against
Zugzwang's 34.77 at 7 plies. With our own selective search, SPE(64) = {seven['spe']:.2f} at 7 plies and
{spe64:.2f} at {depth} plies. The gap is the trees' size: our searcher (null move, late
move reductions, a tuned move order) searches a 7-ply Bratko-Kopec position in
{mean_serial_nodes(at_seven):.0f} nodes on average and a {depth}-ply one in {mean_serial_nodes(data):.0f}, that is
{mean_serial_nodes(at_seven) / 64:.0f} and {mean_serial_nodes(data) / 64:.0f} nodes per processor at p = 64. Messages are cheap
here (a T800 node takes 2 ms, a hop 0.1 ms), so what limits us is the work there is to
share, not the network: SO grows to several times N(1). Figure 5's node counts were not at hand;
a 1990 alpha-beta without null move or reductions searches far larger 7-ply trees, which is
what kept 64 Transputers busy. The load LD falls and the search overhead SO grows with p,
the trend Figure 5 shows, only much sooner.
"""


def crayblitz(data, period, depth, period_depth):
    groups = by_procs(data["rows"], "dts")
    period16 = next((totals(g)["mean_spe"] for p, g in by_procs(period["rows"], "dts") if p == 16), float("nan"))
    rows = [speedup_row(p, totals(g), "11.1 (mean per position)" if p == 16 else "") for p, g in groups]
    mean16 = next((totals(g)["mean_spe"] for p, g in groups if p == 16), None)
    per_position = [g for p, g in groups if p == 16]
    detail = ""
    if per_position:
        cells = [[f"CB.{r['position']:02d}", r["serial_nodes"], r["nodes"], f"{r['speedup']:.2f}"] for r in per_position[0]]
        detail = "\nPer position at p = 16:\n\n" + table(["position", "N(1)", "N(16)", "SPE"], cells) + "\n"
    return f"""## Cray Blitz: DTS on a 16-CPU Cray C916

**Paper.** R. Hyatt, "The DTS high-performance parallel tree search algorithm" (Cray Blitz,
Table 6): time-to-depth speedups on the 24 positions of the game Mchess Pro – Cray Blitz
(ACM 1993) for 1, 2, 4, 8 and 16 processors; the 16-processor average is **11.1** (quoted in
issue #5; the other averages of Table 6 were not at hand and are not quoted).

**Setup here.** `meshmate sim --algo dts --preset c916 --procs 2,4,8,16 --depth {depth}` on
CB.01–CB.24 of `crayblitz-1993.epd` (the same 24 positions), shared memory modelled as a
zero-latency bus with 1 µs per "message" (a lock and a few writes), 3 µs per node.

{table(["p", "SPE (ΣT1/ΣTp)", "mean SPE per position", "SO", "LD", "published"], rows)}
{detail}
**With the period's search** (`--pure`: full width with quiescence, {period_depth} plies, {mean_serial_nodes(period):.0f} nodes per
position on average; Cray Blitz used null move, so this is the full-width bound of its trees):

{table(["p", "SPE (ΣT1/ΣTp)", "mean SPE per position", "SO", "LD", "published"], period_rows(period, "dts", 16, "11.1 (mean per position)"))}

**Ours beside theirs.** The 16-processor average is **{period16:.2f}** with the period's search and
{mean16:.2f} with our selective one, against 11.1. At {depth} plies our
trees have {mean_serial_nodes(data):.0f} nodes on average; Table 6's node counts were not at hand, so
how much larger Cray Blitz's trees were cannot be said here. What the table shows: the load LD
falls to about a half at 16 while SO stays small, so DTS's choice of split points (ALL nodes,
never CUT) wastes little work; it runs short of split points deep enough to share, which
larger trees (deeper searches, a less selective searcher) would supply.
"""


def startech(data, depth):
    groups = by_procs(data["rows"], "jamboree")
    fit = next((f for f in data["fits"] if f["algorithm"] == "jamboree"), None)
    rows = []
    for p, g in groups:
        t = totals(g)
        model = ""
        if fit and t["span"] is not None:
            model = seconds(fit["a"] * t["work"] / p + fit["b"] * t["span"])
        span = seconds(t["span"]) if t["span"] is not None else "-"
        parallelism = f"{t['work'] / t['span']:.2f}" if t["span"] else "-"
        rows.append([p, seconds(t["tp"]), seconds(t["work"]), span, parallelism, model, f"{t['spe']:.2f}"])
    fit_text = "no fit (fewer than two runs)"
    if fit:
        fit_text = f"a = **{fit['a']:.3f}**, b = **{fit['b']:.3f}** over {fit['runs']} runs (every position at every p), rms relative error {100 * fit['rms_relative_error']:.1f} %"
    return f"""## StarTech: Jamboree on a CM-5, work and critical path

**Paper.** B. Kuszmaul, "Synchronized MIMD computing" (MIT thesis, 1994) and the StarTech
papers: work W and critical path C measured by timestamping, average parallelism W/C, and
the fit T_P ≈ a·W/P + b·C. The published a and b were not at hand here and are not quoted
(Cilk's model, from the same group, has a = b = 1 as its ideal).

**Setup here.** `meshmate sim --algo jamboree --preset cm5 --procs 1,...,64 --depth {depth}`
on Bratko-Kopec, the CM-5's 4-ary fat tree. W = busy virtual time of all processors. C is
the span of the searched tree as Cilk and StarTech time it: every node's own work, its
null-move tests and its eldest move in series, its later moves in parallel (each with its
test and re-searches), whoever searched them — a subproblem's span comes back with its
result (`crate/search/searcher/span.rs`); counted in nodes and turned into time at the run's
mean busy time per node.

{table(["P", "T_P (s, ΣT)", "W (s)", "C (s)", "W/C", "a·W/P + b·C (s)", "SPE"], rows)}

Fit: {fit_text}.

**What it means.** C hardly moves with P: it is the span of the tree, and the trees
searched on more processors differ little. W grows with the search overhead, so the average
parallelism W/C rises with P, to {parallelism_at_most(groups):.0f} at 64. That is why speedup levels off
long before 64 processors at this depth: T_P cannot fall below C. The fit weighs the
critical path several times more than an ideal greedy scheduler would (b = 1 in Cilk's
bound): Jamboree's re-searches, and its wait for all tests of a node before it re-searches,
lengthen the path the machine actually follows beyond the span of the tree.
"""


def tdsab(data, depth):
    groups = by_procs(data["rows"], "tdsab")
    rows = []
    for p, g in groups:
        t = totals(g)
        rows.append([p, f"{t['spe']:.2f}", f"{t['so']:.3f}", f"{t['ld']:.2f}", f"{t['sync']:.3f}", f"{t['comm']:.3f}"])
    return f"""## TDSAB: speedup and overheads at 8 to 64 processors

**Paper.** A. Kishimoto and J. Schaeffer, "Distributed game-tree search using transposition
table driven work scheduling", ICPP 2002, Tables 1–2: speedups and the search,
synchronization and communication overheads on a cluster of 64 workstations. Their figures
were not at hand here and are not quoted.

**Setup here.** `meshmate sim --algo tdsab --preset p3-ethernet --procs 8,16,32,64 --depth
{depth}` on Bratko-Kopec: Pentium III PCs on switched 100 Mb/s Ethernet (60 µs per hop,
25 µs send overhead, 2 µs per node). Synchronization overhead = idle share of all
processors' time until the last one finished; communication overhead = busy share spent
sending messages and in steps that only handled messages (`crate/machine/sim/measures.rs`).
C is not timed for TDSAB yet: it would take a clock on each node message and on each value
sent back to the expanded parent (which takes the largest), in `crate/parallel/tdsab/`,
which this change did not touch; the table shows `-` rather than a guess.

{table(["p", "SPE", "SO", "LD", "synchronization", "communication"], rows)}

**What it means.** TDSAB's loss is idle time, not messages: every MTD(f) pass ends at a
barrier (the next pass needs the root's value), and the eldest child of each shared node
runs alone; the communication share stays small because a node's work dwarfs a message on
this cluster (see `crate/parallel/tdsab/README.md`).
"""


def lan(data, depth):
    rows = []
    plain = {r["position"]: r for r in data["rows"] if r["algorithm"] == "pvsplit"}
    aware = {r["position"]: r for r in data["rows"] if r["algorithm"] == "pvsplit-aware"}
    for name in ["pvsplit", "pvsplit-aware"]:
        for p, g in by_procs(data["rows"], name):
            t = totals(g)
            rows.append([name, p, seconds(t["tp"]), f"{t['spe']:.2f}", f"{t['so']:.3f}", f"{t['ld']:.2f}", f"{t['comm']:.3f}"])
    ratio = sum(r["time_ns"] for r in aware.values()) / max(1, sum(r["time_ns"] for r in plain.values()))
    faster = sum(1 for k in plain if aware[k]["time_ns"] < plain[k]["time_ns"])
    slower = sum(1 for k in plain if aware[k]["time_ns"] > plain[k]["time_ns"])
    return f"""## PV-splitting on three unequal machines, with and without CPU availability

**Paper.** PV-splitting on a LAN of unequal workstations with workers chosen by predicted
CPU availability (DESIGN.md, "pvsplit"). Its figures were not at hand here and are not quoted.

**Setup here.** `meshmate sim --algo pvsplit,pvsplit-aware --preset lan --procs 3 --depth
{depth}` on Bratko-Kopec: three PCs at 10, 16 and 28 µs per node, each given 30 % to 100 %
of its CPU in 50 ms windows (background users), TCP over shared 10 Mb/s Ethernet (500 µs per
message on the one medium, 200 µs send overhead). T(1) is the serial search on the fastest
PC. `pvsplit-aware` (`crate/parallel/pvsplit_aware.rs`): each processor measures its speed
(nodes per ms of busy time, which includes the load it suffers) and sends it with each work
request; the owner gives a slower requester a deeper split point (one ply per factor 2 of
speed) or none, and serves the fastest first.

{table(["algorithm", "p", "ΣT (s)", "SPE", "SO", "LD", "communication"], rows)}

**Aware against plain:** total time ratio {ratio:.3f}; faster on {faster} positions, slower on
{slower}, equal on the rest (same runs, deterministic).

**What it means.** On such a LAN plain PV-splitting loses to the serial search on the fastest
PC: a principal-variation node waits for its last son, and the last son often sits on the
slowest, busiest PC, while each message costs some seventy node times. Sizing the work by
measured speed keeps big subtrees off slow machines, and gives the slowest one work only
where a small enough subtree exists.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--depths", required=True)
    args = parser.parse_args()
    depths = dict(item.split("=") for item in args.depths.split(","))
    timing = ""
    timing_file = os.path.join(args.dir, "timing.txt")
    if os.path.exists(timing_file):
        with open(timing_file) as f:
            timing = ", ".join(line.strip() for line in f if line.strip())
    sections = [
        zugzwang(load(args.dir, "zugzwang"), load(args.dir, "zugzwang7"), load(args.dir, "zugzwang-period"), depths["zugzwang"], depths["period"]),
        crayblitz(load(args.dir, "crayblitz"), load(args.dir, "crayblitz-period"), depths["crayblitz"], depths["period"]),
        startech(load(args.dir, "startech"), depths["startech"]),
        tdsab(load(args.dir, "tdsab"), depths["tdsab"]),
        lan(load(args.dir, "lan"), depths["lan"]),
    ]
    today = datetime.date.today().isoformat()
    head = f"""# The papers' experiments, rerun on the simulator

Written by `tests/experiments/run.sh {args.mode}` on {today} (wall time per experiment:
{timing or "not recorded"}). Every figure is in virtual time on `meshmate sim`, hence the same
on any machine for the same build; rerun with `tests/experiments/run.sh full` (about 45 minutes
here, on a shared 2-core machine) or `quick` (a few minutes, at smaller depths). SPE = T(1)/T(p) with T(1) the serial searcher on
one processor of the same machine; SO = N(p)/N(1) − 1; LD = mean busy share (Zugzwang's
definitions). Published figures are quoted only where the project's issues cite them; the
others are marked as not at hand rather than recalled.
"""
    with open(args.out, "w") as f:
        f.write(head + "\n" + "\n".join(sections))


if __name__ == "__main__":
    main()
