"""retrograde: strong solutions of Connect Four and m,n,k games from Python."""

from retrograde._native import (
    BudgetError,
    Game,
    Searcher,
    Table,
    TableFileError,
    mcts_action,
    open_table,
    solve,
)

__all__ = [
    "BudgetError",
    "Game",
    "Searcher",
    "Table",
    "TableFileError",
    "mcts_action",
    "open_table",
    "solve",
]
