"""Unit tests of workbench.studies.mvlsa on tiny synthetic views with planted structure."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from workbench.embeddings import WordVectors
from workbench.studies import mvlsa as mx
from workbench.views import View, Vocabulary

N, LATENT = 120, 3


def _planted(seed: int = 0):
    """Views over N words: 3 'signal' views driven by planted latent factors, 2 'noise' views."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(N)]
    vocab = Vocabulary.from_words(words)
    z = rng.standard_normal((N, LATENT))
    views = []
    for j in range(3):
        mat = z @ rng.standard_normal((LATENT, 40)) + 0.3 * rng.standard_normal((N, 40))
        m = sp.csr_array(mat)
        views.append(View(f"sig{j}", m, tuple(f"c{i}" for i in range(40)),
                          np.diff(m.indptr) > 0, "signal", vocab))  # fmt: skip
    for j in range(2):
        m = sp.csr_array(rng.poisson(1.0, (N, 30)).astype(float))
        views.append(View(f"noise{j}", m, tuple(f"n{i}" for i in range(30)),
                          np.diff(m.indptr) > 0, "noise", vocab))  # fmt: skip
    vs = mx.ViewSet(vocab, tuple(views), {"n_tokens": 0})
    # a rating set: gold similarity = cosine of the planted factors
    pairs = rng.choice(N, size=(300, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    zn = z / np.linalg.norm(z, axis=1, keepdims=True)
    gold = np.einsum("ij,ij->i", zn[pairs[:, 0]], zn[pairs[:, 1]])
    ratings = pd.DataFrame(
        {
            "word1": [words[i] for i in pairs[:, 0]],
            "word2": [words[i] for i in pairs[:, 1]],
            "score": gold,
        }  # fmt: skip
    )
    ratings.attrs["name"] = "PLANTED"
    return vs, z, ratings


@pytest.fixture(scope="module")
def planted():
    return _planted()


CFG = mx.MVLSAConfig(transform="identity", view_rank=6, n_components=3, random_state=0)


# ----------------------------------------------------------------------------- config


def test_config_labels_and_spec():
    assert mx.MVLSAConfig(transform="pow:0.5").spec().power == 0.5
    assert mx.MVLSAConfig(transform="log").label("n_j") == "Log"
    assert mx.MVLSAConfig(transform="identity").label("n_j") == "Count"
    assert mx.MVLSAConfig(transform="pow").label("n_j") == "Count^0.25"
    assert mx.MVLSAConfig(top_t=None).label("t") == "all"
    assert mx.MVLSAConfig(top_t=12_500).label("t") == "12,500"
    assert mx.MVLSAConfig(view_rank=7).label("m") == "7"


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"transform": "sqrt"}, "transform"),
        ({"transform": "pow:abc"}, "pow"),
        ({"view_rank": 0}, "view_rank"),
        ({"n_components": 2.5}, "n_components"),
        ({"min_view_support": -1}, "min_view_support"),
        ({"regularization": float("nan")}, "regularization"),
        ({"top_t": 0}, "top_t"),
    ],
)
def test_config_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        mx.MVLSAConfig(**kw)


def test_settings():
    small, full = mx.settings("small"), mx.settings("full")
    assert small.max_tokens == 200_000 and full.corpus == "5M" and len(full.offsets) == 15
    assert small.grid("k") == small.grid("n_components")
    assert set(dict(full.grids)) == set(mx.PARAM_ALIASES)
    assert mx.settings("small", vocab_size=10).vocab_size == 10
    with pytest.raises(ValueError, match="size"):
        mx.settings("huge")
    with pytest.raises(KeyError, match="no grid"):
        small.grid("zzz")


# ----------------------------------------------------------------------------- views


def test_usable_views_drops_constant_and_tiny(planted):
    vs, _, _ = planted
    v0 = vs.views[0]
    const = v0.with_matrix(sp.csr_array(np.ones(v0.shape)))
    tiny_m = sp.csr_array((np.ones(1), ([0], [0])), shape=v0.shape)
    tiny = View("tiny", tiny_m, v0.contexts, np.diff(tiny_m.indptr) > 0, "signal", vs.vocab)
    kept, dropped = mx.usable_views([v0, const, tiny], min_rows=2)
    assert [v.name for v in kept] == ["sig0"] and dropped == ["sig0", "tiny"]


