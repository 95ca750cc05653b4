"""Linear-algebra kernels of :mod:`workbench.gcca`: randomized / exact truncated SVD of an
implicitly centred, row-weighted sparse or dense matrix, orthonormalization, sign fixing."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.utils import check_random_state as _sk_random_state

from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)

logger = logging.getLogger(__name__)

#: ``truncated_svd(method="auto")`` uses the exact scatter-matrix route up to this many columns.
GRAM_MAX_COLS = 2000

#: The ``method`` values of :func:`truncated_svd` (``svd_solver`` of :class:`MVLSA`).
SVD_METHODS = ("auto", "randomized", "gram", "dense")

#: Default ``tol`` of :func:`truncated_svd`'s adaptive randomized route: the relative residual
#: ``||L^T U - V S||_2 / s_1`` of the returned triplets (see its Notes for the choice).
SVD_TOL = 1e-3

#: ``truncated_svd(method="auto")`` takes the adaptive randomized route for a *dense* ``X``
#: with at most ``GRAM_MAX_COLS`` columns when ``rank * GRAM_RANK_RATIO <= d`` (see its Notes).
GRAM_RANK_RATIO = 20

#: At most this many Krylov iterations on the adaptive route when ``n_iter`` is None (a safety
#: cap; the residual test stops it long before on any spectrum seen here).
ADAPTIVE_MAX_ITER = 100


@functools.lru_cache(maxsize=1)
def _scipy_only_blas() -> Any:
    """threadpoolctl controller of the BLAS libraries that scipy.linalg loads and numpy does not
    (pip wheels bundle one OpenBLAS each), or None when they share one library."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        return None
    import scipy

    ctl = ThreadpoolController()
    libs_dir = os.path.join(os.path.dirname(os.path.dirname(scipy.__file__)), "scipy.libs")
    own = [lib.filepath for lib in ctl.lib_controllers
           if lib.user_api == "blas" and os.path.dirname(lib.filepath) == libs_dir]
    return ctl.select(filepath=own) if own else None


@contextlib.contextmanager
def _scipy_lapack_one_thread() -> Iterator[None]:
    """Run scipy.linalg's own BLAS on one thread inside the block (or the decorated call).

    With numpy and scipy each bundling an OpenBLAS, a threaded LAPACK call leaves scipy's
    worker threads spinning for a while after it returns, competing with numpy's BLAS or the
    sparse-product threads for the cores, which slows small factorizations and the product
    that follows. The factorizations on the short side (LU/QR of d x l blocks, eigh of d x d)
    gain little from threads.

    Acts in the main thread only (nesting is fine: each exit restores what it found). The limit
    is process-wide, and OpenBLAS 0.3.30 ignores a change made from another thread once the
    main thread has made one, so code that runs this in worker threads (:class:`MVLSA` with
    ``n_jobs > 1``) sets the limits for all its workers from the main thread instead.
    """
    sel = _scipy_only_blas()
    if sel is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    with sel.limit(limits=1):
        yield


def _fix_signs(mat: np.ndarray) -> np.ndarray:
    """Flip columns so that the largest-|.| entry of each column is positive (in place).

    Returns the signs (+-1 per column) that were applied.
    """
    signs = _largest_entry_signs(mat)
    if mat.size:
        mat *= signs.astype(mat.dtype)
    return signs


def _largest_entry_signs(mat: np.ndarray) -> np.ndarray:
    """Sign (+-1, float64) of the largest-|.| entry of each column; +1 on ties and zero columns.
    Two column reductions (no ``|mat|`` temporary, no strided argmax)."""
    if not mat.size:
        return np.ones(mat.shape[1])
    return np.where(mat.max(axis=0) >= -mat.min(axis=0), 1.0, -1.0)


