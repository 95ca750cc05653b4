"""PCA and Extended Robust PCA (Ex-RPCA) of sense-wise difference matrices.

Implements Shi, Sun & Hu (2018), *Understanding and Improving Multi-Sense Word
Embeddings via Extended Robust Principal Component Analysis*:

* :func:`difference_matrix` -- the sense-wise difference matrix :math:`M` of §2;
* :func:`pca` -- :math:`M = L + E` at a fixed rank (eq. 1);
* :func:`ex_rpca` -- :math:`M = L + E + S` either by the iterative 3-sigma solution
  (Algorithm 1, eqs. 5-6) or by the inexact augmented Lagrangian method for the
  convex problem (4) (Algorithm 2, Appendix B, eqs. 12-19);
* :func:`elimination_map` / :func:`eliminate_pseudo_senses` -- the linear map of
  §3.3 / Appendix A that sends the chosen components to zero and fixes their
  orthogonal complement;
* :func:`make_planted` and :func:`support_scores` -- planted-structure problems and
  their scoring, used by the tests, the notebooks and ``bench/bench_rpca.py``.

Matrices are oriented as in the paper: one column per sense pair, one row per
embedding dimension, so ``M`` is ``d x N`` and the principal components are
``d``-dimensional (columns of ``components``).
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.extmath import randomized_svd

if TYPE_CHECKING:  # pragma: no cover
    from workbench.embeddings import MultiSenseVectors

__all__ = [
    "RPCAConvergenceWarning",
    "RPCAResult",
    "PlantedProblem",
    "difference_matrix",
    "pca",
    "ex_rpca",
    "elimination_map",
    "eliminate_pseudo_senses",
    "make_planted",
    "support_scores",
    "principal_angles",
    "pca_sparse_support",
]

logger = logging.getLogger(__name__)

SVDSolver = Literal["auto", "gram", "full", "randomized"]
SenseLabel = tuple[str, int, int]


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


@dataclass(frozen=True)
class PlantedProblem:
    """A planted ``M = low_rank + noise + sparse`` with known parts (see :func:`make_planted`)."""

    M: np.ndarray
    low_rank: np.ndarray
    noise: np.ndarray
    sparse: np.ndarray
    components: np.ndarray

    @property
    def support(self) -> np.ndarray:
        """Boolean mask of the planted sparse entries."""
        return self.sparse != 0


# ----------------------------------------------------------------------------- validation


def _check_matrix(M: Any, name: str = "M") -> np.ndarray:
    if sp.issparse(M):
        raise TypeError(f"{name} must be a dense array (the difference matrix is dense)")
    arr = np.asarray(M)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (d x N), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): nothing to decompose")
    if not np.issubdtype(arr.dtype, np.number) or np.iscomplexobj(arr):
        raise TypeError(f"{name} must be a real numeric array, got dtype {arr.dtype}")
    arr = np.asarray(arr, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} contains NaN or infinite values (first at row {bad[0]}, column {bad[1]})"
        )
    return arr


def _check_rank(rank: Any, shape: tuple[int, int]) -> int:
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)):
        raise TypeError(f"rank must be an integer, got {rank!r}")
    rank = int(rank)
    d, n = shape
    if rank < 1:
        raise ValueError(f"rank must be >= 1, got {rank}")
    if rank > d:
        raise ValueError(
            f"rank={rank} exceeds the dimension d={d} of the vectors (rows of M); "
            f"choose rank <= {min(d, n)}"
        )
    if rank > n:
        raise ValueError(f"rank={rank} exceeds the number of columns N={n} of M")
    return rank


# ----------------------------------------------------------------------------- SVD helpers


def _fix_signs(U: np.ndarray) -> np.ndarray:
    idx = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[idx, np.arange(U.shape[1])])
    signs[signs == 0] = 1.0
    return U * signs


def _resolve_solver(solver: str, shape: tuple[int, int], k: int) -> str:
    if solver not in ("auto", "gram", "full", "randomized"):
        raise ValueError(
            f"svd_solver must be 'auto', 'gram', 'full' or 'randomized', got {solver!r}"
        )
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


# ----------------------------------------------------------------------------- difference matrix


def difference_matrix(
    msv: MultiSenseVectors, words: Iterable[str] | None = None
) -> tuple[np.ndarray, list[SenseLabel]]:
    """Sense-wise difference matrix of §2 with one label per column.

    For every word :math:`w` with :math:`n_w \\ge 2` senses, the columns are, in order,
    :math:`v_1-v_2, v_2-v_1, v_1-v_3, v_3-v_1, \\dots, v_{n_w-1}-v_{n_w}, v_{n_w}-v_{n_w-1}`
    (both orders of every pair, pairs in lexicographic order), so the matrix has
    :math:`\\sum_w n_w(n_w-1)` columns and a zero column mean.

    Parameters
    ----------
    msv : MultiSenseVectors
    words : iterable of str, optional
        Words to include, in this order. Default: every word of ``msv`` with at least
        two senses (words with one sense contribute no columns and are skipped).
        Explicitly listed words must exist and have at least two senses.

    Returns
    -------
    M : ndarray, shape (d, N)
    labels : list of (word, sense_a, sense_b)
        Column ``j`` is ``sense_vectors(word)[sense_a] - sense_vectors(word)[sense_b]``
        (0-based sense ids, as in the paper's tables).

    Raises
    ------
    KeyError
        A listed word is not in ``msv``.
    ValueError
        A listed word has a single sense (no columns), no word yields a column, or a
        sense vector contains NaN/inf.

    References
    ----------
    Shi, Sun & Hu (2018), §2.
    """
    explicit = words is not None
    word_list = list(msv.words) if words is None else list(words)
    if explicit and isinstance(words, str):
        raise TypeError("words must be an iterable of words, not a single string")
    blocks: list[np.ndarray] = []
    labels: list[SenseLabel] = []
    dim: int | None = None
    for w in word_list:
        if explicit and w not in msv:
            raise KeyError(f"word {w!r} is not in the multi-sense vectors")
        senses = np.asarray(msv.sense_vectors(w), dtype=np.float64)
        k = senses.shape[0]
        if k < 2:
            if explicit:
                raise ValueError(
                    f"word {w!r} has only {k} sense: it contributes no columns to the "
                    "difference matrix"
                )
            continue
        if not np.all(np.isfinite(senses)):
            raise ValueError(f"sense vectors of word {w!r} contain NaN or infinite values")
        dim = senses.shape[1]
        a, b = np.triu_indices(k, 1)
        first = np.empty(2 * a.size, dtype=np.intp)
        second = np.empty(2 * a.size, dtype=np.intp)
        first[0::2], first[1::2] = a, b
        second[0::2], second[1::2] = b, a
        blocks.append((senses[first] - senses[second]).T)
        labels.extend((w, int(i), int(j)) for i, j in zip(first, second))
    if not blocks:
        raise ValueError(
            "no word has two or more senses: the difference matrix would have no columns"
        )
    assert dim is not None
    return np.ascontiguousarray(np.hstack(blocks)), labels


# ----------------------------------------------------------------------------- PCA


def pca(
    M: np.ndarray,
    rank: int,
    *,
    svd_solver: SVDSolver = "auto",
    random_state: int | None = 0,
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
    random_state : int or None
        Seed for the randomized solver.

    Returns
    -------
    RPCAResult
        ``sparse`` is all zeros.

    Notes
    -----
    Uncentred PCA (the difference matrix of :func:`difference_matrix` has zero column
    mean by construction):

    .. math:: L = U_k U_k^\\top M,\\qquad E = M - L,

    with :math:`U_k` the top-:math:`k` left singular vectors of :math:`M`.

    References
    ----------
    Shi, Sun & Hu (2018), eq. (1); Hotelling (1933).
    """
    X = _check_matrix(M)
    k = _check_rank(rank, X.shape)
    U, _ = _top_left(X, k, svd_solver, random_state)
    L = U @ (U.T @ X)
    s, ratio = _explained(U, X)
    return RPCAResult(
        low_rank=L,
        noise=X - L,
        sparse=np.zeros_like(X),
        components=U,
        singular_values=s,
        explained_variance_ratio=ratio,
        n_iter=1,
        converged=True,
        trace=np.zeros(1),
        method="pca",
        rank=k,
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
    random_state: int | None = 0,
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
        Iteration cap (default 100 for ``"iterative"``, 500 for ``"alm"``).
    tol : float, optional
        ``"iterative"``: stop when :math:`\\|S^{(t)}\\|_F \\le tol\\,\\|M\\|_F` (or no
        entry is masked), default ``1e-4``. ``"alm"``: stop when the relative primal
        residual :math:`\\|M-L-E-S\\|_F/\\|M\\|_F` falls below ``tol`` (default
        ``1e-6``; the stopping rule of the inexact ALM of Lin, Chen & Ma 2010).
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
        Algorithm 2 line 1), its growth factor (6, line 2) and cap
        (default :math:`10^{10}\\mu_0`).
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
    random_state : int or None
        Seed for the randomized solver.
    warn : bool
        Emit :class:`RPCAConvergenceWarning` when ``max_iter`` is reached.

    Returns
    -------
    RPCAResult
        ``M == low_rank + noise + sparse`` up to rounding (``"iterative"``) or up to the
        final primal residual (``"alm"``).

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
    """
    X = _check_matrix(M)
    k = _check_rank(rank, X.shape)
    if method not in ("iterative", "alm"):
        raise ValueError(f"method must be 'iterative' or 'alm', got {method!r}")
    if not (np.isfinite(n_sigma) and n_sigma > 0):
        raise ValueError(f"n_sigma must be positive, got {n_sigma}")
    if max_iter is not None and (int(max_iter) < 1):
        raise ValueError(f"max_iter must be >= 1, got {max_iter}")
    if tol is not None and not tol >= 0:
        raise ValueError(f"tol must be >= 0, got {tol}")
    if method == "iterative":
        return _ex_rpca_iterative(
            X,
            k,
            max_iter=100 if max_iter is None else int(max_iter),
            tol=1e-4 if tol is None else float(tol),
            n_sigma=float(n_sigma),
            svd_solver=svd_solver,
            random_state=random_state,
            warn=warn,
        )
    return _ex_rpca_alm(
        X,
        k,
        max_iter=500 if max_iter is None else int(max_iter),
        tol=1e-6 if tol is None else float(tol),
        n_sigma=float(n_sigma),
        lambda1=lambda1,
        lambda2=lambda2,
        mu0=mu0,
        rho=float(rho),
        mu_max=mu_max,
        eps=float(eps),
        svt_rank=svt_rank,
        svd_solver=svd_solver,
        random_state=random_state,
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
        warnings.warn(
            f"Ex-RPCA (iterative) did not converge in max_iter={max_iter} iterations: "
            f"last ||S(t)||_F/||M||_F = {trace[-1]:.3g} > tol={tol:g}; increase max_iter "
            "or tol",
            RPCAConvergenceWarning,
            stacklevel=3,
        )
    s, ratio = _explained(U, Mt)
    return RPCAResult(
        low_rank=L,
        noise=E,
        sparse=S,
        components=U,
        singular_values=s,
        explained_variance_ratio=ratio,
        n_iter=t,
        converged=converged,
        trace=np.asarray(trace),
        method="iterative",
        rank=k,
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
    mu_cap = 1e10 * mu0 if mu_max is None else float(mu_max)
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
        change = math.sqrt(mu) * float(np.linalg.norm(E_new + S_new - E - S)) / norm_m
        primal = float(np.linalg.norm(Z)) / norm_m
        E, S = E_new, S_new
        trace.append(primal)
        logger.debug("ex_rpca alm t=%d primal=%.3g change=%.3g mu=%.3g", t, primal, change, mu)
        if primal < tol:
            converged = True
            break
        # eq. (19)
        if change < eps:
            mu = min(rho * mu, mu_cap)
    if not converged and warn:
        warnings.warn(
            f"Ex-RPCA (ALM) did not converge in max_iter={max_iter} iterations: relative "
            f"primal residual {trace[-1]:.3g} (tol={tol:g}); results may be inaccurate. "
            "Increase max_iter or tol, or adjust lambda1/lambda2.",
            RPCAConvergenceWarning,
            stacklevel=3,
        )
    # keep the top-k part of L (its column space is spanned by the components); any
    # remainder of higher rank is moved to E so that M = L + E + S still holds
    Uk = _fix_signs(np.ascontiguousarray(U[:, :k]))
    Lk = Uk @ (Uk.T @ L)
    E = E + (L - Lk)
    L = Lk
    Mc = X - S
    s_exp, ratio = _explained(Uk, Mc)
    return RPCAResult(
        low_rank=L,
        noise=E,
        sparse=S,
        components=Uk,
        singular_values=s_exp,
        explained_variance_ratio=ratio,
        n_iter=t,
        converged=converged,
        trace=np.asarray(trace),
        method="alm",
        rank=k,
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
        },
    )


# ----------------------------------------------------------------------------- elimination


def elimination_map(components: np.ndarray) -> np.ndarray:
    """The linear map :math:`T` of §3.3 / Appendix A.

    :math:`T x = 0` for :math:`x` in the span :math:`W` of ``components`` and
    :math:`T x = x` for :math:`x \\perp W`.

    Parameters
    ----------
    components : array_like, shape (d, k)
        Columns spanning :math:`W` (orthonormalised here if they are not).

    Returns
    -------
    T : ndarray, shape (d, d)

    Notes
    -----
    With :math:`A` the orthogonal matrix whose first :math:`k` rows are an orthonormal
    basis :math:`\\alpha_1,\\dots,\\alpha_k` of :math:`W`, Appendix A's unique solution
    :math:`T_i = A^{-1}c_i` equals the orthogonal projector onto :math:`W^\\perp`:

    .. math:: T = I - Q Q^\\top,\\qquad Q = (\\alpha_1,\\dots,\\alpha_k).

    References
    ----------
    Shi, Sun & Hu (2018), §3.3, eq. (7)-(11).
    """
    C = np.asarray(components, dtype=np.float64)
    if C.ndim == 1:
        C = C[:, None]
    if C.ndim != 2 or C.shape[1] == 0:
        raise ValueError(f"components must be a (d, k) array with k >= 1, got {C.shape}")
    if not np.all(np.isfinite(C)):
        raise ValueError("components contain NaN or infinite values")
    d, k = C.shape
    if k > d:
        raise ValueError(f"{k} components exceed the dimension d={d}")
    Q, R = np.linalg.qr(C)
    diag = np.abs(np.diag(R))
    if diag.size and diag.min() <= 1e-10 * max(diag.max(), 1e-300):
        raise ValueError("components are linearly dependent (rank-deficient)")
    return np.eye(d) - Q @ Q.T


def eliminate_pseudo_senses(
    msv: MultiSenseVectors,
    components: np.ndarray,
    *,
    transform_global: bool = False,
) -> MultiSenseVectors:
    """Apply :func:`elimination_map` to every sense vector (eq. 7).

    Parameters
    ----------
    msv : MultiSenseVectors
    components : array_like, shape (d, k)
        Principal components to remove (e.g. ``ex_rpca(...).components`` or its first
        columns).
    transform_global : bool
        Also transform the global vectors (default False: as in the paper, only the sense
        vectors :math:`v_s^w` are mapped; global vectors and context centres, which select
        senses, are unchanged).

    Returns
    -------
    MultiSenseVectors
        New object; ``msv`` is unchanged.
    """
    from workbench.embeddings import MultiSenseVectors

    T = elimination_map(components)
    words = list(msv.words)
    if T.shape[0] != np.asarray(msv.sense_vectors(words[0])).shape[1]:
        raise ValueError(
            f"components have dimension {T.shape[0]} but the vectors have dimension "
            f"{np.asarray(msv.sense_vectors(words[0])).shape[1]}"
        )
    senses = [np.asarray(msv.sense_vectors(w), dtype=np.float64) @ T.T for w in words]
    centers = [np.asarray(msv.context_centers(w), dtype=np.float64) for w in words]
    glob = np.asarray(msv.as_word_vectors().vectors, dtype=np.float64)
    if transform_global:
        glob = glob @ T.T
    return MultiSenseVectors(words, glob, senses, centers)


# ----------------------------------------------------------------------------- planted problems


def make_planted(
    n_rows: int,
    n_cols: int,
    rank: int,
    *,
    signal: float = 1.0,
    noise: float = 0.05,
    sparse_fraction: float = 0.02,
    sparse_scale: float = 2.0,
    random_state: int | np.random.Generator | None = 0,
) -> PlantedProblem:
    """Planted ``M = L0 + G + S0`` with known parts.

    ``L0 = U diag(s) W^T`` with a random orthonormal ``U`` (``n_rows x rank``), singular
    values ``signal * sqrt(n_cols) * (1, 0.8, 0.6, ...)``-like decreasing (so columns of
    ``L0`` have norm about ``signal``); ``G`` i.i.d. Gaussian with standard deviation
    ``noise``; ``S0`` has a uniformly random support of ``sparse_fraction`` of the
    entries with values ``± sparse_scale * U(1, 2)``.
    """
    rng = np.random.default_rng(random_state)
    if not 1 <= rank <= min(n_rows, n_cols):
        raise ValueError(f"rank must be in [1, {min(n_rows, n_cols)}], got {rank}")
    if not 0 <= sparse_fraction < 1:
        raise ValueError(f"sparse_fraction must be in [0, 1), got {sparse_fraction}")
    U, _ = np.linalg.qr(rng.standard_normal((n_rows, rank)))
    U = _fix_signs(U)
    weights = np.linspace(1.0, 0.5, rank)
    coef = rng.standard_normal((rank, n_cols)) * (signal * weights / math.sqrt(rank))[:, None]
    L0 = U @ coef
    G = rng.standard_normal((n_rows, n_cols)) * noise
    S0 = np.zeros((n_rows, n_cols))
    n_sparse = int(round(sparse_fraction * n_rows * n_cols))
    if n_sparse:
        idx = rng.choice(n_rows * n_cols, size=n_sparse, replace=False)
        vals = sparse_scale * rng.uniform(1.0, 2.0, n_sparse) * rng.choice([-1.0, 1.0], n_sparse)
        S0.flat[idx] = vals
    return PlantedProblem(M=L0 + G + S0, low_rank=L0, noise=G, sparse=S0, components=U)


def principal_angles(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Principal angles (radians, decreasing) between the column spaces of ``A`` and ``B``."""
    return np.asarray(scipy.linalg.subspace_angles(np.asarray(A), np.asarray(B)))


def support_scores(
    estimated: np.ndarray, true_support: np.ndarray, *, atol: float = 0.0
) -> tuple[float, float]:
    """Precision and recall of the support ``|estimated| > atol`` against a boolean mask."""
    est = np.abs(np.asarray(estimated)) > atol
    truth = np.asarray(true_support, dtype=bool)
    if est.shape != truth.shape:
        raise ValueError(f"shape mismatch: {est.shape} vs {truth.shape}")
    tp = float(np.sum(est & truth))
    precision = tp / float(est.sum()) if est.any() else 0.0
    recall = tp / float(truth.sum()) if truth.any() else 1.0
    return precision, recall


def pca_sparse_support(result: RPCAResult, *, n_sigma: float = 3.0) -> np.ndarray:
    """Baseline sparse estimate for PCA: residual entries beyond ``n_sigma`` standard deviations."""
    E = result.noise
    return np.where(np.abs(E) > n_sigma * E.std(), E, 0.0)
