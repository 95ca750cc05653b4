"""Tests of workbench.gcca: exact GCCA, MVLSA against it, planted subspaces, bad input."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.base import clone
from threadpoolctl import threadpool_info

from workbench import gcca
from workbench.datasets import load_corpus
from workbench.explore.gcca import MVLSACache, mvlsa_explorer, neighbours_table
from workbench.gcca import GCCA, MVLSA, glove_row_weights, truncated_svd
from workbench.gcca._linalg import (
    _cholesky_inverse_factor,
    _scipy_lapack_one_thread,
    _scipy_only_blas,
    _SparseProducts,
    _thin_svd,
)
from workbench.views import View, Vocabulary, encode_corpus, positional_views, preprocess


def max_angle(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(sla.subspace_angles(np.asarray(a, float), np.asarray(b, float))))


def planted_views(seed=0, n=300, dims=(8, 9, 10, 11), k0=3, noise=0.5, center=False):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, k0))
    views = []
    for d in dims:
        x = z @ rng.standard_normal((k0, d)) + noise * rng.standard_normal((n, d))
        views.append(x - x.mean(0) if center else x)
    return z, views


def low_rank_centred_views(seed=0, n=200, dims=(12, 15, 20), ranks=(4, 5, 6), k0=2):
    """Centred views of exactly known rank, sharing a k0-dim signal."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, k0))
    views = []
    for d, r in zip(dims, ranks):
        f = np.hstack([z, rng.standard_normal((n, r - k0))])
        f -= f.mean(0)
        views.append(f @ rng.standard_normal((r, d)))
    return z, views


