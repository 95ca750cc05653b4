"""MVLSA by parts: view_factor + combine_factors equal MVLSA.fit; StackedFactors reuses one Gram."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.gcca import MVLSA, StackedFactors, ViewFactor, combine_factors, view_factor


def _planted(n=120, n_views=4, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 3))
    views, masks = [], []
    for _ in range(n_views):
        x = np.abs(z @ rng.normal(size=(3, 25)) + 0.3 * rng.normal(size=(n, 25)))
        obs = rng.random(n) > 0.15
        x[~obs] = 0
        views.append(sp.csr_array(x))
        masks.append(obs)
    return views, masks


@pytest.mark.parametrize("row_weighting", [None, "glove"])
@pytest.mark.parametrize("relative,reg", [(False, 1e-3), (True, 0.1), (True, 10.0)])
def test_factors_combined_equal_mvlsa_fit(row_weighting, relative, reg):
    views, masks = _planted()
    est = MVLSA(5, view_rank=8, regularization=reg, relative_regularization=relative,
                row_weighting=row_weighting, svd_solver="dense").fit(views, masks=masks)  # fmt: skip
    fac = [view_factor(x, 8, observed=o, name=f"v{j}", row_weighting=row_weighting,
                       svd_solver="dense") for j, (x, o) in enumerate(zip(views, masks))]  # fmt: skip
    h = combine_factors(fac, 120, 5, regularization=reg, relative_regularization=relative)
    np.testing.assert_allclose(h, est.embedding_, atol=1e-10)


def test_one_gram_serves_every_regularization():
    views, masks = _planted()
    fac = [view_factor(x, 8, observed=o, svd_solver="dense") for x, o in zip(views, masks)]
    stacked = StackedFactors.of(fac, 120)
    gram = stacked.gram()
    for reg in (1e-6, 1e-1, 10.0):
        t = stacked.shrinkage(reg, True)
        np.testing.assert_allclose(
            stacked.embedding(t, 4, gram),
            combine_factors(fac, 120, 4, regularization=reg, relative_regularization=True),
            atol=1e-12,
        )


def test_sliced_factor_keeps_the_leading_triplets():
    views, masks = _planted()
    f = view_factor(views[0], 8, observed=masks[0], svd_solver="dense")
    g = f.sliced(3)
    assert isinstance(g, ViewFactor) and g.s.size == 3
    np.testing.assert_array_equal(g.U, f.U[:, :3])
    assert f.sliced(20) is f


def test_bad_input_names_the_problem():
    views, masks = _planted()
    f = view_factor(views[0], 4, observed=masks[0], svd_solver="dense")
    with pytest.raises(ValueError, match="no view factor"):
        combine_factors([], 120, 2)
    with pytest.raises(TypeError, match="ViewFactor"):
        combine_factors([np.eye(3)], 120, 2)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="n_rows=50 is too small"):
        combine_factors([f], 50, 2)
    with pytest.raises(ValueError, match="exceeds the stacked rank"):
        combine_factors([f], 120, 9)
    with pytest.raises(ValueError, match="rank 0"):
        view_factor(np.ones((10, 3)), 2, name="flat", svd_solver="dense")
    with pytest.raises(TypeError, match="m"):
        view_factor(views[0], 2.0, svd_solver="dense")  # type: ignore[arg-type]


def test_stacked_eig_solves_in_one_temporary_with_the_plain_result():
    """``StackedFactors.eig`` hands LAPACK one Fortran-ordered temporary of T G T (no second copy
    of a matrix of order J*m) and gets exactly what ``eigh`` of ``T G T`` gives."""
    import tracemalloc

    import scipy.linalg as sla
    from threadpoolctl import threadpool_limits

    from workbench.gcca import StackedFactors

    rng = np.random.default_rng(1)
    facs = [view_factor(np.abs(rng.standard_normal((600, 200))), 150, name=f"v{j}",
                        svd_solver="dense") for j in range(4)]  # fmt: skip
    st = StackedFactors.of(facs, 600)
    t = st.shrinkage(1e-3, True)
    gram = st.gram()
    tracemalloc.start()
    try:
        lam, vec = st.eig(t, 20, gram)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * gram.nbytes
    p = gram.shape[0]
    with threadpool_limits(limits=1):  # as eig runs LAPACK (rounding depends on the threads)
        ref_lam, ref_vec = sla.eigh(gram * t[:, None] * t[None, :],
                                    subset_by_index=[p - 20, p - 1], driver="evr")  # fmt: skip
    np.testing.assert_array_equal(lam, ref_lam[::-1])
    np.testing.assert_array_equal(vec, ref_vec[:, ::-1])
