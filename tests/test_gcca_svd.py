"""Tests of the adaptive randomized SVD of workbench.gcca: randomized block Krylov stopped on the
residual of the wanted triplets, against exact SVDs of planted problems of random rank; the
fixed-oversampling route; MVLSA at its defaults."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as sp

from workbench.gcca import GRAM_RANK_RATIO, MVLSA, SVD_TOL, _randomized, _svd, truncated_svd


def planted(seed, n=400, d=160, *, sparse=False, noise=0.05, dtype=np.float64):
    """Low rank + noise of a rank drawn from ``seed`` (returned): a decaying signal spectrum
    over ``r`` directions on a flat noise floor; ``sparse`` keeps about 30 % of the entries."""
    rng = np.random.default_rng(seed)
    r = int(rng.integers(8, 40))
    u = np.linalg.qr(rng.standard_normal((n, r)))[0]
    v = np.linalg.qr(rng.standard_normal((d, r)))[0]
    s = np.sqrt(n * d) * np.geomspace(1.0, 0.2, r) * rng.uniform(0.8, 1.2, r)
    x = (u * s) @ v.T + noise * np.sqrt(n * d) / np.sqrt(min(n, d)) * rng.standard_normal(
        (n, d)
    ) / 10
    x += 3.0  # a mean for the implicit centring to remove
    if sparse:
        x[rng.random((n, d)) > 0.3] = 0.0
        return r, sp.csr_array(x.astype(dtype))
    return r, x.astype(dtype)


def operator(x, center, w):
    """The dense matrix ``diag(w) (X - 1 mu^T)`` the SVD works on."""
    a = x.toarray() if sp.issparse(x) else np.array(x)
    a = a.astype(np.float64)
    if center:
        a = a - a.mean(0)
    if w is not None:
        a = w[:, None] * a
    return a


def sin_max(a, b):
    return float(np.sin(np.max(sla.subspace_angles(np.asarray(a, float), np.asarray(b, float)))))


# ----------------------------------------------------------------------------- accuracy
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_adaptive_svd_matches_exact_svd_within_tol(seed, weighted, center, sparse):
    r, x = planted(seed, sparse=sparse)
    w = np.random.default_rng(seed + 100).uniform(0.5, 1.5, x.shape[0]) if weighted else None
    k = int(np.random.default_rng(seed + 200).integers(3, r))  # inside the planted signal
    tol = 1e-4
    res = truncated_svd(
        x, k, center=center, row_weights=w, method="randomized", tol=tol, random_state=seed
    )
    a = operator(x, center, w)
    uu, ss, vvt = np.linalg.svd(a, full_matrices=False)
    s1 = ss[0]
    assert res.method == "randomized" and res.tol == tol
    assert res.converged and res.error_estimate <= tol
    assert res.s.size == k and res.basis_size >= k and res.n_passes >= 2
    # the estimate is the true relative residual ||L^T U - V S||_2 / s_1 (not a sample of it)
    f = a.T @ res.U - res.Vt.T * res.s
    eta = np.linalg.norm(f, 2) / res.s[0]
    assert eta == pytest.approx(res.error_estimate, rel=1e-3, abs=1e-9)
    # backward error eta s_1: each singular value within eta s_1 (Ritz values from below) ...
    assert np.all(res.s <= ss[:k] * (1 + 1e-10))
    assert np.all(ss[:k] - res.s <= eta * s1 * (1 + 1e-6) + 1e-10 * s1)
    # ... the subspaces within Wedin's bound eta s_1 / gap ...
    gap = res.s[-1] - ss[k]
    if gap > 0:
        bound = eta * s1 / gap + 1e-7
        assert sin_max(res.Vt.T, vvt[:k].T) <= bound
        assert sin_max(res.U, uu[:, :k]) <= bound
    # ... and the rank-k error at most 2 eta s_1 above the optimal s_{k+1}
    approx_err = np.linalg.norm(a - (res.U * res.s) @ res.Vt, 2)
    assert approx_err <= ss[k] + 2 * eta * s1 * (1 + 1e-6) + 1e-9 * s1
    np.testing.assert_allclose(res.U.T @ res.U, np.eye(k), atol=1e-10)
    np.testing.assert_allclose(res.Vt @ res.Vt.T, np.eye(k), atol=1e-10)
    assert np.all(res.U.max(axis=0) >= -res.U.min(axis=0))  # sign fix: largest entry positive


@pytest.mark.parametrize("seed", range(6))
def test_error_bounds_hold_at_the_default_tol(seed):
    """At the default tol (1e-3) the guarantees of the computed residual hold on every seeded
    case (they are deterministic consequences of it, not probabilistic ones)."""
    r, x = planted(seed + 10, n=300, d=200)
    k = max(2, r // 2)
    res = truncated_svd(x, k, method="randomized", random_state=seed)
    a = operator(x, True, None)
    ss = np.linalg.svd(a, compute_uv=False)
    eta = res.error_estimate
    assert res.converged and eta <= SVD_TOL
    assert np.max(np.abs(ss[:k] - res.s)) <= eta * ss[0] * (1 + 1e-6)
    assert np.linalg.norm(a - (res.U * res.s) @ res.Vt, 2) <= ss[k] + 2 * eta * ss[0] * (1 + 1e-6)


def test_float32_input():
    r, x = planted(3, n=600, d=300)
    k = r // 2
    res32 = truncated_svd(x.astype(np.float32), k, method="randomized", random_state=0)
    res64 = truncated_svd(x, k, method="randomized", random_state=0)
    assert res32.U.dtype == np.float32 and res32.converged
    ss = np.linalg.svd(operator(x, True, None), compute_uv=False)
    np.testing.assert_allclose(res32.s, ss[:k], rtol=SVD_TOL)
    assert sin_max(res32.Vt.T, res64.Vt.T) < 1e-2


def test_sparse_and_dense_input_give_the_same_krylov_space():
    """Same block width: the dense route keeps the n x b blocks for U, the sparse one makes one
    more pass; the triplets agree to rounding."""
    _, xs = planted(4, sparse=True)
    xd = xs.toarray()
    kw = dict(center=True, method="randomized", block_size=6, random_state=7)
    a, b = truncated_svd(xs, 10, **kw), truncated_svd(xd, 10, **kw)
    np.testing.assert_allclose(a.s, b.s, rtol=1e-10)
    np.testing.assert_allclose(a.U, b.U, atol=1e-8)
    assert a.n_passes == b.n_passes + 1 and a.basis_size == b.basis_size


# ----------------------------------------------------------------------------- behaviour
def test_slowly_decaying_spectrum_needs_more_passes():
    rng = np.random.default_rng(0)
    n, d, k = 500, 300, 10
    u = np.linalg.qr(rng.standard_normal((n, d)))[0]
    v = np.linalg.qr(rng.standard_normal((d, d)))[0]
    runs = {}
    for name, s in {
        "gap": np.r_[np.linspace(10, 5, 15), np.full(d - 15, 0.05)],  # planted rank 15
        "fast": np.geomspace(10, 1e-6, d),
        "slow": 10 * np.arange(1, d + 1) ** -0.3,
    }.items():
        runs[name] = truncated_svd(
            (u * s) @ v.T, k, center=False, method="randomized", random_state=0
        )
        assert runs[name].converged and runs[name].error_estimate <= SVD_TOL
    assert runs["slow"].n_passes > runs["fast"].n_passes
    assert runs["slow"].n_passes > runs["gap"].n_passes
    assert runs["slow"].basis_size > runs["gap"].basis_size


def test_smaller_tol_costs_more_and_is_more_accurate():
    _, x = planted(5)
    ss = np.linalg.svd(operator(x, True, None), compute_uv=False)
    prev = None
    for tol in (1e-2, 1e-4, 1e-6):
        res = truncated_svd(x, 6, method="randomized", tol=tol, random_state=1)
        assert res.error_estimate <= tol
        assert np.max(np.abs(res.s - ss[:6])) <= tol * ss[0]
        if prev is not None:
            assert res.n_passes >= prev.n_passes
        prev = res


def test_deterministic_for_a_fixed_random_state():
    _, x = planted(6, sparse=True)
    a = truncated_svd(x, 8, method="randomized", random_state=np.random.default_rng(3))
    b = truncated_svd(x, 8, method="randomized", random_state=np.random.default_rng(3))
    for f in ("U", "s", "Vt"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert (a.n_passes, a.basis_size, a.error_estimate) == (
        b.n_passes,
        b.basis_size,
        b.error_estimate,
    )
    c = truncated_svd(x, 8, method="randomized", random_state=4)  # another stream, same answer
    assert sin_max(a.U, c.U) < 1e-2
    np.testing.assert_allclose(a.s, c.s, rtol=SVD_TOL)


def test_n_iter_caps_the_work_of_the_adaptive_route():
    """An integer n_iter caps the adaptive route at the columns multiplied by n_iter power
    iterations of the fixed route with a block of 2 rank columns; never fewer than rank
    triplets."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((400, 300)) * (np.arange(1, 301) ** -0.2)  # flat: slow to converge
    k = 20
    free = truncated_svd(x, k, center=False, method="randomized", random_state=0)
    assert free.converged
    for q in (0, 1, 3):
        res = truncated_svd(x, k, center=False, method="randomized", n_iter=q, random_state=0)
        budget = (2 * q + 1) * 2 * k
        b = _randomized._default_block_size(k, sparse=False)
        assert res.s.size == k
        assert res.n_passes * b <= max(budget, 2 * b)  # dense: no final pass
        if not res.converged:
            assert res.error_estimate > res.tol
            assert res.n_passes < free.n_passes


