"""retrograde: strong solutions of Connect Four and m,n,k games from Python.

The Rust library through its extension module (:class:`Game`,
:func:`solve`, :func:`open_table`, :class:`Table`, :class:`Searcher`,
:func:`prove`, :func:`mcts_action`, and :func:`solve_game` /
:func:`load_game` for a game written in Python), Gymnasium environments (registered as
``retrograde/ConnectFour-v0`` and ``retrograde/MNK-v0``), PettingZoo AEC
environments (:mod:`retrograde.aec`, registered as
``retrograde/connect_four_v0`` and ``retrograde/mnk_v0`` when PettingZoo is
installed) and :func:`evaluate`, an agent's blunder rate against perfect
play.

The submodules (:mod:`retrograde.aec`, :mod:`retrograde.opponents`, …) are
attributes of the package without an import of their own:
``retrograde.aec.connect_four_env()`` after ``import retrograde`` imports
:mod:`retrograde.aec` at that first use.
"""

import importlib
from types import ModuleType

import gymnasium

from retrograde._native import (
    BudgetError,
    Game,
    GameTable,
    OwnTable,
    Searcher,
    Table,
    TableFileError,
    load_game,
    mcts_action,
    open_own_table,
    open_table,
    prove,
    solve,
    solve_game,
)
from retrograde.counts import per_ply
from retrograde.evaluate import Evaluation, evaluate

__all__ = [
    "BudgetError",
    "Evaluation",
    "Game",
    "GameTable",
    "OwnTable",
    "Searcher",
    "Table",
    "TableFileError",
    "evaluate",
    "load_game",
    "mcts_action",
    "open_own_table",
    "open_table",
    "per_ply",
    "prove",
    "solve",
    "solve_game",
]

#: The submodules reached as attributes, each imported at its first use (so
#: that ``import retrograde`` does not load the AEC environments, nor pygame).
_SUBMODULES = frozenset({"aec", "gym_env", "layout", "opponents", "own_env", "play", "rendering"})


def __getattr__(name: str) -> ModuleType:
    """A submodule of :data:`_SUBMODULES`, imported now (an attribute
    error for any other name)."""
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _SUBMODULES)


def _register() -> None:
    """Adds the environments to Gymnasium's registry and, if PettingZoo
    (1.27 or later, which has a registry) is installed, to its AEC registry."""
    for env_id, entry in (
        ("retrograde/ConnectFour-v0", "retrograde.gym_env:ConnectFourEnv"),
        ("retrograde/MNK-v0", "retrograde.gym_env:MNKEnv"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry)
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return
    for env_id, entry in (
        ("retrograde/connect_four_v0", "retrograde.aec:connect_four_env"),
        ("retrograde/mnk_v0", "retrograde.aec:mnk_env"),
    ):
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=entry)


_register()
