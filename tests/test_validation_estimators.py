"""Every bad parameter or input of the algorithm modules raises an error
that names the parameter (or warns); nothing bad yields a silent result.

One table per module of ``(callable, error type, message pattern)``; the callables build small
seeded inputs, so each case runs in milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from workbench._validation import check_random_state
from workbench.alignment import train_ibm1
from workbench.baselines import fit_glove, lsa, ppmi_svd, train_word2vec, window_counts
from workbench.crosslingual import (
    CLLSI,
    CPLSA,
    JPLSA,
    OPCA,
    CrossLingualCCA,
    frequency_sorted_topics,
    kl_project,
    paired_retrieval,
    pairwise_mcnemar,
    split_books,
)
from workbench.eigenwords import (
    CCAPrior,
    Eigenwords,
    chunk_documents,
    count_contexts,
    count_prior_pairs,
    eigenwords_svd,
    graph_embeddings,
    lanczos_svd,
    laplacian_cca,
    lemma1_laplacian,
    token_laplacian,
)
from workbench.embeddings import WordVectors
from workbench.gcca import GCCA, MVLSA, glove_row_weights, truncated_svd
from workbench.lexicons import LexiconGraph, graph_from_lexicon, wordnet_relations
from workbench.retrofit import retrofit, retrofit_matrix
from workbench.rpca import (
    elimination_map,
    ex_rpca,
    make_planted,
    pca,
    pca_sparse_support,
    principal_angles,
    support_scores,
)
from workbench.senses import (
    online_sense_clustering,
    partial_spearman,
    spherical_kmeans,
    train_multisense,
)
from workbench.studies.senses import removal_grid
from workbench.views import (
    PreprocessSpec,
    Vocabulary,
    check_views,
    count_offset,
    encode_corpus,
    ppmi,
    vocabulary_and_encoding,
    window_weight,
)

Case = tuple[Callable[[], Any], type[Exception], str]


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _views(n: int = 30, d: int = 5, m: int = 3, seed: int = 0) -> list[np.ndarray]:
    rng = _rng(seed)
    return [rng.normal(size=(n, d)) for _ in range(m)]


def _with_nan(views: list[np.ndarray]) -> list[np.ndarray]:
    out = [v.copy() for v in views]
    out[0][0, 0] = np.nan
    return out


def _run(case: Case) -> None:
    fn, error, match = case
    with pytest.raises(error, match=match):
        fn()


# --------------------------------------------------------------------------------- gcca

_X = _views()
_MV = MVLSA(2, view_rank=3, random_state=0)
_GC = GCCA(2)
_FITTED = MVLSA(2, view_rank=3, random_state=0).fit(_X)

GCCA_CASES: dict[str, Case] = {
    "n_iter < 0": (lambda: MVLSA(2, view_rank=3, n_iter=-1).fit(_X), ValueError,
                   "n_iter must be an integer >= 0 or None, got -1"),
    "svd_tol": (lambda: MVLSA(2, view_rank=3, svd_tol=1.0).fit(_X), ValueError,
                "svd_tol must be a finite number > 0 and < 1, got 1.0"),
    "n_oversamples < 0": (lambda: MVLSA(2, view_rank=3, n_oversamples=-5).fit(_X), ValueError,
                          "n_oversamples must be an integer >= 0 or None, got -5"),
    "n_iter string": (lambda: MVLSA(2, view_rank=3, n_iter="5").fit(_X), TypeError, "n_iter"),
    "regularization string": (lambda: MVLSA(2, view_rank=3, regularization="1e-3").fit(_X),
                              TypeError, "regularization .*got '1e-3'"),
    "regularization None": (lambda: MVLSA(2, view_rank=3, regularization=None).fit(_X),
                            TypeError, "regularization"),
    "regularization < 0": (lambda: GCCA(2, regularization=-1.0).fit(_X), ValueError,
                           "regularization must be a finite number >= 0, got -1.0"),
    "regularization per view": (lambda: GCCA(2, regularization=[0.1, -1, 0.1]).fit(_X),
                                ValueError, r"regularization\[1\] must be"),
    "regularization length": (lambda: GCCA(2, regularization=[0.1, 0.1]).fit(_X), ValueError,
                              "regularization has 2 entries for 3 views"),
    "view_rank 0": (lambda: MVLSA(2, view_rank=0).fit(_X), ValueError,
                    "view_rank must be an integer >= 1, got 0"),
    "n_components float": (lambda: MVLSA(2.5, view_rank=3).fit(_X), ValueError,
                           "n_components must be an integer >= 1, got 2.5"),
    "n_components > rows": (lambda: GCCA(31).fit(_X), ValueError, "n_components=31 exceeds"),
    "min_view_support < 0": (lambda: GCCA(2, min_view_support=-1).fit(_X), ValueError,
                             "min_view_support must be an integer >= 0"),
    "row_weighting": (lambda: GCCA(2, row_weighting="idf").fit(_X), ValueError,
                      "row_weighting must be one of None, 'none', 'glove'; got 'idf'"),
    "row_weight_max": (lambda: GCCA(2, row_weighting="glove", row_weight_max=0).fit(_X),
                       ValueError, "row_weight_max must be a finite number > 0, got 0"),
    "row_weight_power": (lambda: GCCA(2, row_weighting="glove", row_weight_power=-1).fit(_X),
                         ValueError, "row_weight_power must be a finite number >= 0"),
    "center": (lambda: GCCA(2, center="yes").fit(_X), TypeError, "center must be True or False"),
    "svd_solver": (lambda: MVLSA(2, view_rank=3, svd_solver="arpack").fit(_X), ValueError,
                   "svd_solver must be one of 'auto', 'randomized', 'gram', 'dense'; got 'arpack'"),
    "relative_regularization": (
        lambda: MVLSA(2, view_rank=3, relative_regularization=1).fit(_X), TypeError,
        "relative_regularization must be True or False"),
    "random_state": (lambda: MVLSA(2, view_rank=3, random_state="a").fit(_X), TypeError,
                     "random_state must be None, an integer >= 0"),
    "random_state < 0": (lambda: MVLSA(2, view_rank=3, random_state=-1).fit(_X), ValueError,
                         "random_state must be"),
    "n_jobs 0": (lambda: MVLSA(2, view_rank=3, n_jobs=0).fit(_X), ValueError,
                 "n_jobs must be a nonzero integer or None, got 0"),
    "NaN in fit": (lambda: _MV.fit(_with_nan(_X)), ValueError, "view 0 contains 1 non-finite"),
    "NaN in transform": (lambda: _FITTED.transform(_with_nan(_X)), ValueError,
                         "view 0 contains 1 non-finite"),
    "sparse NaN in transform": (
        lambda: _FITTED.transform([sp.csr_matrix(x) for x in _with_nan(_X)]), ValueError,
        "view 0 contains 1 non-finite"),
    "complex view": (lambda: _GC.fit([x.astype(complex) for x in _X]), ValueError,
                     "view 0: dtype complex128 is not real numeric"),
    "transform columns": (lambda: _FITTED.transform([x[:, :4] for x in _X]), ValueError,
                          "view 0 has 4 columns; it had 5 in fit"),
    "transform views": (lambda: _FITTED.transform(_X[:2]), ValueError,
                        "views: fitted on 3 views, got 2"),
    "embedding n_components": (lambda: _FITTED.embedding(3), ValueError,
                               "n_components must be an integer >= 1 and <= 2, got 3"),
    "glove_row_weights x_max": (lambda: glove_row_weights(_X[0], x_max=-1.0), ValueError,
                                "x_max must be a finite number > 0"),
    "glove_row_weights alpha": (lambda: glove_row_weights(_X[0], alpha="0.75"), TypeError,
                                "alpha"),
}

TSVD_CASES: dict[str, Case] = {
    "rank": (lambda: truncated_svd(_X[0], 0), ValueError, "rank must be an integer >= 1"),
    "method": (lambda: truncated_svd(_X[0], 2, method="lapack"), ValueError,
               "method must be one of"),
    "n_iter": (lambda: truncated_svd(_X[0], 2, method="randomized", n_iter=-1), ValueError,
               "n_iter must be an integer >= 0"),
    "n_oversamples": (lambda: truncated_svd(_X[0], 2, n_oversamples=-1), ValueError,
                      "n_oversamples must be an integer >= 0 or None"),
    "n_threads": (lambda: truncated_svd(_X[0], 2, n_threads=0), ValueError,
                  "n_threads must be an integer >= 1"),
    "NaN": (lambda: truncated_svd(_with_nan(_X)[0], 2), ValueError, "X contains 1 NaN"),
    "sparse NaN": (lambda: truncated_svd(sp.csr_matrix(_with_nan(_X)[0]), 2), ValueError,
                   "X contains 1 NaN"),
    "complex": (lambda: truncated_svd(_X[0] * 1j, 2), TypeError, "X must be real-valued"),
    "1-D": (lambda: truncated_svd(_X[0][0], 2), ValueError, "X must be 2-dimensional"),
    "row_weights length": (lambda: truncated_svd(_X[0], 2, row_weights=np.ones(3)), ValueError,
                           r"row_weights has shape \(3,\), expected \(30,\)"),
    "row_weights negative": (lambda: truncated_svd(_X[0], 2, row_weights=-np.ones(30)),
                             ValueError, "row_weights must be >= 0"),
    "row_weights NaN": (lambda: truncated_svd(_X[0], 2, row_weights=np.full(30, np.nan)),
                        ValueError, "row_weights contains 30 NaN"),
}


@pytest.mark.parametrize("case", list(GCCA_CASES), ids=list(GCCA_CASES))
def test_gcca_bad_input(case: str) -> None:
    _run(GCCA_CASES[case])


@pytest.mark.parametrize("case", list(TSVD_CASES), ids=list(TSVD_CASES))
def test_truncated_svd_bad_input(case: str) -> None:
    _run(TSVD_CASES[case])


def test_gcca_parameters_checked_in_fit_not_init() -> None:
    """scikit-learn contract: ``__init__`` only stores (``get_params`` / ``clone`` work)."""
    est = MVLSA(2, view_rank=3, n_iter=-1, regularization="x")
    assert est.get_params()["n_iter"] == -1
    with pytest.raises(ValueError, match="n_iter"):
        est.fit(_X)


def test_gcca_accepts_numpy_integers_and_generators() -> None:
    a = MVLSA(np.int64(2), view_rank=np.int32(3), n_iter=np.int64(2), random_state=0).fit(_X)
    b = MVLSA(2, view_rank=3, n_iter=2, random_state=np.random.default_rng(0)).fit(_X)
    assert a.embedding_.shape == b.embedding_.shape == (30, 2)
    with pytest.raises(TypeError, match=r"n_components must be an integer >= 1, got 2.0 \(float\)"):
        GCCA(2.0).fit(_X)  # an integral float is not an integer (as in scikit-learn)


# --------------------------------------------------------------------------------- crosslingual

_DOCS = [sp.random(12, 20, density=0.4, random_state=s, format="csr") * 3 for s in (1, 2)]
_COUNTS = [sp.csr_matrix(np.ceil(v.toarray())) for v in _DOCS]
_OPCA = OPCA(2, 0.1).fit(_DOCS)
_CCA = CrossLingualCCA(2, 1.0).fit(_DOCS)
_JP = JPLSA(2, n_iter=1).fit(_COUNTS)

CROSSLINGUAL_CASES: dict[str, Case] = {
    "OPCA complex": (lambda: OPCA(2).fit([d.toarray() * 1j for d in _DOCS]), TypeError,
                     "view 0 .* must be real-valued"),
    "OPCA NaN": (lambda: OPCA(2).fit([np.full((5, 4), np.nan), np.ones((5, 4))]), ValueError,
                 "view 0 .* contains 20 NaN"),
    "OPCA sparse NaN": (
        lambda: OPCA(2).fit([sp.csr_matrix(np.where(np.eye(5, 4) > 0, np.nan, 1.0)),
                             sp.csr_matrix(np.ones((5, 4)))]), ValueError, "contains 4 NaN"),
    "OPCA n_components": (lambda: OPCA(0).fit(_DOCS), ValueError,
                          "n_components must be an integer >= 1, got 0"),
    "OPCA gamma": (lambda: OPCA(2, gamma="0.1").fit(_DOCS), TypeError, "gamma"),
    "OPCA gamma 0": (lambda: OPCA(2, gamma=0).fit(_DOCS), ValueError,
                     "gamma must be a finite number > 0, got 0"),
    "OPCA solver": (lambda: OPCA(2, solver="eig").fit(_DOCS), ValueError,
                    "solver must be one of 'auto', 'reduced', 'dense'; got 'eig'"),
    "OPCA center": (lambda: OPCA(2, center=None).fit(_DOCS), TypeError, "center"),
    "OPCA transform NaN": (lambda: _OPCA.transform(np.full((2, 20), np.nan)), ValueError,
                           "X contains 40 NaN"),
    "OPCA transform columns": (lambda: _OPCA.transform(np.ones((2, 7))), ValueError,
                               r"X has shape \(2, 7\); expected \(n_documents, 20\)"),
    "OPCA transform complex": (lambda: _OPCA.transform(np.ones((2, 20)) * 1j), TypeError,
                               "X must be real-valued"),
    "CCA gamma": (lambda: CrossLingualCCA(2, gamma=-1).fit(_DOCS), ValueError, "gamma"),
    "CCA view": (lambda: _CCA.transform(_DOCS[0], view=2), ValueError,
                 "view must be an integer >= 0 and <= 1, got 2"),
    "CCA view float": (lambda: _CCA.transform(_DOCS[0], view=0.5), ValueError, "view must be"),
    "CLLSI n_components": (lambda: CLLSI("3").fit(_DOCS), TypeError, "n_components"),
    "JPLSA n_iter": (lambda: JPLSA(2, n_iter=-1).fit(_COUNTS), ValueError,
                     "n_iter must be an integer >= 0, got -1"),
    "JPLSA alpha": (lambda: JPLSA(2, alpha=0.5).fit(_COUNTS), ValueError,
                    "alpha must be a finite number >= 1, got 0.5"),
    "JPLSA beta": (lambda: JPLSA(2, beta="1").fit(_COUNTS), TypeError, "beta"),
    "JPLSA n_topics": (lambda: JPLSA(0).fit(_COUNTS), ValueError, "n_topics must be"),
    "JPLSA fold_in_iter": (lambda: JPLSA(2, fold_in_iter=0).fit(_COUNTS), ValueError,
                           "fold_in_iter must be an integer >= 1"),
    "JPLSA callback": (lambda: JPLSA(2).fit(_COUNTS, callback=3), TypeError,
                       "callback must be callable"),
    "JPLSA transform NaN": (lambda: _JP.transform(np.full((1, 20), np.nan)), ValueError,
                            "X contains 20 NaN"),
    "CPLSA epsilon": (lambda: CPLSA(2, epsilon=-0.1).fit(_COUNTS), ValueError,
                      "epsilon must be a finite number >= 0"),
    "CPLSA n_projection_steps": (lambda: CPLSA(2, n_projection_steps=-1).fit(_COUNTS),
                                 ValueError, "n_projection_steps must be an integer >= 0"),
    "frequency_sorted_topics NaN": (lambda: frequency_sorted_topics([1.0, np.nan], 2),
                                    ValueError, "term_counts contains 1 NaN"),
    "frequency_sorted_topics n_topics": (lambda: frequency_sorted_topics([1.0, 2.0], 0),
                                         ValueError, "n_topics must be an integer >= 1"),
    "kl_project epsilon": (
        lambda: kl_project([np.full((12, 2), 0.5)] * 2, np.full((20, 2), 0.05), _COUNTS,
                           epsilon=-1), ValueError, "epsilon must be a finite number >= 0"),
    "paired_retrieval metric": (lambda: paired_retrieval(np.eye(3), np.eye(3), metric="dot"),
                                ValueError, "metric must be one of 'cosine', 'l1'; got 'dot'"),
    "paired_retrieval NaN": (lambda: paired_retrieval(np.full((3, 2), np.nan), np.eye(3, 2)),
                             ValueError, "A contains 6 NaN"),
    "pairwise_mcnemar alpha": (
        lambda: pairwise_mcnemar({"a": np.ones(4, bool), "b": np.zeros(4, bool)}, alpha=1.5),
        ValueError, "alpha must be a finite number > 0 and < 1, got 1.5"),
    "pairwise_mcnemar NaN hits": (
        lambda: pairwise_mcnemar({"a": np.array([1.0, np.nan]), "b": np.ones(2)}), ValueError,
        r"hits\['a'\] contains 1 NaN"),
    "split_books period": (lambda: split_books(["a"], {"a": "x"}, period=2), ValueError,
                           "period must be an integer >= 4, got 2"),
}


@pytest.mark.parametrize("case", list(CROSSLINGUAL_CASES), ids=list(CROSSLINGUAL_CASES))
def test_crosslingual_bad_input(case: str) -> None:
    _run(CROSSLINGUAL_CASES[case])


def test_experiment_config_checks_its_fields() -> None:
    from workbench.studies.translingual import ExperimentConfig

    with pytest.raises(ValueError, match="n_terms must be an integer >= 1, got 0"):
        ExperimentConfig(n_terms=0)
    with pytest.raises(ValueError, match=r"dims\[1\] must be an integer >= 1, got 0"):
        ExperimentConfig(dims=(10, 0))
    with pytest.raises(ValueError, match=r"opca_gammas\[0\] must be a finite number > 0"):
        ExperimentConfig(opca_gammas=(0.0,))
    with pytest.raises(ValueError, match=r"methods\[0\] must be one of"):
        ExperimentConfig(methods=("LDA",))
    with pytest.raises(TypeError, match="dims must be a non-empty tuple"):
        ExperimentConfig(dims="10")


# --------------------------------------------------------------------------------- rpca

_M = _rng(1).normal(size=(6, 40))

RPCA_CASES: dict[str, Case] = {
    "pca rank": (lambda: pca(_M, 0), ValueError, "rank must be an integer >= 1, got 0"),
    "pca rank > d": (lambda: pca(_M, 7), ValueError, "rank=7 exceeds the dimension d=6"),
    "pca svd_solver": (lambda: pca(_M, 2, svd_solver="arpack"), ValueError,
                       "svd_solver must be one of"),
    "pca random_state": (lambda: pca(_M, 2, random_state="0"), TypeError, "random_state"),
    "pca complex": (lambda: pca(_M * 1j, 2), TypeError, "M must be real-valued"),
    "pca sparse": (lambda: pca(sp.csr_matrix(_M), 2), TypeError, "M must be a dense array"),
    "pca inf": (lambda: pca(np.where(_M > 2, np.inf, _M), 2), ValueError, "M contains"),
    "ex_rpca method": (lambda: ex_rpca(_M, 2, method="admm"), ValueError,
                       "method must be one of 'iterative', 'alm'; got 'admm'"),
    "ex_rpca tol": (lambda: ex_rpca(_M, 2, tol=-1.0), ValueError,
                    "tol must be a finite number >= 0 or None, got -1.0"),
    "ex_rpca tol string": (lambda: ex_rpca(_M, 2, tol="1e-4"), TypeError, "tol"),
    "ex_rpca max_iter": (lambda: ex_rpca(_M, 2, max_iter=0), ValueError,
                         "max_iter must be an integer >= 1 or None, got 0"),
    "ex_rpca n_sigma": (lambda: ex_rpca(_M, 2, n_sigma=0), ValueError,
                        "n_sigma must be a finite number > 0"),
    "ex_rpca rho": (lambda: ex_rpca(_M, 2, method="alm", rho=0.5), ValueError,
                    "rho must be a finite number >= 1, got 0.5"),
    "ex_rpca lambda1": (lambda: ex_rpca(_M, 2, method="alm", lambda1=0.0), ValueError,
                        "lambda1 must be a finite number > 0"),
    "ex_rpca mu0": (lambda: ex_rpca(_M, 2, method="alm", mu0=-1.0), ValueError, "mu0"),
    "ex_rpca eps": (lambda: ex_rpca(_M, 2, method="alm", eps=0), ValueError, "eps"),
    "ex_rpca svt_rank": (lambda: ex_rpca(_M, 2, method="alm", svt_rank=0), ValueError,
                         "svt_rank must be an integer >= 1 or None"),
    "ex_rpca warn": (lambda: ex_rpca(_M, 2, warn="no"), TypeError, "warn must be True or False"),
    "make_planted rank": (lambda: make_planted(5, 8, 6), ValueError,
                          "rank must be an integer >= 1 and <= 5, got 6"),
    "make_planted sparse_fraction": (lambda: make_planted(5, 8, 2, sparse_fraction=1.0),
                                     ValueError, "sparse_fraction must be a finite number >= 0 "
                                     "and < 1, got 1.0"),
    "make_planted noise": (lambda: make_planted(5, 8, 2, noise=-1), ValueError, "noise"),
    "elimination_map NaN": (lambda: elimination_map(np.array([[np.nan], [1.0]])), ValueError,
                            "components contains 1 NaN"),
    "support_scores atol": (lambda: support_scores(np.eye(2), np.eye(2, dtype=bool), atol=-1),
                            ValueError, "atol must be a finite number >= 0"),
    "principal_angles rows": (lambda: principal_angles(np.eye(3), np.eye(4)), ValueError,
                              "A and B must have the same number of rows"),
    "pca_sparse_support n_sigma": (lambda: pca_sparse_support(pca(_M, 2), n_sigma=0),
                                   ValueError, "n_sigma must be a finite number > 0"),
}


@pytest.mark.parametrize("case", list(RPCA_CASES), ids=list(RPCA_CASES))
def test_rpca_bad_input(case: str) -> None:
    _run(RPCA_CASES[case])


# --------------------------------------------------------------------------------- eigenwords

_IDS = _rng(2).integers(0, 9, size=150)
_GRAPH = sp.csr_matrix(np.triu(_rng(3).random((9, 9)) < 0.4, 1).astype(float))
_GRAPH = _GRAPH + _GRAPH.T
_CC = count_contexts(_IDS, 9)
_EW = Eigenwords(2, solver="dense").fit(_IDS)

EIGENWORDS_CASES: dict[str, Case] = {
    "window 0": (lambda: count_contexts(_IDS, 9, window=0), ValueError,
                 "window must be an integer >= 1, got 0"),
    "window float": (lambda: count_contexts(_IDS, 9, window=1.5), ValueError, "window"),
    "vocab_size": (lambda: count_contexts(_IDS, "9"), TypeError, "vocab_size"),
    "chunk_length": (lambda: chunk_documents([0], 10, 0), ValueError, "chunk_length"),
    "n_neighbors": (lambda: count_prior_pairs(_IDS, _GRAPH, n_neighbors=0), ValueError,
                    "n_neighbors must be an integer >= 1, got 0"),
    "block_size": (lambda: count_prior_pairs(_IDS, _GRAPH, block_size=-1), ValueError,
                   "block_size"),
    "show_progress": (lambda: count_prior_pairs(_IDS, _GRAPH, show_progress="yes"), TypeError,
                      "show_progress must be True or False"),
    "graph NaN": (lambda: count_prior_pairs(_IDS, _GRAPH * np.nan), ValueError,
                  "graph adjacency contains"),
    "svd n_components": (lambda: eigenwords_svd(_CC, 0), ValueError,
                         "n_components must be an integer >= 1, got 0"),
    "svd solver": (lambda: eigenwords_svd(_CC, 2, solver="eigs"), ValueError,
                   "solver must be one of 'svds', 'lanczos', 'randomized', 'dense'; got 'eigs'"),
    "svd transform": (lambda: eigenwords_svd(_CC, 2, transform="log"), ValueError,
                      "transform must be one of"),
    "svd random_state": (lambda: eigenwords_svd(_CC, 2, random_state=1.5), TypeError,
                         "random_state"),
    "svd prior NaN": (lambda: eigenwords_svd(_CC, 2, prior=_CC.counts * np.nan, alpha=0.5),
                      ValueError, "prior contains"),
    "Eigenwords window": (lambda: Eigenwords(2, window=0).fit(_IDS), ValueError,
                          "window must be an integer >= 1, got 0"),
    "Eigenwords solver": (lambda: Eigenwords(2, solver="eigs").fit(_IDS), ValueError,
                          "solver must be one of"),
    "Eigenwords count_transform": (lambda: Eigenwords(2, count_transform="log").fit(_IDS),
                                   ValueError, "count_transform must be one of"),
    "Eigenwords chunk_length": (lambda: Eigenwords(2, chunk_length=0).fit(_IDS), ValueError,
                                "chunk_length must be an integer >= 1 or None"),
    "Eigenwords transform NaN": (lambda: _EW.transform(np.full((1, 4), np.nan)), ValueError,
                                 "X contains 4 NaN"),
    "Eigenwords transform float ids": (lambda: _EW.transform(np.zeros((1, 4))), TypeError,
                                       "X must hold integer context word ids"),
    "Eigenwords transform columns": (lambda: _EW.transform(np.zeros((1, 3), dtype=int)),
                                     ValueError, r"X must have shape \(n, 4\)"),
    "CCAPrior n_neighbors": (lambda: CCAPrior(2, n_neighbors=0).fit(_IDS, graph=_GRAPH),
                             ValueError, "n_neighbors must be an integer >= 1"),
    "CCAPrior which": (lambda: CCAPrior(2, which="middle").fit(_IDS, graph=_GRAPH), ValueError,
                       "which must be one of 'largest', 'smallest'; got 'middle'"),
    "CCAPrior alpha string": (lambda: CCAPrior(2, alpha="0.5").fit(_IDS, graph=_GRAPH),
                              TypeError, "alpha"),
    "lanczos k": (lambda: lanczos_svd(np.eye(5), 6), ValueError,
                  "k must be an integer >= 1 and <= 5, got 6"),
    "lanczos NaN": (lambda: lanczos_svd(np.full((3, 3), np.nan), 1), ValueError,
                    "A contains 9 NaN"),
    "lanczos tol": (lambda: lanczos_svd(np.eye(5), 2, tol=0), ValueError,
                    "tol must be a finite number > 0"),
    "laplacian_cca which": (lambda: laplacian_cca(np.eye(3), np.eye(3), None, 1, which="x"),
                            ValueError, "which must be one of"),
    "laplacian_cca NaN": (lambda: laplacian_cca(np.full((3, 2), np.nan), np.eye(3), None, 1),
                          ValueError, "X contains 6 NaN"),
    "lemma1_laplacian": (lambda: lemma1_laplacian(0), ValueError, "n must be an integer >= 1"),
    "token_laplacian kind": (lambda: token_laplacian(_IDS, _GRAPH, kind="other"), ValueError,
                             "kind must be one of 'figure3', 'similarity'; got 'other'"),
    "token_laplacian alpha": (lambda: token_laplacian(_IDS, _GRAPH, alpha=2.0), ValueError,
                              "alpha must be a finite number > 0 and <= 1, got 2.0"),
    "graph_embeddings solver": (
        lambda: graph_embeddings(LexiconGraph("g", tuple("abcdefghi"), _GRAPH), 2,
                                 solver="eigs"), ValueError, "solver must be one of"),
}


@pytest.mark.parametrize("case", list(EIGENWORDS_CASES), ids=list(EIGENWORDS_CASES))
def test_eigenwords_bad_input(case: str) -> None:
    _run(EIGENWORDS_CASES[case])


# --------------------------------------------------------------------------------- baselines

_DOCS_TXT = [["a", "b", "c", "a", "b"], ["b", "c", "d", "a"], ["c", "d", "a", "b"]]
_COOC = sp.csr_array(np.array([[0, 2, 1], [2, 0, 3], [1, 3, 0]], dtype=float))

BASELINES_CASES: dict[str, Case] = {
    "glove n_components": (lambda: fit_glove(_COOC, 0), ValueError,
                           "n_components must be an integer >= 1, got 0"),
    "glove complex": (lambda: fit_glove(_COOC.toarray() * 1j, 2), TypeError,
                      "cooccurrence .* must be real-valued"),
    "glove random_state": (lambda: fit_glove(_COOC, 2, random_state="x"), TypeError,
                           "random_state"),
    "glove progress": (lambda: fit_glove(_COOC, 2, progress=1), TypeError,
                       "progress must be True or False"),
    "glove learning_rate string": (lambda: fit_glove(_COOC, 2, learning_rate="0.05"),
                                   TypeError, "learning_rate"),
    "ppmi_svd n_iter": (lambda: ppmi_svd(_DOCS_TXT, n_components=1, n_iter=-1), ValueError,
                        "n_iter must be an integer >= 0, got -1"),
    "ppmi_svd cds string": (lambda: ppmi_svd(_DOCS_TXT, n_components=1, cds="0.75"), TypeError,
                            "cds"),
    "ppmi_svd random_state": (lambda: ppmi_svd(_DOCS_TXT, n_components=1, random_state=-2),
                              ValueError, "random_state"),
    "window_counts window": (
        lambda: window_counts(vocabulary_and_encoding(_DOCS_TXT)[1], 0), ValueError,
        "window must be an integer >= 1, got 0"),
    "lsa n_iter": (lambda: lsa([_COOC.toarray()], ["a", "b", "c"], 1, n_iter=-1), ValueError,
                   "n_iter must be an integer >= 0"),
    "lsa center": (lambda: lsa([_COOC.toarray()], ["a", "b", "c"], 1, center=1), TypeError,
                   "center must be True or False"),
    "lsa singular_value_power": (
        lambda: lsa([_COOC.toarray()], ["a", "b", "c"], 1, singular_value_power=np.nan),
        ValueError, "singular_value_power must be a finite number"),
    "word2vec sample": (lambda: train_word2vec(_DOCS_TXT, sample=1.0), ValueError,
                        "sample must be a finite number >= 0 and < 1, got 1.0"),
    "word2vec seed": (lambda: train_word2vec(_DOCS_TXT, seed="0"), TypeError, "seed"),
    "word2vec workers": (lambda: train_word2vec(_DOCS_TXT, workers=0), ValueError,
                         "workers must be an integer >= 1"),
}


@pytest.mark.parametrize("case", list(BASELINES_CASES), ids=list(BASELINES_CASES))
def test_baselines_bad_input(case: str) -> None:
    _run(BASELINES_CASES[case])


# --------------------------------------------------------------------------------- retrofit, alignment, lexicon graphs

_WV = WordVectors(["a", "b", "c"], np.eye(3))
_LEX = {"a": ["b"], "b": ["a", "c"]}

OTHER_CASES: dict[str, Case] = {
    "retrofit n_iter": (lambda: retrofit(_WV, _LEX, n_iter=-1), ValueError,
                        "n_iter must be an integer >= 0, got -1"),
    "retrofit alpha": (lambda: retrofit(_WV, _LEX, alpha="1"), TypeError, "alpha"),
    "retrofit beta": (lambda: retrofit(_WV, _LEX, beta="uniform"), ValueError,
                      "beta must be 'inverse_degree' or a number > 0, got 'uniform'"),
    "retrofit beta 0": (lambda: retrofit(_WV, _LEX, beta=0.0), ValueError,
                        "beta must be a finite number > 0"),
    "retrofit method": (lambda: retrofit(_WV, _LEX, method="sor"), ValueError,
                        "method must be one of 'jacobi', 'gauss-seidel'; got 'sor'"),
    "retrofit_matrix complex": (lambda: retrofit_matrix(np.eye(2) * 1j, sp.eye(2)), TypeError,
                                "X .* must be real-valued"),
    "retrofit_matrix adjacency NaN": (
        lambda: retrofit_matrix(np.eye(2), np.full((2, 2), np.nan)), ValueError,
        "adjacency contains 4 NaN"),
    "ibm1 n_iter": (lambda: train_ibm1([["a"]], [["x"]], n_iter=-1), ValueError,
                    "n_iter must be an integer >= 0, got -1"),
    "ibm1 null": (lambda: train_ibm1([["a"]], [["x"]], null="yes"), TypeError,
                  "null must be True or False"),
    "ibm1 topn": (lambda: train_ibm1([["a"]], [["x"]]).best_translations("a", topn=0),
                  ValueError, "topn must be an integer >= 1"),
    "LexiconGraph NaN": (lambda: LexiconGraph("g", ("a", "b"), np.full((2, 2), np.nan)),
                         ValueError, "adjacency contains 4 NaN"),
    "graph_from_lexicon lexicon": (lambda: graph_from_lexicon(["a"], [("a", "b")]), TypeError,
                                   "lexicon must be a mapping"),
    "graph_from_lexicon words": (lambda: graph_from_lexicon("ab", _LEX), TypeError,
                                 "words must be a sequence of words"),
    "graph_from_lexicon use_base_forms": (
        lambda: graph_from_lexicon(["a"], _LEX, use_base_forms="no"), TypeError,
        "use_base_forms must be True or False"),
    "wordnet_relations string": (lambda: wordnet_relations(None, relations="synonym"),
                                 TypeError, "relations must be a sequence of relation names"),
}


@pytest.mark.parametrize("case", list(OTHER_CASES), ids=list(OTHER_CASES))
def test_retrofit_alignment_lexicon_bad_input(case: str) -> None:
    _run(OTHER_CASES[case])


# --------------------------------------------------------------------------------- views, senses

_VOCAB = Vocabulary.from_corpus(_DOCS_TXT)
_ENC = encode_corpus(_DOCS_TXT, _VOCAB)

VIEWS_SENSES_CASES: dict[str, Case] = {
    "check_views min_views": (lambda: check_views(_X, min_views=0), ValueError,
                              "min_views must be an integer >= 1"),
    "Vocabulary min_count": (lambda: Vocabulary.from_counts({"a": 1}, min_count=0), ValueError,
                             "min_count must be an integer >= 1, got 0"),
    "vocabulary_and_encoding max_size": (
        lambda: vocabulary_and_encoding(_DOCS_TXT, max_size=0), ValueError,
        "max_size must be an integer >= 1 or None, got 0"),
    "count_offset offset float": (lambda: count_offset(_ENC, 1.5), ValueError,
                                  "offset must be an integer, got 1.5"),
    "count_offset chunk_size": (lambda: count_offset(_ENC, 1, chunk_size=0), ValueError,
                                "chunk_size must be an integer >= 1"),
    "window_weight weighting": (lambda: window_weight(1, 2, "gaussian"), ValueError,
                                "weighting must be one of"),
    "window_weight k": (lambda: window_weight(3, 2, "uniform"), ValueError,
                        "k must be an integer >= 1 and <= 2, got 3"),
    "PreprocessSpec power": (lambda: PreprocessSpec("pow", power="0.25"), TypeError, "power"),
    "PreprocessSpec top_t": (lambda: PreprocessSpec(top_t=0), ValueError,
                             "top_t must be an integer >= 1 or None, got 0"),
    "ppmi complex": (lambda: ppmi(np.eye(2) * 1j), TypeError, "counts must be real-valued"),
    "train_multisense sample": (lambda: train_multisense(_DOCS_TXT, sample=1.5), ValueError,
                                "sample must be a finite number >= 0 and < 1, got 1.5"),
    "train_multisense negative": (lambda: train_multisense(_DOCS_TXT, negative=0), ValueError,
                                  "negative must be an integer >= 1, got 0"),
    "train_multisense dim string": (lambda: train_multisense(_DOCS_TXT, dim="50"), TypeError,
                                    "dim"),
    "train_multisense max_tokens": (lambda: train_multisense(_DOCS_TXT, max_tokens=0),
                                    ValueError, "max_tokens must be an integer >= 1 or None"),
    "spherical_kmeans k": (lambda: spherical_kmeans(np.eye(3), 0), ValueError,
                           "k must be an integer >= 1, got 0"),
    "spherical_kmeans NaN": (lambda: spherical_kmeans(np.full((3, 2), np.nan), 2), ValueError,
                             "X contains 6 NaN"),
    "online_sense_clustering threshold": (
        lambda: online_sense_clustering(np.eye(3), 2.0, 3), ValueError,
        r"threshold \(a cosine\) must be a finite number >= -1 and <= 1, got 2.0"),
    "online_sense_clustering max_senses": (
        lambda: online_sense_clustering(np.eye(3), 0.5, 0), ValueError,
        "max_senses must be an integer >= 1"),
    "removal_grid dim": (lambda: removal_grid(2), ValueError, "dim must be an integer >= 3"),
    "partial_spearman NaN": (lambda: partial_spearman([1, 2, np.nan, 4, 5], [1, 2, 3, 4, 5],
                                                      [5, 3, 2, 4, 1]), ValueError,
                             "x, y or z contains 1 NaN"),
    "partial_spearman nan_policy": (
        lambda: partial_spearman([1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], nan_policy="skip"),
        ValueError, "nan_policy must be one of"),
}


@pytest.mark.parametrize("case", list(VIEWS_SENSES_CASES), ids=list(VIEWS_SENSES_CASES))
def test_views_and_senses_bad_input(case: str) -> None:
    _run(VIEWS_SENSES_CASES[case])


def test_partial_spearman_nan_policy_omit_and_propagate() -> None:
    x = np.array([1.0, 2.0, np.nan, 4.0, 5.0, 6.0])
    y = np.array([2.0, 1.0, 3.0, 5.0, 4.0, 6.0])
    z = np.array([1.0, 3.0, 2.0, 6.0, 4.0, 5.0])
    omit = partial_spearman(x, y, z, nan_policy="omit")
    ref = partial_spearman(np.delete(x, 2), np.delete(y, 2), np.delete(z, 2))
    assert omit.n == 5 and omit.statistic == pytest.approx(ref.statistic)
    assert np.isnan(partial_spearman(x, y, z, nan_policy="propagate").statistic)


# --------------------------------------------------------------------------------- the shared helper


@pytest.mark.parametrize(
    "value, error",
    [("0", TypeError), (1.5, TypeError), (True, TypeError), (-1, ValueError),
     (2**40, None)],
)  # fmt: skip
def test_check_random_state(value: Any, error: type[Exception] | None) -> None:
    if error is None:
        assert check_random_state(value) == value
        with pytest.raises(ValueError, match="below 2\\*\\*32"):
            check_random_state(value, legacy=True)
        return
    with pytest.raises(error, match="random_state"):
        check_random_state(value)


def test_check_random_state_legacy_converts_generators() -> None:
    seed = check_random_state(np.random.default_rng(3), legacy=True)
    assert isinstance(seed, int) and seed == check_random_state(np.random.default_rng(3),
                                                                legacy=True)
    rs = np.random.RandomState(0)
    assert check_random_state(rs) is rs and check_random_state(None) is None
