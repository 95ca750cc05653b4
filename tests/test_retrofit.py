"""Tests for workbench.retrofit against hand-computed iterations."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.embeddings import WordVectors
from workbench.lexicons import LexiconGraph, lexicon_adjacency
from workbench.retrofit import retrofit, retrofit_matrix

WORDS = ["a", "b", "c", "d"]
X0 = np.array([[0.0, 2.0], [4.0, 0.0], [8.0, 8.0], [1.0, 1.0]])
CHAIN = {"a": {"b"}, "b": {"a", "c"}, "c": {"b"}}  # a - b - c; d has no entry


def _vectors():
    return WordVectors(WORDS, X0)


def test_two_jacobi_iterations_by_hand():
    # alpha = 1, beta = 1/deg:  q_i = (qhat_i + mean of neighbours) / 2
    # iteration 1: a = ([0,2]+[4,0])/2 = [2,1];  b = ([4,0] + ([0,2]+[8,8])/2)/2 = [4,2.5]
    #              c = ([8,8]+[4,0])/2 = [6,4]
    # iteration 2: a = ([0,2]+[4,2.5])/2 = [2,2.25];  b = ([4,0] + ([2,1]+[6,4])/2)/2 = [4,1.25]
    #              c = ([8,8]+[4,2.5])/2 = [6,5.25]
    out = retrofit(_vectors(), CHAIN, n_iter=2)
    expected = np.array([[2.0, 2.25], [4.0, 1.25], [6.0, 5.25], [1.0, 1.0]])
    np.testing.assert_allclose(out.vectors, expected)
    assert out.words == WORDS
    one = retrofit(_vectors(), CHAIN, n_iter=1)
    np.testing.assert_allclose(one.vectors[:3], [[2, 1], [4, 2.5], [6, 4]])


def test_two_gauss_seidel_iterations_by_hand():
    # in-place updates in order a, b, c (the reference code's in-place scheme)
    # it 1: a = [2,1];  b = ([4,0] + ([2,1]+[8,8])/2)/2 = [4.5,2.25];  c = ([8,8]+[4.5,2.25])/2
    # it 2: a = ([0,2]+[4.5,2.25])/2 = [2.25,2.125]
    #       b = ([4,0] + ([2.25,2.125]+[6.25,5.125])/2)/2 = [4.125,1.8125]
    #       c = ([8,8]+[4.125,1.8125])/2 = [6.0625,4.90625]
    out = retrofit(_vectors(), CHAIN, n_iter=2, method="gauss-seidel")
    expected = np.array([[2.25, 2.125], [4.125, 1.8125], [6.0625, 4.90625], [1.0, 1.0]])
    np.testing.assert_allclose(out.vectors, expected)


def test_both_methods_converge_to_the_minimiser():
    rng = np.random.default_rng(0)
    n = 30
    X = rng.standard_normal((n, 4))
    A = sp.random(n, n, density=0.15, random_state=1, format="csr")
    A = ((A + A.T) > 0).astype(float)
    A.setdiag(0)
    A.eliminate_zeros()
    deg = np.asarray(A.sum(axis=1)).ravel()
    # fixed point: (alpha + 1) q_i = qhat_i + (1/deg_i) sum_j q_j for deg_i > 0
    Binv = np.divide(1, deg, out=np.zeros_like(deg), where=deg > 0)
    M = np.diag(np.where(deg > 0, 2.0, 1.0)) - np.diag(Binv) @ A.toarray()
    Q_star = np.linalg.solve(M, X)
    for method in ("jacobi", "gauss-seidel"):
        Q = retrofit_matrix(X, A, n_iter=300, method=method)
        np.testing.assert_allclose(Q, Q_star, atol=1e-8)


def test_alpha_beta_and_lexicon_graph_input():
    g = LexiconGraph(
        "chain", ("a", "b", "c"), sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]))
    )
    out_g = retrofit(_vectors(), g, n_iter=2)
    out_d = retrofit(_vectors(), CHAIN, n_iter=2)
    np.testing.assert_allclose(out_g.vectors, out_d.vectors)
    # constant beta = 1, alpha = 2: one iteration a = (2*[0,2] + [4,0]) / 3
    out = retrofit(_vectors(), CHAIN, n_iter=1, alpha=2.0, beta=1.0)
    np.testing.assert_allclose(out.vectors[0], [4 / 3, 4 / 3])
    np.testing.assert_allclose(out.vectors[1], (2 * X0[1] + X0[0] + X0[2]) / 4)
    # zero iterations: unchanged
    np.testing.assert_allclose(retrofit(_vectors(), CHAIN, n_iter=0).vectors, X0)


def test_case_preserving_and_missing_words():
    vecs = WordVectors(["apple", "Apple", "APPLE", "fruit"], np.eye(4))
    lex = {"Apple": {"fruit", "pear"}, "banana": {"fruit"}}  # pear/banana have no vectors
    out = retrofit(vecs, lex, n_iter=1)
    np.testing.assert_allclose(out["Apple"], (vecs["Apple"] + vecs["fruit"]) / 2)
    for w in ("apple", "APPLE", "fruit"):  # not lower-cased: no entry -> unchanged
        np.testing.assert_allclose(out[w], vecs[w])
    A = lexicon_adjacency(vecs.words, lex)
    assert A.nnz == 1


def test_bad_input():
    with pytest.raises(ValueError, match="n_iter"):
        retrofit(_vectors(), CHAIN, n_iter=-1)
    with pytest.raises(ValueError, match="alpha"):
        retrofit(_vectors(), CHAIN, alpha=0)
    with pytest.raises(ValueError, match="beta"):
        retrofit(_vectors(), CHAIN, beta=-1.0)
    with pytest.raises(ValueError, match="method"):
        retrofit(_vectors(), CHAIN, method="newton")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="lexicon"):
        retrofit(_vectors(), [("a", "b")])
    with pytest.raises(TypeError, match="iterable"):
        retrofit(_vectors(), {"a": 3})
    with pytest.raises(TypeError, match="WordVectors"):
        retrofit(X0, CHAIN)
    with pytest.raises(ValueError, match="NaN"):
        retrofit_matrix(np.array([[np.nan]]), sp.csr_matrix((1, 1)))
    with pytest.warns(UserWarning, match="no word"):
        out = retrofit(_vectors(), {"zzz": {"yyy"}})
    np.testing.assert_allclose(out.vectors, X0)
