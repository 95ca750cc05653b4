"""The exact regularized MAX-VAR generalized CCA, :class:`GCCA` (dense ``N x N`` matrices, for
small problems; the reference :class:`~workbench.gcca.MVLSA` is tested against)."""

from __future__ import annotations

from typing import cast

import numpy as np
import scipy.sparse as sp

from ._base import MaskInput, ViewInput, _GCCABase, _per_view, _warn_dominated
from ._linalg import _top_eigh, fix_signs

#: Largest number of kept rows the dense exact :class:`GCCA` accepts (it forms N x N matrices).
GCCA_MAX_ROWS = 8000


class GCCA(_GCCABase):
    r"""Exact regularized MAX-VAR generalized CCA (dense reference for small problems).

    Parameters
    ----------
    n_components : int
        ``k``, the number of shared dimensions.
    regularization : float or sequence of float
        ``r_j >= 0`` added to each view's scatter matrix (one value or one per view). With
        ``r_j = 0`` the Moore--Penrose inverse is used (exact projection onto the view's span).
    min_view_support : int
        ``v``: rows observed in fewer than ``v`` views are dropped before GCCA (their
        ``embedding_`` rows are zero and ``row_mask_`` is False). Rows observed in no view are
        always dropped.
    row_weighting : {None, "glove"}
        ``None``: the missing-row weighting ``K`` only. ``"glove"``: eq. (12), row weights
        ``d_ij = min(1, (w_i / row_weight_max)^row_weight_power)`` with ``w_i`` the row total of
        view ``j``.
    row_weight_max, row_weight_power : float
        ``w_max`` and the exponent of eq. (12) (GloVe's ``x_max = 100``, ``alpha = 3/4``).
    center : bool
        Mean-centre each view over its observed rows (the paper's eq. 9).

    Attributes
    ----------
    embedding_ : ndarray, shape (N, n_components)
        ``H``: orthonormal columns, sorted by eigenvalue, signs fixed (largest-|.| entry positive).
    eigenvalues_ : ndarray, shape (n_components,)
        Top eigenvalues ``Lambda`` of ``M``.
    view_maps_ : list of ndarray, shape (d_j, n_components)
        ``U_j`` of eq. (5), in the scale of ``G = C^{-1/2} H``.
    view_means_ : list of ndarray or None
        Column means ``mu_j`` over the observed rows.
    support_ : ndarray of int, shape (N,)
        ``K_ii``: number of views observing each row.
    row_mask_ : ndarray of bool, shape (N,)
        Rows kept (``support_ >= max(v, 1)``).

    Notes
    -----
    With :math:`X_j` the centred view restricted to its observed rows (zero elsewhere),
    :math:`D_j` the diagonal of row weights (:math:`K_j`, or :math:`W_j K_j` for eq. 12) and
    :math:`C = \sum_j D_j^2` (:math:`= K` without row weighting), the objective

    .. math:: \min_{G, U_j} \sum_j \|D_j (G - X_j U_j)\|_F^2 + r_j \|U_j\|_F^2
              \quad \text{s.t.} \quad G^\top C G = I

    is solved by :math:`H = C^{1/2} G`, the top eigenvectors of

    .. math:: M = C^{-1/2} \Big(\sum_j D_j^2 X_j (X_j^\top D_j^2 X_j + r_j I)^{-1}
              X_j^\top D_j^2\Big) C^{-1/2},

    i.e. eq. (11) of the paper (:math:`K^{-1/2} \sum_j \tilde P_j K^{-1/2}`) when :math:`D_j = K_j`;
    with all rows observed and no weights, :math:`H` spans the eigenvectors of
    :math:`\sum_j \tilde P_j` (eqs. 6-7). :math:`U_j = (X_j^\top D_j^2 X_j + r_j I)^{-1}
    X_j^\top D_j^2 G`.

    References
    ----------
    P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
    Generalized CCA. NAACL. J. D. Carroll (1968); J. R. Kettenring (1971), Biometrika 58(3).

    Examples
    --------
    Three views of 50 rows sharing a 2-dimensional signal:

    >>> import numpy as np
    >>> from workbench.gcca import GCCA
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(50, 2))
    >>> views = [z @ rng.normal(size=(2, 6)) + 0.1 * rng.normal(size=(50, 6)) for _ in range(3)]
    >>> gcca = GCCA(n_components=2).fit(views)
    >>> gcca.embedding_.shape
    (50, 2)
    >>> gcca.eigenvalues_.round(2)  # every view carries the shared signal: close to 1
    array([1., 1.])
    >>> bool(np.allclose(gcca.transform(views), gcca.embedding_))  # out-of-sample map
    True
    """

    def fit(self, views: ViewInput, y: object = None, *, masks: MaskInput = None) -> GCCA:
        """Fit on a list of ``N``-row views (dense or sparse), optional boolean row masks
        (``y`` is ignored); returns ``self``.

        Parameters are checked here, as in :meth:`MVLSA.fit`."""
        prep = self._prepare(views, masks)
        n_views = len(prep.views)
        reg = _per_view(self.regularization, n_views, "regularization")
        with np.errstate(over="ignore", invalid="ignore"):  # r_j of a view times c_j: c_j^2 r_j
            reg_scaled = np.where(reg > 0, reg * prep.scales**2, 0.0)
        kept = np.flatnonzero(prep.row_mask)
        nk = kept.size
        if nk > GCCA_MAX_ROWS:
            raise ValueError(
                f"GCCA forms dense {nk} x {nk} matrices; it accepts at most {GCCA_MAX_ROWS} rows. "
                "Use MVLSA for larger problems"
            )
        pos = np.full(prep.n_rows, -1)
        pos[kept] = np.arange(nk)
        msum = np.zeros((nk, nk))
        parts = []
        for j in range(n_views):
            x, rj, wj = prep.view_rows(j)
            xd = cast("sp.sparray", x).toarray() if sp.issparse(x) else np.asarray(x)
            xd = xd.astype(np.float64)
            rj = pos[rj]
            mu = xd.mean(axis=0) if self.center else None
            if mu is not None:
                xd = xd - mu
            z = wj[:, None] * xd  # D_j X_j on its rows
            f = wj[:, None] * z  # D_j^2 X_j
            lam, vec = np.linalg.eigh(z.T @ z)  # scatter X^T D^2 X
            if reg[j] > 0:
                _warn_dominated(j, float(lam[-1]), float(reg_scaled[j]))
                inv = 1.0 / (lam + reg_scaled[j])
            else:
                tol = max(lam[-1], 0.0) * max(z.shape) * np.finfo(np.float64).eps
                inv = np.where(lam > tol, 1.0 / np.where(lam > tol, lam, 1.0), 0.0)
            fv = f @ vec
            msum[np.ix_(rj, rj)] += (fv * inv) @ fv.T
            parts.append((rj, f, vec, inv, mu))
        cs = np.sqrt(prep.c[kept])
        m = msum / cs[:, None] / cs[None, :]
        k = int(self.n_components)
        lam_k, hk, n_pos = _top_eigh((m + m.T) / 2, k, np.finfo(np.float64).eps)
        if n_pos < k:
            raise ValueError(
                f"n_components={k} but M has only {n_pos} non-zero eigenvalues (the views span too "
                "few shared directions); lower n_components"
            )
        hk = np.ascontiguousarray(hk)
        fix_signs(hk)
        h = np.zeros((prep.n_rows, k))
        h[kept] = hk
        g = hk / cs[:, None]
        maps, means = [], []
        for j, (rj, f, vec, inv, mu) in enumerate(parts):
            # back to the scale of the view as given: U_j = c_j U'_j, mu_j = mu'_j / c_j
            c_j = prep.scales[j]
            maps.append(c_j * (vec @ (inv[:, None] * (vec.T @ (f.T @ g[rj])))))
            means.append(mu if mu is None or c_j == 1.0 else mu / c_j)
        self._finish(h, lam_k, maps, means, prep, [x.shape[1] for x in prep.views])
        return self
