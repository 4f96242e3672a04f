"""Gymnasium single-agent environments: the agent plays one side of
Connect Four (``retrograde/ConnectFour-v0``) or an m,n,k game
(``retrograde/MNK-v0``) against an opponent chosen by name
(:mod:`retrograde.opponents`: ``"perfect"``, ``"mcts"``, ``"random"``).

Observations, actions and rewards are those of the AEC environments
(:mod:`retrograde.aec`, :mod:`retrograde.layout`) seen from the agent: +1 when the agent wins, −1
when it loses or plays an illegal move (which ends the episode, with
``info["illegal"]``), 0 otherwise. An action is anything the action space
``contains`` (an ``int``, a NumPy integer, a 0-d integer array); anything
else is an illegal move. ``info["action_mask"]`` repeats the
mask. The opponent's randomness (ties between best moves, MCTS, random
play) comes from the environment's ``np_random``, so ``reset(seed=…)``
reproduces an episode.

``info["opponent_proved"]`` (a bool) is there whenever the opponent moved
in that ``reset()`` or ``step()``: true when its move was proved to keep
the position's value (a table's, or a search's that finished in time),
false when it was chosen without proof (the ``"mcts"`` and ``"random"``
opponents always; the perfect one where no search finished in time).

The defaults answer in time: the perfect opponent by search spends at most
about ``time_limit`` seconds (1) a move — ``prove_limit`` (default 0)
adds a second search for one best move, and ``time_limit=None`` or
``prove_limit=None`` lift the limit, so every move is proved however long
it takes — and its search table takes at most ``max_memory`` bytes
(:data:`~retrograde.opponents.DEFAULT_MAX_MEMORY`, 64 MiB). Every argument
is checked when the environment is made: a bad one is a ``TypeError`` or
``ValueError`` then, not at the first step. ``render_mode="human"``
needs pygame (``pip install '.[render]'`` in the checkout): without it the
environment refuses that mode with Gymnasium's ``DependencyNotInstalled``,
and lists only ``"ansi"`` and ``"rgb_array"`` in its ``metadata``.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from retrograde import rendering
from retrograde._native import Game, Table
from retrograde.layout import Layout
from retrograde.opponents import DEFAULT_MAX_MEMORY, Opponent, make_opponent


class BoardGameEnv(gymnasium.Env):
    """One side of a board game against an opponent.

    The class's ``metadata`` lists every render mode, so that
    ``gymnasium.make(…, render_mode="human")`` reaches the constructor
    (which says what to install if pygame is missing) rather than wrapping
    the environment; an instance's lists the modes it can render here."""

    metadata = {"render_modes": rendering.RENDER_MODES, "render_fps": 2}

    def __init__(
        self,
        family: str = "connect",
        cols: int = 7,
        rows: int = 6,
        k: int | None = None,
        opponent: str | Opponent = "perfect",
        agent_player: int = 0,
        table: Table | str | os.PathLike | None = None,
        time_limit: float | None = 1.0,
        playouts: int = 1000,
        prove_limit: float | None = 0.0,
        max_memory: int | str = DEFAULT_MAX_MEMORY,
        render_mode: str | None = None,
    ):
        if isinstance(agent_player, bool) or agent_player not in (0, 1):
            raise ValueError(
                f"agent_player is 0 (the agent moves first) or 1, not {agent_player!r}"
            )
        self._renderer = rendering.Renderer(render_mode, "retrograde")
        self.metadata = {**self.metadata, "render_modes": rendering.available_modes()}
        self.game = Game(family, cols, rows, k)
        self.agent_player = agent_player
        self.opponent = make_opponent(
            opponent,
            self.game,
            table=table,
            time_limit=time_limit,
            playouts=playouts,
            prove_limit=prove_limit,
            max_memory=max_memory,
        )
        self.render_mode = render_mode
        n = self.game.n_actions
        self.layout = Layout(self.game)
        self._shape = self.layout.shape
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=self._shape, dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self._ended_by_illegal = False
        #: Whether the opponent moved in the current reset()/step(), and
        #: whether that move was proved (see the module doc).
        self._opponent_proved: bool | None = None

    def _observation(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.layout.observation(self.game, self.agent_player),
            "action_mask": self.layout.mask(self.game),
        }

    def _info(self, **extra: Any) -> dict[str, Any]:
        """The mask, ``opponent_proved`` if the opponent moved, and ``extra``."""
        info: dict[str, Any] = {"action_mask": self.layout.mask(self.game)}
        if self._opponent_proved is not None:
            info["opponent_proved"] = self._opponent_proved
        return {**info, **extra}

    def _opponent_moves(self) -> None:
        """The opponent's move, and whether it says it was proved (an
        opponent object without ``last_proved`` is taken as unproved)."""
        self.game.play(self.opponent.choose(self.game, self.np_random))
        self._opponent_proved = bool(getattr(self.opponent, "last_proved", False))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset()
        self._ended_by_illegal = False
        self._opponent_proved = None
        if self.agent_player == 1:
            self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.game.is_over or self._ended_by_illegal:
            raise RuntimeError("the episode has ended: call reset()")
        self._opponent_proved = None
        if not self.layout.in_range(action) or not self.game.is_legal(
            self.layout.game_action(int(action))
        ):
            self._ended_by_illegal = True
            return self._observation(), -1.0, True, False, self._info(illegal=True)
        self.game.play(self.layout.game_action(int(action)))
        if not self.game.is_over:
            self._opponent_moves()
        reward = 0.0
        if self.game.winner is not None:
            reward = 1.0 if self.game.winner == self.agent_player else -1.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self.game.is_over, False, self._info()

    def render(self) -> str | np.ndarray | None:
        return self._renderer.render(self.game, self.metadata["render_fps"])

    def close(self) -> None:
        self._renderer.close()


class ConnectFourEnv(BoardGameEnv):
    """``retrograde/ConnectFour-v0``: Connect Four on ``cols × rows``."""

    def __init__(self, cols: int = 7, rows: int = 6, k: int = 4, **kwargs: Any):
        super().__init__("connect", cols, rows, k, **kwargs)


class MNKEnv(BoardGameEnv):
    """``retrograde/MNK-v0``: an m,n,k game (tic-tac-toe by default)."""

    def __init__(self, cols: int = 3, rows: int = 3, k: int = 3, **kwargs: Any):
        super().__init__("mnk", cols, rows, k, **kwargs)
