r"""The ``backend="dask"`` fit of :class:`~workbench.gcca.MVLSA` on a ``dask.distributed`` cluster.

Imported only by ``MVLSA(backend="dask").fit`` (``import workbench`` does not import
``distributed``); needs the ``scale`` extra, ``pip install "workbench[scale]"``.

What runs where
---------------
*Client* (the process calling ``fit``): view validation and the preprocessing of
:class:`MVLSA` (masks, row weights, ``C``, the per-view seeds, drawn exactly as in the local
fit), the small eigenproblem of the ``(sum_j m_j)``-square Gram matrix of
:math:`\tilde M`, the Löwdin and sign corrections (from ``k x k`` and ``2 x k`` reductions) and
the assembly of ``embedding_`` (``N x k``, the only large array that comes back).

*Workers*:

1. every view is sent once, to one worker (:meth:`Client.scatter` with ``hash=False``, views
   placed largest first on the least loaded worker); tasks get the view's future, never the
   array, so nothing is pickled again per task. Data goes straight to and from the workers
   (``direct=True`` unless the client was made with ``direct_to_workers=False``): through the
   scheduler, the client would serialize a copy of each view and the scheduler relay it;
2. one task per view restricts the view to its observed kept rows and calls
   :func:`workbench.gcca._stacked._view_svd` -- the function of the local fit, with the same
   seed -- then forms its block :math:`D_j A_j T_j C^{-1/2}` of :math:`\tilde M` and cuts it
   into the row blocks of the stacked matrix (``B_j^T`` stays on the worker); the views are
   released once every view is factorized;
3. per row block ``b`` of the kept rows, a task assembles :math:`\tilde M_b` from the views'
   pieces and another takes :math:`\tilde M_b^\top \tilde M_b`; these are summed pairwise in a
   tree of tasks on the workers and only the total comes back;
4. per row block, :math:`H_b = \tilde M_b V \Lambda^{-1/2}`, its float64 Gram matrix (tree-summed
   for the client's Löwdin factor), the corrected block and its column extremes (for the sign
   fix of :func:`workbench.gcca._linalg.fix_signs`);
5. the maps :math:`U_j = B_j (S_j^2 + r_j I)^{-1/2} (\tilde M^\top H)_j`, on the worker that
   holds ``B_j``.

The arithmetic is the local fit's, in the same precision; only the order of the sums over row
blocks differs, so the shared space agrees with the local fit up to rounding (tests: below
1e-6 degrees in float64).

With ``stack_rank`` (the incremental stacked step of :mod:`workbench.gcca._incremental`),
steps 2-4 become a tree of merges on the workers and, with ``stack_iter``, sweeps over the views
where they are: :mod:`workbench.gcca._dask_incremental`. :func:`~workbench.gcca._dask_fit.fit_dask`
runs either.

Views too big for one worker
----------------------------
A view with more than ``block_rows`` rows (by default: one larger than a quarter of the smallest
worker's memory limit) is split into row blocks, each scattered once to a worker. Its SVD is
:func:`workbench.gcca._svd._truncated_svd` itself, run on the client against
:class:`_RowBlockOperator`, which computes the products the randomized solver asks for --
``X B`` (block rows, concatenated), ``X^T Q`` (per block, tree-summed) and the column mean --
on the workers. The client then holds the solver's ``n_j x l`` blocks (``l = m + p``), not the
view. The exact ``"dense"`` and ``"gram"`` solvers need a whole view and are refused for a split
view (``"auto"`` means ``"randomized"`` there).

Lost workers
------------
Tasks running on a worker that dies are rescheduled by Dask, and results lost with it are
recomputed from their inputs. Scattered data has no lineage: when the lost worker held a view
(or a piece sent from the client), the futures that depend on it are cancelled (or a scatter to
it fails with ``CommClosedError``). The fit then
sends the lost data again from the client's copies and runs the distributed steps again (at
most :data:`~workbench.gcca._dask_fit.MAX_ATTEMPTS` times, with a warning); every step is deterministic for a given
seed, so the answer is the same. ``fit_stats_["dask_attempts"]`` says how many runs it took.

Why not ``dask.array.linalg.svd_compressed``
--------------------------------------------
It is not used. Its power iterations do not renormalise the block between products by default
(``iterator="power"``), so with ``n_power_iter > 0`` the small singular directions of a
flat-spectrum word view are lost to round-off -- the renormalisation that
:func:`~workbench.gcca.truncated_svd` does at every step (pivoted LU) -- and it neither centres
a sparse view implicitly nor applies row weights, nor draws the local solver's test matrix, so
it could not give the local fit's answer. The split-view path reuses the local solver instead.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from workbench._dask import tree_reduce
from workbench._typing import Matrix

from ._certificate import _UNCERTIFIED, _StackCheck, _ViewCheck
from ._linalg import _gram64, _largest_entry_signs, _lowdin_factor
from ._stacked import (
    _check_stack_rank,
    _MVLSAPlan,
    _scaled_factor,
    _stacked_eigen,
    _StackedFit,
    _SVDOptions,
    _view_map,
    _view_nnz,
    _view_svd,
    _ViewFactor,
)

if TYPE_CHECKING:
    from distributed import Client, Future

#: A piece of a view's block of M~ on one row block: ``(local rows or None, values)``.
Piece = tuple[np.ndarray | None, np.ndarray]

logger = logging.getLogger(__name__)


#: With ``block_rows=None``, a view larger than this fraction of the smallest worker memory
#: limit is split into row blocks of at most this size.
VIEW_MEMORY_FRACTION = 0.25

#: With ``block_rows=None``, the row blocks of the stacked matrix hold about this many bytes
#: (and there are at least as many blocks as workers).
GRAM_BLOCK_BYTES = 64 * 2**20


# --------------------------------------------------------------------------------------------
# tasks (module level: workers import them from workbench.gcca._dask)
# --------------------------------------------------------------------------------------------
@dataclass
class _ViewResult:
    """What a view task leaves on its worker: the factor (with ``B_j^T``), the view's rows of
    :math:`\\tilde M` cut by row block (``(local rows or None, values)``), its nonzeros."""

    factor: _ViewFactor
    pieces: list[Piece]
    nnz: int


def _cut_rows(block: np.ndarray, pos: np.ndarray, bounds: np.ndarray) -> list[Piece]:
    """Rows of ``block`` (at the sorted kept-row positions ``pos``) cut at ``bounds``; a piece
    covering its whole row block has ``None`` for its local rows."""
    cuts = np.searchsorted(pos, bounds)
    out: list[Piece] = []
    for b in range(bounds.size - 1):
        a, e = int(cuts[b]), int(cuts[b + 1])
        full = e - a == int(bounds[b + 1] - bounds[b])
        out.append((None if full else pos[a:e] - bounds[b], block[a:e]))
    return out


def _view_task(
    x: Matrix,
    rows: np.ndarray | None,
    weights: np.ndarray,
    scale: np.ndarray,
    pos: np.ndarray,
    bounds: np.ndarray,
    rank: int,
    reg: float,
    seed: int,
    opts: _SVDOptions,
    view: int,
) -> _ViewResult:
    """One view's SVD on a worker: the local fit's :func:`_view_svd` and block of M~."""
    xr = x if rows is None else x[rows]
    u, fac = _view_svd(xr, rank, weights, reg, seed, opts, view=view)
    blk = _scaled_factor(u, scale, fac.t, out=u if u.dtype == opts.dtype else None)
    del u
    return _ViewResult(fac, _cut_rows(blk, pos, bounds), _view_nnz(xr))


def _summary(
    res: _ViewResult,
) -> tuple[np.ndarray, np.ndarray | None, float, int, int, _ViewCheck]:
    f = res.factor
    return f.s, f.mean, f.reg, f.n_passes, res.nnz, f.check


def _piece(res: _ViewResult, b: int) -> Piece:
    return res.pieces[b]


def _assemble(n_rows: int, dtype: np.dtype, pieces: Sequence[Piece]) -> np.ndarray:
    """Row block of M~ from the views' pieces (views in order, unobserved rows zero)."""
    width = sum(p[1].shape[1] for p in pieces)
    out = np.zeros((n_rows, width), dtype=dtype, order="F")
    off = 0
    for rows, vals in pieces:
        mj = vals.shape[1]
        if rows is None:
            out[:, off : off + mj] = vals
        else:
            out[rows, off : off + mj] = vals
        off += mj
    return out


