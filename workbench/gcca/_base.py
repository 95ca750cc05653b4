"""What :class:`~workbench.gcca.GCCA` and :class:`~workbench.gcca.MVLSA` share: parameter
checks, the preprocessing (masks, minimum view support, row weights) and the transformer
interface (``fit_transform``, ``embedding``, ``to_word_vectors``, ``transform``)."""

from __future__ import annotations

import logging
import numbers
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from workbench._typing import Matrix
from workbench._validation import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    max_abs,
    power_of_two_scale,
)
from workbench.embeddings import WordVectors
from workbench.views import View
from workbench.views import check_views as _check_views

logger = logging.getLogger(__name__)

#: What the estimators fit and transform: dense or sparse matrices or :class:`View` objects
#: over the same rows (see :func:`workbench.views.check_views`).
ViewInput = Sequence[Matrix | View]

#: Boolean row masks, one per view (``None``: every row observed).
MaskInput = Sequence[ArrayLike | None] | None


def _per_view(
    value: float | Sequence[float] | np.ndarray, n_views: int, name: str, *, kind: type = float
) -> np.ndarray:
    """Broadcast a scalar or check a per-view sequence of parameters (``kind=float``: numbers
    ``>= 0``; ``kind=int``: integers ``>= 1``); errors name ``name`` (and the view index)."""

    def one(v: object, label: str) -> float:
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
    items = list(np.ravel(value)) if isinstance(value, np.ndarray) else list(cast(Iterable, value))
    if len(items) != n_views:
        raise ValueError(f"{name} has {len(items)} entries for {n_views} views, got {value!r}")
    out = [one(v, f"{name}[{j}]") for j, v in enumerate(items)]
    return np.asarray(out, dtype=np.int64 if kind is int else np.float64)


def _warn_dominated(view: int, top: float, reg: float) -> None:
    """``UserWarning`` when the (absolute) regularization ``reg`` of a view swamps its largest
    squared singular value ``top`` (the view's weight :math:`T_j^2 = s^2 / (s^2 + r_j)` is
    below 1e-8): the view then barely contributes to ``M``; said, not dropped silently."""
    if not top < 1e-8 * reg:
        return
    warnings.warn(
        f"view {view}: the regularization swamps the view (its largest squared singular value "
        f"is {top / reg if reg < np.inf else 0.0:.3g} times r_j), so it barely contributes; use "
        "relative_regularization=True (MVLSA), a smaller regularization or rescale the view",
        UserWarning,
        stacklevel=4,
    )


def _working_dtype(views: Sequence[Matrix]) -> np.dtype:
    return (
        np.dtype(np.float32) if all(v.dtype == np.float32 for v in views) else np.dtype(np.float64)
    )


def glove_row_weights(X: Matrix, *, x_max: float = 100.0, alpha: float = 0.75) -> np.ndarray:
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


