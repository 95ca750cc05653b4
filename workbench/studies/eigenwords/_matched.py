r"""Scoring several embeddings on the same word pairs (matched pairs).

An embedding scores only the pairs whose two words it has a vector for; two embeddings with
different vocabularies (a graph-only embedding has vectors for the connected words of its
lexicon only, an eigenword embedding of a small corpus only for the words it saw) are then
scored on different pairs, and their Spearman correlations are not comparable.
:func:`common_mask` gives the pairs every embedding scores, :func:`restrict` an embedding's
results on those pairs only, and :func:`matched_table` the Spearman of every embedding on the
pairs all of them score, set by set -- the one way notebook 06 compares embeddings whose
coverage differs (Table 2 and the sweeps).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from workbench.evaluation import WordSimResult

__all__ = ["common_mask", "restrict", "matched_table", "matched_averages"]


def common_mask(results: Sequence[WordSimResult]) -> np.ndarray:
    """The pairs of one rating set that every result of ``results`` scores (boolean mask).

    Raises ``ValueError`` when the results are not of one rating set (different lengths or
    gold ratings).
    """
    results = list(results)
    if not results:
        raise ValueError("common_mask needs at least one result")
    gold = np.asarray(results[0].gold, dtype=float)
    mask = np.ones(gold.shape, dtype=bool)
    for r in results:
        g = np.asarray(r.gold, dtype=float)
        if g.shape != gold.shape or not np.array_equal(g, gold, equal_nan=True):
            raise ValueError(
                f"common_mask: results of different rating sets ({results[0].name!r}, {r.name!r})"
            )
        mask &= r.scored
    return mask


def restrict(result: WordSimResult, mask: np.ndarray) -> WordSimResult:
    """``result`` scored on the pairs of ``mask`` only: the predictions outside it set to NaN,
    ``n_scored``, ``spearman`` and ``pearson`` recomputed on the remaining pairs (NaN when
    fewer than 3 or either side is constant)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != result.pred.shape:
        raise ValueError(f"mask has shape {mask.shape}, the results {result.pred.shape}")
    pred = np.where(mask & result.scored, result.pred, np.nan)
    ok = ~np.isnan(pred)
    rho = r = float("nan")
    x, y = pred[ok], np.asarray(result.gold, dtype=float)[ok]
    if ok.sum() >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0:
        rho = float(stats.spearmanr(x, y)[0])
        r = float(stats.pearsonr(x, y)[0])
    return dataclasses.replace(result, spearman=rho, pearson=r, n_scored=int(ok.sum()), pred=pred)


def matched_table(
    suites: Mapping[str, Mapping[str, WordSimResult]],
    names: Sequence[str],
    *,
    min_pairs: int = 10,
) -> pd.DataFrame:
    """The Spearman of every embedding on the pairs all of them score, per rating set.

    Parameters
    ----------
    suites : dict
        ``{method: {rating set: WordSimResult}}`` (``wordsim_suite(...).attrs["results"]``).
    names : sequence of str
        Rating sets; a set missing from a suite is left out.
    min_pairs : int, default 10
        A set is kept only with at least this many pairs scored by every embedding.

    Returns
    -------
    DataFrame
        One row per kept set: ``dataset``, ``n`` (the pairs every embedding scores) and one
        column per method, its Spearman on those ``n`` pairs.
    """
    methods = list(suites)
    rows = []
    for name in names:
        if not all(name in suites[m] for m in methods):
            continue
        res = [suites[m][name] for m in methods]
        mask = common_mask(res)
        n = int(mask.sum())
        if n < min_pairs:
            continue
        row: dict[str, object] = {"dataset": name, "n": n}
        for m, r in zip(methods, res):
            row[m] = restrict(r, mask).spearman
        rows.append(row)
    return pd.DataFrame(rows, columns=["dataset", "n", *methods])


def matched_averages(table: pd.DataFrame, methods: Sequence[str]) -> dict[str, float | None]:
    """The mean over the sets of :func:`matched_table` of each method's Spearman, over the sets
    where every method's Spearman is defined (None when there is none)."""
    if table.empty:
        return {m: None for m in methods}
    vals = table[list(methods)].to_numpy(float)
    ok = np.isfinite(vals).all(axis=1)
    return {m: (float(vals[ok, j].mean()) if ok.any() else None) for j, m in enumerate(methods)}
