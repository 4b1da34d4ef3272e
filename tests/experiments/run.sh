#!/usr/bin/env bash
# Reruns the five papers' experiments (`meshmate reproduce NAME`) and writes
# docs/experiments.md from them: each paper's JSON goes to docs/experiments/NAME.json with
# the commit it was measured at, and tests/experiments/report.py composes the page from
# every such file, so one paper can be rerun alone after a change to its algorithm.
#
#   tests/experiments/run.sh [quick|full] [NAME...]   NAME: zugzwang crayblitz startech tdsab pvsplit
#
# quick takes well under a minute per paper; full runs each paper's largest experiment that
# fits here (about an hour in all). Everything runs in virtual time: the figures do not depend
# on this machine's load, only the wall time does. DIR=... stores the JSON elsewhere, OUT=...
# writes the page elsewhere.
set -euo pipefail

MODE=${1:-quick}
case "$MODE" in
  quick) FLAG=--quick ;;
  full) FLAG= ;;
  *) echo "usage: $0 [quick|full] [zugzwang|crayblitz|startech|tdsab|pvsplit ...]" >&2; exit 2 ;;
esac
shift || true
NAMES=${*:-zugzwang crayblitz startech tdsab pvsplit}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${DIR:-$ROOT/docs/experiments}
OUT=${OUT:-$ROOT/docs/experiments.md}
BIN="$ROOT/target/release/meshmate"
mkdir -p "$DIR"
WORK=$(mktemp -d /tmp/experiments-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

(cd "$ROOT" && nice cargo build --release --quiet --bin meshmate)
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD)
[ -z "$(git -C "$ROOT" status --porcelain -- crate Cargo.toml Cargo.lock)" ] || COMMIT="$COMMIT+changes"

for name in $NAMES; do
  start=$SECONDS
  [ -t 2 ] && echo "$name ($MODE)" >&2
  nice "$BIN" reproduce "$name" $FLAG --json > "$WORK/$name.run.json"
  "$BIN" reproduce "$name" $FLAG --notes > "$WORK/$name.notes.txt"
  python3 - "$WORK" "$DIR" "$name" "$MODE" "$COMMIT" $((SECONDS - start)) "meshmate reproduce $name $FLAG" <<'PY'
import json, sys
work, directory, name, mode, commit, seconds, command = sys.argv[1:]
with open(f"{work}/{name}.run.json") as f:
    report = json.load(f)
with open(f"{work}/{name}.notes.txt") as f:
    notes = [line.rstrip("\n") for line in f if line.strip()]
record = {"paper": report["paper"], "mode": mode, "commit": commit, "seconds": int(seconds), "command": command.strip(), "notes": notes, "rows": report["rows"]}
with open(f"{directory}/{name}.json", "w") as f:
    json.dump(record, f, indent=1)
    f.write("\n")
PY
  echo "$name: $((SECONDS - start)) s"
done

python3 "$ROOT/tests/experiments/report.py" --dir "$DIR" --out "$OUT"
echo "wrote $OUT"