def _gram(mb: np.ndarray) -> np.ndarray:
    return np.asarray(mb.T @ mb)  # in the data's precision, as the local fit


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def _matmul(a: Matrix, b: np.ndarray) -> np.ndarray:
    return np.asarray(a @ b)


def _rmatmul(a: Matrix, q: np.ndarray) -> np.ndarray:
    return np.asarray(a.T @ q)


def _column_sum(a: Matrix) -> np.ndarray:
    return np.asarray(a.sum(axis=0), dtype=np.float64).ravel()


def _extremes(h: np.ndarray) -> np.ndarray:
    return np.vstack([h.max(axis=0), h.min(axis=0)])


def _map_task(res: _ViewResult | _ViewFactor, mth: np.ndarray) -> np.ndarray:
    f = res.factor if isinstance(res, _ViewResult) else res
    return _view_map(f.vt, f.s, f.reg, mth)


def _factor(res: _ViewResult) -> _ViewFactor:
    return res.factor


# --------------------------------------------------------------------------------------------
# client-side helpers
# --------------------------------------------------------------------------------------------
def _direct(client: Client) -> bool:
    """Send and fetch data straight to and from the workers (not through the scheduler, which
    would also make the client serialize a copy of each view), unless the client was made with
    ``direct_to_workers=False`` (workers not reachable from the client)."""
    direct = getattr(client, "direct_to_workers", None)
    return True if direct is None else bool(direct)