def test_view_set_select(planted):
    vs, _, _ = planted
    assert vs.families() == {"signal": ["sig0", "sig1", "sig2"], "noise": ["noise0", "noise1"]}
    assert vs.select(exclude=["noise"]).names == ["sig0", "sig1", "sig2"]
    assert vs.select(exclude=["sig1"]).names == ["sig0", "sig2", "noise0", "noise1"]
    assert vs.select(families=["noise"]).names == ["noise0", "noise1"]
    with pytest.raises(ValueError, match="unknown views or families"):
        vs.select(exclude=["bogus"])
    with pytest.raises(ValueError, match="no view left"):
        vs.select(exclude=["signal", "noise"])


def test_view_set_cache_round_trip_without_pickle(planted, tmp_path):
    from workbench._io import Cache
    from workbench.studies.mvlsa._viewsets import _view_set_arrays, _view_set_from_arrays

    vs, _, _ = planted
    cache = Cache("viewsets", root=tmp_path)
    arrays, meta = _view_set_arrays(vs)
    cache.store({"k": 1}, arrays, meta)
    hit = cache.load({"k": 1})
    back = _view_set_from_arrays(hit.arrays, hit.meta)
    assert back.names == vs.names and back.vocab.words == vs.vocab.words
    assert back.info == vs.info
    for a, b in zip(vs.views, back.views):
        assert a.family == b.family and a.contexts == b.contexts and a.meta == b.meta
        assert np.array_equal(a.observed, b.observed)
        ma = a.matrix.toarray() if sp.issparse(a.matrix) else a.matrix
        mb = b.matrix.toarray() if sp.issparse(b.matrix) else b.matrix
        assert np.array_equal(ma, mb)
    assert not list(tmp_path.rglob("*.pkl"))


# ----------------------------------------------------------------------------- one system


def _principal_cos(a, b):
    qa, _ = np.linalg.qr(a - a.mean(0))
    qb, _ = np.linalg.qr(b - b.mean(0))
    return np.linalg.svd(qa.T @ qb, compute_uv=False)


def test_fit_recovers_planted_subspace_and_scores(planted):
    vs, z, ratings = planted
    fs = mx.fit_mvlsa(vs.select(families=["signal"]), CFG)
    assert fs.model.embedding_.shape == (N, 3)
    assert fs.view_names == ("sig0", "sig1", "sig2")
    assert _principal_cos(fs.model.embedding_, z).min() > 0.95
    ev = mx.evaluate_system(fs.vectors(), name="sig", wordsim=[ratings], analogies=False)
    s = ev.scores()
    assert list(s.index) == ["PLANTED"] and s["PLANTED"] > 0.6
    assert ev.n_scored()["PLANTED"] == len(ratings)
    # noise views alone do not recover the planted similarities
    noise = mx.evaluate_system(mx.fit_mvlsa(vs.select(families=["noise"]), CFG).vectors(),
                               wordsim=[ratings], analogies=False)  # fmt: skip
    assert noise.scores()["PLANTED"] < s["PLANTED"] - 0.3


def test_fit_caps_k_and_preprocesses(planted):
    vs, _, _ = planted
    fs = mx.fit_mvlsa(vs, dataclasses.replace(CFG, view_rank=1, n_components=50))
    assert fs.model.embedding_.shape[1] == 5  # capped at m x J
    fs = mx.fit_mvlsa(vs, dataclasses.replace(CFG, transform="log", top_t=5))
    assert all(d <= 5 for d in fs.model.n_features_per_view_)


def test_evaluate_system_restrict_and_errors(planted):
    vs, z, ratings = planted
    wv = WordVectors(vs.words, z)
    ev = mx.evaluate_system(wv, wordsim=[ratings], analogies=False, restrict_to=vs.words[:60])
    assert ev.n_scored()["PLANTED"] < len(ratings)
    with pytest.raises(ValueError, match="no vectors"):
        mx.evaluate_system(wv, wordsim=[ratings], analogies=False, restrict_to=["zzz"])
    with pytest.raises(TypeError, match="names or DataFrames"):
        mx.evaluate_system(wv, wordsim=[3], analogies=False)
    with pytest.raises(ValueError, match="without analogies"):
        ev.hits("AN-SYN")


