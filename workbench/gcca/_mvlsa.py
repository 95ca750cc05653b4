"""Multiview LSA, :class:`MVLSA`: the fast approximate regularized MAX-VAR GCCA of Rastogi, Van
Durme & Arora (2015), fitted in this process or on a ``dask.distributed`` cluster."""

from __future__ import annotations

import numbers
import time
import warnings
from collections.abc import Sequence

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import check_random_state as _sk_random_state

from workbench._dask import active_client
from workbench._typing import SeedLike
from workbench._validation import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)
from workbench.cluster import BACKENDS

from ._base import MaskInput, ViewInput, _GCCABase, _per_view, _warn_dominated
from ._certificate import _certificate
from ._dask_fit import fit_dask
from ._stacked import _fit_local, _fit_local_incremental, _MVLSAPlan, _StackedFit, _SVDOptions
from ._svd import SVD_METHODS, SVD_TOL, SVDConvergenceWarning, _SVDSettings


def _unscale(res: _StackedFit, scales: np.ndarray) -> None:
    """Map the results of views fitted at ``c_j`` times their scale back (in place):
    ``U_j = c_j U'_j``, ``mu_j = mu'_j / c_j``, ``S_j = S'_j / c_j``, ``r_j = r'_j / c_j^2``
    (a ``regularization_`` beyond the float64 range is ``inf``)."""
    with np.errstate(over="ignore"):
        for j, c in enumerate(scales):
            if c == 1.0:
                continue
            res.maps[j] = res.maps[j] * c
            mean = res.means[j]
            res.means[j] = None if mean is None else (mean.astype(np.float64) / c)
            res.svals[j] = res.svals[j] / c
            res.reg_used[j] = res.reg_used[j] / c / c if res.reg_used[j] else 0.0


