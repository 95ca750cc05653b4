"""Estimators of :mod:`workbench.gcca`: exact :class:`GCCA` and :class:`MVLSA`."""

from __future__ import annotations

import logging
import numbers
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state as _sk_random_state
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from workbench._dask import active_client
from workbench._validation import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)

from ._linalg import SVD_METHODS, SVD_TOL, _fix_signs, _lowdin, _top_eigh, _truncated_svd

logger = logging.getLogger(__name__)

#: Largest number of kept rows the dense exact :class:`GCCA` accepts (it forms N x N matrices).
GCCA_MAX_ROWS = 8000


# --------------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------------
def _check_views(views: Any, masks: Any = None) -> tuple[list[Any], list[np.ndarray]]:
    """Validate through the one validator, :func:`workbench.views.check_views`."""
    from workbench.views import check_views

    return check_views(views, masks)


def _per_view(value: Any, n_views: int, name: str, *, kind: type = float) -> np.ndarray:
    """Broadcast a scalar or check a per-view sequence of parameters (``kind=float``: numbers
    ``>= 0``; ``kind=int``: integers ``>= 1``); errors name ``name`` (and the view index)."""

    def one(v: Any, label: str) -> Any:
        if kind is int:
            return check_int(v, label, low=1)
        return check_float(v, label, low=0)

    if isinstance(value, (numbers.Real, np.number)) or isinstance(value, (bool, np.bool_)):
        return np.full(n_views, one(value, name), dtype=np.int64 if kind is int else np.float64)
    what = "an integer >= 1" if kind is int else "a finite number >= 0"
    if value is None or isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(
            f"{name} must be {what} or a sequence of {n_views} such values (one per view), "
            f"got {value!r} ({type(value).__name__})"
        )
    items = list(np.ravel(value)) if isinstance(value, np.ndarray) else list(value)
    if len(items) != n_views:
        raise ValueError(f"{name} has {len(items)} entries for {n_views} views, got {value!r}")
    out = [one(v, f"{name}[{j}]") for j, v in enumerate(items)]
    return np.asarray(out, dtype=np.int64 if kind is int else np.float64)


def _working_dtype(views: Sequence[Any]) -> np.dtype:
    return (
        np.dtype(np.float32) if all(v.dtype == np.float32 for v in views) else np.dtype(np.float64)
    )


def glove_row_weights(X: Any, *, x_max: float = 100.0, alpha: float = 0.75) -> np.ndarray:
    r"""Row weights of eq. (12) of Rastogi et al. (2015): :math:`\min(1, (w_i / w_{max})^{\alpha})`.

    ``w_i`` is the total of row ``i`` of ``X`` (sum of absolute values, so that signed views such
    as embedding views get a meaningful magnitude); all-zero rows get weight 0.
    """
    x_max = check_float(x_max, "x_max", low=0, low_open=True)
    alpha = check_float(alpha, "alpha", low=0)
    if not sp.issparse(X):
        X = np.asarray(X)
    tot = np.asarray(abs(X).sum(axis=1)).ravel().astype(np.float64)
    return np.minimum(1.0, (tot / x_max) ** alpha)


# --------------------------------------------------------------------------------------------
# shared preprocessing: masks, minimum view support, row weights, centring
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Prepared:
    views: list[Any]  # validated views, all N rows (restricted lazily by view_rows)
    rows: list[np.ndarray]  # row indices (into 0..N-1) of each view's observed rows (support >= v)
    weights: list[np.ndarray]  # per such row, the weight d_ij (1 without row weighting)
    row_mask: np.ndarray  # kept rows (support >= v)
    support: np.ndarray  # K_ii: number of views observing each row (before v)
    c: np.ndarray  # C_ii = sum_j d_ij^2 over kept rows (0 elsewhere)
    n_rows: int
    dtype: np.dtype

    def view_rows(self, j: int) -> tuple[Any, np.ndarray, np.ndarray]:
        """View ``j`` on its observed kept rows: ``(matrix, row indices, row weights)``.
        Copies the rows only when some are left out (so callers can do it in parallel)."""
        keep = self.row_mask[self.rows[j]]
        rj, wj = self.rows[j][keep], self.weights[j][keep]
        x = self.views[j]
        return (x if rj.size == x.shape[0] else x[rj]), rj, wj


