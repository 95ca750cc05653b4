"""Numbers that cannot overflow silently, sparse input in every format, integer parameters that
refuse floats: one test per case, grouped by module."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench._validation import (
    IntegerParameterError,
    check_array,
    check_int,
    power_of_two_scale,
)
from workbench.crosslingual import CLLSI, OPCA, CrossLingualCCA
from workbench.embeddings import WordVectors
from workbench.gcca import GCCA, MVLSA, truncated_svd
from workbench.retrofit import retrofit_matrix
from workbench.rpca import ex_rpca, make_planted, pca

FORMATS = ["csr", "csc", "coo", "lil", "dok", "dia", "bsr"]
BIG = 2.0**1000  # a power of two: rescaling by it is exact


def _sparse(x: np.ndarray, fmt: str, kind: str) -> object:
    return getattr(sp, f"{fmt}_{kind}")(x)


def _views(n: int = 40, d: int = 6, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 2))
    return [z @ rng.normal(size=(2, d)) + 0.1 * rng.normal(size=(n, d)) for _ in range(3)]


def _docs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    topics = rng.random((20, 3))
    en = np.hstack([topics @ rng.random((3, 10)), np.zeros((20, 10))])
    es = np.hstack([np.zeros((20, 10)), topics @ rng.random((3, 10))])
    return [en, es]


# ----------------------------------------------------------------------------- _validation


class TestValidation:
    @pytest.mark.parametrize("kind", ["matrix", "array"])
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_check_array_accepts_every_sparse_format(self, fmt: str, kind: str) -> None:
        x = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])
        out = check_array(_sparse(x, fmt, kind), "X", accept_sparse=True)
        assert sp.issparse(out) and out.format == "csr"
        np.testing.assert_array_equal(out.toarray(), x)

    def test_check_array_lil_inf_named(self) -> None:
        x = sp.lil_matrix((2, 2))
        x[0, 1] = np.inf
        with pytest.raises(ValueError, match="X contains 1 NaN or infinite"):
            check_array(x, "X", accept_sparse=True)

    def test_check_array_lil_complex_named(self) -> None:
        x = sp.lil_matrix(np.eye(2) * 1j)
        with pytest.raises(TypeError, match="X must be real-valued"):
            check_array(x, "X", accept_sparse=True)

    @pytest.mark.parametrize("value", [2.0, np.float64(3.0), 2.5])
    def test_check_int_refuses_floats(self, value: float) -> None:
        with pytest.raises(
            TypeError, match=r"n_components must be an integer >= 1, got .* \(.*float"
        ):
            check_int(value, "n_components", low=1)
        with pytest.raises(ValueError):  # also a ValueError, as scikit-learn's error
            check_int(value, "n_components", low=1)
        assert issubclass(IntegerParameterError, TypeError)

    def test_check_int_refuses_bools(self) -> None:
        with pytest.raises(TypeError, match="n_iter must be an integer, got True"):
            check_int(True, "n_iter")

    def test_check_int_accepts_numpy_integers(self) -> None:
        assert check_int(np.int32(3), "k") == 3 and type(check_int(np.int64(3), "k")) is int

    def test_power_of_two_scale(self) -> None:
        assert power_of_two_scale(3.0, 100) == 1.0
        c = power_of_two_scale(1e300, 100)
        assert 0.5 <= 1e300 * c < 1 and np.log2(c).is_integer()
        assert power_of_two_scale(1e-300, 100) * 1e-300 >= 0.5


# ----------------------------------------------------------------------------- gcca


class TestGCCA:
    @pytest.mark.parametrize("est", [GCCA(2, regularization=0.0), MVLSA(2, 3, 0.0, random_state=0)])
    def test_huge_view_gives_the_unscaled_result(self, est) -> None:
        views = _views()
        ref = est.fit(views)
        h, lam = ref.embedding_.copy(), ref.eigenvalues_.copy()
        out = est.fit([views[0], views[1] * BIG, views[2]])  # was: view 1 silently dropped
        np.testing.assert_allclose(out.eigenvalues_, lam, rtol=1e-12)
        np.testing.assert_allclose(out.embedding_, h, atol=1e-10)
        np.testing.assert_allclose(
            out.transform([views[0], views[1] * BIG, views[2]]), h, atol=1e-10
        )

    def test_mvlsa_1e300_view_not_dropped(self) -> None:
        views = _views()
        ref = MVLSA(2, 3, random_state=0).fit(views)
        out = MVLSA(2, 3, random_state=0).fit([views[0], views[1] * 1e300, views[2]])
        assert out.eigenvalues_.min() > 0.99  # three views agree, not two of three
        np.testing.assert_allclose(out.eigenvalues_, ref.eigenvalues_, rtol=1e-8)
        assert np.isfinite(out.view_maps_[1]).all() and out.view_singular_values_[1][0] > 1e300

    def test_mvlsa_relative_regularization_huge_view(self) -> None:
        views = _views()
        ref = MVLSA(2, 3, 0.1, relative_regularization=True, random_state=0).fit(views)
        out = MVLSA(2, 3, 0.1, relative_regularization=True, random_state=0)
        out.fit([views[0], views[1] * BIG, views[2]])
        np.testing.assert_allclose(out.eigenvalues_, ref.eigenvalues_, rtol=1e-12)

    def test_tiny_view_rescaled(self) -> None:
        views = _views()
        ref = GCCA(2, regularization=0.0).fit(views)
        out = GCCA(2, regularization=0.0).fit([views[0] / BIG, views[1], views[2]])
        np.testing.assert_allclose(out.eigenvalues_, ref.eigenvalues_, rtol=1e-12)

    def test_regularization_swamping_a_view_warns(self) -> None:
        views = _views()
        with pytest.warns(UserWarning, match="view 1: the regularization swamps the view"):
            GCCA(2, regularization=1e-8).fit([views[0], views[1] * 1e-200, views[2]])

    @pytest.mark.parametrize("est", [GCCA(1), MVLSA(1, 1)])
    def test_one_row_views_named(self, est) -> None:
        with pytest.raises(ValueError, match=r"needs at least 2 rows per view, view 0 has 1"):
            est.fit([v[:1] for v in _views()])

    def test_n_components_above_rank_named(self) -> None:
        with pytest.raises(ValueError, match=r"n_components=7 exceeds the largest possible rank"):
            GCCA(7).fit([v[:10, :2] for v in _views()])  # 3 views x min(10 - 1, 2) = 6

    @pytest.mark.parametrize("kind", ["matrix", "array"])
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_sparse_formats_same_result(self, fmt: str, kind: str) -> None:
        views = _views()
        ref = GCCA(2).fit([sp.csr_matrix(v) for v in views]).embedding_
        out = GCCA(2).fit([_sparse(v, fmt, kind) for v in views]).embedding_
        np.testing.assert_allclose(out, ref, atol=1e-12)

    def test_truncated_svd_lil(self) -> None:
        x = _views()[0]
        a = truncated_svd(sp.lil_matrix(x), 2, method="dense")
        b = truncated_svd(sp.csr_matrix(x), 2, method="dense")
        np.testing.assert_allclose(a.s, b.s)

    @pytest.mark.parametrize(
        "make",
        [
            lambda: GCCA(2.0),
            lambda: MVLSA(2, view_rank=3.0),
            lambda: MVLSA(2, 3, n_iter=2.0),
            lambda: MVLSA(2, 3, stack_rank=4.0),
            lambda: GCCA(2, min_view_support=1.0),
        ],
    )
    def test_integral_float_parameters_refused(self, make) -> None:
        with pytest.raises(TypeError, match=r"must be an integer .*got .*\(float\)"):
            make().fit(_views())

    def test_truncated_svd_rank_float(self) -> None:
        with pytest.raises(TypeError, match=r"rank must be an integer >= 1, got 2.0"):
            truncated_svd(_views()[0], 2.0)

    def test_float16_and_int_views(self) -> None:
        views = _views()
        ref = GCCA(2).fit([np.round(v * 100) for v in views]).eigenvalues_
        out = GCCA(2).fit([np.round(v * 100).astype(np.int64) for v in views]).eigenvalues_
        np.testing.assert_allclose(out, ref)
        h = GCCA(2).fit([v.astype(np.float16) for v in views]).embedding_
        assert h.dtype == np.float64 and np.isfinite(h).all()

    def test_duplicate_views_and_zero_columns(self) -> None:
        v = _views()[0]
        padded = np.hstack([v, np.zeros((v.shape[0], 2))])
        a = GCCA(2, regularization=0.0).fit([v, v]).eigenvalues_
        b = GCCA(2, regularization=0.0).fit([padded, padded]).eigenvalues_
        np.testing.assert_allclose(a, [1.0, 1.0])  # M = K^-1/2 (2 P) K^-1/2 = P: full agreement
        np.testing.assert_allclose(b, a)


# ----------------------------------------------------------------------------- crosslingual


class TestCrosslingual:
    @pytest.mark.parametrize("est", [OPCA, CrossLingualCCA])
    @pytest.mark.parametrize("solver", ["dense", "reduced"])
    def test_overflow_named_not_nan(self, est, solver: str) -> None:
        en, es = _docs()
        with pytest.raises(
            ValueError, match=r"view 1: .* overflows float64 although the input is finite"
        ):
            est(3, solver=solver).fit([en, es * 1e300])

    def test_cllsi_huge_documents_rescaled(self) -> None:
        en, es = _docs()
        ref = CLLSI(3).fit([en, es])
        out = CLLSI(3).fit([en * BIG, es * BIG])
        np.testing.assert_allclose(out.components_, ref.components_, atol=1e-12)
        np.testing.assert_allclose(out.singular_values_, ref.singular_values_ * BIG, rtol=1e-12)

    def test_cllsi_singular_value_overflow_named(self) -> None:
        en, es = _docs()
        with pytest.raises(ValueError, match="CLLSI: the largest singular value .* overflows"):
            CLLSI(3).fit([en * 1e307, es * 1e307])

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_sparse_formats_same_result(self, fmt: str) -> None:
        docs = _docs()
        ref = OPCA(3, solver="reduced").fit([sp.csr_matrix(d) for d in docs]).components_
        out = OPCA(3, solver="reduced").fit([_sparse(d, fmt, "matrix") for d in docs]).components_
        np.testing.assert_allclose(out, ref, atol=1e-10)

    def test_integral_float_refused(self) -> None:
        with pytest.raises(TypeError, match=r"n_components must be an integer >= 1, got 3.0"):
            OPCA(3.0).fit(_docs())


# ----------------------------------------------------------------------------- retrofit


class TestRetrofit:
    def _graph(self) -> sp.csr_matrix:
        rng = np.random.default_rng(1)
        a = sp.csr_matrix(np.triu(rng.random((6, 6)) < 0.5, 1).astype(float))
        return a + a.T

    @pytest.mark.parametrize("method", ["jacobi", "gauss-seidel"])
    def test_huge_vectors_rescaled(self, method: str) -> None:
        x = np.random.default_rng(0).normal(size=(6, 4))
        ref = retrofit_matrix(x, self._graph(), method=method)
        out = retrofit_matrix(x * 2.0**1020, self._graph(), method=method, beta=5.0)
        assert np.isfinite(out).all()
        ref = retrofit_matrix(x, self._graph(), method=method, beta=5.0)
        np.testing.assert_allclose(out / 2.0**1020, ref, rtol=1e-12)

    def test_lil_adjacency_same_result(self) -> None:
        x = np.random.default_rng(0).normal(size=(6, 4))
        a = self._graph()
        np.testing.assert_array_equal(retrofit_matrix(x, sp.lil_matrix(a)), retrofit_matrix(x, a))

    def test_integral_float_n_iter_refused(self) -> None:
        x = np.ones((6, 2))
        with pytest.raises(TypeError, match=r"n_iter must be an integer >= 0, got 10.0"):
            retrofit_matrix(x, self._graph(), n_iter=10.0)


# ----------------------------------------------------------------------------- rpca


@pytest.fixture(scope="module")
def small_planted():
    return make_planted(20, 200, 2, noise=0.1, sparse_fraction=0.1, sparse_scale=1.0)


class TestRPCA:
    def test_pca_huge_matrix_rescaled(self, small_planted) -> None:
        ref = pca(small_planted.M, 2)
        out = pca(small_planted.M * BIG, 2)
        np.testing.assert_allclose(out.components, ref.components, atol=1e-12)
        np.testing.assert_allclose(out.singular_values, ref.singular_values * BIG, rtol=1e-12)
        np.testing.assert_allclose(out.explained_variance_ratio, ref.explained_variance_ratio)

    def test_iterative_huge_matrix_rescaled(self, small_planted) -> None:
        ref = ex_rpca(small_planted.M, 2)
        out = ex_rpca(small_planted.M * 1e300, 2)
        assert out.converged and out.n_iter == ref.n_iter
        np.testing.assert_allclose(out.sparse / 1e300, ref.sparse, atol=1e-10)

    def test_alm_default_reaches_the_optimum(self, small_planted) -> None:
        """The default ALM stops on the primal AND dual residuals (<= 1e-6): its sparse
        part is within 1e-4 (relative) of a tightly converged run."""
        res = ex_rpca(small_planted.M, 2, method="alm")
        tight = ex_rpca(small_planted.M, 2, method="alm", tol=1e-10, max_iter=20000)
        assert res.converged and tight.converged
        assert res.params["dual_residual"] <= 1e-6 and res.params["primal_residual"] <= 1e-6
        gap = np.linalg.norm(res.sparse - tight.sparse) / np.linalg.norm(tight.sparse)
        assert gap < 1e-4, gap

    def test_alm_stopped_early_says_so(self, small_planted) -> None:
        with pytest.warns(Warning, match="dual residual"):
            res = ex_rpca(small_planted.M, 2, method="alm", max_iter=3)
        assert not res.converged

    def test_alm_huge_matrix_overflow_named(self, small_planted) -> None:
        with pytest.raises(ValueError, match="M: the ALM's products .* overflows float64"):
            ex_rpca(small_planted.M * 1e300, 2, method="alm")

    def test_integral_float_rank_refused(self, small_planted) -> None:
        with pytest.raises(TypeError, match=r"rank must be an integer >= 1, got 2.0"):
            ex_rpca(small_planted.M, 2.0)


# ----------------------------------------------------------------------------- embeddings


class TestMostSimilar:
    @pytest.mark.parametrize(
        "convert",
        [
            lambda v: (v * 20).astype(np.float16),  # squares overflow float16
            lambda v: (v * 1e-3).astype(np.float16),  # squares underflow float16
            lambda v: v * 1e200,
            lambda v: v * 1e-200,
        ],
        ids=["float16 large", "float16 small", "1e200", "1e-200"],
    )
    def test_cosines_stable(self, convert) -> None:
        v = np.random.default_rng(0).normal(size=(5, 300))
        words = list("abcde")
        ref = WordVectors(words, v).most_similar("a")
        out = WordVectors(words, convert(v)).most_similar("a")  # was: all cosines 0.0
        assert [w for w, _ in out] == [w for w, _ in ref]
        np.testing.assert_allclose([c for _, c in out], [c for _, c in ref], atol=1e-3)

    def test_huge_query_vector(self) -> None:
        v = np.random.default_rng(0).normal(size=(5, 300))
        out = WordVectors(list("abcde"), v).most_similar(v[0] * 1e250, topn=1)
        assert out[0][0] == "a" and out[0][1] == pytest.approx(1.0)

    def test_restrict_float_refused(self) -> None:
        wv = WordVectors(list("ab"), np.eye(2))
        with pytest.raises(TypeError, match=r"restrict must be an integer >= 0, got 1.0"):
            wv.most_similar("a", restrict=1.0)
