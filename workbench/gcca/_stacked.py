"""The steps of an :class:`~workbench.gcca.MVLSA` fit that both backends share: the per-view
truncated SVDs, the blocks of the stacked matrix :math:`\tilde M`, its eigenproblem and the view
maps, and the in-process fit (:func:`_fit_local`). :mod:`workbench.gcca._dask` calls the same
functions on the workers, with the same seeds."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from workbench._typing import Matrix

from ._base import _Prepared
from ._certificate import (
    _UNCERTIFIED,
    _stack_check_gram,
    _stack_check_product,
    _StackCheck,
    _view_check,
    _ViewCheck,
)
from ._incremental import _finish, _leaf, _merge, _MergeTree, _next_bound, _Partial
from ._linalg import _signed_embedding, _top_eigh
from ._refine import _add_into, _basis, _on_kept_rows, _ritz, _rows_of, _ViewBlock
from ._svd import _RowOperand, _SVDSettings, _truncated_svd

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class _SVDOptions:
    """The checked per-view SVD settings of one :class:`MVLSA` fit (sent to dask workers)."""

    solver: _SVDSettings  # centring, route, oversampling, iterations, tol of truncated_svd
    weighted: bool  # pass the row weights d_ij to the SVD (row_weighting="glove")
    relative_regularization: bool
    dtype: np.dtype  # working precision of the stacked matrix M~


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
    check: _ViewCheck


def _view_svd(
    x: Matrix | _RowOperand,
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
        opts.solver,
        row_weights=weights if opts.weighted else None,
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
    check = _view_check(res.s, res.residual, res.tail_bound, r_j, res.converged, res.stop_reason)
    return res.U, _ViewFactor(res.s, res.Vt, res.mean, t, float(r_j), res.n_passes, check)


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


def _view_nnz(x: Matrix) -> int:
    return int(cast("sp.sparray", x).nnz) if sp.issparse(x) else int(x.size)


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


def _stacked_eigen(
    gram: np.ndarray, k: int, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray, _StackCheck]:
    """Top-``k`` eigenpairs (float64) of the Gram matrix of :math:`\\tilde M` (symmetrized in
    place), refusing zero eigenvalues among them, and the stacked step's part of the
    certificate (:mod:`workbench.gcca._certificate`; the ``k+1`` th eigenvalue is computed too)."""
    gram += gram.T
    gram *= 0.5
    p = gram.shape[0]
    eps = float(np.finfo(dtype).eps)
    lam_k, v_k, n_pos = _top_eigh(gram, min(k + 1, p), eps)
    if n_pos < k:
        raise ValueError(
            f"n_components={k} but the views span only {n_pos} shared directions (zero "
            "eigenvalues of M); lower n_components"
        )
    nxt = float(lam_k[k]) if k < p else 0.0
    lam_k, v_k = lam_k[:k].astype(np.float64), v_k[:, :k].astype(np.float64)
    check = _stack_check_gram(np.asarray(gram, dtype=np.float64), v_k, lam_k, nxt, eps)
    return lam_k, v_k, check


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
    stack_rank: int | None = None  # None: the exact stacked step; r: the incremental one
    stack_iter: int = 0  # sweeps refining the incremental step (workbench.gcca._refine)

    def view_scale(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """View ``j``'s observed kept rows, their weights ``d_ij`` and ``d_ij / sqrt(C_ii)``
        (working dtype)."""
        rj, wj = self.prep.kept_rows(j)
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
    stats: dict[str, int | float | list[int]]
    views: list[_ViewCheck]
    stack: _StackCheck


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
    out: dict[int, tuple[_ViewFactor, int]] = {}
    with tqdm(total=n_views, desc="MVLSA view SVDs", disable=None, leave=False) as bar:
        if n_pooled:
            with threadpool_limits(limits=1), ThreadPoolExecutor(n_par) as ex:
                futures = {ex.submit(view_svd, j, 1, stack): j for j in range(n_pooled)}
                for fut in as_completed(futures):
                    out[futures[fut]] = fut.result()
                    bar.update()
        for j in range(n_pooled, n_views):
            out[j] = view_svd(j, n_jobs, stack)
            bar.update()
    facs = [out[j][0] for j in range(n_views)]
    nnz = sum(out[j][1] for j in range(n_views))
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
    lam_k, v_k, stack_check = _stacked_eigen(mt.T @ mt, k, dtype)
    hk = np.asarray(mt @ (v_k / np.sqrt(lam_k)).astype(dtype))
    hk, mth = _signed_embedding(hk, v_k, lam_k)  # (Löwdin: removes float32 round-off)
    del mt
    t_gram = time.perf_counter()
    return _local_result(facs, hk, lam_k, mth, nnz, t_svd, t_gram, stack_check)


def _local_result(
    facs: Sequence[_ViewFactor],
    hk: np.ndarray,
    lam_k: np.ndarray,
    mth: np.ndarray,
    nnz: int,
    t_svd: float,
    t_gram: float,
    stack: _StackCheck = _UNCERTIFIED,
) -> _StackedFit:
    """The maps :math:`U_j` from :math:`\\tilde M^\\top H` and the rest of a local fit."""
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
        sizes=[f.s.size for f in facs],
        n_passes=sum(f.n_passes for f in facs),
        nnz=nnz,
        t_svd=t_svd,
        t_gram=t_gram,
        stats={},
        views=[f.check for f in facs],
        stack=stack,
    )


def _in_windows(fn: Callable[[int, int], T], n_items: int, n_jobs: int) -> Iterator[T]:
    """``fn(j, n_threads)`` for ``j = 0, 1, ...``, yielded in order: ``n_jobs`` at a time in
    threads, each on one thread (all BLAS libraries limited to one thread meanwhile); a last
    window of fewer items runs one at a time on ``n_jobs`` threads."""
    n_par = min(n_jobs, n_items)
    for start in range(0, n_items, max(n_par, 1)):
        window = range(start, min(start + n_par, n_items))
        if n_par > 1 and len(window) == n_par:
            with threadpool_limits(limits=1), ThreadPoolExecutor(n_par) as ex:
                done = list(ex.map(lambda j: fn(j, 1), window))
        else:
            done = [fn(j, n_jobs) for j in window]
        yield from done
        del done


def _fit_local_incremental(plan: _MVLSAPlan, n_jobs: int) -> _StackedFit:
    """The in-process fit with the incremental stacked step (``stack_rank``): the views' blocks
    of :math:`\\tilde M` are merged pairwise in view order (:class:`_MergeTree` of
    :mod:`workbench.gcca._incremental`) and dropped once merged; at most ``n_jobs`` blocks and
    ``log2(J) + 1`` runs of ``N x stack_rank`` are in memory. Then ``stack_iter`` sweeps of
    :mod:`workbench.gcca._refine` over the views."""
    prep, opts, k = plan.prep, plan.opts, plan.k
    rank = int(cast(int, plan.stack_rank))
    n_views = len(prep.views)
    n_kept = plan.kept.size

    def view_block(j: int, n_threads: int) -> tuple[np.ndarray, _ViewFactor, int]:
        x, _, _ = prep.view_rows(j)
        rj, wj, scale = plan.view_scale(j)
        u, fac = _view_svd(
            x, plan.cap[j], wj, plan.reg[j], plan.seeds[j], opts, view=j, n_threads=n_threads
        )
        blk = _scaled_factor(u, scale, fac.t, out=u if u.dtype == opts.dtype else None)
        del u
        frob2[j] = float(np.einsum("ij,ij->", blk, blk, dtype=np.float64))
        return _on_kept_rows(blk, plan.pos[rj], n_kept), fac, _view_nnz(x)

    t_merge = 0.0
    frob2 = np.zeros(n_views)

    def merge(a: _Partial, b: _Partial) -> _Partial:
        nonlocal t_merge
        t0 = time.perf_counter()
        out = _merge([a, b], rank)
        t_merge += time.perf_counter() - t0
        return out

    tree = _MergeTree(merge)
    facs: list[_ViewFactor] = []
    nnz = 0
    with tqdm(total=n_views, desc="MVLSA views (incremental)", disable=None, leave=False) as bar:
        for blk, fac, nz in _in_windows(view_block, n_views, n_jobs):  # pushed in view order
            tree.push(_leaf(blk))
            del blk
            facs.append(fac)
            nnz += nz
            bar.update()
    t_svd = time.perf_counter()
    _check_stack_rank(k, [f.s.size for f in facs])
    root = tree.result()
    del tree
    if root.lam is None:  # a single view
        root = _merge([root], rank)
    next_ub = _next_bound(root, k)
    if plan.stack_iter:
        hk, lam_k, mth = _refine_local(plan, facs, root.l, n_jobs)
    else:
        hk, lam_k, mth = _finish(root, k, rank)
    del root
    t_gram = time.perf_counter()
    mh = _sweep(plan, facs, hk, n_jobs)  # M' H, for the certificate
    eps = float(np.finfo(opts.dtype).eps)
    check = _stack_check_product(hk, mh, float(frob2.sum()), eps, next_ub)
    del mh
    res = _local_result(facs, hk, lam_k, mth, nnz, t_svd, t_gram, check)
    res.stats["merge_seconds"] = t_merge
    return res


def _view_block_of(
    plan: _MVLSAPlan, facs: Sequence[_ViewFactor], j: int, n_threads: int
) -> tuple[_ViewBlock, np.ndarray]:
    """View ``j``'s block of :math:`\\tilde M` as an operator and its kept-row positions."""
    x, _, _ = plan.prep.view_rows(j)
    rj, wj, scale = plan.view_scale(j)
    w = wj if plan.opts.weighted else None
    blk = _ViewBlock(x, facs[j], w, scale, plan.opts.dtype, n_threads)
    return blk, plan.pos[rj]


