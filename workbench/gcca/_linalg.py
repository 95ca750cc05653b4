"""Linear-algebra kernels of :mod:`workbench.gcca`: randomized / exact truncated SVD of an
implicitly centred, row-weighted sparse or dense matrix, orthonormalization, sign fixing."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
from collections.abc import Iterator
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
    check_int,
    check_random_state,
)

logger = logging.getLogger(__name__)

#: ``truncated_svd(method="auto")`` uses the exact scatter-matrix route up to this many columns.
GRAM_MAX_COLS = 2000

#: The ``method`` values of :func:`truncated_svd` (``svd_solver`` of :class:`MVLSA`).
SVD_METHODS = ("auto", "randomized", "gram", "dense")


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
    worker threads spinning (~0.1 s) while numpy's BLAS or the sparse-product threads want
    the cores: on 2 cores a 1,000 x 128 QR took 50 ms instead of 8 ms and slowed the next
    product by 50 ms. The factorizations on the short side (LU/QR of d x l blocks, eigh of
    d x d) gain little from threads (LU of 12,500 x 600: 0.107 s on 1 or 2 threads).

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
    lam, vec = np.linalg.eigh(_gram64(y))
    if lam.size and lam[0] <= 0:
        raise ValueError("numerically rank-deficient embedding; lower n_components")
    return np.asarray(y @ ((vec / np.sqrt(lam)) @ vec.T).astype(y.dtype))


# --------------------------------------------------------------------------------------------
# truncated SVD solver
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TruncatedSVD:
    """Result of :func:`truncated_svd`: ``diag(w) (X - 1 mean^T) ~= U diag(s) Vt``.

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
        ``"randomized"`` or ``"dense"``.
    """

    U: np.ndarray
    s: np.ndarray
    Vt: np.ndarray
    mean: np.ndarray | None
    n_passes: int
    method: str


def truncated_svd(
    X: Any,
    rank: int,
    *,
    center: bool = True,
    row_weights: np.ndarray | None = None,
    method: str = "auto",
    n_oversamples: int | None = None,
    n_iter: int = 5,
    random_state: Any = None,
    n_threads: int = 1,
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
        ``~sqrt(n) eps s_max^2``, which are dropped; 2 passes; for few columns); ``"randomized"`` is Halko, Martinsson & Tropp (2011) Alg. 4.4 (randomized
        subspace iteration, with the Rayleigh-Ritz step on the right subspace) on the implicit
        operator; ``"auto"`` picks dense when
        ``n * d <= 4e6``, else gram when ``d <= GRAM_MAX_COLS`` (2,000), else randomized.
    n_oversamples : int or None
        Oversampling ``p`` (block width ``l = rank + p``); None means ``p = max(rank, 20)``. Word
        co-occurrence views have flat spectral tails, where small blocks converge slowly. On one
        offset view of the 5M-token corpus (20K x 4,000, rank 200, ``p = 200``) the median
        angle to the exact singular subspace is 3.4 / 1.1 / 0.35 / 0.12 / 0.05 deg for
        ``q = 2 ... 6``; MVLSA over 10 such views ends a median 6.9 / 3.7 / 2.0 / 1.1 deg from
        the exact shared space for ``q = 3 ... 6``.
    n_iter : int
        Power (subspace) iterations ``q``: ``2 q + 1`` passes over ``X``.
    random_state : int, RandomState, Generator or None
        Source of the Gaussian test matrix (a ``numpy.random.Generator`` draws it ~3x faster
        than ``RandomState``).
    n_threads : int
        Threads for the products with a sparse ``X``: ``X B`` and ``X^T Q`` run in column panels
        of the dense operand, one panel per thread (scipy releases the GIL); see
        :class:`_SparseProducts`. Results do not depend on it.

    Returns
    -------
    TruncatedSVD

    Raises
    ------
    ValueError
        ``X`` not 2-D, empty or with NaN / inf entries; ``rank < 1``, ``n_iter < 0``,
        ``n_oversamples < 0``, ``n_threads < 1``, an unknown ``method``; ``row_weights`` of the
        wrong length, negative or non-finite.
    TypeError
        Complex or non-numeric ``X``; parameters of the wrong type (``rank=2.5``,
        ``center="yes"``, ``random_state="a"``).

    Notes
    -----
    The implicit operator is :math:`L B = w \odot (X B - 1 (\mu^T B))` and
    :math:`L^T Q = X^T (w \odot Q) - \mu (1^T (w \odot Q))`, so sparsity is kept (the rank-one
    mean correction costs ``O((n + d) l)`` per product). Singular values below
    ``max(n, d) * eps * s_max`` are treated as zero and dropped. The randomized solver iterates
    on the short ``d x l`` side, :math:`Z \leftarrow \mathrm{lu}(L^T L Z)` (the block is
    normalized by pivoted LU, which keeps its span and full column rank; the tall ``n x l``
    block would cost ``n l^2`` per step, more than a sparse pass when ``nnz / n < l``), then
    takes the Rayleigh-Ritz approximation :math:`L \approx (L Q) Q^T` on
    :math:`Q = Z R^{-1}`, :math:`Z^T Z = R^T R` (Cholesky of the small Gram matrix, in
    float64, in place of a Householder QR of ``Z``): the thin SVD
    :math:`L Q = (L Z) R^{-1} = U S W^T` gives :math:`V = Z R^{-1} W` with one more pass,
    ``2 q + 1`` in all.
    Called from the main thread, the whole call runs with scipy's BLAS on one thread (its
    LAPACK work is the short-side LU/QR of ``d x l`` blocks and the scatter route's
    eigensolver), so that when numpy and scipy each bundle an OpenBLAS (pip wheels) scipy's
    idle workers do not spin against numpy's products; numpy's BLAS keeps its threads. From
    other threads the caller's limits apply (see :func:`_scipy_lapack_one_thread`).

    References
    ----------
    N. Halko, P.-G. Martinsson, J. A. Tropp (2011). Finding structure with randomness.
    SIAM Review 53(2).
    """
    method = check_choice(method, "method", SVD_METHODS)
    rank = check_int(rank, "rank", low=1)
    center = check_bool(center, "center")
    n_oversamples = check_int(n_oversamples, "n_oversamples", low=0, allow_none=True)
    n_iter = check_int(n_iter, "n_iter", low=0)
    random_state = check_random_state(random_state)
    n_threads = check_int(n_threads, "n_threads", low=1)
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
    n_iter: int = 5,
    random_state: Any = None,
    n_threads: int = 1,
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
        elif d <= GRAM_MAX_COLS:
            method = "gram"
        else:
            method = "randomized"

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
    else:
        p_over = max(rank, 20) if n_oversamples is None else int(n_oversamples)
        ell = int(min(rank + p_over, n, d))
        # drawn in float64 whatever the data's precision, so float32 and float64 data see the
        # same test matrix for the same seed
        gen = random_state
        if isinstance(gen, np.random.SeedSequence):
            gen = np.random.default_rng(gen)
        elif not isinstance(gen, np.random.Generator):
            gen = _sk_random_state(gen)
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
    return TruncatedSVD(U=u, s=s, Vt=vt, mean=mean, n_passes=passes, method=method)


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