def test_mrds_column_matches_significance(planted):
    from workbench.significance import mrds_correlation

    vs, z, ratings = planted
    a = mx.evaluate_system(WordVectors(vs.words, z), name="a", wordsim=[ratings], analogies=False)
    b = mx.evaluate_system(WordVectors(vs.words[:80], z[:80]), name="b", wordsim=[ratings],
                           analogies=False)  # fmt: skip
    col = mx.mrds_column([a, b])
    n = int(b.n_scored()["PLANTED"])
    assert col["PLANTED"] == pytest.approx(mrds_correlation(n, 0.9, 0.05))
    table = mx.marked_table([a, b])
    assert "MRDS" in table.to_frame().columns and table.bold.loc["PLANTED", "a"]


# ----------------------------------------------------------------------------- grids


def test_grid_over_k_slices_one_fit(planted):
    vs, _, ratings = planted
    g = mx.run_grid(vs, "k", [1, 2, 3], base=CFG, wordsim=[ratings], analogies=False)
    assert g.labels == ("1", "2", "3") and list(g.scores.columns) == ["1", "2", "3"]
    full = mx.evaluate_system(mx.fit_mvlsa(vs, CFG).vectors(), wordsim=[ratings], analogies=False)
    assert g.scores.loc["PLANTED", "3"] == pytest.approx(full.scores()["PLANTED"])
    assert g.best("PLANTED") in g.labels


def test_run_study_and_labels(planted):
    vs, _, ratings = planted
    res = mx.run_study(vs, {"n_j": ["identity", "log", "pow"], "m": [3, 6], "r": [1e-8, 1e3]},
                       base=CFG, wordsim=[ratings], analogies=False)  # fmt: skip
    assert list(res["n_j"].scores.columns) == ["Count", "Log", "Count^0.25"]
    assert list(res["m"].scores.columns) == ["3", "6"]
    assert np.isfinite(res["r"].scores.to_numpy()).all()
    assert "MRDS" in res["m"].table.to_markdown()


@pytest.mark.parametrize(
    "param, values, match",
    [("q", [1], "unknown grid parameter"), ("m", [], "no values"), ("m", [3, 3], "duplicate")],
)
def test_grid_bad_input(planted, param, values, match):
    vs, _, ratings = planted
    with pytest.raises(ValueError, match=match):
        mx.run_grid(vs, param, values, base=CFG, wordsim=[ratings], analogies=False)


# ----------------------------------------------------------------------------- ablation


def test_default_removals(planted):
    vs, _, _ = planted
    rem = mx.default_removals(vs, single_views=["sig0"])
    assert rem == {"!signal": ("signal",), "!noise": ("noise",), "!sig0": ("sig0",)}


def test_ablation_drops_and_significance(planted):
    vs, _, ratings = planted
    res = mx.ablation_study(vs, CFG, {"!signal": ["signal"], "!noise": ["noise"]},
                            wordsim=[ratings], analogies=False)  # fmt: skip
    assert list(res.drops.index) == ["!signal", "!noise"]  # one row per removal
    assert list(res.scores.columns) == ["All views", "!signal", "!noise"]
    assert res.drops.loc["!signal", "PLANTED"] > 0.3  # removing the planted views hurts
    assert bool(res.significant.loc["!signal", "PLANTED"])
    assert res.table.dagger.loc["PLANTED", "!signal"]
    assert not res.table.dagger.loc["PLANTED", "All views"]
    with pytest.raises(ValueError, match="unknown views"):
        mx.ablation_study(vs, CFG, {"!x": ["nope"]}, wordsim=[ratings], analogies=False)


# ----------------------------------------------------------------------------- fusion