def _sweep(plan: _MVLSAPlan, facs: Sequence[_ViewFactor], q: np.ndarray, n_jobs: int) -> np.ndarray:
    """:math:`M' Q = \\sum_j \\tilde M_j \\tilde M_j^\\top Q` on the kept rows (one sweep)."""
    n_kept = plan.kept.size

    def product(j: int, n_threads: int) -> np.ndarray:
        blk, pos = _view_block_of(plan, facs, j, n_threads)
        return _on_kept_rows(blk.matmat(blk.rmatmat(_rows_of(q, pos))), pos, n_kept)

    total: _MergeTree[np.ndarray] = _MergeTree(_add_into)
    for z in _in_windows(product, len(plan.prep.views), n_jobs):
        total.push(z.copy() if z is q else z)
    return total.result()


def _refine_local(
    plan: _MVLSAPlan, facs: Sequence[_ViewFactor], start: np.ndarray, n_jobs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``stack_iter`` sweeps of :mod:`workbench.gcca._refine` from the columns of ``start``
    and the Rayleigh-Ritz step: ``H``, its eigenvalues and :math:`\\tilde M^\\top H`."""
    n_views, n_kept, dtype = len(plan.prep.views), plan.kept.size, plan.opts.dtype

    def view_block(j: int, n_threads: int) -> tuple[_ViewBlock, np.ndarray]:
        x, _, _ = plan.prep.view_rows(j)
        rj, wj, scale = plan.view_scale(j)
        w = wj if plan.opts.weighted else None
        return _ViewBlock(x, facs[j], w, scale, dtype, n_threads), plan.pos[rj]

    def product(qb: np.ndarray, j: int, n_threads: int) -> np.ndarray:
        blk, pos = view_block(j, n_threads)
        return _on_kept_rows(blk.matmat(blk.rmatmat(_rows_of(qb, pos))), pos, n_kept)

    q = _basis(start)
    desc = "MVLSA stack_iter sweeps"
    with tqdm(total=plan.stack_iter * n_views, desc=desc, disable=None, leave=False) as bar:
        for _ in range(plan.stack_iter):
            total: _MergeTree[np.ndarray] = _MergeTree(_add_into)
            for z in _in_windows(functools.partial(product, q), n_views, n_jobs):
                total.push(z)
                del z
                bar.update()
            q = _basis(total.result())
            del total

    def projection(j: int, n_threads: int) -> np.ndarray:
        blk, pos = view_block(j, n_threads)
        return blk.rmatmat(_rows_of(q, pos))

    ub, lam_k, vb = _ritz(list(_in_windows(projection, n_views, n_jobs)), plan.k, dtype)
    hk, mth = _signed_embedding(q @ ub.astype(dtype), vb, lam_k)
    return hk, lam_k, mth
