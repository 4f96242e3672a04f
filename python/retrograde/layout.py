"""How the environments' actions and observations map onto a
:class:`~retrograde.Game`'s, so that agents written for PettingZoo's classic
games plug in unchanged:

* Connect Four (``connect_four_v3``): action = column; observation
  ``(rows, cols, 2)``, rows from the top — the game's own layout.
* m,n,k games (``tictactoe_v3``): cells are numbered *down the columns*
  (action ``col * rows + row``, rows from the top) and the observation is
  ``(cols, rows, 2)``, indexed ``[col, row]``; the game numbers cells along
  the rows, so the environment translates.

Plane 0 holds the observing player's stones, plane 1 the opponent's.
"""

from __future__ import annotations

import numpy as np

from retrograde._native import Game


class Layout:
    """The environment's view of one board."""

    def __init__(self, game: Game):
        rows, cols = game.rows, game.cols
        self.n_actions = game.n_actions
        self._game_shape = (rows, cols, 2)
        if game.family == "connect":
            self.shape = (rows, cols, 2)
            self._cell_of_action: list[int] | None = None
            self._mask_order: np.ndarray | None = None
        else:
            self.shape = (cols, rows, 2)
            cells = [(a % rows) * cols + a // rows for a in range(rows * cols)]
            self._cell_of_action = cells
            self._action_of_cell = {c: a for a, c in enumerate(cells)}
            self._mask_order = np.array(cells)

    def game_action(self, action: int) -> int:
        """The game's action for the environment's ``action`` (which must be
        in range: check with :meth:`in_range`)."""
        if self._cell_of_action is None:
            return action
        return self._cell_of_action[action]

    def env_action(self, game_action: int) -> int:
        """The environment's action for the game's."""
        if self._cell_of_action is None:
            return game_action
        return self._action_of_cell[game_action]

    def in_range(self, action: object) -> bool:
        """Whether ``action`` names an action of the board at all: an integer
        from 0 to ``n_actions - 1`` given as anything the environments'
        ``Discrete`` action space ``contains`` — a Python ``int``, a NumPy
        integer scalar (``np.int64(2)``) or a 0-d NumPy integer array
        (``np.array(2)``, what some policies return). Anything else (a
        float, a string, an array of another shape or dtype) is not."""
        if isinstance(action, np.ndarray):
            if action.shape != () or not np.issubdtype(action.dtype, np.integer):
                return False
        elif not isinstance(action, (int, np.integer)):
            return False
        return 0 <= int(action) < self.n_actions

    def observation(self, game: Game, player: int) -> np.ndarray:
        """``player``'s observation planes."""
        planes = np.frombuffer(game.planes(player), dtype=np.int8).reshape(self._game_shape)
        if self._mask_order is None:
            return planes
        return np.ascontiguousarray(planes.transpose(1, 0, 2))

    def mask(self, game: Game) -> np.ndarray:
        """The legal actions, one ``int8`` an action. Once the game is over
        the actions that still have room, as PettingZoo's classic games
        give them to the agent whose turn it would be."""
        if game.is_over:
            grid = np.frombuffer(game.grid(), dtype=np.uint8)
            if self._mask_order is None:
                return (grid[: game.cols] == 0).astype(np.int8)
            return (grid[self._mask_order] == 0).astype(np.int8)
        mask = np.frombuffer(game.action_mask(), dtype=np.int8)
        if self._mask_order is None:
            return mask
        return mask[self._mask_order]