def test_fusion_systems_gains_and_rs(planted):
    vs, z, ratings = planted
    rng = np.random.default_rng(1)
    glove = WordVectors(
        vs.words, z @ rng.standard_normal((3, 8)) + 0.3 * rng.standard_normal((N, 8))
    )
    wsg = WordVectors(vs.words, z @ rng.standard_normal((3, 8)) + 0.3 * rng.standard_normal((N, 8)))
    pre = WordVectors(vs.words + ["extra"], rng.standard_normal((N + 1, 5)))
    res = mx.fusion_study(vs, CFG, glove=glove, wsg=wsg, pretrained=pre,
                          corpus_families=("signal",), wordsim=[ratings], analogies=False)  # fmt: skip
    systems = ["MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG", "GloVe 6B-50d",
               "MV-G-WSG"]  # fmt: skip
    assert list(res.scores.columns) == [*systems, "MVLSA Combined"]
    assert len(res.systems["GloVe 6B-50d"]) == N  # restricted to the vocabulary
    assert [c for c in res.gains.columns if not c.startswith(("MV Gain_", "G-WSG Gain_"))] == [
        "MV Gain", "G-WSG Gain"]  # fmt: skip
    assert res.r_s.shape == (1, 6) and np.isfinite(res.r_s.to_numpy()).all()
    # the fusion shares the planted subspace, so it correlates with GloVe at least as well
    assert res.r_s.loc["PLANTED", "r_s GloVe (MV-G-WSG)"] > 0.5
    assert res.scores.loc["PLANTED", "MV-G-WSG"] > 0.5
    assert "G-WSG Gain" in res.table.columns and "Combined Gain" not in res.table.columns
    with pytest.raises(ValueError, match="no corpus view family"):
        mx.fusion_study(vs, CFG, glove=glove, wsg=wsg, corpus_families=("positional",),
                        wordsim=[ratings], analogies=False)  # fmt: skip
    with pytest.raises(ValueError, match="unknown systems"):
        mx.fusion_study(vs, CFG, glove=glove, wsg=wsg, fuse=("GloVe", "nope"),
                        wordsim=[ratings], analogies=False)  # fmt: skip


def test_table9_columns_as_the_paper_defines_them(planted):
    """MV-G-WSG = GCCA of GloVe and WSG alone (no MVLSA in it); MV Gain = all views - corpus
    views; G-WSG Gain = Combined - all views; r_s = Spearman of the systems' pair cosines."""
    from scipy import stats

    from workbench.gcca import MVLSA
    from workbench.views import embedding_view

    vs, z, ratings = planted
    rng = np.random.default_rng(2)
    # GloVe carries the planted factors, WSG is pure noise: their fusion alone is weaker than
    # MVLSA over the signal views, so it cannot contain MVLSA (all views)
    glove = WordVectors(
        vs.words, z @ rng.standard_normal((3, 6)) + 1.5 * rng.standard_normal((N, 6))
    )
    wsg = WordVectors(vs.words, rng.standard_normal((N, 6)))
    res = mx.fusion_study(vs, CFG, glove=glove, wsg=wsg, corpus_families=("noise",),
                          wordsim=[ratings], analogies=False)  # fmt: skip
    s = res.scores.loc["PLANTED"]
    # MV-G-WSG is exactly the GCCA of the two embedding views
    views = [embedding_view(v, vs.vocab, name=n) for n, v in (("GloVe", glove), ("WSG", wsg))]
    fit = MVLSA(CFG.n_components, view_rank=[6, 6], regularization=CFG.regularization,
                random_state=CFG.random_state).fit(views)  # fmt: skip
    expect = fit.to_word_vectors(vs.words).vectors
    got = res.systems["MV-G-WSG"].vectors
    cos = np.abs(np.diag(expect.T @ got)) / (
        np.linalg.norm(expect, axis=0) * np.linalg.norm(got, axis=0)
    )
    assert cos.min() > 0.999
    assert s["MVLSA (all views)"] > s["MV-G-WSG"] + 0.1
    # corpus views = the noise family here: the gain of all views is large and significant
    gains = res.gains.loc["PLANTED"]
    assert gains["MV Gain"] == pytest.approx(s["MVLSA (all views)"] - s["MVLSA (corpus views)"])
    assert gains["MV Gain"] > 0.3 and bool(gains["MV Gain_significant"])
    assert gains["G-WSG Gain"] == pytest.approx(s["MVLSA Combined"] - s["MVLSA (all views)"])
    # r_s: Spearman between the two systems' cosines on the rating pairs
    ev = res.evaluations
    a = np.asarray(ev["MV-G-WSG"].wordsim["PLANTED"].pred, float)
    b = np.asarray(ev["GloVe"].wordsim["PLANTED"].pred, float)
    ok = ~np.isnan(a) & ~np.isnan(b)
    assert res.r_s.loc["PLANTED", "r_s GloVe (MV-G-WSG)"] == pytest.approx(
        stats.spearmanr(a[ok], b[ok])[0])  # fmt: skip
    # without Combined there is no G-WSG Gain (it is Combined - all views)
    bare = mx.fusion_study(vs, CFG, glove=glove, wsg=wsg, corpus_families=("noise",),
                           wordsim=[ratings], analogies=False, combined=False)  # fmt: skip
    assert "G-WSG Gain" not in bare.gains.columns and "MVLSA Combined" not in bare.scores


