"""Dense and sparse kernels of :mod:`workbench.gcca`: BLAS thread control, sign fixing, top
eigenpairs, float64 Gram matrices, Löwdin orthonormalization, thin SVDs through the Gram matrix
and panel-wise sparse products.

They know nothing of the SVD routes (:mod:`workbench.gcca._svd`) or the estimators; the local
and the dask fits of :class:`~workbench.gcca.MVLSA` and the studies share them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController

from workbench._typing import Matrix


@functools.lru_cache(maxsize=1)
def _scipy_only_blas() -> ThreadpoolController | None:
    """threadpoolctl controller of the BLAS libraries that scipy.linalg loads and numpy does not
    (pip wheels bundle one OpenBLAS each), or None when they share one library."""
    ctl = ThreadpoolController()
    libs_dir = os.path.join(os.path.dirname(os.path.dirname(scipy.__file__)), "scipy.libs")
    own = [
        lib.filepath
        for lib in ctl.lib_controllers
        if lib.user_api == "blas" and os.path.dirname(lib.filepath) == libs_dir
    ]
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
    is process-wide, and OpenBLAS 0.3.30 ignores a change made from another thread once the main
    thread has made one, so code that runs this in worker threads (:class:`MVLSA` with
    ``n_jobs > 1``) sets the limits for all its workers from the main thread instead.
    """
    sel = _scipy_only_blas()
    if sel is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    with sel.limit(limits=1):
        yield


def fix_signs(mat: np.ndarray) -> np.ndarray:
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


def _top_eigh(
    sym: np.ndarray,
    k: int,
    eps: float,
    *,
    scratch: Callable[[], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Top-``k`` eigenpairs (descending) of a symmetric matrix, and the number of eigenvalues
    above ``p * eps * 10 * lambda_max`` (counted over all eigenvalues only when some of the
    top ``k`` fall below it).

    With ``scratch`` (a function that builds ``sym`` again), ``sym`` is a temporary that LAPACK
    may overwrite (no copy of a large matrix when it is Fortran-ordered); ``scratch`` rebuilds
    it if the count is needed.
    """
    p = sym.shape[0]
    if k < p:
        # (LAPACK takes a Fortran-ordered temporary without a copy)
        lam, vec = sla.eigh(sym, subset_by_index=[p - k, p - 1], driver="evr",
                            overwrite_a=scratch is not None)  # fmt: skip
    else:
        lam, vec = np.linalg.eigh(sym)
    lam, vec = lam[::-1], vec[:, ::-1]
    tol = max(float(lam[0]), 0.0) * p * eps * 10
    n_pos = k
    if lam[-1] <= tol:
        whole = sym if scratch is None or k >= p else scratch()
        n_pos = int(np.sum(np.linalg.eigvalsh(whole) > tol))
    return lam, vec, n_pos


def _signed_embedding(
    h: np.ndarray, v: np.ndarray, lam: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``H`` from ``M~ V Lambda^{-1/2}`` (``h``; ``v``, ``lam``: top eigenpairs of the Gram
    matrix of ``M~``), Löwdin-corrected and sign-fixed, and :math:`\\tilde M^\\top H`."""
    h = _lowdin(h)
    signs = fix_signs(h)
    return h, v * np.sqrt(lam) * signs


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


def _cholesky_inverse_factor(z: np.ndarray) -> np.ndarray | None:
    """``R^{-1}`` (float64, upper triangular) with ``z^T z = R^T R``, so that ``z R^{-1}`` has
    orthonormal columns (to about ``cond(z)^2 eps64``); None if ``z^T z`` is not numerically
    positive definite or ``||R||_F ||R^{-1}||_F`` (an upper bound of ``cond(z)``) exceeds
    1e6."""
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
    columns keeps the rows being read in cache, and the panels are independent, so
    ``n_threads`` threads (scipy releases the GIL) share both products (splitting the *rows*
    of ``X`` instead does not speed them up).
    """

    PANEL = 100

    def __init__(self, x: Matrix, n_threads: int = 1) -> None:
        self.x = sp.csr_array(x)
        self.xt = self.x.T  # CSC view, no copy
        self.n_threads = max(int(n_threads), 1)

    def _panels(self, width: int) -> list[tuple[int, int]]:
        n_pan = -(-width // self.PANEL)
        if self.n_threads > 1:  # a multiple of the threads (balanced), panels of >= 16 columns
            n_pan = max(min(-(-n_pan // self.n_threads) * self.n_threads, width // 16), n_pan, 1)
        bounds = np.linspace(0, width, n_pan + 1).round().astype(int)
        return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]

    def map(self, fn: Callable[[np.ndarray], np.ndarray], b: np.ndarray, n_out: int) -> np.ndarray:
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
            with ThreadPoolExecutor(min(self.n_threads, len(panels))) as ex:
                list(ex.map(one, panels))
        return out

    def matmat(self, b: np.ndarray) -> np.ndarray:
        return self.map(lambda p: self.x @ p, b, self.x.shape[0])

    def rmatmat(self, q: np.ndarray) -> np.ndarray:
        return self.map(lambda p: self.xt @ p, q, self.x.shape[1])
