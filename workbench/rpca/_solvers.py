"""PCA and Ex-RPCA solvers (iterative 3-sigma and inexact ALM) and their result type.

Part of :mod:`workbench.rpca` (import the public names from there).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.extmath import randomized_svd

from workbench._typing import SeedLike
from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
    max_abs,
    overflow_error,
    power_of_two_scale,
)

logger = logging.getLogger(__name__)

SVDSolver = Literal["auto", "gram", "full", "randomized"]
_SVD_SOLVERS = ("auto", "gram", "full", "randomized")


#: Defaults of the ALM of :func:`ex_rpca`: iteration cap, tolerance on the relative primal and
#: dual residuals, and the cap of the penalty ``mu`` in units of ``mu0`` (see its Notes).
ALM_MAX_ITER = 500
ALM_TOL = 1e-6
ALM_MU_MAX_FACTOR = 10.0


class RPCAConvergenceWarning(ConvergenceWarning):
    """Raised (as a warning) when an Ex-RPCA solver stops at its iteration cap."""


@dataclass(frozen=True)
class RPCAResult:
    """Decomposition ``M = low_rank + noise + sparse`` of a ``d x N`` matrix.

    Attributes
    ----------
    low_rank : ndarray, shape (d, N)
        :math:`L`, of rank at most ``rank``.
    noise : ndarray, shape (d, N)
        :math:`E`, the dense (Gaussian) noise term.
    sparse : ndarray, shape (d, N)
        :math:`S`, the sparse large noise (all zeros for :func:`pca`).
    components : ndarray, shape (d, rank)
        Orthonormal columns spanning the column space of ``low_rank`` (the
        principal components), ordered by decreasing singular value, sign-fixed so
        that the largest-magnitude entry of each column is positive.
    singular_values : ndarray, shape (rank,)
        Singular values of ``M - sparse`` along the components.
    explained_variance_ratio : ndarray, shape (rank,)
        :math:`\\|u_i^\\top (M - S)\\|^2 / \\|M - S\\|_F^2` per component (Table 2's
        :math:`\\rho_{var}`; for PCA this is :math:`\\sigma_i^2/\\|M\\|_F^2`).
    n_iter : int
        Number of iterations run (1 for PCA).
    converged : bool
    trace : ndarray
        Convergence trace, one value per iteration: for ``"iterative"`` the relative
        size :math:`\\|S^{(t)}\\|_F/\\|M\\|_F` of the newly extracted sparse noise; for
        ``"alm"`` the relative primal residual :math:`\\|M-L-E-S\\|_F/\\|M\\|_F`; for
        PCA a single 0.
    method : str
        ``"pca"``, ``"iterative"`` or ``"alm"``.
    rank : int
    params : dict
        Solver parameters actually used (e.g. ``lambda1``, ``lambda2``, ``mu``).
    """

    low_rank: np.ndarray
    noise: np.ndarray
    sparse: np.ndarray
    components: np.ndarray
    singular_values: np.ndarray
    explained_variance_ratio: np.ndarray
    n_iter: int
    converged: bool
    trace: np.ndarray
    method: str
    rank: int
    params: dict[str, Any]

    @property
    def sparse_column_norms(self) -> np.ndarray:
        """2-norm of every column of ``sparse`` (Table 3's :math:`\\|S_p\\|_2`)."""
        return np.linalg.norm(self.sparse, axis=0)


# ----------------------------------------------------------------------------- validation


def _check_matrix(M: Any, name: str = "M") -> np.ndarray:
    """``M`` as a dense, finite, real float64 ``d x N`` array with ``d, N >= 1``."""
    arr: np.ndarray = check_array(M, name, ndim=2)
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): nothing to decompose")
    return arr


def _check_rank(rank: Any, shape: tuple[int, int]) -> int:
    """``rank`` as an ``int`` in ``[1, min(d, N)]``; the message says which bound is hit."""
    rank = check_int(rank, "rank", low=1)
    d, n = shape
    if rank > d:
        raise ValueError(
            f"rank={rank} exceeds the dimension d={d} of the vectors (rows of M); "
            f"choose rank <= {min(d, n)}"
        )
    if rank > n:
        raise ValueError(f"rank={rank} exceeds the number of columns N={n} of M")
    return rank


