"""One estimator contract, checked for every public estimator.

Every public estimator of :mod:`workbench` subclasses ``sklearn.base.BaseEstimator``, stores its
parameters untouched in ``__init__`` (validation happens in ``fit``), raises ``NotFittedError``
before ``fit``, returns ``self`` from ``fit`` and names every learned attribute with a trailing
``_``. Multiview estimators take ``fit(views, y=None, *, masks=None)``. The registry below lists
each estimator with a small seeded data set of its input type; the same checks run on all.
"""

from __future__ import annotations

import ast
import inspect
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.exceptions import NotFittedError

from workbench.crosslingual import CLLSI, CPLSA, JPLSA, OPCA, CrossLingualCCA
from workbench.eigenwords import CCAPrior, Eigenwords
from workbench.gcca import GCCA, MVLSA

# --------------------------------------------------------------------------------- data


def _shared_views(n: int = 40, d: int = 5, n_views: int = 3, seed: int = 0) -> list[np.ndarray]:
    """Dense views over the same ``n`` rows sharing a 2-dimensional signal."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 2))
    return [z @ rng.normal(size=(2, d)) + 0.3 * rng.normal(size=(n, d)) for _ in range(n_views)]


def _documents(seed: int = 1) -> list[sp.csr_matrix]:
    """Two aligned document-term matrices (12 documents, 20 joint terms)."""
    rng = np.random.default_rng(seed)
    return [sp.random(12, 20, density=0.4, random_state=rng, format="csr") * 3 for _ in range(2)]


def _counts(seed: int = 1) -> list[sp.csr_matrix]:
    """Two aligned count matrices without empty documents."""
    out = []
    for x in _documents(seed):
        c = np.ceil(x.toarray())
        c[:, 0] += 1  # every document has a counted term
        out.append(sp.csr_matrix(c))
    return out


def _token_ids(seed: int = 2) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 9, size=200)


def _graph(seed: int = 3) -> sp.csr_matrix:
    a = sp.csr_matrix(np.triu(np.random.default_rng(seed).random((9, 9)) < 0.4, 1).astype(float))
    return a + a.T


_CONTEXTS = np.array([[0, 1, 2, 3], [-1, 4, 5, -1], [8, -1, -1, 7]])


# --------------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class Spec:
    """How to fit and use one estimator on small data."""

    make: Callable[..., BaseEstimator]
    params: dict[str, Any]  # constructor arguments of the test instance
    data: Callable[[], Any]  # training input (first argument of fit)
    transform_input: Callable[[], Any]
    bad_params: dict[str, Any]  # invalid values: __init__ accepts them, fit refuses them
    fit_kwargs: Callable[[], dict[str, Any]] = dict
    multiview: bool = True
    # methods that need a fitted estimator (name -> call), besides transform
    post_fit: dict[str, Callable[[Any], Any]] = field(default_factory=dict)

    def fit(self, est: Any) -> Any:
        return est.fit(self.data(), **self.fit_kwargs())

    def output(self, est: Any) -> np.ndarray:
        """The fitted result the reproducibility checks compare: transform of new input."""
        return np.asarray(est.transform(self.transform_input()))


def _new_views() -> list[np.ndarray]:
    return _shared_views(n=7, seed=5)


def _first_view_docs() -> Any:
    return _documents()[0]


def _first_view_counts() -> Any:
    return _counts()[0]


ESTIMATORS: dict[str, Spec] = {
    "GCCA": Spec(
        GCCA, {"n_components": 2, "regularization": 1e-3}, _shared_views, _new_views,
        {"n_components": 0, "row_weighting": "idf", "regularization": "x"},
        post_fit={"embedding": lambda e: e.embedding(),
                  "to_word_vectors": lambda e: e.to_word_vectors([f"w{i}" for i in range(40)])},
    ),
    "MVLSA": Spec(
        MVLSA,
        {"n_components": 2, "view_rank": 3, "svd_solver": "randomized", "n_iter": 2,
         "random_state": 0},
        _shared_views, _new_views,
        {"n_iter": -1, "svd_solver": "arpack", "view_rank": 0, "n_jobs": 0, "backend": "spark",
         "block_rows": 0},
        post_fit={"embedding": lambda e: e.embedding()},
    ),
    "CLLSI": Spec(CLLSI, {"n_components": 2}, _documents, _first_view_docs, {"n_components": "3"}),
    "OPCA": Spec(
        OPCA, {"n_components": 2, "gamma": 0.1}, _documents, _first_view_docs,
        {"gamma": 0, "solver": "eig", "center": None},
    ),
    "CrossLingualCCA": Spec(
        CrossLingualCCA, {"n_components": 2, "gamma": 1.0}, _documents, _first_view_docs,
        {"gamma": -1, "n_components": 0},
    ),
    "JPLSA": Spec(
        JPLSA, {"n_topics": 2, "n_iter": 3}, _counts, _first_view_counts,
        {"n_iter": -1, "alpha": 0.5, "beta": "1"},
    ),
    "CPLSA": Spec(
        CPLSA, {"n_topics": 2, "n_iter": 2}, _counts, _first_view_counts,
        {"epsilon": -0.1, "n_projection_steps": -1, "n_topics": 0},
    ),
    "Eigenwords": Spec(
        Eigenwords, {"n_components": 2, "solver": "randomized", "random_state": 0},
        _token_ids, lambda: _CONTEXTS,
        {"window": 0, "solver": "eigs", "count_transform": "log", "chunk_length": 0},
        fit_kwargs=lambda: {"vocabulary": [f"w{i}" for i in range(9)]},
        multiview=False, post_fit={"to_word_vectors": lambda e: e.to_word_vectors()},
    ),
    "CCAPrior": Spec(
        CCAPrior,
        {"n_components": 2, "n_neighbors": 3, "solver": "randomized", "random_state": 0},
        _token_ids, lambda: _CONTEXTS,
        {"alpha": 2.0, "which": "middle", "n_neighbors": 0, "random_state": 1.5},
        fit_kwargs=lambda: {"graph": _graph()}, multiview=False,
    ),
}

NAMES = list(ESTIMATORS)


def _fresh(name: str) -> tuple[Spec, Any]:
    spec = ESTIMATORS[name]
    return spec, spec.make(**spec.params)


def _assert_params_equal(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert repr(a[k]) == repr(b[k]), k


# --------------------------------------------------------------------------------- checks


# classes with a ``fit`` method that are not estimators (name -> why)
NOT_ESTIMATORS = {
    "SettingExplorer": "notebook widget helper (workbench.explore): fit(families, **settings) "
    "refits cached MVLSA systems for display",
}


def test_registry_lists_every_public_estimator() -> None:
    """Every public class of the package with a ``fit`` method is in the registry (found in the
    source, so classes of private modules re-exported by a package count too)."""
    package = Path(__file__).resolve().parents[1] / "workbench"
    found = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                if "fit" in methods:
                    found.add(node.name)
    assert found - set(NOT_ESTIMATORS) == set(ESTIMATORS)


@pytest.mark.parametrize("name", NAMES)
def test_is_a_scikit_learn_estimator(name: str) -> None:
    spec, est = _fresh(name)
    assert isinstance(est, BaseEstimator)
    if spec.multiview:
        assert isinstance(est, TransformerMixin)
    fit = inspect.signature(type(est).fit).parameters
    first = "views" if spec.multiview else "X"
    assert list(fit)[:3] == ["self", first, "y"]
    assert fit["y"].default is None
    if spec.multiview:
        masks = fit["masks"]
        assert masks.kind is inspect.Parameter.KEYWORD_ONLY and masks.default is None
        for method in ("fit_transform", "transform"):
            sig = inspect.signature(getattr(type(est), method)).parameters
            if "masks" in sig:
                assert sig["masks"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("name", NAMES)
def test_init_stores_parameters_untouched(name: str) -> None:
    spec = ESTIMATORS[name]
    names = [p for p in inspect.signature(spec.make).parameters]
    values = {n: object() for n in names}  # any object: no validation, no copy, no derivation
    est = spec.make(**values)
    for n in names:
        assert getattr(est, n) is values[n], n
    assert set(vars(est)) == set(names)


@pytest.mark.parametrize("name", NAMES)
def test_clone_and_params_round_trip(name: str) -> None:
    _, est = _fresh(name)
    params = est.get_params()
    _assert_params_equal(clone(est).get_params(), params)
    assert est.set_params(**params) is est
    _assert_params_equal(est.get_params(), params)
    first = next(iter(params))
    est.set_params(**{first: params[first]})
    with pytest.raises(ValueError):
        est.set_params(no_such_parameter=1)
    assert repr(est).startswith(type(est).__name__ + "(")


@pytest.mark.parametrize("name", NAMES)
def test_init_does_no_validation_fit_does(name: str) -> None:
    spec, _ = _fresh(name)
    for param, bad in spec.bad_params.items():
        est = spec.make(**{**spec.params, param: bad})  # must not raise
        assert est.get_params()[param] is bad
        with pytest.raises((ValueError, TypeError), match=param):
            spec.fit(est)


@pytest.mark.parametrize("name", NAMES)
def test_not_fitted_error_before_fit(name: str) -> None:
    spec, est = _fresh(name)
    with pytest.raises(NotFittedError):
        est.transform(spec.transform_input())
    for method, call in spec.post_fit.items():
        with pytest.raises(NotFittedError):
            call(est)
        assert method  # (named for the failure message)


@pytest.mark.parametrize("name", NAMES)
def test_fit_returns_self_and_learned_attributes_end_with_underscore(name: str) -> None:
    spec, est = _fresh(name)
    before = set(vars(est))
    assert spec.fit(est) is est
    new = set(vars(est)) - before
    assert new, "fit stored nothing"
    assert all(a.endswith("_") for a in new), sorted(a for a in new if not a.endswith("_"))
    x = spec.transform_input()
    assert spec.output(est).shape[0] == (x[0] if isinstance(x, list) else x).shape[0]
    for call in spec.post_fit.values():
        call(est)  # fitted: no error


@pytest.mark.parametrize("name", NAMES)
def test_fit_twice_gives_the_same_result(name: str) -> None:
    spec, est = _fresh(name)
    first = spec.output(spec.fit(est))
    again = spec.output(spec.fit(est))  # refit of the same instance
    other = spec.output(spec.fit(clone(est)))  # a clone with the same seed
    np.testing.assert_allclose(again, first, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(other, first, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_pickle_round_trip(name: str) -> None:
    spec, est = _fresh(name)
    unfitted = pickle.loads(pickle.dumps(est))
    _assert_params_equal(unfitted.get_params(), est.get_params())
    spec.fit(est)
    restored = pickle.loads(pickle.dumps(est))
    _assert_params_equal(restored.get_params(), est.get_params())
    np.testing.assert_array_equal(spec.output(restored), spec.output(est))


@pytest.mark.parametrize("name", [n for n in NAMES if ESTIMATORS[n].multiview])
def test_multiview_masks_and_fit_transform(name: str) -> None:
    spec, est = _fresh(name)
    views = spec.data()
    ref = spec.output(clone(est).fit(views))
    # all-observed masks (and None entries) change nothing; masks are keyword-only
    full = [np.ones(v.shape[0], dtype=bool) for v in views]
    full[0] = None
    np.testing.assert_allclose(spec.output(clone(est).fit(views, None, masks=full)), ref)
    with pytest.raises(TypeError):
        clone(est).fit(views, None, full)
    with pytest.raises(ValueError, match="masks"):
        clone(est).fit(views, masks=full[1:])
    # masking rows out changes the fit
    part = [np.ones(v.shape[0], dtype=bool) for v in views]
    part[1][:3] = False
    assert not np.allclose(spec.output(clone(est).fit(views, masks=part)), ref)
    # fit_transform: the training views in the learned space, as fit then transform gives it
    out = clone(est).fit_transform(views)
    fitted = clone(est).fit(views)
    if isinstance(fitted, (GCCA, MVLSA)):
        np.testing.assert_allclose(out, fitted.embedding_)
    else:
        assert isinstance(out, list) and len(out) == len(views)
        for m, (got, x) in enumerate(zip(out, views)):
            kw = {"view": m} if isinstance(fitted, CrossLingualCCA) else {}
            np.testing.assert_allclose(got, fitted.transform(x, **kw))
