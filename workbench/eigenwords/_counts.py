"""Counting: word/context co-occurrences (M = W^T C) and the prior-knowledge pair counts of
Figure 3, straight from token id streams (see :mod:`workbench.eigenwords`)."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from workbench._typing import Matrix
from workbench._validation import check_array, check_bool, check_int

if TYPE_CHECKING:
    from workbench.lexicons import LexiconGraph
    from workbench.views import EncodedCorpus

logger = logging.getLogger("workbench.eigenwords")

#: Word ids (``-1``: out of vocabulary): a 1-d array, a list of per-document arrays, or an
#: ``EncodedCorpus`` (which also gives the document offsets).
TokenStream: TypeAlias = "np.ndarray | Sequence[np.ndarray] | EncodedCorpus"

#: Document offsets into a token stream (``None``: one document).
DocStarts: TypeAlias = "np.ndarray | Sequence[int] | None"

#: A similarity graph over the vocabulary: a lexicon graph or its V x V adjacency matrix.
Graph: TypeAlias = "LexiconGraph | Matrix"

# ----------------------------------------------------------------------------- validation


def _as_token_stream(
    tokens: TokenStream, doc_starts: DocStarts = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(ids int64, doc_starts int64)`` from an array, a list of arrays or an
    ``EncodedCorpus``-like object (attributes ``ids`` and ``doc_starts``)."""
    if hasattr(tokens, "ids") and not isinstance(tokens, np.ndarray):
        if doc_starts is None:
            doc_starts = getattr(tokens, "doc_starts", None)
        tokens = tokens.ids
    if isinstance(tokens, (list, tuple)) and tokens and not np.isscalar(tokens[0]):
        docs = [np.asarray(d).reshape(-1) for d in tokens]
        lengths = np.array([len(d) for d in docs], dtype=np.int64)
        if doc_starts is not None:
            raise ValueError("doc_starts must be None when tokens is a list of documents")
        doc_starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if docs else np.zeros(1)
        tokens = np.concatenate(docs) if docs else np.zeros(0, dtype=np.int64)
    ids = np.asarray(tokens)
    if ids.ndim != 1:
        raise ValueError(f"tokens must be a 1-d array of word ids, got shape {ids.shape}")
    if ids.size and not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"tokens must hold integer word ids, got dtype {ids.dtype}")
    ids = ids.astype(np.int64, copy=False)
    if ids.size and ids.min() < -1:
        raise ValueError("tokens: word ids must be >= 0 (or -1 for out-of-vocabulary tokens)")
    n = ids.size
    if doc_starts is None:
        starts = np.zeros(1, dtype=np.int64)
    else:
        starts = np.asarray(doc_starts, dtype=np.int64).reshape(-1)
        if starts.size == 0:
            starts = np.zeros(1, dtype=np.int64)
        if starts[0] != 0 or np.any(np.diff(starts) < 0) or starts[-1] > max(n, 0):
            raise ValueError(
                "doc_starts must start at 0, be non-decreasing and not exceed the number of tokens"
            )
    return ids, starts


def _doc_ids(n: int, doc_starts: np.ndarray) -> np.ndarray:
    """Document index of every position."""
    marks = np.zeros(n + 1, dtype=np.int64)
    np.add.at(marks, doc_starts[1:], 1)
    return np.cumsum(marks[:n])


def _check_vocab_size(vocab_size: int, ids: np.ndarray) -> int:
    """``vocab_size`` as an ``int >= 1`` above every word id of ``ids``."""
    vocab_size = check_int(vocab_size, "vocab_size", low=1)
    if ids.size and ids.max() >= vocab_size:
        raise ValueError(f"tokens contain word id {int(ids.max())} >= vocab_size={vocab_size}")
    return int(vocab_size)


_GRAPH_TYPES = "graph must be a LexiconGraph or a V x V scipy.sparse / numpy adjacency matrix"


def _graph_matrix(graph: Graph) -> Matrix:
    """The adjacency matrix of ``graph`` (a lexicon graph's ``adjacency``, or ``graph`` itself).

    Raises ``TypeError`` when that is not a sparse matrix or an ndarray.
    """
    matrix = graph
    if not (sp.issparse(graph) or isinstance(graph, np.ndarray)) and hasattr(graph, "adjacency"):
        matrix = graph.adjacency
    if not (sp.issparse(matrix) or isinstance(matrix, np.ndarray)):
        raise TypeError(f"{_GRAPH_TYPES}, got {type(matrix).__name__}")
    return matrix


