"""The time of one Monte Carlo tree search move from the empty 7×6 Connect
Four board: ``mcts_action`` with 20,000 playouts, best of 3 seeded runs.

    .venv/bin/python python/benchmarks/mcts_speed.py [--playouts N]
"""

from __future__ import annotations

import argparse
import time

import retrograde


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts", type=int, default=20_000)
    args = parser.parse_args()
    game = retrograde.Game("connect", 7, 6)
    best = float("inf")
    for seed in range(3):
        start = time.perf_counter()
        retrograde.mcts_action(game, playouts=args.playouts, seed=seed)
        best = min(best, time.perf_counter() - start)
    print(f"mcts {args.playouts:,} playouts from the empty 7x6 board: {best * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
