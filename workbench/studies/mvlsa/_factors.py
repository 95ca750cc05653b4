r"""MVLSA by parts: per-view factors computed once, combined for many configurations.

A tuning path over the MVLSA configuration changes one factor at a time. Most steps (the
regularization, which views take part, the embedding size) do not change any view's truncated
SVD, only how the factors are combined. :class:`FactorStore` keeps every view's rank-``m`` SVD
keyed by what determines it (view, preprocessing, ``m``, row weighting, seed), and
:func:`combine_factors` forms the MAX-VAR shared space from a selection of them -- the same
computation as :meth:`workbench.gcca.MVLSA.fit` with ``min_view_support=0`` (tested to agree).
Each view has its own random stream, seeded from its name, so a view's factor does not depend
on which other views are fitted with it.
"""

from __future__ import annotations

import dataclasses
import logging
import zlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from workbench._dask import active_client
from workbench._validation import check_bool, check_choice, check_float, check_int
from workbench.cluster import BACKENDS
from workbench.gcca import MVLSA, truncated_svd
from workbench.gcca._linalg import _fix_signs, _lowdin, _scipy_lapack_one_thread, _top_eigh
from workbench.studies.mvlsa._settings import SVD_SOLVERS, MVLSAConfig, _check_instance
from workbench.views import preprocess

logger = logging.getLogger(__name__)

_MISSING = object()  # FactorStore._lookup: no usable stored factor

__all__ = ["ViewFactor", "FactorStore", "combine_factors"]


