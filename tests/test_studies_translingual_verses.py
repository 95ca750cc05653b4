"""Tests for the verse-level evaluation, the retrieval scoring and pairwise tests of
workbench.crosslingual (compare, the PLSA kernel) and of workbench.studies.translingual (verses;
the notebook-07 Discussion is tested in test_studies_translingual_facts.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.crosslingual import (
    compact_letters,
    compare_pairs,
    paired_retrieval,
    pairwise_mcnemar,
)
from workbench.crosslingual import compare as compare_mod  # noqa: I001
from workbench.crosslingual.plsa import _em_statistics
from workbench.evaluation import crosslingual_retrieval
from workbench.significance import compare_accuracy
from workbench.studies.translingual import (
    FittedModel,
    eligible_verses,
    run_verse_retrieval,
    sample_verse_pools,
)

# ------------------------------------------------------------------ paired retrieval


@pytest.mark.parametrize("metric", ["cosine", "l1"])
def test_paired_retrieval_equals_crosslingual_retrieval(metric):
    rng = np.random.default_rng(0)
    a = rng.random((60, 8))
    b = a + 0.4 * rng.standard_normal((60, 8))
    if metric == "l1":
        b = np.abs(b)
    ref = crosslingual_retrieval(a, b, metric=metric)
    got = paired_retrieval(a, b, metric=metric)
    np.testing.assert_array_equal(got.ranks, ref.ranks)
    assert got.top1 == pytest.approx(ref.top1) and got.mrr == pytest.approx(ref.mrr)
    assert got.forward.top1 == pytest.approx(ref.forward.top1)
    assert got.backward.mrr == pytest.approx(ref.backward.mrr)
    assert 0 < got.top1 < 1  # the planted noise makes some errors


def test_paired_retrieval_blocks_sparse_and_ties(monkeypatch):
    rng = np.random.default_rng(1)
    a = sp.random(40, 30, density=0.2, random_state=rng, format="csr")
    b = sp.csr_matrix(a + sp.random(40, 30, density=0.05, random_state=rng))
    whole = paired_retrieval(a, b)
    monkeypatch.setattr(compare_mod, "_BLOCK_ELEMENTS", 100)  # many row blocks
    blocked = paired_retrieval(a, b)
    np.testing.assert_array_equal(whole.ranks, blocked.ranks)
    # a dense-enough sparse matrix is scored like its dense copy
    dense_b = sp.csr_matrix(np.abs(rng.standard_normal((40, 30))))
    np.testing.assert_array_equal(
        paired_retrieval(a, dense_b).ranks, paired_retrieval(a.toarray(), dense_b.toarray()).ranks
    )
    # a target tying with the true mate counts as an error, in both directions
    q = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    r = paired_retrieval(q, q)
    assert r.forward.ranks.tolist() == [2, 2, 1] and r.backward.ranks.tolist() == [2, 2, 1]
    with pytest.raises(ValueError, match="same shape"):
        paired_retrieval(q, q[:2])
    with pytest.raises(ValueError, match="metric"):
        paired_retrieval(q, q, metric="dot")


# ------------------------------------------------------------------ pairwise tests, letters


def planted_hits(rng, accs, n=600):
    """Hits of methods with the given accuracies, sharing one difficulty per item."""
    difficulty = rng.random(n)
    return {m: difficulty < acc for m, acc in accs.items()}


def test_pairwise_mcnemar_planted_ranking():
    rng = np.random.default_rng(2)
    hits = planted_hits(rng, {"weak": 0.5, "strong": 0.8, "equal": 0.8, "mid": 0.7})
    table = pairwise_mcnemar(hits)
    assert len(table) == 6
    assert (table["accuracy better"] >= table["accuracy worse"]).all()
    assert (table["holm p"] >= table["mcnemar p"] - 1e-15).all()
    by = {frozenset((r.better, r.worse)): r for r in table.itertuples()}
    assert by[frozenset(("strong", "weak"))].significant
    assert by[frozenset(("strong", "mid"))].significant
    assert not by[frozenset(("strong", "equal"))].significant  # identical hits: p = 1
    # the same exact McNemar p-values as compare_accuracy
    r = compare_accuracy(hits["mid"], hits["strong"])
    row = table[(table["better"] == "strong") & (table["worse"] == "mid")].iloc[0]
    assert row["mcnemar p"] == pytest.approx(r.mcnemar_pvalue)
    assert row["n better only"] == r.n_b_only and row["n worse only"] == r.n_a_only
    with pytest.raises(ValueError, match="at least two"):
        pairwise_mcnemar({"one": hits["weak"]})


def test_compare_pairs_adds_holm_over_its_rows():
    rng = np.random.default_rng(3)
    hits = planted_hits(rng, {"a": 0.6, "b": 0.7, "c": 0.603})
    t = compare_pairs(hits, [("a", "b"), ("a", "c"), ("a", "missing")])
    assert list(t["method"]) == ["b", "c"]
    raw = t["mcnemar p"].to_numpy()
    assert t["holm p"].iloc[int(np.argmin(raw))] == pytest.approx(min(1.0, 2 * raw.min()))
    assert t["significant"].tolist() == [True, False]


def test_compact_letters_planted_structures():
    order = ["A", "B", "C", "D"]
    assert compact_letters(order, []) == {m: "a" for m in order}
    every = [(x, y) for i, x in enumerate(order) for y in order[i + 1 :]]
    assert compact_letters(order, every) == {"A": "a", "B": "b", "C": "c", "D": "d"}
    # only the ends differ: the middle shares a letter with both
    assert compact_letters(["A", "B", "C"], [("C", "A")]) == {"A": "a", "B": "ab", "C": "b"}
    # Piepho's rule: two methods share a letter iff they do not differ
    diff = {("A", "C"), ("A", "D"), ("B", "D")}
    letters = compact_letters(order, diff)
    for i, x in enumerate(order):
        for y in order[i + 1 :]:
            share = bool(set(letters[x]) & set(letters[y]))
            assert share == ((x, y) not in diff), (x, y, letters)
    with pytest.raises(ValueError, match="not in order"):
        compact_letters(order, [("A", "Z")])


# ------------------------------------------------------------------ PLSA kernel


def test_em_statistics_matches_dense_formulas():
    rng = np.random.default_rng(4)
    x = sp.csr_matrix(rng.poisson(0.7, (7, 11)).astype(float))
    theta = rng.random((7, 3)) + 0.1  # unnormalised is allowed
    phi_t = rng.random((11, 3)) + 0.1
    loglik, rows, cols = _em_statistics(x, theta, phi_t, rows=True, cols=True)
    dense = theta @ phi_t.T
    ratio = np.where(x.toarray() > 0, x.toarray() / dense, 0.0)
    assert loglik == pytest.approx(float((x.toarray() * np.log(dense))[x.toarray() > 0].sum()))
    np.testing.assert_allclose(rows, ratio @ phi_t, rtol=1e-12)
    np.testing.assert_allclose(cols, ratio.T @ theta, rtol=1e-12)
    only, none_rows, none_cols = _em_statistics(x, theta, phi_t, rows=False)
    assert only == pytest.approx(loglik) and none_rows is None and none_cols is None


# ------------------------------------------------------------------ verse evaluation


def planted_verse_data(rng, n_verses=400, n_terms=30):
    """Dev and test "verses" whose Spanish side is the English side plus noise."""
    part = np.array(["dev", "test"] * (n_verses // 2), dtype=object)
    en = rng.poisson(0.5, (n_verses, n_terms)).astype(float)
    es = en.copy()
    es[:, :3] += rng.poisson(0.3, (n_verses, 3))
    en[5, :] = 0  # too short for the pools
    en[5, 0] = 1
    counts = {"en": sp.csr_matrix(en), "es": sp.csr_matrix(es)}
    return SimpleNamespace(
        languages=("en", "es"),
        verse_ids=[("Gen", 1, i) for i in range(n_verses)],
        verse_part=part,
        verse_counts=counts,
        verse_weighted=counts,
    )


def planted_models(rng, n_terms=30):
    signal = np.eye(n_terms)
    noise = rng.standard_normal((n_terms, n_terms))

    def good(lang, x, c):  # informative in every dimension
        return np.asarray(x @ signal)

    def first_dims_noise(lang, x, c):  # only the last dimensions carry the signal
        v = np.asarray(x @ signal)[:, ::-1].copy()
        v[:, : n_terms - 8] = rng.standard_normal((v.shape[0], n_terms - 8))
        return v

    def junk(lang, x, c):
        return np.asarray(x @ noise) if lang == "en" else rng.standard_normal((x.shape[0], n_terms))

    return [
        FittedModel("Good", {}, (None,), good, "cosine", 0.0),
        FittedModel("Tail", {"gamma": 1.0}, (4, n_terms), first_dims_noise, "cosine", 0.0),
        FittedModel("Junk", {}, (None,), junk, "cosine", 0.0),
    ]


def test_verse_pools_are_seeded_and_eligible():
    rng = np.random.default_rng(5)
    data = planted_verse_data(rng)
    elig = eligible_verses(data, "dev", min_terms=3)
    assert 5 not in eligible_verses(data, "test", min_terms=3)
    assert np.all(data.verse_part[elig] == "dev")
    p0 = sample_verse_pools(data, 0, 50, 3)
    assert {k: len(v) for k, v in p0.items()} == {"dev": 50, "test": 50}
    assert np.all(np.diff(p0["dev"]) > 0) and set(p0["dev"]) <= set(elig)
    again = sample_verse_pools(data, 0, 50, 3)
    assert all(np.array_equal(p0[k], again[k]) for k in p0)
    assert not np.array_equal(p0["test"], sample_verse_pools(data, 1, 50, 3)["test"])
    with pytest.raises(ValueError, match="part"):
        eligible_verses(data, "train")
    with pytest.raises(ValueError, match="pool_size"):
        sample_verse_pools(data, 0, 1)


@pytest.mark.filterwarnings("ignore:Precision loss occurred")
def test_run_verse_retrieval_planted_ranking_and_dev_choice():
    rng = np.random.default_rng(6)
    data = planted_verse_data(rng)
    result = SimpleNamespace(
        data=data,
        config=SimpleNamespace(verse_pool=80, verse_min_terms=3),
        models=planted_models(rng),
    )
    verse = run_verse_retrieval(result, [0, 1, 2])
    assert verse.seeds == [0, 1, 2] and verse.pool_size == 80
    top1 = verse.per_seed("top1")
    assert list(top1.index) == [0, 1, 2]
    assert (top1["Good"] > top1["Junk"] + 0.5).all()
    assert verse.methods[0] == "Good" and verse.methods[-1] == "Junk"
    # the dev pool chooses the informative (full) dimension of "Tail" in every seed
    assert all(verse.tests[s].loc["Tail", "dim"] == "30" for s in verse.seeds)
    assert set(verse.dev_curves["seed"]) == {0, 1, 2}
    # significance: Good vs Junk is a replicated difference; letters separate them
    assert ("Good", "Junk") in verse.replicated_differences()
    letters = verse.letters()
    assert not set(letters["Good"]) & set(letters["Junk"])
    claims = verse.claims([("Good", "Junk"), ("Junk", "Good")])
    assert claims[claims["claim"] == "Good > Junk"]["holds"].all()
    assert not claims[claims["claim"] == "Junk > Good"]["holds"].any()
    summary = verse.claim_summary([("Good", "Junk"), ("Junk", "Good")])
    assert summary.loc["Good > Junk", "replicated"] and summary.loc["Good > Junk", "seeds"] == 3
    assert summary.loc["Junk > Good", "ahead (seeds)"] == 0
    counts = verse.significant_counts()
    assert counts.loc["Good", "Junk"] == 3 and counts.loc["Junk", "Good"] == 0
    assert list(counts.index) == verse.methods
    ranking = verse.ranking()
    assert list(ranking.index) == verse.methods and "±" in ranking.loc["Good", "top1"]
    mean, sd = verse.dev_mrr()
    assert list(mean.columns) == ["Tail"] and mean.index.tolist() == [4, 30]
    assert mean.loc[30, "Tail"] > mean.loc[4, "Tail"]
    assert set(verse.dev_mrr_flat().index) == {"Good", "Junk"}
    assert verse.per_seed_table().index.names == ["seed", "method"]
    # pairwise is cached, and a copy is returned
    pw = verse.pairwise()
    pw.loc[:, "significant"] = False
    assert verse.pairwise()["significant"].any()
    with pytest.raises(ValueError, match="distinct"):
        run_verse_retrieval(result, [0, 0])
