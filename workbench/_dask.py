"""The Dask client lookup and tree reduction shared by the ``backend="dask"`` code paths.

:mod:`workbench.gcca._dask` (MVLSA on a cluster) and :mod:`workbench.views._dask` (counting
views on a cluster) import from here; nothing here imports :mod:`distributed` before a
function is called, so ``import workbench`` stays free of Dask.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from workbench._optional import import_optional
from workbench._validation import check_int

logger = logging.getLogger(__name__)

__all__ = ["active_client", "tree_reduce"]


def active_client(client: Any = None) -> Any:
    """``client``, or the active :class:`distributed.Client`.

    Raises
    ------
    ImportError
        ``dask.distributed`` is not installed (the message names the ``scale`` extra).
    RuntimeError
        No client is active (the message shows how to start one), or it is asynchronous or
        closed.
    TypeError
        ``client`` is not a :class:`distributed.Client`.
    """
    distributed = import_optional("distributed", "scale", purpose="backend='dask'")
    if client is not None:
        if not isinstance(client, distributed.Client):
            raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    else:
        try:
            client = distributed.get_client()
        except ValueError:
            raise RuntimeError(
                "backend='dask' needs an active dask.distributed Client, and there is none; "
                "start one first, e.g. `from distributed import Client, LocalCluster; "
                "client = Client(LocalCluster())` (or `Client('tcp://host:8786')` for a "
                "running cluster)"
            ) from None
    if getattr(client, "asynchronous", False):
        raise RuntimeError("backend='dask' needs a synchronous dask.distributed Client")
    if getattr(client, "status", "running") in ("closing", "closed"):
        raise RuntimeError(
            "backend='dask': the dask.distributed Client is closed; start a new one, e.g. "
            "Client(LocalCluster())"
        )
    return client


def tree_reduce(
    futures: Sequence[Any], combine: Callable[[list[Any]], Any], *, split_every: int
) -> Any:
    """Combine ``futures`` level by level: each run of ``split_every`` consecutive futures
    becomes ``combine(group)`` (a new future; a group of one passes through).

    The grouping is fixed by the order of ``futures``, so floating-point sums do not depend on
    scheduling, and no part travels to the client. Returns the future of the total.
    """
    split_every = check_int(split_every, "split_every", low=2)
    level = list(futures)
    if not level:
        raise ValueError("nothing to reduce")
    depth = 0
    while len(level) > 1:
        groups = [level[i : i + split_every] for i in range(0, len(level), split_every)]
        level = [g[0] if len(g) == 1 else combine(g) for g in groups]
        depth += 1
    logger.debug("tree reduction of %d parts: %d levels", len(futures), depth)
    return level[0]