class _Session:
    """The client calls of one run of the distributed steps. Every future it makes is
    recorded and released by :meth:`release` -- also when the run fails, whose traceback would
    otherwise keep the data on the workers for as long as it is referenced."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.direct = _direct(client)
        self.futures: list[Future] = []

    def submit(
        self, name: str, fn: Callable[..., object], *args: object, track: bool = True
    ) -> Future:
        """``client.submit`` under a readable, unique key (``mvlsa-<name>-<uuid>``);
        ``track=False`` for an intermediate result that the workers may free as soon as the
        tasks that need it are done (the caller drops its future)."""
        key = f"mvlsa-{name}-{uuid.uuid4().hex}"
        fut = self.client.submit(fn, *args, key=key, pure=False)
        if track:
            self.futures.append(fut)
        return fut

    def scatter(
        self,
        data: Matrix | np.ndarray,
        *,
        track: bool = True,
        workers: list[str] | None = None,
        broadcast: bool = False,
    ) -> Future:
        """``client.scatter`` of one object with ``hash=False`` (new keys: no deduplication
        against the data of another fit) and :func:`_direct`; ``track=False`` leaves the release
        to the caller."""
        fut = self.client.scatter(
            data, workers=workers, broadcast=broadcast, hash=False, direct=self.direct
        )
        if track:
            self.futures.append(fut)
        return fut

    def scatter_each(self, items: list[Piece]) -> list[Future]:
        """One future per item of ``items`` (as :meth:`scatter`, tracked)."""
        futs = self.client.scatter(items, hash=False, direct=self.direct)
        self.futures.extend(futs)
        return list(futs)

    def gather(self, futures: Future | Sequence[Future]) -> Any:
        """The results of ``futures`` (whatever the tasks returned)."""
        return self.client.gather(futures, direct=self.direct)

    def tree_sum(self, futures: Sequence[Future], name: str) -> Future:
        """Pairwise sum of ``futures`` in ``ceil(log2 n)`` levels of tasks on the workers (a
        fixed pairing, so the rounding does not depend on scheduling); a future of the total."""
        return tree_reduce(
            futures, lambda pair: self.submit(f"{name}-sum", _add, *pair), split_every=2
        )

    def release(self) -> None:
        for f in self.futures:
            f.release()
        self.futures.clear()


def _release_views(scattered: dict[int, list[Future]]) -> None:
    for futs in scattered.values():
        _release(futs)
    scattered.clear()


def _release(futures: Sequence[Future]) -> None:
    for f in futures:
        f.release()


def _nbytes(x: Matrix) -> int:
    if sp.issparse(x):
        return int(
            sum(getattr(x, a).nbytes for a in ("data", "indices", "indptr") if hasattr(x, a))
        )
    return int(np.asarray(x).nbytes)


class _Placement:
    """Least-loaded (by bytes sent) worker for the next scatter."""

    def __init__(self, workers: Sequence[str]) -> None:
        self.load = dict.fromkeys(workers, 0)

    def take(self, nbytes: int) -> str:
        addr = min(self.load, key=lambda a: (self.load[a], a))
        self.load[addr] += nbytes
        return addr


class _RowBlockOperator:
    """A view split into row blocks held by the workers, as the matrix ``X`` that
    :func:`~workbench.gcca._svd._truncated_svd` multiplies (randomized route): ``X @ B``,
    ``X.T @ Q`` and ``X.mean(axis=0)`` are computed block by block on the workers."""

    def __init__(
        self, ses: _Session, blocks: list[Future], bounds: np.ndarray, n_cols: int, dtype: np.dtype
    ) -> None:
        self.ses = ses
        self.blocks = blocks
        self.bounds = bounds
        self.shape = (int(bounds[-1]), int(n_cols))
        self.dtype = np.dtype(dtype)
        self.ndim = 2
        self.T = _Transposed(self)
        self.is_sparse = False  # True for a sparse view: read by the adaptive SVD (block width)

    def mean(self, axis: int = 0) -> np.ndarray:
        if axis != 0:
            raise NotImplementedError("column means only")
        sums = [self.ses.submit("colsum", _column_sum, blk) for blk in self.blocks]
        return np.asarray(self.ses.gather(self.ses.tree_sum(sums, "colsum"))) / self.shape[0]

    def __matmul__(self, b: np.ndarray) -> np.ndarray:
        """``X b``: ``b`` (``d x l``) sent once to every worker, block products gathered."""
        bf = self.ses.scatter(np.asarray(b), broadcast=True)
        parts = [self.ses.submit("xb", _matmul, blk, bf) for blk in self.blocks]
        return np.concatenate(self.ses.gather(parts), axis=0)

    def rmatmul(self, q: np.ndarray) -> np.ndarray:
        """``X^T q``: each row block of ``q`` sent to the worker of its block of ``X``, the
        ``d x l`` products tree-summed on the workers."""
        q = np.asarray(q)
        holders = self.ses.client.who_has(self.blocks)
        parts = []
        for i, blk in enumerate(self.blocks):
            where = list(holders.get(blk.key, ()))[:1] or None
            qf = self.ses.scatter(q[self.bounds[i] : self.bounds[i + 1]], workers=where)
            parts.append(self.ses.submit("xtq", _rmatmul, blk, qf))
        return np.asarray(self.ses.gather(self.ses.tree_sum(parts, "xtq")))


class _Transposed:
    def __init__(self, op: _RowBlockOperator) -> None:
        self.op = op

    def __matmul__(self, q: np.ndarray) -> np.ndarray:
        return self.op.rmatmul(q)


# --------------------------------------------------------------------------------------------
# the fit
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Layout:
    """How the data is cut: views split into row blocks (view -> rows per block) and the row
    blocks of the stacked matrix (``bounds`` over the kept rows)."""

    split: dict[int, int]
    bounds: np.ndarray
    n_workers: int


def _layout(client: Client, plan: _MVLSAPlan, block_rows: int | None) -> _Layout:
    workers = client.scheduler_info()["workers"]
    if not workers:
        raise RuntimeError("backend='dask': the dask.distributed cluster has no workers")
    n_workers = len(workers)
    prep = plan.prep
    limits = [int(w.get("memory_limit") or 0) for w in workers.values()]
    view_limit = VIEW_MEMORY_FRACTION * min(limits) if min(limits) > 0 else math.inf
    split: dict[int, int] = {}
    for j, x in enumerate(prep.views):
        n_j = int(np.count_nonzero(prep.row_mask[prep.rows[j]]))
        if block_rows is not None:
            rows = block_rows
        else:
            nbytes = _nbytes(x) * n_j / max(x.shape[0], 1)
            rows = n_j if nbytes <= view_limit else math.ceil(n_j / math.ceil(nbytes / view_limit))
        if rows < n_j:
            split[j] = int(rows)
    if split and plan.opts.solver.method in ("dense", "gram"):
        j = min(split)
        raise ValueError(
            f"svd_solver={plan.opts.solver.method!r} needs a whole view on one worker, but view {j} is "
            f"split into row blocks of {split[j]} rows (block_rows={block_rows!r}); use "
            "svd_solver='randomized' or 'auto', or raise block_rows"
        )
    n_kept = int(plan.kept.size)
    if plan.stack_rank is not None:  # the incremental step merges whole view blocks
        rows_per_block = n_kept
    elif block_rows is not None:
        rows_per_block = block_rows
    else:
        nbytes = n_kept * sum(plan.cap) * plan.opts.dtype.itemsize
        n_blocks = max(n_workers, math.ceil(nbytes / GRAM_BLOCK_BYTES))
        rows_per_block = math.ceil(n_kept / min(n_blocks, n_kept))
    bounds = np.append(np.arange(0, n_kept, rows_per_block), n_kept)
    return _Layout(split, bounds, n_workers)


def _scatter_views(
    ses: _Session, plan: _MVLSAPlan, layout: _Layout, scattered: dict[int, list[Future]]
) -> None:
    """Send every view (or its row blocks) that is not on the workers yet, once (released by
    :func:`~workbench.gcca._dask_fit.fit_dask`, not by the session: they outlive a failed run)."""
    client = ses.client
    missing = [j for j in range(len(plan.prep.views)) if j not in scattered]
    if not missing:
        return
    workers = sorted(client.scheduler_info()["workers"])
    if not workers:  # (all lost: wait for the nannies or the deployment to replace them)
        client.wait_for_workers(1, timeout=120)
        workers = sorted(client.scheduler_info()["workers"])
    place = _Placement(workers)
    if scattered:  # views still held after a lost worker count towards the load
        held = client.who_has([f for futs in scattered.values() for f in futs])
        sizes = {
            f.key: _nbytes(plan.prep.views[j]) // len(futs)
            for j, futs in scattered.items()
            for f in futs
        }
        for key, where in held.items():
            for addr in list(where)[:1]:
                if addr in place.load:
                    place.load[addr] += sizes.get(key, 0)
    for j in sorted(missing, key=lambda j: -_nbytes(plan.prep.views[j])):
        x = plan.prep.views[j]
        if j not in layout.split:
            nb = _nbytes(x)
            scattered[j] = [ses.scatter(x, workers=[place.take(nb)], track=False)]
            continue
        rj, _, _ = plan.view_scale(j)
        whole = rj.size == x.shape[0]
        step = layout.split[j]
        futs = []
        for a in range(0, rj.size, step):  # one block copy at a time on the client
            blk = x[a : a + step] if whole else x[rj[a : a + step]]
            futs.append(ses.scatter(blk, workers=[place.take(_nbytes(blk))], track=False))
            del blk
        scattered[j] = futs
    logger.info("backend='dask': %d views sent to the workers", len(missing))


def _split_operator(
    ses: _Session, plan: _MVLSAPlan, j: int, blocks: list[Future], step: int
) -> _RowBlockOperator:
    """View ``j``'s observed kept rows, held by the workers in row blocks of ``step`` rows."""
    x = plan.prep.views[j]
    n_j = plan.view_scale(j)[0].size
    op = _RowBlockOperator(
        ses, blocks, np.append(np.arange(0, n_j, step), n_j), x.shape[1], x.dtype
    )
    op.is_sparse = sp.issparse(x)  # the adaptive SVD picks the local fit's block width from it
    return op


