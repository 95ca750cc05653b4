"""The incremental stacked step of :class:`MVLSA` (``stack_rank``, :mod:`workbench.gcca._incremental`).

Exact while nothing of rank is dropped: with ``stack_rank`` at least the number of stacked
columns, or at least the rank of the stacked matrix when it is smaller, the fit equals the exact
step's (shared space, eigenvalues, maps). With truncation the merges alone (``stack_iter=0``)
are an approximation that can only lose: its eigenvalues stay below the exact ones (interlacing
of a compression), and it converges to the exact fit as ``stack_rank`` grows. The sweeps of
:mod:`workbench.gcca._refine` (``stack_iter``) recompute every view's block from the view and
its factor: exact on every SVD route when nothing is dropped, and converging to the exact fit as
the sweeps add up, Ritz values below the exact eigenvalues.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.linalg import subspace_angles

from workbench.gcca import MVLSA
from workbench.gcca._incremental import _finish, _leaf, _merge, _MergeTree


def _views(seed=0, n=400, dims=(30, 35, 40, 45, 50), k0=4, noise=0.5):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k0))
    return [z @ rng.normal(size=(k0, d)) + noise * rng.normal(size=(n, d)) for d in dims]


def _degrees(a, b):
    return float(np.degrees(subspace_angles(a, b).max()))


def _assert_same(exact: MVLSA, inc: MVLSA, degrees: float = 1e-6) -> None:
    assert _degrees(exact.embedding_, inc.embedding_) < degrees
    np.testing.assert_allclose(inc.eigenvalues_, exact.eigenvalues_, rtol=1e-9)
    for a, b in zip(inc.view_maps_, exact.view_maps_):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(inc.transform(_views()), exact.transform(_views()), atol=1e-8)


def _reduce(blocks, rank):
    tree = _MergeTree(lambda a, b: _merge([a, b], rank))
    for b in blocks:
        tree.push(_leaf(b))
    return tree.result()


def test_merge_tree_pairs_runs_like_a_binary_counter():
    """Items pushed in order; each merge gets two consecutive runs, the earlier one first."""
    merges = []

    def merge(a, b):
        merges.append((a, b))
        return a + b

    tree = _MergeTree(merge)
    for item in "abcdefg":
        tree.push(item)
    assert tree.result() == "abcdefg"
    assert merges == [
        ("a", "b"),
        ("c", "d"),
        ("ab", "cd"),
        ("e", "f"),
        ("ef", "g"),
        ("abcd", "efg"),
    ]
    single = _MergeTree(merge)
    single.push("x")
    assert single.result() == "x"


def test_merge_reconstructs_the_stacked_matrix_when_nothing_is_dropped():
    rng = np.random.default_rng(0)
    blocks = [rng.normal(size=(60, w)) for w in (5, 7, 3, 6, 4)]
    part = _reduce(blocks, rank=25)
    stacked = np.hstack(blocks)
    np.testing.assert_allclose(part.l @ part.z.T, stacked, atol=1e-10)
    np.testing.assert_allclose(part.z.T @ part.z, np.eye(25), atol=1e-12)
    gram = part.l.T @ part.l
    np.testing.assert_allclose(gram, np.diag(part.lam), atol=1e-9)
    np.testing.assert_allclose(part.lam, np.linalg.svd(stacked, compute_uv=False) ** 2, rtol=1e-10)


def test_merge_keeps_the_planted_subspace_through_truncation():
    """Blocks whose columns all lie in one planted 6-dimensional subspace: keeping 6 of 24
    columns drops only zero directions, so the factorization is still exact."""
    rng = np.random.default_rng(1)
    basis = np.linalg.qr(rng.normal(size=(80, 6)))[0]
    blocks = [basis @ rng.normal(size=(6, 8)) for _ in range(3)]
    part = _reduce(blocks, rank=6)
    assert part.lam.size == 6
    np.testing.assert_allclose(part.l @ part.z.T, np.hstack(blocks), atol=1e-9)
    assert _degrees(part.l, basis) < 1e-6


def test_finish_matches_the_top_singular_vectors():
    rng = np.random.default_rng(2)
    blocks = [rng.normal(size=(50, 4)) for _ in range(3)]
    part = _reduce(blocks, rank=12)
    hk, lam, mth = _finish(part, 5, 12)
    u, s, vt = np.linalg.svd(np.hstack(blocks), full_matrices=False)
    assert _degrees(hk, u[:, :5]) < 1e-6
    np.testing.assert_allclose(lam, s[:5] ** 2, rtol=1e-10)
    np.testing.assert_allclose(mth, np.hstack(blocks).T @ hk, atol=1e-10)
    with pytest.raises(ValueError, match="n_components=13"):
        _finish(part, 13, 12)
    # a single view: its block is orthogonalized first
    hk1, lam1, _ = _finish(_leaf(blocks[0]), 2, 12)
    u1, s1, _ = np.linalg.svd(blocks[0], full_matrices=False)
    assert _degrees(hk1, u1[:, :2]) < 1e-6
    np.testing.assert_allclose(lam1, s1[:2] ** 2, rtol=1e-10)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_without_truncation_it_equals_the_exact_step(n_jobs):
    views = _views()
    params = {"n_components": 6, "view_rank": 10, "random_state": 0}
    exact = MVLSA(**params).fit(views)
    inc = MVLSA(**params, stack_rank=50, n_jobs=n_jobs).fit(views)  # 5 views x 10 columns
    _assert_same(exact, inc)
    assert inc.fit_stats_["merge_seconds"] >= 0
    assert "merge_seconds" not in exact.fit_stats_


def test_truncating_only_zero_directions_equals_the_exact_step():
    """Views of exact rank 4 (no noise): the stacked matrix has rank 4, so ``stack_rank=4``
    (of 50 stacked columns) drops nothing but round-off."""
    views = _views(seed=3, noise=0.0)
    params = {"n_components": 4, "view_rank": 10, "random_state": 0, "center": False}
    exact = MVLSA(**params).fit(views)
    inc = MVLSA(**params, stack_rank=4).fit(views)
    assert inc.view_ranks_ == [4] * 5
    assert _degrees(exact.embedding_, inc.embedding_) < 1e-6
    np.testing.assert_allclose(inc.eigenvalues_, exact.eigenvalues_, rtol=1e-9)


def test_truncation_approximates_from_below_and_converges():
    """Noisy sparse views with a flat spectrum: every truncated fit's eigenvalues lie below the
    exact ones; the angle to the exact space shrinks as ``stack_rank`` grows and vanishes once
    nothing is dropped."""
    views = [sp.csr_array(np.where(v > 0.8, v, 0.0)) for v in _views(seed=4, noise=1.0)]
    params = {"n_components": 8, "view_rank": 12, "random_state": 0, "svd_solver": "dense"}
    exact = MVLSA(**params).fit(views)
    angles = []
    for rank in (8, 16, 32, 60):
        inc = MVLSA(**params, stack_rank=rank, stack_iter=0).fit(views)
        assert np.all(inc.eigenvalues_ <= exact.eigenvalues_ * (1 + 1e-10))
        angles.append(_degrees(exact.embedding_, inc.embedding_))
    assert angles[0] > 1.0  # truncating to k directions at every step loses a lot here
    assert angles[0] > angles[1] > angles[2]
    assert angles[3] < 1e-6  # 60 = 5 views x 12 columns: nothing dropped


def test_float32_views_stay_float32():
    """Working precision float32 throughout; without truncation the space is the exact step's
    to float32 round-off."""
    views = [v.astype(np.float32) for v in _views()]
    inc = MVLSA(n_components=6, view_rank=10, random_state=0, stack_rank=50).fit(views)
    exact = MVLSA(n_components=6, view_rank=10, random_state=0).fit(views)
    assert inc.embedding_.dtype == np.float32
    assert _degrees(exact.embedding_.astype(float), inc.embedding_.astype(float)) < 1e-2


@pytest.mark.parametrize(
    "solver",
    [
        {"svd_solver": "dense"},
        {"svd_solver": "gram"},
        {"svd_solver": "randomized"},  # adaptive block Krylov
        {"svd_solver": "randomized", "n_oversamples": 5, "n_iter": 2},  # fixed route
    ],
)
def test_sweeps_recompute_the_blocks_exactly(solver):
    """Nothing dropped, one sweep: the blocks recomputed from the views (``L_j B_j S_j^{-1}``)
    are the SVDs' own ``U_j`` on every route, with row weights, masks and dropped rows."""
    views = [sp.csr_array(np.where(v > 0.3, v, 0.0)) for v in _views(seed=8)]
    rng = np.random.default_rng(8)
    masks = [rng.random(400) > 0.15 for _ in views]
    params = {
        "n_components": 6,
        "view_rank": 10,
        "random_state": 0,
        "row_weighting": "glove",
        "row_weight_max": 3.0,
        "min_view_support": 2,
        **solver,
    }
    exact = MVLSA(**params).fit(views, masks=masks)
    inc = MVLSA(**params, stack_rank=50, stack_iter=1).fit(views, masks=masks)
    assert not inc.row_mask_.all()
    assert _degrees(exact.embedding_, inc.embedding_) < 1e-6
    np.testing.assert_allclose(inc.eigenvalues_, exact.eigenvalues_, rtol=1e-9)
    for a, b in zip(inc.view_maps_, exact.view_maps_):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