@dataclass(frozen=True, eq=False)
class ViewFactor:
    """Rank-``m`` SVD of one centred (weighted) view on its observed rows.

    ``rows`` are the observed row indices, ``weights`` their eq. (12) weights (ones without row
    weighting), ``U`` (len(rows) x m) and ``s`` the singular values.
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


def _view_seed(name: str, seed: int) -> int:
    return (zlib.crc32(name.encode("utf-8")) ^ (int(seed) * 0x9E3779B1)) & 0x7FFFFFFF


def compute_factor(
    view: object,
    m: int,
    *,
    row_weighting: str | None = None,
    seed: int = 0,
    n_iter: int = 5,
    svd_solver: str = "randomized",
) -> ViewFactor:
    """Truncated SVD of one (preprocessed) :class:`workbench.views.View`, as MVLSA takes it."""
    est = MVLSA(1, view_rank=m, row_weighting=row_weighting)
    prep = est._prepare([view.matrix], [view.observed])  # type: ignore[attr-defined]
    x, rows, w = prep.view_rows(0)
    res = truncated_svd(
        x,
        int(min(m, rows.size, x.shape[1])),
        center=True,
        row_weights=None if est._weighting() is None else w,
        method=svd_solver,
        n_iter=n_iter,
        random_state=np.random.default_rng(_view_seed(view.name, seed)),  # type: ignore[attr-defined]
    )
    if res.s.size == 0:
        raise ValueError(f"view {view.name} has rank 0 (after centring it is all zeros)")  # type: ignore[attr-defined]
    complete = res.s.size < m  # the view's whole (numerical) rank: no larger m exists
    return ViewFactor(view.name, rows, w, np.asarray(res.U), np.asarray(res.s), complete)  # type: ignore[attr-defined]


@dataclass
class FactorStore:
    """In-memory store of view factors, keyed by ``(view name, preprocessing, m, weighting, seed)``.

    A request for rank ``m`` is served from a stored factor of rank ``>= m`` of the same key
    (sliced), so a grid over ``m`` costs one factorization at the largest ``m``. Singular
    vectors are kept in ``dtype`` (float32 by default, halving memory; None keeps float64);
    the combination runs in float64.

    Missing factors are computed ``n_jobs`` at a time in this process (``backend="local"``)
    or, with ``backend="dask"``, one task per view on the active ``dask.distributed`` client
    (:func:`workbench.cluster.dask_client`); each view has its own seed, so both give the same
    factors up to rounding.
    """

    n_iter: int = 5
    svd_solver: str = "randomized"
    n_jobs: int = 2
    dtype: Any = np.float32
    backend: str = "local"
    _items: dict[tuple[object, ...], ViewFactor | None] = field(default_factory=dict)
    _last: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.n_iter = check_int(self.n_iter, "FactorStore.n_iter", low=0)
        self.svd_solver = check_choice(self.svd_solver, "FactorStore.svd_solver", SVD_SOLVERS)
        self.n_jobs = check_int(self.n_jobs, "FactorStore.n_jobs", low=1)
        self.backend = check_choice(self.backend, "FactorStore.backend", BACKENDS)
        if self.dtype is not None:
            try:
                kind = np.dtype(self.dtype).kind
            except TypeError:
                kind = ""
            if kind != "f":
                raise TypeError(
                    "FactorStore.dtype must be a floating dtype (np.float32, np.float64) or None, "
                    f"got {self.dtype!r}"
                )

    def get(self, view: Any, config: MVLSAConfig, *, m: int | None = None) -> ViewFactor | None:
        """Factor of the *raw* ``view`` preprocessed by ``config`` (None if preprocessing leaves
        it without an observed row)."""
        key, m, found = self._lookup(view, config, m)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        pv = self._preprocessed(view, config, key)
        if pv is None:
            return None
        fac = compute_factor(
            pv,
            m,
            row_weighting=config.row_weighting,
            seed=config.random_state,
            n_iter=self.n_iter,
            svd_solver=self.svd_solver,
        )
        return self._store(key, fac)

    def _lookup(
        self, view: Any, config: MVLSAConfig, m: int | None
    ) -> tuple[tuple[object, ...], int, object]:
        """``(key, m, stored factor sliced to m / None / _MISSING)`` of ``view`` under
        ``config``."""
        _check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
        if not all(hasattr(view, a) for a in ("name", "matrix", "observed", "family")):
            raise TypeError(f"view must be a View, got {type(view).__name__}")
        m = check_int(config.view_rank if m is None else m, "m", low=1)
        key = (view.name, config.spec(), config.row_weighting, config.random_state)
        if key in self._items:
            have = self._items[key]
            if have is None or have.s.size >= m or have.complete:
                return key, m, None if have is None else have.sliced(m)
        return key, m, _MISSING

    def _preprocessed(self, view: Any, config: MVLSAConfig, key: tuple[object, ...]) -> Any:
        """``view`` preprocessed by ``config``; None (remembered under ``key``) when that leaves
        fewer than two observed rows."""
        raw = view.matrix
        if not np.isfinite(raw.data if sp.issparse(raw) else np.asarray(raw)).all():
            raise ValueError(f"view {view.name!r} has NaN or infinite entries")
        pv = view if view.family == "embedding" else preprocess(view, spec=config.spec())
        if not pv.observed.any() or pv.observed.sum() < 2:
            logger.info("view %s has no observed row after preprocessing; left out", view.name)
            self._items[key] = None
            return None
        return pv

    def _store(self, key: tuple[object, ...], fac: ViewFactor) -> ViewFactor:
        if self.dtype is not None and fac.U.dtype != self.dtype:
            fac = dataclasses.replace(fac, U=fac.U.astype(self.dtype))
        self._items[key] = fac
        return fac

    def prune(self, keep: MVLSAConfig, *also: MVLSAConfig) -> None:
        """Forget the factors of other preprocessings / row weightings / seeds than those of
        ``keep`` and ``also`` (a tuning path calls it after each step to bound memory, keeping
        its start, which the final comparison needs again)."""
        for i, c in enumerate((keep, *also)):
            _check_instance(c, "keep" if i == 0 else "also", MVLSAConfig, "an MVLSAConfig")
        want = {(c.spec(), c.row_weighting, c.random_state) for c in (keep, *also)}
        self._items = {k: v for k, v in self._items.items() if k[1:] in want}
        self._last = None

    def combine(
        self,
        factors: Sequence[ViewFactor],
        n_rows: int,
        n_components: int,
        *,
        regularization: float = 1e-8,
        relative_regularization: bool = False,
    ) -> np.ndarray:
        """:func:`combine_factors`, reusing the Gram matrix of the last set of factors (it does
        not depend on the regularization) and its eigenvectors for a smaller ``k`` (the
        MVLSA dimensions are nested)."""
        n_rows, n_components, regularization, relative_regularization = _check_combine(
            factors, n_rows, n_components, regularization, relative_regularization
        )
        # the factors are held by the cache entry, so their ids cannot be reused meanwhile
        key = (tuple(id(f.U) for f in factors), tuple(f.s.size for f in factors), n_rows)
        if self._last is None or self._last[0] != key:
            stacked = _Stacked.of(factors, n_rows)
            self._last = (key, stacked, stacked.gram(), {}, tuple(factors))
        _, stacked, gram, eigs, _ = self._last
        t = stacked.shrinkage(regularization, relative_regularization)
        rk = (float(regularization), bool(relative_regularization))
        have = eigs.get(rk)
        if have is None or have[0].size < n_components:
            have = stacked.eig(t, n_components, gram)
            eigs[rk] = have
        return stacked.embedding(t, n_components, gram, have)

    @property
    def n_computed(self) -> int:
        """Factorizations stored (a factor served by slicing a larger one is not counted)."""
        return sum(f is not None for f in self._items.values())

    def get_many(self, views: Sequence[Any], config: MVLSAConfig) -> list[ViewFactor]:
        """Factors of several raw views. Missing ones are computed ``n_jobs`` at a time, each
        on one BLAS thread, or with ``backend="dask"`` one task per view on the active Dask
        client; every view has its own random stream, so results depend on neither. Views left
        without observed rows are skipped."""
        if self.backend == "dask":
            self._compute_on_cluster(views, config)
        if self.n_jobs > 1 and len(views) > 1 and self.backend == "local":
            with threadpool_limits(limits=1), ThreadPoolExecutor(self.n_jobs) as ex:
                found = list(ex.map(lambda v: self.get(v, config), views))
        else:
            found = [self.get(v, config) for v in views]
        return [f for f in found if f is not None]

    def _compute_on_cluster(self, views: Sequence[Any], config: MVLSAConfig) -> None:
        """Compute the missing factors of ``views`` on the active Dask client: each
        preprocessed view is scattered once, straight to a worker, and factorized there by
        :func:`compute_factor` with the local fit's seed."""
        todo: dict[tuple[object, ...], tuple[Any, int]] = {}
        for view in views:
            key, m, found = self._lookup(view, config, None)
            if found is _MISSING and key not in todo:
                pv = self._preprocessed(view, config, key)
                if pv is not None:
                    todo[key] = (pv, m)
        if not todo:
            return
        client = active_client()
        data = client.scatter([pv for pv, _ in todo.values()], hash=False, direct=True)
        futures = [
            client.submit(
                compute_factor,
                fut,
                m,
                row_weighting=config.row_weighting,
                seed=config.random_state,
                n_iter=self.n_iter,
                svd_solver=self.svd_solver,
                pure=False,
            )
            for fut, (_, m) in zip(data, todo.values())
        ]
        logger.info("factorizing %d views on %d Dask workers", len(futures),
                    len(client.scheduler_info()["workers"]))  # fmt: skip
        for key, fac in zip(todo, client.gather(futures)):
            self._store(key, fac)
        client.cancel(data)


