"""The players an environment can put against an agent, chosen by name.

* ``"perfect"``: a move that keeps the position's game-theoretic value —
  from a saved or freshly solved :class:`~retrograde.Table` where one is
  given (the fastest win, the slowest loss), else proved by a weak search
  of every move within ``time_limit`` seconds. Ties between best moves are
  broken with the caller's random generator, so seeding the environment
  reproduces a game. Where that search does not finish in time, one best
  move is proved instead (see :class:`PerfectOpponent`).
* ``"mcts"``: Monte Carlo tree search with ``playouts`` random playouts a
  move (for boards beyond proof), seeded from the caller's generator.
* ``"random"``: a uniformly random legal move.

Arguments are checked when an opponent is made: a bad one is a
``TypeError`` or ``ValueError`` then, not at its first move.
"""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

import numpy as np

from retrograde import _checks
from retrograde._native import Game, Searcher, Table, mcts_action, open_table


@runtime_checkable
class Opponent(Protocol):
    """Chooses a legal action for the player to move in ``game``."""

    def choose(self, game: Game, rng: np.random.Generator) -> int: ...


class RandomOpponent:
    """A uniformly random legal move."""

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        actions = game.legal_actions()
        return actions[int(rng.integers(len(actions)))]


class MctsOpponent:
    """Monte Carlo tree search with ``playouts`` playouts a move (1 to
    ``MAX_PLAYOUTS``)."""

    def __init__(self, playouts: int = 1000, exploration: float = 1.4):
        self.playouts = _checks.playouts(playouts)
        self.exploration = _checks.exploration(exploration)

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        seed = int(rng.integers(2**63))
        return mcts_action(game, self.playouts, seed, self.exploration)


def _open(table: Table | str | os.PathLike | None) -> Table | None:
    """``table`` opened if it names a file."""
    table = _checks.table(table)
    if isinstance(table, (str, os.PathLike)):
        return open_table(table)
    return table


class PerfectOpponent:
    """Perfect play: from ``table`` if given, else by search.

    By search, each position's best moves are proved by a weak search of
    every move within ``time_limit`` seconds; where that does not finish,
    one best move is proved by a single search (moves nearest the centre
    first) within ``prove_limit`` seconds (``None``: as long as it takes,
    so every move is perfect); only beyond that does MCTS choose, counted
    in :attr:`unproved`. Proved answers are kept, so the openings that
    games share are searched once."""

    def __init__(
        self,
        game: Game,
        table: Table | str | os.PathLike | None = None,
        time_limit: float | None = 1.0,
        playouts: int = 1000,
        prove_limit: float | None = None,
    ):
        self.time_limit = _checks.seconds("time_limit", time_limit)
        self.prove_limit = _checks.seconds("prove_limit", prove_limit)
        self.fallback = MctsOpponent(playouts)
        table = _open(table)
        if table is not None and (table.family, table.cols, table.rows, table.k) != (
            game.family,
            game.cols,
            game.rows,
            game.k,
        ):
            raise ValueError(
                f"the table solves {table.family} {table.cols}×{table.rows} k={table.k}, "
                f"not the game's {game.family} {game.cols}×{game.rows} k={game.k}"
            )
        self.table = table
        self.searcher = (
            None if table is not None else Searcher(game.family, game.cols, game.rows, game.k)
        )
        self._proved: dict[tuple[int, int], list[int]] = {}
        #: Moves chosen by MCTS because no search finished in time.
        self.unproved = 0
        #: Moves for which one best move was proved instead of all of them.
        self.single = 0

    def best_actions(self, game: Game) -> list[int] | None:
        """The actions that keep the value (None: not proved in time)."""
        if self.table is not None:
            return self.table.best_actions(game)
        assert self.searcher is not None
        known = self._proved.get(game.masks)
        if known is not None:
            return known
        best = self.searcher.best_actions(game, time_limit=self.time_limit)
        if best is None:
            best = self.searcher.best_actions(game, time_limit=self.prove_limit, all_moves=False)
            if best is None:
                return None
            self.single += 1
        self._proved[game.masks] = best
        return best

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        best = self.best_actions(game)
        if not best:
            self.unproved += 1
            return self.fallback.choose(game, rng)
        return best[int(rng.integers(len(best)))]


def make_opponent(
    name: str | Opponent,
    game: Game,
    *,
    table: Table | str | os.PathLike | None = None,
    time_limit: float | None = 1.0,
    playouts: int = 1000,
    prove_limit: float | None = None,
) -> Opponent:
    """The opponent ``name`` (``"perfect"``, ``"mcts"``, ``"random"``) for
    ``game``'s board, or ``name`` itself if it is already an opponent (an
    object with ``choose(game, rng)``). Every argument is checked, whichever
    opponent uses it, so a bad one is refused here."""
    _checks.seconds("time_limit", time_limit)
    _checks.seconds("prove_limit", prove_limit)
    _checks.playouts(playouts)
    _checks.table(table)
    if not isinstance(name, str):
        if isinstance(name, Opponent):
            return name
        raise TypeError(
            'opponent is "perfect", "mcts", "random" or an object with '
            f"choose(game, rng), not {name!r}"
        )
    if name == "perfect":
        return PerfectOpponent(
            game, table=table, time_limit=time_limit, playouts=playouts, prove_limit=prove_limit
        )
    if name == "mcts":
        return MctsOpponent(playouts)
    if name == "random":
        return RandomOpponent()
    raise ValueError(f'unknown opponent {name!r}: give "perfect", "mcts" or "random"')
