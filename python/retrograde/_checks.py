"""Argument checks shared by the environments, the opponents and
:func:`~retrograde.evaluate`: each returns the value it was given (as an
``int`` or ``float``) or raises at once — a ``TypeError`` for a value of
the wrong kind, a ``ValueError`` for one out of range — with a one-line
message naming the argument and what it takes. A bad argument is refused
where it is given, never at a later ``step()``. The bounds are the
extension module's (:mod:`retrograde._native`), the same the calls
themselves check.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any

from retrograde._native import MAX_PLAYOUTS, MAX_TIME_LIMIT, Table


def whole(name: str, value: Any, least: int, most: int | None = None) -> int:
    """``value`` as an int from ``least`` to ``most`` (no upper bound when
    ``most`` is None). A bool is not a whole number here."""
    span = f"from {least} to {most}" if most is not None else f"at least {least}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} is a whole number {span}, not {value!r}")
    if value < least or (most is not None and value > most):
        raise ValueError(f"{name} must be {span}, not {value}")
    return int(value)


def playouts(value: Any) -> int:
    """``value`` as MCTS playouts a move: 1 to ``MAX_PLAYOUTS``."""
    return whole("playouts", value, 1, MAX_PLAYOUTS)


def seconds(name: str, value: Any, *, zero: str | None = None) -> float | None:
    """``value`` as a time limit: ``None`` (no limit, which the caller asks
    for by giving it), or a number of seconds above 0 — or 0 itself when
    ``zero`` says what 0 means — and at most ``MAX_TIME_LIMIT``. NaN and
    infinities are refused."""
    if value is None:
        return None
    least = "0" if zero is not None else "above 0"
    what = f"a number of seconds {least} and at most {MAX_TIME_LIMIT:.0f}"
    what += f" ({zero}; None: no limit)" if zero is not None else " (None: no limit)"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} is {what}, not {value!r}")
    value = float(value)
    low_ok = value >= 0 if zero is not None else value > 0
    if not (math.isfinite(value) and low_ok and value <= MAX_TIME_LIMIT):
        raise ValueError(f"{name} must be {what}, not {value}")
    return value


def exploration(value: Any) -> float:
    """``value`` as MCTS's exploration constant: a finite number ≥ 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"exploration is a number of at least 0, not {value!r}")
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"exploration must be a finite number of at least 0, not {value}")
    return float(value)


def table(value: Any) -> Table | str | os.PathLike | None:
    """``value`` as a table argument: a :class:`Table`, a file's path (a
    ``str`` or path-like), or ``None``."""
    if value is None or isinstance(value, (Table, str, os.PathLike)):
        return value
    raise TypeError(f"table is a retrograde.Table, a file's path or None, not {value!r}")
