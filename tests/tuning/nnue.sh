#!/usr/bin/env bash
# Regenerates the evaluation network from the project's own games, in one command:
#   1. builds the release engine;
#   2. self-play at a fixed node budget from random openings (selfplay.py --scores): every
#      quiet position with the engine's score of it and the game's result;
#   3. trains the network on them (meshmate train-nnue) and writes crate/eval/nnue/default.nnue;
#   4. rebuilds the engine with the new network.
# Usage: tests/tuning/nnue.sh   (settings by environment, defaults in brackets:
#   GAMES [10000], NODES [1500], PLIES (random opening plies) [8], WORKERS [2], SEED [7],
#   EVAL, the evaluation that plays the games (classic or nnue) [classic],
#   EPOCHS [25], LAMBDA [1.0], DATA, where the positions go [target/nnue-positions.txt])
# Everything is seeded: the same engine and settings give the same positions and network.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${GAMES:-10000}
NODES=${NODES:-1500}
PLIES=${PLIES:-8}
WORKERS=${WORKERS:-2}
SEED=${SEED:-7}
EVAL=${EVAL:-classic}
EPOCHS=${EPOCHS:-25}
LAMBDA=${LAMBDA:-1.0}
DATA=${DATA:-target/nnue-positions.txt}
cargo build --release
cp target/release/meshmate target/nnue-datagen-engine
nice -n 19 python3 tests/tuning/selfplay.py --engine target/nnue-datagen-engine --option "Eval=$EVAL" \
  --games "$GAMES" --nodes "$NODES" --random-plies "$PLIES" --workers "$WORKERS" --seed "$SEED" --scores --out "$DATA"
nice -n 19 target/release/meshmate train-nnue "$DATA" --out crate/eval/nnue/default.nnue --epochs "$EPOCHS" --lambda "$LAMBDA"
cargo build --release
