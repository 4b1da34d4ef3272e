#!/usr/bin/env bash
# A real class of two measured on this machine (issue 68, "Real, on this machine"): a
# `meshmate relay` with an injected delay, one `meshmate join` pinned to one core and
# `meshmate speedup --relay` (processor 0, and the serial reference) pinned to the other,
# YBWC and the other ALGOS on the first POSITIONS Bratko-Kopec positions to DEPTH, at each
# DELAY, its jobs sized to the round trip (SPLIT paced, the default) or split as the papers
# do (SPLIT papers). Prints each run's table (each position, then the totals); the relay
# and the member are ended with it.
#
#   tests/experiments/class_real.sh [DEPTH] [POSITIONS] [DELAYS] [ALGOS] [SPLIT]
#   e.g. tests/experiments/class_real.sh 16 3 "0 10 50" ybwc,jamboree papers
#
# Needs `cargo build --release --features relay` (the default build has the relay) and a
# machine with two cores nothing else uses, or the figures measure the load.
set -euo pipefail

DEPTH=${1:-16}
POSITIONS=${2:-3}
DELAYS=${3:-0 10 50}
ALGOS=${4:-ybwc}
SPLIT=${5:-paced}
source "$(dirname "$0")/split_args.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN="$ROOT/target/release/meshmate"
WORK=$(mktemp -d /tmp/class-real-XXXXXX)
RELAY= MEMBER=
trap 'kill $RELAY $MEMBER 2>/dev/null || true; rm -rf "$WORK"' EXIT
grep -v '^#' "$ROOT/../shared/data/bratko-kopec.epd" | head -n "$POSITIONS" > "$WORK/suite.epd"
head -c 24 /dev/urandom | base64 | tr '+/' '-_' > "$WORK/token"

for delay in $DELAYS; do
  rm -f "$WORK/relay.out" "$WORK/said" "$WORK/table"
  "$BIN" relay --listen 127.0.0.1:0 --delay-ms "$delay" --lecturer-token-file "$WORK/token" > "$WORK/relay.out" &
  RELAY=$!
  until grep -qs listening "$WORK/relay.out"; do sleep 0.1; done
  url=$(head -1 "$WORK/relay.out" | awk '{print $NF}')
  taskset -c 0 "$BIN" speedup --algo "$ALGOS" --suite "$WORK/suite.epd" --depth "$DEPTH" --hash 16 \
    --relay "$url" --members 1 --lecturer-token-file "$WORK/token" "${SPLIT_ARGS[@]}" > "$WORK/table" 2> "$WORK/said" &
  lecturer=$!
  until grep -qs created "$WORK/said"; do sleep 0.1; done
  code=$(head -1 "$WORK/said" | awk '{print $2}')
  taskset -c 1 "$BIN" join "$url" "$code" 2> /dev/null &
  MEMBER=$!
  wait $lecturer
  echo "## delay $delay ms, depth $DEPTH, $POSITIONS positions, $SPLIT split ($(git -C "$ROOT" rev-parse --short HEAD))"
  cat "$WORK/table"
  wait $MEMBER 2>/dev/null || true
  kill $RELAY; wait $RELAY 2>/dev/null || true
done
