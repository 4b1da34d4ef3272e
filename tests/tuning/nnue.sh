#!/usr/bin/env bash
# Regenerates the evaluation network from the project's own games, in one command:
#   1. builds the release engine;
#   2. self-play at a fixed node budget from random openings (selfplay.py --scores), in
#      ROUNDS rounds of GAMES games, round r seeded SEED + r and written to its own file
#      (DATA/games-SEED.txt), so a run cut short keeps its finished rounds and a round
#      already on disk is not played again: every quiet position with the engine's score of
#      it and the game's result;
#   3. trains the network on all rounds' positions (meshmate train-nnue) and writes
#      crate/eval/nnue/default.nnue;
#   4. rebuilds the engine with the new network.
# Usage: tests/tuning/nnue.sh   (settings by environment, defaults in brackets:
#   ROUNDS [10], GAMES per round [4000], NODES [1500], PLIES (random opening plies) [8],
#   WORKERS [2], SEED (the first round's) [8],
#   EVAL, the evaluation that plays the games (classic or nnue) [classic],
#   EPOCHS [20], LAMBDA [1.0], DATA, the folder of the rounds' files [target/nnue])
# Everything is seeded: the same engine and settings give the same positions and network.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-10}
GAMES=${GAMES:-4000}
NODES=${NODES:-1500}
PLIES=${PLIES:-8}
WORKERS=${WORKERS:-2}
SEED=${SEED:-8}
EVAL=${EVAL:-classic}
EPOCHS=${EPOCHS:-20}
LAMBDA=${LAMBDA:-1.0}
DATA=${DATA:-target/nnue}
cargo build --release
mkdir -p "$DATA"
cp target/release/meshmate "$DATA/engine"
files=()
for ((round = 0; round < ROUNDS; round++)); do
  seed=$((SEED + round))
  file="$DATA/games-$seed.txt"
  if [ ! -s "$file" ]; then
    nice -n 19 python3 tests/tuning/selfplay.py --engine "$DATA/engine" --option "Eval=$EVAL" \
      --games "$GAMES" --nodes "$NODES" --random-plies "$PLIES" --workers "$WORKERS" --seed "$seed" --scores --out "$file.partial"
    mv "$file.partial" "$file"
  fi
  files+=("$file")
done
nice -n 19 target/release/meshmate train-nnue "${files[@]}" --out crate/eval/nnue/default.nnue --epochs "$EPOCHS" --lambda "$LAMBDA"
cargo build --release
