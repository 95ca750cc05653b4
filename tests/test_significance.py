"""Tests for workbench.significance: textbook values, Table 2 reproduction, edge cases, properties."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from workbench import significance as sig
from workbench.evaluation import WordSimResult


def _det(a, b, c):
    return 1 + 2 * a * b * c - a * a - b * b - c * c


# ----------------------------------------------------------------------------------------------
# dependent_corr: published worked examples (as collected in cocor's test suite, Diedenhofen &
# Musch 2015: May & Hittner 1997; Glass & Stanley 1984; Guilford & Fruchter 1978; DEPCOR,
# Silver, Hittner & May 2006; Dunn & Clark 1969; Steiger 1980 case A; Meng et al. 1992; Zou 2007)
# ----------------------------------------------------------------------------------------------

HOTELLING_MAY_HITTNER = [
    (0.5, 0.2, 0.0, 1.73), (0.5, 0.2, 0.1, 1.80), (0.5, 0.2, 0.2, 1.89), (0.5, 0.2, 0.3, 2.01),
    (0.5, 0.2, 0.4, 2.17), (0.5, 0.2, 0.5, 2.38), (0.5, 0.2, 0.6, 2.68), (0.5, 0.2, 0.7, 3.16),
    (0.5, 0.2, 0.8, 4.07), (0.7, 0.4, 0.0, 2.46), (0.7, 0.4, 0.1, 2.42), (0.7, 0.4, 0.2, 2.45),
    (0.7, 0.4, 0.3, 2.53), (0.7, 0.4, 0.4, 2.67), (0.7, 0.4, 0.5, 2.89), (0.7, 0.4, 0.6, 3.22),
    (0.7, 0.4, 0.7, 3.78), (0.7, 0.4, 0.8, 4.91),
]  # fmt: skip
MENG_MAY_HITTNER = [
    (0.5, 0.2, 0.0, 1.62), (0.5, 0.2, 0.1, 1.70), (0.5, 0.2, 0.2, 1.80), (0.5, 0.2, 0.3, 1.91),
    (0.5, 0.2, 0.4, 2.06), (0.5, 0.2, 0.6, 2.50), (0.5, 0.2, 0.7, 2.87), (0.5, 0.2, 0.8, 3.50),
    (0.7, 0.4, 0.0, 2.03), (0.7, 0.4, 0.1, 2.10), (0.7, 0.4, 0.2, 2.20), (0.7, 0.4, 0.3, 2.32),
    (0.7, 0.4, 0.4, 2.47), (0.7, 0.4, 0.5, 2.66), (0.7, 0.4, 0.6, 2.94), (0.7, 0.4, 0.7, 3.35),
    (0.7, 0.4, 0.8, 4.05),
]  # fmt: skip


@pytest.mark.parametrize(("rjk", "rjh", "rkh", "t"), HOTELLING_MAY_HITTNER)
def test_hotelling_may_hittner_1997(rjk, rjh, rkh, t):
    res = sig.dependent_corr(rjk, rjh, rkh, 50, method="hotelling1940")
    assert round(res.statistic, 2) == t and res.distribution == "t" and res.df == 47


@pytest.mark.parametrize(("rjk", "rjh", "rkh", "z"), MENG_MAY_HITTNER)
def test_meng_may_hittner_1997(rjk, rjh, rkh, z):
    assert round(sig.dependent_corr(rjk, rjh, rkh, 50, method="meng1992").statistic, 2) == z


def test_textbook_examples():
    d = sig.dependent_corr
    assert round(d(0.612, 0.541, 0.466, 157, method="hotelling1940").statistic, 3) == 1.158
    assert round(d(0.55, 0.45, 0.60, 200, method="hotelling1940").statistic, 2) == 1.91
    assert round(d(0.5, 0.2, 0.3, 50, method="hendrickson1970").statistic, 2) == 2.01
    w = d(0.3, 0.4, 0.5, 100, method="williams1959")
    assert round(w.statistic, 4) == -1.0767 and round(w.pvalue, 4) == 0.2843
    assert round(d(0.5, 0.2, 0.3, 50, method="olkin1967").statistic, 2) == 2.00
    assert round(d(0.56, 0.43, 0.52, 100, method="olkin1967").statistic, 2) == 1.59
    dc = d(0.3, 0.4, 0.5, 100, method="dunn1969")
    assert round(dc.statistic, 4) == -1.0730 and round(dc.pvalue, 4) == 0.2833
    dc2 = d(0.5, 0.6, 0.7, 100, method="dunn1969")
    assert dc2.statistic == pytest.approx(-1.5838851123, abs=1e-9)
    assert dc2.pvalue == pytest.approx(0.1132198659, abs=1e-9)
    # Steiger (1980) case A, p. 249
    assert d(0.4, 0.5, 0.1, 103, method="steiger1980").statistic == pytest.approx(
        -0.8887185, abs=1e-7
    )
    s2 = d(0.3, 0.4, 0.5, 100, method="steiger1980")
    assert round(s2.statistic, 4) == -1.0718 and round(s2.pvalue, 4) == 0.2838
    h = d(0.3, 0.4, 0.5, 100, method="hittner2003")
    assert round(h.statistic, 4) == -1.0715 and round(h.pvalue, 4) == 0.2839
    m2 = d(0.3, 0.4, 0.5, 100, method="meng1992")
    assert round(m2.statistic, 4) == -1.0707 and round(m2.pvalue, 4) == 0.2843
    assert round(d(0.5, 0.2, 0.5, 50, method="meng1992").statistic, 3) == 2.245


def test_meng_rosenthal_rubin_1992_worked_example():
    # Meng et al. (1992), p. 173: one-sided z = 1.68, p = .047, interval for the z difference
    res = sig.dependent_corr(0.63, -0.03, -0.19, 15, method="meng1992", alternative="greater")
    assert round(res.statistic, 2) == 1.68 and round(res.pvalue, 3) == 0.047
    assert np.round(res.confidence_interval, 3).tolist() == [-0.129, 1.672]


def test_zou_2007_worked_example():
    res = sig.dependent_corr(0.396, 0.179, 0.088, 66, method="zou2007")
    assert np.round(res.confidence_interval, 3).tolist() == [-0.093, 0.517]
    assert np.isnan(res.statistic) and np.isnan(res.pvalue)


def test_pearson1898_formula_and_null_distribution():
    # Steiger (1980) eq. 3-4 written out independently
    rjk, rjh, rkh, n = 0.45, 0.3, 0.6, 120
    k = rkh * (1 - rjk**2 - rjh**2) - 0.5 * rjk * rjh * (1 - rjk**2 - rjh**2 - rkh**2)
    z = np.sqrt(n) * (rjk - rjh) / np.sqrt((1 - rjk**2) ** 2 + (1 - rjh**2) ** 2 - 2 * k)
    res = sig.dependent_corr(rjk, rjh, rkh, n, method="pearson1898")
    assert res.statistic == pytest.approx(z, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)


@pytest.mark.parametrize("method", [m for m in sig.DEPENDENT_CORR_METHODS if m != "zou2007"])
def test_null_distribution_is_calibrated(method):
    """Planted null: j, k, h trivariate normal with rho_jk = rho_jh; the statistic is ~N(0, 1)."""
    rng = np.random.default_rng(1)
    R = np.array([[1, 0.5, 0.5], [0.5, 1, 0.6], [0.5, 0.6, 1]])
    L = np.linalg.cholesky(R)
    n, reps = 300, 600
    X = rng.normal(size=(reps, n, 3)) @ L.T
    zs = []
    for x in X:
        c = np.corrcoef(x.T)
        zs.append(sig.dependent_corr(c[0, 1], c[0, 2], c[1, 2], n, method=method).statistic)
    zs = np.array(zs)
    assert abs(zs.mean()) < 0.15 and 0.85 < zs.std() < 1.15


def test_alternatives_and_symmetry():
    two = sig.dependent_corr(0.5, 0.3, 0.4, 80, method="williams1959")
    g = sig.dependent_corr(0.5, 0.3, 0.4, 80, method="williams1959", alternative="greater")
    lt = sig.dependent_corr(0.5, 0.3, 0.4, 80, method="williams1959", alternative="less")
    assert g.pvalue == pytest.approx(two.pvalue / 2) and lt.pvalue == pytest.approx(1 - g.pvalue)
    sw = sig.dependent_corr(0.3, 0.5, 0.4, 80, method="williams1959")
    assert sw.statistic == pytest.approx(-two.statistic) and sw.pvalue == pytest.approx(two.pvalue)


def test_equal_correlations_give_p_one():
    for m in sig.DEPENDENT_CORR_METHODS:
        res = sig.dependent_corr(0.6, 0.6, 0.9, 50, method=m)
        if m == "zou2007":
            lo, hi = res.confidence_interval
            assert lo < 0 < hi
        else:
            assert res.statistic == pytest.approx(0.0, abs=1e-12)
            assert res.pvalue == pytest.approx(1.0)


def test_dependent_corr_bad_input():
    d = sig.dependent_corr
    with pytest.raises(ValueError, match=r"r_jk must be a finite number > -1 and < 1, got 1.0"):
        d(1.0, 0.5, 0.3, 50, method="steiger1980")
    with pytest.raises(ValueError, match="r_jh must be a finite number > -1 and < 1"):
        d(0.5, -1.2, 0.3, 50, method="steiger1980")
    with pytest.raises(ValueError, match="positive definite"):
        d(0.9, -0.9, 0.9, 50, method="steiger1980")
    with pytest.raises(ValueError, match="too small"):
        d(0.5, 0.3, 0.3, 3, method="steiger1980")
    with pytest.raises(ValueError, match="too small"):
        d(0.5, 0.3, 0.3, 2, method="pearson1898")
    assert np.isfinite(d(0.5, 0.3, 0.3, 3, method="pearson1898").pvalue)
    with pytest.raises(ValueError, match="integer"):
        d(0.5, 0.3, 0.3, 50.5, method="steiger1980")
    with pytest.raises(ValueError, match="method must be one of .*got 'fisher1925'"):
        d(0.5, 0.3, 0.3, 50, method="fisher1925")
    with pytest.raises(ValueError, match="alternative"):
        d(0.5, 0.3, 0.3, 50, method="steiger1980", alternative="two.sided")
    with pytest.raises(ValueError, match="r_jk must be a finite number"):
        d(float("nan"), 0.3, 0.3, 50, method="steiger1980")


_r = st.floats(-0.95, 0.95)


@settings(max_examples=150, deadline=None)
@given(_r, _r, _r, st.integers(5, 5000), st.sampled_from(sig.DEPENDENT_CORR_METHODS[:-1]))
def test_property_pvalues_in_unit_interval(rjk, rjh, rkh, n, method):
    if _det(rjk, rjh, rkh) <= 1e-6:
        return
    for alt in ("two-sided", "greater", "less"):
        try:
            res = sig.dependent_corr(rjk, rjh, rkh, n, method=method, alternative=alt)
        except ValueError as e:  # a method's variance estimate can be negative far from H0
            assert "undefined" in str(e)
            return
        assert 0.0 <= res.pvalue <= 1.0


@settings(max_examples=100, deadline=None)
@given(
    st.floats(0.05, 0.9),
    st.floats(0.02, 0.3),
    st.floats(0.0, 0.9),
    st.integers(10, 500),
    st.sampled_from(sig.DEPENDENT_CORR_METHODS[:-1]),
)
def test_property_pvalues_shrink_with_n(r, diff, rkh, n, method):
    rjk, rjh = min(r + diff, 0.97), r
    if _det(rjk, rjh, rkh) <= 1e-3:
        return
    p1 = sig.dependent_corr(rjk, rjh, rkh, n, method=method).pvalue
    p2 = sig.dependent_corr(rjk, rjh, rkh, 4 * n, method=method).pvalue
    assert p2 <= p1 + 1e-12


# ----------------------------------------------------------------------------------------------
# MRDS: Table 2 and footnote 4 of Rastogi, Van Durme & Arora (2015)
# ----------------------------------------------------------------------------------------------


def test_table2_reproduced_within_015_points():
    t0 = time.process_time()
    tab = sig.mvlsa_table2()
    cpu = time.process_time() - t0
    paper = sig.MVLSA_TABLE2
    diff = (tab.drop(columns="n") - paper.drop(columns="n")).abs()
    filled = paper.drop(columns="n").notna()
    assert (tab.drop(columns="n").notna() == filled).all().all()
    assert diff[filled].max().max() <= 0.15, diff
    assert cpu < 2.0, f"Table 2 took {cpu:.2f}s CPU"


def test_table2_exact_script_variant_and_two_sided_does_not_match():
    tab = sig.mvlsa_table2(method="mvlsa2015")
    paper = sig.MVLSA_TABLE2
    assert (tab - paper).abs().drop(columns="n").max().max() <= 0.1
    two = 100 * sig.mrds_correlation(30, 0.5, 0.01, alternative="two-sided")
    assert abs(two - paper.loc["MC", "p0.01_r0.5"]) > 3  # the paper's test is one-sided


def test_footnote4_toefl_jeffreys_prior():
    assert 100 * sig.mrds_accuracy(80, 0.05, prior=(0.5, 0.5)) == pytest.approx(
        sig.MVLSA_FOOTNOTE4_TOEFL, abs=0.15
    )
    # "did not affect MRDS for the AN-SEM and AN-SYN datasets"
    for n in (10675, 8869):
        a = sig.mrds_accuracy(n, 0.05, prior=(0.5, 0.5))
        b = sig.mrds_accuracy(n, 0.05)
        assert abs(a - b) < 1e-4


def test_mrds_is_the_significance_boundary():
    n, r, p0 = 353, 0.7, 0.05
    s = sig.mrds_correlation(n, r, p0)
    assert s == pytest.approx(0.068, abs=0.001)
    at = sig.dependent_corr(s, 0.0, r, n, method="williams1959", alternative="greater").pvalue
    assert at == pytest.approx(p0, abs=1e-5)
    below = sig.dependent_corr(0.9 * s, 0.0, r, n, method="williams1959", alternative="greater")
    assert below.pvalue > p0
    # monotone: more items or more agreeing systems -> smaller MRDS
    assert sig.mrds_correlation(2 * n, r, p0) < s < sig.mrds_correlation(n, 0.5, p0)
    assert 0 < sig.mrds_correlation(n, r, p0, method="steiger1980") < 0.2


def test_mrds_accuracy_properties():
    a = sig.mrds_accuracy(1000, 0.05)
    assert 0 < a < 0.1 and sig.mrds_accuracy(4000, 0.05) < a
    assert sig.mrds_accuracy(1000, 0.01) > a
    # the paper's literal "for all theta" definition is much stricter
    assert sig.mrds_accuracy(1000, 0.05, accuracies=[0.5, 0.7, 0.9], aggregate="max") > a
    cont = sig.mrds_accuracy(1000, 0.05, accuracies=[0.8], discrete=False)
    k = 800
    assert 1 - sig.posterior_prob_better(k, k + cont * 1000, 1000) == pytest.approx(0.05, abs=1e-3)


def test_mrds_tiny_n_is_infinite():
    assert sig.mrds_accuracy(10, 0.05) == float("inf")
    assert 0 < sig.mrds_correlation(5, 0.9, 0.05) < 1


def test_mrds_bad_input():
    with pytest.raises(ValueError, match="p0"):
        sig.mrds_correlation(100, 0.5, 1.5)
    with pytest.raises(ValueError, match="cannot be used"):
        sig.mrds_correlation(100, 0.5, 0.05, method="zou2007")
    with pytest.raises(ValueError, match="alternative"):
        sig.mrds_correlation(100, 0.5, 0.05, alternative="less")
    with pytest.raises(ValueError, match="r_ab must be a finite number > -1 and < 1"):
        sig.mrds_correlation(100, 1.0, 0.05)
    with pytest.raises(ValueError, match="too small"):
        sig.mrds_correlation(3, 0.5, 0.05)
    with pytest.raises(ValueError, match="prior"):
        sig.mrds_accuracy(80, 0.05, prior=(0, 1))
    with pytest.raises(ValueError, match="n must"):
        sig.mrds_accuracy(0, 0.05)


def test_posterior_prob_better_matches_monte_carlo():
    rng = np.random.default_rng(0)
    ka, kb, n = 60, 68, 80
    a = rng.beta(1 + ka, 1 + n - ka, 400_000)
    b = rng.beta(1 + kb, 1 + n - kb, 400_000)
    assert sig.posterior_prob_better(ka, kb, n) == pytest.approx(np.mean(b > a), abs=3e-3)
    assert sig.posterior_prob_better(40, 40, 80) == pytest.approx(0.5, abs=1e-6)


# ----------------------------------------------------------------------------------------------
# comparisons
# ----------------------------------------------------------------------------------------------


def _wsr(pred, gold, name="toy"):
    return WordSimResult(
        name, float("nan"), float("nan"), len(gold), int(np.sum(~np.isnan(pred))), (), pred, gold
    )


def test_compare_wordsim_identical_and_planted():
    rng = np.random.default_rng(2)
    n = 2000
    gold = rng.normal(size=n)
    a = gold + 1.5 * rng.normal(size=n)
    b = gold + 0.7 * rng.normal(size=n)
    same = sig.compare_wordsim(_wsr(a, gold), _wsr(a.copy(), gold))
    assert same.pvalue == 1.0 and same.difference == 0.0 and not same.significant
    res = sig.compare_wordsim(_wsr(a, gold), _wsr(b, gold), alternative="greater")
    assert res.r_a == pytest.approx(stats.spearmanr(a, gold)[0])
    assert res.r_b == pytest.approx(stats.spearmanr(b, gold)[0])
    assert res.r_ab == pytest.approx(stats.spearmanr(a, b)[0])
    assert res.difference > 0.1 and res.significant and res.exceeds_mrds and res.pvalue < 1e-6
    assert res.mrds == pytest.approx(sig.mrds_correlation(n, res.r_ab, 0.05))
    # NaN (skipped) pairs are dropped from both
    a2 = a.copy()
    a2[:10] = np.nan
    assert sig.compare_wordsim(_wsr(a2, gold), _wsr(b, gold)).n == n - 10
    with pytest.raises(ValueError, match="same rating set"):
        sig.compare_wordsim(_wsr(a, gold), _wsr(b[:-1], gold[:-1]))
    with pytest.raises(ValueError, match="perfectly"):
        sig.compare_wordsim(_wsr(a, gold), _wsr(gold * 2, gold))
    with pytest.raises(ValueError, match="at least 4"):
        sig.compare_wordsim(_wsr(a[:3], gold[:3]), _wsr(b[:3], gold[:3]))
    with pytest.raises(TypeError):
        sig.dependent_corr(0.5, 0.3, 0.2, 50)  # method is required


def test_compare_accuracy_mcnemar_and_posterior():
    rng = np.random.default_rng(3)
    a = rng.random(500) < 0.6
    b = a.copy()
    flip = rng.choice(500, 60, replace=False)
    b[flip[:45]] = True
    b[flip[45:]] = False
    res = sig.compare_accuracy(a, b)
    a_only, b_only = int((a & ~b).sum()), int((b & ~a).sum())
    assert (res.n_a_only, res.n_b_only) == (a_only, b_only)
    assert res.mcnemar_pvalue == pytest.approx(stats.binomtest(b_only, a_only + b_only).pvalue)
    assert res.prob_b_better == pytest.approx(
        sig.posterior_prob_better(a.sum(), b.sum(), 500), abs=1e-9
    )
    same = sig.compare_accuracy(a, a)
    assert same.mcnemar_pvalue == 1.0 and same.prob_b_better == pytest.approx(0.5, abs=1e-6)
    with pytest.raises(ValueError, match="equal length"):
        sig.compare_accuracy(a, b[:-1])


# ----------------------------------------------------------------------------------------------
# bootstrap, multiple comparisons, superior set
# ----------------------------------------------------------------------------------------------


def test_bootstrap_ci_seeded_and_sensible():
    rng = np.random.default_rng(4)
    gold = rng.normal(size=300)
    pred = gold + rng.normal(size=300)
    r1 = sig.bootstrap_ci(_wsr(pred, gold), n_resamples=500)
    r2 = sig.bootstrap_ci(_wsr(pred, gold), n_resamples=500)
    assert r1 == r2
    assert r1.low < r1.estimate < r1.high
    assert r1.estimate == pytest.approx(stats.spearmanr(pred, gold)[0])
    hits = rng.random(400) < 0.7
    acc = sig.bootstrap_ci((hits.astype(float),), lambda x, axis: x.mean(axis=axis))
    se = np.sqrt(0.7 * 0.3 / 400)
    assert acc.high - acc.low == pytest.approx(2 * 1.96 * se, rel=0.2)
    with pytest.raises(ValueError, match="statistic"):
        sig.bootstrap_ci((hits,))
    with pytest.raises(TypeError):
        sig.bootstrap_ci(object())


def test_bonferroni_and_holm():
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(sig.bonferroni(p), [0.04, 0.16, 0.12, 0.02])
    np.testing.assert_allclose(sig.holm(p), [0.03, 0.06, 0.06, 0.02])
    s = sig.holm(pd.Series(p, index=list("abcd")))
    assert list(s.index) == list("abcd")
    with pytest.raises(ValueError, match="p-values"):
        sig.holm([0.1, 1.2])


def test_smallest_superior_set_planted():
    rng = np.random.default_rng(5)
    scores = {
        "opca": rng.normal(0.9, 0.1, 200),
        "cplsa": rng.normal(0.88, 0.1, 200),
        "lsi": rng.normal(0.6, 0.1, 200),
        "untranslated": rng.normal(0.5, 0.1, 200),
    }
    res = sig.smallest_superior_set(scores)
    assert set(res.members) == {"opca", "cplsa"} and res.separated
    assert sig.smallest_superior_set(scores, paired=True).members == res.members
    tied = sig.smallest_superior_set({"a": scores["lsi"], "b": scores["lsi"] + 1e-9})
    assert not tied.separated and set(tied.members) == {"a", "b"}
    with pytest.raises(ValueError, match="two systems"):
        sig.smallest_superior_set({"a": scores["lsi"]})


def test_results_table_marks_and_exports(tmp_path):
    scores = pd.DataFrame(
        {"LSA": [0.70, 0.50], "MVLSA": [0.74, 0.52], "GloVe": [0.73, 0.60]},
        index=pd.Index(["MEN", "RW"], name="dataset"),
    )
    mrds = {"MEN": 0.013, "RW": 0.016}
    t = sig.results_table(scores, baseline="LSA", mrds=mrds, bold="mrds")
    assert t.bold.loc["MEN"].tolist() == [False, True, True]
    assert t.bold.loc["RW"].tolist() == [False, False, True]
    assert t.dagger.loc["MEN"].tolist() == [False, True, True]
    assert t.dagger.loc["RW"].tolist() == [False, True, True]
    md = t.to_markdown()
    assert "**74.0†**" in md and md.splitlines()[0].endswith("| MRDS |")
    assert "| MEN | 70.0 | **74.0†** | **73.0†** | 1.3 |" in md
    tex = t.to_latex(caption="Spearman x 100")
    assert "\\textbf{60.0$^\\dagger$}" in tex and "\\begin{tabular}" in tex
    csv = t.to_csv(tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv", index_col=0)
    assert back.loc["MEN", "MVLSA"] == 0.74 and bool(back.loc["RW", "GloVe__bold"]) and csv
    best = sig.results_table(scores)
    assert best.bold.sum().sum() == 2 and not best.dagger.any().any()
    with pytest.raises(ValueError, match="baseline"):
        sig.results_table(scores, baseline="BERT")


def test_table2_comparison_and_all_methods_table():
    comp = sig.mvlsa_table2_comparison(table=sig.mvlsa_table2(method="mvlsa2015"))
    assert len(comp) == 66 and comp["difference"].abs().max() <= 0.1
    t = sig.dependent_corr_table(0.5, 0.4, 0.8, 300)
    assert list(t["method"]) == list(sig.DEPENDENT_CORR_METHODS)
    assert t["pvalue"].iloc[:9].between(0, 1).all() and np.isnan(t["pvalue"].iloc[9])
    assert t["ci_low"].iloc[9] < 0.1 < t["ci_high"].iloc[9]


def test_compare_wordsim_suite_holm():
    rng = np.random.default_rng(6)
    suites = [{}, {}]
    for k, n in (("big", 1500), ("small", 30)):
        gold = rng.normal(size=n)
        suites[0][k] = _wsr(gold + 1.5 * rng.normal(size=n), gold, k)
        suites[1][k] = _wsr(gold + 0.5 * rng.normal(size=n), gold, k)
    df = sig.compare_wordsim_suite(suites[0], suites[1])
    big = df.set_index("dataset").loc["big"]
    assert big["significant"] and big["exceeds_mrds"]
    assert (df["pvalue_adjusted"] >= df["pvalue"]).all()
    with pytest.raises(ValueError, match="correction"):
        sig.compare_wordsim_suite(suites[0], suites[1], correction="fdr")


def test_figures_and_widgets_smoke():
    import matplotlib

    matplotlib.use("Agg")
    from workbench.explore.significance import comparison_explorer, mrds_calculator
    from workbench.viz.significance import (
        plot_comparison_scatter,
        plot_mrds_curves,
        plot_table2_comparison,
    )

    fig = plot_mrds_curves([30, 300], r_values=(0.5,), p0_values=(0.05,))
    assert len(fig.axes) == 2
    comp = sig.mvlsa_table2_comparison(table=sig.MVLSA_TABLE2)
    assert comp["difference"].abs().max() == 0
    plot_table2_comparison(comp)
    rng = np.random.default_rng(7)
    gold = rng.normal(size=50)
    a, b = _wsr(gold + rng.normal(size=50), gold, "x"), _wsr(gold + rng.normal(size=50), gold, "x")
    plot_comparison_scatter(a, b)
    assert mrds_calculator().children
    assert comparison_explorer({"x": a}, {"x": b}).children
