"""A training loop in the shape reinforcement-learning code has, measured
against perfect play: tabular Q-learning for tic-tac-toe against a random
opponent in the Gymnasium environment, with retrograde's evaluate() as the
yardstick every few hundred episodes — the blunder rate by phase of the
game, judged by a solved table, falls as the agent learns.

    .venv/bin/python examples/python/train_loop.py [--episodes 20000]
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import gymnasium
import numpy as np

import retrograde


def key(observation: np.ndarray) -> bytes:
    """A hashable state: the two observation planes."""
    return observation.tobytes()


class QAgent:
    """Epsilon-greedy tabular Q-learning over legal actions."""

    def __init__(self, n_actions: int, rng: np.random.Generator):
        self.q: dict[bytes, np.ndarray] = defaultdict(lambda: np.zeros(n_actions))
        self.rng = rng
        self.epsilon, self.alpha, self.gamma = 0.2, 0.3, 0.95

    def act(self, observation: np.ndarray, mask: np.ndarray, explore: bool = False) -> int:
        legal = np.flatnonzero(mask)
        if explore and self.rng.random() < self.epsilon:
            return int(self.rng.choice(legal))
        values = self.q[key(observation)][legal]
        return int(legal[int(np.argmax(values))])

    def learn(self, s, a, reward, s2, mask2, done) -> None:
        target = reward
        if not done:
            target += self.gamma * np.max(self.q[key(s2)][np.flatnonzero(mask2)])
        q = self.q[key(s)]
        q[a] += self.alpha * (target - q[a])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--every", type=int, default=5000)
    args = parser.parse_args()
    table = retrograde.solve("mnk", 3, 3, 3)  # the judge: every position's value
    # the agent learns both sides, as evaluate() plays both
    envs = [
        gymnasium.make("retrograde/MNK-v0", opponent="random", agent_player=side) for side in (0, 1)
    ]
    agent = QAgent(envs[0].action_space.n, np.random.default_rng(0))
    for episode in range(1, args.episodes + 1):
        env = envs[episode % 2]
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            action = agent.act(obs["observation"], obs["action_mask"], explore=True)
            nxt, reward, done, _, _ = env.step(action)
            agent.learn(
                obs["observation"], action, reward, nxt["observation"], nxt["action_mask"], done
            )
            obs = nxt
        if episode % args.every == 0:
            result = retrograde.evaluate(
                lambda o, m: agent.act(o, m),
                family="mnk",
                cols=3,
                rows=3,
                k=3,
                opponent="random",
                games=200,
                table=table,
                seed=episode,
            )
            print(f"after {episode} episodes:\n{result}\n")


if __name__ == "__main__":
    main()
