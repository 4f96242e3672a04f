#!/usr/bin/env python3
"""Checks a saved symbolic Connect Four table (written by `connect --engine
symbolic --out FILE`, e.g. by scripts/symbolic.sh) against the alpha-beta
search, a second method that shares none of the table's code: random
positions in play (no line, board not full) are answered by
`retrograde query FILE --positions` and by `retrograde search connect
--positions --all-moves --weak`, and every position's value and every
move's value must agree.

Positions come from random games: a ply drawn uniformly from 0 to the
last but one, then uniformly random legal moves; a game whose move makes
a line is drawn again (the table answers positions in play). The same
seed gives the same positions.

Usage: scripts/symbolic-sample.py TABLE COLS ROWS [COUNT [SEED]]
       (default 1,000 positions, seed 1; uses target/release/retrograde)
Prints one line and exits 1 on any difference.
"""

import json
import pathlib
import random
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "retrograde"


def has_line(grid, cols, rows, col, row):
    """Whether the stone just placed at (col, row) makes four in a row."""
    me = grid[col][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < cols and 0 <= r < rows and grid[c][r] == me:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def random_position(cols, rows, rng):
    """Moves (columns from 1) to a random position in play."""
    while True:
        target = rng.randrange(cols * rows)
        grid = [[None] * rows for _ in range(cols)]
        heights = [0] * cols
        moves = []
        ok = True
        for ply in range(target):
            col = rng.choice([c for c in range(cols) if heights[c] < rows])
            row = heights[col]
            grid[col][row] = ply % 2
            heights[col] += 1
            moves.append(col + 1)
            if has_line(grid, cols, rows, col, row):
                ok = False
                break
        if ok:
            return moves


def answers(args, lines):
    out = subprocess.run([str(BINARY), *args], capture_output=True, text=True, check=True).stdout
    replies = [json.loads(line) for line in out.splitlines() if line.strip()]
    if len(replies) != lines:
        sys.exit(f"{args[0]}: {len(replies)} answers for {lines} positions")
    return replies


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    table, cols, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rng = random.Random(seed)
    games = [random_position(cols, rows, rng) for _ in range(count)]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        for moves in games:
            f.write(" ".join(map(str, moves)) + "\n")
        f.flush()
        table_says = answers(["query", table, "--positions", f.name, "--json", "-q"], count)
        search_says = answers(
            [
                "search",
                "connect",
                "--cols",
                str(cols),
                "--rows",
                str(rows),
                "--positions",
                f.name,
                "--all-moves",
                "--weak",
                "--json",
                "-q",
            ],
            count,
        )

    def values(answer):
        return answer["value"], sorted((m["move"], m["value"]) for m in answer["moves"])

    differ = 0
    for moves, t, s in zip(games, table_says, search_says, strict=True):
        if values(t) != values(s):
            differ += 1
            if differ <= 5:
                played = " ".join(map(str, moves))
                print(f"differs at moves {played}: table {values(t)} search {values(s)}")
    plies = [len(m) for m in games]
    print(
        f"{table}: {count} positions (plies {min(plies)}-{max(plies)}, seed {seed}), "
        f"{count + sum(len(t['moves']) for t in table_says)} values compared, {differ} differ"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