def _scale_of(X: np.ndarray) -> float:
    """The power of two :func:`pca` and the iterative :func:`ex_rpca` multiply ``M`` by so
    that its Gram matrix and norms neither overflow nor underflow (1 for ordinary ``M``)."""
    largest = max_abs(X)
    c = power_of_two_scale(largest, X.shape[0] * X.shape[1])
    if c != 1.0:
        logger.info("M: largest |entry| %.3g; decomposed at %g times its scale", largest, c)
    return c


def _unscaled(res: RPCAResult, c: float) -> RPCAResult:
    """``res`` of ``c M`` mapped back to ``M`` (the parts and singular values divided by ``c``;
    components, ratios and the relative trace are scale-free)."""
    return dataclasses.replace(
        res,
        low_rank=res.low_rank / c,
        noise=res.noise / c,
        sparse=res.sparse / c,
        singular_values=res.singular_values / c,
    )


# ----------------------------------------------------------------------------- SVD helpers


def _fix_signs(U: np.ndarray) -> np.ndarray:
    idx = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[idx, np.arange(U.shape[1])])
    signs[signs == 0] = 1.0
    return U * signs


def _resolve_solver(solver: str, shape: tuple[int, int], k: int) -> str:
    check_choice(solver, "svd_solver", _SVD_SOLVERS)
    if solver != "auto":
        return solver
    small = min(shape)
    if small <= 500:
        return "gram"  # exact thin SVD through the small side's Gram matrix (<= 500 x 500)
    if k <= small // 10:
        return "randomized"
    return "full"


