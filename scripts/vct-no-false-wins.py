#!/usr/bin/env python3
"""Issue 76, line 3: the threat prover with threat-space search (--vct) must
change no value on 7,7,5 and 8,8,5 positions.

Seeded random positions (random play from the empty board to a number of
stones, half to seven tenths of the cells unless set, none with a line of
k) are solved exactly by the bitboard search (`retrograde search mnk
--weak`; a position it does not solve in --search-limit seconds is
skipped and counted: sparse boards are hard for it), then given to the
threat prover with `--vct` under a short time limit. Every first-player win the prover claims
must be one the search finds, and its certificate must be accepted by the
independent checker (`retrograde check-proof`). A win the search finds and
the prover does not reach in the time is counted, not an error: the prover
is incomplete by design.

Needs the release build and the Python package (scripts/python-env.sh).

Usage: .venv/bin/python scripts/vct-no-false-wins.py [--count N] [--seed S] [--vct D]
       [--time-limit S] [--search-limit S] [--min-stones N]
       [--max-stones N] [--board C,R,K]...  (default 7,7,5 and 8,8,5)
Prints one line per board and a summary; exit 1 on any false claim or a
refused certificate.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from retrograde import Game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "retrograde")


def random_position(rng, cols, rows, k, count):
    """Moves of a random game of count stones with no line of k, or None
    (the rules are the package's: `retrograde.Game`)."""
    game = Game("mnk", cols, rows, k)
    cells = [(c, r) for c in range(cols) for r in range(rows)]
    rng.shuffle(cells)
    moves = cells[:count]
    for cell in moves:
        game.play_moves(name(cell))
        if game.is_over:
            return None
    return moves


def name(cell):
    return "abcdefghijklmnop"[cell[0]] + str(cell[1] + 1)


def run(args, timeout=None, stdin=None):
    return subprocess.run(
        [BINARY, *args], input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def check_board(cols, rows, k, options, rng, work):
    cells = cols * rows
    least = options.min_stones or cells // 2
    most = options.max_stones or cells * 7 // 10
    positions = []
    while len(positions) < options.count:
        count = rng.randint(least, most)
        moves = random_position(rng, cols, rows, k, count)
        if moves is not None:
            positions.append([name(cell) for cell in moves])
    lines = "".join(" ".join(moves) + "\n" for moves in positions)
    board = ["mnk", "--cols", str(cols), "--rows", str(rows), "--k", str(k)]
    solved = run(
        ["search", *board, "--weak", "--json", "--threads", "1"]
        + ["--time-limit", str(options.search_limit), "--positions", "-"],
        stdin=lines,
    )
    if solved.returncode not in (0, 3):  # 3: some lines not solved in the time
        sys.exit(f"search exited with {solved.returncode}: {solved.stderr.strip()}")
    exact = [json.loads(line) for line in solved.stdout.splitlines()]
    assert len(exact) == len(positions), "the search answered another number of lines"
    tally = {"unsolved": 0, "x wins": 0, "claimed": 0, "not reached": 0, "false": 0, "refused": 0}
    for moves, answer in zip(positions, exact, strict=True):
        if answer.get("not_reached"):
            tally["unsolved"] += 1
            continue
        value, to_move = answer["value"], answer["to_move"]
        x_wins = (to_move == "X" and value == "win") or (to_move == "O" and value == "loss")
        tally["x wins"] += x_wins
        cert = os.path.join(work, "cert")
        if os.path.exists(cert):
            os.remove(cert)
        proved = run(
            ["prove", *board, "--method", "threats", "--after", ",".join(moves)]
            + ["--vct", options.vct, "--time-limit", str(options.time_limit)]
            + ["--threads", "1", "--json", "--proof", cert],
            options.time_limit + 60,
        )
        if proved.returncode == 3:
            tally["not reached"] += x_wins
            continue
        if proved.returncode != 0:
            sys.exit(
                f"prove exited with {proved.returncode} on {' '.join(moves)}: "
                f"{proved.stderr.strip()}"
            )
        tally["claimed"] += 1
        if not x_wins:
            tally["false"] += 1
            print(
                f"  FALSE WIN: {cols},{rows},{k} {' '.join(moves)} (search: {value} for {to_move})"
            )
        checked = run(["check-proof", cert], 600)
        if checked.returncode != 0 or ": accepted: " not in checked.stdout:
            tally["refused"] += 1
            print(f"  REFUSED: {cols},{rows},{k} {' '.join(moves)}: {checked.stdout.strip()}")
    print(
        f"{cols},{rows},{k}: {options.count} positions of {least}-{most} stones, "
        f"{options.count - tally['unsolved']} solved by the search in {options.search_limit} s "
        f"each, {tally['x wins']} of them first-player wins; "
        f"the threat prover --vct {options.vct} ({options.time_limit} s each) claimed "
        f"{tally['claimed']}, {tally['false']} of them false, {tally['refused']} refused by "
        f"the checker; {tally['not reached']} wins not reached in the time"
    )
    return tally["false"] + tally["refused"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=76)
    parser.add_argument("--vct", default="3")
    parser.add_argument("--time-limit", type=int, default=2)
    parser.add_argument("--search-limit", type=int, default=10)
    parser.add_argument("--min-stones", type=int, default=0)
    parser.add_argument("--max-stones", type=int, default=0)
    parser.add_argument("--board", action="append")
    options = parser.parse_args()
    if not os.path.exists(BINARY):
        sys.exit("scripts/vct-no-false-wins.py: build first: cargo build --release")
    rng = random.Random(options.seed)
    errors = 0
    with tempfile.TemporaryDirectory() as work:
        for board in options.board or ["7,7,5", "8,8,5"]:
            cols, rows, k = (int(part) for part in board.split(","))
            errors += check_board(cols, rows, k, options, rng, work)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
