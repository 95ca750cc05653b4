r"""Running a study of notebooks 08 and 09 over seeds, and the helpers both studies share.

Everything that depends on a random stream -- the multi-sense training, the base-rate sample of
sense pairs, the random directions, the planted problems -- is drawn from the run's seed, so a
seed is a complete, independent replication. :func:`run_seeds` runs a one-seed function for
every seed, in worker processes when there are several (each single-threaded); the per-seed
tables are stacked into mean and standard deviation (:func:`workbench.significance.seed_summary`)
and seed counts (:func:`workbench.significance.seed_agreement`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import pandas as pd

from workbench._validation import check_int
from workbench.embeddings import MultiSenseVectors
from workbench.significance import SeedSummary, seed_agreement
from workbench.significance.seeds import format_mean_sd

from .._parallel import run_jobs
from ._settings import SenseSettings, train_preset
from ._settings import settings as _settings_of

logger = logging.getLogger(__name__)

__all__ = ["run_seeds", "ALPHA"]

#: Significance level of every test in notebooks 08 and 09 (after Holm correction).
ALPHA = 0.05


R = TypeVar("R")


# ============================================================================ running seeds


def run_seeds(
    fn: Callable[..., R],
    seeds: Sequence[int],
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> dict[int, R]:
    """``{seed: fn(seed=seed, **kwargs)}``, the seeds in parallel worker processes.

    Parameters
    ----------
    fn : callable
        A module-level function (it is pickled to the workers).
    seeds : sequence of int
    n_jobs : int, optional
        Worker processes (default: one per seed, at most 4); 1 runs in this process. Every call
        runs with one BLAS thread: the work is many small matrix products, and on a shared
        machine BLAS threads waiting for a core make them many times slower.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {type(fn).__name__}")
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of integers, got {seeds!r}")
    seeds = [check_int(s, f"seeds[{i}]", low=0) for i, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("no seeds to run")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds}")
    n_jobs = check_int(n_jobs, "n_jobs", low=1, allow_none=True)
    jobs = min(len(seeds), 4) if n_jobs is None else n_jobs
    out = run_jobs(fn, [{"seed": s, **kwargs} for s in seeds], min(jobs, len(seeds)))
    return dict(zip(seeds, out))


@dataclass(frozen=True, eq=False)
class _SeedStudy(Generic[R]):
    """What the studies of notebooks 08 and 09 share: the per-seed runs ``{seed: run}``."""

    runs: dict[int, R]

    @property
    def seeds(self) -> list[int]:
        return list(self.runs)

    @property
    def n_seeds(self) -> int:
        return len(self.runs)

    def long_table(self, attr: str) -> pd.DataFrame:
        """The per-seed table ``attr`` (an attribute of the runs, see the class) of every seed
        stacked with a ``seed`` column, for CSV."""
        return _long(self.runs, attr)


def _mean_sd_columns(
    summary: SeedSummary, columns: Mapping[str, tuple[str, float, int]]
) -> pd.DataFrame:
    """``"mean ± sd"`` over the seeds of columns of ``summary``: ``{column: (name, scale,
    decimals)}`` (the mean alone with one seed)."""
    m, sd = summary.mean, summary.sd if summary.n_seeds > 1 else None
    out = pd.DataFrame(index=m.index)
    for col, (name, scale, dec) in columns.items():
        out[name] = format_mean_sd(
            m[col], None if sd is None else sd[col], scale=scale, decimals=dec
        )
    return out


def _check_settings(settings: object) -> SenseSettings:
    """``settings`` (default: ``settings("small")``), refused unless a :class:`SenseSettings`."""
    if settings is None:
        return _settings_of("small")
    if isinstance(settings, str):
        raise TypeError(
            f"settings must be a SenseSettings, got the string {settings!r}; "
            f"pass workbench.studies.senses.settings({settings!r})"
        )
    if not isinstance(settings, SenseSettings):
        raise TypeError(f"settings must be a SenseSettings, got {type(settings).__name__}")
    return settings


def _model(settings: SenseSettings, seed: int, msv: MultiSenseVectors | None) -> MultiSenseVectors:
    if msv is not None:
        if not isinstance(msv, MultiSenseVectors):
            raise TypeError(f"msv must be MultiSenseVectors or None, got {type(msv).__name__}")
        return msv
    return train_preset(settings, seed=seed, progress=False)


def _agreement_table(runs: Mapping[int, object], attr: str = "tests") -> pd.DataFrame:
    holm_sig = seed_agreement({s: getattr(r, attr)["pvalue_holm"] < ALPHA for s, r in runs.items()})
    raw_sig = seed_agreement({s: getattr(r, attr)["pvalue"] < ALPHA for s, r in runs.items()})
    return pd.DataFrame({"significant (Holm)": holm_sig, "significant (uncorrected)": raw_sig,
                         "seeds": len(runs)})  # fmt: skip


def _pmark(p: float) -> str:
    text = "< 0.001" if p < 0.001 else f"{p:.3f}"
    return text + ("†" if p < ALPHA else "")


def _tests_table(
    runs: Mapping[int, object], attr: str, stat: tuple[str, float, int]
) -> pd.DataFrame:
    col, scale, dec = stat
    first = getattr(next(iter(runs.values())), attr)
    rows = {}
    for name in first.index:
        vals = [float(getattr(r, attr).loc[name, col]) for r in runs.values()]
        raw = [float(getattr(r, attr).loc[name, "pvalue"]) for r in runs.values()]
        adj = [float(getattr(r, attr).loc[name, "pvalue_holm"]) for r in runs.values()]
        arr = np.asarray(vals)
        arr = arr[np.isfinite(arr)]
        mean = pd.Series([arr.mean() if arr.size else np.nan])
        sd = pd.Series([arr.std(ddof=1)]) if arr.size > 1 else None
        rows[name] = {
            col: format_mean_sd(mean, sd, scale=scale, decimals=dec).iloc[0],
            "p Holm, per seed": ", ".join(_pmark(p) for p in adj),
            "significant (Holm)": f"{sum(p < ALPHA for p in adj)} of {len(adj)}",
            "significant (uncorrected)": f"{sum(p < ALPHA for p in raw)} of {len(raw)}",
        }
    out = pd.DataFrame(rows).T
    out.index.name = first.index.name
    return out


def _long(runs: Mapping[int, object], attr: str) -> pd.DataFrame:
    frames = []
    for seed, r in runs.items():
        t = getattr(r, attr)
        t = (
            t.reset_index()
            if t.index.name is not None or not isinstance(t.index, pd.RangeIndex)
            else t
        )
        frames.append(t.assign(seed=seed))
    out = pd.concat(frames, ignore_index=True)
    return out[["seed", *[c for c in out.columns if c != "seed"]]]
