"""The truncated SVD of :mod:`workbench.gcca`: :func:`truncated_svd` of an implicitly centred,
row-weighted sparse or dense matrix, its result :class:`TruncatedSVD`, the implicit operator and
the exact routes (dense LAPACK, eigendecomposition of the scatter matrix). The randomized routes
are in :mod:`workbench.gcca._randomized`, the kernels in :mod:`workbench.gcca._linalg`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, cast

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from workbench._typing import Matrix, SeedLike
from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)

from ._linalg import _largest_entry_signs, _scipy_lapack_one_thread, _SparseProducts
from ._randomized import (
    _block_krylov_svd,
    _default_block_size,
    _default_max_basis,
    _fixed_oversampling_svd,
    _fixed_route_columns,
    _generator,
    _KrylovStats,
)

#: ``truncated_svd(method="auto")`` uses the exact scatter-matrix route up to this many columns.
GRAM_MAX_COLS = 2000

#: The ``method`` values of :func:`truncated_svd` (``svd_solver`` of :class:`MVLSA`).
SVD_METHODS = ("auto", "randomized", "gram", "dense")

#: Default ``tol`` of :func:`truncated_svd`'s adaptive randomized route: the relative residual
#: ``||L^T U - V S||_2 / s_1`` of the returned triplets (see its Notes for the choice).
SVD_TOL = 1e-3

#: ``truncated_svd(method="auto")`` takes the adaptive randomized route for a *dense* ``X``
#: with at most ``GRAM_MAX_COLS`` columns when ``rank * GRAM_RANK_RATIO <= d`` (see its Notes).
GRAM_RANK_RATIO = 28

#: At most this many Krylov iterations on the adaptive route when ``n_iter`` is None (a safety
#: cap; the residual test stops it long before on any spectrum seen here).
ADAPTIVE_MAX_ITER = 100


class SVDConvergenceWarning(ConvergenceWarning):
    """Warned (once per view) by :class:`MVLSA` when a view's adaptive randomized SVD stopped at
    a cap (``n_iter`` or ``ADAPTIVE_MAX_ITER``) before its tolerance."""


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
        columns); False only when a cap (``n_iter``'s work cap or ``ADAPTIVE_MAX_ITER``) stopped
        the adaptive route first. True on the other routes.
    stop_reason : str
        Why the route stopped: ``"exact"`` (dense, gram), ``"fixed"`` (fixed oversampling: its
        ``n_iter`` power iterations) or, on the adaptive route, ``"tol"``, ``"invariant"`` (the
        Krylov space holds the numerical rank), ``"full_basis"``, ``"max_iter"``
        (``ADAPTIVE_MAX_ITER``) or ``"work_cap"`` (an integer ``n_iter``); the last two leave
        ``converged=False``.
    residual : float
        :math:`\|F\|_F / s_1` with :math:`F = L^\top U - V S`, computed explicitly on every route
        (one product ``L^T U``): the triplets are exact singular triplets of a matrix
        :math:`L + E`, :math:`\|E\|_2 \le` ``residual * s[0]`` (see Notes).
    tail_bound : float
        An upper bound of :math:`s_{r+1}(L + E)`, the largest singular value of ``L + E`` outside
        the returned ones: :math:`\sqrt{\max(0, \|L\|_F^2 - \sum_i s_i^2 - \|F\|_F^2)}`
        (inf when ``||L||_F`` is not available: an operator ``X``). Crude when the spectrum
        beyond ``r`` carries much mass.
    angle_bound : float
        (property) the Wedin bound in degrees, see :func:`truncated_svd`'s Notes.
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
    stop_reason: str = "exact"
    residual: float = 0.0
    tail_bound: float = float("inf")

    @property
    def angle_bound(self) -> float:
        r"""Degrees: a bound on the largest principal angle between ``span(U)`` and the exact
        top-``r`` left singular subspace of ``L`` (Wedin's theorem, see :func:`truncated_svd`'s
        Notes); 90 when no gap between ``s[-1]`` and ``tail_bound`` is certified."""
        if not self.s.size:
            return 90.0
        f = self.residual * float(self.s[0])
        gap = float(self.s[-1]) - self.tail_bound - f
        if not gap > 0:
            return 90.0
        return float(np.degrees(np.arcsin(min(1.0, f / gap))))


@dataclass(frozen=True)
class _SVDSettings:
    """The checked solver parameters of one :func:`truncated_svd` call (see its parameters);
    :class:`MVLSA` keeps one for all its views."""

    center: bool = True
    method: str = "auto"
    n_oversamples: int | None = None
    n_iter: int | None = None
    tol: float = SVD_TOL
    block_size: int | None = None


class _RowOperand(Protocol):
    """A matrix that :func:`_truncated_svd` multiplies without holding it (the dask backend's
    view split into row blocks): its shape and dtype, ``X @ B``, ``X.T @ Q``, the column mean
    and whether it stands for a sparse matrix."""

    shape: tuple[int, int]
    dtype: np.dtype
    is_sparse: bool

    @property
    def T(self) -> _TransposedOperand: ...

    def mean(self, axis: int = 0) -> np.ndarray: ...

    def __matmul__(self, b: np.ndarray) -> np.ndarray: ...


class _TransposedOperand(Protocol):
    def __matmul__(self, q: np.ndarray) -> np.ndarray: ...


def truncated_svd(
    X: Matrix,
    rank: int,
    *,
    center: bool = True,
    row_weights: np.ndarray | None = None,
    method: str = "auto",
    n_oversamples: int | None = None,
    n_iter: int | None = None,
    random_state: SeedLike = None,
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
        ``n_oversamples`` is given or ``rank > d / GRAM_RANK_RATIO`` (``d / 28``); else
        randomized.
    n_oversamples : int or None
        None (default): the adaptive route. An integer ``p``: the fixed-oversampling route with
        a block of ``l = rank + p`` columns and ``n_iter`` power iterations. Fixed blocks must
        be tuned to the spectrum: on the flat spectra of word views the angle to the exact
        singular subspace falls slowly with the power iterations, and a block narrower than a
        planted signal converges slowly (see Notes).
    n_iter : int or None
        Fixed-oversampling route: power (subspace) iterations ``q``, ``2 q + 1`` passes over
        ``X`` (None: 5). Adaptive route: None (default) iterates until ``tol`` (safety cap:
        ``ADAPTIVE_MAX_ITER`` = 100 iterations); an integer ``q`` also caps its work at that of
        ``q`` power iterations of the fixed route with a block of ``rank + max(rank, 20)``
        columns, ``(2 q + 1)(rank + max(rank, 20))`` columns multiplied in all (passes x
        width), so that setting ``q`` bounds the cost. A cap reached before ``tol`` leaves
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

    The default ``tol = 1e-3`` is the loosest at which MVLSA's shared space of word views
    stays close to the one computed from exact view SVDs (``bench/bench_gcca.py`` reports the
    angle); unlike a fixed block, the residual test needs no tuning to the rank of the signal.

    Block width: dense products go through BLAS ``gemm``, whose cost per column falls with
    the width by more than wide blocks add columns, hence ``b = rank``; sparse products cost
    the same per column at any width, hence narrow blocks. For a dense ``X`` with at most
    2,000 columns, ``"auto"`` weighs the ``n d^2 / 2`` multiply-adds of the scatter matrix
    (one ``syrk``) against the ``2 n d |Q|`` of the Krylov products (``gemm`` of width
    ``b``), where the final basis ``|Q|`` is about four times ``rank`` or more whenever the
    wanted directions lie inside a larger signal. Per multiply-add, ``syrk`` runs at about
    1.75 times the rate of a ``gemm`` of width 50 (the measured rates are in
    ``bench/README.md``), so the scatter route is the cheaper one while
    :math:`d < 4 \cdot 1.75\, |Q| \approx 28\, \mathrm{rank}`: the adaptive route is taken
    for ``rank <= d / 28``.

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
    settings = _SVDSettings(
        center=center,
        method=method,
        n_oversamples=n_oversamples,
        n_iter=n_iter,
        tol=tol,
        block_size=block_size,
    )
    return _truncated_svd(
        X, rank, settings, row_weights=row_weights, random_state=random_state, n_threads=n_threads
    )


class _ImplicitOperator:
    r"""The operator :math:`L = \operatorname{diag}(w) (X - 1 \mu^\top)` of
    :func:`truncated_svd`, never formed: :math:`L B = w \odot (X B - 1 (\mu^\top B))`,
    :math:`L^\top Q = X^\top (w \odot Q) - \mu (1^\top (w \odot Q))` and
    :math:`L^\top L Z`; a sparse ``X`` is multiplied in column panels (:class:`_SparseProducts`).

    With ``w2 = w * w``, ``s_w = X^T w2`` and ``S = 1^T w2``, centring a sparse ``X`` costs only
    rank-two corrections on ``d``-sized results: the scatter route's ``d x d`` matrix and
    :math:`L^\top L Z = X^\top (w_2 \odot (X Z)) - s_w (\mu^\top Z) - \mu (s_w^\top Z)
    + S \mu (\mu^\top Z)`, computed panel by panel without any ``n x l`` block.
    """

    def __init__(
        self,
        X: Matrix | _RowOperand,
        mean: np.ndarray | None,
        w: np.ndarray | None,
        dtype: np.dtype,
        n_threads: int,
    ) -> None:
        n, d = X.shape
        self.shape = (n, d)
        self.dtype = dtype
        self.mean = mean
        self.w = w
        self.w2 = None if w is None else w * w
        self.ops = _SparseProducts(X, int(n_threads)) if sp.issparse(X) else None
        self.x = self.ops.x if self.ops is not None else X
        self.xt = self.x.T
        # an operator standing for a sparse matrix (the dask backend's row-block view) says so
        # with ``is_sparse``, to get the local fit's block and so its answer
        self.sparse_like = self.ops is not None or bool(getattr(X, "is_sparse", False))
        self.s_w: np.ndarray | None = None
        self.s_tot = 0.0
        if self.ops is not None and mean is not None:
            ones = np.ones(n, dtype=dtype) if self.w2 is None else self.w2
            self.s_w = np.asarray(self.xt @ ones).ravel()
            self.s_tot = float(n if self.w2 is None else self.w2.sum(dtype=np.float64))

    def l_block(self, b: np.ndarray) -> np.ndarray:
        """``L b``."""
        y = np.asarray(self.x @ b)
        if self.mean is not None:
            y -= self.mean @ b
        if self.w is not None:
            y *= self.w[:, None]
        return y

    def lt_block(self, q: np.ndarray) -> np.ndarray:
        """``L^T q``."""
        if self.w is not None:
            q = q * self.w[:, None]
        z = np.asarray(self.xt @ q)
        if self.mean is not None:
            z -= np.outer(self.mean, q.sum(axis=0))
        return z

    def matmat(self, b: np.ndarray) -> np.ndarray:
        """``L b`` (in column panels for a sparse ``X``)."""
        if self.ops is None:
            return self.l_block(b)
        return self.ops.map(self.l_block, b, self.shape[0])

    def rmatmat(self, q: np.ndarray) -> np.ndarray:
        """``L^T q`` (in column panels for a sparse ``X``)."""
        if self.ops is None:
            return self.lt_block(q)
        return self.ops.map(self.lt_block, q, self.shape[1])

    def _normal_panel(self, zp: np.ndarray) -> np.ndarray:
        y = np.asarray(self.x @ zp)
        if self.w2 is not None:
            y *= self.w2[:, None]
        return np.asarray(self.xt @ y)

    def normal_matmat(self, z: np.ndarray) -> np.ndarray:
        """``L^T L z``."""
        if self.ops is None:
            return self.lt_block(self.l_block(z))
        out = self.ops.map(self._normal_panel, z, self.shape[1])
        if self.mean is not None and self.s_w is not None:
            # both rank-one terms in one (d x 2) (2 x l) product
            mz, sz = self.mean @ z, self.s_w @ z
            cols = np.stack([self.s_w, self.mean], axis=1)
            out -= cols @ np.stack([mz, sz - np.asarray(self.s_tot, dtype=self.dtype) * mz])
        return out

    def frobenius_sq(self) -> float:
        r"""An upper bound (to rounding, float64 sums) of :math:`\|L\|_F^2`; inf for an operator
        ``X`` (the dask backend's row blocks), whose entries are not at hand."""
        x = self.x
        if not (self.ops is not None or isinstance(x, np.ndarray)):
            return float("inf")
        n = self.shape[0]
        w2 = np.ones(n) if self.w2 is None else self.w2.astype(np.float64)
        if self.ops is None:  # dense: the centred rows, chunked, in float64
            total = 0.0
            mu = None if self.mean is None else self.mean.astype(np.float64)
            for a in range(0, n, 4096):
                c = np.asarray(cast(np.ndarray, x)[a : a + 4096], dtype=np.float64)
                if mu is not None:
                    c = c - mu
                total += float(np.einsum("ij,ij,i->", c, c, w2[a : a + 4096]))
            return total
        xs = self.ops.x
        sq = xs.multiply(xs) if hasattr(xs, "multiply") else xs.power(2)
        rows = np.asarray(sq.sum(axis=1), dtype=np.float64).ravel()
        a_term = float(w2 @ rows)
        if self.mean is None:
            return a_term * (1 + 4 * np.finfo(np.float64).eps)
        mu = self.mean.astype(np.float64)
        xmu = np.asarray(xs @ mu, dtype=np.float64).ravel()
        c_term = float(w2.sum()) * float(mu @ mu)
        val = a_term - 2.0 * float(w2 @ xmu) + c_term
        # the expansion cancels: add its rounding (float64 sums of the working-precision data)
        slack = 4 * float(np.finfo(self.dtype).eps) * (a_term + c_term)
        return max(val, 0.0) + slack

    def krylov_apply(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """``(L^T L z, L z)`` for the adaptive route; ``L z`` is not kept for a sparse ``X``
        (fused panels, no ``n x b`` block: the left vectors cost one more pass)."""
        if self.sparse_like:
            return self.normal_matmat(z), None
        y = self.l_block(z)
        return self.lt_block(y), y


def _auto_method(X: Matrix | _RowOperand, rank: int, n_oversamples: int | None) -> str:
    """The route ``method="auto"`` takes (see :func:`truncated_svd`)."""
    n, d = X.shape
    if n * d <= 4_000_000:
        return "dense"
    if d <= GRAM_MAX_COLS and (
        n_oversamples is not None or sp.issparse(X) or rank * GRAM_RANK_RATIO > d
    ):
        return "gram"
    return "randomized"


def _dense_svd(
    X: Matrix, mean: np.ndarray | None, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``"dense"`` route: LAPACK on the formed, centred and weighted matrix (float64)."""
    xd = cast("sp.sparray", X).toarray() if sp.issparse(X) else np.array(X, dtype=np.float64)
    xd = xd.astype(np.float64, copy=False)
    if mean is not None:
        xd = xd - mean.astype(np.float64)
    if w is not None:
        xd *= w.astype(np.float64)[:, None]
    u, s, vt = np.linalg.svd(xd, full_matrices=False)
    return u, s, vt


def _gram_svd(
    X: Matrix, op: _ImplicitOperator, rank: int, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``"gram"`` route, exact for few columns: eigh of the ``d x d`` centred scatter
    matrix (one pass), then ``U = L V / s`` (one more). The scatter is accumulated in the
    data's precision (float32 halves the syrk)."""
    n, d = X.shape
    mean, w = op.mean, op.w
    xw: np.ndarray | None = None
    if sp.issparse(X):
        xg = X if w is None else sp.diags_array(w) @ X
        g = np.asarray(cast("sp.sparray", xg.T @ xg).toarray(), dtype=np.float64)
        del xg
        if mean is not None and op.s_w is not None:
            mu, sw = mean.astype(np.float64), op.s_w.astype(np.float64)
            g = g - np.outer(mu, sw) - np.outer(sw, mu) + op.s_tot * np.outer(mu, mu)
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
    eps = float(np.finfo(dtype).eps)
    ok = lam > (lam[0] if lam.size else 0.0) * np.sqrt(max(n, d)) * eps * 10
    s, vec = np.sqrt(lam[ok]), np.ascontiguousarray(vec[:, ok])
    proj = xw @ vec.astype(dtype) if xw is not None else op.matmat(vec.astype(dtype))
    u = np.asarray(proj, dtype=np.float64) / s
    return u, s, vec.T


@_scipy_lapack_one_thread()
def _truncated_svd(
    X: Matrix | _RowOperand,
    rank: int,
    settings: _SVDSettings,
    *,
    row_weights: np.ndarray | None = None,
    random_state: SeedLike = None,
    n_threads: int = 1,
) -> TruncatedSVD:
    """:func:`truncated_svd` on validated input (MVLSA checks its views and parameters once)."""
    n, d = X.shape
    dtype = np.dtype(np.float32) if X.dtype == np.float32 else np.dtype(np.float64)
    rank = int(min(rank, n, d))
    w: np.ndarray | None = None if row_weights is None else np.asarray(row_weights, dtype=dtype)
    if w is not None and w.shape != (n,):
        raise ValueError(f"row_weights has shape {w.shape}, expected ({n},)")
    mean = np.asarray(X.mean(axis=0)).ravel().astype(dtype) if settings.center else None
    eps = float(np.finfo(dtype).eps)
    method = settings.method
    if method == "auto":
        method = _auto_method(X, rank, settings.n_oversamples)

    krylov: _KrylovStats | None = None
    op = _ImplicitOperator(X, mean, w, dtype, n_threads)
    if method == "dense":
        u, s, vt = _dense_svd(X, mean, w)
        passes = 1
        basis_size, iters = min(n, d), 0
    elif method == "gram":
        u, s, vt = _gram_svd(X, op, rank, dtype)
        passes = 2
        basis_size, iters = d, 0
    elif settings.n_oversamples is not None:  # randomized subspace iteration, fixed block
        ell = int(min(rank + int(settings.n_oversamples), n, d))
        q_fixed = 5 if settings.n_iter is None else int(settings.n_iter)
        u, s, vt, passes = _fixed_oversampling_svd(
            op.matmat, op.normal_matmat, _generator(random_state), d, rank, ell, q_fixed, dtype
        )
        basis_size, iters = ell, q_fixed
    else:  # adaptive: randomized block Krylov stopped on the residual (see the Notes)
        b = settings.block_size
        if b is None:
            b = _default_block_size(rank, op.sparse_like)
        n_iter = settings.n_iter
        u, s, vt, passes, krylov = _block_krylov_svd(
            op.krylov_apply,
            op.matmat,
            _generator(random_state),
            (n, d),
            rank,
            tol=float(settings.tol),
            block=int(b),
            max_iter=ADAPTIVE_MAX_ITER,
            max_columns=None if n_iter is None else _fixed_route_columns(rank, n, d, int(n_iter)),
            max_basis=_default_max_basis(rank, int(b)),
            dtype=dtype,
        )
        basis_size, iters = krylov.basis_size, krylov.n_iter
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
    resid, tail = _certify(op, u, s, vt)
    if krylov is not None:
        reason = krylov.stop_reason
    else:
        reason = "exact" if method in ("dense", "gram") else "fixed"
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
        tol=None if krylov is None else float(settings.tol),
        converged=True if krylov is None else krylov.converged,
        stop_reason=reason,
        residual=resid,
        tail_bound=tail,
    )


def _certify(
    op: _ImplicitOperator, u: np.ndarray, s: np.ndarray, vt: np.ndarray
) -> tuple[float, float]:
    """``(residual, tail_bound)`` of :class:`TruncatedSVD`: :math:`\\|F\\|_F / s_1` with
    :math:`F = L^\top U - V S` (one product of width ``r``) and the bound of the singular values
    of ``L + E`` beyond the returned ones (see :func:`truncated_svd`'s Notes)."""
    if not s.size:
        return 0.0, float(np.sqrt(max(op.frobenius_sq(), 0.0)))
    f = np.asarray(op.rmatmat(np.ascontiguousarray(u)), dtype=np.float64)
    f -= vt.T.astype(np.float64) * s
    f2 = float(np.einsum("ij,ij->", f, f))
    resid = float(np.sqrt(f2)) / float(s[0])
    frob2 = op.frobenius_sq()
    rest = frob2 - float(s @ s) - f2
    # the rounding of the s_i^2 and of F (working precision) on top
    if np.isfinite(frob2):
        rest += 4 * float(np.finfo(op.dtype).eps) * (frob2 + float(s @ s))
    return resid, float(np.sqrt(max(rest, 0.0)))
