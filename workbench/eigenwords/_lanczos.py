r"""Truncated SVD by block Lanczos with full reorthogonalization (the ``"lanczos"`` solver).

ARPACK (:func:`scipy.sparse.linalg.svds`) works one vector at a time and restarts its basis
implicitly; for the hundred leading singular vectors of a word-by-context matrix it spends
most of its time in that bookkeeping rather than in products with the matrix. A block
Lanczos basis of a few hundred vectors fits in memory, its reorthogonalization is a
matrix-matrix product (BLAS level 3), and it converges to the same subspace to the requested
tolerance (Golub & Van Loan 2013, §10.3.6, applied to the Gram matrix of the smaller side).
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.sparse as sp

from workbench._typing import Matrix, SeedLike
from workbench._validation import check_array, check_float, check_int, check_random_state

logger = logging.getLogger(__name__)

__all__ = ["lanczos_svd"]


def _orthonormalize(
    W: np.ndarray, basis: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``W = Q R`` with ``Q`` orthonormal and orthogonal to the rows of ``basis`` (columns of
    ``W`` that are numerically in the span of ``basis`` become fresh random directions with a
    zero row in ``R``)."""
    ref = max(float(np.linalg.norm(W, axis=0).max(initial=0.0)), 1e-300)
    for _ in range(2):  # "twice is enough" (Kahan, Parlett)
        if basis.shape[0]:
            W = W - basis.T @ (basis @ W)
    Q, R = np.linalg.qr(W)
    small = np.flatnonzero(np.abs(np.diag(R)) <= 1e-10 * ref)
    if small.size:
        R[small, :] = 0.0
        full = np.vstack([basis, Q.T]) if basis.shape[0] else Q.T
        for c in small:
            v: np.ndarray = np.asarray(rng.standard_normal(W.shape[0]))
            for _ in range(2):
                keep = np.delete(full, c + basis.shape[0], axis=0)
                v = v - keep.T @ (keep @ v)
            v = v / np.linalg.norm(v)
            Q[:, c] = v
            full[c + basis.shape[0]] = v
    return Q, R


