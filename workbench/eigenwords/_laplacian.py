"""Exact Laplacian forms of §4.1-4.2 (small examples) and graph-only embeddings (Table 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import scipy.sparse as sp

from workbench._typing import Matrix, SeedLike
from workbench._validation import check_array, check_choice, check_float, check_int

from ._counts import (
    DocStarts,
    Graph,
    TokenStream,
    _as_token_stream,
    _check_vocab_size,
    _doc_ids,
    _graph_size,
    _slots,
    _symmetric_adjacency,
)
from ._svd import Which, _truncated_svd

if TYPE_CHECKING:
    from workbench.lexicons import LexiconGraph

# ----------------------------------------------------------------------------- exact Laplacian forms


def one_hot_views(
    tokens: TokenStream, vocab_size: int, *, window: int = 2, doc_starts: DocStarts = None
) -> tuple[sp.csr_matrix, sp.csr_matrix, np.ndarray]:
    """Materialise the views ``W`` (n x V) and ``C`` (n x 2kV) of §3 (reference; small data only).

    Returns ``(W, C, positions)``: one row per in-vocabulary token, ``positions`` the token
    positions of the rows.
    """
    ids, starts = _as_token_stream(tokens, doc_starts)
    V = _check_vocab_size(vocab_size, ids)
    k = check_int(window, "window", low=1)
    n = ids.size
    doc = _doc_ids(n, starts)
    pos = np.flatnonzero(ids >= 0)
    W = sp.csr_matrix((np.ones(pos.size), (np.arange(pos.size), ids[pos])), shape=(pos.size, V))
    rows, cols = [], []
    for slot, s in enumerate(_slots(k)):
        c = pos + s
        ok = (c >= 0) & (c < n)
        ok[ok] &= (ids[c[ok]] >= 0) & (doc[c[ok]] == doc[pos[ok]])
        rows.append(np.flatnonzero(ok))
        cols.append(slot * V + ids[c[ok]])
    r = np.concatenate(rows)
    C = sp.csr_matrix((np.ones(r.size), (r, np.concatenate(cols))), shape=(pos.size, 2 * k * V))
    return W, C, pos


def token_laplacian(
    tokens: TokenStream,
    graph: Graph,
    *,
    kind: Literal["figure3", "similarity"] = "figure3",
    alpha: float = 1.0,
    n_neighbors: int = 12,
    doc_starts: DocStarts = None,
) -> sp.csr_matrix:
    """Token-level matrix ``L`` (rows = in-vocabulary tokens, as in :func:`one_hot_views`).

    ``kind="figure3"``: :math:`L_{ii}=1`, :math:`L_{ij}=\\alpha` for graph-adjacent tokens
    within ``N`` positions (the matrix Figure 3 implicitly uses; not a Laplacian).
    ``kind="similarity"``: the graph Laplacian of §4.2, :math:`L_{ij}=-1` for adjacent
    tokens within ``N``, :math:`L_{ii}` = degree; use it with ``which="smallest"``.
    Materialises an n x n sparse matrix: small examples only.
    """
    check_choice(kind, "kind", ("figure3", "similarity"))
    weight = check_float(alpha, "alpha", low=0, high=1, low_open=True) if kind == "figure3" else 0
    ids, starts = _as_token_stream(tokens, doc_starts)
    V = _graph_size(graph)
    _check_vocab_size(V, ids)
    A = _symmetric_adjacency(graph, V)
    N = check_int(n_neighbors, "n_neighbors", low=1)
    doc = _doc_ids(ids.size, starts)
    pos = np.flatnonzero(ids >= 0)
    n = pos.size
    # pairs of in-vocabulary tokens within N positions
    ri, rj = [], []
    for d in range(1, N + 1):
        a = np.arange(n)
        b = np.searchsorted(pos, pos + d)
        ok = (b < n) & (pos[np.minimum(b, n - 1)] == pos + d)
        a, b = a[ok], b[ok]
        ok = doc[pos[a]] == doc[pos[b]]
        a, b = a[ok], b[ok]
        adj = np.asarray(A[ids[pos[a]], ids[pos[b]]]).ravel() > 0
        ri.append(a[adj])
        rj.append(b[adj])
    i = np.concatenate(ri) if ri else np.zeros(0, dtype=np.int64)
    j = np.concatenate(rj) if rj else np.zeros(0, dtype=np.int64)
    R = sp.coo_matrix((np.ones(i.size), (i, j)), shape=(n, n)).tocsr()
    R = R + R.T
    if kind == "figure3":
        return (sp.identity(n, format="csr") + weight * R).tocsr()
    deg = np.asarray(R.sum(axis=1)).ravel()
    return (sp.diags(deg) - R).tocsr()


def lemma1_laplacian(n: int) -> np.ndarray:
    """The n x n Laplacian of Lemma 1: :math:`L = nI - \\mathbf{1}\\mathbf{1}^\\top`
    (:math:`n-1` on the diagonal, :math:`-1` off it)."""
    n = check_int(n, "n", low=1)
    return n * np.eye(n) - np.ones((n, n))


@dataclass(frozen=True)
class LaplacianCCAResult:
    """Output of :func:`laplacian_cca`: ``x_weights`` (d x m), ``y_weights`` (d' x m),
    ``singular_values`` (m,)."""

    x_weights: np.ndarray
    y_weights: np.ndarray
    singular_values: np.ndarray


def laplacian_cca(
    X: Matrix,
    Y: Matrix,
    L: Matrix | None,
    n_components: int,
    *,
    which: Which = "largest",
) -> LaplacianCCAResult:
    """Generalised CCA of §4.1: SVD of :math:`X^\\top L Y` (dense; small examples).

    Parameters
    ----------
    X, Y : array (n, d), (n, d')
        The (already scaled, e.g. :math:`W D_1^{-1/2}`) views.
    L : array (n, n) or None
        Laplacian between examples; ``None`` means the identity (plain CCA, :math:`X^\\top Y`).
    n_components : int
    which : {"largest", "smallest"}
        Largest singular values maximise Eq. 4 (dissimilarity weights); smallest ones
        minimise it (similarity weights, §4.2).

    Notes
    -----
    Lemma 1: if the columns of ``X`` and ``Y`` are centred and ``L = nI - 11^T``
    (:func:`lemma1_laplacian`) then :math:`X^\\top L Y = n X^\\top Y`, so the singular
    vectors equal those of plain CCA and the singular values are ``n`` times larger.

    References
    ----------
    Osborne, Narayan and Cohen (2016), TACL 4, Lemmas 1-3, Proposition 4, §4.2.
    """
    Xa = check_array(X, "X", ndim=2, accept_sparse=True)
    Ya = check_array(Y, "Y", ndim=2, accept_sparse=True)
    Xa = np.asarray(Xa.toarray() if sp.issparse(Xa) else Xa)
    Ya = np.asarray(Ya.toarray() if sp.issparse(Ya) else Ya)
    if Xa.shape[0] != Ya.shape[0]:
        raise ValueError(
            f"X and Y must be 2-d with the same number of rows, got {Xa.shape}, {Ya.shape}"
        )
    check_choice(which, "which", ("largest", "smallest"))
    m = check_int(n_components, "n_components", low=1)
    if L is None:
        B = Xa.T @ Ya
    else:
        La = check_array(L, "L", ndim=2, accept_sparse=True)
        La = La.toarray() if sp.issparse(La) else La
        if La.shape != (Xa.shape[0], Xa.shape[0]):
            raise ValueError(f"L must be ({Xa.shape[0]}, {Xa.shape[0]}), got {La.shape}")
        B = Xa.T @ La @ Ya
    U, s, Vt = _truncated_svd(B, m, which=which, solver="dense", random_state=None)
    return LaplacianCCAResult(x_weights=U, y_weights=Vt.T, singular_values=s)


# ----------------------------------------------------------------------------- graph-only


@dataclass(frozen=True)
class GraphEmbeddingResult:
    """Output of :func:`graph_embeddings`: ``words`` (nodes with at least one edge),
    ``embeddings`` (len(words) x m), ``singular_values``."""

    words: list[str]
    embeddings: np.ndarray
    singular_values: np.ndarray


def graph_embeddings(
    graph: LexiconGraph,
    n_components: int,
    *,
    singular_value_power: float = 0.5,
    solver: str = "svds",
    random_state: SeedLike = None,
) -> GraphEmbeddingResult:
    """Graph-only word embeddings: truncated SVD of the lexicon graph's adjacency (Table 2).

    Parameters
    ----------
    graph : LexiconGraph
        Symmetric adjacency over ``graph.words``.
    n_components : int
        ``m`` (capped at the number of connected words minus one).
    singular_value_power : float, default 0.5
        Embeddings are :math:`U \\Sigma^{p}` (``p = 0``: plain singular vectors).
    solver : {"svds", "lanczos", "randomized", "dense"}, default "svds"
        ARPACK or block Lanczos (:func:`workbench.eigenwords.lanczos_svd`), as in
        :func:`~workbench.eigenwords.eigenwords_svd`; graphs with at most two connected words
        use a dense SVD.
    random_state : int, optional
        Seed of the solver's start vector(s).

    Returns
    -------
    GraphEmbeddingResult
        Only words with at least one edge (isolated words would be zero vectors).

    Notes
    -----
    :math:`A \\approx U \\Sigma V^\\top` restricted to non-isolated nodes. Raises
    ``ValueError`` for a graph without edges.

    References
    ----------
    Osborne, Narayan and Cohen (2016), TACL 4, §5.4 "The role of prior knowledge", Table 2.
    """
    words = list(getattr(graph, "words", []))
    A0 = getattr(graph, "adjacency", None)
    if A0 is None or len(words) != A0.shape[0]:
        raise TypeError("graph must be a LexiconGraph (words + adjacency)")
    n_components = check_int(n_components, "n_components", low=1)
    power = check_float(singular_value_power, "singular_value_power")
    check_choice(solver, "solver", ("svds", "lanczos", "randomized", "dense"))
    A = _symmetric_adjacency(A0, len(words))
    keep = np.flatnonzero(np.diff(A.indptr) > 0)
    if keep.size == 0:
        raise ValueError("graph_embeddings: the graph has no edges")
    A = A[keep][:, keep].tocsr()
    m = min(n_components, max(keep.size - 1, 1))
    U, s, _ = _truncated_svd(
        A,
        m,
        which="largest",
        solver=solver if keep.size > 2 else "dense",
        random_state=random_state,
    )
    emb = U * (s**power)
    return GraphEmbeddingResult(words=[words[i] for i in keep], embeddings=emb, singular_values=s)
