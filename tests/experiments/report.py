"""Composes docs/experiments.md from the papers' experiments stored by run.sh
(docs/experiments/NAME.json: `meshmate reproduce NAME --json` with its commit, mode, wall
time and notes). Every published figure comes from the JSON's `published` column, which
the engine takes from stats::papers, checked against ../shared/data/published-figures.md."""

import argparse
import json
import os

# Each paper: its name, title, headline measure and the tolerance issue 40 sets for it
# (ours within that share of the published figure; None: no tolerance set).
PAPERS = [
    ("zugzwang", "Zugzwang: YBWC on T800 Transputers (Feldmann, Mysliwietz, Monien)", "spe", 0.15),
    ("crayblitz", "Cray Blitz: Dynamic Tree Splitting on a Cray C916 (Hyatt)", "mean_speedup", 0.10),
    ("startech", "StarTech: Jamboree on a CM-5 (Kuszmaul)", "t20_ratio", 0.20),
    ("tdsab", "TDSAB: transposition-driven MTD(f) on a Pentium III cluster (Kishimoto, Schaeffer)", "spe", None),
    ("pvsplit", "PV-splitting on three unequal PCs (Hasan)", "reply_speedup", None),
]


def figure(x):
    if x is None:
        return "–"
    if abs(x) >= 1000 or (abs(x) >= 10 and float(x).is_integer()):
        return f"{x:,.0f}"
    return f"{x:.3g}" if abs(x) < 0.01 else f"{x:.2f}"


def ratio(ours, published):
    return f"{ours / published:.2f}" if published else ""


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def suite_rows(record):
    rows = [r for r in record["rows"] if r["position"] is None]
    return table(["measure", "p", "ours", "published", "ours / published"],
                 [[r["measure"], r["p"] if r["p"] is not None else "–", figure(r["ours"]), figure(r["published"]), ratio(r["ours"], r["published"])] for r in rows])


def position_tables(record):
    """Per-position measures, one table per processor count: a row per position, for each
    measure ours and, where printed, the paper's."""
    rows = [r for r in record["rows"] if r["position"] is not None]
    out = []
    for p in sorted({r["p"] for r in rows}, key=lambda p: p or 0):
        at_p = [r for r in rows if r["p"] == p]
        measures = list(dict.fromkeys(r["measure"] for r in at_p))
        positions = list(dict.fromkeys(r["position"] for r in at_p))
        cell = {(r["position"], r["measure"]): r for r in at_p}
        header = ["position"]
        for m in measures:
            header.append(f"{m} ours")
            if any(cell.get((pos, m), {}).get("published") is not None for pos in positions):
                header.append(f"{m} paper")
        body = []
        for pos in positions:
            line = [pos]
            for m in measures:
                r = cell.get((pos, m))
                line.append(figure(r["ours"]) if r else "")
                if f"{m} paper" in header:
                    line.append(figure(r["published"]) if r else "")
            body.append(line)
        out.append(f"Per position, p = {p}:\n\n" + table(header, body))
    return "\n\n".join(out)


def verdict(row, tolerance):
    if tolerance is None or not row["published"]:
        return ""
    off = row["ours"] / row["published"] - 1
    return f", {off:+.0%}, {'within' if abs(off) <= tolerance else 'outside'} ±{tolerance:.0%}"


def section(record, title, headline, tolerance):
    heads = [r for r in record["rows"] if r["measure"] == headline and r["position"] is None]
    summary = ", ".join(f"{figure(r['ours'])} at {r['p']} (paper {figure(r['published'])}{verdict(r, tolerance)})" for r in heads)
    parts = [
        f"## {title}",
        f"`{record['command']}` ({record['mode']}), measured at commit {record['commit']} in {record['seconds']} s of wall time.",
        f"Headline `{headline}`: {summary}.",
        "Conditions and where ours depart from the paper's:\n\n" + "\n".join(f"- {n}" for n in record["notes"]),
        suite_rows(record),
    ]
    per_position = position_tables(record)
    if per_position:
        parts.append(per_position)
    return "\n\n".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sections = []
    for name, title, headline, tolerance in PAPERS:
        path = os.path.join(args.dir, name + ".json")
        if not os.path.exists(path):
            sections.append(f"## {title}\n\nNot run yet: `tests/experiments/run.sh full {name}`.")
            continue
        with open(path) as f:
            sections.append(section(json.load(f), title, headline, tolerance))
    intro = """# The papers' experiments, rerun on the simulator

Each section is one `meshmate reproduce NAME` run, written by `tests/experiments/run.sh
[quick|full] [NAME...]` from the JSON it stores in docs/experiments/ (rerun one paper alone
after changing its algorithm). The published column is the paper's figure as printed
(../shared/data/published-figures.md, checked by tests/papers.rs); a dash means the paper
prints none for that measure. Times are virtual seconds on the simulated machine; the
machines' constants and their sources are in crate/machine/sim/presets.rs. Runs deeper
than these sizes fit in an hour here are measured with `meshmate sim` in
[tdsab-and-pvsplit.md](tdsab-and-pvsplit.md) (TDSAB at 8 plies) and
[work-splitting.md](work-splitting.md) (what each of Jamboree's StarTech rules is worth)."""
    with open(args.out, "w") as f:
        f.write(intro + "\n\n" + "\n\n".join(sections) + "\n")


if __name__ == "__main__":
    main()
