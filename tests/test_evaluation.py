"""Tests for workbench.evaluation: planted structure, brute-force references, bad input."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy import stats

from workbench import evaluation as ev


@dataclass
class _WV:
    """Minimal WordVectors stand-in (the evaluators are duck-typed)."""

    words: list
    vectors: np.ndarray

    def __post_init__(self):
        self.index = {w: i for i, w in enumerate(self.words)}


def _wv(words, vectors):
    try:  # prefer the real container when it exists
        from workbench.embeddings import WordVectors

        return WordVectors(list(words), np.asarray(vectors, dtype=float))
    except ImportError:
        return _WV(list(words), np.asarray(vectors, dtype=float))


@dataclass
class _MSV:
    words: list
    global_vectors: np.ndarray
    senses: list
    centers: list

    def as_word_vectors(self):
        return _WV(self.words, self.global_vectors)

    def sense_vectors(self, w):
        return self.senses[self.words.index(w)]

    def context_centers(self, w):
        return self.centers[self.words.index(w)]


# ------------------------------------------------------------------ word similarity


def test_wordsim_matches_scipy_and_reports_oov():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(30)]
    vecs = rng.normal(size=(30, 8))
    wv = _wv(words, vecs)
    pairs = [(f"w{i}", f"w{(i * 7 + 3) % 30}") for i in range(25)] + [("w1", "zzz"), ("qqq", "w2")]
    df = pd.DataFrame(pairs, columns=["word1", "word2"])
    df["score"] = rng.uniform(0, 10, len(df))
    df.attrs["name"] = "toy"
    res = ev.evaluate_wordsim(wv, df)
    assert res.name == "toy" and res.n_pairs == 27 and res.n_scored == 25
    assert res.oov_pairs == (("w1", "zzz"), ("qqq", "w2"))
    assert res.coverage == pytest.approx(25 / 27)
    assert np.isnan(res.pred[-2:]).all()
    u = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    cos = np.array([u[int(a[1:])] @ u[int(b[1:])] for a, b in pairs[:25]])
    np.testing.assert_allclose(res.pred[:25], cos, atol=1e-12)
    assert res.spearman == pytest.approx(stats.spearmanr(cos, df["score"][:25])[0])
    assert res.pearson == pytest.approx(stats.pearsonr(cos, df["score"][:25])[0])
    with pytest.raises(ValueError):
        res.pred[0] = 1.0  # frozen arrays

    zero = ev.evaluate_wordsim(wv, df, oov="zero")
    assert zero.n_scored == 27 and zero.pred[-1] == 0.0 and len(zero.oov_pairs) == 2
    mean = ev.evaluate_wordsim(wv, df, oov="mean")
    m = vecs.mean(0)
    assert mean.pred[-2] == pytest.approx(u[1] @ (m / np.linalg.norm(m)))


def test_wordsim_planted_perfect_and_lowercase():
    words = ["cat", "dog", "car", "truck", "apple"]
    rng = np.random.default_rng(1)
    vecs = rng.normal(size=(5, 20))
    wv = _wv(words, vecs)
    u = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    pairs = [("Cat", "dog"), ("car", "TRUCK"), ("apple", "cat"), ("dog", "car")]
    gold = [u[0] @ u[1], u[2] @ u[3], u[4] @ u[0], u[1] @ u[2]]
    df = pd.DataFrame(pairs, columns=["word1", "word2"]).assign(score=gold)
    res = ev.evaluate_wordsim(wv, df)
    assert res.spearman == pytest.approx(1.0) and res.pearson == pytest.approx(1.0)
    assert ev.evaluate_wordsim(wv, df, lowercase=False).n_scored == 2


def test_wordsim_bad_input():
    wv = _wv(["a", "b"], np.eye(2))
    with pytest.raises(ValueError, match="oov"):
        ev.evaluate_wordsim(
            wv, pd.DataFrame({"word1": ["a"], "word2": ["b"], "score": [1]}), oov="x"
        )
    with pytest.raises(ValueError, match="columns"):
        ev.evaluate_wordsim(wv, pd.DataFrame({"w1": ["a"]}))
    with pytest.raises(TypeError):
        ev.evaluate_wordsim(np.eye(2), pd.DataFrame({"word1": ["a"], "word2": ["b"], "score": [1]}))
    with pytest.raises(ValueError, match="NaN"):
        ev.evaluate_wordsim(
            _wv(["a", "b"], np.array([[np.nan, 0], [1, 0]])),
            pd.DataFrame({"word1": ["a"], "word2": ["b"], "score": [1]}),
        )


def test_wordsim_suite_on_bundled_sets():
    pytest.importorskip("workbench.datasets.wordsim")
    from workbench.datasets.wordsim import load_wordsim

    df = load_wordsim("MC")
    words = sorted(set(df["word1"].str.lower()) | set(df["word2"].str.lower()))
    wv = _wv(words, np.random.default_rng(0).normal(size=(len(words), 10)))
    out = ev.wordsim_suite(wv, names=["MC", "RG"])
    assert list(out["dataset"]) == ["MC", "RG"]
    assert out.loc[0, "coverage"] == 1.0 and out.loc[1, "coverage"] < 1.0
    assert set(out.attrs["results"]) == {"MC", "RG"}


# ------------------------------------------------------------------ analogies


def _brute_force_analogy(vecs, ra, rb, rc, top_n, method, eps=1e-3):
    u = vecs[:top_n] / np.linalg.norm(vecs[:top_n], axis=1, keepdims=True)
    out = []
    for a, b, c in zip(ra, rb, rc):
        ca, cb, cc = u @ u[a], u @ u[b], u @ u[c]
        if method == "3cosadd":
            s = cb - ca + cc
        else:
            s = ((cb + 1) / 2) * ((cc + 1) / 2) / ((ca + 1) / 2 + eps)
        s[[a, b, c]] = -np.inf
        out.append(int(np.argmax(s)))
    return np.array(out)


@pytest.mark.parametrize("method", ["3cosadd", "3cosmul"])
def test_analogies_match_brute_force(method):
    rng = np.random.default_rng(3)
    n, d = 400, 16
    vecs = rng.normal(size=(n, d))
    words = [f"w{i}" for i in range(n)]
    q = rng.integers(0, 300, size=(200, 4))
    q[:50, 3] = rng.integers(350, 400, 50)  # answers outside top_n=300 -> unscorable
    df = pd.DataFrame(
        {
            "section": ["capital-common-countries"] * 60 + ["gram1-x"] * 140,
            "a": [words[i] for i in q[:, 0]],
            "b": [words[i] for i in q[:, 1]],
            "c": [words[i] for i in q[:, 2]],
            "d": [words[i] for i in q[:, 3]],
        }
    )
    df["kind"] = ["semantic"] * 60 + ["syntactic"] * 140
    res = ev.evaluate_analogies(_wv(words, vecs), df, method=method, top_n=300, block_size=7)
    assert res.n_questions == 200 and res.n_scored == 150
    assert not res.scorable[:50].any() and not res.hits[:50].any()
    ref = _brute_force_analogy(vecs, q[50:, 0], q[50:, 1], q[50:, 2], 300, method)
    np.testing.assert_array_equal(res.predicted[50:], ref)
    assert (res.predicted[50:] < 300).all()
    # same answer for other block sizes
    res2 = ev.evaluate_analogies(_wv(words, vecs), df, method=method, top_n=300)
    np.testing.assert_array_equal(res2.predicted, res.predicted)


def test_analogies_planted_offsets_and_sections():
    rng = np.random.default_rng(4)
    d = 50
    base = rng.normal(size=(20, d))
    offset = rng.normal(size=d) * 3
    words = [f"x{i}" for i in range(20)] + [f"y{i}" for i in range(20)] + ["noise"]
    vecs = np.vstack([base, base + offset, rng.normal(size=(1, d))])
    rows = []
    for i in range(10):
        j = (i + 1) % 10
        rows.append(("capital-common-countries", f"x{i}", f"y{i}", f"x{j}", f"y{j}"))
        rows.append(("gram3-comparative", f"x{i + 10}", f"y{i + 10}", f"x{j + 10}", f"y{j + 10}"))
    rows.append(("gram3-comparative", "x1", "y1", "x2", "missing"))
    df = pd.DataFrame(rows, columns=["section", "a", "b", "c", "d"])
    df["kind"] = ["semantic" if s.startswith("capital") else "syntactic" for s in df["section"]]
    for method in ("3cosadd", "3cosmul"):
        res = ev.evaluate_analogies(_wv(words, vecs), df, method=method)
        assert (
            res.accuracy == 1.0
            and res.n_scored == 20
            and res.accuracy_all == pytest.approx(20 / 21)
        )
        assert res.semantic == 1.0 and res.syntactic == 1.0 and res.geographic == 1.0
        ps = res.per_section.set_index("section")
        assert ps.loc["gram3-comparative", "n_questions"] == 11
        assert ps.loc["gram3-comparative", "n_scored"] == 10
    # question words are excluded: a degenerate question a:a::c:? must not answer c
    dq = pd.DataFrame([("s", "x0", "x0", "x1", "x1")], columns=["section", "a", "b", "c", "d"])
    res = ev.evaluate_analogies(_wv(words, vecs), dq)
    assert res.predicted[0] not in (0, 1) and not res.hits[0]


def test_analogies_bad_input():
    wv = _wv(["a", "b"], np.eye(2))
    df = pd.DataFrame({"section": ["s"], "a": ["a"], "b": ["b"], "c": ["a"], "d": ["b"]})
    with pytest.raises(ValueError, match="method"):
        ev.evaluate_analogies(wv, df, method="cos")
    with pytest.raises(ValueError, match="top_n"):
        ev.evaluate_analogies(wv, df, top_n=0)
    with pytest.raises(ValueError, match="columns"):
        ev.evaluate_analogies(wv, df.drop(columns="d"))


@pytest.mark.slow
def test_analogies_full_size_speed():
    """19,544 questions over a 100K x 300 vocabulary in seconds (bounded memory)."""
    pytest.importorskip("workbench.datasets.questions")
    from workbench.datasets.questions import load_analogies

    qs = load_analogies()
    qwords = sorted(set(pd.concat([qs[c] for c in "abcd"]).str.lower()))
    n = 100_000
    words = qwords + [f"filler{i}" for i in range(n - len(qwords))]
    vecs = np.random.default_rng(0).normal(size=(n, 300)).astype(np.float32)
    wv = _WV(words, vecs)
    for method in ("3cosadd", "3cosmul"):
        t0 = time.perf_counter()
        res = ev.evaluate_analogies(wv, qs, method=method)
        elapsed = time.perf_counter() - t0
        assert res.n_questions == 19544 and res.n_scored == 19544
        assert elapsed < 60, f"{method} took {elapsed:.1f}s"


# ------------------------------------------------------------------ TOEFL


def test_toefl_on_generated_file(tmp_path):
    pytest.importorskip("workbench.datasets.questions")
    from workbench.datasets.questions import load_toefl

    rng = np.random.default_rng(5)
    d = 30
    stems = [f"stem{i}" for i in range(8)]
    words, vecs = [], []
    qst, ans = [], []
    for i, s in enumerate(stems):
        v = rng.normal(size=d)
        words.append(s)
        vecs.append(v)
        letters = "abcd"
        correct = letters[i % 4]
        qst.append(f"{i + 1}. {s}")
        for L in letters:
            w = f"{s}_{L}"
            words.append(w)
            vecs.append(v + 0.1 * rng.normal(size=d) if L == correct else rng.normal(size=d))
            qst.append(f"{L}. {w}")
        ans.append(f"{i + 1} ({correct}) {s}_{correct}")
    # question 8: one choice out of vocabulary
    words.remove("stem7_a")
    qp, ap = tmp_path / "t.qst", tmp_path / "t.ans"
    qp.write_text("\n".join(qst) + "\n")
    ap.write_text("\n".join(ans) + "\n")
    keep = [i for i in range(len(vecs)) if i != 36]  # index of stem7_a
    wv = _wv(words, np.array(vecs)[keep])
    df = load_toefl(qp, ap)
    res = ev.evaluate_toefl(wv, df)
    assert res.n_items == 8 and res.n_scored == 7 and res.accuracy == 1.0
    assert res.accuracy_all == pytest.approx(7 / 8)
    assert list(res.predicted[:4]) == ["a", "b", "c", "d"] and res.predicted[7] is None
    part = ev.evaluate_toefl(wv, df, oov="partial")
    assert part.n_scored == 8 and part.hits[7]


def test_toefl_ties_are_errors():
    wv = _wv(["s", "x", "y"], np.array([[1.0, 0], [1.0, 0], [2.0, 0]]))
    df = pd.DataFrame(
        [[1, "s", "x", "y", "x", "x", "a"]],
        columns=["qid", "stem", "choice_a", "choice_b", "choice_c", "choice_d", "answer"],
    )
    res = ev.evaluate_toefl(wv, df)
    assert res.n_scored == 1 and not res.hits[0]
    with pytest.raises(ValueError, match="answer"):
        ev.evaluate_toefl(wv, df.assign(answer="e"))


# ------------------------------------------------------------------ retrieval / kNN


def test_retrieval_ranks_match_definition_and_ties_are_errors():
    rng = np.random.default_rng(6)
    A = rng.normal(size=(40, 10))
    B = A + 0.8 * rng.normal(size=(40, 10))
    res = ev.retrieval(A, B)
    ua = A / np.linalg.norm(A, axis=1, keepdims=True)
    ub = B / np.linalg.norm(B, axis=1, keepdims=True)
    S = ua @ ub.T
    ref = np.array([1 + np.sum(np.delete(S[i], i) >= S[i, i]) for i in range(40)])
    np.testing.assert_array_equal(res.ranks, ref)
    assert res.top1 == pytest.approx(np.mean(ref == 1))
    assert res.mrr == pytest.approx(np.mean(1 / ref))
    # identical targets -> perfect; duplicated target rows -> ties -> errors
    assert ev.retrieval(A, A).top1 == 1.0
    C = np.vstack([A[:1], A[:1], A[2:]])
    tie = ev.retrieval(C, C)
    assert tie.ranks[0] == 2 and tie.ranks[1] == 2 and tie.top1 == pytest.approx(38 / 40)
    # sparse input and L1
    sres = ev.retrieval(sp.csr_matrix(A), sp.csr_matrix(B))
    np.testing.assert_array_equal(sres.ranks, res.ranks)
    l1 = ev.retrieval(A, B, metric="l1")
    D = np.abs(A[:, None, :] - B[None, :, :]).sum(-1)
    ref1 = np.array([1 + np.sum(np.delete(D[i], i) <= D[i, i]) for i in range(40)])
    np.testing.assert_array_equal(l1.ranks, ref1)


def test_crosslingual_retrieval_averages_directions():
    rng = np.random.default_rng(7)
    A = rng.normal(size=(30, 5))
    B = A + rng.normal(size=(30, 5))
    res = ev.crosslingual_retrieval(A, B)
    f, b = ev.retrieval(A, B), ev.retrieval(B, A)
    assert res.top1 == pytest.approx((f.top1 + b.top1) / 2)
    assert res.mrr == pytest.approx((f.mrr + b.mrr) / 2)
    assert res.n_queries == 60 and res.forward is not None and res.backward is not None
    with pytest.raises(ValueError, match="same shape"):
        ev.retrieval(A, B[:10])
    with pytest.raises(ValueError, match="metric"):
        ev.retrieval(A, B, metric="l2")


def test_knn_classify_planted_clusters():
    rng = np.random.default_rng(8)
    centers = rng.normal(size=(3, 20)) * 5
    ytr = np.repeat(np.arange(3), 10)
    yte = np.repeat(np.arange(3), 5)
    Xtr = centers[ytr] + rng.normal(size=(30, 20))
    Xte = centers[yte] + rng.normal(size=(15, 20))
    res = ev.knn_classify(Xtr, ytr, Xte, yte)
    assert res.accuracy == 1.0 and res.hits.all() and res.n_items == 15
    flipped = ev.knn_classify(Xtr, ytr, Xte, (yte + 1) % 3)
    assert flipped.accuracy == 0.0
    assert ev.knn_classify(sp.csr_matrix(Xtr), ytr, Xte, yte, metric="l1").accuracy == 1.0
    with pytest.raises(ValueError, match="labels"):
        ev.knn_classify(Xtr, ytr[:5], Xte, yte)
    with pytest.raises(ValueError, match="features"):
        ev.knn_classify(Xtr, ytr, Xte[:, :3], yte)


# ------------------------------------------------------------------ SCWS


@dataclass(frozen=True)
class _Item:
    id: int
    word1: str
    word2: str
    context1: str
    context2: str
    score: float


def test_scws_single_and_multi_sense():
    pytest.importorskip("workbench.datasets.wordsim")
    rng = np.random.default_rng(9)
    d = 20
    words = ["bank", "river", "money", "water", "cash", "shore"]
    g = rng.normal(size=(6, d))
    # two senses of "bank": one near river/water/shore, one near money/cash
    river_sense = g[1] + g[3] + g[5]
    money_sense = g[2] + g[4]
    senses = [np.vstack([river_sense, money_sense])] + [g[i][None, :] for i in range(1, 6)]
    centers = [np.vstack([g[3] + g[5], g[4]])] + [g[i][None, :] for i in range(1, 6)]
    items = [
        _Item(
            1,
            "bank",
            "river",
            "the water near the <b> bank </b> shore water",
            "a <b> river </b>",
            9.0,
        ),
        _Item(
            2, "bank", "money", "deposit cash at the <b> bank </b> cash", "some <b> money </b>", 8.0
        ),
        _Item(3, "bank", "money", "water by the <b> bank </b> shore", "some <b> money </b>", 2.0),
        _Item(4, "bank", "river", "cash in the <b> bank </b> cash", "the <b> river </b>", 1.5),
        _Item(5, "bank", "unknown", "x <b> bank </b> y", "z <b> unknown </b>", 5.0),
    ]
    msv = _MSV(words, g, senses, centers)
    try:
        from workbench.embeddings import MultiSenseVectors

        msv = MultiSenseVectors(words, g, senses, centers)
    except ImportError:
        pass
    res = ev.evaluate_scws(msv, items, window=3)
    assert res.n_items == 5 and res.n_scored == 4 and res.coverage == 0.8
    sc = res.scores.set_index("id")
    cos = lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b)  # noqa: E731
    assert sc.loc[1, "maxSimC"] == pytest.approx(cos(river_sense, g[1]))
    assert sc.loc[2, "maxSimC"] == pytest.approx(cos(money_sense, g[2]))
    assert sc.loc[3, "maxSimC"] == pytest.approx(cos(river_sense, g[2]))
    assert sc.loc[1, "maxSim"] == pytest.approx(max(cos(river_sense, g[1]), cos(money_sense, g[1])))
    assert sc.loc[1, "avgSim"] == pytest.approx(
        (cos(river_sense, g[1]) + cos(money_sense, g[1])) / 2
    )
    assert res.max_sim_c == pytest.approx(1.0)  # localSim ranks the items exactly as planted
    assert np.isnan(sc.loc[5, "avgSim"])
    # single-sense vectors: every measure is the global cosine
    single = ev.evaluate_scws(_wv(words, g), items, window=3)
    s1 = single.scores.set_index("id")
    for col in ("avgSim", "avgSimC", "maxSim", "maxSimC"):
        assert s1.loc[2, col] == pytest.approx(cos(g[0], g[2]))
    with pytest.raises(ValueError, match="window"):
        ev.evaluate_scws(msv, items, window=-1)
    bad = _MSV(words, g, senses, [c[:, :5] for c in centers])
    with pytest.raises(ValueError, match="dimension"):
        ev.evaluate_scws(bad, items, window=3)