def sparse_count_views(seed=0, n=400, d=60, n_views=4, k0=3):
    """Poisson count views (sparse) driven by a shared latent cluster structure."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k0, n)
    out = []
    for _ in range(n_views):
        rates = rng.gamma(0.3, 1.0, (k0, d)) * 2
        counts = rng.poisson(rates[labels])
        out.append(sp.csr_array(counts.astype(np.float64)))
    return labels, out


# ------------------------------------------------------------------------------- exact GCCA
def test_gcca_matches_eigenvectors_of_sum_of_projections():
    _, views = planted_views(center=True)
    r = 1e-3
    g = GCCA(3, regularization=r, center=False).fit(views)
    m = sum(x @ np.linalg.solve(x.T @ x + r * np.eye(x.shape[1]), x.T) for x in views)
    lam, vec = np.linalg.eigh(m / len(views))  # K = J I without missing rows
    assert max_angle(g.embedding_, vec[:, -3:]) < 1e-8
    np.testing.assert_allclose(g.eigenvalues_, lam[::-1][:3], rtol=1e-10)
    np.testing.assert_allclose(g.embedding_.T @ g.embedding_, np.eye(3), atol=1e-12)


def test_gcca_two_views_is_cca():
    """With J = 2 (r = 0) the eigenvalues of (P1 + P2)/2 are (1 + rho_i)/2, rho_i canonical corrs."""
    _, views = planted_views(dims=(4, 5), center=True)
    g = GCCA(2, regularization=0.0, center=False).fit(views)
    x, y = views
    qx, _ = np.linalg.qr(x)
    qy, _ = np.linalg.qr(y)
    rho = np.linalg.svd(qx.T @ qy, compute_uv=False)
    np.testing.assert_allclose(g.eigenvalues_, (1 + rho[:2]) / 2, rtol=1e-10)


def test_gcca_missing_rows_matches_formula_11():
    _, views = planted_views(center=False)
    rng = np.random.default_rng(3)
    masks = [rng.random(300) > 0.3 for _ in views]
    r = 1e-2
    g = GCCA(3, regularization=r).fit(views, masks=masks)
    n = 300
    msum = np.zeros((n, n))
    for x, mk in zip(views, masks):
        xc = np.zeros_like(x)
        xc[mk] = x[mk] - x[mk].mean(0)
        msum += xc @ np.linalg.solve(xc.T @ xc + r * np.eye(x.shape[1]), xc.T)
    kk = np.sum(masks, axis=0).astype(float)
    keep = kk > 0
    ks = 1 / np.sqrt(kk[keep])
    lam, vec = np.linalg.eigh(ks[:, None] * msum[np.ix_(keep, keep)] * ks[None, :])
    assert max_angle(g.embedding_[keep], vec[:, -3:]) < 1e-8
    assert np.all(g.embedding_[~keep] == 0)
    np.testing.assert_array_equal(g.support_, kk.astype(int))


# ------------------------------------------------------------------------------- MVLSA = GCCA
@pytest.mark.parametrize("solver", ["randomized", "gram", "dense"])
def test_mvlsa_equals_gcca_at_full_rank(solver):
    _, views = low_rank_centred_views()
    g = GCCA(4, regularization=1e-8).fit(views)
    m = MVLSA(4, view_rank=[4, 5, 6], regularization=1e-8, svd_solver=solver, random_state=0)
    m.fit(views)
    assert max_angle(g.embedding_, m.embedding_) < 1e-6
    np.testing.assert_allclose(m.eigenvalues_, g.eigenvalues_, rtol=1e-8)
    assert m.view_ranks_ == [4, 5, 6]
    # same signs, same columns (loose: the two shared directions are nearly degenerate)
    np.testing.assert_allclose(m.embedding_, g.embedding_, atol=1e-4)


def test_mvlsa_equals_gcca_with_masks_weights_support_and_per_view_r():
    _, views = planted_views()
    views = [np.abs(v) for v in views]
    rng = np.random.default_rng(1)
    masks = [rng.random(300) > 0.35 for _ in views]
    kw = dict(
        regularization=[1e-3, 1e-2, 1e-1, 1.0],
        min_view_support=2,
        row_weighting="glove",
        row_weight_max=20.0,
    )
    g = GCCA(3, **kw).fit(views, masks=masks)
    m = MVLSA(3, view_rank=[8, 9, 10, 11], svd_solver="randomized", random_state=0, **kw)
    m.fit(views, masks=masks)
    assert max_angle(g.embedding_, m.embedding_) < 1e-6
    np.testing.assert_array_equal(m.row_mask_, np.sum(masks, axis=0) >= 2)
    assert np.all(m.embedding_[~m.row_mask_] == 0)


@pytest.mark.parametrize("solver", ["randomized", "gram"])
def test_mvlsa_sparse_matches_dense_input(solver):
    _, views = sparse_count_views()
    g = GCCA(5).fit([v.toarray() for v in views])
    m = MVLSA(5, view_rank=60, svd_solver=solver, random_state=0).fit(views)
    assert max_angle(g.embedding_, m.embedding_) < 1e-6


def test_view_rank_larger_than_rank_is_clamped():
    _, views = low_rank_centred_views()
    m = MVLSA(3, view_rank=50, svd_solver="randomized", random_state=0).fit(views)
    assert m.view_ranks_ == [4, 5, 6]
    g = GCCA(3).fit(views)
    assert max_angle(g.embedding_, m.embedding_) < 1e-6


# ------------------------------------------------------------------------------- properties
def test_planted_shared_subspace_is_recovered():
    z, views = planted_views(n=1000, noise=0.3)
    m = MVLSA(3, view_rank=6, random_state=0).fit(views)
    zc = z - z.mean(0)
    assert np.rad2deg(max_angle(zc, m.embedding_)) < 5
    # the rank-truncated MVLSA stays close to the exact (full-rank) GCCA
    g = GCCA(3).fit(views)
    assert np.rad2deg(max_angle(g.embedding_, m.embedding_)) < 2


def test_planted_clusters_in_sparse_counts():
    labels, views = sparse_count_views(n=600, d=80)
    m = MVLSA(2, view_rank=10, random_state=0).fit(views)
    emb = m.embedding_
    centroids = np.stack([emb[labels == c].mean(0) for c in range(3)])
    pred = np.argmin(((emb[:, None, :] - centroids[None]) ** 2).sum(-1), axis=1)
    assert np.mean(pred == labels) > 0.95


def test_embedding_is_orthonormal_sliceable_and_nested():
    _, views = sparse_count_views()
    m = MVLSA(6, view_rank=12, random_state=0).fit(views)
    e = m.embedding_
    np.testing.assert_allclose(e.T @ e, np.eye(6), atol=1e-10)
    assert np.all(np.diff(m.eigenvalues_) <= 1e-12)
    np.testing.assert_array_equal(m.embedding(3), e[:, :3])
    small = MVLSA(3, view_rank=12, random_state=0).fit(views)
    np.testing.assert_allclose(small.embedding_, e[:, :3], atol=1e-8)
    with pytest.raises(ValueError, match=r"n_components must be an integer >= 1 and <= 6, got 7"):
        m.embedding(7)
    # signs fixed: the largest-|.| entry of each column is positive
    idx = np.argmax(np.abs(e), axis=0)
    assert np.all(e[idx, np.arange(6)] > 0)


def test_transform_reproduces_training_rows_and_maps_new_rows():
    _, views = planted_views(n=400)
    rng = np.random.default_rng(0)
    masks = [rng.random(400) > 0.2 for _ in views]
    m = MVLSA(3, view_rank=[8, 9, 10, 11], random_state=0).fit(views, masks=masks)
    np.testing.assert_allclose(m.transform(views, masks=masks), m.embedding_, atol=1e-10)
    # a fresh row: closer to its own training twin than to others
    new = [v[:5] + 0.01 for v in views]
    out = m.transform(new)
    assert out.shape == (5, 3)
    with pytest.raises(ValueError, match="columns"):
        m.transform([v[:, :3] for v in views])
    with pytest.raises(ValueError, match="views"):
        m.transform(views[:2])


def test_float32_matches_float64():
    _, views = sparse_count_views()
    m64 = MVLSA(5, view_rank=20, random_state=0).fit(views)
    m32 = MVLSA(5, view_rank=20, random_state=0).fit([v.astype(np.float32) for v in views])
    assert m32.embedding_.dtype == np.float32
    assert max_angle(m32.embedding_, m64.embedding_) < 1e-3
    m64r = MVLSA(5, view_rank=20, svd_solver="randomized", random_state=0).fit(views)
    m32r = MVLSA(5, view_rank=20, svd_solver="randomized", random_state=0).fit(
        [v.astype(np.float32) for v in views]
    )
    assert max_angle(m32r.embedding_, m64r.embedding_) < 1e-3


def test_reproducible_with_random_state():
    _, views = sparse_count_views()
    kw = dict(view_rank=8, svd_solver="randomized", n_iter=1, n_oversamples=2)
    a = MVLSA(4, random_state=3, **kw).fit(views).embedding_
    b = MVLSA(4, random_state=3, **kw).fit(views).embedding_
    np.testing.assert_array_equal(a, b)


def test_sklearn_contract():
    m = MVLSA(5, view_rank=7, regularization=0.1, random_state=1)
    params = m.get_params()
    assert params["n_components"] == 5 and params["view_rank"] == 7
    m.set_params(n_components=2)
    c = clone(m)
    assert c.n_components == 2 and not hasattr(c, "embedding_")
    _, views = sparse_count_views()
    out = c.fit_transform(views)
    np.testing.assert_array_equal(out, c.embedding_)
    assert GCCA(2).get_params()["regularization"] == 1e-8
    # masks are keyword-only (contract: fit(views, y=None, *, masks=None)); y is ignored
    rng = np.random.default_rng(0)
    masks = [rng.random(400) > 0.2 for _ in views]
    with pytest.raises(TypeError):
        MVLSA(2, view_rank=7).fit(views, None, masks)  # type: ignore[misc]
    a = MVLSA(2, view_rank=7, random_state=1).fit(views, None, masks=masks)
    b = MVLSA(2, view_rank=7, random_state=1).fit(views, masks=masks)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    assert a.support_.max() == len(views) and a.support_.min() < len(views)


def test_truncated_svd_implicit_centring_matches_dense():
    rng = np.random.default_rng(0)
    x = sp.random_array((300, 80), density=0.1, random_state=0, format="csr") * 5
    w = rng.random(300) + 0.5
    res = truncated_svd(  # the fixed-oversampling route (p = 20)
        x,
        10,
        center=True,
        row_weights=w,
        method="randomized",
        n_oversamples=20,
        n_iter=6,
        random_state=0,
    )
    xd = w[:, None] * (x.toarray() - x.toarray().mean(0))
    s = np.linalg.svd(xd, compute_uv=False)
    np.testing.assert_allclose(res.s, s[:10], rtol=1e-3)  # flat spectrum: randomized is approximate
    assert res.n_passes == 13  # 2 q + 1
    exact = truncated_svd(x, 10, center=True, row_weights=w, method="dense")
    np.testing.assert_allclose(exact.s, s[:10], rtol=1e-12)
    np.testing.assert_allclose(exact.U * exact.s @ exact.Vt, _rank_k(xd, 10), atol=1e-10)
    for xin in (x, x.toarray()):  # the scatter-matrix route, sparse and dense input
        gram = truncated_svd(xin, 10, center=True, row_weights=w, method="gram")
        np.testing.assert_allclose(gram.s, s[:10], rtol=1e-10)
        np.testing.assert_allclose(gram.U * gram.s @ gram.Vt, _rank_k(xd, 10), atol=1e-8)
        assert gram.n_passes == 2 and gram.method == "gram"
    assert truncated_svd(x, 3, method="auto").method == "dense"
    assert sp.issparse(x)  # input untouched


def test_randomized_svd_keeps_rank_with_a_dominant_direction():
    # regression: a clamped Cholesky-QR inside the power iterations let every direction far
    # below the first one fade away in float32 (rank 60 -> 1 after 8 iterations)
    rng = np.random.default_rng(0)
    n, d = 3000, 400
    u = np.linalg.qr(rng.standard_normal((n, d)))[0]
    v = np.linalg.qr(rng.standard_normal((d, d)))[0]
    s = np.r_[1.0, 0.05 * np.linspace(1, 0.3, d - 1)]
    x = ((u * s) @ v.T).astype(np.float32)
    for q in (2, 8):
        res = truncated_svd(
            x, 60, center=False, method="randomized", n_oversamples=60, n_iter=q, random_state=0
        )
        assert res.s.size == 60 and res.n_passes == 2 * q + 1
        np.testing.assert_allclose(res.s, s[:60], rtol=0.05 if q == 2 else 2e-3)
        assert abs(float(res.U[:, 0] @ u[:, 0])) > 1 - 1e-5
        np.testing.assert_allclose(res.U.T.astype(float) @ res.U, np.eye(60), atol=1e-4)


@pytest.mark.parametrize("n_threads", [1, 2, 3])
def test_sparse_products_in_panels_equal_plain_products(n_threads):
    x = sp.random_array((500, 300), density=0.05, random_state=1, format="csr")
    ops = _SparseProducts(x, n_threads)
    rng = np.random.default_rng(0)
    for width in (1, 17, 96, 97, 250):
        b = rng.standard_normal((300, width))
        q = rng.standard_normal((500, width))
        np.testing.assert_allclose(ops.matmat(b), x @ b, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ops.rmatmat(q), x.T @ q, rtol=1e-12, atol=1e-12)
        panels = ops._panels(width)
        assert panels[0][0] == 0 and panels[-1][1] == width
        assert all(b1 == a2 for (_, b1), (a2, _) in zip(panels, panels[1:]))
        assert max(b1 - a1 for a1, b1 in panels) <= max(ops.PANEL, -(-width // 2))


def test_rayleigh_ritz_through_cholesky_matches_orthonormal_basis():
    """The final Rayleigh-Ritz step on a non-orthonormal (LU-normalized) basis Z, through
    Q = Z R^{-1} with Z^T Z = R^T R, equals the SVD of L Q with Q from Householder QR."""

    rng = np.random.default_rng(3)
    x = (
        rng.standard_normal((400, 60))
        @ np.diag(np.geomspace(1, 1e-3, 60))
        @ rng.standard_normal((60, 90))
    )
    z = sla.lu(x.T @ (x @ rng.standard_normal((90, 25))), permute_l=True)[0]
    r_inv = _cholesky_inverse_factor(z)
    assert r_inv is not None
    np.testing.assert_allclose((z @ r_inv).T @ (z @ r_inv), np.eye(25), atol=1e-10)
    u, s, wt = _thin_svd(x @ z, 10, r_inv=r_inv)
    q = np.linalg.qr(z)[0]
    u_ref, s_ref, wt_ref = np.linalg.svd(x @ q, full_matrices=False)
    np.testing.assert_allclose(s, s_ref[:10], rtol=1e-9)
    v, v_ref = wt @ z.T, wt_ref[:10] @ q.T  # right singular vectors in the original space
    np.testing.assert_allclose(np.abs(np.sum(v * v_ref, axis=1)), 1.0, atol=1e-8)
    np.testing.assert_allclose(np.abs(np.sum(u * u_ref[:, :10], axis=0)), 1.0, atol=1e-8)
    # a basis without full column rank has no Cholesky factor: the caller falls back to QR
    assert _cholesky_inverse_factor(np.hstack([z, z[:, :1]])) is None


def test_scipy_lapack_runs_on_one_thread_inside_the_block_only():
    """The short-side factorizations run with scipy's own BLAS on one thread (no spinning
    workers competing with numpy's BLAS); numpy's BLAS and the settings outside are kept."""

    sel = _scipy_only_blas()
    before = {i["filepath"]: i["num_threads"] for i in threadpool_info()}
    with _scipy_lapack_one_thread():
        inside = {i["filepath"]: i["num_threads"] for i in threadpool_info()}
        a = np.random.default_rng(0).standard_normal((40, 6))
        q = sla.qr(a, mode="economic")[0]
    np.testing.assert_allclose(q.T @ q, np.eye(6), atol=1e-12)
    assert {i["filepath"]: i["num_threads"] for i in threadpool_info()} == before
    if sel is None:  # numpy and scipy share one BLAS here: nothing is limited
        assert inside == before
        return
    limited = {i["filepath"] for i in sel.info()}
    assert limited and all(inside[f] == 1 for f in limited)
    assert all(inside[f] == before[f] for f in before if f not in limited)


def _rank_k(a, k):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return (u[:, :k] * s[:k]) @ vt[:k]


def test_glove_row_weights():
    x = sp.csr_array(np.array([[0, 0], [50, 0], [100, 100], [1, 0]], dtype=float))
    w = glove_row_weights(x, x_max=100)
    np.testing.assert_allclose(w, [0, 0.5**0.75, 1, 0.01**0.75])


# ------------------------------------------------------------------------------- bad input
def test_bad_n_components_larger_than_stack():
    _, views = planted_views()
    with pytest.raises(ValueError, match="exceeds the rank of the stacked matrix"):
        MVLSA(10, view_rank=2).fit(views)  # 4 views x m=2 = 8 < 10


def test_bad_n_components_beyond_shared_directions():
    _, views = low_rank_centred_views(ranks=(3, 3, 3))
    v = views[0]
    with pytest.raises(ValueError, match="non-zero eigenvalues|shared directions"):
        GCCA(4, regularization=0.0).fit([v, v])
    with pytest.raises(ValueError, match="shared directions"):
        MVLSA(4, view_rank=3, svd_solver="dense").fit([v, v])


def test_bad_view_with_no_rows_after_min_view_support():
    _, views = planted_views()
    masks = [np.ones(300, bool), np.ones(300, bool), np.ones(300, bool), np.zeros(300, bool)]
    masks[3][:10] = True
    sup_masks = [m.copy() for m in masks]
    sup_masks[0][:10] = False
    sup_masks[1][:10] = False
    sup_masks[2][:10] = False  # rows 0-9 seen only in view 3 -> dropped with v=2
    with pytest.raises(ValueError, match="view 3 has no observed rows.*min_view_support=2"):
        MVLSA(2, view_rank=3, min_view_support=2).fit(views, masks=sup_masks)
    with pytest.raises(ValueError, match="exceeds the number of views"):
        MVLSA(2, view_rank=3, min_view_support=5).fit(views)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_components=0), "n_components"),
        (dict(view_rank=0), "view_rank"),
        (dict(view_rank=[3, 3]), "view_rank has 2 entries for 4 views"),
        (dict(regularization=-1.0), "regularization"),
        (dict(regularization=[0.1] * 3), "regularization has 3 entries"),
        (dict(min_view_support=-1), "min_view_support"),
        (dict(row_weighting="pmi"), "row_weighting"),
        (dict(svd_solver="lanczos"), "svd_solver"),
    ],
)
def test_bad_parameters(kwargs, match):
    _, views = planted_views(n=50)
    params = dict(n_components=2, view_rank=3)
    params.update(kwargs)
    with pytest.raises(ValueError, match=match):
        MVLSA(**params).fit(views)


def test_bad_views_are_rejected_by_check_views():
    _, views = planted_views(n=50)
    bad_nan = [v.copy() for v in views]
    bad_nan[1][0, 0] = np.nan
    with pytest.raises(ValueError, match="view 1.*non-finite"):
        MVLSA(2, view_rank=3).fit(bad_nan)
    with pytest.raises(ValueError, match="rows"):
        MVLSA(2, view_rank=3).fit([views[0], views[1][:40]])
    with pytest.raises(ValueError, match="all entries are zero|empty"):
        GCCA(2).fit([views[0], np.zeros((50, 3))])
    with pytest.raises(ValueError, match="single matrix|list"):
        MVLSA(2, view_rank=3).fit(views[0])
    with pytest.raises(ValueError, match="masks"):
        MVLSA(2, view_rank=3).fit(views, masks=[np.ones(50, bool)])


def test_constant_view_has_rank_zero_after_centring():
    _, views = planted_views(n=50)
    with pytest.raises(ValueError, match="rank 0"):
        MVLSA(2, view_rank=3).fit([views[0], np.ones((50, 4))])
    with pytest.raises(ValueError, match="view 1 has rank 0"):  # raised inside the view pool
        MVLSA(2, view_rank=3, n_jobs=2).fit([views[0], np.ones((50, 4))])


def test_gcca_refuses_large_problems():
    x = sp.random_array((gcca.GCCA_MAX_ROWS + 1, 3), density=1.0, random_state=0, format="csr")
    with pytest.raises(ValueError, match="Use MVLSA"):
        GCCA(1).fit([x, x])


def test_to_word_vectors_skips_dropped_rows():
    pytest.importorskip("workbench.embeddings")
    _, views = planted_views(n=60)
    masks = [np.ones(60, bool) for _ in views]
    for mk in masks[1:]:
        mk[:5] = False
    m = MVLSA(2, view_rank=3, min_view_support=2).fit(views, masks=masks)
    words = [f"w{i}" for i in range(60)]
    wv = m.to_word_vectors(words, n_components=1)
    assert len(wv) == 55 and wv.vectors.shape == (55, 1) and "w0" not in wv


# ------------------------------------------------------------------------------- explorer
def test_explorer_neighbours_cache_and_widget():
    labels, views = sparse_count_views(n=120, d=30)
    words = [f"c{lab}_{i}" for i, lab in enumerate(labels)]
    cache = MVLSACache(views, max_components=4, random_state=0)
    m = cache.get(5)
    assert cache.get(5) is m and len(cache) == 1
    table = neighbours_table(m.embedding_, words, [words[0], "nope"], n_components=2, topn=5)
    assert list(table.columns) == [words[0], "nope"] and len(table) == 5
    assert table["nope"][0] == "(not in vocabulary)"
    same = [cell.split("_")[0] == words[0].split("_")[0] for cell in table[words[0]]]
    assert sum(same) >= 4
    with pytest.raises(ValueError, match="n_components"):
        neighbours_table(m.embedding_, words, [words[0]], n_components=9)
    pytest.importorskip("ipywidgets")
    box = mvlsa_explorer(views, words, queries=[words[0]], view_ranks=(5,), max_components=4)
    assert box.children


def test_threaded_products_give_the_same_result():
    _, views = sparse_count_views()
    kw = dict(view_rank=8, svd_solver="randomized", random_state=0)
    a = MVLSA(4, **kw).fit(views).embedding_
    b = MVLSA(4, n_jobs=3, **kw).fit(views).embedding_
    np.testing.assert_allclose(a, b, atol=1e-10)


def test_views_factorized_in_parallel_match_one_at_a_time():
    """n_jobs > 1 runs the views' SVDs concurrently (here 4 pooled + 1 left over, and one
    view rank-deficient so its block is packed): same result as one view at a time."""
    _, views = sparse_count_views(n_views=5)
    dup = views[2].toarray()[:, :6]
    views[2] = sp.csr_array(np.hstack([dup, dup, dup]))  # rank <= 6 < view_rank
    kw = dict(view_rank=8, svd_solver="randomized", random_state=0)
    a = MVLSA(4, **kw).fit(views)
    for n_jobs in (2, 3):
        b = MVLSA(4, n_jobs=n_jobs, **kw).fit(views)
        assert b.view_ranks_ == a.view_ranks_ and a.view_ranks_[2] < 8
        np.testing.assert_allclose(b.embedding_, a.embedding_, atol=1e-10)
        np.testing.assert_allclose(b.eigenvalues_, a.eigenvalues_, rtol=1e-10)
        assert b.fit_stats_["n_passes"] == a.fit_stats_["n_passes"]
    # the packed stack is the exact one: m_j = rank of each view gives GCCA's solution
    ranks = [
        min(v.shape[1], np.linalg.matrix_rank(v.toarray() - v.toarray().mean(0))) for v in views
    ]
    ex = GCCA(4, regularization=1e-8).fit(views).embedding_
    full = MVLSA(4, view_rank=ranks, svd_solver="dense", regularization=1e-8, n_jobs=2).fit(views)
    assert max_angle(full.embedding_, ex) < 1e-6


def test_n_jobs_conventions():
    _, views = sparse_count_views(n_views=3)
    kw = dict(view_rank=6, svd_solver="randomized", random_state=0)
    a = MVLSA(3, **kw).fit(views).embedding_
    for nj in (None, -1, 2):
        np.testing.assert_allclose(MVLSA(3, n_jobs=nj, **kw).fit(views).embedding_, a, atol=1e-10)
    for bad in (0, 1.5, "2", True):
        with pytest.raises(ValueError, match="n_jobs"):
            MVLSA(3, n_jobs=bad, **kw).fit(views)


def test_scipy_lapack_one_thread_acts_in_the_main_thread_only():
    """The limit is process-wide: it is set and restored by the main thread (reentrant), and a
    worker thread (e.g. MVLSA's view pool, whose limits the main thread sets) changes nothing."""

    sel = _scipy_only_blas()
    if sel is None:
        pytest.skip("numpy and scipy share one BLAS: nothing is limited")
    limited = {i["filepath"] for i in sel.info()}

    def state() -> dict[str, int]:
        return {i["filepath"]: i["num_threads"] for i in threadpool_info()}

    before = state()
    seen: list[dict[str, int]] = []

    def worker() -> None:
        with _scipy_lapack_one_thread():
            seen.append(state())

    t = threading.Thread(target=worker)
    t.start()
    t.join(20)
    assert seen and state() == before
    with _scipy_lapack_one_thread():
        with _scipy_lapack_one_thread():  # nested: the inner exit keeps the limit
            pass
        inside = state()
    assert all(inside[f] == 1 for f in limited)
    assert all(inside[f] == before[f] for f in before if f not in limited)
    assert state() == before


def test_views_over_different_vocabularies_are_rejected():
    _, views = planted_views(n=6, dims=(3, 3))
    va = Vocabulary.from_words([f"a{i}" for i in range(6)])
    vb = Vocabulary.from_words([f"b{i}" for i in range(6)])
    v0 = View("v0", sp.csr_array(views[0]), ("x", "y", "z"), np.ones(6, bool), "test", va)
    v1 = View("v1", sp.csr_array(views[1]), ("x", "y", "z"), np.ones(6, bool), "test", vb)
    with pytest.raises(ValueError, match="different vocabulary"):
        MVLSA(1, view_rank=2).fit([v0, v1])


def test_all_zero_rows_are_unobserved_and_dropped():
    """Documented behaviour: an all-zero row carries no data, so it is a missing row (K_j)."""
    _, views = sparse_count_views(n=100, d=20, n_views=3)
    views = [v.tolil() for v in views]
    for v in views:
        v[:5] = 0  # rows 0-4 empty everywhere -> dropped (zero embedding rows)
    views[0][5:10] = 0  # rows 5-9 missing in view 0 only -> support 2
    views = [sp.csr_array(v) for v in views]
    m = MVLSA(2, view_rank=20, random_state=0).fit(views)  # full rank: equals GCCA
    assert np.all(m.support_[:5] == 0) and np.all(m.support_[5:10] == 2)
    assert not m.row_mask_[:5].any() and np.all(m.embedding_[:5] == 0)
    g = GCCA(2).fit([v.toarray() for v in views])
    assert max_angle(g.embedding_, m.embedding_) < 1e-6


@pytest.mark.slow
def test_real_corpus_randomized_close_to_dense_solver():
    """On real offset views (1M corpus) the default randomized per-view SVDs stay close to the
    exact dense ones (flat spectral tails make this the hard case)."""

    corpus = load_corpus("1M", max_tokens=300_000)
    vocab = Vocabulary.from_corpus(corpus, max_size=3000)
    enc = encode_corpus(corpus, vocab)
    views = [
        preprocess(v, "pow", 0.25, top_t=1000)
        for v in positional_views(enc, vocab, offsets=range(1, 5))
    ]
    exact = MVLSA(50, view_rank=50, svd_solver="dense").fit(views)
    fast = MVLSA(50, view_rank=50, svd_solver="randomized", random_state=0).fit(views)
    angles = np.rad2deg(sla.subspace_angles(exact.embedding_, fast.embedding_))
    assert np.median(angles) < 5


def test_relative_regularization_scales_by_each_views_top_singular_value():
    rng = np.random.default_rng(5)
    base = rng.standard_normal((300, 4))
    views = [
        scale * (base @ rng.standard_normal((4, d)) + 0.3 * rng.standard_normal((300, d)))
        for scale, d in ((1.0, 30), (50.0, 40), (0.02, 25))
    ]
    rho = [0.1, 0.01, 1.0]
    rel = MVLSA(
        3, view_rank=10, regularization=rho, relative_regularization=True, svd_solver="dense"
    ).fit(views)
    s1 = np.array([sv[0] for sv in rel.view_singular_values_])
    np.testing.assert_allclose(rel.regularization_, np.array(rho) * s1**2)
    ab = MVLSA(3, view_rank=10, regularization=list(rel.regularization_), svd_solver="dense").fit(
        views
    )
    np.testing.assert_allclose(np.abs(rel.embedding_.T @ ab.embedding_), np.eye(3), atol=1e-8)
    np.testing.assert_allclose(ab.regularization_, rel.regularization_)
    # very large rho: the eigenvectors of sum_j X_j X_j^T / s_j1^2 (concatenated scaled PCA)
    big = MVLSA(
        3, view_rank=10, regularization=1e6, relative_regularization=True, svd_solver="dense"
    ).fit(views)
    cat = np.hstack(
        [
            (lambda u, s: u[:, :10] * s[:10] / s[0])(
                *np.linalg.svd(v - v.mean(0), full_matrices=False)[:2]
            )
            for v in views
        ]
    )
    u = np.linalg.svd(cat, full_matrices=False)[0][:, :3]
    angles = np.linalg.svd(u.T @ big.embedding_, compute_uv=False)
    assert angles.min() > 1 - 1e-6
    with pytest.raises(TypeError, match="relative_regularization"):
        MVLSA(2, view_rank=5, relative_regularization="yes").fit(views)
