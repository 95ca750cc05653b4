"""Tests of workbench.baselines: LSA, skip-gram word2vec (gensim), GloVe."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.baselines import (
    fit_glove,
    glove_objective,
    glove_stop,
    glove_stopping,
    lsa,
    train_glove,
    train_word2vec,
)


def planted_glove_counts(seed=0, n=40, d=3):
    """X_ij = round(exp(u_i . v_j + a_i + c_j)): log X is exactly a rank-d model plus biases."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal((n, d)) * 0.8
    v = rng.standard_normal((n, d)) * 0.8
    a = rng.normal(2.0, 0.5, n)
    c = rng.normal(2.0, 0.5, n)
    logx = u @ v.T + a[:, None] + c[None, :]
    x = np.exp(logx)
    x[x < 1.0] = 0.0  # sparse, like real counts
    return sp.csr_array(x), logx


def cluster_corpus(seed=0, n_docs=300, doc_len=30):
    """Two topics with disjoint vocabularies; each document draws from one topic."""
    rng = np.random.default_rng(seed)
    topics = [[f"a{i}" for i in range(10)], [f"b{i}" for i in range(10)]]
    return [list(rng.choice(topics[rng.integers(2)], doc_len)) for _ in range(n_docs)]


# --------------------------------------------------------------------------------- GloVe
def glove_c_reference(x, d, epochs, *, x_max, alpha, eta, seed, grad_clip=100.0):
    """glove.c's training loop in plain Python (one update per co-occurrence).

    Same draws as fit_glove: W, W_context, b, b_context uniform in [-0.5, 0.5)/d, then one
    permutation of the row-major non-zeros per epoch.
    """
    coo = sp.coo_array(x)
    coo.sum_duplicates()
    coo = sp.coo_array(sp.csr_array(coo))  # row-major order
    rows, cols, vals = coo.row, coo.col, coo.data
    n = x.shape[0]
    rng = np.random.default_rng(seed)
    w = ((rng.random((n, d)) - 0.5) / d).tolist()
    wc = ((rng.random((n, d)) - 0.5) / d).tolist()
    b = ((rng.random(n) - 0.5) / d).tolist()
    bc = ((rng.random(n) - 0.5) / d).tolist()
    gw, gwc = [[1.0] * d for _ in range(n)], [[1.0] * d for _ in range(n)]
    gb, gbc = [1.0] * n, [1.0] * n
    history = []
    for _ in range(epochs):
        cost = 0.0
        for k in rng.permutation(vals.size):
            l1, l2, val = int(rows[k]), int(cols[k]), float(vals[k])
            diff = 0.0
            for a in range(d):
                diff += w[l1][a] * wc[l2][a]
            diff += b[l1] + bc[l2] - math.log(val)
            fdiff = diff if val > x_max else (val / x_max) ** alpha * diff
            if not (math.isfinite(diff) and math.isfinite(fdiff)):
                continue
            cost += 0.5 * fdiff * diff
            fdiff *= eta
            up1, up2 = [0.0] * d, [0.0] * d
            for a in range(d):
                temp1 = min(max(fdiff * wc[l2][a], -grad_clip), grad_clip)
                temp2 = min(max(fdiff * w[l1][a], -grad_clip), grad_clip)
                up1[a] = temp1 / math.sqrt(gw[l1][a])
                up2[a] = temp2 / math.sqrt(gwc[l2][a])
                gw[l1][a] += temp1 * temp1
                gwc[l2][a] += temp2 * temp2
            if math.isfinite(sum(up1)) and math.isfinite(sum(up2)):
                for a in range(d):
                    w[l1][a] -= up1[a]
                    wc[l2][a] -= up2[a]
            b[l1] -= fdiff / math.sqrt(gb[l1])
            bc[l2] -= fdiff / math.sqrt(gbc[l2])
            fdiff *= fdiff
            gb[l1] += fdiff
            gbc[l2] += fdiff
        history.append(cost / vals.size)
    return np.array(w), np.array(wc), np.array(b), np.array(bc), np.array(history)


