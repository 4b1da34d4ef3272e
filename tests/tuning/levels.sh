#!/usr/bin/env bash
# Calibration of the front end's playing levels (www/src/levels.js), as the page plays them:
# meshmate gets each level's UCI options and time per move from levelSearch() (read through
# node, so the script follows the table) and the page's default Hash (settings.js), and plays
# Stockfish 15.1 limited to a UCI_Elo near the level, both colours of each opening of the
# balanced book. Prints each match and the level's performance rating: the opponent's
# UCI_Elo plus the match's Elo difference, with its 95% interval.
#
# Stockfish's time per move: with UCI_Elo it picks its move when its search reaches depth
# 1 + level (level = ((Elo - 1346.6) / 143.4)^(1/0.806), Stockfish 15.1's search.cpp), and
# more time changes nothing but the hash contents; so it gets the least time in which it
# reaches that depth here (tests/tuning/README.md, "Playing levels"), not the level's.
#
# Usage: tests/tuning/levels.sh [ENGINE] [LEVEL NAME...]
#   (defaults: target/release/meshmate, every level; PAIRS=N overrides each level's pairs)
set -euo pipefail
HERE=$(dirname "$0")
ENGINE=$(realpath "${1:-$HERE/../../target/release/meshmate}")
cd "$HERE"
shift || true
STOCKFISH=/usr/games/stockfish

# The opponent of a level and the match length: "UCI_Elo seconds-per-move pairs".
# Stockfish's UCI_Elo starts at 1350, so the two levels below it play 1350.
opponent() {
  case "$1" in
    Beginner | Novice | Casual) echo "1350 0.1 25" ;;
    Club) echo "1600 0.1 25" ;;
    'Strong club') echo "1700 0.1 25" ;;
    Expert) echo "1900 0.1 25" ;;
    Master) echo "2400 1 10" ;;
    'Full strength') echo "2500 2 4" ;;
    *) echo "no opponent set for level '$1'" >&2; return 1 ;;
  esac
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

levels | while IFS=$'\t' read -r name movetime options; do
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$name"; then continue; fi
  read -r elo opponent_movetime pairs <<<"$(opponent "$name")"
  first_options=()
  for option in $options; do first_options+=(--first-option "$option"); done
  result=$(nice python3 match.py --first "$ENGINE" --second "$STOCKFISH" --openings openings.txt \
    --pairs "${PAIRS:-$pairs}" --movetime "$movetime" --second-movetime "$opponent_movetime" \
    "${first_options[@]}" --second-option UCI_LimitStrength=true --second-option UCI_Elo="$elo" \
    </dev/null | tail -2 | paste -sd " " -)
  rating=$(sed -E 's/.*Elo ([-+0-9]+) \(95%: ([-+0-9]+) to ([-+0-9]+)\).*/\1 \2 \3/' <<<"$result" |
    awk -v elo="$elo" '{ printf "%d (95%%: %d to %d)", elo + $1, elo + $2, elo + $3 }')
  echo "$name [${options//$'\t'/ }, ${movetime} s] vs Stockfish UCI_Elo $elo at ${opponent_movetime} s: $result; rating $rating"
done