@dataclass(frozen=True)
class _Prepared:
    views: list[Matrix]  # validated views, all N rows (restricted lazily by view_rows)
    rows: list[np.ndarray]  # row indices (into 0..N-1) of each view's observed rows (support >= v)
    weights: list[np.ndarray]  # per such row, the weight d_ij (1 without row weighting)
    row_mask: np.ndarray  # kept rows (support >= v)
    support: np.ndarray  # K_ii: number of views observing each row (before v)
    c: np.ndarray  # C_ii = sum_j d_ij^2 over kept rows (0 elsewhere)
    n_rows: int
    dtype: np.dtype
    # per view, the power of two c_j the view was multiplied by so that its products neither
    # overflow nor underflow (1 for every view of ordinary scale; see _GCCABase._prepare)
    scales: np.ndarray

    def kept_rows(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """View ``j``'s observed kept rows (indices into 0..N-1) and their weights ``d_ij``."""
        keep = self.row_mask[self.rows[j]]
        return self.rows[j][keep], self.weights[j][keep]

    def view_rows(self, j: int) -> tuple[Matrix, np.ndarray, np.ndarray]:
        """View ``j`` on its observed kept rows: ``(matrix, row indices, row weights)``.
        Copies the rows only when some are left out (so callers can do it in parallel)."""
        rj, wj = self.kept_rows(j)
        x = self.views[j]
        return (x if rj.size == x.shape[0] else x[rj]), rj, wj


class _GCCABase(TransformerMixin, BaseEstimator):
    """The parameters both estimators share (with :class:`GCCA`'s defaults), their checks, the
    preprocessing, ``transform`` and slicing."""

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

    def _row_weights(self, x: Matrix) -> np.ndarray:
        if self._weighting() == "glove":
            return glove_row_weights(x, x_max=self.row_weight_max, alpha=self.row_weight_power)
        return np.ones(x.shape[0])

    def _prepare(self, views: ViewInput, masks: MaskInput) -> _Prepared:
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
        self._check_sizes(vs, rows, row_mask)
        dtype = _working_dtype(xs)
        scales = np.ones(n_views)
        for j, x in enumerate(vs):
            largest = max_abs(x)
            scales[j] = power_of_two_scale(largest, x.shape[0] * x.shape[1], dtype)
            if scales[j] != 1.0:
                # the method is invariant under (X_j, r_j) -> (c X_j, c^2 r_j): the fit works
                # on the rescaled view and maps its results back (exact: c is a power of two)
                logger.info(
                    "view %d: largest |entry| %.3g would overflow or underflow %s products; "
                    "fitted on the view times %.3g (results mapped back)",
                    j,
                    largest,
                    dtype.name,
                    scales[j],
                )
                vs[j] = x * scales[j]
        return _Prepared(vs, rows, ws, row_mask, support, c, n, dtype, scales)

    def _check_sizes(self, vs: list[Matrix], rows: list[np.ndarray], row_mask: np.ndarray) -> None:
        """The minimum sizes, named: every view needs 2 observed kept rows (1 without centring;
        one centred row is all zeros) and ``n_components`` at most the largest possible rank
        of ``M``, :math:`\\sum_j \\min(n_j - 1, d_j)` (``n_j`` without centring)."""
        name = type(self).__name__
        least = 2 if self.center else 1
        ranks = []
        for j, (x, rj) in enumerate(zip(vs, rows)):
            n_j = int(np.count_nonzero(row_mask[rj]))
            if n_j < least:
                why = " (a single centred row is all zeros)" if self.center else ""
                raise ValueError(
                    f"{name} needs at least {least} rows per view, view {j} has {n_j} observed "
                    f"row(s) among the kept rows{why}"
                )
            ranks.append(min(n_j - (1 if self.center else 0), x.shape[1]))
        k = int(self.n_components)
        if k > sum(ranks):
            raise ValueError(
                f"n_components={k} exceeds the largest possible rank of M, sum over views of "
                f"min(observed rows{' - 1' if self.center else ''}, columns) = {sum(ranks)} "
                f"(per view {ranks}); lower n_components"
            )

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
        self, views: ViewInput, y: object = None, *, masks: MaskInput = None
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

    def to_word_vectors(self, words: Sequence[str], n_components: int | None = None) -> WordVectors:
        """``embedding(n_components)`` as :class:`workbench.embeddings.WordVectors`.

        Rows dropped by ``min_view_support`` (all-zero embedding rows) are left out.
        """
        emb = self.embedding(n_components)
        words = list(words)
        if len(words) != emb.shape[0]:
            raise ValueError(f"got {len(words)} words for {emb.shape[0]} embedding rows")
        keep = np.flatnonzero(self.row_mask_)
        return WordVectors([words[i] for i in keep], np.ascontiguousarray(emb[keep]))

    def transform(self, views: ViewInput, *, masks: MaskInput = None) -> np.ndarray:
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
