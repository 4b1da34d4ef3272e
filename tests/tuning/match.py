#!/usr/bin/env python3
"""A match between two UCI engines, to check that a change (such as tuned weights) helps.

Game pairs: each pair starts from the same random opening (seeded, so a run is
reproducible) and the engines swap colours, which cancels most of the opening's bias.
Each move gets a fixed node budget; games end by the rules, by adjudication, or as a
draw after --max-plies (see games.py). Prints wins, draws and losses of the first engine
and the Elo difference they imply, with a 95% interval.

With --tc BASE+INC the games are played on a clock (seconds), with --movetime S at a fixed
time per move, instead of a node budget;
--openings FILE takes the openings from a book of SAN lines (one pair per line, in order)
instead of random moves; --first-option/--second-option NAME=VALUE set UCI options
(e.g. --second-option UCI_LimitStrength=true --second-option UCI_Elo=1800);
--second-movetime S or --second-depth D gives the second engine its own limit per move,
whatever the first engine's, and --second-tc BASE+INC its own clock (the first keeps --tc); --concurrency N plays N pairs at once, each with its own two
engine processes (on a clock, keep N at most the cores free, or games are lost on time);
--start-pair K plays pairs K to K+PAIRS-1 (their openings and seeds), so a match can be
taken further: `report` sums the kept pair lines of both runs.

Usage: match.py --first NEW_ENGINE --second OLD_ENGINE --pairs 100
"""
import argparse
import math
import os
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import chess
import chess.engine

from games import opening_book, random_opening, run_game


PAIR_LINE = re.compile(r"^pair (\d+): first engine [\d.]+/2 \((\S+) by ([\w ]+), (\S+) by ([\w ]+)\)$", re.M)


def elo(score):
    """Elo difference for an expected score strictly between 0 and 1."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def clock(text):
    """'3+0.05' as (3.0, 0.05)."""
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def option(text):
    """'NAME=VALUE' as (NAME, VALUE), with true/false and numbers converted."""
    name, _, value = text.partition("=")
    if value in ("true", "false"):
        return name, value == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def first_points(games):
    """The first engine's points in a pair's two games, [(result, ended), (result, ended)]:
    it has White in the first game and Black in the second."""
    white = [{"1-0": 1.0, "0-1": 0.0}.get(result, 0.5) for result, _ in games]
    return [white[0], 1.0 - white[1]]


def pair_line(pair, games):
    """How pair `pair` went, as one line that `kept_pairs` reads back."""
    ended = ", ".join(f"{result} by {how}" for result, how in games)
    return f"pair {pair}: first engine {sum(first_points(games))}/2 ({ended})"


def kept_pairs(text):
    """{pair: its two games} from the pair lines of a match's output."""
    return {int(m[1]): [(m[2], m[3]), (m[4], m[5])] for m in PAIR_LINE.finditer(text)}


def tally(pairs):
    """The first engine's record over `pairs` ({pair: its two games}): wins, draws, losses,
    games, score, and the Elo with its 95% interval (low, high)."""
    points = [p for games in pairs.values() for p in first_points(games)]
    n = len(points)
    wins, losses = points.count(1.0), points.count(0.0)
    mean = sum(points) / n
    deviation = math.sqrt(sum((p - mean) ** 2 for p in points) / n)
    margin = 1.96 * deviation / math.sqrt(n)
    low, high = max(mean - margin, 1e-6), min(mean + margin, 1 - 1e-6)
    return wins, n - wins - losses, losses, n, mean, elo(mean), elo(low), elo(high)


def report(pairs):
    """The closing lines of a match over `pairs` ({pair: its two games}): how the games
    ended, then the first engine's record (`tally`)."""
    endings = {}
    for games in pairs.values():
        for _, how in games:
            endings[how] = endings.get(how, 0) + 1
    wins, draws, losses, n, score, rating, low, high = tally(pairs)
    return ("games ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())) + "\n"
            + f"first engine: +{wins} ={draws} -{losses} of {n}, score {score:.3f}, "
            f"Elo {rating:+.0f} (95%: {low:+.0f} to {high:+.0f})")