# ----------------------------------------------------------------------------- explore


def test_setting_explorer_caches(planted):
    from workbench.explore.mvlsa import SettingExplorer

    vs, _, ratings = planted
    ex = SettingExplorer(vs, CFG, wordsim=())
    table, scores = ex.report(["w0", "nope"], n_components=2, topn=3)
    assert list(table.columns) == ["w0", "nope"] and table.shape == (3, 2)
    assert table.loc[0, "nope"] == "(not in vocabulary)" and scores.empty
    ex.report(["w1"], n_components=3)
    assert len(ex) == 1  # k only slices
    ex.report(["w1"], families=["signal"], view_rank=3)
    assert len(ex) == 2


def test_study_explorer_widget_builds(planted):
    pytest.importorskip("ipywidgets")
    from workbench.explore.mvlsa import mvlsa_study_explorer

    vs, _, ratings = planted
    w = mvlsa_study_explorer(vs, CFG, queries=("w0",), view_ranks=(3, 6), top_ts=(10,), wordsim=())
    assert type(w).__name__ == "VBox"
    status = w.children[4].children[1]
    w.children[1].children[1].value = len(vs.views)  # v = all views: still fits (every row is observed)
    assert "cannot fit" not in status.value


# ----------------------------------------------------------------------------- comparisons


def test_pair_weighted_mean():
    """Each set counts by its pairs; NaN scores and empty sets are left out."""
    scores = pd.Series({"MC": 0.9, "MEN": 0.3, "RW": np.nan, "EMPTY": 0.5})
    pairs = pd.Series({"MC": 30, "MEN": 1000, "RW": 500, "EMPTY": 0})
    assert mx.pair_weighted_mean(scores, pairs) == pytest.approx((30 * 0.9 + 1000 * 0.3) / 1030)
    # the unweighted mean of the same sets gives the 30-pair set as much say as MEN
    assert scores[["MC", "MEN"]].mean() == pytest.approx(0.6)
    assert np.isnan(mx.pair_weighted_mean(pd.Series({"A": np.nan}), pd.Series({"A": 3})))
    with pytest.raises(ValueError, match=r"no count for the test sets \['MEN'\]"):
        mx.pair_weighted_mean(scores, pairs.drop("MEN"))
    with pytest.raises(ValueError, match="finite counts >= 0"):
        mx.pair_weighted_mean(scores, pairs.replace(30, -1))
    with pytest.raises(TypeError, match="pandas Series"):
        mx.pair_weighted_mean(scores.to_dict(), pairs)