def _split_view_svd(
    ses: _Session, plan: _MVLSAPlan, j: int, blocks: list[Future], step: int, bounds: np.ndarray
) -> tuple[list[Future], _ViewFactor, int]:
    """SVD of a view split into row blocks of ``step`` rows, driven from the client (products on
    the workers); its pieces of M~ (cut at ``bounds``) scattered."""
    x = plan.prep.views[j]
    rj, wj, scale = plan.view_scale(j)
    op = _split_operator(ses, plan, j, blocks, step)
    opts = plan.opts
    if opts.solver.method != "randomized":  # ("auto"; _layout refused "dense" and "gram")
        logger.info("backend='dask': view %d is split into row blocks: randomized SVD", j)
        opts = dataclasses.replace(
            opts, solver=dataclasses.replace(opts.solver, method="randomized")
        )
    u, fac = _view_svd(op, plan.cap[j], wj, plan.reg[j], plan.seeds[j], opts, view=j)
    pieces = _cut_rows(_scaled_factor(u, scale, fac.t), plan.pos[rj], bounds)
    del u
    futs = ses.scatter_each(pieces)
    if sp.issparse(x):
        nnz = int(np.diff(sp.csr_array(x).indptr)[rj].sum())
    else:
        nnz = int(rj.size * x.shape[1])
    return futs, fac, nnz