def _graph_size(graph: Graph) -> int:
    matrix = _graph_matrix(graph)
    if matrix.ndim != 2:
        raise TypeError(f"{_GRAPH_TYPES}, got {type(matrix).__name__}")
    return int(matrix.shape[0])


def _symmetric_adjacency(graph: Graph, vocab_size: int) -> sp.csr_matrix:
    """Validate a V x V graph: binarised, symmetrised, zero diagonal."""
    adjacency = _graph_matrix(graph)
    A = sp.csr_matrix(check_array(adjacency, "graph adjacency", ndim=2, accept_sparse=True))
    if A.shape != (vocab_size, vocab_size):
        raise ValueError(
            f"graph adjacency has shape {A.shape}, expected ({vocab_size}, {vocab_size}) "
            "(one row per vocabulary word; use LexiconGraph.reindex(words) to align it)"
        )
    A = ((abs(A) + abs(A.T)) > 0).astype(np.float64).tocsr()
    A.setdiag(0)
    A.eliminate_zeros()
    A.sort_indices()
    return A


# ----------------------------------------------------------------------------- counting


@dataclass(frozen=True)
class CooccurrenceCounts:
    """Word/context counts of a token stream (the statistics of §3).

    Attributes
    ----------
    counts : scipy.sparse.csr_matrix, shape (V, 2kV)
        :math:`M = W^\\top C`: ``counts[w, slot * V + c]`` is the number of times word ``w``
        was a pivot with context word ``c`` at context slot ``slot``.
    word_counts : ndarray, shape (V,)
        :math:`\\mathrm{diag}(W^\\top W)`: number of times each word is a pivot.
    context_counts : ndarray, shape (2kV,)
        :math:`\\mathrm{diag}(C^\\top C)`: number of times each (slot, word) context fires.
    window : int
        ``k``, context words each side.
    vocab_size : int
        ``V``.
    n_tokens : int
        Length of the token stream (including out-of-vocabulary tokens).
    """

    counts: sp.csr_matrix
    word_counts: np.ndarray
    context_counts: np.ndarray
    window: int
    vocab_size: int
    n_tokens: int

    @property
    def n_contexts(self) -> int:
        """Number of context columns, ``2kV``."""
        return 2 * self.window * self.vocab_size


def _slots(window: int) -> list[int]:
    return [s for s in range(-window, window + 1) if s != 0]


def chunk_documents(doc_starts: DocStarts, n_tokens: int, chunk_length: int) -> np.ndarray:
    """Split documents into chunks of at most ``chunk_length`` tokens.

    §5.1 of Osborne et al. (2016) breaks the corpus into chunks of 13 tokens that act as
    documents (so the local Laplacian with ``N = 12`` covers exactly one chunk). Feed the
    returned offsets as ``doc_starts`` to :func:`count_contexts` and
    :func:`count_prior_pairs` to reproduce that set-up.
    """
    chunk_length = check_int(chunk_length, "chunk_length", low=1)
    n_tokens = check_int(n_tokens, "n_tokens", low=0)
    _, starts = _as_token_stream(np.zeros(n_tokens, dtype=np.int64), doc_starts)
    ends = np.append(starts[1:], n_tokens)
    pieces = [np.arange(s, e, chunk_length) for s, e in zip(starts, ends) if e > s]
    out = np.unique(np.concatenate(pieces)) if pieces else np.zeros(1, dtype=np.int64)
    return out.astype(np.int64)


