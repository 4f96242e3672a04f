"""The players an environment can put against an agent, chosen by name.

* ``"perfect"``: a move that keeps the position's game-theoretic value —
  from a saved or freshly solved :class:`~retrograde.Table` where one is
  given (the fastest win, the slowest loss), else proved by a weak search
  of every move within ``time_limit`` seconds (default 1), its
  transposition table within ``max_memory`` bytes (default
  :data:`DEFAULT_MAX_MEMORY`, 64 MiB). Ties between best moves are broken
  with the caller's random generator, so seeding the environment
  reproduces a game. Where that search does not finish in time, one best
  move may be proved by a second search within ``prove_limit`` seconds
  (default 0: no second search; ``None``: as long as it takes, which makes
  every move perfect but may take minutes on a large board); where no
  search finishes, the move is chosen without proof (a winning move if
  there is one, else MCTS's choice among the moves that do not lose at
  once) and :attr:`PerfectOpponent.last_proved` is false. So by default a
  move takes about ``time_limit`` seconds at most.
* ``"mcts"``: Monte Carlo tree search with ``playouts`` random playouts a
  move (for boards beyond proof), seeded from the caller's generator.
* ``"random"``: a uniformly random legal move.

Every opponent has ``last_proved``: whether its last move was proved to
keep the value (only the perfect opponent's ever are). Arguments are
checked when an opponent is made: a bad one is a ``TypeError`` or
``ValueError`` then, not at its first move.
"""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

import numpy as np

from retrograde import _checks
from retrograde._native import Game, Searcher, Table, mcts_action, open_table

#: The perfect opponent's (and evaluate()'s judge's) search table by
#: default, in bytes: 64 MiB. Enough for the positions a search finishes
#: within seconds (a larger table gains little there and costs time to
#: clear); without it the table took 1 GiB on 7×6.
DEFAULT_MAX_MEMORY = 64 * 2**20


@runtime_checkable
class Opponent(Protocol):
    """Chooses a legal action for the player to move in ``game``."""

    def choose(self, game: Game, rng: np.random.Generator) -> int: ...


class RandomOpponent:
    """A uniformly random legal move."""

    #: Random moves are never proved.
    last_proved = False

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        actions = game.legal_actions()
        return actions[int(rng.integers(len(actions)))]


class MctsOpponent:
    """Monte Carlo tree search with ``playouts`` playouts a move (1 to
    ``MAX_PLAYOUTS``)."""

    #: MCTS moves are never proved.
    last_proved = False

    def __init__(self, playouts: int = 1000, exploration: float = 1.4):
        self.playouts = _checks.playouts(playouts)
        self.exploration = _checks.exploration(exploration)

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        seed = int(rng.integers(2**63))
        return mcts_action(game, self.playouts, seed, self.exploration)


def _wins_at_once(game: Game) -> bool:
    """Whether the player to move in ``game`` (in play) has a move that
    wins at once. ``game`` is left as it was."""
    for action in game.legal_actions():
        game.play(action)
        won = game.winner is not None
        game.undo()
        if won:
            return True
    return False


def safe_actions(game: Game) -> list[int]:
    """The legal actions of ``game`` (in play) that win at once, if there
    are any; else those after which the opponent cannot win at once; else
    (every move loses at once) all of them. Never empty; ``game`` is not
    changed."""
    trial = game.copy()
    wins, safe = [], []
    for action in trial.legal_actions():
        trial.play(action)
        if trial.winner is not None:
            wins.append(action)
        elif trial.is_over or not _wins_at_once(trial):
            safe.append(action)
        trial.undo()
    return wins or safe or game.legal_actions()


def _open(table: Table | str | os.PathLike | None) -> Table | None:
    """``table`` opened if it names a file."""
    table = _checks.table(table)
    if isinstance(table, (str, os.PathLike)):
        return open_table(table)
    return table


class PerfectOpponent:
    """Perfect play: from ``table`` if given, else by search.

    By search, each position's best moves are proved by a weak search of
    every move within ``time_limit`` seconds (``None``: no limit); where
    that does not finish, one best move is proved by a single search
    (moves nearest the centre first) within ``prove_limit`` seconds (0, the
    default: no such search; ``None``: as long as it takes, so every move
    is perfect). Only beyond that is the move unproved: a winning move if
    there is one, else MCTS's choice (``playouts``) if it does not lose at
    once, else a random move among those that do not; counted in
    :attr:`unproved`, with :attr:`last_proved` false. The search's table
    takes at most ``max_memory`` (bytes or a size such as ``"256MiB"``).
    Proved answers are kept, so the openings that games share are searched
    once."""

    def __init__(
        self,
        game: Game,
        table: Table | str | os.PathLike | None = None,
        time_limit: float | None = 1.0,
        playouts: int = 1000,
        prove_limit: float | None = 0.0,
        max_memory: int | str = DEFAULT_MAX_MEMORY,
    ):
        self.time_limit = _checks.seconds("time_limit", time_limit)
        self.prove_limit = _checks.seconds("prove_limit", prove_limit, zero="0: no second search")
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
            None
            if table is not None
            else Searcher(game.family, game.cols, game.rows, game.k, max_memory=max_memory)
        )
        self._proved: dict[tuple[int, int], list[int]] = {}
        #: Moves chosen without proof because no search finished in time.
        self.unproved = 0
        #: Moves for which one best move was proved instead of all of them.
        self.single = 0
        #: Whether the last move chosen was proved to keep the value.
        self.last_proved = False

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
            best = self._prove_one(game)
            if best is None:
                return None
            self.single += 1
        self._proved[game.masks] = best
        return best

    def _prove_one(self, game: Game) -> list[int] | None:
        """One best action proved within ``prove_limit`` (None: none
        proved, or no second search asked for)."""
        if self.prove_limit == 0:
            return None
        return self.searcher.best_actions(game, time_limit=self.prove_limit, all_moves=False)

    def _unproved_choice(self, game: Game, rng: np.random.Generator) -> int:
        """A move without proof: a winning one, else MCTS's if it does not
        lose at once, else a random one of those that do not."""
        candidates = safe_actions(game)
        if len(candidates) == 1:
            return candidates[0]
        action = self.fallback.choose(game, rng)
        if action in candidates:
            return action
        return candidates[int(rng.integers(len(candidates)))]

    def choose(self, game: Game, rng: np.random.Generator) -> int:
        best = self.best_actions(game)
        self.last_proved = bool(best)
        if not best:
            self.unproved += 1
            return self._unproved_choice(game, rng)
        return best[int(rng.integers(len(best)))]


def make_opponent(
    name: str | Opponent,
    game: Game,
    *,
    table: Table | str | os.PathLike | None = None,
    time_limit: float | None = 1.0,
    playouts: int = 1000,
    prove_limit: float | None = 0.0,
    max_memory: int | str = DEFAULT_MAX_MEMORY,
) -> Opponent:
    """The opponent ``name`` (``"perfect"``, ``"mcts"``, ``"random"``) for
    ``game``'s board, or ``name`` itself if it is already an opponent (an
    object with ``choose(game, rng)``). Every argument is checked, whichever
    opponent uses it, so a bad one is refused here."""
    _checks.seconds("time_limit", time_limit)
    _checks.seconds("prove_limit", prove_limit, zero="0: no second search")
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
            game,
            table=table,
            time_limit=time_limit,
            playouts=playouts,
            prove_limit=prove_limit,
            max_memory=max_memory,
        )
    if name == "mcts":
        return MctsOpponent(playouts)
    if name == "random":
        return RandomOpponent()
    raise ValueError(f'unknown opponent {name!r}: give "perfect", "mcts" or "random"')