def _top_left_from_gram(G: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    w, V = scipy.linalg.eigh(G, subset_by_index=[G.shape[0] - k, G.shape[0] - 1])
    order = np.argsort(w)[::-1]
    w = np.clip(w[order], 0.0, None)
    return V[:, order], np.sqrt(w)


def _top_left(
    X: np.ndarray, k: int, solver: str, random_state: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` left singular vectors (sign-fixed) and singular values of ``X``."""
    d, n = X.shape
    solver = _resolve_solver(solver, (d, n), k)
    if solver == "gram":
        if d <= n:
            U, s = _top_left_from_gram(X @ X.T, k)
        else:
            V, s = _top_left_from_gram(X.T @ X, k)
            U = X @ V
            nz = s > s.max(initial=0.0) * 1e-12
            U[:, nz] /= s[nz]
            U, _ = np.linalg.qr(U) if not np.all(nz) else (U, None)
    elif solver == "randomized":
        U, s, _ = randomized_svd(X, k, n_oversamples=10, n_iter=7, random_state=random_state)
    else:
        U, s, _ = scipy.linalg.svd(X, full_matrices=False, check_finite=False)
        U, s = U[:, :k], s[:k]
    return _fix_signs(np.ascontiguousarray(U)), s


def _explained(U: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    proj = np.linalg.norm(U.T @ X, axis=1)
    total = float(np.sum(X * X))
    ratio = proj**2 / total if total > 0 else np.zeros_like(proj)
    return proj, ratio


def _result(
    method: str,
    components: np.ndarray,
    explained_of: np.ndarray,
    *,
    low_rank: np.ndarray,
    noise: np.ndarray,
    sparse: np.ndarray,
    n_iter: int,
    converged: bool,
    trace: Sequence[float] | np.ndarray,
    params: dict[str, Any],
) -> RPCAResult:
    """The :class:`RPCAResult` of ``components`` (``d x rank``); singular values and explained
    variance are those of ``explained_of`` (``M - S``) along them."""
    s, ratio = _explained(components, explained_of)
    return RPCAResult(
        low_rank=low_rank,
        noise=noise,
        sparse=sparse,
        components=components,
        singular_values=s,
        explained_variance_ratio=ratio,
        n_iter=n_iter,
        converged=converged,
        trace=np.asarray(trace),
        method=method,
        rank=components.shape[1],
        params=params,
    )


def _warn_not_converged(solver: str, max_iter: int, detail: str) -> None:
    """:class:`RPCAConvergenceWarning`, pointing at the caller of :func:`ex_rpca`."""
    warnings.warn(
        f"Ex-RPCA ({solver}) did not converge in max_iter={max_iter} iterations: {detail}",
        RPCAConvergenceWarning,
        stacklevel=4,
    )


# ----------------------------------------------------------------------------- PCA


def pca(
    M: np.ndarray,
    rank: int,
    *,
    svd_solver: SVDSolver = "auto",
    random_state: SeedLike = 0,
) -> RPCAResult:
    """PCA of the columns of ``M`` at a fixed rank: :math:`M = L + E` (eq. 1).

    Parameters
    ----------
    M : array_like, shape (d, N)
    rank : int
        Number of principal components, ``1 <= rank <= min(d, N)``.
    svd_solver : {"auto", "gram", "full", "randomized"}
        ``"gram"``: exact thin SVD through the eigendecomposition of the smaller Gram
        matrix; ``"full"``: LAPACK thin SVD; ``"randomized"``: Halko et al.
        randomized SVD. ``"auto"`` uses ``"gram"`` when ``min(d, N) <= 500``, else
        ``"randomized"`` when ``rank <= min(d, N)/10``, else ``"full"``.
    random_state : int, RandomState, Generator or None
        Seed for the randomized solver.

    Returns
    -------
    RPCAResult
        ``sparse`` is all zeros.

    Raises
    ------
    ValueError
        ``M`` not 2-D, empty or with NaN / inf entries; ``rank`` outside ``[1, min(d, N)]``;
        an unknown ``svd_solver``.
    TypeError
        Sparse, complex or non-numeric ``M``; a non-integer ``rank``; a bad ``random_state``.

    Notes
    -----
    Uncentred PCA (the difference matrix of :func:`difference_matrix` has zero column
    mean by construction):

    .. math:: L = U_k U_k^\\top M,\\qquad E = M - L,

    with :math:`U_k` the top-:math:`k` left singular vectors of :math:`M`.

    References
    ----------
    Shi, Sun & Hu (2018), eq. (1); Hotelling (1933).

    Examples
    --------
    >>> import numpy as np
    >>> M = np.random.default_rng(0).normal(size=(6, 20))
    >>> result = pca(M, 2)
    >>> result.components.shape, result.explained_variance_ratio.round(3)
    ((6, 2), array([0.286, 0.256]))
    >>> np.allclose(M, result.low_rank + result.noise)
    True
    """
    X = _check_matrix(M)
    k = _check_rank(rank, X.shape)
    check_choice(svd_solver, "svd_solver", _SVD_SOLVERS)
    seed = check_random_state(random_state, legacy=True)
    c = _scale_of(X)
    if c != 1.0:  # PCA is scale-invariant: decompose M at a power-of-two scale
        return _unscaled(pca(X * c, k, svd_solver=svd_solver, random_state=seed), c)
    U, _ = _top_left(X, k, svd_solver, seed)
    L = U @ (U.T @ X)
    return _result(
        "pca",
        U,
        X,
        low_rank=L,
        noise=X - L,
        sparse=np.zeros_like(X),
        n_iter=1,
        converged=True,
        trace=np.zeros(1),
        params={"svd_solver": svd_solver},
    )


# ----------------------------------------------------------------------------- Ex-RPCA


def ex_rpca(
    M: np.ndarray,
    rank: int,
    *,
    method: Literal["iterative", "alm"] = "iterative",
    max_iter: int | None = None,
    tol: float | None = None,
    n_sigma: float = 3.0,
    lambda1: float | None = None,
    lambda2: float | None = None,
    mu0: float | None = None,
    rho: float = 6.0,
    mu_max: float | None = None,
    eps: float = 1e-2,
    svt_rank: int | None = None,
    svd_solver: SVDSolver = "auto",
    random_state: SeedLike = 0,
    warn: bool = True,
) -> RPCAResult:
    """Extended robust PCA: :math:`M = L + E + S` with :math:`\\operatorname{rank} L \\le k`.

    Parameters
    ----------
    M : array_like, shape (d, N)
    rank : int
        Dimensionality :math:`k` of the low-rank term (``1 <= rank <= min(d, N)``).
    method : {"iterative", "alm"}
        ``"iterative"``: Algorithm 1 (repeated fixed-rank PCA with the 3-sigma mask of
        eq. 5). ``"alm"``: Algorithm 2, the inexact augmented Lagrangian method for the
        convex problem (4); its ``rank`` leading components are returned.
    max_iter : int, optional
        Iteration cap (default 100 for ``"iterative"``, ``ALM_MAX_ITER`` = 500 for ``"alm"``).
    tol : float, optional
        ``"iterative"``: stop when :math:`\\|S^{(t)}\\|_F \\le tol\\,\\|M\\|_F` (or no
        entry is masked), default ``1e-4``. ``"alm"``: stop when both the relative primal
        residual :math:`\\|M-L-E-S\\|_F/\\|M\\|_F` and the relative dual residual
        :math:`\\mu\\,\\|(\\Delta E + \\Delta S, \\Delta S)\\|_F/\\|Y\\|_F` (the change between
        iterates that violates the optimality of the L and E steps; Boyd et al. 2011, sec. 3.3)
        are <= ``tol`` (default ``ALM_TOL`` = 1e-6). A primal residual alone is not enough:
        with a growing penalty it falls fast while the iterates stall short of the optimum
        (the old rule stopped 1e-4 to 5e-3 away). With the defaults the sparse part is within
        1e-4 (relative) of a run converged to 1e-10 on a planted problem (tested); the final
        residuals are in ``params`` (``primal_residual``, ``dual_residual``) and a run that
        stops at ``max_iter`` has ``converged=False`` and warns.
    n_sigma : float
        Mask threshold in units of the standard deviation of :math:`E` (3 in eq. 5). For
        ``"alm"`` it sets the default ``lambda2`` (see Notes).
    lambda1, lambda2 : float, optional
        ``"alm"`` only: weights of :math:`\\|E\\|_F^2` and :math:`\\|S\\|_1` in eq. (4).
        Defaults: :math:`\\lambda_1 = 1/(2\\hat\\sigma(\\sqrt d+\\sqrt N))` and
        :math:`\\lambda_2 = n_\\sigma/(\\sqrt d+\\sqrt N)`, where :math:`\\hat\\sigma` is the
        robust (MAD) standard deviation of the rank-``rank`` PCA residual.
    mu0, rho, mu_max : float, optional
        ``"alm"`` only: initial penalty (default :math:`0.5/\\|\\operatorname{sgn}(M)\\|_2`,
        Algorithm 2 line 1), its growth factor (6, line 2) and cap (default
        ``ALM_MU_MAX_FACTOR`` :math:`\\mu_0 = 10\\mu_0`: a bounded penalty lets the iterates
        reach the optimum; with the former :math:`10^{10}\\mu_0` they stall next to it).
    eps : float
        ``"alm"`` only: :math:`\\epsilon` of eq. 19 (increase :math:`\\mu` by :math:`\\rho` when
        the relative change falls below it).
    svt_rank : int, optional
        ``"alm"`` only: number of singular triplets computed in the singular-value
        thresholding of eq. 15. Default: all (``min(d, N)``) when ``min(d, N) <= 500``, else
        ``10 * rank``. The returned ``low_rank`` is the part of :math:`L` along its top
        ``rank`` singular vectors (the remainder, if any, is added to ``noise``).
    svd_solver : {"auto", "gram", "full", "randomized"}
        See :func:`pca`. For ``"iterative"`` with the Gram solver the Gram matrix is
        updated incrementally with the sparse :math:`S^{(t)}` (exactly recomputed every
        10 iterations), so an iteration costs :math:`O(dN)`.
    random_state : int, RandomState, Generator or None
        Seed for the randomized solver.
    warn : bool
        Emit :class:`RPCAConvergenceWarning` when ``max_iter`` is reached.

    Returns
    -------
    RPCAResult
        ``M == low_rank + noise + sparse`` up to rounding (``"iterative"``) or up to the
        final primal residual (``"alm"``).

    Raises
    ------
    ValueError
        Bad ``M`` or ``rank`` (as in :func:`pca`); an unknown ``method`` or ``svd_solver``;
        ``max_iter < 1``, ``tol < 0``, ``n_sigma <= 0``, ``lambda1``, ``lambda2``, ``mu0``,
        ``mu_max`` or ``eps`` not > 0, ``rho < 1``, ``svt_rank < 1``.
    TypeError
        A parameter of the wrong type (e.g. ``tol="1e-4"``, ``warn="yes"``).

    Notes
    -----
    The non-convex problem (3) is

    .. math:: \\min_{L,E,S}\\ \\operatorname{rank}(L) + \\lambda_1\\|E\\|_F^2 + \\lambda_2\\|S\\|_0
              \\quad\\text{s.t.}\\ M = L + E + S.

    *Iterative* (Algorithm 1): with :math:`M^{(0)} = M`, :math:`S = 0`, repeat
    :math:`L^{(t)} + E^{(t)} = \\mathrm{PCA}_k(M^{(t)})`,
    :math:`P^{(t)}_{ij} = [|E^{(t)}_{ij}| > n_\\sigma\\sigma_{E^{(t)}}]` (eq. 5),
    :math:`S^{(t)} = P^{(t)}\\circ E^{(t)}` (eq. 6), :math:`S \\leftarrow S + S^{(t)}`,
    :math:`M^{(t+1)} = M^{(t)} - S^{(t)}`. At convergence the last, negligible
    :math:`S^{(t)}` is left in :math:`E` so that :math:`M = L + E + S` holds exactly.

    *ALM* (Algorithm 2) for the convex relaxation (4)

    .. math:: \\min_{L,E,S}\\ \\|L\\|_* + \\lambda_1\\|E\\|_F^2 + \\lambda_2\\|S\\|_1
              \\quad\\text{s.t.}\\ M = L + E + S,

    iterates :math:`L \\leftarrow D_{1/\\mu}(M - E - S + Y/\\mu)` (eq. 15, SVT), :math:`E \\leftarrow \\frac{\\mu}{\\mu+2\\lambda_1}(M - L - S
    + Y/\\mu)` (eq. 16), :math:`S \\leftarrow R_{\\lambda_2/\\mu}(M - L - E + Y/\\mu)` (eq. 17),
    :math:`Y \\leftarrow Y + \\mu(M - L - E - S)` (eq. 18) and :math:`\\mu \\leftarrow
    \\min(\\rho\\mu, \\mu_{max})` when :math:`\\sqrt\\mu\\|\\Delta E + \\Delta S\\|_F/\\|M\\|_F <
    \\epsilon` (eq. 19). Deviations from the printed equations, which contain typos:
    the argument of each proximal step omits the variable being updated (as the
    argmin in eqs. 15-17 implies), eq. 17 uses :math:`+Y/\\mu`, the variables start at
    zero instead of random values, and line 11 of Algorithm 2 (:math:`M^{(t+1)} =
    M^{(t)} - S^{(t)}`) is not applied because it would contradict the constraint of
    (4). At a fixed point :math:`Y = 2\\lambda_1 E`, so :math:`E` is clipped at
    :math:`\\lambda_2/(2\\lambda_1) = n_\\sigma\\hat\\sigma` with the default weights: the
    same 3-sigma rule as the iterative solution; its spectral norm off the low-rank
    space is at most :math:`1/(2\\lambda_1) = \\hat\\sigma(\\sqrt d + \\sqrt N)`, the size of
    a Gaussian noise matrix.

    For ``"alm"``, ``components`` are the top-``rank`` left singular vectors of the final SVT
    argument and ``low_rank`` is :math:`L` projected onto them.

    References
    ----------
    Shi, Sun & Hu (2018), §3.1-3.2, Algorithms 1-2, Appendix B.
    Wright et al. (2009), robust PCA; Lin, Liu & Su (2011), LADMAP (penalty schedule).

    Examples
    --------
    >>> import numpy as np
    >>> M = np.random.default_rng(0).normal(size=(6, 20))
    >>> result = ex_rpca(M, 2)
    >>> result.method, result.converged, result.rank
    ('iterative', True, 2)
    >>> np.allclose(M, result.low_rank + result.noise + result.sparse)
    True
    """
    X = _check_matrix(M)
    k = _check_rank(rank, X.shape)
    check_choice(method, "method", ("iterative", "alm"))
    n_sigma = check_float(n_sigma, "n_sigma", low=0, low_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1, allow_none=True)
    tol = check_float(tol, "tol", low=0, allow_none=True)
    lambda1 = check_float(lambda1, "lambda1", low=0, low_open=True, allow_none=True)
    lambda2 = check_float(lambda2, "lambda2", low=0, low_open=True, allow_none=True)
    mu0 = check_float(mu0, "mu0", low=0, low_open=True, allow_none=True)
    rho = check_float(rho, "rho", low=1)
    mu_max = check_float(mu_max, "mu_max", low=0, low_open=True, allow_none=True)
    eps = check_float(eps, "eps", low=0, low_open=True)
    svt_rank = check_int(svt_rank, "svt_rank", low=1, allow_none=True)
    check_choice(svd_solver, "svd_solver", _SVD_SOLVERS)
    seed = check_random_state(random_state, legacy=True)
    warn = check_bool(warn, "warn")
    if method == "iterative":
        c = _scale_of(X)
        if c != 1.0:  # the 3-sigma iteration is scale-invariant: run it at a power-of-two scale
            res = _ex_rpca_iterative(
                X * c,
                k,
                max_iter=100 if max_iter is None else int(max_iter),
                tol=1e-4 if tol is None else float(tol),
                n_sigma=float(n_sigma),
                svd_solver=svd_solver,
                random_state=seed,
                warn=warn,
            )
            return _unscaled(res, c)
        return _ex_rpca_iterative(
            X,
            k,
            max_iter=100 if max_iter is None else int(max_iter),
            tol=1e-4 if tol is None else float(tol),
            n_sigma=float(n_sigma),
            svd_solver=svd_solver,
            random_state=seed,
            warn=warn,
        )
    if _scale_of(X) != 1.0:
        # (4) is equivariant under M -> c M, lambda1 -> lambda1 / c, but the ALM's default
        # mu0 = 0.5 / ||sgn M||_2 and eq. 19 are not: its path is not scale-invariant, so M is
        # not rescaled for the caller
        raise overflow_error(
            "M",
            "the ALM's products (Gram matrix, norms) of M",
            max_abs(X),
            fix="its squares leave the float64 range and the ALM is not scale-invariant "
            "(mu0 is absolute): rescale M (and lambda1 by the inverse factor), or use "
            "method='iterative', which rescales",
        )
    return _ex_rpca_alm(
        X,
        k,
        max_iter=ALM_MAX_ITER if max_iter is None else int(max_iter),
        tol=ALM_TOL if tol is None else float(tol),
        n_sigma=float(n_sigma),
        lambda1=lambda1,
        lambda2=lambda2,
        mu0=mu0,
        rho=float(rho),
        mu_max=mu_max,
        eps=float(eps),
        svt_rank=svt_rank,
        svd_solver=svd_solver,
        random_state=seed,
        warn=warn,
    )


def _ex_rpca_iterative(
    X: np.ndarray,
    k: int,
    *,
    max_iter: int,
    tol: float,
    n_sigma: float,
    svd_solver: str,
    random_state: int | None,
    warn: bool,
) -> RPCAResult:
    d, n = X.shape
    solver = _resolve_solver(svd_solver, X.shape, k)
    incremental = solver == "gram" and d <= n
    norm_m = float(np.linalg.norm(X))
    if norm_m == 0:
        raise ValueError("M is all zeros: nothing to decompose")
    Mt = X.copy()
    S = np.zeros_like(X)
    G = Mt @ Mt.T if incremental else None
    trace: list[float] = []
    converged = False
    U = np.zeros((d, k))
    L = np.zeros_like(X)
    E = np.zeros_like(X)
    t = 0
    for t in range(1, max_iter + 1):
        if incremental and 2 * k > d:
            # most of the space is kept: project on the (smaller) complement instead
            assert G is not None
            if t % 10 == 0:
                G = Mt @ Mt.T
            w, V = scipy.linalg.eigh(G)
            order = np.argsort(w)[::-1]
            U = _fix_signs(np.ascontiguousarray(V[:, order[:k]]))
            Uc = V[:, order[k:]]
            E = Uc @ (Uc.T @ Mt)
            L = Mt - E
        else:
            if incremental:
                assert G is not None
                if t % 10 == 0:
                    G = Mt @ Mt.T
                U, _ = _top_left_from_gram(G, k)
                U = _fix_signs(U)
            else:
                U, _ = _top_left(X=Mt, k=k, solver=solver, random_state=random_state)
            L = U @ (U.T @ Mt)
            E = Mt - L
        sigma = float(E.std())
        rows, cols = np.nonzero(np.abs(E) > n_sigma * sigma)
        vals = E[rows, cols]
        rel = float(np.linalg.norm(vals)) / norm_m
        trace.append(rel)
        logger.debug("ex_rpca iterative t=%d masked=%d rel=%.3g", t, vals.size, rel)
        if vals.size == 0 or rel <= tol:
            converged = True
            break
        S[rows, cols] += vals
        Mt[rows, cols] -= vals
        if incremental:
            assert G is not None
            St = sp.csr_matrix((vals, (rows, cols)), shape=X.shape)
            A = np.asarray(St @ Mt.T)
            G = G - A - A.T - (St @ St.T).toarray()
    if not converged and warn:
        _warn_not_converged(
            "iterative",
            max_iter,
            f"last ||S(t)||_F/||M||_F = {trace[-1]:.3g} > tol={tol:g}; increase max_iter or tol",
        )
    return _result(
        "iterative",
        U,
        Mt,
        low_rank=L,
        noise=E,
        sparse=S,
        n_iter=t,
        converged=converged,
        trace=trace,
        params={"n_sigma": n_sigma, "tol": tol, "max_iter": max_iter, "svd_solver": solver},
    )


def _robust_sigma(R: np.ndarray) -> float:
    med = float(np.median(R))
    return 1.4826 * float(np.median(np.abs(R - med)))


def _ex_rpca_alm(
    X: np.ndarray,
    k: int,
    *,
    max_iter: int,
    tol: float,
    n_sigma: float,
    lambda1: float | None,
    lambda2: float | None,
    mu0: float | None,
    rho: float,
    mu_max: float | None,
    eps: float,
    svt_rank: int | None,
    svd_solver: str,
    random_state: int | None,
    warn: bool,
) -> RPCAResult:
    d, n = X.shape
    norm_m = float(np.linalg.norm(X))
    if norm_m == 0:
        raise ValueError("M is all zeros: nothing to decompose")
    scale = math.sqrt(d) + math.sqrt(n)
    if lambda1 is None:
        U0, _ = _top_left(X, k, svd_solver, random_state)
        sigma_hat = _robust_sigma(X - U0 @ (U0.T @ X))
        if sigma_hat <= 0:
            sigma_hat = float(np.std(X - U0 @ (U0.T @ X))) or 1e-12
        lambda1 = 1.0 / (2.0 * sigma_hat * scale)
    if lambda2 is None:
        lambda2 = n_sigma / scale
    if not (lambda1 > 0 and lambda2 > 0):
        raise ValueError(f"lambda1 and lambda2 must be positive, got {lambda1}, {lambda2}")
    if rho < 1:
        raise ValueError(f"rho must be >= 1, got {rho}")
    if mu0 is None:
        _, s_sign = _top_left(np.sign(X), 1, svd_solver, random_state)
        mu0 = 0.5 / float(s_sign[0])
    if not mu0 > 0:
        raise ValueError(f"mu0 must be positive, got {mu0}")
    mu_cap = ALM_MU_MAX_FACTOR * mu0 if mu_max is None else float(mu_max)
    if svt_rank is None:
        k_svt = min(d, n) if min(d, n) <= 500 else min(min(d, n), 10 * k)
    else:
        k_svt = max(k, min(int(svt_rank), d, n))
    mu = float(mu0)
    L = np.zeros_like(X)
    E = np.zeros_like(X)
    S = np.zeros_like(X)
    Y = np.zeros_like(X)
    U = np.zeros((d, k))
    trace: list[float] = []
    converged = False
    primal = dual = math.inf
    t = 0
    for t in range(1, max_iter + 1):
        # eq. (15): singular-value thresholding (of the top k_svt singular values)
        R = X - E - S + Y / mu
        U, s = _top_left(R, k_svt, svd_solver, random_state)
        C = U.T @ R  # = diag(s) V^T
        s_shr = np.maximum(s - 1.0 / mu, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            factor = np.where(s > 0, s_shr / np.where(s > 0, s, 1.0), 0.0)
        L = U @ (factor[:, None] * C)
        # eq. (16)
        E_new = (mu / (mu + 2.0 * lambda1)) * (X - L - S + Y / mu)
        # eq. (17): soft thresholding
        R = X - L - E_new + Y / mu
        S_new = np.sign(R) * np.maximum(np.abs(R) - lambda2 / mu, 0.0)
        Z = X - L - E_new - S_new
        # eq. (18)
        Y += mu * Z
        step = float(np.linalg.norm(E_new + S_new - E - S))
        change = math.sqrt(mu) * step / norm_m
        primal = float(np.linalg.norm(Z)) / norm_m
        # dual residual of the L and E steps (Boyd et al. 2011, sec. 3.3): their optimality
        # conditions at the new iterate are violated by mu (dE + dS) and mu dS
        dual_abs = mu * math.hypot(step, float(np.linalg.norm(S_new - S)))
        dual = dual_abs / max(float(np.linalg.norm(Y)), np.finfo(np.float64).tiny)
        E, S = E_new, S_new
        trace.append(primal)
        logger.debug(
            "ex_rpca alm t=%d primal=%.3g dual=%.3g change=%.3g mu=%.3g",
            t,
            primal,
            dual,
            change,
            mu,
        )
        if primal <= tol and dual <= tol:
            converged = True
            break
        # eq. (19)
        if change < eps:
            mu = min(rho * mu, mu_cap)
    if not converged and warn:
        _warn_not_converged(
            "ALM",
            max_iter,
            f"relative primal residual {primal:.3g}, relative dual residual {dual:.3g} "
            f"(tol={tol:g}); the result is not the optimum of (4). Increase max_iter or tol, "
            "or adjust lambda1/lambda2.",
        )
    # keep the top-k part of L (its column space is spanned by the components); any
    # remainder of higher rank is moved to E so that M = L + E + S still holds
    Uk = _fix_signs(np.ascontiguousarray(U[:, :k]))
    Lk = Uk @ (Uk.T @ L)
    E = E + (L - Lk)
    L = Lk
    return _result(
        "alm",
        Uk,
        X - S,
        low_rank=L,
        noise=E,
        sparse=S,
        n_iter=t,
        converged=converged,
        trace=trace,
        params={
            "lambda1": float(lambda1),
            "lambda2": float(lambda2),
            "mu0": float(mu0),
            "mu": mu,
            "eps": eps,
            "svt_rank": k_svt,
            "rho": rho,
            "tol": tol,
            "max_iter": max_iter,
            "primal_residual": primal,
            "dual_residual": dual,
        },
    )
