#!/usr/bin/env bash
# Regenerates the evaluation network from the project's own games, in one command:
#   1. builds the release engine;
#   2. self-play at a fixed node budget from random openings (`meshmate datagen`, on
#      WORKERS threads), in ROUNDS rounds of GAMES games, round r seeded SEED + r and written
#      to its own file (DATA/games/datagen-SEED.bin), so a run cut short keeps its finished
#      rounds (a round is finished once DATA/games/runs.log has its line; an unfinished one
#      is played again from its start) and a round already on disk is not played again:
#      every quiet position with the engine's score of it and the game's result;
#   3. trains the network on all rounds' positions (meshmate train-nnue) and writes
#      crate/eval/nnue/default.nnue;
#   4. rebuilds the engine with the new network;
#   5. with NET_ROUNDS > 0 (the default), a second generation: self-play of that network (Eval=nnue) in
#      NET_ROUNDS rounds of NET_GAMES games at NET_NODES nodes, round r seeded NET_SEED + r
#      (DATA/net-games/datagen-SEED.bin), then training again on both generations' positions and
#      rebuilding: the network's own games give it positions it reaches and deeper labels;
#   6. with NET3_ROUNDS > 0 (the default), a third generation: self-play of the network before it in
#      NET3_ROUNDS rounds of NET3_GAMES games at NET3_NODES nodes, round r seeded NET3_SEED + r
#      (DATA/net3-games/datagen-SEED.bin), then training on these positions alone and rebuilding:
#      with 4.3 M positions of its own games the network no longer needs the earlier generations';
#   7. with NET4_ROUNDS > 0 (the default), a fourth generation: self-play of the third network in
#      NET4_ROUNDS rounds of NET4_GAMES games at NET4_NODES nodes, round r seeded NET4_SEED + r
#      (DATA/net4-games/datagen-SEED.bin), then training on the third generation's positions and
#      these together (8.5 M) and rebuilding: the network shipped from 6b4f500;
#   8. with NET5_ROUNDS > 0 (the default), a fifth generation: self-play of the fourth network in
#      NET5_ROUNDS rounds of NET5_GAMES games at NET5_NODES nodes, round r seeded NET5_SEED + r
#      (DATA/net5-games/datagen-SEED.bin), then training on the third, fourth and fifth
#      generations' positions (11.4 M) and rebuilding: the network shipped from c275b65, when HIDDEN became
#      256 (crate/eval/nnue/mod.rs), to the sixth. Every step trains the width HIDDEN says; the first four
#      networks shipped were 128 wide, so the steps before this one no longer remake their files;
#   9. with NET6_ROUNDS > 0 (the default), a sixth generation: self-play of the fifth network in
#      NET6_ROUNDS rounds of NET6_GAMES games at NET6_NODES nodes, round r seeded NET6_SEED + r
#      (DATA/net6-games/datagen-SEED.bin), then the fifth network trained further on these
#      positions alone (`train-nnue --init`), NET6_EPOCHS epochs from rate NET6_RATE, and
#      rebuilding: the network shipped from the sixth generation to the seventh (docs/strength.md);
#  10. with NET7_ROUNDS > 0 (the default), a seventh generation: self-play of the sixth network in
#      NET7_ROUNDS rounds of NET7_GAMES games at NET7_NODES nodes, round r seeded NET7_SEED + r
#      (DATA/net7-games/datagen-SEED.bin), then the sixth network trained further on these
#      positions alone, NET7_EPOCHS epochs from rate NET7_RATE, and rebuilding: the network
#      shipped since the seventh generation.
# Usage: tests/tuning/nnue.sh   (settings by environment, defaults in brackets:
#   ROUNDS [10], GAMES per round [4000], NODES [1500], PLIES (random opening plies) [8],
#   WORKERS [2], SEED (the first round's) [8],
#   EVAL, the evaluation that plays the first generation's games (classic or nnue) [classic],
#   NET_ROUNDS [30], NET_GAMES [1000], NET_NODES [4000], NET_SEED [100],
#   NET3_ROUNDS [58], NET3_GAMES [1000], NET3_NODES [4000], NET3_SEED [200],
#   NET4_ROUNDS [58], NET4_GAMES [1000], NET4_NODES [4000], NET4_SEED [300],
#   NET5_ROUNDS [40], NET5_GAMES [1000], NET5_NODES [4000], NET5_SEED [400],
#   NET6_ROUNDS [60], NET6_GAMES [1000], NET6_NODES [4000], NET6_SEED [500], NET6_EPOCHS [4],
#   NET6_RATE [0.0001],
#   NET7_ROUNDS [35], NET7_GAMES [1000], NET7_NODES [4000], NET7_SEED [600], NET7_EPOCHS [4],
#   NET7_RATE [0.0001],
#   EPOCHS [20], LAMBDA [1.0], DATA, the folder of the rounds' files [target/nnue])
# Everything is seeded: the same engine and settings give the same positions and network.
# A generation with no rounds is skipped, training included. Rounds already in DATA are not
# played again, and training is seeded, so with DATA holding the third to seventh
# generations' rounds (net3-games to net7-games, each with its runs.log),
# `ROUNDS=0 NET_ROUNDS=0 tests/tuning/nnue.sh` plays nothing and trains the shipped network
# (about an hour of one core for the five trainings).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-10}
GAMES=${GAMES:-4000}
NODES=${NODES:-1500}
PLIES=${PLIES:-8}
WORKERS=${WORKERS:-2}
SEED=${SEED:-8}
EVAL=${EVAL:-classic}
NET_ROUNDS=${NET_ROUNDS:-30}
NET_GAMES=${NET_GAMES:-1000}
NET_NODES=${NET_NODES:-4000}
NET_SEED=${NET_SEED:-100}
NET3_ROUNDS=${NET3_ROUNDS:-58}
NET3_GAMES=${NET3_GAMES:-1000}
NET3_NODES=${NET3_NODES:-4000}
NET3_SEED=${NET3_SEED:-200}
NET4_ROUNDS=${NET4_ROUNDS:-58}
NET4_GAMES=${NET4_GAMES:-1000}
NET4_NODES=${NET4_NODES:-4000}
NET4_SEED=${NET4_SEED:-300}
NET5_ROUNDS=${NET5_ROUNDS:-40}
NET5_GAMES=${NET5_GAMES:-1000}
NET5_NODES=${NET5_NODES:-4000}
NET5_SEED=${NET5_SEED:-400}
NET6_ROUNDS=${NET6_ROUNDS:-60}
NET6_GAMES=${NET6_GAMES:-1000}
NET6_NODES=${NET6_NODES:-4000}
NET6_SEED=${NET6_SEED:-500}
NET6_EPOCHS=${NET6_EPOCHS:-4}
NET6_RATE=${NET6_RATE:-0.0001}
NET7_ROUNDS=${NET7_ROUNDS:-35}
NET7_GAMES=${NET7_GAMES:-1000}
NET7_NODES=${NET7_NODES:-4000}
NET7_SEED=${NET7_SEED:-600}
NET7_EPOCHS=${NET7_EPOCHS:-4}
NET7_RATE=${NET7_RATE:-0.0001}
EPOCHS=${EPOCHS:-20}
LAMBDA=${LAMBDA:-1.0}
DATA=${DATA:-target/nnue}
cargo build --release
mkdir -p "$DATA"
# play_rounds ENGINE EVAL ROUNDS GAMES NODES SEED FOLDER: the rounds' files, played unless on disk.
play_rounds() {
  local engine=$1 eval=$2 rounds=$3 games=$4 nodes=$5 first=$6 folder="$DATA/$7"
  for ((round = 0; round < rounds; round++)); do
    local seed=$((first + round))
    local file="$folder/datagen-$seed.bin"
    if ! grep -q "^seed $seed:" "$folder/runs.log" 2>/dev/null; then
      rm -f "$file"
      nice -n 19 "$engine" datagen --out "$folder" --eval "$eval" --games "$games" --nodes "$nodes" \
        --random-plies "$PLIES" --threads "$WORKERS" --seed "$seed"
    fi
    files+=("$file")
  done
}
# train [OPTION...]: trains on `files` with train-nnue's OPTIONs (EPOCHS epochs when none are
# given), writing the shipped network, and rebuilds.
train() {
  (($# > 0)) || set -- --epochs "$EPOCHS"
  nice -n 19 target/release/meshmate train-nnue "${files[@]}" --out crate/eval/nnue/default.nnue --lambda "$LAMBDA" "$@"
  cargo build --release
}
# generation FOLDER EVAL ROUNDS GAMES NODES SEED [OPTION...]: unless ROUNDS is 0, plays the
# rounds with the engine as built now (kept as DATA/engine-FOLDER), trains on `files` (with
# train-nnue's OPTIONs) and rebuilds.
generation() {
  (($3 > 0)) || return 0
  cp target/release/meshmate "$DATA/engine-$1"
  play_rounds "$DATA/engine-$1" "$2" "$3" "$4" "$5" "$6" "$1"
  train "${@:7}"
}
files=()
generation games "$EVAL" "$ROUNDS" "$GAMES" "$NODES" "$SEED"
generation net-games nnue "$NET_ROUNDS" "$NET_GAMES" "$NET_NODES" "$NET_SEED"
files=()  # the third generation trains on its own positions alone
generation net3-games nnue "$NET3_ROUNDS" "$NET3_GAMES" "$NET3_NODES" "$NET3_SEED"
# the fourth trains on the third's positions and its own
generation net4-games nnue "$NET4_ROUNDS" "$NET4_GAMES" "$NET4_NODES" "$NET4_SEED"
# the fifth, on all three generations' positions
generation net5-games nnue "$NET5_ROUNDS" "$NET5_GAMES" "$NET5_NODES" "$NET5_SEED"
# the sixth: the fifth network, as just written, trained further on the sixth's positions alone
files=()
generation net6-games nnue "$NET6_ROUNDS" "$NET6_GAMES" "$NET6_NODES" "$NET6_SEED" \
  --init crate/eval/nnue/default.nnue --epochs "$NET6_EPOCHS" --rate "$NET6_RATE"
# the seventh: the sixth network, as just written, trained further on the seventh's positions alone
files=()
generation net7-games nnue "$NET7_ROUNDS" "$NET7_GAMES" "$NET7_NODES" "$NET7_SEED" \
  --init crate/eval/nnue/default.nnue --epochs "$NET7_EPOCHS" --rate "$NET7_RATE"
