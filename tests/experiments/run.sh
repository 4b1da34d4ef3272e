#!/usr/bin/env bash
# Reruns the classic papers' experiments on the simulator and writes docs/experiments.md
# with our figures beside the published ones (tests/experiments/report.py formats it).
#
#   tests/experiments/run.sh [quick|full]     quick: a few minutes; full: about 45 minutes
#
# Everything runs in virtual time, so the figures do not depend on this machine's load;
# only the wall time does. OUT=FILE writes elsewhere; KEEP=1 keeps the raw JSON.
set -euo pipefail

MODE=${1:-quick}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA="$ROOT/../shared/data"
OUT=${OUT:-$ROOT/docs/experiments.md}
BIN="$ROOT/target/release/meshmate"
WORK=$(mktemp -d /tmp/experiments-XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

# Depths per experiment: quick keeps every experiment small; full is what the docs show.
# PERIOD: the depth of the runs with the period's search (--pure: plain alpha-beta with
# quiescence, no null move, reductions or pruning, as the papers' programs searched).
case "$MODE" in
  quick) ZUGZWANG=9 CRAYBLITZ=11 STARTECH=9 TDSAB=10 LAN=11 PERIOD=5 ;;
  full) ZUGZWANG=12 CRAYBLITZ=13 STARTECH=12 TDSAB=12 LAN=13 PERIOD=7 ;;
  *) echo "usage: $0 [quick|full]" >&2; exit 2 ;;
esac

(cd "$ROOT" && nice cargo build --release --quiet --bin meshmate)

# Cray Blitz's 24 positions are the first 24 records of the game file (see its header).
grep -v '^#' "$DATA/crayblitz-1993.epd" | head -24 > "$WORK/crayblitz24.epd"
BK="$DATA/bratko-kopec.epd"

# run NAME ARGS...: one `meshmate sim` experiment, its JSON in $WORK/NAME.json. On a
# terminal each shows which of the experiments it is and its own bar with the time left.
EXPERIMENTS=8 DONE=0
run() {
  local name=$1
  shift
  local start=$SECONDS
  DONE=$((DONE + 1))
  [ -t 2 ] && echo "experiment $DONE of $EXPERIMENTS: $name" >&2
  nice "$BIN" sim "$@" --json > "$WORK/$name.json"
  echo "$name: $((SECONDS - start)) s" | tee -a "$WORK/timing.txt"
}

# Zugzwang's own depth (7 plies) at 64 processors, beside the deeper sweep over p.
run zugzwang7 --algo ybwc --preset t800 --net debruijn --procs 64 --suite "$BK" --depth 7
run zugzwang --algo ybwc --preset t800 --net debruijn --procs 2,4,8,16,32,64 --suite "$BK" --depth "$ZUGZWANG"
run zugzwang-period --algo ybwc --preset t800 --net debruijn --procs 2,4,8,16,32,64 --suite "$BK" --depth "$PERIOD" --pure --tt distributed
run crayblitz-period --algo dts --preset c916 --procs 2,4,8,16 --suite "$WORK/crayblitz24.epd" --depth "$PERIOD" --pure
run crayblitz --algo dts --preset c916 --procs 2,4,8,16 --suite "$WORK/crayblitz24.epd" --depth "$CRAYBLITZ"
run startech --algo jamboree --preset cm5 --procs 1,2,4,8,16,32,64 --suite "$BK" --depth "$STARTECH"
run tdsab --algo tdsab --preset p3-ethernet --procs 8,16,32,64 --suite "$BK" --depth "$TDSAB"
run lan --algo pvsplit,pvsplit-aware --preset lan --procs 3 --suite "$BK" --depth "$LAN"

python3 "$ROOT/tests/experiments/report.py" --mode "$MODE" --dir "$WORK" --out "$OUT" \
  --depths "zugzwang=$ZUGZWANG,crayblitz=$CRAYBLITZ,startech=$STARTECH,tdsab=$TDSAB,lan=$LAN,period=$PERIOD"
echo "wrote $OUT"
