"""The Dask client behind a notebook's ``BACKEND`` parameter.

``backend="dask"`` code paths (:class:`workbench.gcca.MVLSA`, the view counting of
:mod:`workbench.views`, :class:`workbench.studies.mvlsa.FactorStore`) run on the *active*
``dask.distributed.Client``. :func:`dask_client` makes one from a notebook's parameters: none
for ``"local"``; for ``"dask"`` a connection to a running scheduler, or a ``LocalCluster`` on
this machine. Needs the ``scale`` extra (``pip install "workbench[scale]"``) only for ``"dask"``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from workbench._optional import import_optional
from workbench._validation import check_choice, check_float, check_int

if TYPE_CHECKING:
    from distributed import Client

logger = logging.getLogger(__name__)

__all__ = ["BACKENDS", "dask_client"]

#: The values of every ``backend`` parameter.
BACKENDS = ("local", "dask")


def dask_client(
    backend: str = "local",
    scheduler: str = "",
    *,
    n_workers: int | None = None,
    timeout: float = 10.0,
    dashboard_address: str = "127.0.0.1:8787",
) -> Client | None:
    """The client a ``BACKEND`` / ``SCHEDULER`` pair of notebook parameters asks for.

    Parameters
    ----------
    backend : {"local", "dask"}
        ``"local"`` returns None (everything runs in this process).
    scheduler : str
        With ``"dask"``: the address of a running scheduler (``"tcp://host:8786"``), or ``""``
        to start a :class:`distributed.LocalCluster` of ``n_workers`` single-threaded worker
        processes on this machine.
    n_workers : int, optional
        Workers of the local cluster (default: one per core). Ignored with a ``scheduler``.
        The local cluster's scheduler and workers listen on ``127.0.0.1`` only.
    timeout : float
        Seconds to wait for the scheduler before giving up.
    dashboard_address : str
        Where the local cluster serves its dashboard: ``127.0.0.1`` (this machine only) by
        default; pass e.g. ``":8787"`` to serve it on every interface. Ignored with a
        ``scheduler``.

    Returns
    -------
    distributed.Client or None
        The client, made the default (``backend="dask"`` code finds it); its
        ``dashboard_link`` is where the cluster's dashboard is served.

    Raises
    ------
    ValueError
        ``backend`` is not one of :data:`BACKENDS` (the message lists them).
    ImportError
        ``backend="dask"`` without ``dask.distributed`` (the message names the ``scale``
        extra).
    ConnectionError
        No scheduler answered at ``scheduler`` within ``timeout`` seconds.

    Examples
    --------
    >>> dask_client("local") is None
    True
    >>> dask_client("spark")
    Traceback (most recent call last):
    ...
    ValueError: backend must be one of 'local', 'dask'; got 'spark'
    """
    backend = check_choice(backend, "backend", BACKENDS)
    if not isinstance(scheduler, str):
        raise TypeError(f"scheduler must be an address string or '', got {scheduler!r}")
    timeout = check_float(timeout, "timeout", low=0, low_open=True)
    if n_workers is not None:
        n_workers = check_int(n_workers, "n_workers", low=1)
    if not isinstance(dashboard_address, str) or not dashboard_address:
        raise TypeError(
            f"dashboard_address must be an address string such as '127.0.0.1:8787', "
            f"got {dashboard_address!r}"
        )
    if backend == "local":
        return None
    distributed = import_optional("distributed", "scale", purpose="backend='dask'")
    if scheduler:
        try:
            client = distributed.Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as exc:
            raise ConnectionError(
                f"backend='dask': no Dask scheduler answered at {scheduler!r} within "
                f"{timeout:g} s ({type(exc).__name__}); start one (`dask scheduler`) or pass "
                "scheduler='' for a LocalCluster on this machine"
            ) from None
    else:
        # on a shared machine, nothing of the cluster is reachable from other hosts
        cluster = distributed.LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=dashboard_address,
        )
        client = distributed.Client(cluster, timeout=f"{timeout}s")
    logger.info("Dask client %s, dashboard %s", client, client.dashboard_link)
    return client