def _top_eigh(sym: np.ndarray, k: int, eps: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Top-``k`` eigenpairs (descending) of a symmetric matrix, and the number of eigenvalues
    above ``p * eps * 10 * lambda_max`` (counted over all eigenvalues only when some of the
    top ``k`` fall below it)."""
    p = sym.shape[0]
    if k < p:
        lam, vec = sla.eigh(sym, subset_by_index=[p - k, p - 1], driver="evr")
    else:
        lam, vec = np.linalg.eigh(sym)
    lam, vec = lam[::-1], vec[:, ::-1]
    tol = max(float(lam[0]), 0.0) * p * eps * 10
    n_pos = k
    if lam[-1] <= tol:
        n_pos = int(np.sum(np.linalg.eigvalsh(sym) > tol))
    return lam, vec, n_pos


def _lowdin(y: np.ndarray) -> np.ndarray:
    """Closest orthonormal matrix ``y (y^T y)^{-1/2}`` (keeps column identity; full column rank).

    The Gram matrix is accumulated in float64 (chunked, no float64 copy of ``y``); the
    correction, close to the identity, is applied in ``y``'s precision, which is all the
    result is stored in."""
    return np.asarray(y @ _lowdin_factor(_gram64(y)).astype(y.dtype))


def _lowdin_factor(gram: np.ndarray) -> np.ndarray:
    """``(y^T y)^{-1/2}`` (float64) from the float64 Gram matrix ``y^T y``, the correction that
    :func:`_lowdin` applies (split out so that a row-blocked ``y`` can be corrected block by
    block from a summed Gram matrix, as the dask backend of :class:`MVLSA` does)."""
    lam, vec = np.linalg.eigh(gram)
    if lam.size and lam[0] <= 0:
        raise ValueError("numerically rank-deficient embedding; lower n_components")
    return np.asarray((vec / np.sqrt(lam)) @ vec.T)


# --------------------------------------------------------------------------------------------
# truncated SVD solver
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TruncatedSVD:
    r"""Result of :func:`truncated_svd`: ``diag(w) (X - 1 mean^T) ~= U diag(s) Vt``.

    Attributes
    ----------
    U : ndarray, shape (n, r)
        Left singular vectors (orthonormal columns), signs fixed (largest-|.| entry positive).
    s : ndarray, shape (r,)
        Singular values, descending, float64.
    Vt : ndarray, shape (r, d)
        Right singular vectors (rows).
    mean : ndarray, shape (d,) or None
        Column mean that was subtracted implicitly (``None`` if not centred).
    n_passes : int
        Passes over the data matrix (products with ``X`` or ``X^T``).
    method : str
        The route taken: ``"randomized"``, ``"gram"`` or ``"dense"``.
    basis_size : int
        Columns of the final search space: the Krylov basis (adaptive randomized route), the
        block width ``l`` (fixed oversampling), ``d`` (gram) or ``min(n, d)`` (dense).
    n_iter : int
        Krylov iterations (adaptive route: blocks after the first) or power iterations (fixed
        oversampling) made; 0 on the exact routes.
    error_estimate : float or None
        Adaptive route: the relative residual :math:`\eta = \|L^\top U - V S\|_2 / s_1` of the
        returned triplets, computed (not sampled) at the stop: they are exact singular
        triplets of a matrix within :math:`\eta \|L\|_2` of ``L`` (see
        :func:`truncated_svd`). None on the other routes.
    tol : float or None
        The target of the adaptive route (None on the other routes).
    converged : bool
        ``error_estimate <= tol`` (or the basis became invariant / spanned all ``d``
        columns); False only when ``n_iter`` capped the adaptive route first. True on the other
        routes.
    """

    U: np.ndarray
    s: np.ndarray
    Vt: np.ndarray
    mean: np.ndarray | None
    n_passes: int
    method: str
    basis_size: int = 0
    n_iter: int = 0
    error_estimate: float | None = None
    tol: float | None = None
    converged: bool = True


def truncated_svd(
    X: Any,
    rank: int,
    *,
    center: bool = True,
    row_weights: np.ndarray | None = None,
    method: str = "auto",
    n_oversamples: int | None = None,
    n_iter: int | None = None,
    random_state: Any = None,
    n_threads: int = 1,
    tol: float = SVD_TOL,
    block_size: int | None = None,
) -> TruncatedSVD:
    r"""Rank-``rank`` SVD of ``diag(w) (X - 1 \mu^T)`` without densifying a sparse ``X``.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix, shape (n, d)
        The (preprocessed, uncentred) data; float32 input is multiplied in float32.
    rank : int
        Number of singular triplets wanted (clamped to ``min(n, d)`` and to the numerical rank).
    center : bool
        Subtract the column mean ``\mu`` (computed over all ``n`` rows) implicitly.
    row_weights : ndarray, shape (n,), optional
        Non-negative row weights ``w`` applied after centring.
    method : {"auto", "randomized", "gram", "dense"}
        ``"dense"`` forms the centred matrix and calls LAPACK (exact; small inputs only);
        ``"gram"`` takes the eigendecomposition of the ``d x d`` centred scatter matrix,
        accumulated in the data's precision (exact up to squared singular values below
        ``~sqrt(n) eps s_max^2``, which are dropped; 2 passes; for few columns);
        ``"randomized"`` works on the implicit operator: by default (``n_oversamples=None``)
        the *adaptive* route, randomized block Krylov stopped when the residual of the wanted
        triplets is below ``tol`` (see Notes); with ``n_oversamples`` given, Halko, Martinsson
        & Tropp (2011) Alg. 4.4 with a fixed block (randomized subspace iteration, the
        Rayleigh-Ritz step on the right subspace). ``"auto"`` picks dense when
        ``n * d <= 4e6``; else gram when ``d <= GRAM_MAX_COLS`` (2,000) and ``X`` is sparse,
        ``n_oversamples`` is given or ``rank > d / GRAM_RANK_RATIO`` (``d / 20``); else
        randomized.
    n_oversamples : int or None
        None (default): the adaptive route. An integer ``p``: the fixed-oversampling route with
        a block of ``l = rank + p`` columns and ``n_iter`` power iterations, exactly as before
        the adaptive route existed (``p = max(rank, 20)`` was its default). Fixed blocks must be
        tuned to the spectrum: on one offset view of the 5M-token corpus (20K x 4,000, rank
        200, ``p = 200``) the median angle to the exact singular subspace is 3.4 / 1.1 / 0.35 /
        0.12 / 0.05 deg for ``q = 2 ... 6``; a block narrower than a planted signal converges
        slowly (see Notes).
    n_iter : int or None
        Fixed-oversampling route: power (subspace) iterations ``q``, ``2 q + 1`` passes over
        ``X`` (None: 5). Adaptive route: None (default) iterates until ``tol`` (safety cap:
        ``ADAPTIVE_MAX_ITER`` = 100 iterations); an integer ``q`` also caps its work at that of
        ``q`` power iterations with the former default block, ``(2 q + 1)(rank + max(rank,
        20))`` columns multiplied in all (passes x width), so that callers that set ``q`` for
        speed never pay more than they used to. A cap reached before ``tol`` leaves
        ``converged=False`` in the result.
    random_state : int, RandomState, Generator or None
        Source of the Gaussian test matrix (a ``numpy.random.Generator`` draws it faster than
        ``RandomState``).
    n_threads : int
        Threads for the products with a sparse ``X``: ``X B`` and ``X^T Q`` run in column panels
        of the dense operand, one panel per thread (scipy releases the GIL); see
        :class:`_SparseProducts`. Results do not depend on it.
    tol : float
        Adaptive route: stop when :math:`\eta = \|L^\top U - V S\|_2 / s_1 \le` ``tol``
        (``0 < tol < 1``; default ``SVD_TOL`` = 1e-3), i.e. when the returned triplets are exact
        singular triplets of a matrix within ``tol * ||L||_2`` of ``L`` (see Notes; the value
        reached is ``error_estimate`` of the result). Ignored on the other routes.
    block_size : int or None
        Adaptive route: columns ``b`` added to the Krylov basis per iteration (two passes of
        width ``b`` each). None: ``rank`` (within [16, 128]) for a dense ``X``,
        ``ceil(rank / 4)`` (at least 8) for a sparse one (or an operator ``X`` with a true
        ``is_sparse`` attribute).

    Returns
    -------
    TruncatedSVD

    Raises
    ------
    ValueError
        ``X`` not 2-D, empty or with NaN / inf entries; ``rank < 1``, ``n_iter < 0``,
        ``n_oversamples < 0``, ``n_threads < 1``, ``tol`` outside (0, 1), ``block_size < 1``,
        an unknown ``method``; ``row_weights`` of the wrong length, negative or non-finite.
    TypeError
        Complex or non-numeric ``X``; parameters of the wrong type (``rank=2.5``,
        ``center="yes"``, ``random_state="a"``).

    Notes
    -----
    The implicit operator is :math:`L B = w \odot (X B - 1 (\mu^T B))` and
    :math:`L^T Q = X^T (w \odot Q) - \mu (1^T (w \odot Q))`, so sparsity is kept (the rank-one
    mean correction costs ``O((n + d) l)`` per product). Singular values below
    ``max(n, d) * eps * s_max`` are treated as zero and dropped. Both randomized routes work on
    the short ``d``-side with :math:`M = L^\top L`, applied as :math:`L^\top (L Z)` (never
    formed; for a sparse ``X`` panel by panel, the centring as rank-two corrections on the
    ``d``-side, no ``n x l`` block inside the loop).

    **Adaptive route** (default): randomized block Krylov -- block Lanczos with full
    reorthogonalization (Musco & Musco 2015) -- with a Rayleigh-Ritz step after every block and
    a stopping rule on the residual of the ``k = rank`` wanted triplets:

    1. :math:`Q_0 = \mathrm{orth}(\Omega)`, :math:`\Omega \in \mathbb{R}^{d \times b}`
       Gaussian (drawn in float64).
    2. For :math:`j = 0, 1, \dots`: :math:`Y_j = L Q_j`, :math:`M Q_j = L^\top Y_j` (two
       passes of width ``b``); with :math:`Q = [Q_0, \dots, Q_j]`, the new columns
       :math:`Q^\top M Q_j` of :math:`H = Q^\top M Q`, and
       :math:`P_j = (I - Q Q^\top) M Q_j` (classical Gram-Schmidt, twice).
    3. Rayleigh-Ritz: :math:`H = W \Lambda W^\top` (descending),
       :math:`\tilde s_i = \lambda_i^{1/2}`, :math:`v_i = Q w_i`,
       :math:`u_i = L v_i / \tilde s_i`. The block Lanczos relation
       :math:`M Q = Q H + P_j E_j^\top` gives the residuals without another pass:
       :math:`L^\top u_i - \tilde s_i v_i = P_j w_i^{(j)} / \tilde s_i`, with
       :math:`w_i^{(j)}` the rows of :math:`w_i` on the last block. Stop when

       .. math:: \eta = \frac{\| [P_j w_1^{(j)} / \tilde s_1, \dots,
                 P_j w_k^{(j)} / \tilde s_k] \|_2}{\tilde s_1} \le \mathrm{tol}

       (and the basis holds at least ``k`` columns), or when :math:`P_j` is round-off (the
       basis is invariant), or the basis spans all ``d`` columns, or the next block would
       exceed the work cap that an integer ``n_iter`` sets.
    4. Otherwise :math:`Q_{j+1} = \mathrm{orth}(P_j)` (directions below
       :math:`10 \sqrt{\max(n, d)}\, \epsilon\, \lambda_1` deflated). A basis that would
       exceed ``rank + 6 b`` columns is thick-restarted (Wu & Simon 2000) on its leading
       ``rank + b`` Ritz vectors :math:`V`: :math:`Q \leftarrow [V, Q_{j+1}]`,
       :math:`H \leftarrow \mathrm{diag}(\Lambda)` plus the new block's columns (the relation
       of step 3 still holds, since :math:`M V = V \Lambda + P_j W^{(j)}`).
    5. Finally :math:`L V_k` (the kept :math:`Y_j` blocks times :math:`W_k` for a dense
       ``X``; one pass of width ``k`` for a sparse one) and its thin SVD, as on the fixed
       route, give ``U``, ``s`` and ``Vt``.

    What :math:`\eta` guarantees: with :math:`F = L^\top U_k - V_k \tilde S_k` (orthogonal to
    :math:`V_k`) and :math:`E = -U_k F^\top`, :math:`(L + E) V_k = U_k \tilde S_k` and
    :math:`(L + E)^\top U_k = V_k \tilde S_k`: the triplets are exact singular triplets of
    :math:`L + E`, :math:`\|E\|_2 = \|F\|_2 = \eta\, \tilde s_1 \le \mathrm{tol}\, \|L\|_2`
    (a backward error, computed, not sampled). Hence each :math:`\tilde s_i` is within
    :math:`\eta \tilde s_1` of a singular value of ``L``; the angle to the exact singular
    subspace obeys :math:`\sin \theta \le \eta \tilde s_1 / \delta` (Wedin), :math:`\delta`
    the gap between :math:`\tilde s_k` and :math:`s_{k+1}`; and, the triplets being the top
    ``k`` of :math:`L + E`, :math:`\|L - U_k \tilde S_k V_k^\top\|_2 \le s_{k+1} + 2 \eta
    \tilde s_1`. A tolerance on the whole range, :math:`\|(I - Q Q^\top) L\|` (Halko et al.
    Alg. 4.2, Martinsson & Voronin's ``randQB_b``), cannot fall below :math:`s_{l+1}`: on
    noisy data (:math:`s_{k+1} / s_1 \gg` ``tol``) it would grow the basis to ``min(n, d)``.

    The default ``tol = 1e-3`` is the loosest that MVLSA's shared space tolerates on word
    views: over three offset views of the 5M corpus (20K x 4,000, float32, m = k = 200) it
    ends a median 8.4 / 0.32 / 0.07 / 0.02 deg from the exact space (every view SVD exact)
    at ``tol`` = 1e-2 / 3e-3 / 1e-3 / 3e-4 (max 87 / 49 / 6.8 / 1.4 deg), against 0.88 deg
    (max 16.7) for the former default (``p = m``, ``q = 5``) in about the same time
    (32 passes of 50 columns per view against 11 of 400). On the planted dense problem of
    ``bench/bench_gcca.py`` (15 views 20,000 x 1,000, k = m = 50, signal rank 100-206) it ends
    0.006 deg or less from exact (1e-2: up to 0.14 deg), where the block tuned to rank 100
    (``p = 78``, ``q = 1``) ended 0.10 deg away at rank 100 but 5-7 deg at ranks 165-206.

    Block width: dense products go through BLAS ``gemm``, whose cost per column falls with
    the width (4.5 / 3.3 / 2.5 ms per column at 25 / 50 / 128 columns on a 50,000 x 1,000
    float32 view, one thread), more than wide blocks add columns, hence ``b = rank``; sparse
    products cost the same per column at any width, hence narrow blocks (on the word view
    above, rank 200: 0.85 s at ``b = 50``, 1.1-1.3 s at 100, 1.9 s at 200). For a dense ``X``
    with at most 2,000 columns, ``"auto"`` weighs the ``n d^2 / 2`` of the scatter matrix
    against the ``2 n d |Q|`` of the Krylov products, where the final basis ``|Q|`` is about
    4-7 ``rank`` on the spectra above: the break-even is near ``rank = d / 20``.

    **Fixed-oversampling route** (``n_oversamples`` given): iterates on the short ``d x l``
    side, :math:`Z \leftarrow \mathrm{lu}(L^T L Z)` (the block is normalized by pivoted LU,
    which keeps its span and full column rank; the tall ``n x l`` block would cost ``n l^2``
    per step, more than a sparse pass when ``nnz / n < l``), then takes the Rayleigh-Ritz
    approximation :math:`L \approx (L Q) Q^T` on :math:`Q = Z R^{-1}`, :math:`Z^T Z = R^T R`
    (Cholesky of the small Gram matrix, in float64, in place of a Householder QR of ``Z``):
    the thin SVD :math:`L Q = (L Z) R^{-1} = U S W^T` gives :math:`V = Z R^{-1} W` with one
    more pass, ``2 q + 1`` in all.

    Called from the main thread, the whole call runs with scipy's BLAS on one thread (its
    LAPACK work is the short-side LU/QR of ``d x l`` blocks and the scatter route's
    eigensolver), so that when numpy and scipy each bundle an OpenBLAS (pip wheels) scipy's
    idle workers do not spin against numpy's products; numpy's BLAS keeps its threads. From
    other threads the caller's limits apply (see :func:`_scipy_lapack_one_thread`).

    References
    ----------
    N. Halko, P.-G. Martinsson, J. A. Tropp (2011). Finding structure with randomness:
    probabilistic algorithms for constructing approximate matrix decompositions. SIAM Review
    53(2), 217-288.
    C. Musco, C. Musco (2015). Randomized block Krylov methods for stronger and faster
    approximate singular value decomposition. NeurIPS 28.
    P.-G. Martinsson, S. Voronin (2016). A randomized blocked algorithm for efficiently
    computing rank-revealing factorizations of matrices. SIAM J. Sci. Comput. 38(5).
    K. Wu, H. Simon (2000). Thick-restart Lanczos method for large symmetric eigenvalue
    problems. SIAM J. Matrix Anal. Appl. 22(2), 602-616.
    """
    method = check_choice(method, "method", SVD_METHODS)
    rank = check_int(rank, "rank", low=1)
    center = check_bool(center, "center")
    n_oversamples = check_int(n_oversamples, "n_oversamples", low=0, allow_none=True)
    n_iter = check_int(n_iter, "n_iter", low=0, allow_none=True)
    random_state = check_random_state(random_state)
    n_threads = check_int(n_threads, "n_threads", low=1)
    tol = check_float(tol, "tol", low=0, high=1, low_open=True, high_open=True)
    block_size = check_int(block_size, "block_size", low=1, allow_none=True)
    checked = check_array(X, "X", ndim=2, accept_sparse=True, min_rows=1, min_cols=1, dtype=None)
    if not sp.issparse(X):
        X = checked
    if row_weights is not None:
        w = check_array(row_weights, "row_weights", ndim=1)
        if w.shape != (X.shape[0],):
            raise ValueError(f"row_weights has shape {w.shape}, expected ({X.shape[0]},)")
        if (w < 0).any():
            raise ValueError(f"row_weights must be >= 0; got {int((w < 0).sum())} negative weights")
    return _truncated_svd(
        X,
        rank,
        center=center,
        row_weights=row_weights,
        method=method,
        n_oversamples=n_oversamples,
        n_iter=n_iter,
        random_state=random_state,
        n_threads=n_threads,
        tol=tol,
        block_size=block_size,
    )


@_scipy_lapack_one_thread()
def _truncated_svd(
    X: Any,
    rank: int,
    *,
    center: bool = True,
    row_weights: np.ndarray | None = None,
    method: str = "auto",
    n_oversamples: int | None = None,
    n_iter: int | None = None,
    random_state: Any = None,
    n_threads: int = 1,
    tol: float = SVD_TOL,
    block_size: int | None = None,
) -> TruncatedSVD:
    """:func:`truncated_svd` on validated input (MVLSA checks its views and parameters once)."""
    n, d = X.shape
    dtype = np.dtype(np.float32) if X.dtype == np.float32 else np.dtype(np.float64)
    rank = int(min(rank, n, d))
    w: np.ndarray | None = None if row_weights is None else np.asarray(row_weights, dtype=dtype)
    if w is not None and w.shape != (n,):
        raise ValueError(f"row_weights has shape {w.shape}, expected ({n},)")
    mean = np.asarray(X.mean(axis=0)).ravel().astype(dtype) if center else None
    eps = float(np.finfo(dtype).eps)
    if method == "auto":
        if n * d <= 4_000_000:
            method = "dense"
        elif d <= GRAM_MAX_COLS and (
            n_oversamples is not None or sp.issparse(X) or rank * GRAM_RANK_RATIO > d
        ):
            method = "gram"
        else:
            method = "randomized"

    krylov: _KrylovStats | None = None
    ops = _SparseProducts(X, int(n_threads)) if sp.issparse(X) else None
    xs = ops.x if ops is not None else X
    xt = xs.T

    def l_block(b: np.ndarray) -> np.ndarray:  # L b
        y = np.asarray(xs @ b)
        if mean is not None:
            y -= mean @ b
        if w is not None:
            y *= w[:, None]
        return y

    def lt_block(q: np.ndarray) -> np.ndarray:  # L^T q
        if w is not None:
            q = q * w[:, None]
        z = np.asarray(xt @ q)
        if mean is not None:
            z -= np.outer(mean, q.sum(axis=0))
        return z

    def matmat(b: np.ndarray) -> np.ndarray:
        return ops.map(l_block, b, n) if ops is not None else l_block(b)

    # With w2 = w * w, s_w = X^T w2 and S = 1^T w2, centring a sparse X costs only rank-two
    # corrections on d-sized results: the scatter route's d x d matrix and, in the power loop,
    # L^T L z = X^T (w2 * (X z)) - s_w (mu^T z) - mu (s_w^T z) + S mu (mu^T z), computed panel
    # by panel without any n x l block.
    w2 = None if w is None else w * w
    if ops is not None and mean is not None:
        s_w = np.asarray(xt @ (np.ones(n, dtype=dtype) if w2 is None else w2)).ravel()
        s_tot = float(n if w2 is None else w2.sum(dtype=np.float64))

    def normal_panel(zp: np.ndarray) -> np.ndarray:
        y = np.asarray(xs @ zp)
        if w2 is not None:
            y *= w2[:, None]
        return np.asarray(xt @ y)

    def normal_matmat(z: np.ndarray) -> np.ndarray:  # L^T L z
        if ops is None:
            return lt_block(l_block(z))
        out = ops.map(normal_panel, z, d)
        if mean is not None:  # both rank-one terms in one (d x 2) (2 x l) product
            mz, sz = mean @ z, s_w @ z
            cols = np.stack([s_w, mean], axis=1)
            out -= cols @ np.stack([mz, sz - np.asarray(s_tot, dtype=dtype) * mz])
        return out

    if method == "dense":
        xd = X.toarray() if sp.issparse(X) else np.array(X, dtype=np.float64)
        xd = xd.astype(np.float64, copy=False)
        if mean is not None:
            xd = xd - mean.astype(np.float64)
        if w is not None:
            xd *= w.astype(np.float64)[:, None]
        u, s, vt = np.linalg.svd(xd, full_matrices=False)
        passes = 1
        basis_size, iters = min(n, d), 0
    elif method == "gram":
        # Exact for few columns: eigh of the d x d centred scatter (one pass), then U = L V / s.
        # The scatter is accumulated in the data's precision (float32 halves the syrk).
        xw: Any = None
        if sp.issparse(X):
            xg = X if w is None else sp.diags_array(w) @ X
            g = np.asarray((xg.T @ xg).toarray(), dtype=np.float64)
            del xg
            if mean is not None:
                mu, sw = mean.astype(np.float64), s_w.astype(np.float64)
                g = g - np.outer(mu, sw) - np.outer(sw, mu) + s_tot * np.outer(mu, mu)
        else:  # dense: centre explicitly (no cancellation in g), then one syrk
            xw = np.asarray(X, dtype=dtype)
            if mean is not None:
                xw = xw - mean
            if w is not None:
                xw = xw * w[:, None] if mean is None else np.multiply(xw, w[:, None], out=xw)
            g = np.asarray(xw.T @ xw, dtype=np.float64)
        g = (g + g.T) / 2
        if rank < d:
            lam, vec = sla.eigh(g, subset_by_index=[d - rank, d - 1], driver="evx")
        else:
            lam, vec = np.linalg.eigh(g)
        del g
        lam, vec = np.maximum(lam[::-1], 0.0), vec[:, ::-1]
        # eigenvalues of a scatter accumulated with rounding eps are resolved down to about
        # sqrt(max(n, d)) * eps * lambda_max
        ok = lam > (lam[0] if lam.size else 0.0) * np.sqrt(max(n, d)) * eps * 10
        s, vec = np.sqrt(lam[ok]), np.ascontiguousarray(vec[:, ok])
        proj = xw @ vec.astype(dtype) if xw is not None else matmat(vec.astype(dtype))
        u = np.asarray(proj, dtype=np.float64) / s
        del xw
        vt = vec.T
        passes = 2
        basis_size, iters = d, 0
    elif n_oversamples is not None:  # fixed oversampling: the route as it always was
        ell = int(min(rank + int(n_oversamples), n, d))
        q_fixed = 5 if n_iter is None else int(n_iter)
        u, s, vt, passes = _fixed_oversampling_svd(
            matmat, normal_matmat, _generator(random_state), d, rank, ell, q_fixed, dtype
        )
        basis_size, iters = ell, q_fixed
    else:  # adaptive: randomized block Krylov stopped on the residual (see the Notes)
        # an operator standing for a sparse matrix (the dask backend's row-block view) says so
        # with ``is_sparse``, to get the local fit's block and so its answer
        sparse_like = ops is not None or bool(getattr(X, "is_sparse", False))
        b = _default_block_size(rank, sparse_like) if block_size is None else int(block_size)

        def apply(z: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
            if sparse_like:  # sparse: fused panels, no n x b block kept (one more pass)
                return normal_matmat(z), None
            y = l_block(z)
            return lt_block(y), y

        u, s, vt, passes, stats = _block_krylov_svd(
            apply,
            matmat,
            _generator(random_state),
            (n, d),
            rank,
            tol=float(tol),
            block=b,
            max_iter=ADAPTIVE_MAX_ITER,
            max_columns=None if n_iter is None else _fixed_route_columns(rank, n, d, int(n_iter)),
            max_basis=_default_max_basis(rank, b),
            dtype=dtype,
        )
        basis_size, iters = stats.basis_size, stats.n_iter
        krylov = stats
    s = np.asarray(s, dtype=np.float64)
    # s is descending, so the kept triplets are a prefix (slices, no copies)
    r = min(int(np.count_nonzero(s > (s[0] if s.size else 0.0) * max(n, d) * eps)), rank)
    u = np.asarray(u[:, :r], dtype=dtype)
    s, vt = s[:r], np.asarray(vt[:r], dtype=dtype)
    # sign fix on U, carried to Vt
    if r:
        signs = _largest_entry_signs(u).astype(dtype)
        u = u * signs
        vt = vt * signs[:, None]
    return TruncatedSVD(
        U=u,
        s=s,
        Vt=vt,
        mean=mean,
        n_passes=passes,
        method=method,
        basis_size=int(basis_size),
        n_iter=int(iters),
        error_estimate=None if krylov is None else krylov.error,
        tol=None if krylov is None else float(tol),
        converged=True if krylov is None else krylov.converged,
    )


def _generator(random_state: Any) -> Any:
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
    gen: Any,
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
    # the small float64 Gram; z = P L from LU has full column rank, cond 3e3-5e3 on word
    # views), Q = z R^{-1} is an orthonormal basis, L Q = (L z) R^{-1} = U S W^T and
    # V = z R^{-1} W (one pass). Householder QR if the Cholesky factor fails or cond > 1e6.
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
    relative residual ``eta`` of the returned triplets and whether ``eta <= tol``."""

    basis_size: int
    n_iter: int
    n_restarts: int
    error: float
    converged: bool


