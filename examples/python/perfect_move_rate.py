"""An agent's moves scored against perfect play over HTTP, the "perfect move
rate" that benchmark pipelines (TextArena's Connect Four evaluation among
them) compute with a solver run as a separate server. Standard library only:
it needs a running ``retrograde serve`` and nothing else.

    retrograde serve --table c76.rtb      # or without a table: the search answers
    python3 examples/python/perfect_move_rate.py http://127.0.0.1:8080 --games 20

It plays ``--games`` seeded games of a simple agent (``centre``: a random
legal column, columns nearer the centre likelier; ``random``: uniform) on a
Connect Four board, against a random opponent (the agent plays X in even
games, O in odd ones) or against itself (``--opponent self``: every move is
the agent's). Then it asks ``POST /api/v1/batch`` for every position the
agent moved in, every legal move's value, and reports:

* the **perfect move rate**: the share of the agent's moves that keep the
  position's value (a won position stays won, a drawn one drawn; in a lost
  position every move keeps it) — the usual benchmark figure;
* the **best move rate**: the share the API marks ``best``, which keep the
  value at its distance too (the fastest win, the slowest loss);
* the moves that gave the value away, by what they gave away.

A position the server did not reach within the time (no table, a hard
position) is left unscored and counted as such.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.request

# The most positions the server takes in one batch.
BATCH = 1000


def legal_columns(heights: list[int], rows: int) -> list[int]:
    """The columns (0-based) with room."""
    return [c for c, h in enumerate(heights) if h < rows]


def wins(board: dict[tuple[int, int], int], col: int, row: int, k: int) -> bool:
    """Whether the stone at (col, row) completes k in a row for its player."""
    player = board[(col, row)]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while board.get((c, r)) == player:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= k:
            return True
    return False


def choose(agent: str, columns: list[int], cols: int, rng: random.Random) -> int:
    """The agent's column among the legal ``columns``."""
    if agent == "random":
        return rng.choice(columns)
    # centre: weight (cols - distance from the centre, doubled), at least 1
    weights = [max(1, cols - abs(2 * c - (cols - 1))) for c in columns]
    return rng.choices(columns, weights=weights)[0]


def play_games(
    games: int, seed: int, agent: str, opponent: str, cols: int, rows: int, k: int
) -> list[tuple[str, str]]:
    """Every move of the agent in ``games`` seeded games: (the move list
    before it, the move), both in the API's notation (columns from 1)."""
    rng = random.Random(seed)
    moved: list[tuple[str, str]] = []
    for game in range(games):
        board: dict[tuple[int, int], int] = {}
        heights = [0] * cols
        moves: list[str] = []
        agent_side = game % 2  # X (0) in even games, O (1) in odd ones
        for ply in range(cols * rows):
            columns = legal_columns(heights, rows)
            agents_turn = opponent == "self" or ply % 2 == agent_side
            if agents_turn:
                col = choose(agent, columns, cols, rng)
                moved.append((" ".join(moves), str(col + 1)))
            else:
                col = rng.choice(columns)
            board[(col, heights[col])] = ply % 2
            heights[col] += 1
            moves.append(str(col + 1))
            if wins(board, col, heights[col] - 1, k):
                break
    return moved


def batch(url: str, body: dict, timeout: float) -> list[dict]:
    """The answers of one ``POST /api/v1/batch``."""
    request = urllib.request.Request(
        url.rstrip("/") + "/api/v1/batch",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)["answers"]


def score(
    url: str, moved: list[tuple[str, str]], cols: int, rows: int, k: int, time_limit: float | None
) -> dict:
    """The figures of the module docs for the agent's moves ``moved``."""
    positions = sorted({before for before, _ in moved})
    answers: dict[str, dict] = {}
    for start in range(0, len(positions), BATCH):
        chunk = positions[start : start + BATCH]
        body = {"game": "connect", "cols": cols, "rows": rows, "k": k, "positions": chunk}
        if time_limit is not None:
            body["time_limit"] = time_limit
        answers.update(zip(chunk, batch(url, body, timeout=3600), strict=True))
    perfect = best = unscored = 0
    gave_away: dict[str, int] = {}
    for before, move in moved:
        answer = answers[before]
        value = answer.get("value")
        mine = next((m for m in answer.get("moves", []) if m["move"] == move), None)
        if value is None or mine is None or mine["value"] is None:
            unscored += 1
            continue
        if mine["value"] == value:
            perfect += 1
        else:
            key = f"{value}->{mine['value']}"
            gave_away[key] = gave_away.get(key, 0) + 1
        best += bool(mine["best"])
    scored = len(moved) - unscored
    return {
        "moves": len(moved),
        "positions": len(positions),
        "scored": scored,
        "unscored": unscored,
        "perfect": perfect,
        "perfect_move_rate": perfect / scored if scored else None,
        "best": best,
        "best_move_rate": best / scored if scored else None,
        "gave_away": dict(sorted(gave_away.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", choices=["centre", "random"], default="centre")
    parser.add_argument("--opponent", choices=["random", "self"], default="random")
    parser.add_argument("--cols", type=int, default=7)
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("-k", type=int, default=4)
    parser.add_argument("--time-limit", type=float, help="a batch's seconds (server default)")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = parser.parse_args(argv)
    moved = play_games(
        args.games, args.seed, args.agent, args.opponent, args.cols, args.rows, args.k
    )
    figures = score(args.url, moved, args.cols, args.rows, args.k, args.time_limit)
    figures = {"games": args.games, "agent": args.agent, "opponent": args.opponent, **figures}
    if args.json:
        print(json.dumps(figures))
        return 0

    def rate(name: str) -> str:
        r = figures[name]
        return "n/a" if r is None else f"{r:.3f}"

    print(
        f"{args.games} games of {args.agent} vs {args.opponent} on {args.cols}x{args.rows} "
        f"(k={args.k}): {figures['moves']} agent moves, {figures['scored']} scored "
        f"({figures['unscored']} not reached)"
    )
    print(f"perfect move rate {rate('perfect_move_rate')} (value kept)")
    print(f"best move rate    {rate('best_move_rate')} (value and distance kept)")
    for change, count in figures["gave_away"].items():
        print(f"  {change}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
