"""PettingZoo AEC environments: Connect Four of any size (sides up to 16, at most 64 cells) and
m,n,k games, with the conventions of PettingZoo's classic
``connect_four_v3`` and ``tictactoe_v3`` so that agents written for those
plug in:

* agents ``"player_0"`` (moves first) and ``"player_1"`` in Connect Four,
  ``"player_1"`` (moves first) and ``"player_2"`` in m,n,k games (the names
  each of those games uses);
* observation ``{"observation": int8 (rows, cols, 2), "action_mask": int8
  (n_actions,)}``, plane 0 the observing agent's stones, plane 1 the
  opponent's, rows from the top; the mask is all zero for the agent not to
  move;
* actions: a column (Connect Four) or, as in ``tictactoe_v3``, a cell
  numbered down the columns, ``col * rows + row`` (m,n,k; the observation
  is then ``(cols, rows, 2)``: see :mod:`retrograde.layout`), given as
  anything the action space ``contains`` (an ``int``, a NumPy integer or a
  0-d integer array);
* rewards +1 / −1 for a win / loss, 0 for a draw; an illegal move ends the
  game with −1 for the agent that made it and 0 for the other (what
  PettingZoo's ``TerminateIllegalWrapper`` does), with a warning.

``render_mode="human"`` needs pygame (``pip install '.[render]'`` in the
checkout): without it that mode is refused with Gymnasium's
``DependencyNotInstalled`` and ``metadata["render_modes"]`` lists only
``"ansi"`` and ``"rgb_array"``.

The game itself runs in Rust (:class:`retrograde.Game`): a step is one
checked move and one line test, which is why a random-play loop runs many
times faster than PettingZoo's own Connect Four.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from retrograde import _install, rendering

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as missing:
    raise ModuleNotFoundError(
        "retrograde.aec needs PettingZoo (the extra pettingzoo): "
        f"`{_install.command('pettingzoo', 'pettingzoo')}`",
        name="pettingzoo",
    ) from missing
from retrograde._native import Game
from retrograde.layout import Layout


class BoardGameEnv(AECEnv):
    """A two-player board game as a PettingZoo AEC environment."""

    metadata = {
        "render_modes": rendering.RENDER_MODES,
        "name": "retrograde_board_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        family: str = "connect",
        cols: int = 7,
        rows: int = 6,
        k: int | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        self.game = Game(family, cols, rows, k)
        self.render_mode = render_mode
        self.metadata = dict(
            self.metadata,
            name=f"retrograde_{family}_{cols}x{rows}_k{self.game.k}_v0",
            render_modes=rendering.available_modes(),
        )
        self._renderer = rendering.Renderer(render_mode, self.metadata["name"])
        first = 0 if family in ("connect", "gravity") else 1
        self.possible_agents = [f"player_{first}", f"player_{first + 1}"]
        self.agents = self.possible_agents[:]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        n = self.game.n_actions
        self.layout = Layout(self.game)
        self._shape = self.layout.shape
        self._no_moves = np.zeros(n, dtype=np.int8)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=self._shape, dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        planes = self.layout.observation(self.game, self._index[agent])
        if agent == self.agent_selection:
            mask = self.layout.mask(self.game)
        else:
            mask = self._no_moves.copy()
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        other = self.possible_agents[1 - self._index[agent]]
        self._cumulative_rewards[agent] = 0
        if not self.layout.in_range(action) or not self.game.is_legal(
            self.layout.game_action(int(action))
        ):
            EnvLogger.warn_on_illegal_move()
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0)
            self.rewards[agent] = -1
            self._accumulate_rewards()
            self._deads_step_first()
            return
        self.game.play(self.layout.game_action(int(action)))
        if self.game.is_over:
            if self.game.winner is not None:
                self.rewards[agent] = 1
                self.rewards[other] = -1
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = other
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        return self._renderer.render(self.game, self.metadata["render_fps"])

    def close(self) -> None:
        self._renderer.close()


def connect_four_env(
    cols: int = 7, rows: int = 6, k: int = 4, render_mode: str | None = None
) -> BoardGameEnv:
    """Connect Four on ``cols × rows`` (``connect_four_v3``'s conventions)."""
    return BoardGameEnv("connect", cols, rows, k, render_mode)


def mnk_env(
    cols: int = 3, rows: int = 3, k: int = 3, render_mode: str | None = None
) -> BoardGameEnv:
    """An m,n,k game (tic-tac-toe by default; ``tictactoe_v3``'s conventions)."""
    return BoardGameEnv("mnk", cols, rows, k, render_mode)


#: PettingZoo's module-level names: ``env()`` makes the environment.
env = connect_four_env
raw_env = BoardGameEnv
