"""The statistics and evaluation entry points refuse bad parameters
with a message naming the parameter, and NaN data raise unless ``nan_policy`` says otherwise.

Tables of ``(callable, error type, message pattern)`` per module; small seeded data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from workbench import evaluation as ev
from workbench import significance as sig
from workbench.embeddings import MultiSenseVectors, WordVectors
from workbench.evaluation import WordSimResult
from workbench.senses import avg_sim_wordsim

Case = tuple[Callable[[], Any], type[Exception], str]


def _run(case: Case) -> None:
    fn, error, match = case
    with pytest.raises(error, match=match):
        fn()


def _wsr(pred: Any, gold: Any) -> WordSimResult:
    pred, gold = np.asarray(pred, float), np.asarray(gold, float)
    return WordSimResult("toy", np.nan, np.nan, len(gold), int(np.sum(~np.isnan(pred))), (),
                         pred, gold)  # fmt: skip


_RNG = np.random.default_rng(0)
_GOLD = _RNG.normal(size=60)
_A = _WSR_A = _wsr(_GOLD + _RNG.normal(size=60), _GOLD)
_B = _wsr(_GOLD + 0.5 * _RNG.normal(size=60), _GOLD)
_GOLD_NAN = _GOLD.copy()
_GOLD_NAN[3] = np.nan
_HITS = _RNG.random(50) < 0.6

# --------------------------------------------------------------------------------- correlations

CORRELATION_CASES: dict[str, Case] = {
    "r_jk string": (lambda: sig.dependent_corr("0.5", 0.3, 0.3, 50, method="steiger1980"),
                    TypeError, "r_jk must be a finite number > -1 and < 1, got '0.5'"),
    "r_kh = 1": (lambda: sig.dependent_corr(0.5, 0.3, 1.0, 50, method="steiger1980"),
                 ValueError, "r_kh must be a finite number > -1 and < 1, got 1.0"),
    "r_jh NaN": (lambda: sig.dependent_corr(0.5, np.nan, 0.3, 50, method="steiger1980"),
                 ValueError, "r_jh must be a finite number"),
    "n None": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, None, method="steiger1980"),
               TypeError, "n must be an integer >= 1"),
    "n float": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, 50.5, method="steiger1980"),
                ValueError, "n must be an integer >= 1, got 50.5"),
    "n too small": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, 3, method="steiger1980"),
                    ValueError, "n=3 is too small for method 'steiger1980'"),
    "method": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, 50, method="fisher"), ValueError,
               "method must be one of 'pearson1898'.*got 'fisher'"),
    "alternative": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, 50, method="steiger1980",
                                               alternative="two.sided"), ValueError,
                    "alternative must be one of 'two-sided', 'greater', 'less'"),
    "confidence_level": (lambda: sig.dependent_corr(0.5, 0.3, 0.3, 50, method="zou2007",
                                                    confidence_level=95), ValueError,
                         "confidence_level must be a finite number > 0 and < 1, got 95"),
    "table confidence_level": (lambda: sig.dependent_corr_table(0.5, 0.3, 0.3, 50,
                                                                confidence_level=0), ValueError,
                               "confidence_level"),
}

# --------------------------------------------------------------------------------- MRDS

MRDS_CASES: dict[str, Case] = {
    "p0 string": (lambda: sig.mrds_correlation(100, 0.5, "0.05"), TypeError,
                  "p0 must be a finite number > 0 and < 1, got '0.05'"),
    "p0 > 1": (lambda: sig.mrds_correlation(100, 0.5, 1.5), ValueError, "p0 must be"),
    "r None": (lambda: sig.mrds_correlation(100, None, 0.05), TypeError,
               "r_ab must be a finite number > -1 and < 1"),
    "grid 0": (lambda: sig.mrds_correlation(100, 0.5, 0.05, grid=0), ValueError,
               "grid must be an integer >= 2, got 0"),
    "grid float": (lambda: sig.mrds_correlation(100, 0.5, 0.05, grid=10.5), ValueError,
                   "grid must be an integer"),
    "method zou2007": (lambda: sig.mrds_correlation(100, 0.5, 0.05, method="zou2007"),
                       ValueError, "method 'zou2007' cannot be used for MRDS"),
    "method unknown": (lambda: sig.mrds_correlation(100, 0.5, 0.05, method="x"), ValueError,
                       "method must be one of"),
    "alternative less": (lambda: sig.mrds_correlation(100, 0.5, 0.05, alternative="less"),
                         ValueError, "alternative"),
    "accuracy p0": (lambda: sig.mrds_accuracy(80, 0.6), ValueError,
                    "p0 must be a finite number > 0 and < 0.5, got 0.6"),
    "accuracy n": (lambda: sig.mrds_accuracy(0, 0.05), ValueError, "n must be an integer >= 1"),
    "accuracy prior": (lambda: sig.mrds_accuracy(80, 0.05, prior=(1.0, 0.0)), ValueError,
                       r"prior\[1\] must be a finite number > 0"),
    "accuracy prior length": (lambda: sig.mrds_accuracy(80, 0.05, prior=(1.0,)), ValueError,
                              r"prior must be two numbers"),
    "accuracy discrete": (lambda: sig.mrds_accuracy(80, 0.05, discrete="yes"), TypeError,
                          "discrete must be True or False"),
    "accuracy resolution": (lambda: sig.mrds_accuracy(80, 0.05, resolution=0), ValueError,
                            "resolution must be a finite number > 0"),
    "accuracy aggregate": (lambda: sig.mrds_accuracy(80, 0.05, aggregate="mean"), ValueError,
                           "aggregate must be one of 'min', 'max'; got 'mean'"),
    "accuracy accuracies NaN": (lambda: sig.mrds_accuracy(80, 0.05, accuracies=[0.8, np.nan]),
                                ValueError, "accuracies contains 1 NaN"),
    "posterior k_a": (lambda: sig.posterior_prob_better(11, 5, 10), ValueError,
                      "k_a must be a finite number >= 0 and <= 10, got 11"),
    "posterior n": (lambda: sig.posterior_prob_better(1, 5, 0), ValueError,
                    "n must be an integer >= 1"),
    "table2 accuracy": (lambda: sig.mvlsa_table2(accuracy="no"), TypeError,
                        "accuracy must be True or False"),
}

# --------------------------------------------------------------------------------- compare

COMPARE_CASES: dict[str, Case] = {
    "compare_wordsim p0": (lambda: sig.compare_wordsim(_A, _B, p0="0.05"), TypeError, "p0"),
    "compare_wordsim method": (lambda: sig.compare_wordsim(_A, _B, method="ttest"),
                               ValueError, "method must be one of"),
    "compare_wordsim correlation": (lambda: sig.compare_wordsim(_A, _B, correlation="kendall"),
                                    ValueError, "correlation must be one of 'spearman', "
                                    "'pearson'; got 'kendall'"),
    "compare_wordsim gold NaN": (
        lambda: sig.compare_wordsim(_wsr(_A.pred, _GOLD_NAN), _wsr(_B.pred, _GOLD_NAN)),
        ValueError, "gold ratings contains 1 NaN"),
    "compare_wordsim pred inf": (
        lambda: sig.compare_wordsim(_wsr(np.where(_GOLD > 1, np.inf, _A.pred), _GOLD), _B),
        ValueError, "result_a.pred contains .* infinite predictions"),
    "suite correction": (lambda: sig.compare_wordsim_suite({"x": _A}, {"x": _B},
                                                           correction="fdr"), ValueError,
                         "correction must be one of 'holm', 'bonferroni', 'none'; got 'fdr'"),
    "compare_accuracy p0": (lambda: sig.compare_accuracy(_HITS, ~_HITS, p0=0.7), ValueError,
                            "p0 must be a finite number > 0 and < 0.5"),
    "compare_accuracy prior": (lambda: sig.compare_accuracy(_HITS, ~_HITS, prior=(0, 1)),
                               ValueError, r"prior\[0\]"),
    "compare_accuracy NaN hits": (lambda: sig.compare_accuracy(np.array([1.0, np.nan, 0.0]),
                                                               np.ones(3)), ValueError,
                                  "hits must be boolean"),
    "bootstrap NaN tuple": (lambda: sig.bootstrap_ci((np.array([1.0, np.nan, 2.0, 3.0]),),
                                                     lambda x, axis: x.mean(axis=axis)),
                            ValueError, "data contains 1 NaN or infinite values "
                            r"\(pass nan_policy='omit'"),
    "bootstrap NaN gold": (lambda: sig.bootstrap_ci(_wsr(_A.pred, _GOLD_NAN)), ValueError,
                           "data contains 1 NaN"),
    "bootstrap nan_policy": (lambda: sig.bootstrap_ci(_A, nan_policy="drop"), ValueError,
                             "nan_policy must be one of 'raise', 'omit', 'propagate'"),
    "bootstrap n_resamples": (lambda: sig.bootstrap_ci(_A, n_resamples=0), ValueError,
                              "n_resamples must be an integer >= 1, got 0"),
    "bootstrap confidence_level": (lambda: sig.bootstrap_ci(_A, confidence_level=95),
                                   ValueError, "confidence_level must be a finite number > 0 "
                                   "and < 1, got 95"),
    "bootstrap method": (lambda: sig.bootstrap_ci(_A, method="bca"), ValueError,
                         "method must be one of 'percentile', 'basic', 'BCa'; got 'bca'"),
    "bootstrap random_state": (lambda: sig.bootstrap_ci(_A, random_state="seed"), TypeError,
                               "random_state"),
    "bootstrap statistic": (lambda: sig.bootstrap_ci((np.ones(5),), statistic="mean"),
                            TypeError, "statistic must be callable"),
    "holm NaN": (lambda: sig.holm([0.01, np.nan]), ValueError,
                 r"pvalues \(p-values\) contains 1 NaN"),
    "bonferroni range": (lambda: sig.bonferroni([0.01, 1.5]), ValueError,
                         r"pvalues \(p-values\) must lie in \[0, 1\]; got \[1.5\]"),
    "holm strings": (lambda: sig.holm(["a"]), TypeError, "pvalues must be numbers"),
    "superior alpha": (lambda: sig.smallest_superior_set({"a": [1, 2], "b": [2, 3]}, alpha=0),
                       ValueError, "alpha must be a finite number > 0 and < 1, got 0"),
    "superior paired": (lambda: sig.smallest_superior_set({"a": [1, 2], "b": [2, 3]},
                                                          paired="yes"), TypeError, "paired"),
    "superior inf": (lambda: sig.smallest_superior_set({"a": [1, np.inf], "b": [2, 3]}),
                     ValueError, r"scores\['a'\] needs >= 2 per-item scores, all finite"),
    "results_table bold": (lambda: sig.results_table(pd.DataFrame({"a": [0.5]}), bold="max"),
                           ValueError, "bold must be one of 'best', 'mrds'; got 'max'"),
    "results_table decimals": (lambda: sig.results_table(pd.DataFrame({"a": [0.5]}),
                                                         decimals=-1), ValueError, "decimals"),
    "seed_list n_seeds": (lambda: sig.seed_list(0, 0), ValueError,
                          r"n_seeds \(the SEEDS parameter\) must be an integer >= 1, got 0"),
    "seed_list seed": (lambda: sig.seed_list(-1, 2), ValueError, "seed must be an integer >= 0"),
    "format_mean_sd decimals": (lambda: sig.format_mean_sd(pd.Series([0.5]), None,
                                                           decimals=1.5), ValueError,
                                "decimals must be an integer"),
}

ALL_SIGNIFICANCE = {**CORRELATION_CASES, **MRDS_CASES, **COMPARE_CASES}


@pytest.mark.parametrize("case", list(ALL_SIGNIFICANCE), ids=list(ALL_SIGNIFICANCE))
def test_significance_bad_input(case: str) -> None:
    _run(ALL_SIGNIFICANCE[case])


@pytest.mark.filterwarnings("ignore::scipy.stats.DegenerateDataWarning")
def test_bootstrap_nan_policy_omit_and_propagate() -> None:
    x = np.array([0.2, 0.4, np.nan, 0.9, 0.1, 0.7, 0.3, 0.8])
    mean = lambda a, axis: a.mean(axis=axis)  # noqa: E731
    omit = sig.bootstrap_ci((x,), mean, n_resamples=200, nan_policy="omit")
    ref = sig.bootstrap_ci((x[~np.isnan(x)],), mean, n_resamples=200)
    assert omit == ref
    prop = sig.bootstrap_ci((x,), mean, n_resamples=50, nan_policy="propagate")
    assert np.isnan(prop.estimate)
    # skipped pairs (NaN predictions) of a WordSimResult are not data: no error by default
    pred = _A.pred.copy()
    pred[:5] = np.nan
    res = sig.bootstrap_ci(_wsr(pred, _GOLD), n_resamples=100)
    ok = ~np.isnan(pred)
    assert res.estimate == pytest.approx(stats.spearmanr(pred[ok], _GOLD[ok])[0])
    # a NaN gold rating among the scored pairs: omitted on request
    omit_gold = sig.bootstrap_ci(_wsr(_A.pred, _GOLD_NAN), n_resamples=100, nan_policy="omit")
    keep = ~np.isnan(_GOLD_NAN)
    assert omit_gold.estimate == pytest.approx(stats.spearmanr(_A.pred[keep], _GOLD[keep])[0])


# --------------------------------------------------------------------------------- evaluation


def _vectors() -> WordVectors:
    rng = np.random.default_rng(1)
    return WordVectors(["a", "b", "c", "d", "e"], rng.normal(size=(5, 4)))


_WS = pd.DataFrame({"word1": ["a", "a", "b", "c"], "word2": ["b", "c", "d", "e"],
                    "score": [1.0, 2.0, np.nan, 4.0]})  # fmt: skip
_WS_CLEAN = _WS.assign(score=[1.0, 2.0, 3.0, 4.0])


@dataclass(frozen=True)
class _DuckVectors:
    """A WordVectors-like object that does not check its values itself."""

    index: dict[str, int]
    vectors: np.ndarray


@dataclass(frozen=True)
class _Item:
    id: int
    word1: str
    word2: str
    context1: str
    context2: str
    score: float


_ITEMS = [
    _Item(1, "a", "b", "x <b> a </b> c", "y <b> b </b> d", 3.0),
    _Item(2, "a", "c", "x <b> a </b> d", "y <b> c </b> e", float("nan")),
    _Item(3, "b", "d", "x <b> b </b> e", "y <b> d </b> a", 7.0),
    _Item(4, "c", "e", "x <b> c </b> a", "y <b> e </b> b", 5.0),
]

EVALUATION_CASES: dict[str, Case] = {
    "wordsim gold NaN": (lambda: ev.evaluate_wordsim(_vectors(), _WS), ValueError,
                         r"gold ratings \(column 'score'\) of 'custom' contains 1 NaN"),
    "wordsim nan_policy": (lambda: ev.evaluate_wordsim(_vectors(), _WS, nan_policy="ignore"),
                           ValueError, "nan_policy must be one of"),
    "wordsim oov": (lambda: ev.evaluate_wordsim(_vectors(), _WS_CLEAN, oov="drop"), ValueError,
                    "oov must be one of 'skip', 'zero', 'mean'; got 'drop'"),
    "wordsim lowercase": (lambda: ev.evaluate_wordsim(_vectors(), _WS_CLEAN, lowercase="yes"),
                          TypeError, "lowercase must be True or False"),
    "wordsim score strings": (lambda: ev.evaluate_wordsim(_vectors(),
                                                          _WS_CLEAN.assign(score="high")),
                              ValueError, "column 'score' of 'custom' must be numeric"),
    "wordsim vectors NaN": (lambda: ev.evaluate_wordsim(
        _DuckVectors({"a": 0, "b": 1}, np.array([[1.0, np.nan], [0.0, 1.0]])), _WS_CLEAN),
        ValueError, r"vectors.vectors \(n_words x dim\) contains 1 NaN"),
    "suite names string": (lambda: ev.wordsim_suite(_vectors(), "WS"), TypeError,
                           "names must be a sequence"),
    "analogies top_n": (lambda: ev.evaluate_analogies(_vectors(), pd.DataFrame(
        {"section": ["s"], "a": ["a"], "b": ["b"], "c": ["c"], "d": ["d"]}), top_n=0),
        ValueError, "top_n must be an integer >= 1 or None, got 0"),
    "analogies epsilon": (lambda: ev.evaluate_analogies(_vectors(), pd.DataFrame(
        {"section": ["s"], "a": ["a"], "b": ["b"], "c": ["c"], "d": ["d"]}), epsilon=0),
        ValueError, "epsilon must be a finite number > 0"),
    "toefl oov": (lambda: ev.evaluate_toefl(_vectors(), pd.DataFrame(), oov="all"), ValueError,
                  "oov must be one of 'skip', 'partial'; got 'all'"),
    "retrieval metric": (lambda: ev.retrieval(np.eye(3), np.eye(3), metric="dot"), ValueError,
                         "metric must be one of 'cosine', 'l1'; got 'dot'"),
    "retrieval complex": (lambda: ev.retrieval(np.eye(3) * 1j, np.eye(3)), TypeError,
                          r"queries \(items x features\) must be real-valued"),
    "retrieval sparse NaN": (lambda: ev.retrieval(__import__("scipy.sparse").sparse.csr_matrix(
        np.where(np.eye(3) > 0, np.nan, 0.0)), np.eye(3)), ValueError,
        r"queries \(items x features\) contains 3 NaN"),
    "knn metric": (lambda: ev.knn_classify(np.eye(2), [0, 1], np.eye(2), [0, 1], metric="l2"),
                   ValueError, "metric must be one of"),
    "knn NaN": (lambda: ev.knn_classify(np.eye(2), [0, 1], np.full((1, 2), np.nan), [0],
                                        metric="l1"), ValueError, r"test_X .* contains 2 NaN"),
    "scws gold NaN": (lambda: ev.evaluate_scws(_vectors(), _ITEMS, window=1), ValueError,
                      "gold scores contains 1 NaN"),
    "scws window": (lambda: ev.evaluate_scws(_vectors(), _ITEMS, window=1.5), ValueError,
                    "window must be an integer >= 0, got 1.5"),
    "scws nan_policy": (lambda: ev.evaluate_scws(_vectors(), _ITEMS, nan_policy=None),
                        ValueError, "nan_policy must be one of"),
}


@pytest.mark.parametrize("case", list(EVALUATION_CASES), ids=list(EVALUATION_CASES))
def test_evaluation_bad_input(case: str) -> None:
    _run(EVALUATION_CASES[case])


@pytest.mark.filterwarnings("ignore::scipy.stats.DegenerateDataWarning")
def test_evaluate_wordsim_nan_policy() -> None:
    vec = _vectors()
    omit = ev.evaluate_wordsim(vec, _WS, nan_policy="omit")
    assert omit.n_pairs == 4 and omit.n_scored == 3 and np.isnan(omit.pred[2])
    ref = ev.evaluate_wordsim(vec, _WS.drop(index=2))
    assert omit.spearman == pytest.approx(ref.spearman)
    prop = ev.evaluate_wordsim(vec, _WS, nan_policy="propagate")
    assert prop.n_scored == 4 and np.isnan(prop.spearman)
    # a result with omitted pairs feeds the significance tests like one with OOV pairs
    assert sig.bootstrap_ci(omit, n_resamples=20).estimate == pytest.approx(omit.spearman)


def test_evaluate_scws_nan_policy() -> None:
    omit = ev.evaluate_scws(_vectors(), _ITEMS, window=1, nan_policy="omit")
    assert omit.n_items == 4 and omit.n_scored == 3 and np.isfinite(omit.max_sim_c)
    prop = ev.evaluate_scws(_vectors(), _ITEMS, window=1, nan_policy="propagate")
    assert prop.n_scored == 4 and np.isnan(prop.max_sim_c)


def test_avg_sim_wordsim_nan_policy() -> None:
    rng = np.random.default_rng(2)
    words = ["a", "b", "c", "d", "e"]
    senses = [rng.normal(size=(2, 3)) for _ in words]
    msv = MultiSenseVectors(words, rng.normal(size=(5, 3)), senses, senses)
    with pytest.raises(ValueError, match="gold ratings .* contains 1 NaN"):
        avg_sim_wordsim(msv, _WS)
    assert avg_sim_wordsim(msv, _WS, nan_policy="omit").n_scored == 3