def test_comparison_gives_pair_weighted_means_and_pair_counts(planted):
    vs, z, ratings = planted
    rng = np.random.default_rng(3)
    good = WordVectors(vs.words, z + 0.5 * rng.standard_normal(z.shape))
    noise = WordVectors(vs.words, rng.standard_normal(z.shape))
    small = ratings.iloc[:60].copy()
    small.attrs["name"] = "SMALL"
    systems = {s: {"good": good, "noise": WordVectors(vs.words, noise.vectors + s)} for s in (0, 1)}
    cmp = mx.seed_comparison(systems, reference="good", names=[ratings, small])
    first = cmp.per_seed[0]
    n = first.n_scored["good"]
    expect = (n["PLANTED"] * first.scores.loc["PLANTED", "good"]
              + n["SMALL"] * first.scores.loc["SMALL", "good"]) / n.sum()  # fmt: skip
    assert first.pair_weighted["good"] == pytest.approx(expect)
    halves = [len(t) for t in mx.split_wordsim([ratings, small], "test")]  # the test halves
    assert first.pairs.to_dict() == {"PLANTED": halves[0], "SMALL": halves[1]} and halves[1] < 60
    table = cmp.table()
    assert list(table.index) == ["PLANTED", "SMALL", "mean", "mean (pair-weighted)"]
    assert table.loc["SMALL", "pairs"] == str(halves[1])
    assert cmp.family_size == 2  # one other system x two sets
    rec = cmp.records()
    assert rec["family_size"] == 2 and rec["pairs"]["SMALL"] == halves[1]
    assert rec["mean_pair_weighted"]["good"] == pytest.approx(first.pair_weighted["good"])
    assert rec["wins"]["noise"]["better, every seed"] >= 1


def _lexicon_view_set():
    """Six words; a word x word PPDB-like view (a-b) and a word x group FrameNet-like view
    ({c, d, e} share a frame); a corpus view that is not a lexicon."""
    words = ["a", "b", "c", "d", "e", "f"]
    vocab = Vocabulary.from_words(words)
    ppdb = sp.csr_array(([1.0], ([0], [1])), shape=(6, 6))
    frames = sp.csr_array(np.array([[0], [0], [1], [1], [1], [0]], float))
    corpus = sp.csr_array(np.ones((6, 2)))
    views = (
        View("ppdb", ppdb, tuple(words), np.diff(ppdb.indptr) > 0, "ppdb", vocab),
        View("framenet", frames, ("frame",), np.diff(frames.indptr) > 0, "framenet", vocab),
        View("off1", corpus, ("x", "y"), np.ones(6, bool), "positional", vocab),
    )
    return mx.ViewSet(vocab, views, {"n_tokens": 0})


def test_lexicon_graph_is_the_lexicon_views_word_graph():
    vs = _lexicon_view_set()
    assert mx.lexicon_families(vs) == ["ppdb", "framenet"]
    g = mx.lexicon_graph(vs).toarray()
    expect = np.zeros((6, 6))
    for i, j in [(0, 1), (2, 3), (2, 4), (3, 4)]:
        expect[i, j] = expect[j, i] = 1
    np.testing.assert_array_equal(g, expect)  # symmetric, 0/1, no self-loops; f isolated
    np.testing.assert_array_equal(mx.lexicon_graph(vs, ["ppdb"]).toarray()[2:], 0)
    with pytest.raises(ValueError, match="not lexicon view families"):
        mx.lexicon_graph(vs, ["positional"])


def test_retrofitted_baselines_use_the_same_lexicons():
    """Retrofitting along the lexicon views' graph (Faruqui et al. 2015's update, alpha = 1,
    beta = 1/degree) pulls linked words together and leaves words without a neighbour alone."""
    from workbench.retrofit import retrofit

    vs = _lexicon_view_set()
    rng = np.random.default_rng(0)
    # a baseline that lacks the word "d" (as GloVe lacks words without co-occurrence)
    words = ["a", "b", "c", "e", "f"]
    vec = WordVectors(words, rng.standard_normal((5, 4)))
    out = mx.retrofitted(vec, mx.lexicon_graph(vs), vs.words)
    assert out.words == words
    np.testing.assert_array_equal(out.vectors[4], vec.vectors[4])  # f: no lexicon neighbour
    # the same as retrofitting to the lexicon as a {word: neighbours} mapping
    lexicon = {"a": ["b"], "b": ["a"], "c": ["d", "e"], "d": ["c", "e"], "e": ["c", "d"]}
    np.testing.assert_allclose(out.vectors, retrofit(vec, lexicon).vectors)
    before = np.linalg.norm(vec.vectors[0] - vec.vectors[1])
    assert np.linalg.norm(out.vectors[0] - out.vectors[1]) < before
    with pytest.raises(ValueError, match="expected"):
        mx.retrofitted(vec, sp.csr_array((3, 3)), vs.words)