class MVLSA(_GCCABase):
    r"""Multiview LSA: fast approximate regularized MAX-VAR GCCA (Rastogi et al., 2015).

    Parameters
    ----------
    n_components : int
        ``k``, the embedding dimension (``embedding_`` can be sliced to fewer afterwards).
    view_rank : int or sequence of int
        ``m`` (or ``m_j`` per view): rank of each view's truncated SVD. Like the paper
        (``m_j = min(d_j, m)``), it is clamped to ``min(m, n_j, d_j)`` and to the view's numerical
        rank; the ranks used are in ``view_ranks_``.
    regularization : float or sequence of float
        ``r_j >= 0`` (one value or one per view): :math:`T_j^2 = S_j^2 (S_j^2 + r_j I)^{-1}`.
        With ``relative_regularization`` it is :math:`\rho_j` instead (see below).
    min_view_support : int
        ``v``: rows observed in fewer than ``v`` views are dropped before GCCA; their
        ``embedding_`` rows are zero and ``row_mask_`` is False (``transform`` can still map them).
        Rows observed in no view are always dropped. A view left without rows raises ValueError.
    row_weighting : {None, "glove"}
        ``None``: missing rows via :math:`K^{-1/2}` only; ``"glove"``: eq. (12) weights
        ``min(1, (w_i / row_weight_max)^row_weight_power)``, ``w_i`` the row total of view ``j``
        (see :func:`glove_row_weights`).
    row_weight_max, row_weight_power : float
        ``w_max`` and exponent of eq. (12).
    center : bool
        Mean-centre each view over its observed rows (eq. 9), implicitly (sparse stays sparse).
    relative_regularization : bool
        If True, ``regularization`` is relative to each view's spectrum:
        :math:`r_j = \rho_j s_{j,1}^2` with :math:`s_{j,1}` the view's largest singular value,
        so one :math:`\rho` damps every view alike whatever its scale (:math:`\rho \to 0`:
        whitened MAX-VAR GCCA; :math:`\rho \to \infty`: the top eigenvectors of
        :math:`\sum_j X_j X_j^\top / s_{j,1}^2`, an SVD of the concatenated, scaled views).
        The values used are in ``regularization_``.
    svd_solver : {"auto", "randomized", "gram", "dense"}
        Per-view SVD method, see :func:`truncated_svd` (``"auto"``: exact for small views, for
        sparse views with at most 2,000 columns and for dense ones with at most 2,000 columns
        unless ``m <= d_j / 20``; the adaptive randomized SVD otherwise).
    n_oversamples : int or None
        None (default): the randomized per-view SVDs are adaptive -- randomized block Krylov,
        stopped when the relative residual of the ``m_j`` wanted triplets is below
        ``svd_tol``, however the spectrum decays. An integer ``p``: the fixed route, blocks of
        ``m + p`` columns and ``n_iter`` power iterations, which must be tuned to the spectrum:
        a block that suits a signal of one rank leaves the shared space far from the exact one
        when the signal has a larger rank (see :func:`truncated_svd`).
    n_iter : int or None
        Fixed route (``n_oversamples`` given): power iterations, ``2 n_iter + 1`` passes per
        view (None: 5). Adaptive route: at most this many Krylov iterations per view (None: as
        many as ``svd_tol`` needs).
    svd_tol : float
        Target of the adaptive per-view SVDs (``0 < svd_tol < 1``): their triplets are exact
        singular triplets of a matrix within ``svd_tol * s_j1`` of the (weighted, centred)
        view. The default 1e-3 keeps the shared space of word views close to the one from exact
        view SVDs (looser targets move it markedly); see :func:`truncated_svd`. Ignored by the
        exact solvers and the fixed route.
    random_state : int, RandomState, Generator or None
        Seeds the randomized SVDs (one ``numpy.random.Generator`` per view, seeded from it;
        results are reproducible for a fixed seed).
    n_jobs : int or None
        Threads (None: 1; -1: all cores, as in joblib). With ``n_jobs > 1`` the views' SVDs run
        ``n_jobs`` at a time, each on one thread (BLAS limited to one thread meanwhile;
        ``n_jobs`` views' working blocks are in memory at once: ``n x (m + p)`` on the fixed
        route; on the adaptive route a dense view keeps its ``n x |Q|`` Krylov products for the
        left vectors, ``|Q| <= m + 6 b`` with the block ``b = m`` within [16, 128], a sparse
        one none); views left over run one at a time, their sparse products ``X_j B`` and
        ``X_j^T Q`` split into column panels over the threads. Every view has its own random
        stream, so results do not depend on ``n_jobs`` (up to BLAS rounding).
        Ignored with ``backend="dask"``.
    backend : {"local", "dask"}
        Where the fit runs. ``"local"`` (the default): in this process, as described above.
        ``"dask"``: on the cluster of the active ``dask.distributed.Client`` (the ``scale``
        extra, ``pip install "workbench[scale]"``): every view is sent to one worker once, one
        task per view computes its SVD and its block of :math:`\tilde M` (the same function and
        per-view seed as the local fit), the Gram matrix of :math:`\tilde M` is summed over row
        blocks on the workers (a pairwise tree), and only the small eigenproblem, ``k x k``
        reductions and the ``N x k`` embedding are handled by the client; see
        :mod:`workbench.gcca._dask`. Same seed, same shared space as the local fit (up to
        rounding; tested below 1e-6 degrees). A worker lost during the fit is survived (its views
        are sent again).
    block_rows : int or None
        ``backend="dask"`` only. A view with more rows than this is split into row blocks of
        ``block_rows`` rows kept on several workers: its randomized SVD is driven from the client
        and its products (``X_j B``, ``X_j^T Q``, the column mean) are computed block-wise on the
        workers (``svd_solver`` must be ``"auto"`` or ``"randomized"``); the Gram reduction then
        runs over row blocks of this many rows as well. None: a view is split only when it is
        larger than a quarter of the smallest worker's memory limit.
    stack_rank : int or None
        None (default): the exact stacked step -- :math:`\tilde M` (``N x sum_j m_j``) is formed
        and the eigenproblem of its Gram matrix solved, which needs ``N sum_j m_j`` entries of
        memory and ``N (sum_j m_j)^2`` operations. An integer ``r >= n_components``: the
        incremental step of :mod:`workbench.gcca._incremental` (Brand's incremental SVD, as the
        paper suggests for a :math:`\tilde M` too large for memory): the views' blocks are
        merged pairwise in view order, as a binary counter adds, each merge keeping the top
        ``r`` directions, and a block is dropped once merged, so at most ``log2(J) + 1``
        factorizations of ``N x r`` are held instead of ``N sum_j m_j`` entries (with
        ``backend="dask"`` the merges run on the workers in the same order, giving the local
        answer). It is exact while no merge drops a direction of nonzero weight; otherwise an
        approximation whose eigenvalues lie below the exact ones and whose leading directions
        are the most accurate -- the last of the ``k`` can be far off where the spectrum is flat,
        which ``stack_iter`` corrects.
    stack_iter : int
        With ``stack_rank`` only: sweeps of subspace iteration over the views that refine the
        merges' result (:mod:`workbench.gcca._refine`): each recomputes every view's block of
        :math:`\tilde M` from the view and its factor (two sparse products with ``stack_rank``
        columns per view, a fraction of the view's SVD) to multiply the ``N x stack_rank``
        basis by :math:`M`, and a last half sweep gives the Rayleigh-Ritz step. ``0``: the
        merges' result as it is. Each sweep shrinks the error of the ``i`` th direction by
        about :math:`\lambda_{r+1} / \lambda_i`; ``bench/README.md`` reports the angles to
        the exact space for several values. The views stay in memory (on the workers with
        ``backend="dask"``) until the sweeps are done.

    Attributes
    ----------
    embedding_ : ndarray, shape (N, n_components)
        ``G`` of the paper (orthonormal columns; sign-fixed; nested: ``embedding_[:, :k']`` is the
        ``k'``-dimensional solution).
    eigenvalues_ : ndarray, shape (n_components,)
        Eigenvalues of :math:`M = \tilde M \tilde M^\top` (squared singular values of
        :math:`\tilde M`).
    view_maps_ : list of ndarray, shape (d_j, n_components)
        ``U_j`` (scale of :math:`G = C^{-1/2} H`), used by :meth:`transform`.
    view_means_ : list of ndarray or None
    view_ranks_ : list of int
        Ranks ``m_j`` actually used.
    view_singular_values_ : list of ndarray
        Singular values ``S_j`` of each (weighted, centred) view.
    regularization_ : ndarray, shape (n_views,)
        The :math:`r_j` used (equal to ``regularization`` unless ``relative_regularization``).
    support_, row_mask_ :
        As in :class:`GCCA`.
    accuracy_ : AccuracyCertificate
        An a posteriori certificate of the fit (every route, both backends): per-view residuals
        and angle bounds, and ``angle_bound`` (degrees) on the largest principal angle between
        ``embedding_`` and the exact MAX-VAR solution for the same views and settings (exact
        rank-``m_j`` view SVDs, exact stacked step), ``eigenvalue_bound`` on the error of
        ``eigenvalues_``; ``print(accuracy_)`` gives one line. 90 degrees when no spectral gap
        is certified (see Notes). With ``backend="dask"`` and ``stack_rank``, only the view
        parts are computed (``angle_bound`` 90, ``eigenvalue_bound`` inf); a view split into
        row blocks on the dask backend has no gap certificate (``||L||_F`` is not gathered).
    fit_stats_ : dict
        Timings (``svd_seconds``, ``gram_seconds``, ``total_seconds``), ``n_passes`` over the
        data, ``nnz`` and the ``backend``, for benchmarks; with ``backend="dask"`` also
        ``dask_workers``, ``dask_attempts`` (2 or more if a worker holding views was lost),
        ``dask_row_blocks`` and ``dask_blocked_views``; with ``stack_rank`` (local)
        ``merge_seconds``, the part of ``svd_seconds`` spent merging; ``gram_seconds`` holds
        the ``stack_iter`` sweeps.

    Notes
    -----
    With the rank-``m_j`` SVD :math:`D_j X_j = A_j S_j B_j^\top` (:math:`D_j` the row
    weights, :math:`K_j` without weighting) and :math:`T_j = S_j (S_j^2 + r_j I)^{-1/2}`,
    the regularized sum of projections of :class:`GCCA` is
    :math:`M = \tilde M \tilde M^\top` with

    .. math:: \tilde M = C^{-1/2} [D_1 A_1 T_1, \dots, D_J A_J T_J] \in \mathbb{R}^{N\times\sum_j m_j},

    and ``embedding_`` holds its top-``k`` left singular vectors. They are computed exactly: eigh
    of the Gram matrix :math:`\tilde M^\top \tilde M = V \Lambda V^\top`, then
    :math:`H = \tilde M V \Lambda^{-1/2}` (a randomized SVD of :math:`\tilde M` is badly
    inaccurate for the flat spectra found here). Maps:
    :math:`U_j = B_j (S_j^2 + r_j I)^{-1/2} V_{[j]} \Lambda^{1/2}`. When every ``m_j`` equals
    the view's rank the result equals :class:`GCCA` (tested).

    ``accuracy_`` bounds the distance to the exact solution a posteriori, from the views' SVD
    residuals :math:`F_j = L_j^\top U_j - V_j S_j` (computed explicitly, one product per view),
    the trace of each view beyond its ``m_j`` triplets, and the residual and spectral gap of the
    stacked step: Wedin's :math:`\sin\theta` theorem per view, the sum of the views'
    perturbations of :math:`M`, then Davis & Kahan's :math:`\sin\theta` theorem with the gap
    :math:`\lambda_k - \lambda_{k+1}`. The derivation, what is rigorous and what is first
    order, is in :mod:`workbench.gcca._certificate`. It is tested to lie above the true angle
    and within ten times it (or half a degree) on planted problems.

    References
    ----------
    P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
    Generalized CCA. NAACL (Sections 3, 3.1, 3.2; eqs. 6-12).
    M. Van De Velden, T. Bijmolt (2006). Generalized canonical correlation analysis of matrices
    with missing rows. Psychometrika 71(2).
    M. Brand (2002). Incremental singular value decomposition of uncertain data with missing
    values. ECCV (``stack_rank``).
    C. Davis, W. M. Kahan (1970). The rotation of eigenvectors by a perturbation. III. SIAM J.
    Numer. Anal. 7(1) (``accuracy_``).
    P.-A. Wedin (1972). Perturbation bounds in connection with singular value decomposition.
    BIT 12 (``accuracy_``).
    Y. Saad (2011). Numerical Methods for Large Eigenvalue Problems, 2nd ed., SIAM, ch. 5
    (subspace iteration, ``stack_iter``).

    Examples
    --------
    The views of the :class:`GCCA` example; rank-3 view SVDs give the same shared space:

    >>> import numpy as np
    >>> from workbench.gcca import GCCA, MVLSA
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(50, 2))
    >>> views = [z @ rng.normal(size=(2, 6)) + 0.1 * rng.normal(size=(50, 6)) for _ in range(3)]
    >>> mvlsa = MVLSA(n_components=2, view_rank=3, random_state=0).fit(views)
    >>> mvlsa.embedding_.shape, mvlsa.view_ranks_
    ((50, 2), [3, 3, 3])
    >>> h = GCCA(n_components=2).fit(views).embedding_
    >>> np.linalg.svd(h.T @ mvlsa.embedding_, compute_uv=False).round(3)  # cosines of the angles
    array([1., 1.])
    >>> mvlsa.fit_transform(views, masks=[None, np.arange(50) >= 5, None]).shape  # 5 rows unseen
    (50, 2)
    """

    def __init__(
        self,
        n_components: int = 300,
        view_rank: int | Sequence[int] = 300,
        regularization: float | Sequence[float] = 1e-8,
        *,
        min_view_support: int = 0,
        row_weighting: str | None = None,
        row_weight_max: float = 100.0,
        row_weight_power: float = 0.75,
        center: bool = True,
        relative_regularization: bool = False,
        svd_solver: str = "auto",
        n_oversamples: int | None = None,
        n_iter: int | None = None,
        svd_tol: float = SVD_TOL,
        random_state: SeedLike = None,
        n_jobs: int | None = 1,
        backend: str = "local",
        block_rows: int | None = None,
        stack_rank: int | None = None,
        stack_iter: int = 2,
    ) -> None:
        super().__init__(
            n_components,
            regularization,
            min_view_support=min_view_support,
            row_weighting=row_weighting,
            row_weight_max=row_weight_max,
            row_weight_power=row_weight_power,
            center=center,
        )
        self.view_rank = view_rank
        self.relative_regularization = relative_regularization
        self.svd_solver = svd_solver
        self.n_oversamples = n_oversamples
        self.n_iter = n_iter
        self.svd_tol = svd_tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.backend = backend
        self.block_rows = block_rows
        self.stack_rank = stack_rank
        self.stack_iter = stack_iter

    def _n_threads(self) -> int:
        """``n_jobs`` as a thread count (None: 1; negative: joblib's convention, -1 = all cores)."""
        nj = self.n_jobs
        ok = not isinstance(nj, (bool, np.bool_)) and isinstance(nj, (numbers.Integral, type(None)))
        if not ok or nj == 0:
            raise ValueError(f"n_jobs must be a nonzero integer or None, got {nj!r}")
        return int(effective_n_jobs(nj))

    def fit(self, views: ViewInput, y: object = None, *, masks: MaskInput = None) -> MVLSA:
        """Fit on a list of ``N``-row views (dense or sparse), optional boolean row masks
        (``y`` is ignored); returns ``self``.

        Every parameter is checked here (``__init__`` only stores them): a ``ValueError`` or
        ``TypeError`` names the parameter, the value given and what is allowed (e.g.
        ``n_iter=-1``, ``n_oversamples=-5``, ``regularization="1e-3"``, an unknown
        ``svd_solver`` or ``backend``); views with NaN / inf, complex or non-numeric entries are
        refused by :func:`workbench.views.check_views`. With ``backend="dask"``, an
        ``ImportError`` (naming the ``scale`` extra) if ``dask.distributed`` is not installed and
        a ``RuntimeError`` if no ``Client`` is active, both before any work.
        """
        t0 = time.perf_counter()
        backend = check_choice(self.backend, "backend", BACKENDS)
        block_rows = check_int(self.block_rows, "block_rows", low=1, allow_none=True)
        stack_rank = check_int(self.stack_rank, "stack_rank", low=1, allow_none=True)
        stack_iter = check_int(self.stack_iter, "stack_iter", low=0)
        check_choice(self.svd_solver, "svd_solver", SVD_METHODS)
        check_bool(self.relative_regularization, "relative_regularization")
        n_oversamples = check_int(self.n_oversamples, "n_oversamples", low=0, allow_none=True)
        n_iter = check_int(self.n_iter, "n_iter", low=0, allow_none=True)
        svd_tol = check_float(self.svd_tol, "svd_tol", low=0, high=1, low_open=True, high_open=True)
        random_state = check_random_state(self.random_state, legacy=True)
        n_jobs = self._n_threads()
        client = None
        if backend == "dask":
            client = active_client()
        prep = self._prepare(views, masks)
        n_views = len(prep.views)
        reg = _per_view(self.regularization, n_views, "regularization")
        relative = bool(self.relative_regularization)
        with np.errstate(over="ignore", invalid="ignore"):  # r_j of a view times c_j: c_j^2 r_j
            reg_fit = reg if relative else np.where(reg > 0, reg * prep.scales**2, 0.0)
        ranks = _per_view(self.view_rank, n_views, "view_rank", kind=int)
        k = int(self.n_components)
        if stack_rank is not None and stack_rank < k:
            raise ValueError(
                f"stack_rank={stack_rank} is below n_components={k}: the incremental stacked "
                "step keeps stack_rank directions, of which the top n_components are the "
                "embedding; use stack_rank >= n_components (or None for the exact step)"
            )
        n_obs = [int(np.count_nonzero(prep.row_mask[r])) for r in prep.rows]
        cap = [int(min(ranks[j], n_obs[j], x.shape[1])) for j, x in enumerate(prep.views)]
        if k > sum(cap):
            raise ValueError(
                f"n_components={k} exceeds the rank of the stacked matrix, sum_j min(m, n_j, d_j) = "
                f"{sum(cap)} (view_rank={self.view_rank!r}, {n_views} views); lower n_components or "
                "raise view_rank"
            )
        # one random stream per view: results depend neither on n_jobs nor on scheduling (nor
        # on the backend: the dask workers get the same seeds)
        seeds = _sk_random_state(random_state).randint(np.iinfo(np.int32).max, size=n_views)
        kept = np.flatnonzero(prep.row_mask)
        pos = np.full(prep.n_rows, -1)
        pos[kept] = np.arange(kept.size)
        opts = _SVDOptions(
            solver=_SVDSettings(
                center=bool(self.center),
                method=self.svd_solver,
                n_oversamples=n_oversamples,
                n_iter=n_iter,
                tol=svd_tol,
            ),
            weighted=self._weighting() is not None,
            relative_regularization=bool(self.relative_regularization),
            dtype=prep.dtype,
        )
        plan = _MVLSAPlan(
            prep=prep,
            cap=cap,
            reg=reg_fit,
            seeds=seeds,
            kept=kept,
            pos=pos,
            inv_sqrt_c=1.0 / np.sqrt(prep.c[kept]),
            opts=opts,
            k=k,
            stack_rank=stack_rank,
            stack_iter=stack_iter,
        )
        if client is None and stack_rank is not None:
            res = _fit_local_incremental(plan, n_jobs)
        elif client is None:
            res = _fit_local(plan, n_jobs)
        else:
            res = fit_dask(client, plan, block_rows=block_rows)
        h = np.zeros((prep.n_rows, k), dtype=prep.dtype)
        h[kept] = res.hk
        if not relative:
            for j, sv in enumerate(res.svals):
                _warn_dominated(j, float(sv[0]) ** 2, float(reg_fit[j]))
        if np.any(prep.scales != 1.0):
            _unscale(res, prep.scales)
        self._finish(h, res.lam, res.maps, res.means, prep, [x.shape[1] for x in prep.views])
        self.accuracy_ = _certificate(res.views, res.stack)
        for j, chk in enumerate(res.views):
            if not chk.converged:
                warnings.warn(
                    f"view {j}: its adaptive randomized SVD stopped at its {chk.stop_reason} "
                    f"(n_iter={self.n_iter!r}) at relative residual {chk.residual:.2e} > "
                    f"svd_tol={svd_tol:g}; accuracy_ accounts for it (raise n_iter or use "
                    "n_iter=None)",
                    SVDConvergenceWarning,
                    stacklevel=2,
                )
        self.view_ranks_ = res.sizes
        self.view_singular_values_ = res.svals
        self.regularization_ = res.reg_used
        t_end = time.perf_counter()
        self.fit_stats_ = {
            "svd_seconds": res.t_svd - t0,
            "gram_seconds": res.t_gram - res.t_svd,
            "total_seconds": t_end - t0,
            "n_passes": res.n_passes,
            "nnz": res.nnz,
            "stack_columns": int(sum(res.sizes)),
            "backend": backend,
            **res.stats,
        }
        return self
