"""Playing games between UCI engines: the part self-play and matches share."""
import time

import chess
import chess.engine


def random_opening(rng, plies):
    """A board after `plies` random legal moves from the start (drawn from `rng`), or
    None if the game ended within them."""
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    return None if board.is_game_over(claim_draw=True) else board


def is_quiet(board, move):
    """Whether the position before `move` is one a static evaluation should judge: not in
    check, and the chosen move is neither a capture, a promotion nor a check."""
    return not (board.is_check() or board.is_capture(move) or move.promotion or board.gives_check(move))


def opening_book(path):
    """Openings from a file of SAN move lines ('#' starts a comment), as boards."""
    boards = []
    with open(path) as lines:
        for line in lines:
            moves = line.split("#")[0].split()
            if moves:
                board = chess.Board()
                for san in moves:
                    board.push_san(san)
                boards.append(board)
    return boards


def play_out(board, engines, limits):
    """Plays `board` to the end; `engines` maps chess.WHITE/BLACK to an engine, `limits`
    has nodes (or tc, a (base, increment) clock in seconds — or a dict giving each colour
    its own — or movetime, seconds per move, either of which replaces the node budget),
    max_plies, adjudicate (centipawns) and game (an id that makes the engines start a new
    game). Yields (board, move) before each move, then returns the result ('1-0', '0-1',
    '1/2-1/2') as the generator's value; the mover's score of the position being left (White's
    view, centipawns, None for a mate score or none given) is in limits["white_cp"] at each
    yield. A game is adjudicated when the mover's score is
    beyond `adjudicate` for four plies in a row, a draw at max_plies; a side whose clock
    runs out loses. How the game ended ('rules', 'max plies', 'time', 'adjudication') is
    left in limits["ended"]."""
    decisive = 0
    tc = limits.get("tc")
    if tc and not isinstance(tc, dict):
        tc = {chess.WHITE: tc, chess.BLACK: tc}
    clocks = {colour: tc[colour][0] for colour in tc} if tc else None
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= limits["max_plies"]:
            limits["ended"] = "max plies"
            return "1/2-1/2"
        engine = engines[board.turn]
        if tc:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=tc[chess.WHITE][1], black_inc=tc[chess.BLACK][1])
        elif limits.get("movetime"):
            limit = chess.engine.Limit(time=limits["movetime"])
        else:
            limit = chess.engine.Limit(nodes=limits["nodes"])
        started = time.monotonic()
        played = engine.play(board, limit, game=limits["game"], info=chess.engine.INFO_SCORE)
        if tc:
            clocks[board.turn] -= time.monotonic() - started
            if clocks[board.turn] < 0:
                limits["ended"] = "time"
                return "0-1" if board.turn == chess.WHITE else "1-0"
            clocks[board.turn] += tc[board.turn][1]
        score = played.info.get("score")
        white_cp = score.white().score(mate_score=100000) if score else 0
        limits["white_cp"] = score.white().score() if score else None
        yield board, played.move
        board.push(played.move)
        decisive = decisive + 1 if abs(white_cp) >= limits["adjudicate"] else 0
        if decisive >= 4:
            limits["ended"] = "adjudication"
            return "1-0" if white_cp > 0 else "0-1"
    limits["ended"] = "rules"
    return board.result(claim_draw=True)


def run_game(board, engines, limits, on_move=lambda board, move: None):
    """Runs play_out to the end, calling on_move(board, move) before each move; returns the result."""
    game = play_out(board, engines, limits)
    while True:
        try:
            on_move(*next(game))
        except StopIteration as end:
            return end.value