def _row_arrays(ses: _Session, plan: _MVLSAPlan, j: int, view: Future) -> list[Future | None]:
    """View ``j``'s row arrays -- its observed kept rows (None: all), their ``d_ij``,
    ``d_ij / sqrt(C_ii)`` and kept-row positions -- sent to the worker holding the view, not put
    into the task graph (which the scheduler relays)."""
    rj, wj, scale = plan.view_scale(j)
    rows = None if rj.size == plan.prep.views[j].shape[0] else rj
    held = list(ses.client.who_has([view]).get(view.key, ()))[:1] or None
    arrays = (rows, wj, scale, plan.pos[rj])
    return [None if a is None else ses.scatter(a, workers=held) for a in arrays]


def _submit_view(
    ses: _Session,
    plan: _MVLSAPlan,
    j: int,
    view: Future,
    arrays: list[Future | None],
    bounds: np.ndarray,
    track: bool = True,
) -> Future:
    """The task of view ``j`` (not split into row blocks) on the worker holding it."""
    return ses.submit(
        f"svd-{j}",
        _view_task,
        view,
        *arrays,
        bounds,
        plan.cap[j],
        float(plan.reg[j]),
        int(plan.seeds[j]),
        plan.opts,
        j,
        track=track,
    )


def _view_summaries(
    ses: _Session,
    summaries: dict[int, Future],
    split_out: dict[int, tuple[list[Future], _ViewFactor, int]],
    scattered: dict[int, list[Future]],
    *,
    release: bool = True,
) -> tuple[list[np.ndarray], list[np.ndarray | None], list[float], int, int, list[_ViewCheck]]:
    """Singular values, means, ``r_j``, passes, nonzeros and certificate parts of the views
    once all are factorized (then the views are released, unless ``release`` is False)."""
    gathered = dict(zip(summaries, ses.gather(list(summaries.values()))))
    if release:  # every view is factorized: free the workers' memory
        _release_views(scattered)
    svals, means, regs, passes, nnz = [], [], [], 0, 0
    checks: list[_ViewCheck] = []
    for j in sorted([*gathered, *split_out]):
        if j in split_out:
            _, fac, nz = split_out[j]
            s, mean, r, p, chk = fac.s, fac.mean, fac.reg, fac.n_passes, fac.check
        else:
            s, mean, r, p, nz, chk = gathered[j]
        checks.append(chk)
        svals.append(s)
        means.append(mean)
        regs.append(r)
        passes += p
        nnz += nz
    return svals, means, regs, passes, nnz, checks


