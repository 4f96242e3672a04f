"""Throughput of a game written in Python (``retrograde.solve_game``): Can I
Win with the numbers 1 to 20 and a goal of 200 — about a million positions
reached — walked in Python and solved by the generic engine.

Run: ``.venv/bin/python python/benchmarks/own_game_speed.py [--threads N]``
"""

import argparse
import time

import retrograde


class CanIWin:
    """LeetCode 464: a position is the set of numbers used, as bits."""

    def __init__(self, largest, goal):
        self.largest, self.goal = largest, goal
        self.bits = [1 << i for i in range(largest)]

    def start(self):
        return 0

    def moves(self, used):
        return [used | b for b in self.bits if not used & b]

    def outcome(self, used):
        total = sum(i + 1 for i, b in enumerate(self.bits) if used & b)
        return "loss" if total >= self.goal else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    clock = time.perf_counter()
    table = retrograde.solve_game(CanIWin(20, 200), threads=args.threads)
    seconds = time.perf_counter() - clock
    parts = table.seconds()
    print(
        f"{table.positions:,} positions in {seconds:.1f} s "
        f"(walk {parts['walk']:.1f} s, solve {parts['solve']:.2f} s): "
        f"{table.positions / seconds:,.0f} positions/s; the start: {table.value(0)}"
    )


if __name__ == "__main__":
    main()
