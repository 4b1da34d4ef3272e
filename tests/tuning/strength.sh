#!/usr/bin/env bash
# Strength figures of a meshmate binary against Debian's engines, at 0.1 s per move from
# the balanced opening book, both colours per opening (a fixed time per move rather than a
# clock: Stockfish with UCI_LimitStrength overshoots 3 s + 0.05 s clocks and forfeits):
#   1. Stockfish 15.1 limited to UCI_Elo 1800 (PAIRS pairs), then 2100, 2400, 2700
#      (PAIRS/3 pairs each): the calibrated ladder;
#   2. glaurung at full strength;
#   3. meshmate's own UCI_Elo levels against Stockfish at the same UCI_Elo (calibration).
# Usage: tests/tuning/strength.sh [ENGINE] [PAIRS]   (defaults: target/release/meshmate, 50)
set -euo pipefail
cd "$(dirname "$0")"
ENGINE=$(realpath "${1:-../../target/release/meshmate}")
PAIRS=${2:-50}
STOCKFISH=/usr/games/stockfish
match() { python3 match.py --first "$ENGINE" --movetime 0.1 --openings openings.txt "$@" | tail -2 | paste -sd " " -; }

for elo in 1800 2100 2400 2700; do
  pairs=$([ $elo = 1800 ] && echo "$PAIRS" || echo $((PAIRS / 3)))
  echo "vs Stockfish UCI_Elo $elo: $(match --second $STOCKFISH --pairs "$pairs" \
    --second-option UCI_LimitStrength=true --second-option UCI_Elo=$elo)"
done
echo "vs glaurung: $(match --second /usr/games/glaurung --pairs $((PAIRS / 3)))"
for elo in 1400 1800 2200; do
  echo "meshmate UCI_Elo $elo vs Stockfish UCI_Elo $elo: $(match --second $STOCKFISH --pairs $((PAIRS / 5)) \
    --first-option UCI_LimitStrength=true --first-option UCI_Elo=$elo \
    --second-option UCI_LimitStrength=true --second-option UCI_Elo=$elo)"
done
