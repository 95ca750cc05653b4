"""Score tables with MRDS bold marks, and the pairwise significance tests behind the daggers."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

import numpy as np
import pandas as pd

from workbench.evaluation import SystemEvaluation
from workbench.significance import (
    ResultsTable,
    compare_accuracy,
    compare_wordsim,
    mrds_accuracy,
    mrds_correlation,
    results_table,
)
from workbench.studies.mvlsa._settings import ANALOGY_SETS

logger = logging.getLogger(__name__)

__all__ = ["scores_frame", "mrds_column", "marked_table", "pairwise_tests"]


# ============================================================================================
# tables
# ============================================================================================
def scores_frame(evaluations: Sequence[SystemEvaluation]) -> pd.DataFrame:
    """Test sets x systems table of raw scores (columns in the given order)."""
    _check_evaluations(evaluations)
    df = pd.concat([e.scores() for e in evaluations], axis=1)
    df.columns = [e.name for e in evaluations]
    df.index.name = "Test Set"
    return df


def _check_evaluations(evaluations: object) -> None:
    """A non-empty sequence of :class:`SystemEvaluation` with distinct names."""
    if isinstance(evaluations, (str, bytes)) or not isinstance(evaluations, Sequence):
        raise TypeError(
            f"evaluations must be a sequence of SystemEvaluation, got {type(evaluations).__name__}"
        )
    if not evaluations:
        raise ValueError("no evaluation given")
    for e in evaluations:
        if not isinstance(e, SystemEvaluation):
            raise TypeError(
                "evaluations must hold SystemEvaluation objects (from evaluate_system), "
                f"got {type(e).__name__}"
            )
    names = [e.name for e in evaluations]
    if len(set(names)) != len(names):
        raise ValueError(f"evaluations must have distinct names, got {names}")


@functools.lru_cache(maxsize=256)
def _mrds_corr(n: int) -> float:
    return float(mrds_correlation(n, 0.9, 0.05)) if n >= 4 else float("nan")


@functools.lru_cache(maxsize=256)
def _mrds_acc(n: int) -> float:
    return float(mrds_accuracy(n, 0.05)) if n >= 1 else float("nan")


def mrds_column(evaluations: Sequence[SystemEvaluation]) -> pd.Series:
    r"""MRDS per test set at the smallest number of items any of the systems scored.

    Rating sets: :math:`\sigma^{0.9}_{0.05}` (one-sided Williams' test, as the paper's Table
    2); analogies: the Bayesian :math:`\sigma_{0.05}` with a Beta(1, 1) prior.
    """
    _check_evaluations(evaluations)
    n = pd.concat([e.n_scored() for e in evaluations], axis=1).min(axis=1)
    out = {
        row: (_mrds_acc(int(cnt)) if row in ANALOGY_SETS else _mrds_corr(int(cnt)))
        for row, cnt in n.items()
    }
    return pd.Series(out, name="MRDS", dtype=float)


def marked_table(
    evaluations: Sequence[SystemEvaluation],
    *,
    significant: pd.DataFrame | None = None,
    baseline: str | None = None,
) -> ResultsTable:
    """:func:`workbench.significance.results_table` of the systems: bold = within MRDS of the
    row's best (the paper's convention), ``†`` from ``significant`` (or gains over ``baseline``
    above the MRDS)."""
    return results_table(
        scores_frame(evaluations),
        mrds=mrds_column(evaluations),
        significant=significant,
        baseline=baseline,
        bold="mrds",
    )


# ============================================================================================
# significance helpers
# ============================================================================================
def _compare(a: SystemEvaluation, b: SystemEvaluation, row: str) -> tuple[float, float]:
    """``(difference b - a, p-value)`` on one test set, over the items BOTH systems score.

    Rating sets: Spearman difference and two-sided Williams' t
    (:func:`workbench.significance.compare_wordsim`); analogies: accuracy difference and the
    exact McNemar test (:func:`workbench.significance.compare_accuracy`).
    """
    if row in ANALOGY_SETS:
        ha, sa = a.hits(row)
        hb, sb = b.hits(row)
        both = sa & sb
        if not both.any():
            return float("nan"), float("nan")
        res = compare_accuracy(ha[both], hb[both])
        return float(res.difference), float(res.mcnemar_pvalue)
    try:
        c = compare_wordsim(a.wordsim[row], b.wordsim[row], alternative="two-sided")
    except ValueError as exc:
        logger.info("no comparison on %s: %s", row, exc)
        return float("nan"), float("nan")
    return float(c.difference), float(c.pvalue)


def pairwise_tests(a: SystemEvaluation, b: SystemEvaluation, alpha: float) -> pd.DataFrame:
    """System ``b`` against ``a`` on every test set both score: the difference (b - a), its
    two-sided p-value (Williams' test on rating sets, exact McNemar on analogies, uncorrected)
    and whether it is below ``alpha``; one row per test set."""
    rows = []
    for row in a.scores().index:
        if row not in b.scores().index:
            continue
        diff, p = _compare(a, b, row)
        rows.append({"test_set": row, "difference": diff, "pvalue": p,
                     "significant": bool(np.isfinite(p) and p < alpha)})  # fmt: skip
    return pd.DataFrame(rows).set_index("test_set")