@pytest.mark.parametrize("grad_clip", [100.0, 0.002])
def test_glove_matches_python_reference_of_glove_c(grad_clip):
    x, _ = planted_glove_counts(seed=3, n=9)
    kw = dict(x_max=20.0, alpha=0.75, seed=5, grad_clip=grad_clip)
    ref = glove_c_reference(x, 4, 2, eta=0.05, **kw)
    fit = fit_glove(
        x, 4, epochs=2, x_max=20.0, alpha=0.75, learning_rate=0.05, random_state=5,
        grad_clip=grad_clip, dtype=np.float64,
    )  # fmt: skip
    got = (fit.W, fit.W_context, fit.b, fit.b_context, fit.loss_history)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-15)
    assert fit.W.dtype == np.float64 and fit.loss_history.shape == (2,)


def test_glove_decreases_loss_and_fits_planted_log_counts():
    x, logx = planted_glove_counts()
    fit = fit_glove(x, 3, epochs=60, x_max=50, random_state=0, dtype=np.float64)
    h = fit.loss_history
    assert h.shape == (60,)
    assert h[-1] < 1e-3 * h[0]
    assert np.all(np.diff(h[5:]) <= 1e-3 * h[0])  # (essentially) monotone after warm-up
    coo = x.tocoo()
    pred = (fit.W @ fit.W_context.T + fit.b[:, None] + fit.b_context[None, :])[coo.row, coo.col]
    assert np.corrcoef(pred, logx[coo.row, coo.col])[0, 1] > 0.99
    # the exact objective agrees with the last epoch's running cost (to within one epoch's drift)
    assert glove_objective(fit, x, x_max=50) <= h[-1] * 1.5
    # float32 parameters (the default) follow the same path
    f32 = fit_glove(x, 3, epochs=60, x_max=50, random_state=0)
    assert f32.W.dtype == np.float32 and f32.loss_history.dtype == np.float64
    np.testing.assert_allclose(f32.loss_history[:10], h[:10], rtol=1e-3)


def test_glove_tol_stops_early_and_keeps_the_curve():
    x, _ = planted_glove_counts()
    full = fit_glove(x, 3, epochs=40, x_max=50, random_state=0)
    early = fit_glove(x, 3, epochs=40, x_max=50, random_state=0, tol=0.5)
    n = early.loss_history.size
    assert 2 <= n < 40
    np.testing.assert_array_equal(early.loss_history, full.loss_history[:n])
    h = early.loss_history
    assert (h[-2] - h[-1]) / h[-2] < 0.5
    assert np.all((h[:-2] - h[1:-1]) / h[:-2] >= 0.5)
    # the result says what stopped it: the tolerance here, the cap without tol or with a tiny one
    assert early.stopped_by == "tolerance" and full.stopped_by == "epochs"
    capped = fit_glove(x, 3, epochs=5, x_max=50, random_state=0, tol=1e-12)
    assert capped.loss_history.size == 5 and capped.stopped_by == "epochs"
    assert glove_stop(early.loss_history, 0.5, 40) == "tolerance"
    assert glove_stop(capped.loss_history, 1e-12, 5) == "epochs"
    assert glove_stop(full.loss_history, None, 40) == "epochs"


def test_glove_stopping_reads_the_rule_from_the_fit_settings():
    """The settings a fit ran with decide how its history reads; absent keys are fit_glove's."""
    x, _ = planted_glove_counts()
    fit = fit_glove(x, 3, epochs=40, x_max=50, random_state=0, tol=0.5)
    stop = glove_stopping(fit.loss_history, {"epochs": 40, "tol": 0.5, "x_max": 50})
    h = fit.loss_history
    assert (stop.stopped_by, stop.epochs_run, stop.tol, stop.max_epochs) == (
        fit.stopped_by, h.size, 0.5, 40)  # fmt: skip
    assert stop.last_change == pytest.approx((h[-2] - h[-1]) / h[-2])
    full = fit_glove(x, 3, x_max=50, random_state=0)  # fit_glove's default cap, no tol
    stop = glove_stopping(full.loss_history, {"x_max": 50})
    assert stop.stopped_by == "epochs" and stop.max_epochs == full.loss_history.size
    assert stop.tol is None
    assert glove_stopping([2.0], {"epochs": 1}).last_change is None
    with pytest.raises(ValueError, match="does not meet tol"):
        glove_stopping(h, {"epochs": 40})  # ran short of the cap with no tolerance


