"""The perfect opponent against random play on a board beyond a table
(7×6 by default: every move proved by search), through the Gymnasium
environment: seeded games, the perfect player opening in half of them.
Prints the results, the moves whose best moves were not all proved within
``--time-limit`` (one best move proved instead: ``single``; none, MCTS
played: ``unproved``) and the time; a checkpoint file lets a killed
run go on where it stopped.

    .venv/bin/python python/benchmarks/perfect_vs_random.py --games 1000 [--time-limit 5]
"""

from __future__ import annotations

import argparse
import json
import os
import time

import gymnasium
import numpy as np

import retrograde  # noqa: F401  (registers the environments)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", type=int, default=7)
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--checkpoint", default="perfect_vs_random.json")
    args = parser.parse_args()
    state = {"next": 0, "won": 0, "drawn": 0, "lost": 0, "unproved": 0, "single": 0, "seconds": 0.0}
    if os.path.exists(args.checkpoint):
        with open(args.checkpoint) as f:
            state = json.load(f)
    envs = [
        gymnasium.make(
            "retrograde/ConnectFour-v0",
            cols=args.cols,
            rows=args.rows,
            opponent="perfect",
            agent_player=side,
            time_limit=args.time_limit,
            # every move proved, however long it takes, with the table the
            # documented run had (the default is 64 MiB and no second search)
            prove_limit=None,
            max_memory="1GiB",
        )
        for side in (0, 1)
    ]
    while state["next"] < args.games:
        game = state["next"]
        env = envs[game % 2]  # even games: the random agent opens
        rng = np.random.default_rng(game)
        started = time.perf_counter()
        obs, _ = env.reset(seed=game)
        done = False
        opponent = env.unwrapped.opponent
        before = (opponent.unproved, opponent.single)
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _, _ = env.step(action)
        # the agent is random: its loss is the perfect player's win
        state[{-1.0: "won", 0.0: "drawn", 1.0: "lost"}[reward]] += 1
        state["unproved"] += opponent.unproved - before[0]
        state["single"] += opponent.single - before[1]
        state["seconds"] += time.perf_counter() - started
        state["next"] = game + 1
        with open(args.checkpoint + ".tmp", "w") as f:
            json.dump(state, f)
        os.replace(args.checkpoint + ".tmp", args.checkpoint)
        if state["next"] % 10 == 0:
            print(json.dumps(state), flush=True)
    print(json.dumps(state))


if __name__ == "__main__":
    main()