class _GCCABase(TransformerMixin, BaseEstimator):
    """Shared parameter checks, preprocessing, transform and slicing."""

    n_components: int
    regularization: Any
    min_view_support: int
    row_weighting: str | None
    row_weight_max: float
    row_weight_power: float
    center: bool

    # -- helpers -------------------------------------------------------------------------
    def _weighting(self) -> str | None:
        rw = check_choice(self.row_weighting, "row_weighting", (None, "none", "glove"))
        return None if rw in (None, "none") else "glove"

    def _check_params(self) -> None:
        """The parameters shared by :class:`GCCA` and :class:`MVLSA` (run at the start of fit)."""
        check_int(self.n_components, "n_components", low=1)
        check_int(self.min_view_support, "min_view_support", low=0)
        self._weighting()
        check_float(self.row_weight_max, "row_weight_max", low=0, low_open=True)
        check_float(self.row_weight_power, "row_weight_power", low=0)
        check_bool(self.center, "center")

    def _row_weights(self, x: Any) -> np.ndarray:
        if self._weighting() == "glove":
            return glove_row_weights(x, x_max=self.row_weight_max, alpha=self.row_weight_power)
        return np.ones(x.shape[0])

    def _prepare(self, views: Any, masks: Any) -> _Prepared:
        self._check_params()
        xs, ms = _check_views(views, masks)
        n_views, n = len(xs), xs[0].shape[0]
        v = int(self.min_view_support)
        if v > n_views:
            raise ValueError(
                f"min_view_support={v} exceeds the number of views ({n_views}): no row can be kept"
            )
        support = np.sum(ms, axis=0).astype(np.int64)
        row_mask = support >= max(int(v), 1)
        if not row_mask.any():
            raise ValueError(f"no row is observed in at least min_view_support={v} views")
        n_dropped = int(np.count_nonzero(support > 0) - np.count_nonzero(row_mask))
        if n_dropped:
            logger.info("min_view_support=%d drops %d of %d rows", v, n_dropped, n)
        rows, vs, ws = [], [], []
        c = np.zeros(n)
        for j, (x, mk) in enumerate(zip(xs, ms)):
            idx = np.flatnonzero(mk & row_mask)
            if idx.size == 0:
                raise ValueError(
                    f"view {j} has no observed rows among the {int(row_mask.sum())} rows observed in "
                    f"at least min_view_support={v} views; lower min_view_support or drop the view"
                )
            wj = self._row_weights(x)[idx]  # (row totals: the same on all rows or a subset)
            if not np.any(wj > 0):
                raise ValueError(f"view {j}: all row weights are zero")
            rows.append(idx)
            vs.append(x)
            ws.append(wj)
            c[idx] += wj**2
        # rows whose only observations carry zero weight cannot be represented
        zero_c = row_mask & (c <= 0)
        if zero_c.any():
            row_mask = row_mask & ~zero_c
            logger.info("%d rows have zero total row weight and are dropped", int(zero_c.sum()))
        if int(self.n_components) > int(row_mask.sum()):
            raise ValueError(
                f"n_components={self.n_components} exceeds the number of kept rows "
                f"({int(row_mask.sum())})"
            )
        return _Prepared(vs, rows, ws, row_mask, support, c, n, _working_dtype(xs))

    def _finish(
        self,
        h: np.ndarray,
        lam: np.ndarray,
        maps: list[np.ndarray],
        means: list[np.ndarray | None],
        prep: _Prepared,
        d: list[int],
    ) -> None:
        self.embedding_ = h
        self.eigenvalues_ = lam
        self.view_maps_ = maps
        self.view_means_ = means
        self.support_ = prep.support
        self.row_mask_ = prep.row_mask
        self.n_views_ = len(maps)
        self.n_features_per_view_ = d

    # -- public API ----------------------------------------------------------------------
    def fit_transform(  # type: ignore[override]
        self, views: Any, y: Any = None, *, masks: Any = None
    ) -> np.ndarray:
        """Fit and return a copy of ``embedding_`` (``y`` is ignored)."""
        return self.fit(views, masks=masks).embedding_.copy()

    def embedding(self, n_components: int | None = None) -> np.ndarray:
        """The first ``n_components`` columns of ``embedding_`` (no refit: columns are nested)."""
        check_is_fitted(self, "embedding_")
        k = self.embedding_.shape[1]
        if n_components is None:
            return self.embedding_
        n_components = check_int(n_components, "n_components", low=1, high=k)
        return self.embedding_[:, :n_components]

    def to_word_vectors(self, words: Sequence[str], n_components: int | None = None) -> Any:
        """``embedding(n_components)`` as :class:`workbench.embeddings.WordVectors`.

        Rows dropped by ``min_view_support`` (all-zero embedding rows) are left out.
        """
        from workbench.embeddings import WordVectors

        emb = self.embedding(n_components)
        words = list(words)
        if len(words) != emb.shape[0]:
            raise ValueError(f"got {len(words)} words for {emb.shape[0]} embedding rows")
        keep = np.flatnonzero(self.row_mask_)
        return WordVectors([words[i] for i in keep], np.ascontiguousarray(emb[keep]))

    def transform(self, views: Any, *, masks: Any = None) -> np.ndarray:
        r"""Map rows of new views (same columns as in ``fit``) into the shared space.

        For row ``i`` with views ``j`` observed (weights :math:`d_{ij}`, 1 without row weighting)

        .. math:: h_i = C_i^{-1/2}\Big(\sum_j d_{ij}^2 (x_{ij} - \mu_j)^\top U_j\Big)\Lambda^{-1},
                  \qquad C_i = \sum_j d_{ij}^2,

        which reproduces ``embedding_`` on the training rows (from :math:`M H = H\Lambda`). Rows
        observed in no view map to zeros; ``min_view_support`` is not applied here, so rows the
        fit dropped can be mapped out of sample.
        """
        check_is_fitted(self, "embedding_")
        xs, ms = _check_views(views, masks)
        if len(xs) != self.n_views_:
            raise ValueError(f"views: fitted on {self.n_views_} views, got {len(xs)}")
        n = xs[0].shape[0]
        k = self.embedding_.shape[1]
        num = np.zeros((n, k))
        cc = np.zeros(n)
        for j, (x, mk) in enumerate(zip(xs, ms)):
            if x.shape[1] != self.n_features_per_view_[j]:
                raise ValueError(
                    f"view {j} has {x.shape[1]} columns; it had {self.n_features_per_view_[j]} in "
                    "fit (transform needs the columns the estimator was fitted on)"
                )
            idx = np.flatnonzero(mk)
            xj = x if idx.size == n else x[idx]
            u = self.view_maps_[j]
            p = np.asarray(xj @ u, dtype=np.float64)
            mu = self.view_means_[j]
            if mu is not None:
                p -= mu.astype(np.float64) @ u
            wj = self._row_weights(xj)
            num[idx] += (wj**2)[:, None] * p
            cc[idx] += wj**2
        out = np.zeros((n, k))
        ok = cc > 0
        if not ok.all():
            logger.info(
                "transform: %d rows are observed in no view and map to zero", int((~ok).sum())
            )
        out[ok] = num[ok] / np.sqrt(cc[ok])[:, None] / self.eigenvalues_
        return out.astype(self.embedding_.dtype, copy=False)


