"""Tests for workbench.eigenwords: counts vs dense/brute-force references, Lemma 1, §4.2."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

from workbench.eigenwords import (
    CCAPrior,
    CooccurrenceCounts,
    Eigenwords,
    chunk_documents,
    count_contexts,
    count_prior_pairs,
    eigenwords_svd,
    graph_embeddings,
    laplacian_cca,
    lemma1_laplacian,
    one_hot_views,
    token_laplacian,
)
from workbench.lexicons import LexiconGraph

SLOTS = [-2, -1, 1, 2]


def _tiny_stream(seed: int = 0, n: int = 120, V: int = 9, oov: float = 0.05):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, V, size=n)
    ids[rng.random(n) < oov] = -1
    doc_starts = np.array([0, 37, 37, 80])  # includes an empty document
    return ids, doc_starts, V


def _doc_of(n, doc_starts):
    doc = np.zeros(n, dtype=int)
    for s in doc_starts[1:]:
        doc[s:] += 1
    return doc


def _context_cells(ids, doc, j, V, slots=SLOTS):
    """Python reference: the (slot, word) context columns of token j."""
    out = []
    for slot, s in enumerate(slots):
        c = j + s
        if 0 <= c < len(ids) and ids[c] >= 0 and doc[c] == doc[j]:
            out.append(slot * V + ids[c])
    return out


def _random_graph(V, p, seed):
    rng = np.random.default_rng(seed)
    A = np.triu(rng.random((V, V)) < p, 1)
    return sp.csr_matrix((A | A.T).astype(float))


def test_count_contexts_matches_python_loop():
    ids, starts, V = _tiny_stream()
    doc = _doc_of(len(ids), starts)
    ref = np.zeros((V, 4 * V))
    wc = np.zeros(V)
    for t in range(len(ids)):
        if ids[t] < 0:
            continue
        wc[ids[t]] += 1
        for col in _context_cells(ids, doc, t, V):
            ref[ids[t], col] += 1
    cc = count_contexts(ids, V, window=2, doc_starts=starts)
    assert isinstance(cc, CooccurrenceCounts)
    np.testing.assert_array_equal(cc.counts.toarray(), ref)
    np.testing.assert_array_equal(cc.word_counts, wc)
    np.testing.assert_array_equal(cc.context_counts, ref.sum(axis=0))
    # W^T C from the materialised views agrees too
    W, C, _ = one_hot_views(ids, V, window=2, doc_starts=starts)
    np.testing.assert_array_equal((W.T @ C).toarray(), ref)
    np.testing.assert_array_equal(np.asarray(C.sum(axis=0)).ravel(), ref.sum(axis=0))


def test_eigenwords_match_dense_reference():
    ids, starts, V = _tiny_stream(seed=1, n=400, V=12)
    W, C, _ = one_hot_views(ids, V, window=2, doc_starts=starts)
    M = (W.T @ C).toarray()
    d1 = np.diag((W.T @ W).toarray())
    d2 = np.diag((C.T @ C).toarray())
    with np.errstate(divide="ignore"):
        s1 = np.where(d1 > 0, d1**-0.25, 0.0)
        s2 = np.where(d2 > 0, d2**-0.25, 0.0)
    A = s1[:, None] * np.sqrt(M) * s2[None, :]
    U, s, _ = np.linalg.svd(A)
    m = 4
    cc = count_contexts(ids, V, doc_starts=starts)
    for solver in ("dense", "svds", "randomized"):
        res = eigenwords_svd(cc, m, solver=solver, random_state=0)
        np.testing.assert_allclose(res.singular_values, s[:m], rtol=1e-6)
        for c in range(m):  # same vectors up to sign; sign fixed by largest |entry|
            ref = U[:, c] * np.sign(U[np.argmax(np.abs(U[:, c])), c])
            np.testing.assert_allclose(res.left_singular_vectors[:, c], ref, atol=1e-6)
        np.testing.assert_allclose(res.word_embeddings, s1[:, None] * res.left_singular_vectors)
        assert res.context_embeddings.shape == (4 * V, m)
    # the estimator gives the same embeddings
    est = Eigenwords(m, solver="dense").fit(ids if starts is None else _Enc(ids, starts))
    np.testing.assert_allclose(est.word_embeddings_, res.word_embeddings, atol=1e-6)


class _Enc:
    def __init__(self, ids, doc_starts):
        self.ids = ids
        self.doc_starts = doc_starts


def _bruteforce_figure3(ids, doc, A, alpha, N, V):
    """Figure 3 of the paper, literally: all pairs i, j with |i - j| <= N (O(n^2))."""
    M = np.zeros((V, 4 * V))
    n = len(ids)
    for i in range(n):
        for j in range(n):
            if abs(i - j) > N or ids[i] < 0 or ids[j] < 0 or doc[i] != doc[j]:
                continue
            if i == j:
                w = 1.0
            elif A[ids[i], ids[j]] > 0:
                w = alpha
            else:
                continue
            for col in _context_cells(ids, doc, j, V):
                M[ids[i], col] += w
    return M


@pytest.mark.parametrize("N", [1, 3, 12])
def test_prior_counts_match_bruteforce(N):
    ids, starts, V = _tiny_stream(seed=2, n=150, V=10)
    A = _random_graph(V, 0.3, seed=3)
    doc = _doc_of(len(ids), starts)
    alpha = 0.3
    ref = _bruteforce_figure3(ids, doc, A.toarray(), alpha, N, V)
    cc = count_contexts(ids, V, doc_starts=starts)
    P = count_prior_pairs(ids, A, n_neighbors=N, doc_starts=starts, block_size=17)
    np.testing.assert_allclose((cc.counts + alpha * P).toarray(), ref)
    # also equals W^T L C with the token-level matrix of Figure 3
    W, C, _ = one_hot_views(ids, V, doc_starts=starts)
    L = token_laplacian(ids, A, kind="figure3", alpha=alpha, n_neighbors=N, doc_starts=starts)
    np.testing.assert_allclose((W.T @ L @ C).toarray(), ref)


def test_prior_accepts_directed_graph_and_lexicon_graph():
    ids, starts, V = _tiny_stream(seed=4, n=100, V=6)
    A = _random_graph(V, 0.4, seed=5)
    P_sym = count_prior_pairs(ids, A, n_neighbors=4, doc_starts=starts)
    P_dir = count_prior_pairs(ids, sp.triu(A).tocsr(), n_neighbors=4, doc_starts=starts)
    np.testing.assert_array_equal(P_sym.toarray(), P_dir.toarray())
    g = LexiconGraph("toy", tuple(f"w{i}" for i in range(V)), A)
    P_g = count_prior_pairs(ids, g, n_neighbors=4, doc_starts=starts)
    np.testing.assert_array_equal(P_sym.toarray(), P_g.toarray())


def test_ccaprior_estimator_and_alpha_effect():
    ids, starts, V = _tiny_stream(seed=6, n=500, V=15)
    words = [f"w{i}" for i in range(V)]
    A = _random_graph(V, 0.2, seed=7)
    g = LexiconGraph("toy", tuple(words), A)
    enc = _Enc(ids, starts)
    m = 3
    est = CCAPrior(m, alpha=0.5, n_neighbors=5, solver="dense").fit(enc, graph=g, vocabulary=words)
    cc = count_contexts(ids, V, doc_starts=starts)
    P = count_prior_pairs(ids, A, n_neighbors=5, doc_starts=starts)
    res = eigenwords_svd(cc, m, prior=P, alpha=0.5, solver="dense")
    np.testing.assert_allclose(est.word_embeddings_, res.word_embeddings, atol=1e-8)
    plain = eigenwords_svd(cc, m, solver="dense")
    assert not np.allclose(plain.singular_values, res.singular_values)
    # graph given with its words in another order is re-indexed to the vocabulary
    perm = np.random.default_rng(0).permutation(V)
    g2 = LexiconGraph("toy", tuple(words[i] for i in perm), A[perm][:, perm])
    est2 = CCAPrior(m, alpha=0.5, n_neighbors=5, solver="dense").fit(
        enc, graph=g2, vocabulary=words
    )
    np.testing.assert_allclose(est2.word_embeddings_, est.word_embeddings_, atol=1e-8)


def test_lemma1_laplacian_matches_plain_cca_up_to_constant():
    rng = np.random.default_rng(0)
    n = 40
    X = rng.standard_normal((n, 5))
    Y = X[:, :3] @ rng.standard_normal((3, 7)) + 0.3 * rng.standard_normal((n, 7))
    X -= X.mean(axis=0)
    Y -= Y.mean(axis=0)
    L = lemma1_laplacian(n)
    assert np.allclose(L.sum(axis=0), 0) and np.allclose(np.diag(L), n - 1)
    np.testing.assert_allclose(X.T @ L @ Y, n * (X.T @ Y), atol=1e-9)
    plain = laplacian_cca(X, Y, None, 3)
    lap = laplacian_cca(X, Y, L, 3)
    np.testing.assert_allclose(lap.singular_values, n * plain.singular_values, rtol=1e-10)
    np.testing.assert_allclose(lap.x_weights, plain.x_weights, atol=1e-8)
    np.testing.assert_allclose(lap.y_weights, plain.y_weights, atol=1e-8)
    # without centring the identity fails (the lemma needs centred data)
    Xu = X + 3.0
    Yu = Y + 1.0
    assert not np.allclose(Xu.T @ L @ Yu, n * (Xu.T @ Yu))


def test_smallest_vs_largest_singular_vectors():
    ids, starts, V = _tiny_stream(seed=8, n=300, V=8)
    cc = count_contexts(ids, V, doc_starts=starts)
    big = eigenwords_svd(cc, 3, which="largest", solver="dense")
    small = eigenwords_svd(cc, 3, which="smallest", solver="dense")
    assert np.all(np.diff(big.singular_values) <= 1e-12)
    assert np.all(np.diff(small.singular_values) >= -1e-12)
    assert small.singular_values.max() < big.singular_values.min()
    small_svds = eigenwords_svd(cc, 2, which="smallest", solver="svds", random_state=0)
    np.testing.assert_allclose(small_svds.singular_values, small.singular_values[:2], rtol=1e-5)
    # §4.2 with the similarity Laplacian on the exact token level: smallest of X^T L Y
    A = _random_graph(V, 0.3, seed=9)
    W, C, _ = one_hot_views(ids, V, doc_starts=starts)
    L = token_laplacian(ids, A, kind="similarity", n_neighbors=3, doc_starts=starts)
    assert np.allclose(np.asarray(L.sum(axis=1)).ravel(), 0)
    res = laplacian_cca(W, C, L, 2, which="smallest")
    B = (W.T @ L @ C).toarray()
    np.testing.assert_allclose(res.singular_values, np.linalg.svd(B, compute_uv=False)[::-1][:2])


def test_graph_embeddings():
    words = tuple("abcdefgh")
    A = np.zeros((8, 8))
    for i, j in [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)]:  # two triangles; g, h isolated
        A[i, j] = A[j, i] = 1
    res = graph_embeddings(LexiconGraph("toy", words, sp.csr_matrix(A)), 2, random_state=0)
    assert res.words == list("abcdef")
    E = res.embeddings / np.linalg.norm(res.embeddings, axis=1, keepdims=True)
    cos = E @ E.T
    assert cos[0, 1] > 0.99 and abs(cos[0, 3]) < 1e-6
    with pytest.raises(ValueError, match="no edges"):
        graph_embeddings(LexiconGraph("empty", words, sp.csr_matrix((8, 8))), 2)


def test_chunk_documents():
    starts = chunk_documents([0, 5, 30], 40, 13)
    np.testing.assert_array_equal(starts, [0, 5, 18, 30])


@pytest.mark.parametrize(
    "alpha, error",
    [(0, ValueError), (-0.1, ValueError), (1.5, ValueError), (float("nan"), ValueError),
     ("x", TypeError)],
)  # fmt: skip
def test_invalid_alpha(alpha, error):
    ids, starts, V = _tiny_stream()
    A = _random_graph(V, 0.3, seed=0)
    with pytest.raises(error, match="alpha"):
        CCAPrior(2, alpha=alpha).fit(ids, graph=A)
    cc = count_contexts(ids, V)
    with pytest.raises(error, match="alpha"):
        eigenwords_svd(cc, 2, prior=cc.counts * 0, alpha=alpha)


def test_bad_inputs():
    ids, starts, V = _tiny_stream()
    A = _random_graph(V, 0.3, seed=0)
    with pytest.raises(ValueError, match="empty graph|no edges"):
        CCAPrior(2).fit(ids, graph=sp.csr_matrix((V, V)))
    with pytest.warns(UserWarning, match="no edges"):
        P = count_prior_pairs(ids, sp.csr_matrix((V, V)))
    assert P.nnz == 0
    with pytest.raises(ValueError, match="vocab_size"):
        count_prior_pairs(ids, A[:-1, :-1])  # graph smaller than the vocabulary
    with pytest.raises(ValueError, match="shape"):
        CCAPrior(2).fit(ids, graph=A[:-1, :-1], vocabulary=[f"w{i}" for i in range(V)])
    with pytest.raises(TypeError, match="graph"):
        count_prior_pairs(ids, {"a": {"b"}})
    with pytest.raises(ValueError, match="vocab_size"):
        count_contexts(ids, 3)
    with pytest.raises(ValueError, match="word ids"):
        count_contexts(np.array([0, -5, 1]), 3)
    with pytest.raises(ValueError, match="integer"):
        count_contexts(np.array([0.5, 1.0]), 3)
    with pytest.raises(ValueError, match="window"):
        count_contexts(ids, V, window=0)
    with pytest.raises(ValueError, match="doc_starts"):
        count_contexts(ids, V, doc_starts=[3, 1])
    with pytest.raises(ValueError, match="n_components"):
        eigenwords_svd(count_contexts(ids, V), 10_000)
    with pytest.raises(ValueError, match="alpha given without prior"):
        eigenwords_svd(count_contexts(ids, V), 2, alpha=0.5)
    with pytest.raises(ValueError, match="which"):
        eigenwords_svd(count_contexts(ids, V), 2, which="middle")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        eigenwords_svd(count_contexts(np.array([-1, -1, 0]), 2), 1)
    with pytest.raises(NotFittedError, match="not fitted"):
        Eigenwords(2).transform(np.zeros((1, 4), dtype=int))


def test_transform_projects_contexts():
    ids, starts, V = _tiny_stream(seed=3, n=300)
    est = Eigenwords(3, solver="dense").fit(ids)
    X = np.array([[0, 1, 2, 3], [-1, -1, 4, -1]])
    Z = est.transform(X)
    ref0 = sum(est.context_embeddings_[slot * V + X[0, slot]] for slot in range(4))
    np.testing.assert_allclose(Z[0], ref0)
    np.testing.assert_allclose(Z[1], est.context_embeddings_[2 * V + 4])
    with pytest.raises(ValueError, match="shape"):
        est.transform(np.zeros((2, 3), dtype=int))


def test_explore_neighbour_table():
    from workbench.embeddings import WordVectors
    from workbench.explore.eigenwords import neighbour_table, prior_knowledge_explorer

    words = ["king", "queen", "monarch", "apple"]
    A = np.zeros((4, 4))
    A[0, 1] = A[1, 0] = A[0, 2] = A[2, 0] = 1
    g = LexiconGraph("wn", tuple(words), sp.csr_matrix(A))
    vecs = WordVectors(words, np.array([[1.0, 0.1], [0.9, 0.2], [0.2, 1.0], [-1.0, 0.0]]))
    table = neighbour_table("king", "wn", {"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    assert list(table.columns) == ["graph neighbours", "Eigen"]
    assert table["graph neighbours"].tolist() == ["monarch", "queen"]
    assert table["Eigen"].iloc[0].startswith("queen")
    missing = neighbour_table("zzz", "wn", {"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    assert missing.empty  # no rows padded with empty cells
    apple = neighbour_table("apple", "wn", {"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    assert apple["graph neighbours"].tolist() == ["", ""] and len(apple) == 2
    with pytest.raises(KeyError, match="unknown lexicon"):
        neighbour_table("king", "ppdb", {"wn": g}, {})
    box = prior_knowledge_explorer({"wn": g}, {"*": {"Eigen": vecs}})
    assert len(box.children) == 2


def test_similarity_laplacian_counts_and_smallest_variant():
    import dataclasses

    from workbench.eigenwords import similarity_laplacian_counts

    ids, starts, V = _tiny_stream(seed=10, n=200, V=9)
    A = _random_graph(V, 0.3, seed=11)
    W, C, _ = one_hot_views(ids, V, doc_starts=starts)
    L = token_laplacian(ids, A, kind="similarity", n_neighbors=4, doc_starts=starts)
    ref = (W.T @ L @ C).toarray()
    M = similarity_laplacian_counts(ids, A, n_neighbors=4, doc_starts=starts, block_size=13)
    np.testing.assert_allclose(M.toarray(), ref, atol=1e-12)
    assert M.toarray().min() < 0
    cc = count_contexts(ids, V, doc_starts=starts)
    sim = dataclasses.replace(cc, counts=M)
    with pytest.raises(ValueError, match="non-negative"):
        eigenwords_svd(sim, 2, which="smallest", solver="dense")
    res = eigenwords_svd(sim, 3, transform="none", which="smallest", solver="dense")
    d1 = np.where(cc.word_counts > 0, cc.word_counts, 1.0) ** -0.5
    d2 = np.where(cc.context_counts > 0, cc.context_counts, np.inf) ** -0.5
    exact = laplacian_cca(W @ sp.diags(d1), C @ sp.diags(d2), L, 3, which="smallest")
    np.testing.assert_allclose(res.singular_values, exact.singular_values, atol=1e-10)