def _result(
    ses: _Session,
    summary: tuple[
        list[np.ndarray], list[np.ndarray | None], list[float], int, int, list[_ViewCheck]
    ],
    hk: np.ndarray,
    lam_k: np.ndarray,
    mth: np.ndarray,
    split_out: dict[int, tuple[list[Future], _ViewFactor, int]],
    remote: dict[int, Future],
    t_svd: float,
    t_gram: float,
    stack: _StackCheck = _UNCERTIFIED,
) -> _StackedFit:
    """The maps (:func:`_maps`) and the fit's result, from the views' summaries."""
    svals, means, regs, passes, nnz, checks = summary
    sizes = [s.size for s in svals]
    return _StackedFit(
        hk=hk,
        lam=lam_k,
        maps=_maps(ses, sizes, mth, {j: out[1] for j, out in split_out.items()}, remote),
        means=means,
        svals=svals,
        reg_used=np.array(regs, dtype=float),
        sizes=sizes,
        n_passes=passes,
        nnz=nnz,
        t_svd=t_svd,
        t_gram=t_gram,
        stats={},
        views=checks,
        stack=stack,
    )


def _maps(
    ses: _Session,
    sizes: Sequence[int],
    mth: np.ndarray,
    local: dict[int, _ViewFactor],
    remote: dict[int, Future],
) -> list[np.ndarray]:
    """The maps :math:`U_j` from :math:`\\tilde M^\\top H`: on the client for the views whose
    factor is here (split views), on the worker holding ``B_j^T`` for the others."""
    done: dict[int, np.ndarray] = {}
    futs: dict[int, Future] = {}
    off = 0
    for j, mj in enumerate(sizes):
        if j in local:
            fac = local[j]
            done[j] = _view_map(fac.vt, fac.s, fac.reg, mth[off : off + mj])
        else:
            futs[j] = ses.submit(f"map-{j}", _map_task, remote[j], mth[off : off + mj])
        off += mj
    done.update(zip(futs, ses.gather(list(futs.values()))))
    return [done[j] for j in range(len(sizes))]


