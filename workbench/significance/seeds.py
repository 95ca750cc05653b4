r"""Results over several random seeds: mean, standard deviation and how many seeds agree.

Everything whose result depends on a random stream (randomized SVDs, skip-gram, GloVe,
multi-sense training, PLSA) is run once per seed. :func:`seed_summary` stacks the per-seed
tables into mean and sample standard deviation; :func:`seed_agreement` counts the seeds for
which a finding holds (a finding is *replicated* only when it holds for every seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench._validation import check_float, check_int

__all__ = ["SeedSummary", "seed_list", "seed_summary", "seed_agreement", "format_mean_sd"]


def seed_list(seed: int, n_seeds: int) -> list[int]:
    """The seeds ``seed, seed + 1, ..., seed + n_seeds - 1`` (a notebook's ``SEED`` and ``SEEDS``)."""
    seed = check_int(seed, "seed", low=0)
    n_seeds = check_int(n_seeds, "n_seeds (the SEEDS parameter)", low=1)
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

    Raises
    ------
    TypeError
        A table that is not a DataFrame / Series.
    ValueError
        ``tables`` empty or not a mapping; a table with duplicate row labels (cells could not be
        matched across seeds) or without any numeric column (non-numeric columns are left out
        of the mean and sd).
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
        if not t.index.is_unique:
            dup = list(t.index[t.index.duplicated()][:3])
            raise ValueError(
                f"tables[{seed!r}] has duplicate row labels {dup}: cells cannot be matched "
                "across seeds"
            )
        if len(t.columns) and t.select_dtypes(include="number").shape[1] == 0:
            raise ValueError(
                f"tables[{seed!r}] has no numeric column (columns {list(t.columns)} have dtypes "
                f"{sorted({str(d) for d in t.dtypes})}); convert them with .astype(float)"
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
    """How many seeds a finding holds for: the cell-wise count of True over ``{seed: bools}``.

    Each value is a boolean DataFrame or Series (or an array-like, made a DataFrame) of the
    same kind; labels are aligned (a cell missing for a seed counts as not holding there).

    Raises
    ------
    TypeError
        A value that is not a table of booleans (or 0/1 numbers), or DataFrames mixed with
        Series.
    ValueError
        ``flags`` empty or not a mapping, or a table with NaN (a finding that is neither true nor
        false: decide it first, e.g. ``.fillna(False)``).
    """
    if not isinstance(flags, Mapping) or not flags:
        raise ValueError("flags must be a non-empty mapping {seed: boolean table}")
    items = []
    for seed, v in flags.items():
        if v is None or isinstance(v, (str, bytes)) or np.ndim(v) == 0:
            raise TypeError(
                f"flags[{seed!r}] must be a boolean DataFrame, Series or array, got {v!r}"
            )
        t = v if isinstance(v, (pd.DataFrame, pd.Series)) else pd.DataFrame(v)
        frame = t.to_frame() if isinstance(t, pd.Series) else t
        for col, dtype in frame.dtypes.items():
            if not (pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype)):
                raise TypeError(
                    f"flags[{seed!r}] must hold booleans, got dtype {dtype} in column {col!r}"
                )
        if frame.isna().any(axis=None):
            raise ValueError(
                f"flags[{seed!r}] has NaN entries: decide them first (e.g. .fillna(False))"
            )
        items.append(t)
    if len({isinstance(t, pd.Series) for t in items}) > 1:
        raise TypeError("flags must be all Series or all DataFrames, not a mix")
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
    """``"mean ± sd"`` strings of ``scale`` times the values (``"n/a"`` for NaN means).

    ``mean`` is a DataFrame or Series of numbers; ``sd`` (or None: the mean alone) one of the
    same kind covering the same labels (NaN sd: the mean alone), never negative.
    """
    scale = check_float(scale, "scale")
    decimals = check_int(decimals, "decimals", low=0)
    if not isinstance(mean, (pd.DataFrame, pd.Series)):
        raise TypeError(f"mean must be a DataFrame or Series, got {type(mean).__name__}")
    _numeric(mean, "mean")
    if sd is not None:
        if type(sd) is not type(mean) and not (
            isinstance(sd, pd.Series) and isinstance(mean, pd.Series)
        ):
            raise TypeError(
                f"sd must be None or a {type(mean).__name__} like mean, got {type(sd).__name__}"
            )
        _numeric(sd, "sd")
        missing = [i for i in mean.index if i not in sd.index]
        if isinstance(mean, pd.DataFrame):
            missing += [c for c in mean.columns if c not in sd.columns]
        if missing:
            raise ValueError(f"sd lacks the labels {missing[:5]} of mean")
        if (sd.to_numpy(dtype=float) < 0).any():
            raise ValueError("sd has negative entries (a standard deviation is >= 0)")

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


def _numeric(table: pd.DataFrame | pd.Series, name: str) -> None:
    """``table`` holds numbers (or NaN / None) only."""
    try:
        np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        frame = table.to_frame() if isinstance(table, pd.Series) else table
        dtypes = sorted({str(d) for d in frame.dtypes})
        raise TypeError(f"{name} must hold numbers; got dtypes {dtypes}") from None
