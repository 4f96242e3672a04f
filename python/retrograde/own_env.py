"""A Gymnasium environment for a game written in Python and solved by
:func:`retrograde.solve_game`: the agent plays one side against a perfect
opponent (best moves from the game's table) or a random one.

An action is the index of a move in the list ``game.moves(position)``
gives; the action space is ``Discrete(table.max_moves)`` and
``info["action_mask"]`` marks the legal ones. The observation is
``game.observation(position)`` when the game defines it (and then its
``observation_space`` too), else the position itself (an unbounded space).
The reward is +1 when the agent wins, −1 when it loses or plays an illegal
move (which ends the episode, with ``info["illegal"]``), 0 for a draw or
while play goes on. A game that reaches no end (a position repeating) is
cut off by Gymnasium's ``max_episode_steps`` if one is given; the table
says such a position is a draw.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from retrograde._native import GameTable, solve_game

#: The opponents by name.
OPPONENTS = ("perfect", "random")


class _Anything(spaces.Space):
    """The observation space of a game that does not define one."""

    def contains(self, x: Any) -> bool:
        return True


class OwnGameEnv(gymnasium.Env):
    """One side of a game of one's own against an opponent."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: Any,
        table: GameTable | None = None,
        *,
        opponent: str = "perfect",
        agent_first: bool = True,
    ) -> None:
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent={opponent!r}: one of {', '.join(OPPONENTS)}")
        self.game = game
        self.table = table if table is not None else solve_game(game)
        self.opponent = opponent
        self.agent_first = agent_first
        self.action_space = spaces.Discrete(max(1, self.table.max_moves))
        self.observation_space = getattr(game, "observation_space", None) or _Anything()
        self.position: Any = None

    def _observe(self) -> Any:
        observe = getattr(self.game, "observation", None)
        return observe(self.position) if observe else self.position

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        mask[: len(self._moves())] = 1
        return mask

    def _moves(self) -> list[Any]:
        if self.game.outcome(self.position) is not None:
            return []
        return list(self.game.moves(self.position))

    def _over(self) -> str | None:
        """The value for the player to move once the game is over, else None."""
        if self.game.outcome(self.position) is not None or not self._moves():
            return self.table.value(self.position)[0]
        return None

    def _opponent_moves(self) -> None:
        moves = self._moves()
        if self.opponent == "perfect":
            self.position = self.table.best_move(self.position)
        else:
            self.position = moves[int(self.np_random.integers(len(moves)))]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.position = self.game.start()
        if not self.agent_first and self._over() is None:
            self._opponent_moves()
        return self._observe(), {"action_mask": self._mask()}

    def step(self, action):
        moves = self._moves()
        if not self.action_space.contains(action) or int(action) >= len(moves):
            info = {"action_mask": self._mask(), "illegal": True}
            return self._observe(), -1.0, True, False, info
        self.position = moves[int(action)]
        over = self._over()  # for the opponent, to move
        if over is None:
            self._opponent_moves()
            over = self._over()  # for the agent, to move again
            reward = {"win": 1.0, "loss": -1.0, "draw": 0.0, None: 0.0}[over]
        else:
            reward = {"win": -1.0, "loss": 1.0, "draw": 0.0}[over]
        return self._observe(), reward, over is not None, False, {"action_mask": self._mask()}