def test_sweeps_converge_to_the_exact_step():
    """Truncating merges (``stack_rank = k``), then sweeps: the angle to the exact space and the
    eigenvalues' error shrink with every sweep, the Ritz values stay below the exact eigenvalues,
    and many sweeps reach the exact fit."""
    views = [sp.csr_array(np.where(v > 0.8, v, 0.0)) for v in _views(seed=4, noise=1.0)]
    params = {"n_components": 8, "view_rank": 12, "random_state": 0, "svd_solver": "dense"}
    exact = MVLSA(**params).fit(views)
    angles, errors = [], []
    for n_sweeps in (0, 1, 3, 60):
        inc = MVLSA(**params, stack_rank=16, stack_iter=n_sweeps).fit(views)
        assert np.all(inc.eigenvalues_ <= exact.eigenvalues_ * (1 + 1e-10))
        angles.append(_degrees(exact.embedding_, inc.embedding_))
        errors.append(float(np.abs(inc.eigenvalues_ / exact.eigenvalues_ - 1).max()))
    assert angles[0] > 1.0
    assert angles[0] > angles[1] > angles[2] > angles[3]
    assert errors[0] > errors[1] > errors[2] > errors[3]
    assert angles[3] < 1e-3


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (-1, ValueError, "stack_iter"),
        (1.5, ValueError, "stack_iter must be an integer"),
        ("2", TypeError, "stack_iter"),
    ],
)
def test_bad_stack_iter_is_named(value, error, match):
    with pytest.raises(error, match=match):
        MVLSA(n_components=6, view_rank=10, stack_rank=20, stack_iter=value).fit(_views())


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (5, ValueError, "stack_rank=5 is below n_components=6"),
        (0, ValueError, "stack_rank"),
        (2.5, ValueError, "stack_rank must be an integer"),
        ("40", TypeError, "stack_rank"),
    ],
)
def test_bad_stack_rank_is_named(value, error, match):
    with pytest.raises(error, match=match):
        MVLSA(n_components=6, view_rank=10, stack_rank=value).fit(_views())