def _default_block_size(rank: int, sparse: bool) -> int:
    """Block width ``b`` of the adaptive route when ``block_size`` is None: ``rank`` (within
    [16, 128]) for a dense ``X``, ``ceil(rank / 4)`` (at least 8) for a sparse one (see
    :func:`truncated_svd`)."""
    return max(-(-rank // 4), 8) if sparse else min(max(rank, 16), 128)


def _fixed_route_columns(rank: int, n: int, d: int, n_iter: int) -> int:
    """Columns multiplied in all (passes x block width) by ``n_iter`` power iterations of the
    fixed route with its former default block ``l = rank + max(rank, 20)``: the work cap of
    the adaptive route when ``n_iter`` is given."""
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


def _block_krylov_svd(
    apply: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]],
    matmat: Callable[[np.ndarray], np.ndarray],
    gen: Any,
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
        invariant = not keep.any()
        # the next iteration costs 2 |Q_{j+1}| columns (and a sparse X one final pass of rank)
        over = (
            max_columns is not None
            and basis >= rank  # never fewer than rank triplets because of the cap
            and cols + 2 * int(keep.sum()) + (0 if ys else rank) > max_columns
        )
        last = invariant or basis >= d or it >= max_iter or over
        if basis >= rank or last:  # Rayleigh-Ritz (fewer than rank columns: not converged)
            n_ev = min(basis, rank + b)
            lam, wv = _top_eigh_desc(h[:basis, :basis], n_ev)
            lam1 = max(float(lam[0]), 0.0)
            s1 = np.sqrt(lam1)
            kk = min(rank, basis)
            sig = np.sqrt(np.maximum(lam[:kk], 0.0))
            live = sig > tiny * s1
            # block Lanczos relation M Q = Q H + P E_j^T: M v_i - lambda_i v_i = P w_i^(j)
            # (w_i^(j): the rows of w_i on the last block): L^T u_i - s_i v_i = P w_i^(j) / s_i
            res = sv_p[:, None] * (vpt @ wv[lo:hi, :kk][:, live])
            err = float(np.linalg.norm(res / sig[live], 2)) / s1 if live.any() else 0.0
            if (err <= tol and basis >= rank) or last:
                break
        q_new = up[:, keep]
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
    converged = err <= tol or invariant or basis >= d
    if not converged:
        logger.info(
            "adaptive truncated SVD stopped after %d iterations (basis %d) at relative residual "
            "%.2e > tol=%g", it, basis, err, tol,
        )
    kk = min(rank, basis)
    wk = wv[:, :kk]
    v = q_all[:, :basis] @ wk
    if ys:
        lv = _blocks_times(ys, wk.astype(dtype))
    else:
        lv = matmat(np.ascontiguousarray(v, dtype=dtype))
        passes += 1
    u, s, wt = _thin_svd(np.asarray(lv), kk)
    vt = wt @ v.T
    return u, s, vt, passes, _KrylovStats(basis, it, restarts, err, converged)


def _gram64(y: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """``y^T y`` accumulated in float64, converting ``chunk`` rows at a time (no float64 copy
    of a float32 ``y``)."""
    if y.dtype == np.float64:
        return np.asarray(y.T @ y)
    n, width = y.shape
    g = np.zeros((width, width))
    buf = np.empty((min(chunk, n), width))
    for a in range(0, n, chunk):
        c = buf[: min(chunk, n - a)]
        c[...] = y[a : a + chunk]
        g += c.T @ c
    return g


def _cholesky_inverse_factor(z: np.ndarray) -> np.ndarray | None:
    """``R^{-1}`` (float64, upper triangular) with ``z^T z = R^T R``, so that ``z R^{-1}`` has
    orthonormal columns (to about ``cond(z)^2 eps64``); None if ``z^T z`` is not numerically
    positive definite or ``||R||_F ||R^{-1}||_F`` (an upper bound of ``cond(z)``) exceeds
    1e6. (LU-normalized blocks of word views have ``cond(z)`` of 3e3 to 5e3.)"""
    try:
        lower = np.linalg.cholesky(_gram64(z))
    except np.linalg.LinAlgError:
        return None
    r_inv = sla.solve_triangular(lower.T, np.eye(lower.shape[0]), lower=False, check_finite=False)
    if not np.linalg.norm(lower) * np.linalg.norm(r_inv) <= 1e6:  # also catches inf / NaN
        return None
    return r_inv


def _thin_svd(
    y: np.ndarray, rank: int, r_inv: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-``rank`` SVD ``y ~= U diag(s) Wt`` of a tall ``n x l`` block via eigh of its float64
    Gram matrix (one ``n l^2`` product instead of Householder QR's several); directions with
    ``s < sqrt(l * eps) * s_max`` (not resolved through the Gram matrix) are dropped. ``U`` is
    formed in ``y``'s dtype.

    With ``r_inv`` (``l x l``) it is the SVD of ``y r_inv`` (whose Gram matrix is
    ``r_inv^T (y^T y) r_inv``), and ``Wt`` is returned as ``(r_inv W)^T``, so that
    ``y @ Wt.T / s`` is ``U`` either way."""
    gram = _gram64(y)
    if r_inv is not None:
        gram = r_inv.T @ gram @ r_inv
        gram = (gram + gram.T) / 2
    lam, vec = np.linalg.eigh(gram)
    lam, vec = lam[::-1], vec[:, ::-1]
    top = float(lam[0]) if lam.size else 0.0
    ok = lam > max(top, 0.0) * y.shape[1] * np.finfo(np.float64).eps * 10
    ok[rank:] = False
    if top <= 0 or not ok.any():
        return np.zeros((y.shape[0], 0), dtype=y.dtype), np.zeros(0), np.zeros((0, y.shape[1]))
    s = np.sqrt(lam[ok])
    vec = vec[:, ok]
    if r_inv is not None:
        vec = r_inv @ vec
    return y @ (vec / s).astype(y.dtype), s, vec.T


class _SparseProducts:
    """``X @ B`` and ``X.T @ Q`` for a sparse ``X``, in column panels of ``B`` / ``Q``.

    scipy's sparse x dense kernels are bound by memory traffic to the dense operand: every
    nonzero reads one row of it. Splitting that operand into panels of at most ``PANEL``
    columns keeps the rows being read in cache (1.4x on one thread for a 100K x 12,500 word
    view with 600 columns), and the panels are independent, so ``n_threads`` threads (scipy
    releases the GIL) scale both products (2.6x on 2 cores, where splitting *rows* of ``X``
    gained nothing).
    """

    PANEL = 100

    def __init__(self, x: Any, n_threads: int = 1) -> None:
        self.x = sp.csr_array(x)
        self.xt = self.x.T  # CSC view, no copy
        self.n_threads = max(int(n_threads), 1)

    def _panels(self, width: int) -> list[tuple[int, int]]:
        n_pan = -(-width // self.PANEL)
        if self.n_threads > 1:  # a multiple of the threads (balanced), panels of >= 16 columns
            n_pan = max(min(-(-n_pan // self.n_threads) * self.n_threads, width // 16), n_pan, 1)
        bounds = np.linspace(0, width, n_pan + 1).round().astype(int)
        return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]

    def map(self, fn: Any, b: np.ndarray, n_out: int) -> np.ndarray:
        """``out[:, panel] = fn(b[:, panel])`` for each column panel of ``b`` (in threads);
        ``fn`` maps a contiguous ``(rows, w)`` block to an ``(n_out, w)`` one."""
        b = np.asarray(b)
        panels = self._panels(b.shape[1])
        if len(panels) == 1:
            return np.asarray(fn(b))
        out = np.empty((n_out, b.shape[1]), dtype=np.result_type(self.x.dtype, b.dtype))

        def one(pan: tuple[int, int]) -> None:
            out[:, pan[0] : pan[1]] = fn(np.ascontiguousarray(b[:, pan[0] : pan[1]]))

        if self.n_threads == 1:
            for pan in panels:
                one(pan)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(min(self.n_threads, len(panels))) as ex:
                list(ex.map(one, panels))
        return out

    def matmat(self, b: np.ndarray) -> np.ndarray:
        return self.map(lambda p: self.x @ p, b, self.x.shape[0])

    def rmatmat(self, q: np.ndarray) -> np.ndarray:
        return self.map(lambda p: self.xt @ p, q, self.x.shape[1])