# --------------------------------------------------------------------------------------------
# exact GCCA
# --------------------------------------------------------------------------------------------
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

    def __init__(
        self,
        n_components: int = 2,
        regularization: float | Sequence[float] = 1e-8,
        *,
        min_view_support: int = 0,
        row_weighting: str | None = None,
        row_weight_max: float = 100.0,
        row_weight_power: float = 0.75,
        center: bool = True,
    ) -> None:
        self.n_components = n_components
        self.regularization = regularization
        self.min_view_support = min_view_support
        self.row_weighting = row_weighting
        self.row_weight_max = row_weight_max
        self.row_weight_power = row_weight_power
        self.center = center

    def fit(self, views: Any, y: Any = None, *, masks: Any = None) -> GCCA:
        """Fit on a list of ``N``-row views (dense or sparse), optional boolean row masks
        (``y`` is ignored); returns ``self``.

        Parameters are checked here, as in :meth:`MVLSA.fit`."""
        prep = self._prepare(views, masks)
        n_views = len(prep.views)
        reg = _per_view(self.regularization, n_views, "regularization")
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
            xd = (x.toarray() if sp.issparse(x) else np.asarray(x)).astype(np.float64)
            rj = pos[rj]
            mu = xd.mean(axis=0) if self.center else None
            if mu is not None:
                xd = xd - mu
            z = wj[:, None] * xd  # D_j X_j on its rows
            f = wj[:, None] * z  # D_j^2 X_j
            lam, vec = np.linalg.eigh(z.T @ z)  # scatter X^T D^2 X
            if reg[j] > 0:
                inv = 1.0 / (lam + reg[j])
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
        _fix_signs(hk)
        h = np.zeros((prep.n_rows, k))
        h[kept] = hk
        g = hk / cs[:, None]
        maps, means = [], []
        for rj, f, vec, inv, mu in parts:
            maps.append(vec @ (inv[:, None] * (vec.T @ (f.T @ g[rj]))))
            means.append(mu)
        self._finish(h, lam_k, maps, means, prep, [x.shape[1] for x in prep.views])
        return self


