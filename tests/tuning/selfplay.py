#!/usr/bin/env python3
"""Self-play games of a UCI engine, written as a position file for the Texel tuner.

Each game starts with a few random legal moves (a seeded generator, so a run is
reproducible), then the engine plays both sides with a fixed node budget. Games end by
the rules (mate, stalemate, repetition, fifty moves, insufficient material), by
adjudication (the engine's score beyond --adjudicate centipawns for four plies in a row),
or as a draw after --max-plies. Every quiet position after the random opening (side to
move not in check, played move neither a capture, a promotion nor a check) is written as
`FEN;result` with the game's result, the format `meshmate::eval::tune::load_positions`
reads. With --scores each line also carries the engine's score of the position (White's
view, centipawns; positions scored as mates are left out): `FEN;result;score`, the
format the network trainer reads (`meshmate train-nnue`).

Usage: selfplay.py --engine target/release/meshmate --games 400 --out positions.txt
Needs python-chess (build.sh setup installs it).
"""
import argparse
import multiprocessing
import random
import sys

import chess
import chess.engine

from games import is_quiet, random_opening, run_game


def option(text):
    """'NAME=VALUE' as (NAME, VALUE)."""
    name, _, value = text.partition("=")
    return name, value


def play_game(engine, game_id, rng, args):
    """Plays one game; returns (result, quiet FENs), or (None, []) if the random opening ended it."""
    board = random_opening(rng, args.random_plies)
    if board is None:
        return None, []
    fens = []
    limits = {"nodes": args.nodes, "max_plies": args.max_plies, "adjudicate": args.adjudicate, "game": game_id}

    def record(position, move):
        if not is_quiet(position, move):
            return
        if not args.scores:
            fens.append(position.fen())
        elif limits["white_cp"] is not None:
            fens.append(f"{position.fen()};{{result}};{limits['white_cp']}")

    result = run_game(board, {chess.WHITE: engine, chess.BLACK: engine}, limits, record)
    return result, fens


def worker(task):
    """Plays games first..last-1 with their own seeded generators; returns the lines."""
    first, last, args = task
    lines = []
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        engine.configure(dict(option(text) for text in args.option))
        for game_id in range(first, last):
            rng = random.Random(args.seed * 1_000_003 + game_id)
            result, fens = play_game(engine, game_id, rng, args)
            if result is None:
                continue
            if args.scores:
                lines.extend(fen.format(result=result) for fen in fens)
            else:
                lines.extend(f"{fen};{result}" for fen in fens)
            print(f"game {game_id}: {result}, {len(fens)} positions", file=sys.stderr, flush=True)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of the UCI engine")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=4000, help="node budget per move")
    parser.add_argument("--random-plies", type=int, default=8)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--adjudicate", type=int, default=1000, help="centipawns")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, a UCI option of the engine")
    parser.add_argument("--scores", action="store_true", help="write FEN;result;score lines")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    chunk = max(1, args.games // (args.workers * 8))
    tasks = [(first, min(first + chunk, args.games), args) for first in range(0, args.games, chunk)]
    with multiprocessing.Pool(args.workers) as pool, open(args.out, "w") as out:
        out.write(f"# meshmate self-play: {args.games} games, {args.nodes} nodes per move, seed {args.seed}\n")
        for lines in pool.imap(worker, tasks):
            out.writelines(line + "\n" for line in lines)


if __name__ == "__main__":
    main()