def _slot_pairs(
    ids: np.ndarray, doc: np.ndarray, window: int
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Yield ``(slot, i, j = i + s)`` for every context slot ``s`` of the window: the positions of
    in-vocabulary pivots ``i`` with an in-vocabulary context word ``j`` in the same document."""
    n = ids.size
    for slot, s in enumerate(_slots(window)):
        if n <= abs(s):
            continue
        i = np.arange(max(0, -s), n - max(0, s), dtype=np.int64)
        j = i + s
        ok = (ids[i] >= 0) & (ids[j] >= 0) & (doc[i] == doc[j])
        yield slot, i[ok], j[ok]


def _unique_cells(
    rows: np.ndarray, cols: np.ndarray, n_cols: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count repeated (row, col) cells by sorting int64 codes (faster than COO summing)."""
    codes, counts = np.unique(rows * n_cols + cols, return_counts=True)
    return codes // n_cols, codes % n_cols, counts.astype(np.float64)


def _csr_from_cells(
    rows: list[np.ndarray], cols: list[np.ndarray], vals: list[np.ndarray], shape: tuple[int, int]
) -> sp.csr_matrix:
    if rows:
        r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    else:
        r = c = np.zeros(0, dtype=np.int64)
        v = np.zeros(0)
    M = sp.csr_matrix((v, (r, c)), shape=shape)
    M.sum_duplicates()
    return M


def count_contexts(
    tokens: TokenStream,
    vocab_size: int,
    *,
    window: int = 2,
    doc_starts: DocStarts = None,
) -> CooccurrenceCounts:
    """Count pivot-word / context-word co-occurrences (the matrix :math:`M = W^\\top C`).

    Parameters
    ----------
    tokens : array of int, list of arrays, or EncodedCorpus
        Word ids (``-1`` = out of vocabulary); an ``EncodedCorpus`` supplies ``doc_starts``.
    vocab_size : int
        ``V``; every id must be below it.
    window : int, default 2
        ``k`` context words each side (the paper uses ``k = 2``).
    doc_starts : array of int, optional
        Document offsets; windows do not cross documents.

    Returns
    -------
    CooccurrenceCounts

    Notes
    -----
    Every in-vocabulary token :math:`t` is one example of §3 with pivot :math:`w_t` and
    context :math:`(w_{t-k},\\dots,w_{t-1},w_{t+1},\\dots,w_{t+k})`; missing context positions
    (document edges, OOV tokens) are all-zero one-hot blocks. Then

    .. math:: M_{r,(s,c)} = \\#\\{t : w_t = r,\\ w_{t+s} = c\\}, \\quad
              (D_1)_{rr} = \\#\\{t: w_t = r\\}, \\quad (D_2)_{(s,c)} = \\sum_r M_{r,(s,c)} .

    References
    ----------
    Dhillon, Foster and Ungar (2015), "Eigenwords: spectral word embeddings", JMLR 16.
    Osborne, Narayan and Cohen (2016), "Encoding prior knowledge with eigenword
    embeddings", TACL 4, §3.
    """
    ids, starts = _as_token_stream(tokens, doc_starts)
    V = _check_vocab_size(vocab_size, ids)
    k = check_int(window, "window", low=1)
    n = ids.size
    doc = _doc_ids(n, starts)
    rows_all, cols_all, vals_all = [], [], []
    for slot, i, j in _slot_pairs(ids, doc, k):
        r, c, v = _unique_cells(ids[i], ids[j], V)
        rows_all.append(r)
        cols_all.append(slot * V + c)
        vals_all.append(v)
    M = _csr_from_cells(rows_all, cols_all, vals_all, (V, 2 * k * V))
    word_counts = np.bincount(ids[ids >= 0], minlength=V).astype(np.float64)
    context_counts = np.asarray(M.sum(axis=0)).ravel()
    return CooccurrenceCounts(
        counts=M,
        word_counts=word_counts,
        context_counts=context_counts,
        window=k,
        vocab_size=V,
        n_tokens=int(n),
    )


def _adjacent_pairs(
    ids: np.ndarray, doc: np.ndarray, A: sp.csr_matrix, d: int, block: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(i, j = i + d)`` position arrays of same-document token pairs whose words are
    adjacent in ``A`` (sorted edge codes + :func:`numpy.searchsorted`), ``block`` positions at
    a time."""
    n = ids.size
    V = A.shape[0]
    coo = A.tocoo()
    edge_codes = np.sort(coo.row.astype(np.int64) * V + coo.col.astype(np.int64))
    in_graph = np.zeros(V + 1, dtype=bool)  # index -1 (OOV) maps to the last entry: False
    in_graph[:V] = np.diff(A.indptr) > 0
    tok_in_graph = in_graph[ids]
    for b0 in range(0, max(n - d, 0), block):
        i = np.arange(b0, min(b0 + block, n - d), dtype=np.int64)
        i = i[tok_in_graph[i] & tok_in_graph[i + d]]
        i = i[doc[i] == doc[i + d]]
        if i.size == 0:
            continue
        j = i + d
        q = ids[i] * V + ids[j]
        pos = np.searchsorted(edge_codes, q)
        pos[pos == edge_codes.size] = 0
        hit = edge_codes[pos] == q
        if hit.any():
            yield i[hit], j[hit]


@dataclass(frozen=True)
class _PairInputs:
    """The checked inputs of :func:`count_prior_pairs` and :func:`similarity_laplacian_counts`."""

    ids: np.ndarray
    starts: np.ndarray
    adjacency: sp.csr_matrix
    window: int
    n_neighbors: int
    block_size: int

    @classmethod
    def check(
        cls,
        tokens: TokenStream,
        graph: Graph,
        window: int,
        n_neighbors: int,
        doc_starts: DocStarts,
        block_size: int,
    ) -> _PairInputs:
        ids, starts = _as_token_stream(tokens, doc_starts)
        V = _graph_size(graph)
        _check_vocab_size(V, ids)
        return cls(
            ids=ids,
            starts=starts,
            adjacency=_symmetric_adjacency(graph, V),
            window=check_int(window, "window", low=1),
            n_neighbors=check_int(n_neighbors, "n_neighbors", low=1),
            block_size=check_int(block_size, "block_size", low=1),
        )


def count_prior_pairs(
    tokens: TokenStream,
    graph: Graph,
    *,
    window: int = 2,
    n_neighbors: int = 12,
    doc_starts: DocStarts = None,
    block_size: int = 2_000_000,
    show_progress: bool | None = False,
) -> sp.csr_matrix:
    """Unweighted prior-knowledge counts of Figure 3 (the part multiplied by ``alpha``).

    Parameters
    ----------
    tokens : array of int, list of arrays, or EncodedCorpus
        Word ids (``-1`` = out of vocabulary).
    graph : LexiconGraph or (V, V) sparse matrix
        Similarity graph over the vocabulary (symmetrised and binarised here; the
        diagonal is ignored). Vocabulary words without edges simply add nothing.
    window : int, default 2
        ``k`` context words each side.
    n_neighbors : int, default 12
        ``N``: token pairs ``(i, j)`` with ``0 < |i - j| <= N`` in the same document.
    doc_starts : array of int, optional
        Document offsets (see :func:`chunk_documents` for the paper's 13-token chunks).
    block_size : int, default 2_000_000
        Positions processed at once (bounds memory).
    show_progress : bool or None, default False
        tqdm progress bar over offsets (``None``: only on a terminal).

    Returns
    -------
    scipy.sparse.csr_matrix, shape (V, 2kV)
        :math:`P` with :math:`P_{r,(s,c)} = \\#\\{(i, j): 0 < |i-j| \\le N,\\ w_i = r,\\
        w_i \\sim_G w_j,\\ w_{j+s} = c\\}`.

    Notes
    -----
    Figure 3 of Osborne et al. (2016) computes :math:`M = W^\\top L C` with the "local
    Laplacian" :math:`L_{ii} = 1`, :math:`L_{ij} = \\alpha` if :math:`0<|i-j|\\le N` and
    :math:`w_i \\sim_G w_j`, else 0. Hence :math:`M = W^\\top C + \\alpha P` and ``P`` does
    not depend on ``alpha``: compute it once per graph. (§4.3 of the paper describes the
    complementary weighting — ``alpha`` for *non*-adjacent pairs — but its final algorithm,
    Figure 3, and its Table 1 use the adjacent-pair form implemented here.)

    Vectorised: for each offset ``d = 1..N`` the pairs ``(t, t + d)`` are looked up in the
    sorted edge codes ``u * V + v`` with :func:`numpy.searchsorted` (after a cheap
    "both words have an edge" filter); each adjacent pair contributes the contexts of
    ``t + d`` to row ``w_t`` and the contexts of ``t`` to row ``w_{t+d}``.
    """
    checked = _PairInputs.check(tokens, graph, window, n_neighbors, doc_starts, block_size)
    ids, A, k, N = checked.ids, checked.adjacency, checked.window, checked.n_neighbors
    n = ids.size
    V = A.shape[0]
    if show_progress is not None:
        show_progress = check_bool(show_progress, "show_progress")
    shape = (V, 2 * k * V)
    if A.nnz == 0:
        warnings.warn(
            "count_prior_pairs: the graph has no edges among vocabulary words; the prior "
            "counts are all zero (CCA with prior knowledge reduces to plain eigenwords)",
            UserWarning,
            stacklevel=2,
        )
        return sp.csr_matrix(shape, dtype=np.float64)
    doc = _doc_ids(n, checked.starts)
    slots = _slots(k)
    total = sp.csr_matrix(shape, dtype=np.float64)
    n_pairs = 0
    disable = None if show_progress is None else not show_progress
    for d in tqdm(range(1, N + 1), desc="prior pairs", disable=disable):
        rows_parts: list[np.ndarray] = []
        cols_parts: list[np.ndarray] = []
        for i, j in _adjacent_pairs(ids, doc, A, d, checked.block_size):
            n_pairs += 2 * i.size
            for a, b in ((i, j), (j, i)):  # row word at a, contexts around b
                for slot, s in enumerate(slots):
                    c = b + s
                    ok = (c >= 0) & (c < n)
                    c_ok = c[ok]
                    a_ok = a[ok]
                    b_ok = b[ok]
                    ok2 = (ids[c_ok] >= 0) & (doc[c_ok] == doc[b_ok])
                    rows_parts.append(ids[a_ok[ok2]])
                    cols_parts.append(slot * V + ids[c_ok[ok2]])
        if rows_parts:
            r, c, v = _unique_cells(
                np.concatenate(rows_parts), np.concatenate(cols_parts), shape[1]
            )
            total = total + _csr_from_cells([r], [c], [v], shape)
    total.sum_duplicates()
    logger.info("count_prior_pairs: %d adjacent ordered token pairs within N=%d", n_pairs, N)
    return total.tocsr()


def similarity_laplacian_counts(
    tokens: TokenStream,
    graph: Graph,
    *,
    window: int = 2,
    n_neighbors: int = 12,
    doc_starts: DocStarts = None,
    block_size: int = 2_000_000,
) -> sp.csr_matrix:
    """:math:`W^\\top L C` for the similarity Laplacian of §4.2, without materialising anything.

    :math:`L_{ij} = -1` for tokens ``i != j`` within ``N`` positions whose words are adjacent
    in the graph and :math:`L_{ii}` = the number of such tokens (a true Laplacian: rows sum to
    0). Hence :math:`W^\\top L C = \\sum_t \\deg_t\\, e_{w_t} c_t^\\top - P` with ``P`` from
    :func:`count_prior_pairs`. Entries can be negative, so take its SVD with
    ``transform="none"`` and ``which="smallest"`` (§4.2: similarities are *minimised*)::

        M = similarity_laplacian_counts(ids, graph)
        res = eigenwords_svd(dataclasses.replace(counts, counts=M), m,
                             transform="none", which="smallest", solver="dense")

    The paper's experiments use Figure 3 instead (:func:`count_prior_pairs`, largest
    singular vectors); this form is for studying §4.2 (the smallest singular vectors of a
    large sparse matrix are slow to compute with ARPACK).
    """
    checked = _PairInputs.check(tokens, graph, window, n_neighbors, doc_starts, block_size)
    ids, starts, A = checked.ids, checked.starts, checked.adjacency
    k, N, block = checked.window, checked.n_neighbors, checked.block_size
    V = A.shape[0]
    n = ids.size
    doc = _doc_ids(n, starts)
    deg = np.zeros(n, dtype=np.float64)
    for d in range(1, N + 1):
        for i, j in _adjacent_pairs(ids, doc, A, d, block):
            deg[i] += 1.0  # positions within one offset are distinct
            deg[j] += 1.0
    rows_all, cols_all, vals_all = [], [], []
    for slot, i_all, j_all in _slot_pairs(ids, doc, k):
        has_pair = deg[i_all] > 0
        i, j = i_all[has_pair], j_all[has_pair]
        codes, inverse = np.unique(ids[i] * V + ids[j], return_inverse=True)
        rows_all.append(codes // V)
        cols_all.append(slot * V + codes % V)
        vals_all.append(np.bincount(inverse.ravel(), weights=deg[i], minlength=codes.size))
    degree_part = _csr_from_cells(rows_all, cols_all, vals_all, (V, 2 * k * V))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        P = count_prior_pairs(ids, A, window=k, n_neighbors=N, doc_starts=starts, block_size=block)
    return (degree_part - P).tocsr()
