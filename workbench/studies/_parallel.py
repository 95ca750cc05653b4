"""Running a study's independent jobs in worker processes, each with one BLAS thread.

The jobs of a study (one per seed, or one per embedding) are many small matrix products: with
several BLAS threads per job, threads waiting for a core on a shared machine make them many
times slower, so every job runs single-threaded and the parallelism comes from the processes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from joblib import Parallel, delayed
from joblib.externals.loky import get_reusable_executor
from threadpoolctl import threadpool_limits

__all__ = ["single_threaded", "run_jobs"]

T = TypeVar("T")


def single_threaded(fn: Callable[..., T], kwargs: Mapping[str, Any]) -> T:
    """``fn(**kwargs)`` with one BLAS thread."""
    with threadpool_limits(limits=1):
        return fn(**kwargs)


def run_jobs(fn: Callable[..., T], calls: Sequence[Mapping[str, Any]], n_jobs: int) -> list[T]:
    """``[fn(**kwargs) for kwargs in calls]``, each call single-threaded, in ``n_jobs`` loky
    worker processes (in this process when ``n_jobs`` is 1).

    ``fn`` must be a module-level function (it is pickled to the workers). The workers are
    stopped at the end rather than at interpreter exit: that frees their memory, and a notebook
    kernel then exits without loky's warnings about leaked semaphores.
    """
    if n_jobs == 1:
        return [single_threaded(fn, kwargs) for kwargs in calls]
    try:
        return list(
            Parallel(n_jobs=n_jobs, backend="loky")(
                delayed(single_threaded)(fn, kwargs) for kwargs in calls
            )
        )
    finally:
        get_reusable_executor().shutdown(wait=True)
