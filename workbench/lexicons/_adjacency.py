"""The one adjacency of a lexicon file over a word list (exact string matching)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from workbench._validation import check_bool

if TYPE_CHECKING:
    from ._graphs import LexiconGraph

__all__ = ["lexicon_adjacency"]


def lexicon_adjacency(
    words: Sequence[str],
    lexicon: LexiconGraph | Mapping[str, Iterable[str]],
    *,
    symmetric: bool = False,
) -> sp.csr_matrix:
    """0/1 adjacency over ``words`` (rows and columns in the order of ``words``).

    Parameters
    ----------
    words : sequence of str
        The nodes, e.g. a vocabulary in id order; a lexicon word is matched exactly
        (case-sensitive).
    lexicon : mapping or LexiconGraph
        ``word -> iterable of neighbours`` as read by :func:`workbench.datasets.load_lexicon`
        (an edge ``i -> j`` for every neighbour ``j`` listed on ``i``'s line), or a
        :class:`~workbench.lexicons.LexiconGraph` (re-indexed to ``words``; already symmetric).
    symmetric : bool, default False
        Add ``j -> i`` for every ``i -> j``. Without it the lexicon is used as given (the
        retrofitting reference code does not symmetrise the lexicon file either).

    Returns
    -------
    scipy.sparse.csr_matrix
        Float64 0/1 entries; self-loops and neighbours missing from ``words`` are dropped.

    Used by every lexicon graph (:func:`~workbench.lexicons.graph_from_lexicon`), the
    word x word lexicon views (:func:`~workbench.lexicons.graph_view`) and retrofitting
    (:func:`workbench.retrofit.retrofit`).

    Examples
    --------
    >>> lexicon_adjacency(["car", "auto", "bike"], {"car": ["auto"]}).toarray()
    array([[0., 1., 0.],
           [0., 0., 0.],
           [0., 0., 0.]])
    >>> lexicon_adjacency(["car", "auto", "bike"], {"car": ["auto"]}, symmetric=True).toarray()
    array([[0., 1., 0.],
           [1., 0., 0.],
           [0., 0., 0.]])
    """
    symmetric = check_bool(symmetric, "symmetric")
    if hasattr(lexicon, "adjacency") and hasattr(lexicon, "reindex"):
        return lexicon.reindex(words).adjacency.tocsr()
    if not isinstance(lexicon, Mapping):
        raise TypeError(
            "lexicon must be a LexiconGraph or a mapping word -> iterable of neighbours, "
            f"got {type(lexicon).__name__}"
        )
    index = {w: i for i, w in enumerate(words)}
    n = len(words)
    rows: list[int] = []
    cols: list[int] = []
    for w, nbrs in lexicon.items():
        i = index.get(w)
        if i is None:
            continue
        if isinstance(nbrs, str) or not isinstance(nbrs, Iterable):
            raise TypeError(f"lexicon[{w!r}] must be an iterable of words, got {nbrs!r}")
        for u in set(nbrs):
            j = index.get(u)
            if j is not None and j != i:
                rows.append(i)
                cols.append(j)
    if symmetric:
        rows, cols = rows + cols, cols + rows
    A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    A.data[:] = 1.0
    return A
