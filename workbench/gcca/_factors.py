r"""MVLSA by parts: one view's truncated SVD (:func:`view_factor`) and the shared space of any
selection of such factors (:func:`combine_factors`, :class:`StackedFactors`).

:meth:`MVLSA.fit` computes every view's rank-``m`` SVD and combines them in one call. A study that
fits many configurations over the same views -- a tuning path over the regularization, the
views that take part, or ``k`` -- computes each view's factor once and combines selections of
them; the result equals :meth:`MVLSA.fit` with ``min_view_support=0`` and the same per-view
random streams (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workbench._typing import Matrix, SeedLike
from workbench._validation import check_bool, check_choice, check_float, check_int

from ._linalg import _lowdin, _scipy_lapack_one_thread, _top_eigh, fix_signs
from ._mvlsa import MVLSA
from ._svd import SVD_METHODS, truncated_svd

__all__ = ["StackedFactors", "ViewFactor", "combine_factors", "view_factor"]


@dataclass(frozen=True, eq=False)
class ViewFactor:
    """Rank-``m`` SVD of one centred (weighted) view on its observed rows.

    Attributes
    ----------
    name : str
        The view's name.
    rows : ndarray of int
        Indices (into the ``N`` rows) of the view's observed rows.
    weights : ndarray
        Their eq. (12) row weights (ones without row weighting).
    U : ndarray, shape (len(rows), m)
        Left singular vectors.
    s : ndarray, shape (m,)
        Singular values, descending.
    complete : bool
        True when ``m`` is the view's whole numerical rank (no larger factor exists).
    """

    name: str
    rows: np.ndarray
    weights: np.ndarray
    U: np.ndarray
    s: np.ndarray
    complete: bool = False

    def sliced(self, m: int) -> ViewFactor:
        """The leading ``m`` singular triplets (``self`` when it has no more than ``m``)."""
        if m >= self.s.size:
            return self
        return ViewFactor(
            self.name, self.rows, self.weights, self.U[:, :m], self.s[:m], self.complete
        )


def view_factor(
    matrix: Matrix,
    m: int,
    *,
    observed: np.ndarray | None = None,
    name: str = "view",
    row_weighting: str | None = None,
    random_state: SeedLike = None,
    n_iter: int = 5,
    svd_solver: str = "randomized",
) -> ViewFactor:
    """The rank-``m`` truncated SVD of one view, centred (and row-weighted) as :class:`MVLSA`
    takes it.

    Parameters
    ----------
    matrix : array or sparse matrix, shape (N, d)
        The (preprocessed) view.
    m : int
        Rank (clamped to the number of observed rows and to ``d``).
    observed : bool array of shape (N,), optional
        The view's observed rows (default: all).
    name : str
        Carried into the result.
    row_weighting : {None, "glove"}
        As :class:`MVLSA`'s.
    random_state : int, Generator, RandomState or None
        Seeds the randomized SVD.
    n_iter, svd_solver :
        As :func:`truncated_svd`'s ``n_iter`` and ``method``.

    Returns
    -------
    ViewFactor

    Raises
    ------
    ValueError
        ``m < 1``, an unknown ``svd_solver``, a view with fewer than two observed rows, or a
        view whose centred matrix is all zeros (rank 0).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(20, 6))
    >>> f = view_factor(x, 3, name="x", random_state=0, svd_solver="dense")
    >>> f.U.shape, f.s.size, f.complete
    ((20, 3), 3, False)
    """
    m = check_int(m, "m", low=1)
    check_choice(svd_solver, "svd_solver", SVD_METHODS)
    n_iter = check_int(n_iter, "n_iter", low=0)
    est = MVLSA(1, view_rank=m, row_weighting=row_weighting)
    prep = est._prepare([matrix], None if observed is None else [observed])
    x, rows, w = prep.view_rows(0)
    res = truncated_svd(
        x,
        int(min(m, rows.size, x.shape[1])),
        center=True,
        row_weights=None if est._weighting() is None else w,
        method=svd_solver,
        n_iter=n_iter,
        random_state=random_state,
    )
    if res.s.size == 0:
        raise ValueError(f"view {name} has rank 0 (after centring it is all zeros)")
    complete = res.s.size < m  # the view's whole (numerical) rank: no larger m exists
    s = np.asarray(res.s) / float(prep.scales[0])  # undo the overflow guard's power of two
    return ViewFactor(name, rows, w, np.asarray(res.U), s, complete)


def _check_factors(factors: object, n_rows: int) -> list[ViewFactor]:
    if isinstance(factors, (str, bytes)) or not isinstance(factors, Sequence):
        raise TypeError(f"factors must be a sequence of ViewFactor, got {type(factors).__name__}")
    if not factors:
        raise ValueError("no view factor to combine")
    for f in factors:
        if not isinstance(f, ViewFactor):
            raise TypeError(f"factors entries must be ViewFactor, got {type(f).__name__}")
        if f.rows.size and int(f.rows.max()) >= n_rows:
            raise ValueError(
                f"n_rows={n_rows} is too small: factor {f.name!r} has row {int(f.rows.max())}"
            )
    return list(factors)


@dataclass(frozen=True, eq=False)
class StackedFactors:
    r""":math:`C^{-1/2} [D_1 A_1, \dots, D_J A_J]` on the rows observed in some view.

    The regularization enters as a column scaling :math:`T`, so one Gram matrix serves every
    :math:`r`: :math:`\tilde M^\top \tilde M = T (S^\top S) T` -- :meth:`gram` once, then
    :meth:`shrinkage`, :meth:`eig` and :meth:`embedding` per regularization and ``k``.
    """

    stack: np.ndarray
    kept: np.ndarray
    n_rows: int
    svals: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, factors: Sequence[ViewFactor], n_rows: int) -> StackedFactors:
        """Stack ``factors`` (views over ``n_rows`` rows)."""
        n_rows = check_int(n_rows, "n_rows", low=1)
        factors = _check_factors(factors, n_rows)
        c = np.zeros(n_rows)
        for f in factors:
            c[f.rows] += f.weights**2
        kept = np.flatnonzero(c > 0)
        pos = np.full(n_rows, -1)
        pos[kept] = np.arange(kept.size)
        inv_sqrt_c = 1.0 / np.sqrt(c[kept])
        widths = [f.s.size for f in factors]
        stack = np.zeros((kept.size, sum(widths)), order="F")
        off = 0
        for f, mj in zip(factors, widths):
            scale = f.weights * inv_sqrt_c[pos[f.rows]]
            stack[pos[f.rows], off : off + mj] = f.U * scale[:, None]
            off += mj
        return cls(stack, kept, n_rows, tuple(f.s for f in factors))

    def shrinkage(self, regularization: float, relative: bool) -> np.ndarray:
        r""":math:`T = S (S^2 + r_j)^{-1/2}` of every stacked column (:math:`r_j = \rho s_{j,1}^2`
        when ``relative``)."""
        parts = []
        for s in self.svals:
            r_j = regularization * float(s[0]) ** 2 if relative else regularization
            parts.append(s / np.sqrt(s**2 + r_j))
        return np.concatenate(parts)

    def gram(self) -> np.ndarray:
        """The stack's Gram matrix (symmetrised)."""
        g = self.stack.T @ self.stack
        g += g.T
        g *= 0.5
        return g

    def eig(
        self, t: np.ndarray, n_components: int, gram: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``n_components`` eigenpairs of :math:`T G T` (descending)."""
        if n_components > t.size:
            raise ValueError(
                f"n_components={n_components} exceeds the stacked rank {t.size}; lower it"
            )
        def scaled() -> np.ndarray:
            # T G T in one Fortran-ordered temporary, whose lower triangle holds
            # (G_ij t_i) t_j for i >= j: the values LAPACK reads, rounded as before
            h = gram * t[None, :]
            h *= t[:, None]
            return h.T

        with _scipy_lapack_one_thread():
            lam, vec, n_pos = _top_eigh(scaled(), n_components, np.finfo(np.float64).eps,
                                        scratch=scaled)  # fmt: skip
        if n_pos < n_components:
            raise ValueError(f"the views span only {n_pos} shared directions; lower n_components")
        return lam, vec

    def embedding(
        self,
        t: np.ndarray,
        n_components: int,
        gram: np.ndarray,
        eig: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> np.ndarray:
        """``H``: the top ``n_components`` left singular vectors of :math:`\\tilde M`
        (orthonormal on the kept rows, zero elsewhere, sign-fixed)."""
        lam, vec = self.eig(t, n_components, gram) if eig is None else eig
        lam, vec = lam[:n_components], vec[:, :n_components]
        hk = _lowdin(self.stack @ (t[:, None] * vec / np.sqrt(lam)))
        fix_signs(hk)
        h = np.zeros((self.n_rows, n_components))
        h[self.kept] = hk
        return h


def combine_factors(
    factors: Sequence[ViewFactor],
    n_rows: int,
    n_components: int,
    *,
    regularization: float = 1e-8,
    relative_regularization: bool = False,
) -> np.ndarray:
    r"""The MVLSA shared space of views given by their factors.

    Parameters
    ----------
    factors : sequence of ViewFactor
        One per view (:func:`view_factor`).
    n_rows : int
        Rows of the views, ``N``.
    n_components : int
        ``k``.
    regularization, relative_regularization :
        ``r_j`` (or :math:`\rho` with :math:`r_j = \rho s_{j,1}^2`), as in :class:`MVLSA`.

    Returns
    -------
    ndarray, shape (n_rows, n_components)
        ``H`` (orthonormal columns on the rows observed in some view, zero elsewhere), sign-fixed.

    Notes
    -----
    :math:`\tilde M = C^{-1/2} [D_1 A_1 T_1, \dots, D_J A_J T_J]` with
    :math:`T_j = S_j (S_j^2 + r_j I)^{-1/2}` and :math:`C = \sum_j D_j^2`; ``H`` holds the top
    ``k`` left singular vectors of :math:`\tilde M` (eigh of its Gram matrix), as in
    :meth:`MVLSA.fit`.

    References
    ----------
    P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
    Generalized CCA. NAACL (Section 3.1).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(40, 2))
    >>> views = [z @ rng.normal(size=(2, 5)) + 0.1 * rng.normal(size=(40, 5)) for _ in range(3)]
    >>> fs = [view_factor(v, 3, name=f"v{j}", svd_solver="dense") for j, v in enumerate(views)]
    >>> h = combine_factors(fs, 40, 2)
    >>> ref = MVLSA(2, view_rank=3, svd_solver="dense").fit(views).embedding_
    >>> bool(np.allclose(np.abs(h.T @ ref), np.eye(2), atol=1e-8))
    True
    """
    n_rows = check_int(n_rows, "n_rows", low=1)
    n_components = check_int(n_components, "n_components", low=1)
    regularization = check_float(regularization, "regularization", low=0)
    relative_regularization = check_bool(relative_regularization, "relative_regularization")
    stacked = StackedFactors.of(factors, n_rows)
    t = stacked.shrinkage(regularization, relative_regularization)
    return stacked.embedding(t, n_components, stacked.gram())
