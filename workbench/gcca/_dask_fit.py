"""The entry point of the ``backend="dask"`` fit of :class:`~workbench.gcca.MVLSA`: the exact
stacked step (:mod:`workbench.gcca._dask`) or the incremental one
(:mod:`workbench.gcca._dask_incremental`), run again when a worker holding scattered data is
lost (see "Lost workers" in :mod:`workbench.gcca._dask`)."""

from __future__ import annotations

import concurrent.futures
import logging
from typing import TYPE_CHECKING

from ._dask import _layout, _release, _release_views, _run, _Session
from ._dask_incremental import _run_incremental
from ._stacked import _MVLSAPlan, _StackedFit

if TYPE_CHECKING:
    from distributed import Client, Future

logger = logging.getLogger(__name__)

#: Runs of the distributed steps before a fit that keeps losing scattered data gives up.
MAX_ATTEMPTS = 3


def fit_dask(client: Client, plan: _MVLSAPlan, *, block_rows: int | None = None) -> _StackedFit:
    """The distributed MVLSA fit (see the module docstring); the local fit's result."""
    layout = _layout(client, plan, block_rows)
    scattered: dict[int, list[Future]] = {}  # view -> its future(s); kept across attempts
    try:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            ses = _Session(client)
            try:
                run = _run if plan.stack_rank is None else _run_incremental
                res = run(ses, plan, layout, scattered)
            except (concurrent.futures.CancelledError, OSError) as exc:  # (CommClosedError)
                if attempt == MAX_ATTEMPTS or getattr(client, "status", "running") != "running":
                    raise RuntimeError(
                        f"backend='dask': data scattered to the workers was lost {attempt} "
                        f"times (workers leaving the cluster); giving up: {exc}"
                    ) from exc
                for j in _lost_views(client, scattered):
                    _release(scattered.pop(j))
                logger.warning(
                    "backend='dask': a worker holding scattered data was lost (%s); sending the "
                    "lost views again and rerunning the distributed steps (attempt %d of %d)",
                    exc,
                    attempt + 1,
                    MAX_ATTEMPTS,
                )
                continue
            finally:
                ses.release()
            res.stats.update(
                dask_workers=layout.n_workers,
                dask_attempts=attempt,
                dask_row_blocks=int(layout.bounds.size - 1),
                dask_blocked_views=sorted(layout.split),
            )
            return res
        raise AssertionError("unreachable")  # pragma: no cover
    finally:
        _release_views(scattered)


def _lost_views(client: Client, scattered: dict[int, list[Future]]) -> list[int]:
    """Views with a scattered future that is cancelled or held by no worker (the scheduler has
    processed the loss by now: it cancelled the dependent task); all of them if in doubt."""
    lost = {j for j, futs in scattered.items() if any(f.status != "finished" for f in futs)}
    alive = [f for j, futs in scattered.items() if j not in lost for f in futs]
    try:
        held = client.who_has(alive) if alive else {}
    except concurrent.futures.CancelledError:
        return list(scattered)
    lost |= {j for j, futs in scattered.items() if any(not held.get(f.key) for f in futs)}
    return sorted(lost)
