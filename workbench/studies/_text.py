"""Number and list formatting shared by the studies' Discussions.

A Discussion is a :func:`workbench.records.narrate` template rendered from a run's records: the
helpers here turn recorded values (one per seed, or one for the run) into the words of its text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import pandas as pd

from workbench.records import points

__all__ = [
    "escape",
    "join_and",
    "seed_values",
    "as_float",
    "optional_float",
    "reported_fraction",
    "mean_sd",
    "pts",
    "dpts",
]

#: A recorded value per seed: a list, a mapping ``{seed: value}``, or one value for the run
#: (``None`` for a missing one).
PerSeed = Mapping[str, float | None] | Sequence[float | None] | np.ndarray | float | None


def escape(text: str) -> str:
    """Braces doubled: the text is passed through :func:`workbench.records.narrate`."""
    return text.replace("{", "{{").replace("}", "}}")


def join_and(items: Sequence[str]) -> str:
    """``"a, b and c"`` (``""`` for no items)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


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


def mean_sd(v: PerSeed, scale: float = 100.0, decimals: int = 1, sign: bool = False) -> str:
    """``mean ± sd`` of the finite per-seed values of ``v`` times ``scale`` (the mean alone for
    one value; ``"n/a"`` for none); ``sign``: the mean with its sign."""
    a = seed_values(v)
    a = a[np.isfinite(a)]
    if a.size == 0:
        return "n/a"
    fmt = f"{{:{'+' if sign else ''}.{decimals}f}}"
    text = fmt.format(scale * a.mean())
    if a.size > 1:
        text += f" ± {scale * a.std(ddof=1):.{decimals}f}"
    return text


def pts(v: float | None) -> str:
    """A fraction as points with one decimal (:func:`workbench.records.points`)."""
    return points(v)


def dpts(v: float | None) -> str:
    """A signed difference in points with one decimal (:func:`workbench.records.points`)."""
    return points(v, signed=True)
