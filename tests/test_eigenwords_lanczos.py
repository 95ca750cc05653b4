"""Block Lanczos SVD (``solver="lanczos"``) against dense LAPACK on planted spectra."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.eigenwords import count_contexts, eigenwords_svd, graph_embeddings, lanczos_svd
from workbench.lexicons import LexiconGraph


def _planted(n_rows: int, n_cols: int, k: int, seed: int, *, sparse: bool = True):
    """A matrix with ``k`` well-separated singular values on top of small noise."""
    rng = np.random.default_rng(seed)
    U, _ = np.linalg.qr(rng.standard_normal((n_rows, k)))
    V, _ = np.linalg.qr(rng.standard_normal((n_cols, k)))
    s = np.linspace(10.0, 3.0, k)
    A = (U * s) @ V.T + 0.01 * rng.standard_normal((n_rows, n_cols))
    return (sp.csr_matrix(A) if sparse else A), s


def _subspace_cos(X: np.ndarray, Y: np.ndarray) -> float:
    """Smallest cosine of the principal angles between two orthonormal column spaces."""
    return float(np.linalg.svd(X.T @ Y, compute_uv=False).min())


@pytest.mark.parametrize("shape", [(600, 1500), (1500, 600)])
def test_lanczos_matches_dense_svd(shape):
    A, _ = _planted(*shape, 12, seed=1)
    U, s, Vt = lanczos_svd(A, 12, random_state=0)
    Ud, sd, Vtd = np.linalg.svd(A.toarray(), full_matrices=False)
    assert np.allclose(s, sd[:12], rtol=1e-9)
    assert np.all(np.diff(s) <= 0)
    assert _subspace_cos(U, Ud[:, :12]) > 1 - 1e-9
    assert _subspace_cos(Vt.T, Vtd[:12].T) > 1 - 1e-9
    # a genuine SVD: A v = s u, orthonormal factors
    assert np.allclose(A @ Vt.T, U * s, atol=1e-7)
    assert np.allclose(U.T @ U, np.eye(12), atol=1e-10)


def test_lanczos_does_not_depend_on_the_start_block():
    A, _ = _planted(800, 2000, 10, seed=2)
    U0, s0, _ = lanczos_svd(A, 10, random_state=0)
    U1, s1, _ = lanczos_svd(A, 10, random_state=1)
    assert np.allclose(s0, s1, rtol=1e-10)
    assert _subspace_cos(U0, U1) > 1 - 1e-9


def test_lanczos_block_size_changes_nothing_but_the_path():
    A, _ = _planted(700, 900, 8, seed=3, sparse=False)
    _, s4, _ = lanczos_svd(A, 8, block_size=4, random_state=0)
    _, s16, _ = lanczos_svd(A, 8, block_size=16, random_state=0)
    assert np.allclose(s4, s16, rtol=1e-9)


def test_lanczos_rank_deficient_matrix_recovers_the_rank():
    rng = np.random.default_rng(4)
    A = rng.standard_normal((900, 3)) @ rng.standard_normal((3, 1200))
    U, s, _ = lanczos_svd(sp.csr_matrix(A), 6, random_state=0)
    sd = np.linalg.svd(A, compute_uv=False)
    assert np.allclose(s[:3], sd[:3], rtol=1e-9)
    assert np.all(s[3:] < 1e-6 * s[0])  # the null space, not noise-sized singular values
    assert np.allclose(U.T @ U, np.eye(6), atol=1e-8)


def test_lanczos_small_problem_uses_the_dense_gram():
    A, _ = _planted(40, 60, 5, seed=5)
    U, s, Vt = lanczos_svd(A, 5, random_state=0)
    sd = np.linalg.svd(A.toarray(), compute_uv=False)
    assert np.allclose(s, sd[:5], rtol=1e-8)


def test_lanczos_warns_when_the_basis_is_too_small(caplog):
    rng = np.random.default_rng(6)
    A = sp.random(600, 800, density=0.05, random_state=rng, format="csr")  # flat spectrum
    with caplog.at_level("WARNING", logger="workbench.eigenwords._lanczos"):
        lanczos_svd(A, 20, max_basis=40, block_size=4, random_state=0)
    assert "not converged" in caplog.text


@pytest.mark.parametrize(
    "kwargs, match",
    [({"k": 0}, "k must be"), ({"k": 41}, "k must be"), ({"k": 3, "tol": 0.0}, "tol"),
     ({"k": 3, "block_size": 0}, "block_size"), ({"k": 30, "max_basis": 10}, "max_basis")],
)  # fmt: skip
def test_lanczos_bad_arguments(kwargs, match):
    A, _ = _planted(40, 60, 3, seed=7)
    with pytest.raises(ValueError, match=match):
        lanczos_svd(A, **kwargs)


def test_eigenwords_svd_lanczos_equals_arpack():
    rng = np.random.default_rng(8)
    V = 300
    # Zipf-like stream with local structure: word i tends to be followed by i + 1
    ids = np.minimum(rng.zipf(1.3, size=30_000), V) - 1
    follow = rng.random(ids.size) < 0.3
    ids[1:][follow[1:]] = (ids[:-1][follow[1:]] + 1) % V
    counts = count_contexts(ids, V, window=2)
    a = eigenwords_svd(counts, 15, solver="svds", random_state=0)
    b = eigenwords_svd(counts, 15, solver="lanczos", random_state=1)
    assert np.allclose(a.singular_values, b.singular_values, rtol=1e-8)
    # same embeddings up to the sign convention (largest-|.| entry of each u positive)
    assert np.allclose(a.word_embeddings, b.word_embeddings, atol=1e-6)
    with pytest.raises(ValueError, match="only computes the largest"):
        eigenwords_svd(counts, 5, solver="lanczos", which="smallest")


def test_graph_embeddings_lanczos_equals_arpack():
    rng = np.random.default_rng(9)
    n = 400
    A = np.triu(rng.random((n, n)) < 0.02, 1)
    A = (A | A.T).astype(float)
    # a planted community makes the top of the spectrum well separated
    A[:40, :40] = 1.0
    np.fill_diagonal(A, 0.0)
    g = LexiconGraph("toy", [f"w{i}" for i in range(n)], sp.csr_matrix(A))
    a = graph_embeddings(g, 6, solver="svds", random_state=0)
    b = graph_embeddings(g, 6, solver="lanczos", random_state=3)
    assert a.words == b.words
    assert np.allclose(a.singular_values, b.singular_values, rtol=1e-8)
    assert np.allclose(np.abs(a.embeddings), np.abs(b.embeddings), atol=1e-6)
