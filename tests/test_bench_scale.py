"""The synthetic paper-shaped views of ``bench/bench_scale.py``: the families' densities, a
canonical float32 CSR layout, shared structure across views, and the quick run end to end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench_scale():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("bench_scale", BENCH / "bench_scale.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["bench_scale"] = mod  # (its dataclasses look their module up)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.modules.pop("bench_scale", None)
        sys.path.remove(str(BENCH))


def test_views_have_the_families_densities_and_a_canonical_layout(bench_scale):
    n, d = 20_000, 2_000
    views = bench_scale.make_views(n, d, seed=1)
    assert len(views) == 46 == sum(f.n_views for f in bench_scale.FAMILIES)
    j = 0
    for fam in bench_scale.FAMILIES:
        for x in views[j : j + fam.n_views]:
            assert x.shape == (n, d) and x.dtype == np.float32 and x.indices.dtype == np.int32
            assert x.has_canonical_format
            assert np.all(x.data >= 1.0)  # count^(1/4) of counts >= 1
            # duplicates merged: at most the drawn mean (Poisson), at least half of it
            if fam.mean_nnz >= 1:
                assert 0.5 * fam.mean_nnz < x.nnz / n <= 1.1 * fam.mean_nnz
        j += fam.n_views
    np.testing.assert_array_equal(
        bench_scale.make_views(n, d, seed=1)[3].toarray(), views[3].toarray()
    )


def test_views_share_the_latent_word_classes(bench_scale):
    """Rows of one latent class put mass on the same 40-column block in every view."""
    n, d = 20_000, 3_000
    views = bench_scale.make_views(n, d, seed=2)
    classes = np.random.default_rng(2).integers(0, bench_scale.N_CLASSES, size=n)
    rows = np.flatnonzero(classes == 7)
    start = (7 * (d // bench_scale.N_CLASSES)) % (d - bench_scale.CLASS_COLUMNS)
    block = slice(start, start + bench_scale.CLASS_COLUMNS)
    for x in (views[0], views[20]):
        mass = np.asarray(x[rows].sum(axis=0)).ravel()
        share = mass[block].sum() / mass.sum()
        assert share > 0.15  # against 40 / 3000 = 1.3 % for unrelated columns


@pytest.mark.slow
def test_quick_run_fits_on_one_and_two_workers(bench_scale, tmp_path):
    out = bench_scale.main(["--quick", "--workers", "2", "1", "--json", str(tmp_path / "o.json")])
    fits = out["fits"]
    assert [f["workers"] for f in fits] == [2, 1]
    assert fits[0]["top_eigenvalues"] == fits[1]["top_eigenvalues"]
    assert len(fits[0]["peak_worker_gb"]) == 2 and fits[0]["peak_total_gb"] > 0
    # the total sampled at one moment: above zero, within the per-process peaks (+ the nannies)
    assert 0 < fits[0]["sampled_total_gb"] <= fits[0]["peak_total_gb"] + 1.0


@pytest.mark.slow
def test_quick_accuracy_shows_the_sweeps_correcting_the_merges(bench_scale):
    out = bench_scale.main(
        ["--quick", "--accuracy", "--workers", "0", "--accuracy-iters", "0", "2"]
    )
    runs = out["accuracy"]["runs"]
    k = out["accuracy"]["k"]
    assert [(r["stack_rank"], r["stack_iter"]) for r in runs] == [
        (2 * k, 0),
        (2 * k, 2),
        (3 * k, 0),
        (3 * k, 2),
    ]
    for merges, swept in zip(runs[::2], runs[1::2]):
        assert swept[f"max_degrees_top{k}"] < merges[f"max_degrees_top{k}"]
        assert swept["eig_rel_error_max"] < merges["eig_rel_error_max"]
        assert swept["sweep_seconds"] > 0
