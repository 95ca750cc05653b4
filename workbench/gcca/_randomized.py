"""The randomized routes of :func:`workbench.gcca.truncated_svd`: the adaptive randomized block
Krylov route (the default) and randomized subspace iteration with a fixed block.

Both work on the short ``d``-side through products with the implicit operator ``L`` (supplied
by :mod:`workbench.gcca._svd` as callables) and return ``U, s, Vt`` before the common rank cut
and sign fix; the algorithms are written out in the Notes of :func:`truncated_svd`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
from sklearn.utils import check_random_state as _sk_random_state

from workbench._typing import SeedLike

from ._linalg import _cholesky_inverse_factor, _thin_svd

logger = logging.getLogger(__name__)

#: What draws the Gaussian test matrices.
RandomSource = np.random.Generator | np.random.RandomState


def _generator(random_state: SeedLike) -> RandomSource:
    """The ``numpy.random.Generator`` (or legacy ``RandomState``) behind a checked
    ``random_state``: Gaussian test matrices are drawn from it, in float64 whatever the data's
    precision, so float32 and float64 data see the same test matrix for the same seed."""
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if not isinstance(random_state, np.random.Generator):
        return _sk_random_state(random_state)
    return random_state


def _fixed_oversampling_svd(
    matmat: Callable[[np.ndarray], np.ndarray],
    normal_matmat: Callable[[np.ndarray], np.ndarray],
    gen: RandomSource,
    d: int,
    rank: int,
    ell: int,
    n_iter: int,
    dtype: np.dtype,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The fixed-oversampling route of :func:`truncated_svd` (``n_oversamples`` given):
    randomized subspace iteration with a ``d x ell`` block and ``n_iter`` power iterations
    (Halko, Martinsson & Tropp 2011, Alg. 4.4), ``2 n_iter + 1`` passes. Returns
    ``U, s, Vt`` (before the common rank cut and sign fix) and the passes made."""
    z = gen.standard_normal((d, ell)).astype(dtype)
    # Subspace iteration on the right (d x l) side only: the tall n x l side would cost
    # n l^2 per step, more than a sparse pass when nnz / n < l. Inside the iteration only
    # the span matters, so the block is normalized by pivoted LU (as scikit-learn's
    # randomized_svd does; half the flops of QR), the last one included.
    passes = 0
    for _ in range(int(n_iter)):
        z = normal_matmat(z)
        passes += 2
        z = sla.lu(z, permute_l=True, check_finite=False)[0]
    # Rayleigh-Ritz on span(z) without orthonormalizing z: with z^T z = R^T R (Cholesky of
    # the small float64 Gram; z = P L from LU has full column rank), Q = z R^{-1} is an
    # orthonormal basis, L Q = (L z) R^{-1} = U S W^T and V = z R^{-1} W (one pass).
    # Householder QR if the Cholesky factor fails or cond > 1e6.
    r_inv = _cholesky_inverse_factor(z)
    if r_inv is None:
        z = sla.qr(z, mode="economic", check_finite=False)[0]
    y = matmat(z)
    passes += 1
    u, s, wt = _thin_svd(y, rank, r_inv=r_inv)
    vt = wt.astype(dtype) @ z.T
    return u, s, vt, passes


@dataclass(frozen=True)
class _KrylovStats:
    """How the adaptive route ended: final basis size, Krylov iterations, thick restarts, the
    relative residual ``eta`` of the returned triplets, whether ``eta <= tol``, why it stopped
    (``"tol"``, ``"invariant"``, ``"full_basis"``, ``"max_iter"`` or ``"work_cap"``) and the
    numerical rank it detected (None: at least ``rank``)."""

    basis_size: int
    n_iter: int
    n_restarts: int
    error: float
    converged: bool
    stop_reason: str = "tol"
    numerical_rank: int | None = None


