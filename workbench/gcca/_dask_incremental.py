r"""The ``backend="dask"`` fit of :class:`~workbench.gcca.MVLSA` with the incremental stacked
step (``stack_rank``) and its refinement (``stack_iter``); the rest of the distributed fit --
sending the views, the view tasks, split views, lost workers -- is :mod:`workbench.gcca._dask`.

1. Per view, its SVD task (:func:`workbench.gcca._dask._view_task`), then the merges its block
   completes in the local fit's tree (:class:`~workbench.gcca._incremental._MergeTree` with
   :func:`~workbench.gcca._incremental._merge`, so the local fit's answer). Tasks are submitted
   view by view and earlier submissions have priority, so a merge that is ready runs before the
   SVDs of later views: each block is freed once merged, the workers never hold
   :math:`\tilde M`, and merges of different subtrees run on different workers.
2. With ``stack_iter`` (:mod:`workbench.gcca._refine`), the views stay on their workers; the
   basis ``Q`` (``N x r``) is formed on a worker from the root of the tree, and each sweep runs
   one task per view on the worker holding it (``Q`` is copied once to each worker), the
   products summed pairwise in view order by tasks (the local fit's order) and the next basis
   formed on a worker. The last half sweep returns only the views' ``W_j``
   (``m_j x r``); the Rayleigh-Ritz step runs on the client, and ``H = Q U_B`` (``N x k``) is
   the only large array that comes back. A view split into row blocks is swept from the
   client through :class:`workbench.gcca._dask._RowBlockOperator`, as its SVD was.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from workbench._typing import Matrix

from ._dask import (
    Piece,
    _add,
    _assemble,
    _factor,
    _Layout,
    _matmul,
    _piece,
    _release,
    _release_views,
    _result,
    _row_arrays,
    _scatter_views,
    _Session,
    _split_operator,
    _split_view_svd,
    _submit_view,
    _summary,
    _view_summaries,
)
from ._incremental import _finish, _leaf, _merge, _MergeTree, _Partial
from ._linalg import _signed_embedding
from ._refine import _basis, _on_kept_rows, _ritz, _rows_of, _ViewBlock
from ._stacked import _check_stack_rank, _MVLSAPlan, _StackedFit, _ViewFactor

if TYPE_CHECKING:
    from distributed import Future


# --------------------------------------------------------------------------------------------
# tasks (module level: workers import them from workbench.gcca._dask_incremental)
# --------------------------------------------------------------------------------------------
def _as_partial(x: _Partial | Piece, n_rows: int, dtype: np.dtype) -> _Partial:
    """A run of the incremental step, or a view's piece (its rows of M~) as its leaf."""
    if isinstance(x, _Partial):
        return x
    rows, vals = x
    return _leaf(vals if rows is None else _assemble(n_rows, dtype, [x]))


def _merge_task(
    a: _Partial | Piece, b: _Partial | Piece, n_rows: int, dtype: np.dtype, rank: int
) -> _Partial:
    """One merge of the incremental stacked step (the local fit's :func:`_merge`)."""
    return _merge([_as_partial(a, n_rows, dtype), _as_partial(b, n_rows, dtype)], rank)


def _finish_task(x: _Partial | Piece, n_rows: int, dtype: np.dtype, k: int, rank: int) -> Any:
    return _finish(_as_partial(x, n_rows, dtype), k, rank)


def _start_task(x: _Partial | Piece, n_rows: int, dtype: np.dtype) -> np.ndarray:
    """The first basis of the sweeps: the columns of the tree's root, orthonormalized."""
    return _basis(_as_partial(x, n_rows, dtype).l)


def _block_task(
    x: Matrix,
    rows: np.ndarray | None,
    weights: np.ndarray,
    scale: np.ndarray,
    pos: np.ndarray,
    factor: _ViewFactor,
    weighted: bool,
    dtype: np.dtype,
) -> tuple[_ViewBlock, np.ndarray]:
    """A view's block of M~ as an operator (kept on the view's worker for the sweeps) and its
    kept-row positions."""
    xr = x if rows is None else x[rows]
    return _ViewBlock(xr, factor, weights if weighted else None, scale, dtype), pos


def _product_task(block: tuple[_ViewBlock, np.ndarray], q: np.ndarray) -> np.ndarray:
    """:math:`\\tilde M_j \\tilde M_j^\\top Q` on the kept rows: one view's share of a sweep."""
    blk, pos = block
    return _on_kept_rows(blk.matmat(blk.rmatmat(_rows_of(q, pos))), pos, q.shape[0])


def _projection_task(block: tuple[_ViewBlock, np.ndarray], q: np.ndarray) -> np.ndarray:
    """:math:`W_j = \\tilde M_j^\\top Q` (the last half sweep)."""
    blk, pos = block
    return blk.rmatmat(_rows_of(q, pos))