def lanczos_svd(
    A: Matrix,
    k: int,
    *,
    tol: float = 1e-8,
    block_size: int | None = None,
    max_basis: int | None = None,
    random_state: SeedLike = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The ``k`` largest singular triplets of ``A`` by block Lanczos on its Gram matrix.

    Parameters
    ----------
    A : sparse matrix or ndarray, shape (n_rows, n_cols)
    k : int
        Number of singular triplets, ``1 <= k <= min(A.shape)``.
    tol : float, default 1e-8
        Stop when every one of the ``k`` leading Ritz pairs of the Gram matrix has a residual
        norm at most ``tol`` times the largest Ritz value.
    block_size : int, optional
        Vectors per Lanczos block (default: ``k`` divided by twelve, at least four and at most
        thirty-two).
    max_basis : int, optional
        Largest basis (default: ten times ``k`` plus a hundred, at most the dimension of the
        smaller side). Reaching it without convergence logs a warning.
    random_state : int or Generator, optional
        Seeds the start block. The converged subspace does not depend on it.

    Returns
    -------
    U : ndarray, shape (n_rows, k)
    s : ndarray, shape (k,)
        Descending.
    Vt : ndarray, shape (k, n_cols)

    Notes
    -----
    With :math:`G = A A^\top` (or :math:`A^\top A` when ``A`` has fewer columns than rows),
    the blocks :math:`Q_0, Q_1, \dots` (``n x b``, orthonormal, each orthogonalized twice
    against all previous ones) satisfy :math:`G Q_i = Q_{i-1} B_{i-1}^\top + Q_i A_i + Q_{i+1}
    B_i`, so :math:`T = Q^\top G Q` is block tridiagonal with :math:`A_i = Q_i^\top G Q_i` and
    the triangular factors :math:`B_i` of the QR decompositions. An eigenpair
    :math:`(\theta, s)` of :math:`T` gives the Ritz pair :math:`(\theta, Q s)` with residual
    norm :math:`\lVert B_j s_{(j)} \rVert` (:math:`s_{(j)}`: the last block of ``s``).
    Singular values are :math:`\sqrt{\theta}`; the other side's vectors are
    :math:`A^\top u / \sigma` (or :math:`A v / \sigma`). A block that loses rank (an
    invariant subspace) is completed with random vectors orthogonal to the basis.
    """
    A = check_array(A, "A", ndim=2, accept_sparse=True, min_rows=1, min_cols=1)
    n_rows, n_cols = A.shape
    n = min(n_rows, n_cols)
    k = check_int(k, "k", low=1, high=n)
    tol = check_float(tol, "tol", low=0, low_open=True)
    block_size = check_int(block_size, "block_size", low=1, allow_none=True)
    max_basis = check_int(max_basis, "max_basis", low=1, allow_none=True)
    random_state = check_random_state(random_state)
    b = int(block_size) if block_size is not None else int(np.clip(k // 12, 4, 32))
    b = min(b, n)
    limit = min(n, int(max_basis) if max_basis is not None else 10 * int(k) + 100)
    if limit < k:
        raise ValueError(f"max_basis={max_basis} is smaller than k={k}")
    left = n_rows <= n_cols  # Gram matrix of the rows (A A^T): basis vectors are left vectors
    if sp.issparse(A):
        A = sp.csr_matrix(A, dtype=np.float64)
        At = A.T.tocsr()
    else:
        A = np.asarray(A, dtype=np.float64)
        At = A.T

    def gram(X: np.ndarray) -> np.ndarray:
        return np.asarray(A @ (At @ X) if left else At @ (A @ X))

    if n <= limit + b:  # the basis could fill the space: eigenvectors of the dense Gram matrix
        G = gram(np.eye(n)) if not sp.issparse(A) else (A @ At if left else At @ A).toarray()
        theta, S = np.linalg.eigh((np.asarray(G) + np.asarray(G).T) / 2)
        rows = np.eye(n)
        m = n
        converged = True
    else:
        rng = np.random.default_rng(random_state)
        rows = np.zeros((limit + b, n))  # basis vectors as rows
        T = np.zeros((limit + b, limit + b))
        Q0, _ = _orthonormalize(rng.standard_normal((n, b)), rows[:0], rng)
        rows[:b] = Q0.T
        m = 0  # basis vectors whose products with G are done
        converged = False
        blocks_since_check = 0
        while True:
            Qi = rows[m : m + b].T
            Z = gram(Qi)
            T[m : m + b, m : m + b] = Qi.T @ Z
            Qn, R = _orthonormalize(Z, rows[: m + b], rng)
            rows[m + b : m + 2 * b] = Qn.T
            T[m + b : m + 2 * b, m : m + b] = R
            T[m : m + b, m + b : m + 2 * b] = R.T
            m += b
            blocks_since_check += 1
            last = m + b > limit
            if m >= k and (last or blocks_since_check >= 2):
                blocks_since_check = 0
                theta, S = np.linalg.eigh(T[:m, :m])
                top = np.argsort(-theta)[:k]
                resid = np.linalg.norm(T[m : m + b, m - b : m] @ S[m - b : m, top], axis=0)
                if np.all(resid <= tol * max(float(theta[top[0]]), 1e-300)):
                    converged = True
                    break
            if last:
                break
    if not converged:
        logger.warning(
            "lanczos_svd: %d leading singular vectors not converged to tol=%g with a basis of %d",
            k, tol, m,
        )  # fmt: skip
    top = np.argsort(-theta)[:k]
    X = S[:, top].T @ rows[:m]  # (k, n): Ritz vectors as rows
    s = np.sqrt(np.clip(theta[top], 0.0, None))
    inv = np.divide(1.0, s, out=np.zeros_like(s), where=s > 0)
    if left:
        U = X.T
        Vt = np.asarray(At @ U).T * inv[:, None]
    else:
        Vt = X
        U = np.asarray(A @ X.T) * inv[None, :]
    logger.debug("lanczos_svd: k=%d, basis %d, block %d, converged=%s", k, m, b, converged)
    return U, s, Vt