class OwnLimit:
    """An engine that searches its own limit, whatever the match's. Stockfish with UCI_Elo
    plays the move it picks when its search reaches a depth set by the Elo, so that depth,
    or a time in which it reaches it, plays as well as a longer search and costs less."""

    def __init__(self, engine, limit):
        self.engine = engine
        self.limit = limit

    def play(self, board, limit, **options):
        return self.engine.play(board, self.limit, **options)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", required=True)
    parser.add_argument("--second", required=True)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--adjudicate", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tc", type=clock, default=None, help="BASE+INC in seconds, e.g. 3+0.05")
    parser.add_argument("--movetime", type=float, default=None, help="seconds per move")
    parser.add_argument("--second-movetime", type=float, default=None, help="seconds per move of the second engine")
    parser.add_argument("--second-depth", type=int, default=None, help="search depth of the second engine")
    parser.add_argument("--second-tc", type=clock, default=None, help="the second engine's own clock, BASE+INC (with --tc)")
    parser.add_argument("--openings", default=None, help="file of SAN opening lines")
    parser.add_argument("--first-option", action="append", default=[], type=option)
    parser.add_argument("--second-option", action="append", default=[], type=option)
    parser.add_argument("--concurrency", type=int, default=1, help="pairs played at once")
    parser.add_argument("--start-pair", type=int, default=0, help="number of the first pair played (its opening and seed)")
    args = parser.parse_args()
    if args.second_tc and not args.tc:
        parser.error("--second-tc gives the second engine its own clock: give the first one's with --tc")
    for engine in (args.first, args.second):
        if not (os.path.isfile(engine) and os.access(engine, os.X_OK)):
            parser.error(f"engine '{engine}' is not an executable file")

    if args.pairs < 1 or args.start_pair < 0:
        parser.error("--pairs must be at least 1 and --start-pair at least 0")
    book = opening_book(args.openings) if args.openings else None
    openings = {}
    first_pair = args.start_pair
    for pair in range(first_pair, first_pair + args.pairs):
        if book:
            openings[pair] = book[pair % len(book)]
        else:
            openings[pair] = random_opening(random.Random(args.seed * 1_000_003 + pair), args.random_plies)
    workers = threading.local()
    engines_opened = []
    lock = threading.Lock()

    def engines():
        """This thread's two engine processes, started on its first pair."""
        if not hasattr(workers, "first"):
            first = chess.engine.SimpleEngine.popen_uci(args.first)
            second = chess.engine.SimpleEngine.popen_uci(args.second)
            with lock:
                engines_opened.extend([first, second])
            first.configure(dict(args.first_option))
            second.configure(dict(args.second_option))
            if args.second_movetime or args.second_depth:
                second = OwnLimit(second, chess.engine.Limit(time=args.second_movetime, depth=args.second_depth))
            workers.first, workers.second = first, second
        return workers.first, workers.second

    def play_pair(pair):
        """Both colours of opening `pair`: each game's result and how it ended."""
        first, second = engines()
        games = []
        for game, first_plays in enumerate((chess.WHITE, chess.BLACK)):
            players = {first_plays: first, not first_plays: second}
            tc = {first_plays: args.tc, not first_plays: args.second_tc or args.tc} if args.tc else None
            limits = {"nodes": args.nodes, "tc": tc, "movetime": args.movetime, "max_plies": args.max_plies, "adjudicate": args.adjudicate, "game": 2 * pair + game + 1}
            result = run_game(openings[pair].copy(), players, limits)
            games.append((result, limits["ended"]))
        return games

    played = {}
    try:
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            pairs = [pair for pair in range(first_pair, first_pair + args.pairs) if openings[pair] is not None]
            for pair, games in zip(pairs, pool.map(play_pair, pairs)):
                played[pair] = games
                # How each game ended, so a match stopped early can still be checked for time losses.
                print(pair_line(pair, games), flush=True)
    finally:
        for engine in engines_opened:
            engine.quit()
    print(report(played))


if __name__ == "__main__":
    main()
