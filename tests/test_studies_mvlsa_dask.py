"""``FactorStore(backend="dask")`` and :func:`workbench.cluster.dask_client`: the view
factors of the MVLSA study computed on a 2-process ``LocalCluster`` equal the local ones."""

from __future__ import annotations

import time

import numpy as np
import pytest
import scipy.linalg
from test_studies_mvlsa import CFG, _planted

from workbench.cluster import dask_client
from workbench.studies import mvlsa as mx

distributed = pytest.importorskip(
    "distributed", reason='dask.distributed not installed (pip install "workbench[scale]")'
)

MAX_DEGREES = 1e-6


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as c:  # fmt: skip
        yield c


def _max_angle(a, b):
    return float(np.degrees(scipy.linalg.subspace_angles(a, b).max()))


def test_dask_factors_equal_local(client):
    vs, _, _ = _planted()
    local = mx.FactorStore(dtype=None)
    remote = mx.FactorStore(dtype=None, backend="dask")
    with client.as_current():
        got = remote.get_many(vs.views, CFG)
        n_tasks = len(client.who_has())
    want = local.get_many(vs.views, CFG)
    assert [f.name for f in got] == [f.name for f in want]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.rows, w.rows)
        np.testing.assert_allclose(g.s, w.s, rtol=1e-10)
        assert _max_angle(g.U, w.U) < MAX_DEGREES
    # the scattered views are released after the fit; the store then serves from memory
    assert n_tasks == 0
    assert remote.n_computed == len(vs.views)
    with client.as_current():
        again = remote.get_many(vs.views, CFG)
    assert all(a is b for a, b in zip(again, got))
    # the combined shared space is the same as well
    n = len(vs.vocab)
    e_remote = remote.combine(got, n, 3)
    e_local = local.combine(want, n, 3)
    assert _max_angle(e_remote, e_local) < MAX_DEGREES


def test_dask_backend_without_client_is_a_clear_error():
    vs, _, _ = _planted()
    store = mx.FactorStore(backend="dask")
    with pytest.raises(RuntimeError, match="needs an active dask.distributed Client"):
        store.get_many(vs.views, CFG)


@pytest.mark.parametrize("backend", ["spark", "", None])
def test_backend_is_checked(backend):
    with pytest.raises((ValueError, TypeError), match="backend"):
        mx.FactorStore(backend=backend)
    with pytest.raises((ValueError, TypeError), match="backend"):
        dask_client(backend)


def test_dask_client_local_is_none():
    assert dask_client("local") is None
    assert dask_client("local", "tcp://ignored:1") is None


def test_unreachable_scheduler_fails_fast():
    t0 = time.perf_counter()
    with pytest.raises(ConnectionError, match="no Dask scheduler answered at 'tcp://127.0.0.1:9'"):
        dask_client("dask", "tcp://127.0.0.1:9", timeout=2)
    assert time.perf_counter() - t0 < 15


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ({"timeout": 0}, "timeout"),
        ({"timeout": "x"}, "timeout"),
        ({"n_workers": 0}, "n_workers"),
        ({"scheduler": 8786}, "scheduler must be an address string"),
        ({"scheduler": None}, "scheduler must be an address string"),
    ],
)
def test_dask_client_bad_options(bad, match):
    with pytest.raises((ValueError, TypeError), match=match):
        dask_client("dask", **bad)


def test_dask_client_starts_a_local_cluster():
    c = dask_client("dask", n_workers=1, dashboard_address="127.0.0.1:0")  # any free port
    try:
        assert distributed.get_client() is c
        assert len(c.scheduler_info()["workers"]) == 1
        assert c.dashboard_link.startswith("http")
    finally:
        cluster = c.cluster
        c.close()
        cluster.close()
