"""Comparing systems: two on one data set, many on many; bootstrap and multiple-testing corrections."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from workbench._validation import (
    check_bool,
    check_choice,
    check_finite,
    check_float,
    check_int,
    check_nan_policy,
    check_random_state,
)

from .correlations import (
    _ALTERNATIVES,
    DEPENDENT_CORR_METHODS,
    Alternative,
    DependentCorrResult,
    dependent_corr,
)
from .mrds import _check_prior, mrds_accuracy, mrds_correlation, posterior_prob_better

logger = logging.getLogger(__name__)

# ============================================================================================
# comparing two systems
# ============================================================================================


@dataclass(frozen=True)
class ComparisonResult:
    """Two systems A (baseline) and B compared on one rating set (see :func:`compare_wordsim`)."""

    dataset: str
    n: int
    r_a: float
    r_b: float
    r_ab: float
    difference: float
    statistic: float
    pvalue: float
    method: str
    alternative: str
    p0: float
    mrds: float
    exceeds_mrds: bool
    significant: bool
    test: DependentCorrResult | None = None


class PairPredictions(Protocol):
    """What :func:`compare_wordsim` compares (e.g. a :class:`~workbench.evaluation.WordSimResult`):
    per-pair predictions (NaN where skipped) and the gold ratings."""

    @property
    def pred(self) -> np.ndarray: ...

    @property
    def gold(self) -> np.ndarray: ...


class ItemHits(Protocol):
    """Per-item hits of a system (e.g. an :class:`~workbench.evaluation.AccuracyResult`)."""

    @property
    def hits(self) -> np.ndarray: ...


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(stats.spearmanr(x, y)[0])


def compare_wordsim(
    result_a: PairPredictions,
    result_b: PairPredictions,
    *,
    method: str = "williams1959",
    alternative: Alternative = "two-sided",
    p0: float = 0.05,
    correlation: Literal["spearman", "pearson"] = "spearman",
) -> ComparisonResult:
    r"""Compare two systems' word-similarity results on the same rating set.

    Parameters
    ----------
    result_a, result_b : WordSimResult
        Per-pair predictions (``pred``, NaN where skipped) and the same ``gold`` ratings. Only
        pairs scored by both systems are used.
    method : str
        A :func:`dependent_corr` method; the correlations compared are ``r_jk = r_B`` (B vs gold)
        and ``r_jh = r_A``, with ``r_kh = r_AB``, so ``alternative="greater"`` means B is better.
    p0 : float
        Significance threshold for ``significant`` and for the MRDS at the observed
        :math:`r_{AB}` (one-sided Williams' t, as in the MVLSA paper).
    correlation : {"spearman", "pearson"}
        Spearman (the papers' figure; the tests are then applied to rank correlations, as in
        Rastogi et al. 2015) or Pearson.

    Raises
    ------
    ValueError
        Different rating sets, NaN / inf gold ratings, infinite predictions, fewer than 4 pairs
        scored by both, an undefined or perfect correlation, an unknown ``method``,
        ``alternative`` or ``correlation``, ``p0`` outside (0, 1).
    """
    check_choice(method, "method", DEPENDENT_CORR_METHODS)
    check_choice(alternative, "alternative", _ALTERNATIVES)
    p0 = check_float(p0, "p0", low=0, high=1, low_open=True, high_open=True)
    check_choice(correlation, "correlation", ("spearman", "pearson"))
    pa, pb = np.asarray(result_a.pred, float), np.asarray(result_b.pred, float)
    ga, gb = np.asarray(result_a.gold, float), np.asarray(result_b.gold, float)
    if pa.shape != pb.shape or ga.shape != gb.shape or not np.allclose(ga, gb, equal_nan=True):
        raise ValueError("result_a and result_b must be evaluations on the same rating set")
    check_finite(ga, "gold ratings")
    for name, pred in (("result_a.pred", pa), ("result_b.pred", pb)):
        if np.isinf(pred).any():
            raise ValueError(
                f"{name} contains {int(np.isinf(pred).sum())} infinite predictions "
                "(NaN marks a skipped pair; inf is not allowed)"
            )
    ok = ~np.isnan(pa) & ~np.isnan(pb)
    n = int(ok.sum())
    if n < 4:
        raise ValueError(f"only {n} pairs are scored by both systems; need at least 4")
    corr = _spearman if correlation == "spearman" else (lambda x, y: float(stats.pearsonr(x, y)[0]))
    r_a, r_b, r_ab = corr(pa[ok], ga[ok]), corr(pb[ok], ga[ok]), corr(pa[ok], pb[ok])
    name = str(getattr(result_a, "name", "dataset"))
    test: DependentCorrResult | None = None
    if not all(math.isfinite(v) for v in (r_a, r_b, r_ab)):
        raise ValueError("a correlation is undefined (constant predictions or ratings)")
    if max(abs(r_a), abs(r_b)) >= 1 - 1e-12:
        raise ValueError(
            f"a system correlates perfectly with the gold ratings (r_A={r_a:.6g}, r_B={r_b:.6g}); "
            "the dependent-correlation tests are undefined at |r| = 1"
        )
    if r_ab >= 1 - 1e-12 or abs(r_b - r_a) < 1e-15:
        # identical rankings: no evidence of a difference
        stat, p = 0.0, 1.0
    else:
        test = dependent_corr(r_b, r_a, r_ab, n, method=method, alternative=alternative)
        stat, p = test.statistic, test.pvalue
        if method == "zou2007":
            lo, hi = test.confidence_interval  # type: ignore[misc]
            p = 0.0 if (lo > 0 or hi < 0) else 1.0
    mrds = mrds_correlation(n, min(max(r_ab, -0.999999), 0.999999), p0) if r_ab < 1 - 1e-12 else 0.0
    diff = r_b - r_a
    return ComparisonResult(
        dataset=name,
        n=n,
        r_a=r_a,
        r_b=r_b,
        r_ab=r_ab,
        difference=diff,
        statistic=float(stat),
        pvalue=float(p),
        method=method,
        alternative=alternative,
        p0=p0,
        mrds=mrds,
        exceeds_mrds=bool(abs(diff) > mrds),
        significant=bool(p < p0),
        test=test,
    )


def _suite_results(
    suite: pd.DataFrame | Mapping[str, PairPredictions],
) -> dict[str, PairPredictions]:
    if isinstance(suite, pd.DataFrame):
        res = suite.attrs.get("results")
        if not isinstance(res, dict):
            raise ValueError("a suite DataFrame must come from wordsim_suite (attrs['results'])")
        return res
    if isinstance(suite, Mapping):
        return dict(suite)
    raise TypeError(f"expected a wordsim_suite DataFrame or a dict, got {type(suite).__name__}")


def compare_wordsim_suite(
    suite_a: pd.DataFrame | Mapping[str, PairPredictions],
    suite_b: pd.DataFrame | Mapping[str, PairPredictions],
    *,
    method: str = "williams1959",
    alternative: Alternative = "two-sided",
    p0: float = 0.05,
    correction: Literal["holm", "bonferroni", "none"] = "holm",
) -> pd.DataFrame:
    """:func:`compare_wordsim` on every rating set two suites share.

    ``suite_a`` / ``suite_b`` are :func:`workbench.evaluation.wordsim_suite` DataFrames (or dicts
    name -> WordSimResult). Returns one row per data set with ``dataset, n, r_a, r_b, r_ab,
    difference, statistic, pvalue, pvalue_adjusted, mrds, exceeds_mrds, significant`` where
    ``significant`` uses the corrected p-value (Holm by default) at ``p0``. Rating sets that
    cannot be compared are skipped with a logged warning.
    """
    check_choice(method, "method", DEPENDENT_CORR_METHODS)
    check_choice(alternative, "alternative", _ALTERNATIVES)
    p0 = check_float(p0, "p0", low=0, high=1, low_open=True, high_open=True)
    check_choice(correction, "correction", ("holm", "bonferroni", "none"))
    ra, rb = _suite_results(suite_a), _suite_results(suite_b)
    rows = []
    for name in [k for k in ra if k in rb]:
        try:
            c = compare_wordsim(ra[name], rb[name], method=method, alternative=alternative, p0=p0)
        except ValueError as err:
            logger.warning("skipping %s: %s", name, err)
            continue
        rows.append(
            {
                "dataset": name,
                "n": c.n,
                "r_a": c.r_a,
                "r_b": c.r_b,
                "r_ab": c.r_ab,
                "difference": c.difference,
                "statistic": c.statistic,
                "pvalue": c.pvalue,
                "mrds": c.mrds,
                "exceeds_mrds": c.exceeds_mrds,
            }
        )
    df = pd.DataFrame(rows)
    if df.empty:
        raise ValueError("the two suites share no comparable rating set")
    if correction == "holm":
        df["pvalue_adjusted"] = holm(df["pvalue"].to_numpy())
    elif correction == "bonferroni":
        df["pvalue_adjusted"] = bonferroni(df["pvalue"].to_numpy())
    elif correction == "none":
        df["pvalue_adjusted"] = df["pvalue"]
    else:
        raise ValueError(f"correction must be 'holm', 'bonferroni' or 'none', got {correction!r}")
    df["significant"] = df["pvalue_adjusted"] < p0
    cols = [
        "dataset",
        "n",
        "r_a",
        "r_b",
        "r_ab",
        "difference",
        "statistic",
        "pvalue",
        "pvalue_adjusted",
        "mrds",
        "exceeds_mrds",
        "significant",
    ]
    return df[cols]


@dataclass(frozen=True)
class AccuracyComparisonResult:
    """Two systems A (baseline) and B compared on the same accuracy items."""

    n: int
    accuracy_a: float
    accuracy_b: float
    difference: float
    prob_b_better: float
    n_a_only: int
    n_b_only: int
    mcnemar_pvalue: float
    p0: float
    mrds: float
    exceeds_mrds: bool


def _hits_of(x: ItemHits | ArrayLike) -> tuple[np.ndarray, np.ndarray | None]:
    if hasattr(x, "hits"):
        sc = getattr(x, "scorable", None)
        return np.asarray(x.hits, bool), None if sc is None else np.asarray(sc, bool)
    arr = np.asarray(x)
    if arr.dtype != bool and not np.isin(arr, (0, 1)).all():
        raise ValueError("hits must be boolean (or 0/1) per item")
    return arr.astype(bool), None


def compare_accuracy(
    hits_a: ItemHits | ArrayLike,
    hits_b: ItemHits | ArrayLike,
    *,
    prior: tuple[float, float] = (1.0, 1.0),
    p0: float = 0.05,
) -> AccuracyComparisonResult:
    r"""Compare two systems' per-item hits on the same items.

    Reports the posterior :math:`P(\theta_B > \theta_A)` (independent Beta posteriors, as in
    Rastogi et al. 2015), the exact McNemar test (two-sided binomial test on the discordant
    pairs, :func:`scipy.stats.binomtest`) and whether the accuracy gain exceeds
    :func:`mrds_accuracy` at ``p0``. Result objects with ``hits`` / ``scorable`` are accepted;
    then only items scorable by both are used.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12, 153-157.
    """
    pr = _check_prior(prior)
    p0 = check_float(p0, "p0", low=0, high=0.5, low_open=True, high_open=True)
    a, sa = _hits_of(hits_a)
    b, sb = _hits_of(hits_b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"hits_a and hits_b must be 1-D of equal length, got {a.shape}, {b.shape}")
    keep = np.ones(len(a), bool)
    if sa is not None:
        keep &= sa
    if sb is not None:
        keep &= sb
    a, b = a[keep], b[keep]
    n = len(a)
    if n == 0:
        raise ValueError("no items to compare")
    ka, kb = int(a.sum()), int(b.sum())
    a_only, b_only = int((a & ~b).sum()), int((b & ~a).sum())
    mc = (
        1.0 if a_only + b_only == 0 else float(stats.binomtest(b_only, a_only + b_only, 0.5).pvalue)
    )
    mrds = mrds_accuracy(n, p0, prior=pr)
    diff = (kb - ka) / n
    return AccuracyComparisonResult(
        n=n,
        accuracy_a=ka / n,
        accuracy_b=kb / n,
        difference=diff,
        prob_b_better=posterior_prob_better(ka, kb, n, prior=pr),
        n_a_only=a_only,
        n_b_only=b_only,
        mcnemar_pvalue=mc,
        p0=p0,
        mrds=mrds,
        exceeds_mrds=bool(abs(diff) > mrds),
    )


# ============================================================================================
# bootstrap, multiple comparisons
# ============================================================================================


@dataclass(frozen=True)
class BootstrapResult:
    """Bootstrap confidence interval of a statistic."""

    estimate: float
    low: float
    high: float
    confidence_level: float
    n_resamples: int
    method: str

    @property
    def confidence_interval(self) -> tuple[float, float]:
        return (self.low, self.high)


def _spearman_axis(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    rx = stats.rankdata(x, axis=axis)
    ry = stats.rankdata(y, axis=axis)
    rx = rx - rx.mean(axis=axis, keepdims=True)
    ry = ry - ry.mean(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (rx * ry).sum(axis) / np.sqrt((rx**2).sum(axis) * (ry**2).sum(axis))


def _mean_axis(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis)


def bootstrap_ci(
    data: Any,
    statistic: Callable[..., Any] | None = None,
    *,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
    random_state: int | np.random.Generator | None = 0,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
) -> BootstrapResult:
    """Seeded paired bootstrap confidence interval for a headline figure.

    Parameters
    ----------
    data : result object or tuple of arrays
        A ``WordSimResult`` (Spearman of scored pairs), ``SCWSResult`` (maxSimC), an object with
        ``hits`` (accuracy over scorable items), a ``RetrievalResult`` (Top-1) -- or a tuple of
        equal-length per-item arrays resampled jointly, with ``statistic(*arrays, axis)``
        vectorised along ``axis`` (as :func:`scipy.stats.bootstrap` expects).
    statistic : callable, optional
        Required for tuples; ignored for result objects.
    n_resamples, confidence_level, method :
        Passed to :func:`scipy.stats.bootstrap` (``paired=True``).
    random_state :
        Seed or generator (default 0, so results are reproducible).
    nan_policy : {"raise", "omit", "propagate"}
        Items with a NaN or infinite value in any array (for a ``WordSimResult``: among the
        scored pairs, e.g. a NaN gold rating; pairs the system skipped, NaN predictions, are
        never resampled): ``"raise"`` (default) raises ``ValueError``, ``"omit"`` drops those
        items, ``"propagate"`` keeps them (the estimate and interval are then NaN), as in
        :mod:`scipy.stats`.

    Raises
    ------
    ValueError
        NaN / inf items with ``nan_policy="raise"``, arrays of unequal length, fewer than 3
        items, ``n_resamples < 1``, ``confidence_level`` outside (0, 1), an unknown
        ``method`` or ``nan_policy``, or no ``statistic`` for a tuple.
    TypeError
        ``data`` of an unsupported type, a ``statistic`` that is not callable, a bad
        ``random_state``.
    """
    policy = check_nan_policy(nan_policy)
    n_resamples = check_int(n_resamples, "n_resamples", low=1)
    confidence_level = check_float(
        confidence_level, "confidence_level", low=0, high=1, low_open=True, high_open=True
    )
    check_choice(method, "method", ("percentile", "basic", "BCa"))
    random_state = check_random_state(random_state)
    arrays: tuple[np.ndarray, ...]
    if isinstance(data, tuple):
        if statistic is None:
            raise ValueError("statistic is required when data is a tuple of arrays")
        if not callable(statistic):
            raise TypeError(f"statistic must be callable, got {type(statistic).__name__}")
        arrays = tuple(np.asarray(a) for a in data)
        stat = statistic
    elif hasattr(data, "gold") and hasattr(data, "pred"):
        ok = ~np.isnan(np.asarray(data.pred, float))
        arrays = (np.asarray(data.pred, float)[ok], np.asarray(data.gold, float)[ok])
        stat = _spearman_axis
    elif hasattr(data, "scores") and hasattr(data, "max_sim_c"):
        df = data.scores.dropna(subset=["maxSimC"])
        arrays = (df["maxSimC"].to_numpy(float), df["gold"].to_numpy(float))
        stat = _spearman_axis
    elif hasattr(data, "ranks"):
        arrays = ((np.asarray(data.ranks) == 1).astype(float),)
        stat = _mean_axis
    elif hasattr(data, "hits"):
        hits = np.asarray(data.hits, float)
        sc = getattr(data, "scorable", None)
        arrays = (hits[np.asarray(sc, bool)] if sc is not None else hits,)
        stat = _mean_axis
    else:
        raise TypeError(f"cannot bootstrap an object of type {type(data).__name__}")
    lengths = {len(a) for a in arrays}
    if len(lengths) != 1:
        raise ValueError(f"arrays must have equal length, got {sorted(lengths)}")
    numeric = [a for a in arrays if a.dtype.kind in "biuf"]
    if numeric and policy != "propagate":
        per_item = [np.isfinite(a.astype(float)).reshape(len(a), -1).all(axis=1) for a in numeric]
        keep = check_finite(
            np.where(np.logical_and.reduce(per_item), 0.0, np.nan), "data", nan_policy=policy
        )
        if not keep.all():
            logger.info("bootstrap_ci: nan_policy='omit' drops %d items", int((~keep).sum()))
            arrays = tuple(a[keep] for a in arrays)
    if len(arrays[0]) < 3:
        raise ValueError(f"need at least 3 items to bootstrap, got {len(arrays[0])}")
    rng = np.random.default_rng(random_state)
    est = float(stat(*arrays, axis=-1))
    res = stats.bootstrap(
        arrays,
        stat,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        method=method,
        paired=True,
        vectorized=True,
        rng=rng,
    )
    return BootstrapResult(
        estimate=est,
        low=float(res.confidence_interval.low),
        high=float(res.confidence_interval.high),
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        method=method,
    )


def _as_pvalues(pvalues: Any) -> tuple[np.ndarray, Any]:
    if isinstance(pvalues, Mapping) and not isinstance(pvalues, pd.Series):
        pvalues = pd.Series(pvalues, dtype=float)
    try:
        arr = np.asarray(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"pvalues must be numbers in [0, 1], got {pvalues!r}") from None
    check_finite(arr, "pvalues (p-values)")
    if np.any((arr < 0) | (arr > 1)):
        bad = arr[(arr < 0) | (arr > 1)]
        raise ValueError(f"pvalues (p-values) must lie in [0, 1]; got {bad[:5].tolist()}")
    return arr, pvalues


def _wrap(adj: np.ndarray, like: Any) -> Any:
    if isinstance(like, pd.Series):
        return pd.Series(adj, index=like.index, name=like.name)
    if isinstance(like, pd.DataFrame):
        return pd.DataFrame(adj, index=like.index, columns=like.columns)
    return adj


def bonferroni(pvalues: Any) -> Any:
    r"""Bonferroni-adjusted p-values :math:`\min(1, m p_i)` (same container type as the input)."""
    arr, like = _as_pvalues(pvalues)
    return _wrap(np.minimum(1.0, arr * arr.size), like)


def holm(pvalues: Any) -> Any:
    r"""Holm (1979) step-down adjusted p-values: :math:`\tilde p_{(i)} = \max_{j \le i}
    \min(1, (m - j + 1) p_{(j)})` (same container type as the input)."""
    arr, like = _as_pvalues(pvalues)
    flat = arr.ravel()
    m = flat.size
    order = np.argsort(flat, kind="stable")
    adj_sorted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * flat[order]))
    out = np.empty(m)
    out[order] = adj_sorted
    return _wrap(out.reshape(arr.shape), like)


def adjust_finite(pvalues: Any, correction: Callable[[np.ndarray], Any] | None = None) -> Any:
    """``correction`` (Holm's by default) over the finite p-values of ``pvalues`` only, the same
    shape and container (a pandas Series keeps its index); NaN where a test could not be
    computed (NaN p-value), so an untestable cell neither counts in the family nor gets a value.

    Examples
    --------
    >>> adjust_finite([0.01, np.nan, 0.04])
    array([0.02,  nan, 0.04])
    """
    fn = holm if correction is None else correction
    index = pvalues.index if isinstance(pvalues, pd.Series) else None
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = np.asarray(fn(p[ok]))
    return out if index is None else pd.Series(out, index=index, name=pvalues.name)


@dataclass(frozen=True)
class SuperiorSetResult:
    """The smallest set of systems significantly better than all the others."""

    members: tuple[str, ...]
    means: dict[str, float]
    pvalues: pd.DataFrame = field(repr=False)
    alpha: float
    paired: bool
    separated: bool


def smallest_superior_set(
    scores: Mapping[str, Any], *, alpha: float = 0.05, paired: bool = False
) -> SuperiorSetResult:
    r"""The smallest set of systems that are significantly better than the rest.

    Systems are sorted by mean per-item score; for k = 1, 2, ... the top k form the set if every
    member beats every non-member by a t-test at level ``alpha`` after a Bonferroni correction
    for all :math:`m(m-1)/2` pairwise comparisons. If no k < m separates, all systems are
    returned with ``separated=False``.

    Parameters
    ----------
    scores : dict name -> per-item array
        E.g. Top-1 hits or reciprocal ranks per query.
    paired : bool
        ``False`` (default): unpaired (Welch-free, pooled-variance) t-test, as the OPCA paper states
        ("unpaired t-test with Bonferroni correction"); ``True``: paired t-test on the same items.

    References
    ----------
    Platt, J., Toutanova, K. & Yih, W. (2010). Translingual document representations from
    discriminative projections. EMNLP, §4 (Tables 1-3).
    """
    if len(scores) < 2:
        raise ValueError("need at least two systems")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    paired = check_bool(paired, "paired")
    names = list(scores)
    arrs = {k: np.asarray(v, float).ravel() for k, v in scores.items()}
    if paired and len({len(a) for a in arrs.values()}) != 1:
        raise ValueError("paired t-tests need the same number of items for every system")
    for k, vals in arrs.items():
        if len(vals) < 2 or not np.isfinite(vals).all():
            raise ValueError(
                f"scores[{k!r}] needs >= 2 per-item scores, all finite; got {len(vals)} with "
                f"{int((~np.isfinite(vals)).sum())} NaN or infinite"
            )
    means = {k: float(arrs[k].mean()) for k in names}
    order = sorted(names, key=lambda k: -means[k])
    m = len(names)
    n_tests = m * (m - 1) // 2
    Pm = np.full((m, m), np.nan)
    for i, a in enumerate(order):
        for j in range(i + 1, m):
            b = order[j]
            x, y = arrs[a], arrs[b]
            if np.array_equal(x, y) or (np.ptp(x) == 0 and np.ptp(y) == 0 and x[0] == y[0]):
                p = 1.0
            elif paired and np.ptp(x - y) == 0:
                p = 0.0  # a constant non-zero difference
            else:
                res = stats.ttest_rel(x, y) if paired else stats.ttest_ind(x, y)
                p = float(res.pvalue) if np.isfinite(res.pvalue) else 1.0
            Pm[i, j] = Pm[j, i] = min(1.0, p * n_tests)
    P = pd.DataFrame(Pm, index=order, columns=order)
    for size in range(1, m):
        if all(
            means[order[i]] > means[order[j]] and Pm[i, j] < alpha
            for i in range(size)
            for j in range(size, m)
        ):
            top = order[:size]
            return SuperiorSetResult(tuple(top), means, P, alpha, paired, True)
    return SuperiorSetResult(tuple(order), means, P, alpha, paired, False)
