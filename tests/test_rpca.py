"""Tests for workbench.rpca: difference matrix, PCA, Ex-RPCA (iterative / ALM), elimination."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from workbench.embeddings import MultiSenseVectors
from workbench.rpca import (
    RPCAConvergenceWarning,
    difference_matrix,
    eliminate_pseudo_senses,
    elimination_map,
    ex_rpca,
    make_planted,
    pca,
    pca_sparse_support,
    principal_angles,
    support_scores,
)


def _msv(rng, n_senses=(3, 2, 1), d=6):
    words = [f"w{i}" for i in range(len(n_senses))]
    senses = [rng.standard_normal((k, d)) for k in n_senses]
    centers = [rng.standard_normal((k, d)) for k in n_senses]
    return MultiSenseVectors(words, rng.standard_normal((len(words), d)), senses, centers)


# ----------------------------------------------------------------------------- difference matrix


def test_difference_matrix_matches_section2_order():
    rng = np.random.default_rng(0)
    msv = _msv(rng)
    M, labels = difference_matrix(msv)
    # sum n_w (n_w - 1) = 3*2 + 2*1 + 0
    assert M.shape == (6, 8)
    assert labels[:6] == [
        ("w0", 0, 1),
        ("w0", 1, 0),
        ("w0", 0, 2),
        ("w0", 2, 0),
        ("w0", 1, 2),
        ("w0", 2, 1),
    ]
    assert labels[6:] == [("w1", 0, 1), ("w1", 1, 0)]
    for j, (w, a, b) in enumerate(labels):
        s = msv.sense_vectors(w)
        np.testing.assert_allclose(M[:, j], s[a] - s[b])
    np.testing.assert_allclose(M.mean(axis=1), 0.0, atol=1e-12)


def test_difference_matrix_word_selection_and_errors():
    rng = np.random.default_rng(1)
    msv = _msv(rng)
    M, labels = difference_matrix(msv, words=["w1"])
    assert M.shape == (6, 2) and {lab[0] for lab in labels} == {"w1"}
    with pytest.raises(ValueError, match="only 1 sense"):
        difference_matrix(msv, words=["w2"])
    with pytest.raises(KeyError, match="nope"):
        difference_matrix(msv, words=["nope"])
    single = MultiSenseVectors(["a"], np.ones((1, 3)), [np.ones((1, 3))], [np.ones((1, 3))])
    with pytest.raises(ValueError, match="no columns"):
        difference_matrix(single)
    with pytest.raises(ValueError, match="NaN"):  # refused when the vectors are built
        MultiSenseVectors(
            ["a"], np.ones((1, 2)), [np.array([[1.0, np.nan], [0.0, 1.0]])], [np.ones((2, 2))]
        )


# ----------------------------------------------------------------------------- PCA


def test_pca_matches_exact_svd():
    rng = np.random.default_rng(2)
    M = rng.standard_normal((20, 300))
    res = pca(M, 4)
    U, s, _ = np.linalg.svd(M, full_matrices=False)
    assert principal_angles(res.components, U[:, :4]).max() < 1e-8
    np.testing.assert_allclose(res.singular_values, s[:4], rtol=1e-8)
    np.testing.assert_allclose(res.explained_variance_ratio, s[:4] ** 2 / np.sum(s**2), rtol=1e-8)
    np.testing.assert_allclose(res.low_rank + res.noise, M, atol=1e-10)
    assert not res.sparse.any()
    np.testing.assert_allclose(res.components.T @ res.components, np.eye(4), atol=1e-10)
    # sign convention: largest-|.| entry of each component is positive
    idx = np.argmax(np.abs(res.components), axis=0)
    assert np.all(res.components[idx, np.arange(4)] > 0)
    full = pca(M, 4, svd_solver="full")
    assert principal_angles(full.components, res.components).max() < 1e-8
    # the randomized solver is accurate when there is a spectral gap
    P = make_planted(20, 300, 4, noise=0.01, sparse_fraction=0.0, random_state=2)
    a, b = pca(P.M, 4, svd_solver="randomized"), pca(P.M, 4, svd_solver="gram")
    assert principal_angles(a.components, b.components).max() < 1e-6
    # a tall matrix goes through the other Gram side
    tall = pca(M.T, 3)
    assert (
        principal_angles(tall.components, np.linalg.svd(M.T, full_matrices=False)[0][:, :3]).max()
        < 1e-6
    )


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.ones(5), "M must be 2-dimensional"),
        (np.array([[1.0, np.nan], [0.0, 1.0]]), "NaN"),
        (np.zeros((0, 3)), "empty"),
    ],
)
def test_bad_matrices(bad, match):
    with pytest.raises(ValueError, match=match):
        pca(bad, 1)
    with pytest.raises(ValueError, match=match):
        ex_rpca(bad, 1)


def test_rank_errors():
    M = np.random.default_rng(3).standard_normal((5, 40))
    with pytest.raises(ValueError, match="exceeds the dimension d=5"):
        pca(M, 6)
    with pytest.raises(ValueError, match="exceeds the dimension d=5"):
        ex_rpca(M, 6, method="alm")
    with pytest.raises(ValueError, match=">= 1"):
        ex_rpca(M, 0)
    with pytest.raises(ValueError, match="rank must be an integer"):
        pca(M, 2.5)
    with pytest.raises(ValueError, match="method"):
        ex_rpca(M, 2, method="magic")


# ----------------------------------------------------------------------------- planted recovery


@pytest.fixture(scope="module")
def planted():
    return make_planted(
        50, 2000, 3, noise=0.1, sparse_fraction=0.1, sparse_scale=1.0, random_state=0
    )


@pytest.fixture(scope="module")
def planted_results(planted):
    return {
        "pca": pca(planted.M, 3),
        "iterative": ex_rpca(planted.M, 3, method="iterative"),
        "alm": ex_rpca(planted.M, 3, method="alm"),
    }


def _f1(p, r):
    return 2 * p * r / (p + r) if p + r else 0.0


def test_planted_recovery_beats_pca(planted, planted_results):
    """Measured (seed 0): max principal angle PCA 29.5 deg, iterative 9.0, ALM 10.0;
    support precision/recall PCA(3-sigma residual) 1.00/0.47, iterative 0.96/1.00, ALM 1.00/1.00."""
    angles = {
        k: np.degrees(principal_angles(r.components, planted.components)).max()
        for k, r in planted_results.items()
    }
    scores = {
        "pca": support_scores(pca_sparse_support(planted_results["pca"]), planted.support),
        "iterative": support_scores(planted_results["iterative"].sparse, planted.support),
        "alm": support_scores(planted_results["alm"].sparse, planted.support),
    }
    assert angles["pca"] > 20
    for k in ("iterative", "alm"):
        assert angles[k] < 12, angles
        assert angles[k] < angles["pca"] / 2
        p, r = scores[k]
        assert p > 0.9 and r > 0.95, scores
        assert _f1(p, r) > _f1(*scores["pca"]) + 0.2
    assert scores["pca"][1] < 0.6  # PCA's residual misses half of the large noise


def test_iterative_decomposition_is_exact_and_traced(planted, planted_results):
    res = planted_results["iterative"]
    assert res.converged and 1 < res.n_iter < 50
    np.testing.assert_allclose(res.low_rank + res.noise + res.sparse, planted.M, atol=1e-10)
    assert np.linalg.matrix_rank(res.low_rank, tol=1e-8) == 3
    assert res.trace.shape == (res.n_iter,)
    assert res.trace[-1] < res.trace[0]
    # the Gaussian part left in E is within a few sigma
    assert np.abs(res.noise).max() < 6 * res.noise.std()
    # Ex-RPCA explains more of the cleaned matrix than PCA of M (Table 2's rho_var)
    assert (
        res.explained_variance_ratio.sum() > planted_results["pca"].explained_variance_ratio.sum()
    )


def test_iterative_gram_matches_full_solver(planted, planted_results):
    other = ex_rpca(planted.M, 3, svd_solver="full")
    assert other.n_iter == planted_results["iterative"].n_iter
    assert principal_angles(other.components, planted_results["iterative"].components).max() < 1e-6
    np.testing.assert_allclose(other.sparse, planted_results["iterative"].sparse, atol=1e-8)


def test_alm_constraint_and_params(planted, planted_results):
    res = planted_results["alm"]
    assert res.converged
    resid = np.linalg.norm(planted.M - res.low_rank - res.noise - res.sparse) / np.linalg.norm(
        planted.M
    )
    assert resid < 1e-6
    assert np.linalg.matrix_rank(res.low_rank, tol=1e-6) <= 3
    assert res.params["lambda1"] > 0 and res.params["lambda2"] > 0
    # E is (approximately: the inexact ALM stops early, and L's part beyond rank 3 is
    # moved into E) clipped at lambda2 / (2 lambda1) = 3 sigma-hat
    clip = res.params["lambda2"] / (2 * res.params["lambda1"])
    assert np.mean(np.abs(res.noise) <= clip * 1.05) > 0.95


def test_alm_warns_when_not_converged(planted):
    with pytest.warns(RPCAConvergenceWarning, match="did not converge"):
        res = ex_rpca(planted.M, 3, method="alm", max_iter=2)
    assert not res.converged and res.n_iter == 2
    assert issubclass(RPCAConvergenceWarning, Warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ex_rpca(planted.M, 3, method="alm", max_iter=2, warn=False)


def test_iterative_warns_when_not_converged(planted):
    with pytest.warns(RPCAConvergenceWarning):
        res = ex_rpca(planted.M, 3, max_iter=1, tol=0.0)
    assert not res.converged


def test_pure_low_rank_plus_gaussian_agrees_with_pca():
    P = make_planted(30, 1500, 2, noise=0.05, sparse_fraction=0.0, random_state=4)
    a, b = pca(P.M, 2), ex_rpca(P.M, 2)
    assert principal_angles(a.components, b.components).max() < np.radians(1.0)
    assert (b.sparse != 0).mean() < 0.01  # only the Gaussian 3-sigma tail


def test_reproducible():
    P = make_planted(20, 500, 2, random_state=5)
    a, b = ex_rpca(P.M, 2), ex_rpca(P.M, 2)
    np.testing.assert_array_equal(a.components, b.components)
    np.testing.assert_array_equal(a.sparse, b.sparse)


# ----------------------------------------------------------------------------- elimination


def test_elimination_map_appendix_a():
    rng = np.random.default_rng(6)
    C = rng.standard_normal((8, 3))
    T = elimination_map(C)
    np.testing.assert_allclose(T @ C, 0.0, atol=1e-12)
    Q, _ = np.linalg.qr(C, mode="complete")
    perp = Q[:, 3:]
    np.testing.assert_allclose(T @ perp, perp, atol=1e-12)
    # Appendix A: T_i = A^{-1} c_i with A the orthogonal basis (rows)
    A = Q.T
    c = np.vstack([np.zeros((3, 8)), A[3:]])
    np.testing.assert_allclose(T.T, np.linalg.solve(A, c), atol=1e-12)
    with pytest.raises(ValueError, match="linearly dependent"):
        elimination_map(np.column_stack([C[:, 0], 2 * C[:, 0]]))
    with pytest.raises(ValueError, match="NaN"):
        elimination_map(np.full((3, 1), np.nan))
    with pytest.raises(ValueError, match="exceed the dimension"):
        elimination_map(rng.standard_normal((2, 3)))


def test_eliminate_pseudo_senses_only_touches_sense_vectors():
    rng = np.random.default_rng(7)
    msv = _msv(rng)
    comp = rng.standard_normal((6, 2))
    out = eliminate_pseudo_senses(msv, comp)
    T = elimination_map(comp)
    for w in msv.words:
        np.testing.assert_allclose(out.sense_vectors(w), msv.sense_vectors(w) @ T.T)
        np.testing.assert_allclose(out.context_centers(w), msv.context_centers(w))
        np.testing.assert_allclose(out.global_vector(w), msv.global_vector(w))
    M, _ = difference_matrix(out)
    np.testing.assert_allclose(comp.T @ M, 0.0, atol=1e-10)
    with pytest.raises(ValueError, match="dimension"):
        eliminate_pseudo_senses(msv, rng.standard_normal((5, 1)))


def test_iterative_high_rank_complement_matches_full_solver():
    """Above half the dimension the Gram solver projects on the complement; same result."""
    prob = make_planted(12, 400, 8, noise=0.05, sparse_fraction=0.02, random_state=3)
    gram = ex_rpca(prob.M, 9, svd_solver="gram")
    full = ex_rpca(prob.M, 9, svd_solver="full")
    assert gram.n_iter == full.n_iter and gram.converged
    assert principal_angles(gram.components, full.components).max() < 1e-6
    np.testing.assert_allclose(gram.sparse, full.sparse, atol=1e-8)
    np.testing.assert_allclose(gram.low_rank + gram.noise + gram.sparse, prob.M, atol=1e-10)
    assert (gram.sparse != 0).any()