# --------------------------------------------------------------------------------------------
# MVLSA: the per-view steps and the stacked eigenproblem, shared by the local fit and the dask
# backend (workbench.gcca._dask calls the same functions on the workers, with the same seeds)
# --------------------------------------------------------------------------------------------
#: The ``backend`` values of :class:`MVLSA`.
BACKENDS = ("local", "dask")


@dataclass(frozen=True)
class _SVDOptions:
    """The checked per-view SVD settings of one :class:`MVLSA` fit (sent to dask workers)."""

    center: bool
    weighted: bool  # pass the row weights d_ij to the SVD (row_weighting="glove")
    method: str
    n_oversamples: int | None
    n_iter: int | None
    relative_regularization: bool
    dtype: np.dtype  # working precision of the stacked matrix M~
    tol: float = SVD_TOL  # target of the adaptive randomized route (n_oversamples None)


@dataclass(frozen=True)
class _ViewFactor:
    """One view's SVD without ``U_j`` (which goes into the stacked matrix): ``S_j``, ``B_j^T``,
    the column mean, ``T_j`` (in the working dtype), the ``r_j`` used and the passes made."""

    s: np.ndarray
    vt: np.ndarray
    mean: np.ndarray | None
    t: np.ndarray
    reg: float
    n_passes: int


def _view_svd(
    x: Any,
    rank: int,
    weights: np.ndarray,
    reg: float,
    seed: int,
    opts: _SVDOptions,
    *,
    view: int,
    n_threads: int = 1,
) -> tuple[np.ndarray, _ViewFactor]:
    """Rank-``rank`` SVD of view ``view`` (``x``: its observed kept rows, ``weights``: their
    ``d_ij``) with its own random stream ``seed``; returns ``U_j`` and the rest."""
    res = _truncated_svd(
        x,
        rank,
        center=opts.center,
        row_weights=weights if opts.weighted else None,
        method=opts.method,
        n_oversamples=opts.n_oversamples,
        n_iter=opts.n_iter,
        tol=opts.tol,
        random_state=np.random.default_rng(seed),
        n_threads=n_threads,
    )
    mj = res.s.size
    if mj == 0:
        raise ValueError(f"view {view} has rank 0 (after centring it is all zeros)")
    if mj < rank:
        logger.info("view %d: rank %d < requested m=%d; using %d", view, mj, rank, mj)
    r_j = reg * float(res.s[0]) ** 2 if opts.relative_regularization else reg
    t = (res.s / np.sqrt(res.s**2 + r_j)).astype(opts.dtype)
    return res.U, _ViewFactor(res.s, res.Vt, res.mean, t, float(r_j), res.n_passes)


