"""Play against perfect play in a window: click a column (Connect Four) or
a cell (m,n,k); the machine answers with a best move. Closing the window
ends the game.

    python -m retrograde.play                       # Connect Four 7×6, by search
    python -m retrograde.play --cols 5 --rows 4     # solved first, then instant
    python -m retrograde.play --game mnk            # tic-tac-toe
    python -m retrograde.play --table c6x5.rgt      # a saved table
    python -m retrograde.play --second              # the machine moves first
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import retrograde
from retrograde import rendering
from retrograde.opponents import PerfectOpponent

#: Boards solved before the game starts (the rest play by search).
SOLVE_UP_TO_CELLS = 24


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play against perfect play in a window.")
    parser.add_argument("--game", choices=["connect", "mnk"], default="connect")
    parser.add_argument("--cols", type=int)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--k", type=int)
    parser.add_argument("--table", help="a table saved by `retrograde … --out` or Table.save")
    parser.add_argument("--second", action="store_true", help="the machine moves first")
    parser.add_argument("--seconds", type=float, default=10.0, help="search time a move")
    parser.add_argument("--moves", type=int, default=0, help="close after this many moves (tests)")
    args = parser.parse_args(argv)
    if args.table:
        table = retrograde.open_table(args.table)
        game = retrograde.Game(table.family, table.cols, table.rows, table.k)
    else:
        cols = args.cols or (7 if args.game == "connect" else 3)
        rows = args.rows or (6 if args.game == "connect" else 3)
        game = retrograde.Game(args.game, cols, rows, args.k)
        table = (
            retrograde.solve(game.family, cols, rows, game.k)
            if cols * rows <= SOLVE_UP_TO_CELLS
            else None
        )
    machine = PerfectOpponent(game, table=table, time_limit=args.seconds)
    rng = np.random.default_rng()
    window = rendering.Window("retrograde: play against perfect play", game.cols, game.rows)
    human = 1 if args.second else 0
    played = 0
    try:
        while True:
            window.show(rendering.rgb_array(game))
            print(rendering.ansi(game), end="", flush=True)
            if game.is_over or (args.moves and played >= args.moves):
                break
            if game.to_move == human:
                action = window.wait_for_click(game)
                if action is None:
                    return 0
                if not game.is_legal(action):
                    continue
            else:
                action = machine.choose(game, rng)
            game.play(action)
            played += 1
        if game.is_over:
            window.wait_for_click(game)
    finally:
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