def _run(
    ses: _Session, plan: _MVLSAPlan, layout: _Layout, scattered: dict[int, list[Future]]
) -> _StackedFit:
    prep, opts, k = plan.prep, plan.opts, plan.k
    n_views, dtype, bounds = len(prep.views), opts.dtype, layout.bounds
    n_blocks = bounds.size - 1
    _scatter_views(ses, plan, layout, scattered)

    # 1. one task per (unsplit) view, where its data is; split views driven from here
    results = {
        j: _submit_view(
            ses, plan, j, scattered[j][0], _row_arrays(ses, plan, j, scattered[j][0]), bounds
        )
        for j in range(n_views)
        if j not in layout.split
    }
    summaries = {j: ses.submit(f"summary-{j}", _summary, f) for j, f in results.items()}
    split_out: dict[int, tuple[list[Future], _ViewFactor, int]] = {}
    for j, step in layout.split.items():
        logger.info("backend='dask': view %d in row blocks of %d rows", j, step)
        split_out[j] = _split_view_svd(ses, plan, j, scattered[j], step, bounds)
    summary = _view_summaries(ses, summaries, split_out, scattered)
    svals = summary[0]
    sizes = [s.size for s in svals]
    t_svd = time.perf_counter()
    _check_stack_rank(k, sizes)

    # 2. M~ by row blocks, its Gram matrix tree-summed on the workers; eigh here
    pieces = [
        split_out[j][0]
        if j in split_out
        else [ses.submit(f"piece-{j}-{b}", _piece, results[j], b) for b in range(n_blocks)]
        for j in range(n_views)
    ]
    mbs = [
        ses.submit(
            f"block-{b}",
            _assemble,
            int(bounds[b + 1] - bounds[b]),
            dtype,
            [pieces[j][b] for j in range(n_views)],
        )
        for b in range(n_blocks)
    ]
    del pieces
    gram = ses.gather(ses.tree_sum([ses.submit("gram", _gram, m) for m in mbs], "gram"))
    lam_k, v_k, stack_check = _stacked_eigen(np.array(gram), k, dtype)

    # 3. H = M~ V Lambda^{-1/2} by row blocks, Löwdin-corrected, signs fixed
    coef = ses.scatter((v_k / np.sqrt(lam_k)).astype(dtype), broadcast=True)
    hbs = [ses.submit("h", _matmul, m, coef) for m in mbs]
    del mbs
    g64 = ses.gather(ses.tree_sum([ses.submit("hgram", _gram64, h) for h in hbs], "hgram"))
    corr = ses.scatter(_lowdin_factor(np.asarray(g64)).astype(dtype), broadcast=True)
    hcs = [ses.submit("hc", _matmul, h, corr) for h in hbs]
    del hbs
    ext = np.stack(ses.gather([ses.submit("ext", _extremes, h) for h in hcs]))
    signs = _largest_entry_signs(np.vstack([ext[:, 0].max(axis=0), ext[:, 1].min(axis=0)]))
    hk = np.concatenate(ses.gather(hcs), axis=0)
    del hcs
    hk *= signs.astype(hk.dtype)  # as fix_signs
    mth = v_k * np.sqrt(lam_k) * signs  # = M~^T H
    t_gram = time.perf_counter()

    # 4. maps U_j where B_j^T is
    return _result(ses, summary, hk, lam_k, mth, split_out, results, t_svd, t_gram, stack_check)