def test_glove_stop_rule():
    """The relative fall of the last epoch against tol decides; the cap otherwise."""
    assert glove_stop([1.0, 0.5, 0.499], 0.01, 10) == "tolerance"  # fell 0.2 % < 1 %
    assert glove_stop([1.0, 0.5, 0.4], 0.01, 3) == "epochs"  # still falling 20 % at the cap
    assert glove_stop([1.0, 0.5, 0.4996], 0.001, 3) == "tolerance"  # met at the cap itself
    assert glove_stop([1.0, 1.2], 0.01, 5) == "tolerance"  # a rise is no fall: flattened
    with pytest.raises(ValueError, match="does not meet tol"):
        glove_stop([1.0, 0.5, 0.4], 0.01, 10)  # stopped early without meeting tol
    with pytest.raises(ValueError, match="1 to epochs=2"):
        glove_stop([1.0, 0.9, 0.8], 0.01, 2)
    with pytest.raises(ValueError, match="1 to epochs=3"):
        glove_stop([], 0.01, 3)


def test_glove_recovers_planted_clusters():
    docs = cluster_corpus()
    words = sorted({w for d in docs for w in d})
    idx = {w: i for i, w in enumerate(words)}
    rows, cols, vals = [], [], []
    for doc in docs:  # symmetric 1/distance window of 5
        ids = [idx[w] for w in doc]
        for t in range(len(ids)):
            for k in range(1, 6):
                if t - k >= 0:
                    rows += [ids[t], ids[t - k]]
                    cols += [ids[t - k], ids[t]]
                    vals += [1 / k, 1 / k]
    x = sp.coo_array((vals, (rows, cols)), shape=(len(words), len(words))).tocsr()
    wv = train_glove(x, words, n_components=5, epochs=30, random_state=0)
    assert len(wv) == 20
    for w in ("a0", "b3"):
        nbrs = [n for n, _ in wv.most_similar(w, topn=5)]
        assert all(n[0] == w[0] for n in nbrs), (w, nbrs)


def test_glove_is_reproducible_and_validates_input():
    x, _ = planted_glove_counts(n=15)
    a = fit_glove(x, 2, epochs=3, random_state=1)
    b = fit_glove(x, 2, epochs=3, random_state=1)
    for field in ("W", "W_context", "b", "b_context", "loss_history"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.W, fit_glove(x, 2, epochs=3, random_state=2).W)
    with pytest.raises(ValueError, match="square"):
        fit_glove(sp.csr_array(np.ones((3, 4))), 2)
    with pytest.raises(ValueError, match="non-negative"):
        fit_glove(sp.csr_array(-np.eye(3)), 2)
    with pytest.raises(ValueError, match="NaN"):
        fit_glove(np.full((3, 3), np.nan), 2)
    with pytest.raises(ValueError, match="infinite"):
        fit_glove(np.full((3, 3), np.inf), 2)
    with pytest.raises(ValueError, match="no positive"):
        fit_glove(sp.csr_array((3, 3)), 2)
    with pytest.raises(ValueError, match="cooccurrence .* must be 2-dimensional"):
        fit_glove(np.ones(3), 2)
    bad = [
        ({"n_components": 0}, "n_components must be an integer >= 1, got 0"),
        ({"n_components": 2.5}, "n_components must be an integer >= 1, got 2.5"),
        ({"epochs": 0}, "epochs must be an integer >= 1, got 0"),
        ({"x_max": 0.0}, r"x_max must be a finite number > 0, got 0.0"),
        ({"x_max": np.inf}, r"x_max must be a finite number > 0, got inf"),
        ({"alpha": -0.5}, r"alpha must be a finite number >= 0, got -0.5"),
        ({"learning_rate": 0}, r"learning_rate must be a finite number > 0, got 0"),
        ({"learning_rate": float("nan")}, r"learning_rate must be a finite number > 0, got nan"),
        ({"grad_clip": -1.0}, r"grad_clip must be a finite number > 0, got -1.0"),
        ({"tol": -1e-3}, r"tol must be a finite number >= 0 or None, got -0.001"),
        ({"dtype": np.int64}, "dtype must be numpy.float32 or numpy.float64"),
        ({"dtype": "nonsense"}, "dtype must be numpy.float32 or numpy.float64"),
    ]
    for kwargs, message in bad:
        args = {"n_components": 2, **kwargs}
        with pytest.raises(ValueError, match=message):
            fit_glove(x, **args)
    with pytest.raises(ValueError, match="words"):
        train_glove(x, ["a", "b"], 2)


