"""Play against perfect play in a window: click a column (Connect Four) or
a cell (m,n,k); the machine answers with a best move. Closing the window
ends the game. In text mode (``--text``) the board is printed and moves are
read from standard input in the command line's notation (``4`` a column,
``b2`` a cell; ``q`` or the end of input ends the game).

    python -m retrograde.play                       # Connect Four 7×6, by search
    python -m retrograde.play --cols 5 --rows 4     # solved first, then instant
    python -m retrograde.play --game mnk            # tic-tac-toe
    python -m retrograde.play --table c6x5.rgt      # a saved table
    python -m retrograde.play --second              # the machine moves first
    python -m retrograde.play --text                # in the terminal

The window needs pygame (``pip install '.[render]'`` in the checkout; the
message names the command for this install) and a display: without
pygame, or on a Linux or BSD system with none of ``DISPLAY``,
``WAYLAND_DISPLAY`` and ``SDL_VIDEODRIVER`` set, the game is played in
text mode, and a line on standard error says why.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

import retrograde
from retrograde import rendering
from retrograde.opponents import PerfectOpponent

#: Boards solved before the game starts (the rest play by search).
SOLVE_UP_TO_CELLS = 24

#: What a player types to stop in text mode.
QUIT = ("q", "quit", "exit")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Play against perfect play in a window or, with --text, in the terminal."
    )
    parser.add_argument("--game", choices=["connect", "mnk"], default="connect")
    parser.add_argument("--cols", type=int)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--k", type=int)
    parser.add_argument("--table", help="a table saved by `retrograde … --out` or Table.save")
    parser.add_argument("--second", action="store_true", help="the machine moves first")
    parser.add_argument("--seconds", type=float, default=10.0, help="search time a move")
    parser.add_argument(
        "--text", action="store_true", help="play in the terminal: moves read from stdin"
    )
    parser.add_argument("--seed", type=int, help="the machine's choice among best moves")
    parser.add_argument("--moves", type=int, default=0, help="close after this many moves (tests)")
    return parser


def _setup(args: argparse.Namespace) -> tuple[retrograde.Game, PerfectOpponent]:
    """The game and the machine the arguments ask for (a board of at most
    :data:`SOLVE_UP_TO_CELLS` cells solved first)."""
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
    return game, PerfectOpponent(game, table=table, time_limit=args.seconds)


def _text_reason() -> str | None:
    """Why the window cannot be used here, or None if it can."""
    if not rendering.has_pygame():
        return f"pygame is not installed (`{rendering.install_command()}` for the window)"
    if rendering.no_display():
        return "no display (DISPLAY and WAYLAND_DISPLAY are unset)"
    return None


def _read_move(game: retrograde.Game) -> int | None:
    """The action typed on stdin (asked again until it is legal); None at
    the end of input or when the player quits."""
    legal = {game.notation(a): a for a in game.legal_actions()}
    example = "a column such as 4" if game.family == "connect" else "a cell such as b2"
    while True:
        try:
            line = input(f"your move ({example}; q quits): ")
        except EOFError:
            print()
            return None
        token = line.strip().lower()
        if not sys.stdin.isatty():
            print(token)  # what a terminal would have echoed
        if token in QUIT:
            return None
        if token in legal:
            return legal[token]
        print(f"not a legal move: {token!r} (legal: {' '.join(legal)})")


def _machine_move(machine: PerfectOpponent, game: retrograde.Game, rng) -> int:
    """The machine's action, announced on stdout (``not proved`` when no
    search finished in time)."""
    action = machine.choose(game, rng)
    note = "" if machine.last_proved else " (not proved within the time limit)"
    print(f"the machine plays {game.notation(action)}{note}")
    return action


def play_text(game: retrograde.Game, machine: PerfectOpponent, human: int, args) -> int:
    """A game in the terminal: the board printed before each move, the
    person's moves read from stdin, the machine answering; ends at the
    game's end, at ``q``, or at the end of input (exit status 0)."""
    rng = np.random.default_rng(args.seed)
    played = 0
    while True:
        print(rendering.ansi(game), end="", flush=True)
        if game.is_over or (args.moves and played >= args.moves):
            return 0
        if game.to_move == human:
            action = _read_move(game)
            if action is None:
                return 0
        else:
            action = _machine_move(machine, game, rng)
        game.play(action)
        played += 1


def play_window(game: retrograde.Game, machine: PerfectOpponent, human: int, args) -> int:
    """A game in a pygame window: a click is the person's move; closing the
    window ends the game (exit status 0)."""
    rng = np.random.default_rng(args.seed)
    window = rendering.Window("retrograde: play against perfect play", game.cols, game.rows)
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


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # pygame's greeting would land among the boards on stdout
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    text = args.text
    if not text:
        reason = _text_reason()
        if reason is not None:
            print(f"{reason}: playing in text mode", file=sys.stderr)
            text = True
    game, machine = _setup(args)
    human = 1 if args.second else 0
    if text:
        return play_text(game, machine, human, args)
    return play_window(game, machine, human, args)


if __name__ == "__main__":
    sys.exit(main())
