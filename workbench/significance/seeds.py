r"""Results over several random seeds: mean, standard deviation and how many seeds agree.

Everything whose result depends on a random stream (randomized SVDs, skip-gram, GloVe,
multi-sense training, PLSA) is run once per seed. :func:`seed_summary` stacks the per-seed
tables into mean and sample standard deviation; :func:`seed_agreement` counts the seeds for
which a finding holds (a finding is *replicated* only when it holds for every seed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["SeedSummary", "seed_list", "seed_summary", "seed_agreement", "format_mean_sd"]


def seed_list(seed: int, n_seeds: int) -> list[int]:
    """The seeds ``seed, seed + 1, ..., seed + n_seeds - 1`` (a notebook's ``SEED`` and ``SEEDS``)."""
    for name, val in (("seed", seed), ("n_seeds", n_seeds)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {val!r}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    if n_seeds < 1:
        raise ValueError(f"n_seeds (the SEEDS parameter) must be >= 1, got {n_seeds}")
    return list(range(int(seed), int(seed) + int(n_seeds)))


@dataclass(frozen=True, eq=False)
class SeedSummary:
    """Per-seed tables of one result and their mean and sample standard deviation.

    Attributes
    ----------
    mean, sd : DataFrame
        Cell-wise mean and standard deviation (``ddof=1``; NaN with one seed) over the seeds
        that have the cell.
    per_seed : dict
        ``{seed: table}`` as given.
    n_seeds : int
    """

    mean: pd.DataFrame
    sd: pd.DataFrame
    per_seed: dict[Any, pd.DataFrame]
    n_seeds: int

    def formatted(self, *, scale: float = 100.0, decimals: int = 1) -> pd.DataFrame:
        """``"mean ± sd"`` strings (``scale`` 100: Spearman as points); the mean alone with one
        seed."""
        return format_mean_sd(self.mean, self.sd if self.n_seeds > 1 else None,
                              scale=scale, decimals=decimals)  # fmt: skip


def seed_summary(tables: Mapping[Any, pd.DataFrame | pd.Series]) -> SeedSummary:
    """Mean and sample standard deviation of per-seed tables with the same layout.

    Parameters
    ----------
    tables : mapping
        ``{seed: DataFrame or Series}``; Series become one-column frames. Index and columns are
        aligned (union); a cell missing for some seed is averaged over the others.

    Returns
    -------
    SeedSummary
    """
    if not isinstance(tables, Mapping) or not tables:
        raise ValueError("tables must be a non-empty mapping {seed: table}")
    frames = {}
    for seed, t in tables.items():
        if isinstance(t, pd.Series):
            t = t.to_frame()
        if not isinstance(t, pd.DataFrame):
            raise TypeError(
                f"tables[{seed!r}] must be a DataFrame or Series, got {type(t).__name__}"
            )
        frames[seed] = t
    stacked = pd.concat(frames, names=["seed"])
    level = list(range(1, stacked.index.nlevels))
    grouped = stacked.groupby(level=level, sort=False)
    mean = grouped.mean(numeric_only=True)
    sd = grouped.std(ddof=1, numeric_only=True)
    first = next(iter(frames.values()))
    order = [i for i in first.index if i in mean.index] + [
        i for i in mean.index if i not in first.index
    ]
    mean, sd = mean.loc[order], sd.loc[order]
    if first.index.name is not None:
        mean.index.name = sd.index.name = first.index.name
    return SeedSummary(mean, sd, frames, len(frames))


def seed_agreement(flags: Mapping[Any, Any]) -> Any:
    """How many seeds a finding holds for: the cell-wise count of True over ``{seed: bools}``."""
    if not isinstance(flags, Mapping) or not flags:
        raise ValueError("flags must be a non-empty mapping {seed: boolean table}")
    items = [pd.DataFrame(v) if not isinstance(v, (pd.DataFrame, pd.Series)) else v
             for v in flags.values()]  # fmt: skip
    total: Any = items[0].astype(bool).astype(int)
    for t in items[1:]:
        total = total.add(t.astype(bool).astype(int), fill_value=0)
    return total.astype(int)


def format_mean_sd(
    mean: pd.DataFrame | pd.Series,
    sd: pd.DataFrame | pd.Series | None,
    *,
    scale: float = 100.0,
    decimals: int = 1,
) -> Any:
    """``"mean ± sd"`` strings of ``scale`` times the values (``"n/a"`` for NaN means)."""

    def cell(m: float, s: float | None) -> str:
        if m is None or not np.isfinite(m):
            return "n/a"
        text = f"{scale * m:.{decimals}f}"
        if s is not None and np.isfinite(s):
            text += f" ± {scale * s:.{decimals}f}"
        return text

    if sd is None:
        return mean.map(lambda m: cell(m, None))  # type: ignore[operator]
    sd = sd.reindex_like(mean)  # type: ignore[arg-type]
    if isinstance(mean, pd.Series):
        return pd.Series([cell(m, s) for m, s in zip(mean, sd)], index=mean.index, name=mean.name)
    out = pd.DataFrame(
        np.vectorize(cell, otypes=[object])(mean.to_numpy(float), sd.to_numpy(float)),
        index=mean.index, columns=mean.columns,
    )  # fmt: skip
    return out


def _values(obj: Any) -> np.ndarray:
    if isinstance(obj, Mapping):
        obj = list(obj.values())
    if not isinstance(obj, Sequence) or isinstance(obj, (str, bytes)):
        obj = [obj]
    return np.asarray([np.nan if v is None else float(v) for v in obj], dtype=float)
