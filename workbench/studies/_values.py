"""Reading recorded values and table cells as numbers, shared by the studies' results and facts
(a recorded value per seed, a cell of a reported table, a pandas scalar)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import pandas as pd

__all__ = [
    "seed_values",
    "as_float",
    "optional_float",
    "reported_fraction",
]

#: A recorded value per seed: a list, a mapping ``{seed: value}``, or one value for the run
#: (``None`` for a missing one).
PerSeed = Mapping[str, float | None] | Sequence[float | None] | np.ndarray | float | None


def seed_values(v: PerSeed) -> np.ndarray:
    """The values of ``v`` as floats (``None`` -> NaN)."""
    items: Sequence[float | None]
    if isinstance(v, Mapping):
        items = list(v.values())
    elif isinstance(v, (list, tuple, np.ndarray)):
        items = list(v)
    else:  # one value
        items = [cast("float | None", v)]
    return np.asarray([np.nan if x is None else float(x) for x in items], dtype=float)


def as_float(value: object) -> float:
    """``float(value)`` of a table cell or a recorded value (typed as any scalar by pandas)."""
    return float(value)  # type: ignore[arg-type]


def optional_float(value: object) -> float | None:
    """``float(value)``, or None for a missing value (None, NaN or another missing marker)."""
    return None if value is None or pd.isna(value) else as_float(value)  # type: ignore[call-overload]


def reported_fraction(table: pd.DataFrame, row: str, column: str) -> float:
    """A percentage of a reported table as a fraction (NaN where the table has no such cell or
    no finite value)."""
    if row not in table.index or column not in table.columns:
        return float("nan")
    v = table.at[row, column]
    return as_float(v) / 100 if v is not None and np.isfinite(as_float(v)) else float("nan")