def _default_block_size(rank: int, sparse: bool) -> int:
    """Block width ``b`` of the adaptive route when ``block_size`` is None: ``rank`` (within
    [16, 128]) for a dense ``X``, ``ceil(rank / 4)`` (at least 8) for a sparse one (see
    :func:`truncated_svd`)."""
    return max(-(-rank // 4), 8) if sparse else min(max(rank, 16), 128)


def _fixed_route_columns(rank: int, n: int, d: int, n_iter: int) -> int:
    """Columns multiplied in all (passes x block width) by ``n_iter`` power iterations of the
    fixed route with the block ``l = rank + max(rank, 20)``: the work cap of the adaptive route
    when ``n_iter`` is given."""
    return (2 * n_iter + 1) * int(min(rank + max(rank, 20), n, d))


def _default_max_basis(rank: int, block: int) -> int:
    """Largest Krylov basis of the adaptive route before a thick restart: ``rank + 6 b``."""
    return rank + 6 * block


def _top_eigh_desc(h: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` eigenpairs of a symmetric matrix, eigenvalues descending."""
    # divide and conquer on the whole matrix: faster than a subset (evr / evx) up to the sizes
    # met here (a few thousand), where the tridiagonal reduction dominates either way
    lam, vec = sla.eigh(h, driver="evd", check_finite=False)
    return lam[: -k - 1 : -1], vec[:, : -k - 1 : -1]


def _blocks_times(blocks: list[np.ndarray], w: np.ndarray) -> np.ndarray:
    """``[Y_0, Y_1, ...] @ w`` without concatenating the row-aligned blocks ``Y_i``."""
    out: np.ndarray | None = None
    off = 0
    for y in blocks:
        part = np.asarray(y @ w[off : off + y.shape[1]])
        off += y.shape[1]
        if out is None:
            out = part
        else:
            out += part
    assert out is not None
    return out


def _reorthogonalized(q: np.ndarray, qa: np.ndarray) -> np.ndarray:
    """The next Krylov block: the unit directions ``q`` of the residual block made orthogonal
    to the basis ``qa`` once more (the directions of a residual near round-off carry errors of
    ``eps lambda_1 / sigma`` along ``qa``, which would accumulate into a basis that is no longer
    orthonormal and Ritz values above ``lambda_1``); a direction that keeps less than half its
    length is round-off already in the basis and is dropped."""
    if not q.shape[1]:
        return q
    q = q - qa @ (qa.T @ q)
    uq, sq, _ = np.linalg.svd(q, full_matrices=False)
    return np.ascontiguousarray(uq[:, sq > 0.5])


def _block_krylov_svd(
    apply: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]],
    matmat: Callable[[np.ndarray], np.ndarray],
    gen: RandomSource,
    shape: tuple[int, int],
    rank: int,
    *,
    tol: float,
    block: int,
    max_iter: int,
    max_columns: int | None = None,
    max_basis: int,
    dtype: np.dtype,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, _KrylovStats]:
    """The adaptive route of :func:`truncated_svd`: randomized block Krylov (block Lanczos
    with full reorthogonalization) on ``M = L^T L``, Rayleigh-Ritz after every block, stopped
    on the residual of the wanted triplets (the algorithm is written out in
    :func:`truncated_svd`'s Notes).

    Stops at ``tol``, after ``max_iter`` iterations, or before an iteration that would take the
    columns multiplied (passes x width) beyond ``max_columns``.
    ``apply(z)`` returns ``(L^T L z, L z)`` (or ``(L^T L z, None)`` when ``L z`` is not worth
    keeping, sparse ``X``: the left vectors then cost one more pass at the end); ``matmat(v)``
    is ``L v``. The basis ``Q``, ``H = Q^T M Q`` and the Ritz vectors are float64 (``d``-side
    only); the products run in ``dtype``. Returns ``U, s, Vt`` before the common rank cut and
    sign fix, the passes made and :class:`_KrylovStats`.
    """
    n, d = shape
    eps = float(np.finfo(dtype).eps)
    b = int(min(block, d))
    max_basis = int(min(max(max_basis, rank + 2 * b), d))  # room for a thick restart
    # Ritz values below tiny * s_1 are numerically zero (dropped at the end, as on every route)
    # and left out of the residual; directions of a new block below drop * lambda_1 are
    # round-off of the products and are deflated (none left: the basis is invariant).
    tiny = max(n, d) * eps
    drop = 10.0 * np.sqrt(max(n, d)) * eps
    q_all = np.empty((d, max_basis))
    h = np.zeros((max_basis, max_basis))
    ys: list[np.ndarray] = []
    q_new = np.linalg.qr(gen.standard_normal((d, b)))[0]
    basis = passes = it = restarts = cols = 0
    lam1 = 0.0  # lambda_1 = s_1^2, or a lower bound of it until the first Rayleigh-Ritz step
    err = np.inf
    while True:
        lo, hi = basis, basis + q_new.shape[1]
        q_all[:, lo:hi] = q_new
        m_new, y_new = apply(np.ascontiguousarray(q_new, dtype=dtype))
        passes += 2
        cols += 2 * q_new.shape[1]
        if y_new is not None:
            ys.append(np.asarray(y_new))
        m_new = np.asarray(m_new, dtype=np.float64)
        lam1 = max(lam1, float(np.sqrt(np.max(np.einsum("ij,ij->j", m_new, m_new)))))
        qa = q_all[:, :hi]
        c = qa.T @ m_new  # the new columns of H = Q^T M Q
        h[:hi, lo:hi] = c
        h[lo:hi, :lo] = c[:lo].T
        h[lo:hi, lo:hi] = (c[lo:] + c[lo:].T) / 2
        basis = hi
        p = m_new - qa @ c
        p -= qa @ (qa.T @ p)  # classical Gram-Schmidt, twice: P = (I - Q Q^T) M Q_j
        up, sv_p, vpt = np.linalg.svd(p, full_matrices=False)
        keep = sv_p > drop * lam1
        q_next = _reorthogonalized(up[:, keep], qa)
        invariant = q_next.shape[1] == 0
        # the next iteration costs 2 |Q_{j+1}| columns (and a sparse X one final pass of rank)
        over = (
            max_columns is not None
            and basis >= rank  # never fewer than rank triplets because of the cap
            and cols + 2 * q_next.shape[1] + (0 if ys else rank) > max_columns
        )
        last = invariant or basis >= d or it >= max_iter or over
        n_live = None
        if basis >= rank or last:  # Rayleigh-Ritz (fewer than rank columns: not converged)
            n_ev = min(basis, rank + b)
            lam, wv = _top_eigh_desc(h[:basis, :basis], n_ev)
            lam1 = max(float(lam[0]), 0.0)
            s1 = np.sqrt(lam1)
            kk = min(rank, basis)
            # numerical rank: Ritz values of M at or below the round-off of its products
            # (drop * lambda_1, the deflation threshold) are zero to working precision; they
            # are neither measured nor returned (their 1 / s_i would swamp the residual)
            n_live = int(np.count_nonzero(lam[:kk] > max(drop * lam1, (tiny * s1) ** 2)))
            sig = np.sqrt(lam[:n_live])
            # block Lanczos relation M Q = Q H + P E_j^T: M v_i - lambda_i v_i = P w_i^(j)
            # (w_i^(j): the rows of w_i on the last block): L^T u_i - s_i v_i = P w_i^(j) / s_i
            res = sv_p[:, None] * (vpt @ wv[lo:hi, :n_live])
            err = float(np.linalg.norm(res / sig, 2)) / s1 if n_live else 0.0
            if (err <= tol and basis >= rank) or last:
                break
        q_new = q_next
        if basis + q_new.shape[1] > max_basis:  # thick restart on the leading Ritz vectors
            m_keep = min(n_ev, max_basis - q_new.shape[1])
            wk = wv[:, :m_keep]
            q_all[:, :m_keep] = q_all[:, :basis] @ wk
            h[:basis, :basis] = 0.0
            h[:m_keep, :m_keep] = np.diag(lam[:m_keep])
            if ys:
                ys = [_blocks_times(ys, wk.astype(dtype))]
            basis = m_keep
            restarts += 1
        it += 1
    if err <= tol:
        reason = "tol"
    elif invariant:
        reason = "invariant"
    elif basis >= d:
        reason = "full_basis"
    else:
        reason = "work_cap" if over else "max_iter"
    converged = reason in ("tol", "invariant", "full_basis")
    if not converged:
        logger.info(
            "adaptive truncated SVD stopped at its %s after %d iterations (basis %d) at relative "
            "residual %.2e > tol=%g", reason, it, basis, err, tol,
        )  # fmt: skip
    kk = min(rank, basis) if n_live is None else min(rank, basis, max(n_live, 1))
    numerical_rank = None if n_live is None or n_live >= min(rank, basis) else n_live
    wk = wv[:, :kk]
    v = q_all[:, :basis] @ wk
    if ys:
        lv = _blocks_times(ys, wk.astype(dtype))
    else:
        lv = matmat(np.ascontiguousarray(v, dtype=dtype))
        passes += 1
    u, s, wt = _thin_svd(np.asarray(lv), kk)
    vt = wt @ v.T
    stats = _KrylovStats(basis, it, restarts, err, converged, reason, numerical_rank)
    return u, s, vt, passes, stats