def _scaled_factor(
    u: np.ndarray, scale: np.ndarray, t: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """The view's block of :math:`\\tilde M` on its rows, ``(U_j * scale) * T_j`` with
    ``scale = d_ij / sqrt(C_ii)`` (in the working dtype); written into ``out`` if given."""
    if out is None:
        out = u * scale[:, None]
    else:
        np.multiply(u, scale[:, None], out=out)
    out *= t
    return out


def _view_nnz(x: Any) -> int:
    return int(x.nnz) if sp.issparse(x) else int(x.size)


def _view_map(vt: np.ndarray, s: np.ndarray, reg: float, mth: np.ndarray) -> np.ndarray:
    """``U_j = B_j (S_j^2 + r_j I)^{-1/2} (M~^T H)_j`` (float64, ``d_j x k``)."""
    scale = 1.0 / np.sqrt(s**2 + reg)
    return np.asarray(vt.T.astype(np.float64) @ (scale[:, None] * mth))


def _check_stack_rank(k: int, sizes: Sequence[int]) -> None:
    if k > sum(sizes):
        raise ValueError(
            f"n_components={k} exceeds the rank of the stacked matrix ({sum(sizes)} = sum of the "
            f"numerical view ranks {list(sizes)}); lower n_components"
        )


def _stacked_eigen(gram: np.ndarray, k: int, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` eigenpairs (float64) of the Gram matrix of :math:`\\tilde M` (symmetrized in
    place), refusing zero eigenvalues among them."""
    gram += gram.T
    gram *= 0.5
    lam_k, v_k, n_pos = _top_eigh(gram, k, np.finfo(dtype).eps)
    if n_pos < k:
        raise ValueError(
            f"n_components={k} but the views span only {n_pos} shared directions (zero "
            "eigenvalues of M); lower n_components"
        )
    return lam_k.astype(np.float64), v_k.astype(np.float64)


@dataclass(frozen=True)
class _MVLSAPlan:
    """Everything an MVLSA fit decides before the first SVD (both backends)."""

    prep: _Prepared
    cap: list[int]  # requested rank of each view, clamped to min(m_j, n_j, d_j)
    reg: np.ndarray  # regularization (or rho_j with relative_regularization) per view
    seeds: np.ndarray  # one random stream per view
    kept: np.ndarray  # kept rows (indices into 0..N-1)
    pos: np.ndarray  # position of each row among the kept rows (-1: dropped)
    inv_sqrt_c: np.ndarray  # C^{-1/2} on the kept rows
    opts: _SVDOptions
    k: int

    def view_scale(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """View ``j``'s observed kept rows, their weights ``d_ij`` and ``d_ij / sqrt(C_ii)``
        (working dtype)."""
        keep = self.prep.row_mask[self.prep.rows[j]]
        rj, wj = self.prep.rows[j][keep], self.prep.weights[j][keep]
        scale = (wj * self.inv_sqrt_c[self.pos[rj]]).astype(self.opts.dtype)
        return rj, wj, scale


@dataclass
class _StackedFit:
    """What a backend returns to :meth:`MVLSA.fit`: ``H`` on the kept rows and the rest."""

    hk: np.ndarray
    lam: np.ndarray
    maps: list[np.ndarray]
    means: list[np.ndarray | None]
    svals: list[np.ndarray]
    reg_used: np.ndarray
    sizes: list[int]
    n_passes: int
    nnz: int
    t_svd: float
    t_gram: float
    stats: dict[str, Any]


def _fit_local(plan: _MVLSAPlan, n_jobs: int) -> _StackedFit:
    """The in-process fit: per-view SVDs (threads per ``n_jobs``) written into one stacked
    matrix, eigh of its Gram matrix, ``H``, maps."""
    prep, cap, opts, k = plan.prep, plan.cap, plan.opts, plan.k
    n_views = len(prep.views)
    dtype = opts.dtype
    kept = plan.kept
    # M~ is filled block by block into one Fortran-ordered array (view j at column
    # sum(cap[:j]); blocks of rank-deficient views are packed afterwards, and trimming the
    # unused columns is free); each U_j is dropped as soon as its block is written.
    stack = np.zeros((kept.size, sum(cap)), dtype=dtype, order="F")
    starts = np.concatenate([[0], np.cumsum(cap)[:-1]]).astype(int)

    def view_svd(j: int, n_threads: int, buf: np.ndarray) -> tuple[_ViewFactor, int]:
        x, _, _ = prep.view_rows(j)
        rj, wj, scale = plan.view_scale(j)
        u, fac = _view_svd(
            x, cap[j], wj, plan.reg[j], plan.seeds[j], opts, view=j, n_threads=n_threads
        )
        blk = buf[:, starts[j] : starts[j] + fac.s.size]
        if rj.size == kept.size:  # every kept row observed: written in place, no temporaries
            _scaled_factor(u, scale, fac.t, out=blk)
        else:
            blk[plan.pos[rj]] = _scaled_factor(u, scale, fac.t)
        del u
        return fac, _view_nnz(x)

    # With n_jobs > 1 the views are factorized n_jobs at a time, each on one thread (all
    # BLAS libraries limited to one thread meanwhile): every step of a view's SVD then runs
    # in parallel, including the ones that do not scale over threads (LU of the short
    # block, drawing the test matrix, copies); the views left over (fewer than n_jobs) run
    # one at a time on n_jobs threads.
    n_par = min(n_jobs, n_views)
    n_pooled = n_views - n_views % n_par if n_par > 1 else 0
    out: list[Any] = [None] * n_views
    with tqdm(total=n_views, desc="MVLSA view SVDs", disable=None, leave=False) as bar:
        if n_pooled:
            from concurrent.futures import ThreadPoolExecutor, as_completed

            from threadpoolctl import threadpool_limits

            with threadpool_limits(limits=1), ThreadPoolExecutor(n_par) as ex:
                futures = {ex.submit(view_svd, j, 1, stack): j for j in range(n_pooled)}
                for fut in as_completed(futures):
                    out[futures[fut]] = fut.result()
                    bar.update()
        for j in range(n_pooled, n_views):
            out[j] = view_svd(j, n_jobs, stack)
            bar.update()
    facs: list[_ViewFactor] = [o[0] for o in out]
    nnz = sum(o[1] for o in out)
    del out
    sizes = [f.s.size for f in facs]
    off = 0
    for j, mj in enumerate(sizes):  # pack the blocks of rank-deficient views
        if starts[j] != off:
            stack[:, off : off + mj] = stack[:, starts[j] : starts[j] + mj]
        off += mj
    t_svd = time.perf_counter()
    _check_stack_rank(k, sizes)
    mt = stack[:, :off]
    del stack
    # the Gram matrix in the data's precision (float32 halves the syrk and the eigh)
    lam_k, v_k = _stacked_eigen(mt.T @ mt, k, dtype)
    hk = np.asarray(mt @ (v_k / np.sqrt(lam_k)).astype(dtype))
    hk = _lowdin(hk)  # exact in exact arithmetic; removes float32 round-off
    signs = _fix_signs(hk)
    mth = v_k * np.sqrt(lam_k) * signs  # = M~^T H
    del mt
    t_gram = time.perf_counter()
    maps = []
    off = 0
    for f in facs:
        mj = f.s.size
        maps.append(_view_map(f.vt, f.s, f.reg, mth[off : off + mj]))
        off += mj
    return _StackedFit(
        hk=hk,
        lam=lam_k,
        maps=maps,
        means=[f.mean for f in facs],
        svals=[f.s for f in facs],
        reg_used=np.array([f.reg for f in facs], dtype=float),
        sizes=sizes,
        n_passes=sum(f.n_passes for f in facs),
        nnz=nnz,
        t_svd=t_svd,
        t_gram=t_gram,
        stats={},
    )


# --------------------------------------------------------------------------------------------
# MVLSA
# --------------------------------------------------------------------------------------------
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
        ``svd_tol``, however the spectrum decays. An integer ``p``: the former fixed route,
        blocks of ``m + p`` columns and ``n_iter`` power iterations, which must be tuned to the
        spectrum: on 15 dense 50,000 x 1,000 views with a 100-dimensional signal each
        (``bench/bench_gcca.py``, k = m = 50) ``n_iter=1, n_oversamples=78`` (blocks of 128)
        ended 0.09-0.15 deg from the exact shared space, but 5-7 deg when the signal had rank
        165-206 (see :func:`truncated_svd`).
    n_iter : int or None
        Fixed route (``n_oversamples`` given): power iterations, ``2 n_iter + 1`` passes per
        view (None: 5). Adaptive route: at most this many Krylov iterations per view (None: as
        many as ``svd_tol`` needs).
    svd_tol : float
        Target of the adaptive per-view SVDs (``0 < svd_tol < 1``): their triplets are exact
        singular triplets of a matrix within ``svd_tol * s_j1`` of the (weighted, centred)
        view. The default 1e-3 leaves the shared space of three 5M-corpus word views a median
        0.07 deg from the exact one (the former fixed default: 0.88 deg; ``1e-2``: 8 deg); see
        :func:`truncated_svd`. Ignored by the exact solvers and the fixed route.
    random_state : int, RandomState, Generator or None
        Seeds the randomized SVDs (one ``numpy.random.Generator`` per view, seeded from it;
        results are reproducible for a fixed seed).
    n_jobs : int or None
        Threads (None: 1; -1: all cores, as in joblib). With ``n_jobs > 1`` the views' SVDs run
        ``n_jobs`` at a time, each on one thread (BLAS limited to one thread meanwhile;
        ``n_jobs`` views' working blocks are in memory at once: ``n x (m + p)`` on the fixed
        route; on the adaptive route a dense view keeps its ``n x |Q|`` Krylov products for the
        left vectors, ``|Q| <= m + 6 b`` with the block ``b = m`` within [16, 128], a sparse
        one none); views left over run one at
        a time, their sparse products ``X_j B`` and ``X_j^T Q`` split into column panels over the
        threads. Every view has
        its own random stream, so results do not depend on ``n_jobs`` (up to BLAS rounding).
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
    fit_stats_ : dict
        Timings (``svd_seconds``, ``gram_seconds``, ``total_seconds``), ``n_passes`` over the
        data, ``nnz`` and the ``backend``, for benchmarks; with ``backend="dask"`` also
        ``dask_workers``, ``dask_attempts`` (2 or more if a worker holding views was lost),
        ``dask_row_blocks`` and ``dask_blocked_views``.

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

    References
    ----------
    P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
    Generalized CCA. NAACL (Sections 3, 3.1, 3.2; eqs. 6-12).
    M. Van De Velden, T. Bijmolt (2006). Generalized canonical correlation analysis of matrices
    with missing rows. Psychometrika 71(2).

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
        random_state: Any = None,
        n_jobs: int | None = 1,
        backend: str = "local",
        block_rows: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.view_rank = view_rank
        self.regularization = regularization
        self.min_view_support = min_view_support
        self.row_weighting = row_weighting
        self.row_weight_max = row_weight_max
        self.row_weight_power = row_weight_power
        self.center = center
        self.relative_regularization = relative_regularization
        self.svd_solver = svd_solver
        self.n_oversamples = n_oversamples
        self.n_iter = n_iter
        self.svd_tol = svd_tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.backend = backend
        self.block_rows = block_rows

    def _n_threads(self) -> int:
        """``n_jobs`` as a thread count (None: 1; negative: joblib's convention, -1 = all cores)."""
        nj = self.n_jobs
        ok = not isinstance(nj, (bool, np.bool_)) and isinstance(nj, (numbers.Integral, type(None)))
        if not ok or nj == 0:
            raise ValueError(f"n_jobs must be a nonzero integer or None, got {nj!r}")
        from joblib import effective_n_jobs

        return int(effective_n_jobs(nj))

    def fit(self, views: Any, y: Any = None, *, masks: Any = None) -> MVLSA:
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
        ranks = _per_view(self.view_rank, n_views, "view_rank", kind=int)
        k = int(self.n_components)
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
            center=bool(self.center),
            weighted=self._weighting() is not None,
            method=self.svd_solver,
            n_oversamples=n_oversamples,
            n_iter=n_iter,
            relative_regularization=bool(self.relative_regularization),
            dtype=prep.dtype,
            tol=svd_tol,
        )
        plan = _MVLSAPlan(
            prep=prep,
            cap=cap,
            reg=reg,
            seeds=seeds,
            kept=kept,
            pos=pos,
            inv_sqrt_c=1.0 / np.sqrt(prep.c[kept]),
            opts=opts,
            k=k,
        )
        if client is None:
            res = _fit_local(plan, n_jobs)
        else:
            from ._dask import fit_dask

            res = fit_dask(client, plan, block_rows=block_rows)
        h = np.zeros((prep.n_rows, k), dtype=prep.dtype)
        h[kept] = res.hk
        self._finish(h, res.lam, res.maps, res.means, prep, [x.shape[1] for x in prep.views])
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
