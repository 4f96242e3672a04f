"""An agent measured against perfect play: the yardstick a learning agent
lacks. :func:`evaluate` plays games of the agent against an opponent and
judges every move the agent makes with a solved table (or, on boards
beyond a table, a search): a move is a *blunder* when it changes the
game-theoretic value for the agent — a won position played into a draw or
a loss, a drawn one into a loss. Blunders are reported by phase of the game
(the stones on the board when the move was made, in equal thirds of the
board by default), beside the games' results.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from retrograde import _checks
from retrograde._native import Game, Searcher, Table, open_table
from retrograde.layout import Layout
from retrograde.opponents import DEFAULT_MAX_MEMORY, Opponent, make_opponent

#: An agent: from the observation planes and the action mask, as the
#: environments give them (:mod:`retrograde.layout`: its own stones in
#: plane 0), to an action of the environments.
Agent = Callable[[np.ndarray, np.ndarray], int]

_RANK = {"loss": 0, "draw": 1, "win": 2}


@dataclass
class Phase:
    """The agent's moves made with ``first``–``last`` stones on the board."""

    first: int
    last: int
    moves: int = 0
    blunders: int = 0
    #: Moves the judge could not rate (a search out of time).
    unjudged: int = 0

    @property
    def blunder_rate(self) -> float:
        """Blunders per judged move (0 when none was judged)."""
        judged = self.moves - self.unjudged
        return self.blunders / judged if judged else 0.0


@dataclass
class Evaluation:
    """What :func:`evaluate` measured."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Games the agent ended with an illegal move (counted as losses).
    illegal: int = 0
    phases: list[Phase] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return sum(p.moves for p in self.phases)

    @property
    def blunders(self) -> int:
        return sum(p.blunders for p in self.phases)

    @property
    def blunder_rate(self) -> float:
        """Blunders per judged move over the whole game."""
        judged = sum(p.moves - p.unjudged for p in self.phases)
        return self.blunders / judged if judged else 0.0

    def __str__(self) -> str:
        lines = [
            f"{_count(self.games, 'game')}: {self.wins} won, {self.draws} drawn,"
            f" {self.losses} lost"
            + (f" ({self.illegal} by an illegal move)" if self.illegal else ""),
            f"{_count(self.moves, 'move')}, {_count(self.blunders, 'blunder')}"
            f" ({self.blunder_rate:.1%})",
        ]
        for p in self.phases:
            lines.append(
                f"  stones {p.first:>2}–{p.last:<2}: {_count(p.moves, 'move', 6)}, "
                f"{_count(p.blunders, 'blunder', 5)} ({p.blunder_rate:.1%})"
                + (f", {p.unjudged} unjudged" if p.unjudged else "")
            )
        return "\n".join(lines)


def _count(n: int, noun: str, width: int = 0) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 ("1 blunder", "2 moves")."""
    return f"{n:>{width}} {noun}{'' if n == 1 else 's'}"


def _judge_of(
    game: Game,
    table: Table | str | os.PathLike | None,
    time_limit: float | None,
    max_memory: int | str,
):
    """A function from a position to its answer (None if unknown)."""
    if isinstance(table, (str, os.PathLike)):
        table = open_table(table)
    if table is not None:
        return table.answer
    searcher = Searcher(game.family, game.cols, game.rows, game.k, max_memory=max_memory)
    return lambda g: searcher.answer(g, weak=True, time_limit=time_limit)


def _check_agent(agent: object) -> None:
    """A ``TypeError`` unless ``agent`` is an opponent or a callable."""
    if not (isinstance(agent, Opponent) or callable(agent)):
        raise TypeError(
            "agent is a callable from observation and mask to action, or an "
            f"object with choose(game, rng), not {agent!r}"
        )


def evaluate(
    agent: Agent | Opponent,
    *,
    family: str = "connect",
    cols: int = 7,
    rows: int = 6,
    k: int | None = None,
    opponent: str | Opponent = "random",
    games: int = 100,
    table: Table | str | os.PathLike | None = None,
    seed: int = 0,
    phases: int = 3,
    time_limit: float | None = 1.0,
    playouts: int = 1000,
    max_memory: int | str = DEFAULT_MAX_MEMORY,
) -> Evaluation:
    """Plays ``games`` games of ``agent`` (a callable from observation and
    mask to action, or an opponent object such as
    :class:`~retrograde.opponents.MctsOpponent`, which sees the game)
    against ``opponent`` (a name of :mod:`retrograde.opponents` or an
    opponent), the agent moving first in
    even-numbered games and second in odd ones, and judges each of the
    agent's moves against perfect play from ``table`` (a :class:`Table` or
    a file; by default a weak search within ``time_limit`` seconds a
    position, its table within ``max_memory``). The opponent's and the
    games' randomness comes from ``seed``. ``games`` is at least 1; every
    argument is checked before the first game (``TypeError`` or
    ``ValueError``)."""
    _check_agent(agent)
    games = _checks.whole("games", games, 1)
    game = Game(family, cols, rows, k)
    cells = cols * rows
    phases = _checks.whole("phases", phases, 1, cells)
    rng = np.random.default_rng(seed)
    rival = make_opponent(
        opponent,
        game,
        table=table,
        time_limit=time_limit,
        playouts=playouts,
        max_memory=max_memory,
    )
    judge = _judge_of(game, table, time_limit, max_memory)
    bounds = [round(i * cells / phases) for i in range(phases + 1)]
    result = Evaluation(phases=[Phase(bounds[i], bounds[i + 1] - 1) for i in range(phases)])
    layout = Layout(game)
    for number in range(games):
        game.reset()
        me = number % 2
        illegal = False
        while not game.is_over:
            if game.to_move != me:
                game.play(rival.choose(game, rng))
                continue
            if isinstance(agent, Opponent):
                action = agent.choose(game, rng)
            else:
                chosen = agent(layout.observation(game, me), layout.mask(game))
                action = layout.game_action(int(chosen)) if layout.in_range(chosen) else -1
            phase = next(p for p in result.phases if game.stones <= p.last)
            phase.moves += 1
            if not game.is_legal(action):
                phase.blunders += 1
                illegal = True
                break
            answer = judge(game)
            if answer is None:
                phase.unjudged += 1
            else:
                notation = game.notation(action)
                mine = next(m["value"] for m in answer["moves"] if m["move"] == notation)
                if _RANK[mine] < _RANK[answer["value"]]:
                    phase.blunders += 1
            game.play(action)
        result.games += 1
        if illegal:
            result.illegal += 1
            result.losses += 1
        elif game.winner is None:
            result.draws += 1
        elif game.winner == me:
            result.wins += 1
        else:
            result.losses += 1
    return result
