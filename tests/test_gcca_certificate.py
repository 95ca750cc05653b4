"""The accuracy certificate of MVLSA (``accuracy_``) and the adaptive SVD's stopping rule."""

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.gcca import MVLSA, AccuracyCertificate, SVDConvergenceWarning, truncated_svd


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    """Largest principal angle (degrees) between the column spans, via the sine (accurate)."""
    s = np.linalg.norm(b - a @ (a.T @ b), 2)
    return float(np.degrees(np.arcsin(min(s, 1.0))))


def _planted(seed: int, sparse: bool) -> list:
    rng = np.random.default_rng(seed)
    n = 300
    z = rng.normal(size=(n, 2))
    out = []
    for _ in range(3):
        sig = np.hstack([z, rng.normal(size=(n, 2))]) @ rng.normal(size=(4, 30))
        x = sig + 0.02 * rng.normal(size=(n, 30))
        if sparse:
            x = sp.csr_array(x * (rng.random(n) < 0.4)[:, None])
        out.append(x)
    return out


SETTINGS = [
    {"svd_solver": "randomized", "svd_tol": 0.05},
    {"svd_solver": "randomized", "svd_tol": 0.05, "n_jobs": 2},
    {"svd_solver": "gram"},
    {"svd_solver": "randomized", "svd_tol": 0.05, "stack_rank": 12, "stack_iter": 1},
    {"svd_solver": "dense", "stack_rank": 12, "stack_iter": 0},
]


@pytest.mark.parametrize("seed", range(6))
def test_certificate_bounds_true_angle_and_is_informative(seed):
    views = _planted(seed, sparse=seed % 2 == 1)
    kw = {"n_components": 2, "view_rank": 4, "random_state": seed}
    exact = MVLSA(svd_solver="dense", **kw).fit(views)
    for extra in SETTINGS:
        fit = MVLSA(**kw, **extra).fit(views)
        acc = fit.accuracy_
        true = _angle(exact.embedding_, fit.embedding_)
        assert true <= acc.angle_bound <= max(10 * true, 0.5), (extra, true, acc)
        err = float(np.abs(exact.eigenvalues_ - fit.eigenvalues_).max())
        assert err <= acc.eigenvalue_bound, (extra, err, acc)


def test_certificate_is_printable_and_frozen():
    fit = MVLSA(2, view_rank=4, random_state=0).fit(_planted(0, False))
    acc = fit.accuracy_
    assert isinstance(acc, AccuracyCertificate)
    line = str(acc)
    assert "\n" not in line and "angle to the exact solution" in line
    assert len(acc.view_residuals) == 3
    with pytest.raises(AttributeError):
        acc.angle_bound = 1.0  # type: ignore[misc]


def test_uncertified_gap_gives_90_degrees_not_nan():
    # flat noise: no gap at m, so the certificate says 90 degrees (defined, not NaN)
    rng = np.random.default_rng(1)
    views = [rng.normal(size=(200, 20)) for _ in range(3)]
    acc = (
        MVLSA(2, view_rank=5, svd_solver="randomized", svd_tol=0.1, random_state=0)
        .fit(views)
        .accuracy_
    )
    assert acc.angle_bound == 90.0
    assert "no gap certified" in str(acc)
    assert math.isfinite(acc.eigenvalue_bound)


@pytest.mark.parametrize("case", ["one_column", "duplicate_views", "zero_rows"])
def test_certificate_of_degenerate_views_is_defined(case):
    rng = np.random.default_rng(2)
    z = rng.normal(size=(100, 2))
    a = z @ rng.normal(size=(2, 8)) + 0.01 * rng.normal(size=(100, 8))
    if case == "one_column":
        views = [a, a[:, :1] + 0.1 * rng.normal(size=(100, 1)), z @ rng.normal(size=(2, 5))]
    elif case == "duplicate_views":
        views = [a, a.copy(), a.copy()]
    else:
        b = a.copy()
        b[:30] = 0.0
        views = [a, b, z @ rng.normal(size=(2, 6))]
    fit = MVLSA(1, view_rank=2, random_state=0).fit(views)
    acc = fit.accuracy_
    values = [*acc.view_residuals, *acc.view_angle_bounds, acc.perturbation,
              acc.stack_residual, acc.angle_bound, acc.eigenvalue_bound]  # fmt: skip
    assert not any(math.isnan(v) for v in values), acc
    assert 0.0 <= acc.angle_bound <= 90.0


def _near_rank_deficient(scale: float) -> sp.csr_array:
    a = sp.random(4000, 60, density=0.05, random_state=1, format="csr")
    b = sp.random(60, 600, density=0.2, random_state=2, format="csr")
    e = sp.random(4000, 600, density=0.002, random_state=3, format="csr") * scale
    return sp.csr_array(a @ b + e)


def test_adaptive_route_converges_on_near_rank_deficient_sparse_view():
    # singular values ~1e-7 s_1 (squared: at the round-off of the products) used to swamp the
    # residual (1 / s_i) and break the basis' orthogonality: 100 iterations, residual 7e8
    res = truncated_svd(_near_rank_deficient(1e-5), 100, method="randomized", random_state=0)
    assert res.converged and res.stop_reason in ("tol", "invariant")
    assert res.n_iter <= 5
    assert res.s.size == 60  # the numerical rank
    assert res.error_estimate is not None and res.error_estimate <= 1e-3
    assert res.residual <= 1e-3


def test_capped_route_says_so_in_its_result_and_mvlsa_warns_once_naming_the_view():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 300)) * np.linspace(1.0, 0.9, 300)  # flat: slow to converge
    res = truncated_svd(x, 20, method="randomized", n_iter=0, tol=1e-6, random_state=0)
    assert not res.converged
    assert res.stop_reason == "work_cap"
    views = [x, rng.normal(size=(400, 10))]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = MVLSA(2, view_rank=20, svd_solver="randomized", n_iter=0, svd_tol=1e-6,
                    random_state=0).fit(views)  # fmt: skip
    ours = [w for w in caught if issubclass(w.category, SVDConvergenceWarning)]
    assert len(ours) == 1
    assert "view 0" in str(ours[0].message) and "work_cap" in str(ours[0].message)
    assert fit.accuracy_.view_converged == (False, True)
