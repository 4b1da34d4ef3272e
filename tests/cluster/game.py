"""A game between python-chess's UCI client and `mpirun -np N meshmate-cluster`.

python-chess drives the engine as a GUI does (options, position with moves, go, quit) and
checks every move it returns: the engine plays White, and Black for the first moves too,
after which Black plays random legal moves to reach unbalanced positions sooner.
Usage: python3 tests/cluster/game.py PATH/TO/meshmate-cluster [RANKS] [PLIES]
Exits 0 after a legal game and a clean quit, 1 otherwise.
"""
import random
import sys

import chess
import chess.engine


def main():
    binary = sys.argv[1]
    ranks = sys.argv[2] if len(sys.argv) > 2 else "4"
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    command = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", ranks, binary]
    rng = random.Random(7)
    board = chess.Board()
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
    try:
        engine.configure({"Hash": 16, "Algorithm": "ybwc"})
        while not board.is_game_over() and board.ply() < plies:
            if board.turn == chess.WHITE or board.ply() < 20:
                result = engine.play(board, chess.engine.Limit(time=0.05))
                if result.move not in board.legal_moves:
                    print(f"illegal move {result.move} in {board.fen()}")
                    return 1
                board.push(result.move)
            else:
                board.push(rng.choice(list(board.legal_moves)))
    finally:
        engine.quit()
    code = engine.protocol.returncode.result()
    print(f"{board.ply()} plies, result {board.result(claim_draw=True)}, mpirun exit {code}: {chess.Board().variation_san(board.move_stack)}")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