# --------------------------------------------------------------------------------------------
# the fit
# --------------------------------------------------------------------------------------------
def _run_incremental(
    ses: _Session, plan: _MVLSAPlan, layout: _Layout, scattered: dict[int, list[Future]]
) -> _StackedFit:
    """The distributed fit with the incremental stacked step (steps 1-2 of the module
    docstring)."""
    prep, opts, k = plan.prep, plan.opts, plan.k
    n_views, n_kept = len(prep.views), int(plan.kept.size)
    rank = int(cast(int, plan.stack_rank))
    _scatter_views(ses, plan, layout, scattered)
    n_merges = 0

    def merge(a: Future, b: Future) -> Future:
        nonlocal n_merges
        n_merges += 1
        return ses.submit(
            f"merge-{n_merges}", _merge_task, a, b, n_kept, opts.dtype, rank, track=False
        )

    tree: _MergeTree[Future] = _MergeTree(merge)
    factors: dict[int, Future] = {}
    arrays: dict[int, list[Future | None]] = {}
    summaries: dict[int, Future] = {}
    split_out: dict[int, tuple[list[Future], _ViewFactor, int]] = {}
    for j in range(n_views):
        if j in layout.split:
            split_out[j] = _split_view_svd(
                ses, plan, j, scattered[j], layout.split[j], layout.bounds
            )
            piece = split_out[j][0][0]
        else:
            arrays[j] = _row_arrays(ses, plan, j, scattered[j][0])
            res = _submit_view(ses, plan, j, scattered[j][0], arrays[j], layout.bounds, False)
            piece = ses.submit(f"piece-{j}", _piece, res, 0, track=False)
            factors[j] = ses.submit(f"factor-{j}", _factor, res)
            summaries[j] = ses.submit(f"summary-{j}", _summary, res)
            del res
        tree.push(piece)
        del piece
    refine = plan.stack_iter > 0
    if refine:
        final = ses.submit("start", _start_task, tree.result(), n_kept, opts.dtype, track=False)
    else:
        final = ses.submit("finish", _finish_task, tree.result(), n_kept, opts.dtype, k, rank)
    del tree
    summary = _view_summaries(ses, summaries, split_out, scattered, release=not refine)
    t_svd = time.perf_counter()
    _check_stack_rank(k, [s.size for s in summary[0]])
    if refine:
        facs = {j: out[1] for j, out in split_out.items()}
        hk, lam_k, mth = _sweeps(ses, plan, layout, scattered, final, factors, arrays, facs)
        _release_views(scattered)
    else:
        hk, lam_k, mth = ses.gather(final)
    del final
    t_gram = time.perf_counter()
    return _result(ses, summary, hk, lam_k, mth, split_out, factors, t_svd, t_gram)


def _sweeps(
    ses: _Session,
    plan: _MVLSAPlan,
    layout: _Layout,
    scattered: dict[int, list[Future]],
    q: Future,
    factors: dict[int, Future],
    arrays: dict[int, list[Future | None]],
    split_factors: dict[int, _ViewFactor],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``stack_iter`` sweeps from the basis ``q`` and the Rayleigh-Ritz step (step 2 of the
    module docstring): ``H``, its eigenvalues and :math:`\\tilde M^\\top H`."""
    n_views, n_kept, dtype = len(plan.prep.views), int(plan.kept.size), plan.opts.dtype

    def split_block(j: int) -> tuple[_ViewBlock, np.ndarray]:
        rj, wj, scale = plan.view_scale(j)
        op = _split_operator(ses, plan, j, scattered[j], layout.split[j])
        w = wj if plan.opts.weighted else None
        return _ViewBlock(op, split_factors[j], w, scale, dtype), plan.pos[rj]

    blocks = {
        j: ses.submit(
            f"block-{j}",
            _block_task,
            scattered[j][0],
            *arrays[j],
            factors[j],
            plan.opts.weighted,
            dtype,
        )
        for j in range(n_views)
        if j not in layout.split
    }

    for it in range(plan.stack_iter):
        q_here = ses.gather(q) if layout.split else None
        total: _MergeTree[Future] = _MergeTree(
            lambda a, b: ses.submit("sweep-sum", _add, a, b, track=False)
        )
        for j in range(n_views):
            if j in layout.split:
                blk, pos = split_block(j)
                z = blk.matmat(blk.rmatmat(_rows_of(cast(np.ndarray, q_here), pos)))
                total.push(ses.scatter(_on_kept_rows(z, pos, n_kept), track=False))
                del z
            else:
                total.push(ses.submit(f"sweep{it}-{j}", _product_task, blocks[j], q, track=False))
        q = ses.submit(f"basis-{it + 1}", _basis, total.result(), track=False)
        del total, q_here
    q_here = ses.gather(q) if layout.split else None
    ws: dict[int, Any] = {}
    for j in range(n_views):
        if j in layout.split:
            blk, pos = split_block(j)
            ws[j] = blk.rmatmat(_rows_of(cast(np.ndarray, q_here), pos))
        else:
            ws[j] = ses.submit(f"project-{j}", _projection_task, blocks[j], q)
    remote = [j for j in ws if j not in layout.split]
    ws.update(zip(remote, ses.gather([ws[j] for j in remote])))
    _release(list(blocks.values()))  # (they hold the views on the workers)
    ub, lam_k, vb = _ritz([ws[j] for j in range(n_views)], plan.k, dtype)
    h = ses.gather(ses.submit("h", _matmul, q, ub.astype(dtype)))
    hk, mth = _signed_embedding(h, vb, lam_k)
    return hk, lam_k, mth
