r"""MVLSA by parts: per-view factors computed once, combined for many configurations.

A tuning path over the MVLSA configuration changes one factor at a time. Most steps (the
regularization, which views take part, the embedding size) do not change any view's truncated
SVD, only how the factors are combined. :class:`FactorStore` keeps every view's rank-``m`` SVD
keyed by what determines it (view, preprocessing, ``m``, row weighting, seed), and
:func:`combine_factors` forms the MAX-VAR shared space from a selection of them -- the same
computation as :meth:`workbench.gcca.MVLSA.fit` with ``min_view_support=0`` (tested to agree).
Each view has its own random stream, seeded from its name, so a view's factor does not depend
on which other views are fitted with it.

The minimum view support ``v`` of the configuration is applied as :meth:`workbench.gcca.MVLSA.fit`
applies it: a word is kept only if it is observed in at least ``v`` of the (preprocessed) views
that take part, and every view's factor is computed on its kept observed rows only
(:meth:`FactorStore.get_many`).
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
from workbench.gcca import StackedFactors, ViewFactor, combine_factors, view_factor
from workbench.studies.mvlsa._settings import SVD_SOLVERS, MVLSAConfig, check_instance
from workbench.views import preprocess

logger = logging.getLogger(__name__)

_MISSING = object()  # FactorStore._lookup: no usable stored factor

__all__ = ["ViewFactor", "FactorStore", "combine_factors"]


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
    """Truncated SVD of one (preprocessed) :class:`workbench.views.View`, as MVLSA takes it
    (:func:`workbench.gcca.view_factor` with the view's own random stream)."""
    return view_factor(
        view.matrix,  # type: ignore[attr-defined]
        m,
        observed=view.observed,  # type: ignore[attr-defined]
        name=view.name,  # type: ignore[attr-defined]
        row_weighting=row_weighting,
        random_state=np.random.default_rng(_view_seed(view.name, seed)),  # type: ignore[attr-defined]
        n_iter=n_iter,
        svd_solver=svd_solver,
    )


@dataclass
class FactorStore:
    """In-memory store of view factors, keyed by ``(view name, preprocessing, m, weighting, seed)``.

    A request for rank ``m`` is served from a stored factor of rank ``>= m`` of the same key
    (sliced), so a grid over ``m`` costs one factorization at the largest ``m``. Singular
    vectors are kept in ``dtype`` (float32 by default, halving memory; None keeps float64);
    the combination runs in float64.

    ``min_rank`` and ``min_components`` make the results independent of the order of the
    requests: every factor is computed at rank ``max(m, min_rank)`` and every shared space at
    ``max(k, min_components)`` dimensions (within what the views allow), and smaller requests
    are served from those by slicing. Set them to the largest ``m`` and ``k`` a study asks for
    (:func:`~workbench.studies.mvlsa.rank_floors`): a request for a smaller rank then gives the
    same result whether or not a larger one was computed before it, which a cache of results
    by their inputs needs (a request above the floor is computed at its own size).

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
    min_rank: int = 0
    min_components: int = 0
    _items: dict[tuple[object, ...], ViewFactor | None] = field(default_factory=dict)
    _last: Any = field(default=None, repr=False)
    _support: dict[tuple[object, ...], np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.n_iter = check_int(self.n_iter, "FactorStore.n_iter", low=0)
        self.svd_solver = check_choice(self.svd_solver, "FactorStore.svd_solver", SVD_SOLVERS)
        self.n_jobs = check_int(self.n_jobs, "FactorStore.n_jobs", low=1)
        self.backend = check_choice(self.backend, "FactorStore.backend", BACKENDS)
        self.min_rank = check_int(self.min_rank, "FactorStore.min_rank", low=0)
        self.min_components = check_int(self.min_components, "FactorStore.min_components", low=0)
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

    def get(
        self,
        view: Any,
        config: MVLSAConfig,
        *,
        m: int | None = None,
        keep: np.ndarray | None = None,
    ) -> ViewFactor | None:
        """Factor of the *raw* ``view`` preprocessed by ``config`` (None if preprocessing leaves
        it without an observed row); with ``keep`` (bool, one per row) only the kept observed
        rows enter the factor (the minimum view support, :meth:`get_many`)."""
        key, m, found = self._lookup(view, config, m, keep)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        pv = self._preprocessed(view, config, key, keep)
        if pv is None:
            return None
        fac = compute_factor(
            pv,
            max(m, self.min_rank),
            row_weighting=config.row_weighting,
            seed=config.random_state,
            n_iter=self.n_iter,
            svd_solver=self.svd_solver,
        )
        return self._store(key, fac).sliced(m)

    def settings(self) -> dict[str, object]:
        """What the store's results depend on besides the views and the configuration (part
        of the key of a cached result computed through it)."""
        return {
            "n_iter": self.n_iter,
            "svd_solver": self.svd_solver,
            "dtype": None if self.dtype is None else np.dtype(self.dtype).name,
            "min_rank": self.min_rank,
            "min_components": self.min_components,
        }

    def _lookup(
        self, view: Any, config: MVLSAConfig, m: int | None, keep: np.ndarray | None = None
    ) -> tuple[tuple[object, ...], int, object]:
        """``(key, m, stored factor sliced to m / None / _MISSING)`` of ``view`` under
        ``config``."""
        check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
        if not all(hasattr(view, a) for a in ("name", "matrix", "observed", "family")):
            raise TypeError(f"view must be a View, got {type(view).__name__}")
        m = check_int(config.view_rank if m is None else m, "m", low=1)
        kept = None if keep is None else (int(keep.sum()), zlib.crc32(np.packbits(keep).tobytes()))
        key = (view.name, config.spec(), config.row_weighting, config.random_state, kept)
        if key in self._items:
            have = self._items[key]
            if have is None or have.s.size >= m or have.complete:
                return key, m, None if have is None else have.sliced(m)
        return key, m, _MISSING

    def _preprocessed(
        self, view: Any, config: MVLSAConfig, key: tuple[object, ...], keep: np.ndarray | None
    ) -> Any:
        """``view`` preprocessed by ``config`` (observed only on the ``keep`` rows when given);
        None (remembered under ``key``) when that leaves fewer than two observed rows."""
        raw = view.matrix
        if not np.isfinite(raw.data if sp.issparse(raw) else np.asarray(raw)).all():
            raise ValueError(f"view {view.name!r} has NaN or infinite entries")
        pv = view if view.family == "embedding" else preprocess(view, spec=config.spec())
        if keep is not None:
            pv = dataclasses.replace(pv, observed=np.asarray(pv.observed, bool) & keep)
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
            check_instance(c, "keep" if i == 0 else "also", MVLSAConfig, "an MVLSAConfig")
        want = {(c.spec(), c.row_weighting, c.random_state) for c in (keep, *also)}
        self._items = {k: v for k, v in self._items.items() if k[1:4] in want}
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
        # (a slice of a stored factor is a new view of the same memory each time)
        key = (tuple(id(f.U if f.U.base is None else f.U.base) for f in factors),
               tuple(f.U.shape for f in factors), n_rows)  # fmt: skip
        if self._last is None or self._last[0] != key:
            stacked = StackedFactors.of(factors, n_rows)
            self._last = (key, stacked, stacked.gram(), {}, tuple(factors))
        _, stacked, gram, eigs, _ = self._last
        t = stacked.shrinkage(regularization, relative_regularization)
        rk = (float(regularization), bool(relative_regularization))
        have = eigs.get(rk)
        if have is None or have[0].size < n_components:
            have = None
            wide = self.eigenpairs_to_solve(n_components, t.size)
            if wide > n_components:  # the floor: a smaller k is a slice of the same solve
                try:
                    have = stacked.eig(t, wide, gram)
                except ValueError:  # the views span fewer than `wide` directions
                    have = None
            if have is None:
                have = stacked.eig(t, n_components, gram)
            eigs[rk] = have
        return stacked.embedding(t, n_components, gram, have)

    def eigenpairs_to_solve(self, n_components: int, order: int) -> int:
        """How many eigenpairs :meth:`combine` solves for ``n_components`` dimensions of a
        stacked eigenproblem of order ``order``: ``min(max(n_components, min_components),
        order)`` (a smaller request is then a slice of that solve)."""
        n_components = check_int(n_components, "n_components", low=1)
        order = check_int(order, "order", low=1)
        return min(max(n_components, self.min_components), order)

    @property
    def n_computed(self) -> int:
        """Factorizations stored (a factor served by slicing a larger one is not counted)."""
        return sum(f is not None for f in self._items.values())

    def support(self, views: Sequence[Any], config: MVLSAConfig) -> np.ndarray:
        """Per row, the number of ``views`` (preprocessed by ``config``) that observe it (the
        :math:`K_{ww}` of the paper's view-support rule)."""
        check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
        if not views:
            raise ValueError("views is empty: the support of a word needs at least one view")
        key = (tuple(v.name for v in views), config.spec())
        if key not in self._support:
            total = np.zeros(len(views[0].observed), dtype=np.int64)
            for v in views:
                pv = v if v.family == "embedding" else preprocess(v, spec=config.spec())
                total += np.asarray(pv.observed, bool)
            self._support[key] = total
        return self._support[key]

    def kept_rows(self, views: Sequence[Any], config: MVLSAConfig) -> np.ndarray | None:
        """The rows observed in at least ``config.min_view_support`` of ``views`` (None when
        ``v = 0``: every row). A ``v`` above the number of views is lowered to it (logged), as
        the ablations do."""
        v = int(config.min_view_support)
        if v <= 0:
            return None
        if v > len(views):
            logger.info("min_view_support %d > %d views; lowered", v, len(views))
            v = len(views)
        keep = self.support(views, config) >= v
        if not keep.any():
            raise ValueError(f"no row is observed in at least min_view_support={v} views")
        return keep

    def get_many(self, views: Sequence[Any], config: MVLSAConfig) -> list[ViewFactor]:
        """Factors of several raw views. Missing ones are computed ``n_jobs`` at a time, each
        on one BLAS thread, or with ``backend="dask"`` one task per view on the active Dask
        client; every view has its own random stream, so results depend on neither. Views left
        without observed rows are skipped. With ``config.min_view_support = v > 0`` a row enters
        a view's factor only if at least ``v`` of ``views`` observe it (:meth:`kept_rows`), so a
        word seen in fewer views gets no embedding."""
        keep = self.kept_rows(views, config) if views else None
        if self.backend == "dask":
            self._compute_on_cluster(views, config, keep)
        if self.n_jobs > 1 and len(views) > 1 and self.backend == "local":
            with threadpool_limits(limits=1), ThreadPoolExecutor(self.n_jobs) as ex:
                found = list(ex.map(lambda v: self.get(v, config, keep=keep), views))
        else:
            found = [self.get(v, config, keep=keep) for v in views]
        return [f for f in found if f is not None]

    def _compute_on_cluster(
        self, views: Sequence[Any], config: MVLSAConfig, keep: np.ndarray | None = None
    ) -> None:
        """Compute the missing factors of ``views`` on the active Dask client: each
        preprocessed view is scattered once, straight to a worker, and factorized there by
        :func:`compute_factor` with the local fit's seed."""
        todo: dict[tuple[object, ...], tuple[Any, int]] = {}
        for view in views:
            key, m, found = self._lookup(view, config, None, keep)
            if found is _MISSING and key not in todo:
                pv = self._preprocessed(view, config, key, keep)
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
                max(m, self.min_rank),
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
        check_instance(f, "factors entries", ViewFactor, "a ViewFactor")
        if f.rows.size and int(f.rows.max()) >= n_rows:
            raise ValueError(
                f"n_rows={n_rows} is too small: factor {f.name!r} has row {int(f.rows.max())}"
            )
    return n_rows, n_components, regularization, relative
