"""``MVLSA(backend="dask")`` on a dask.distributed cluster.

One switch, same answer: the fit through the active ``Client`` (a ``LocalCluster`` of 2 worker
processes here) spans the local fit's shared space (same seed) to well below 1e-6 degrees --
dense, sparse, masked and row-weighted views, views split into row blocks, and the incremental
stacked step (``stack_rank``), whose merges and sweeps (``stack_iter``) run on the workers in the
local fit's order. Pitfalls, a test each: views are sent to the workers once (tasks get futures), a worker killed mid-fit costs a
rerun but not the answer, a missing ``distributed`` or ``Client`` is a clear error.
(``dask.array.linalg.svd_compressed`` is not used; ``workbench.gcca._dask`` says why.)
"""

from __future__ import annotations

import concurrent.futures
import importlib
import logging
import subprocess
import sys
import time
import tracemalloc
import weakref

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.linalg import subspace_angles

from workbench.gcca import MVLSA

distributed = pytest.importorskip(
    "distributed", reason='dask.distributed not installed (pip install "workbench[scale]")'
)

MAX_DEGREES = 1e-6


def _cluster() -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0"
    )


@pytest.fixture(scope="module")
def client():
    """Two worker processes; the client is not the global default (tests enter it with
    ``as_current``), so that the no-client test sees none."""
    with _cluster() as cluster, distributed.Client(cluster, set_as_default=False) as c:
        c.run(importlib.import_module, "workbench.gcca._dask")  # warm up: imports take ~2 s
        yield c


def _views(seed=0, n=300, dims=(20, 25, 30, 35), k0=3):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k0))
    return [z @ rng.normal(size=(k0, d)) + 0.5 * rng.normal(size=(n, d)) for d in dims]


def _sparse(views):
    return [sp.csr_array(np.where(v > 0.5, v, 0.0)) for v in views]


def _masks(n=300):
    rows = np.arange(n)
    return [None, rows >= 20, rows % 7 != 0, rows < 280]


def max_degrees(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.degrees(subspace_angles(a, b).max()))


def _assert_same_fit(local: MVLSA, dist: MVLSA) -> float:
    angle = max_degrees(local.embedding_, dist.embedding_)
    assert angle < MAX_DEGREES
    np.testing.assert_allclose(dist.eigenvalues_, local.eigenvalues_, rtol=1e-10)
    assert dist.view_ranks_ == local.view_ranks_
    np.testing.assert_array_equal(dist.row_mask_, local.row_mask_)
    for a, b in zip(dist.view_maps_, local.view_maps_):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)
    for a, b in zip(dist.view_means_, local.view_means_):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dist.regularization_, local.regularization_, rtol=1e-12)
    assert dist.fit_stats_["n_passes"] == local.fit_stats_["n_passes"]
    assert dist.fit_stats_["nnz"] == local.fit_stats_["nnz"]
    assert dist.fit_stats_["backend"] == "dask" and local.fit_stats_["backend"] == "local"
    return angle