# ----------------------------------------------------------------------------------- LSA
def test_lsa_is_svd_of_summed_views():
    rng = np.random.default_rng(0)
    views = [sp.random_array((50, 30), density=0.2, random_state=s, format="csr") for s in range(3)]
    words = [f"w{i}" for i in range(50)]
    wv = lsa(views, words, n_components=4, singular_value_power=1.0)
    total = sum(v.toarray() for v in views)
    keep = np.any(total != 0, axis=1)
    u, s, _ = np.linalg.svd(total[keep], full_matrices=False)
    ref = u[:, :4] * s[:4]
    # same subspace and same scale
    np.testing.assert_allclose(np.abs(np.sum(wv.vectors * ref, 0)), s[:4] ** 2, rtol=1e-3)
    assert wv.words == [w for w, k in zip(words, keep) if k]
    with pytest.raises(ValueError, match="same columns"):
        lsa([views[0], views[1][:, :10]], words, 2)
    with pytest.raises(ValueError, match="words"):
        lsa(views, None, 2)
    with pytest.raises(ValueError, match="exceeds"):
        lsa(views, words, 40)
    assert rng is not None


def test_lsa_separates_planted_topics():
    docs = cluster_corpus()
    words = sorted({w for d in docs for w in d})
    idx = {w: i for i, w in enumerate(words)}
    m = np.zeros((20, 20))
    for doc in docs:
        ids = [idx[w] for w in doc]
        for a, b in zip(ids[1:], ids[:-1]):
            m[a, b] += 1
    wv = lsa([m, m.T], words, n_components=2, center=True)
    nbrs = [n for n, _ in wv.most_similar("a1", topn=5)]
    assert all(n.startswith("a") for n in nbrs)


# ------------------------------------------------------------------------------ word2vec
def test_word2vec_reproducible_restricted_and_sensible():
    docs = cluster_corpus(n_docs=200)
    keep = [f"a{i}" for i in range(10)] + [f"b{i}" for i in range(8)]
    kw = dict(words=keep, vector_size=10, window=3, epochs=5, seed=0, workers=1, sample=0)
    a = train_word2vec(docs, **kw)
    b = train_word2vec(iter(docs), **kw)
    assert a.words == keep
    np.testing.assert_array_equal(a.vectors, b.vectors)
    sims = dict(a.most_similar("a0", topn=17))
    assert np.mean([sims[f"a{i}"] for i in range(1, 10)]) > np.mean(
        [sims[f"b{i}"] for i in range(8)]
    )


def test_word2vec_bad_input():
    with pytest.raises(TypeError, match="string"):
        train_word2vec("just a string", vector_size=5)
    with pytest.raises(ValueError, match="no words|shares no word"):
        train_word2vec([["x", "y"]], words=["zzz"], vector_size=5)
    with pytest.raises(ValueError, match="vector_size"):
        train_word2vec([["x", "y"]], vector_size=0)


def test_lsa_sums_views_by_context_label():
    from workbench.views import View, Vocabulary

    vocab = Vocabulary.from_words(["a", "b", "c"])
    m1 = sp.csr_array(np.array([[1.0, 0], [0, 2], [3, 0]]))
    m2 = sp.csr_array(np.array([[0.0, 5], [1, 0], [0, 1]]))
    v1 = View("v1", m1, ("x", "y"), np.ones(3, bool), "test", vocab)
    v2 = View("v2", m2, ("y", "z"), np.ones(3, bool), "test", vocab)
    wv = lsa([v1, v2], n_components=2, singular_value_power=1.0)
    total = np.array([[1.0, 0, 5], [0, 3, 0], [3, 0, 1]])  # columns x, y, z
    s = np.linalg.svd(total, compute_uv=False)
    np.testing.assert_allclose(np.linalg.norm(wv.vectors, axis=0), s[:2], rtol=1e-8)
    assert wv.words == ["a", "b", "c"]
