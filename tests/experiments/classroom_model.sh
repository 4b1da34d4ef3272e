#!/usr/bin/env bash
# The classroom model's time-to-depth speedups (issue 68, "Figures", Model; docs/class.md,
# "The model's speedups"): `meshmate sim` on the classroom presets, each processor with a
# table of its own of 16 MiB (`--tt local --hash 16×P`, as `meshmate join` sizes its own),
# speedup = T(1) / T(P) summed over the positions, T(1) the same algorithm on one
# processor with one 16 MiB table. Prints a markdown table, one row per preset and
# algorithm. Everything runs in virtual time: the figures do not depend on this machine's
# load, only the wall time does (the simulator computes every node, about 1.5 M nodes a
# second of one core here).
#
#   tests/experiments/classroom_model.sh [DEPTH] [POSITIONS] [ALGOS] [PRESETS] [PROCS] [SPLIT]
#
# DEPTH 16; POSITIONS 8 (Bratko-Kopec 1 to POSITIONS); ALGOS ybwc,jamboree,pvsplit,aphid;
# PRESETS classroom,classroom-10ms,classroom-50ms; PROCS 2,4,8,16,32; SPLIT paced (jobs
# sized to the round trip, the default) or papers (`sim --papers-split`). Build first with
# `cargo build --release` (BIN=... runs another binary); run it niced.
set -euo pipefail

DEPTH=${1:-16}
POSITIONS=${2:-8}
ALGOS=${3:-ybwc,jamboree,pvsplit,aphid}
PRESETS=${4:-classroom,classroom-10ms,classroom-50ms}
PROCS=${5:-2,4,8,16,32}
SPLIT=${6:-paced}
source "$(dirname "$0")/split_args.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/target/release/meshmate}
WORK=$(mktemp -d /tmp/classroom-model-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
grep -v '^#' "$ROOT/../shared/data/bratko-kopec.epd" | head -n "$POSITIONS" > "$WORK/positions.epd"

# T(P) in virtual seconds, summed over the positions, of ALGO on PRESET with P processors.
time_to_depth() {
  local preset=$1 algo=$2 procs=$3
  "$BIN" sim --preset "$preset" --algo "$algo" --procs "$procs" --depth "$DEPTH" --suite "$WORK/positions.epd" \
    --tt local --hash $((16 * procs)) "${SPLIT_ARGS[@]}" > "$WORK/run.txt"
  awk -v p="$procs" '$1 == "'"$algo"'" && $2 == "p=" p { for (i = 1; i < NF; i++) if ($i == "T(p)") print $(i + 1) }' "$WORK/run.txt"
}

IFS=, read -r -a procs <<< "$PROCS"
header="| preset | algorithm | T(1) s |"
rule="|---|---|---|"
for p in "${procs[@]}"; do
  header+=" $p |"
  rule+="---|"
done
echo "Depth $DEPTH, Bratko-Kopec 1-$POSITIONS, local 16 MiB tables, $SPLIT split, time-to-depth speedup over one processor (virtual time)"
echo
echo "$header"
echo "$rule"
IFS=, read -r -a presets <<< "$PRESETS"
IFS=, read -r -a algos <<< "$ALGOS"
for preset in "${presets[@]}"; do
  for algo in "${algos[@]}"; do
    one=$(time_to_depth "$preset" "$algo" 1)
    row="| $preset | $algo | $one |"
    for p in "${procs[@]}"; do
      t=$(time_to_depth "$preset" "$algo" "$p")
      row+=" $(awk -v a="$one" -v b="$t" 'BEGIN { printf "%.2f", a / b }') |"
    done
    echo "$row"
  done
done
