"""Helpers shared by the baselines: result type and argument checks."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from workbench.embeddings import WordVectors

logger = logging.getLogger(__name__)


def _word_vectors(words: Sequence[str], vectors: np.ndarray) -> WordVectors:
    return WordVectors(list(words), vectors)


def _words_of(views: Sequence[object], words: Sequence[str] | None, n: int) -> list[str]:
    if words is None:
        for v in views:
            vocab = getattr(v, "vocab", None)
            if vocab is not None:
                words = list(vocab.words)
                break
        else:
            raise ValueError("words is required when the views carry no vocabulary")
    words = list(words)
    if len(words) != n:
        raise ValueError(f"got {len(words)} words for {n} rows")
    return words