def _check_combine(
    factors: Any, n_rows: Any, n_components: Any, regularization: Any, relative: Any
) -> tuple[int, int, float, bool]:
    """The arguments of :func:`combine_factors`, checked (errors name the parameter)."""
    n_rows = check_int(n_rows, "n_rows", low=1)
    n_components = check_int(n_components, "n_components", low=1)
    regularization = check_float(regularization, "regularization", low=0)
    relative = check_bool(relative, "relative_regularization")
    if isinstance(factors, (str, bytes)) or not isinstance(factors, Sequence):
        raise TypeError(f"factors must be a sequence of ViewFactor, got {type(factors).__name__}")
    for f in factors:
        _check_instance(f, "factors entries", ViewFactor, "a ViewFactor")
        if f.rows.size and int(f.rows.max()) >= n_rows:
            raise ValueError(
                f"n_rows={n_rows} is too small: factor {f.name!r} has row {int(f.rows.max())}"
            )
    return n_rows, n_components, regularization, relative


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
    n_rows : int
        Rows of the views.
    n_components : int
        ``k``.
    regularization, relative_regularization :
        ``r_j`` (or :math:`\rho` with :math:`r_j = \rho s_{j,1}^2`), as in
        :class:`workbench.gcca.MVLSA`.

    Returns
    -------
    ndarray, shape (n_rows, n_components)
        ``H`` (orthonormal columns on the rows observed in some view, zero elsewhere), sign-fixed.

    Notes
    -----
    :math:`\tilde M = C^{-1/2} [D_1 A_1 T_1, \dots, D_J A_J T_J]` with
    :math:`T_j = S_j (S_j^2 + r_j I)^{-1/2}` and :math:`C = \sum_j D_j^2`; ``H`` holds the top
    ``k`` left singular vectors of :math:`\tilde M` (eigh of its Gram matrix), as in
    :meth:`workbench.gcca.MVLSA.fit`.
    """
    n_rows, n_components, regularization, relative_regularization = _check_combine(
        factors, n_rows, n_components, regularization, relative_regularization
    )
    stacked = _Stacked.of(factors, n_rows)
    t = stacked.shrinkage(regularization, relative_regularization)
    return stacked.embedding(t, n_components, stacked.gram())


@dataclass(frozen=True, eq=False)
class _Stacked:
    """:math:`C^{-1/2} [D_1 A_1, \\dots, D_J A_J]` on the rows observed in some view (the
    regularization enters as a column scaling :math:`T`, so one Gram matrix serves every
    :math:`r`: :math:`\tilde M^\top \tilde M = T (S^\top S) T`)."""

    stack: np.ndarray
    kept: np.ndarray
    n_rows: int
    svals: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, factors: Sequence[ViewFactor], n_rows: int) -> _Stacked:
        if not factors:
            raise ValueError("no view factor to combine")
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
        """:math:`T = S (S^2 + r)^{-1/2}` of every stacked column."""
        parts = []
        for s in self.svals:
            r_j = regularization * float(s[0]) ** 2 if relative else regularization
            parts.append(s / np.sqrt(s**2 + r_j))
        return np.concatenate(parts)

    def gram(self) -> np.ndarray:
        g = self.stack.T @ self.stack
        g += g.T
        g *= 0.5
        return g

    def eig(
        self, t: np.ndarray, n_components: int, gram: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        if n_components > t.size:
            raise ValueError(
                f"n_components={n_components} exceeds the stacked rank {t.size}; lower it"
            )
        g = gram * t[:, None] * t[None, :]
        with _scipy_lapack_one_thread():
            lam, vec, n_pos = _top_eigh(g, n_components, np.finfo(np.float64).eps)
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
        lam, vec = self.eig(t, n_components, gram) if eig is None else eig
        lam, vec = lam[:n_components], vec[:, :n_components]
        hk = _lowdin(self.stack @ (t[:, None] * vec / np.sqrt(lam)))
        _fix_signs(hk)
        h = np.zeros((self.n_rows, n_components))
        h[self.kept] = hk
        return h