def test_rank_deficient_input_returns_its_rank():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((300, 5)) @ rng.standard_normal((5, 120))
    res = truncated_svd(x, 12, center=False, method="randomized", random_state=0)
    assert res.s.size == 5 and res.converged
    np.testing.assert_allclose(res.s, np.linalg.svd(x, compute_uv=False)[:5], rtol=1e-10)


def test_thick_restart_keeps_the_answer():
    """A narrow block on a flat spectrum exceeds the basis limit (rank + 6 b): the basis is
    restarted on its leading Ritz vectors and still converges to the exact triplets."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((500, 300)) * (np.arange(1, 301) ** -0.3)
    k, b = 10, 4
    res = truncated_svd(x, k, center=False, method="randomized", block_size=b, random_state=0)
    assert res.converged and res.basis_size <= k + 6 * b
    assert (res.n_passes // 2) * b > k + 6 * b  # more columns than the limit: it restarted
    ss = np.linalg.svd(x, compute_uv=False)
    assert np.max(np.abs(res.s - ss[:k])) <= res.error_estimate * ss[0] * (1 + 1e-6)


def test_auto_picks_the_route():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4200, 1000))  # n d > 4e6, d <= GRAM_MAX_COLS
    assert GRAM_RANK_RATIO == 28
    assert truncated_svd(x, 35, center=False, tol=0.5).method == "randomized"  # 35 <= d / 28
    assert truncated_svd(x, 36, center=False).method == "gram"
    assert truncated_svd(x, 50, center=False).method == "gram"  # d = 20 rank: syrk is cheaper
    assert truncated_svd(x, 50, center=False, n_oversamples=5, n_iter=0).method == "gram"
    xs = sp.random_array((5000, 1000), density=0.01, random_state=0, format="csr")
    assert truncated_svd(xs, 10).method == "gram"  # sparse: the scatter route stays
    assert truncated_svd(x[:100], 3).method == "dense"


# ----------------------------------------------------------------------------- fixed route
def _fixed_route_inputs():
    rng = np.random.default_rng(42)
    xd = rng.standard_normal((400, 30)) @ rng.standard_normal((30, 150))
    xd += 0.1 * rng.standard_normal((400, 150))
    xs = (
        sp.random_array((500, 300), density=0.05, random_state=3, format="csr").astype(np.float32)
        * 3
    )
    w = rng.random(400) + 0.5
    return xd, xs, w


def test_explicit_n_oversamples_takes_the_fixed_route(monkeypatch):
    """Reference values of the fixed-oversampling route (same seeds), and the explicit
    n_oversamples path going through its function, the default path not."""
    xd, xs, w = _fixed_route_inputs()
    cases = [  # (call, passes, s[:4], sum |U|)
        (
            lambda: truncated_svd(
                xd,
                12,
                center=True,
                row_weights=w,
                method="randomized",
                n_oversamples=7,
                n_iter=2,
                random_state=0,
            ),
            5,
            [413.25370317467275, 369.52703047322655, 359.20926074815935, 351.3742918032534],
            182.82109702177053,
            1e-9,
        ),
        # p = max(rank, 20), q = 5
        (
            lambda: truncated_svd(
                xs,
                20,
                center=True,
                method="randomized",
                n_oversamples=20,
                random_state=np.random.default_rng(5),
            ),
            11,
            [15.743249735453887, 15.22339908604238, 15.0565236876835, 14.990295310104075],
            338.46087795287167,
            1e-5,
        ),
        (
            lambda: truncated_svd(
                xs, 10, center=False, method="randomized", n_oversamples=0, n_iter=0, random_state=1
            ),
            1,
            [10.072632079569646, 9.431357641113035, 9.129275106668588, 9.015056857214157],
            175.5583461477712,
            1e-5,
        ),
    ]
    for call, passes, s4, u_abs, rtol in cases:
        res = call()
        assert res.n_passes == passes and res.error_estimate is None and res.tol is None
        np.testing.assert_allclose(res.s[:4], s4, rtol=rtol)
        assert float(np.abs(res.U.astype(float)).sum()) == pytest.approx(u_abs, rel=rtol)
    calls = []
    kept = _svd._fixed_oversampling_svd

    def spy(*args, **kwargs):
        calls.append(args)
        return kept(*args, **kwargs)

    monkeypatch.setattr(_svd, "_fixed_oversampling_svd", spy)
    a = truncated_svd(xd, 6, method="randomized", n_oversamples=10, n_iter=3, random_state=0)
    assert len(calls) == 1 and calls[0][4:7] == (6, 16, 3)  # rank, l = rank + p, q
    assert (a.basis_size, a.n_iter, a.n_passes) == (16, 3, 7)
    assert truncated_svd(xd, 6, method="randomized", n_oversamples=10, random_state=0).n_iter == 5
    truncated_svd(xd, 6, method="randomized", random_state=0)
    assert len(calls) == 2  # the default (adaptive) path does not use it


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(tol=0.0), ValueError, "tol must be a finite number > 0 and < 1"),
        (dict(tol=1.0), ValueError, "tol must be a finite number > 0 and < 1"),
        (dict(tol="1e-3"), TypeError, "tol must be"),
        (dict(block_size=0), ValueError, "block_size must be an integer >= 1"),
        (dict(n_iter=-1), ValueError, "n_iter must be an integer >= 0 or None"),
    ],
)
def test_bad_parameters(kwargs, error, match):
    _, x = planted(0)
    with pytest.raises(error, match=match):
        truncated_svd(x, 3, **kwargs)


# ----------------------------------------------------------------------------- MVLSA
def test_mvlsa_defaults_recover_the_planted_shared_space():
    """MVLSA at its defaults on dense views sharing a planted space, with a per-view signal of
    random rank: the adaptive per-view SVDs (auto picks them: m <= d / 28) give the shared space
    of the exact per-view SVDs, which is the planted one up to noise."""
    rng = np.random.default_rng(11)
    n, d, k, n_views = 4100, 1000, 20, 3
    r = int(rng.integers(k + 10, 4 * k))  # per-view signal rank, drawn
    z = np.linalg.qr(rng.standard_normal((n, k)))[0] * np.sqrt(n)
    views = []
    for _ in range(n_views):
        own = rng.standard_normal((n, r - k))
        x = z @ rng.standard_normal((k, d)) + 0.7 * own @ rng.standard_normal((r - k, d))
        views.append(x + 2.0 * rng.standard_normal((n, d)))
    fast = MVLSA(k, view_rank=k, random_state=0).fit(views)
    assert all(sv.size == k for sv in fast.view_singular_values_)
    exact = MVLSA(k, view_rank=k, svd_solver="gram").fit(views)
    angle = np.rad2deg(np.max(sla.subspace_angles(fast.embedding_, exact.embedding_)))
    assert angle < 0.05
    # the planted space: as close as the exact per-view SVDs get (the noise sets that limit)
    planted_fast = np.rad2deg(np.max(sla.subspace_angles(fast.embedding_, z)))
    planted_exact = np.rad2deg(np.max(sla.subspace_angles(exact.embedding_, z)))
    assert planted_exact < 15 and abs(planted_fast - planted_exact) < 0.05
    # the same views through the fixed route with blocks too narrow for the signal:
    # the adaptive default is the more accurate one
    narrow = MVLSA(
        k, view_rank=k, svd_solver="randomized", n_oversamples=5, n_iter=1, random_state=0
    ).fit(views)
    narrow_angle = np.rad2deg(np.max(sla.subspace_angles(narrow.embedding_, exact.embedding_)))
    assert narrow_angle > angle


def test_mvlsa_svd_tol_and_fixed_route():
    _, x = planted(8, n=300, d=120)
    views = [x, x[:, ::-1] + 0.1 * np.random.default_rng(0).standard_normal(x.shape)]
    exact = MVLSA(3, view_rank=10, svd_solver="dense").fit(views)
    loose = MVLSA(3, view_rank=10, svd_solver="randomized", svd_tol=1e-2, random_state=0).fit(views)
    tight = MVLSA(3, view_rank=10, svd_solver="randomized", svd_tol=1e-8, random_state=0).fit(views)
    assert tight.fit_stats_["n_passes"] >= loose.fit_stats_["n_passes"]
    assert np.max(sla.subspace_angles(tight.embedding_, exact.embedding_)) < 1e-6
    fixed = MVLSA(
        3, view_rank=10, svd_solver="randomized", n_oversamples=10, n_iter=2, random_state=0
    ).fit(views)
    assert fixed.fit_stats_["n_passes"] == 2 * 5
    assert MVLSA().get_params()["svd_tol"] == SVD_TOL and MVLSA().get_params()["n_iter"] is None