CASES = {
    "dense": ({}, lambda: (_views(), None)),
    "dense-randomized": ({"svd_solver": "randomized", "n_iter": 2}, lambda: (_views(), None)),
    "sparse": ({"svd_solver": "randomized", "n_iter": 3}, lambda: (_sparse(_views()), None)),
    "masks-weights-support": (
        {
            "row_weighting": "glove",
            "row_weight_max": 5.0,
            "min_view_support": 2,
            "relative_regularization": True,
            "regularization": 1e-2,
        },
        lambda: (_sparse(_views(seed=1)), _masks()),
    ),
    # the incremental stacked step, truncating (4 views x 8 columns kept in 10 directions)
    "incremental": ({"stack_rank": 10}, lambda: (_views(seed=6), None)),
    "incremental-merges-only": (
        {"stack_rank": 10, "stack_iter": 0},
        lambda: (_views(seed=6), None),
    ),
    "incremental-weighted": (
        {"stack_rank": 10, "stack_iter": 3, "row_weighting": "glove", "row_weight_max": 5.0},
        lambda: (_sparse(_views(seed=8)), _masks()),
    ),
    "incremental-sparse-masks": (
        {"stack_rank": 10, "svd_solver": "randomized", "n_iter": 3, "min_view_support": 2},
        lambda: (_sparse(_views(seed=7)), _masks()),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_same_shared_space_as_the_local_fit(client, case):
    params, data = CASES[case]
    views, masks = data()
    est = MVLSA(n_components=4, view_rank=8, random_state=3, **params)
    local = est.fit(views, masks=masks)
    local_emb = local.embedding_.copy()
    with client.as_current():
        dist = MVLSA(**{**est.get_params(), "backend": "dask"}).fit(views, masks=masks)
    _assert_same_fit(local, dist)
    np.testing.assert_allclose(
        dist.transform(views, masks=masks), local.transform(views, masks=masks), atol=1e-9
    )
    assert dist.fit_stats_["dask_workers"] == 2 and dist.fit_stats_["dask_attempts"] == 1
    assert dist.fit_stats_["dask_blocked_views"] == []
    np.testing.assert_array_equal(local.embedding_, local_emb)


@pytest.mark.parametrize("stack_rank", [None, 10])
@pytest.mark.parametrize("sparse", [False, True])
def test_views_split_into_row_blocks_give_the_same_answer(client, sparse, stack_rank):
    """``block_rows`` below the views' rows: each view's randomized SVD runs on row blocks
    (products X B, X^T Q and the column mean computed block-wise on the workers), and the
    Gram reduction over row blocks of the same size (the incremental step merges whole view
    blocks instead)."""
    views, masks = _views(seed=2), _masks()
    if sparse:
        views = _sparse(views)
    params = {
        "n_components": 4,
        "view_rank": 8,
        "random_state": 5,
        "svd_solver": "randomized",
        "n_iter": 3,
        "stack_rank": stack_rank,
    }
    local = MVLSA(**params).fit(views, masks=masks)
    with client.as_current():
        dist = MVLSA(**params, backend="dask", block_rows=90).fit(views, masks=masks)
    _assert_same_fit(local, dist)
    assert dist.fit_stats_["dask_blocked_views"] == [0, 1, 2, 3]
    # 300 kept rows in blocks of 90 for the Gram reduction; one block for the incremental step
    assert dist.fit_stats_["dask_row_blocks"] == (4 if stack_rank is None else 1)


def test_split_views_refuse_the_exact_solvers(client):
    with client.as_current(), pytest.raises(ValueError, match="block_rows"):
        MVLSA(n_components=2, view_rank=4, svd_solver="gram", backend="dask", block_rows=50).fit(
            _views()
        )


def test_errors_of_the_view_tasks_reach_the_caller(client):
    views = _views()
    views[1] = np.ones_like(views[1])  # rank 0 after centring
    with client.as_current(), pytest.raises(ValueError, match="view 1 has rank 0"):
        MVLSA(n_components=2, view_rank=3, backend="dask").fit(views)


def _array_bytes(obj) -> int:
    """Bytes of the arrays in a task argument (containers walked; futures count 0)."""
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if sp.issparse(obj):
        return obj.data.nbytes + obj.indices.nbytes + obj.indptr.nbytes
    if isinstance(obj, (list, tuple)):
        return sum(_array_bytes(o) for o in obj)
    return 0


@pytest.mark.parametrize("stack_rank", [None, 10])
def test_views_are_sent_to_the_workers_once(client, monkeypatch, stack_rank):
    """Each view is scattered exactly once, to one worker; the view tasks get its future and no
    task is submitted with view-sized data; the client allocates no copy of a view (scattered
    straight to the workers, not serialized for the scheduler); nothing of the fit stays on the
    workers after it -- also with the incremental step, whose sweeps run where the views are."""
    views = _views(n=2000, dims=(600, 610, 620, 630))  # 9.6-10.1 MB each
    scatters, submits = [], []  # (no futures kept here: they would pin the data)
    real_scatter, real_submit = client.scatter, client.submit

    def scatter(data, *args, **kwargs):
        futs = real_scatter(data, *args, **kwargs)
        if isinstance(futs, distributed.Future):
            scatters.append((data, futs.key, client.who_has([futs])[futs.key]))
        return futs

    def submit(fn, *args, **kwargs):
        first = args[0].key if isinstance(args[0], distributed.Future) else None
        submits.append((kwargs.get("key", ""), first, _array_bytes(args)))
        return real_submit(fn, *args, **kwargs)

    monkeypatch.setattr(client, "scatter", scatter)
    monkeypatch.setattr(client, "submit", submit)
    tracemalloc.start()
    try:
        with client.as_current():
            MVLSA(
                n_components=4, view_rank=8, random_state=0, backend="dask", stack_rank=stack_rank
            ).fit(views)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    smallest = min(v.nbytes for v in views)
    assert peak < smallest / 2, f"client allocated {peak / 1e6:.1f} MB"
    sent = [(d, f, w) for d, f, w in scatters if _array_bytes(d) >= smallest]
    assert len(sent) == len(views)
    for v in views:  # each view once, on one worker
        assert sum(np.array_equal(d, v) for d, _, _ in sent) == 1
    assert all(len(w) == 1 for _, _, w in sent)
    keys = {k for _, k, _ in sent}
    svd = [first for key, first, _ in submits if key.startswith("mvlsa-svd-")]
    assert len(svd) == len(views)  # one task per view, given the view's future
    assert set(svd) == keys
    biggest = max(nbytes for _, _, nbytes in submits)
    assert biggest < smallest / 4, biggest
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # released on the workers once the fit returns
        held = {str(k) for k in client.who_has()}
        if not held & {str(k) for k in keys} and not any("mvlsa-" in k for k in held):
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"keys left on the workers: {sorted(held)}")


@pytest.mark.filterwarnings("ignore:Port .* is already in use")  # (the module's cluster)
@pytest.mark.parametrize("stack_rank", [None, 10])
def test_a_worker_killed_mid_fit_gives_the_same_answer(caplog, stack_rank):
    """Kill the worker process of a running view task: the lost views are sent again, the
    tasks rerun (the nanny restarts the worker), and the answer is the local fit's -- with the
    exact and with the incremental stacked step (whose running factorization is lost too)."""
    views = _views(seed=4, dims=(20, 25, 30, 35))
    params = {"n_components": 4, "view_rank": 8, "random_state": 7, "stack_rank": stack_rank}
    local = MVLSA(**params).fit(views)

    def slow_view_tasks(seconds: float) -> None:  # runs on the workers (pickled by value)
        import time as _time

        from workbench.gcca import _dask

        original = _dask._view_svd

        def slow(*args, **kwargs):
            _time.sleep(seconds)
            return original(*args, **kwargs)

        _dask._view_svd = slow

    with _cluster() as cluster, distributed.Client(cluster) as c:  # the default client
        c.run(importlib.import_module, "workbench.gcca._dask")
        c.run(slow_view_tasks, 1.0)
        with concurrent.futures.ThreadPoolExecutor(1) as pool, caplog.at_level(logging.WARNING):
            fut = pool.submit(MVLSA(**params, backend="dask").fit, views)
            victim = None
            deadline = time.monotonic() + 30
            while victim is None and time.monotonic() < deadline:
                for addr, keys in c.processing().items():
                    if any(str(k).startswith("mvlsa-svd-") for k in keys):
                        victim = addr
                        break
                time.sleep(0.05)
            assert victim is not None, "no view task started"
            (nanny,) = [n for n in cluster.workers.values() if n.worker_address == victim]
            nanny.process.process.kill()
            dist = fut.result(timeout=60)
    assert dist.fit_stats_["dask_attempts"] >= 2
    assert "was lost" in caplog.text
    _assert_same_fit(local, dist)


def test_missing_distributed_names_the_scale_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ImportError, match=r'pip install "workbench\[scale\]"'):
        MVLSA(n_components=2, view_rank=3, backend="dask").fit(_views())


def test_no_active_client_is_a_clear_error(monkeypatch):
    # hide default clients other test modules may have left (this module's is not global)
    monkeypatch.setattr(distributed.client, "_global_clients", weakref.WeakValueDictionary())
    assert distributed.client._get_global_client() is None
    with pytest.raises(RuntimeError, match=r"needs an active dask.distributed Client"):
        MVLSA(n_components=2, view_rank=3, backend="dask").fit(_views())


def test_local_backend_is_the_default_and_import_does_not_load_distributed():
    assert MVLSA().backend == "local"
    code = "import sys, workbench, workbench.gcca; print('distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
