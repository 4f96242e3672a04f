"""Side by side, in one run: a random-vs-random loop through retrograde's AEC
Connect Four environment and through PettingZoo's ``connect_four_v3`` (the
same loop: ``agent_iter``, ``last``, a random legal action from the mask,
``step``), in steps per second; and the time of one position answer from a
saved 6×4 Connect Four table.

    .venv/bin/python python/benchmarks/env_throughput.py [--steps N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def random_loop(env, steps: int, seed: int) -> float:
    """Steps a second of random play through ``env`` for ``steps`` steps."""
    rng = np.random.default_rng(seed)
    done = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def answer_time(repeats: int) -> float:
    """Seconds for one answer from a saved 6×4 table (mean of ``repeats``
    answers of random positions)."""
    import retrograde

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "c6x4.rgt")
        retrograde.solve("connect", 6, 4).save(path)
        table = retrograde.open_table(path)
        rng = np.random.default_rng(7)
        games = []
        for _ in range(repeats):
            game = retrograde.Game("connect", 6, 4)
            for _ in range(int(rng.integers(0, 12))):
                if game.is_over:
                    break
                actions = game.legal_actions()
                game.play(actions[int(rng.integers(len(actions)))])
            if game.is_over:
                game.undo()
            games.append(game)
        start = time.perf_counter()
        for game in games:
            table.answer(game)
        return (time.perf_counter() - start) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    from retrograde.aec import connect_four_env

    ours, theirs = [], []
    for round_ in range(3):  # interleaved, so a change of the host's speed hits both
        ours.append(random_loop(connect_four_env(), args.steps, round_))
        theirs.append(random_loop(connect_four_v3.env(), args.steps // 10, round_))
    best_ours, best_theirs = max(ours), max(theirs)
    rounds_ours = [round(x) for x in ours]
    rounds_theirs = [round(x) for x in theirs]
    print(f"retrograde connect_four_env:  {best_ours:>10,.0f} steps/s  (rounds {rounds_ours})")
    print(f"pettingzoo connect_four_v3:   {best_theirs:>10,.0f} steps/s  (rounds {rounds_theirs})")
    print(f"ratio: {best_ours / best_theirs:.1f}x")
    print(f"6x4 table answer: {answer_time(2000) * 1e6:.1f} µs a position")


if __name__ == "__main__":
    main()
