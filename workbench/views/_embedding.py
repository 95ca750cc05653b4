"""Embedding views: pretrained word vectors as a dense view over the vocabulary."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import numpy as np

from workbench._validation import check_array, check_bool

from ._base import View, Vocabulary

if TYPE_CHECKING:
    from workbench.embeddings import WordVectors

logger = logging.getLogger(__name__)

__all__ = ["embedding_view"]


def embedding_view(
    vectors: WordVectors,
    vocab: Vocabulary,
    *,
    name: str = "embedding",
    lowercase_fallback: bool = True,
) -> View:
    """Dense view of word vectors aligned to the vocabulary; missing words are masked.

    Parameters
    ----------
    vectors : WordVectors
        Any :class:`workbench.embeddings.WordVectors` (``.index`` word -> row, ``.vectors``).
    vocab : Vocabulary
    lowercase_fallback : bool
        Look a word up lower-cased if it is missing as is.

    Returns
    -------
    View
        ``matrix`` is a dense ``N x dim`` float array (embeddings are dense); rows of words
        without a vector are zero and ``observed=False``. Family ``"embedding"``.
    """
    lowercase_fallback = check_bool(lowercase_fallback, "lowercase_fallback")
    vec = np.asarray(vectors.vectors)
    if vec.ndim != 2:
        raise ValueError(f"{name}: vectors must be a 2-D array, got shape {vec.shape}")
    vec = check_array(vec, f"{name}: the word vectors", ndim=2, dtype=None)
    index = vectors.index
    src = np.full(len(vocab), -1, dtype=np.int64)
    for i, w in enumerate(vocab.words):
        j = index.get(w)
        if j is None and lowercase_fallback:
            j = index.get(w.lower())
        if j is not None:
            src[i] = j
    observed = src >= 0
    if not observed.any():
        raise ValueError(f"{name}: no vocabulary word has a vector")
    dtype = vec.dtype if vec.dtype in (np.float32, np.float64) else np.float64
    mat = np.zeros((len(vocab), vec.shape[1]), dtype=dtype)
    mat[observed] = vec[src[observed]]
    logger.info("%s: %d of %d words have vectors", name, int(observed.sum()), len(vocab))
    return View(name, mat, tuple(f"dim{d}" for d in range(vec.shape[1])), observed, "embedding",
                vocab, {"coverage": float(observed.mean())})  # fmt: skip
