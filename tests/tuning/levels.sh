#!/usr/bin/env bash
# Calibration of the front end's playing levels (www/src/levels.js), as the page plays them:
# meshmate gets each level's UCI options and time per move from levelSearch() (read through
# node, so the script follows the table) and the page's default Hash (settings.js), and plays
# Stockfish 15.1 limited to a UCI_Elo near the level, both colours of each opening of the
# balanced book. Prints each match and the level's performance rating: the opponent's
# UCI_Elo plus the match's Elo difference, with its 95% interval (progress goes to stderr).
#
# The full-strength levels play by time, so a busy machine would weaken them: they search
# instead the nodes meshmate searches in their time on one free core (NPS, measured by
# `bench 15` over its CPU time, or given as NPS=...). The weakened levels stop at a node cap
# long before their time is up, so they get the page's movetime as it is.
#
# Stockfish with UCI_Elo plays the move it picks when its search reaches depth 1 + level
# (level = ((Elo - 1346.6) / 143.4)^(1/0.806), Stockfish 15.1's search.cpp); more search
# changes nothing but the hash contents. So it gets either that depth or a time in which it
# reaches that depth here (tests/tuning/README.md, "Playing levels"), not the level's time.
#
# Usage: tests/tuning/levels.sh [ENGINE] [LEVEL NAME...]
#   (defaults: target/release/meshmate, every level; PAIRS=N overrides each level's pairs)
set -euo pipefail
HERE=$(dirname "$0")
ENGINE=$(realpath "${1:-$HERE/../../target/release/meshmate}")
cd "$HERE"
shift || true
STOCKFISH=/usr/games/stockfish

# The depth at which Stockfish 15.1 picks its move at UCI_Elo $1.
pick_depth() {
  awk -v elo="$1" 'BEGIN { level = elo < 1346.6 ? 0 : ((elo - 1346.6) / 143.4) ^ (1 / 0.806); print 1 + int(level < 20 ? level : 20) }'
}

# The opponent of a level and the match length: "UCI_Elo pairs match.py-limit-arguments".
# Stockfish's UCI_Elo starts at 1350, so the levels below it play 1350.
opponent() {
  case "$1" in
    Beginner | Novice | Casual) echo "1350 25 --second-movetime 0.1" ;;
    Club) echo "1600 25 --second-movetime 0.1" ;;
    'Strong club') echo "1700 25 --second-movetime 0.1" ;;
    Expert) echo "1900 25 --second-movetime 0.1" ;;
    Master) echo "2300 10 --second-depth $(pick_depth 2300)" ;;
    'Full strength') echo "2500 3 --second-depth $(pick_depth 2500)" ;;
    *) echo "no opponent set for level '$1'" >&2; return 1 ;;
  esac
}

# Nodes meshmate searches per second of one core: bench's count over its CPU time.
nodes_per_second() {
  /usr/bin/time -f 'cpu %U %S' nice "$ENGINE" bench 15 2>&1 |
    awk '/^Nodes searched/ { nodes = $4 } /^cpu/ { cpu = $2 + $3 } END { printf "%d", nodes / cpu }'
}

# One line per level: name, seconds per move, then the options as NAME=VALUE (tab-separated).
levels() {
  node --input-type=module -e "
    import { LEVELS, levelSearch } from '../../www/src/levels.js';
    import { DEFAULT_SETTINGS } from '../../www/src/settings.js';
    for (const level of LEVELS) {
      const { options, go } = levelSearch(level, null);
      delete options.MultiPV; // python-chess manages MultiPV itself (the engine's default is 1)
      options.Hash = DEFAULT_SETTINGS.hash;
      const pairs = Object.entries(options).map(([name, value]) => name + '=' + value);
      console.log([level.name, go.movetime / 1000, ...pairs].join('\t'));
    }"
}

NPS=${NPS:-$(nodes_per_second)}
echo "meshmate searches $NPS nodes per second of one core"
levels | while IFS=$'\t' read -r name movetime options; do
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$name"; then continue; fi
  read -r elo pairs opponent_limit <<<"$(opponent "$name")"
  first=()
  for option in $options; do first+=(--first-option "$option"); done
  if [[ $options == *UCI_LimitStrength=true* ]]; then
    limit="${movetime} s"
    first+=(--movetime "$movetime")
  else
    nodes=$(awk -v nps="$NPS" -v s="$movetime" 'BEGIN { printf "%d", nps * s }')
    limit="$nodes nodes (${movetime} s)"
    first+=(--nodes "$nodes")
  fi
  result=$(nice python3 match.py --first "$ENGINE" --second "$STOCKFISH" --openings openings.txt \
    --pairs "${PAIRS:-$pairs}" "${first[@]}" $opponent_limit \
    --second-option UCI_LimitStrength=true --second-option UCI_Elo="$elo" \
    </dev/null | tee >(cat >&2) | tail -2 | paste -sd " " -)
  rating=$(sed -E 's/.*Elo ([-+0-9]+) \(95%: ([-+0-9]+) to ([-+0-9]+)\).*/\1 \2 \3/' <<<"$result" |
    awk -v elo="$elo" '{ printf "%d (95%%: %d to %d)", elo + $1, elo + $2, elo + $3 }')
  # A clean sweep says only on which side of the opponent the level lies, not how far.
  case $result in
    *"score 1.000"*) rating="above $elo: every game won, set a stronger opponent" ;;
    *"score 0.000"*) rating="below $elo: every game lost, set a weaker opponent" ;;
  esac
  echo "$name [${options//$'\t'/ }, $limit] vs Stockfish UCI_Elo $elo ($opponent_limit): $result; rating $rating"
done
