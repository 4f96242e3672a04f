"""A solved board's per-ply counts as numpy arrays."""

from __future__ import annotations

import numpy as np

from retrograde._native import Table


def per_ply(table: Table) -> dict[str, np.ndarray]:
    """Each key of the summary's ``per_ply`` rows (``positions``,
    ``terminal``, ``x_wins``, ``o_wins``, ``draws``, ``first_won``,
    ``first_drawn``, ``first_lost`` on Connect Four; the m,n,k keys on
    m,n,k boards) as a ``uint64`` array indexed by ply."""
    rows = table.summary()["per_ply"]
    return {key: np.array([row[key] for row in rows], dtype=np.uint64) for key in rows[0]}
