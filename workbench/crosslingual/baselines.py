"""Baselines for translingual retrieval: untranslated vectors and word-by-word translation."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from workbench._typing import Matrix
from workbench._validation import check_array

from ..alignment import IBM1Model
from .documents import TermSpace

__all__ = ["WordByWordTranslation", "translation_matrix"]


def translation_matrix(
    model: IBM1Model, space: TermSpace, source_language: str, target_language: str
) -> sp.csr_matrix:
    """Word-translation probabilities as a joint-term-space matrix (source term -> target term).

    ``P[i, j] = t(term_j | term_i)`` for source-language columns ``i`` and target-language columns
    ``j`` of ``space`` (IBM Model 1 trained with the source language as *source*); other entries 0.
    Terms the model does not know have empty rows.
    """
    if not isinstance(model, IBM1Model):
        raise TypeError(f"model must be an IBM1Model, got {type(model).__name__}")
    space.check_language(source_language)
    space.check_language(target_language)
    src_cols = space.language_columns[source_language]
    tgt_cols = space.language_columns[target_language]
    src_rows = np.array([model.source_index.get(space.terms[c], -1) for c in src_cols])
    tgt_rows = np.array([model.target_index.get(space.terms[c], -1) for c in tgt_cols])
    ks = src_rows >= 0
    kt = tgt_rows >= 0
    sub = model.translation[src_rows[ks]][:, tgt_rows[kt]].tocoo()
    n = len(space.terms)
    return sp.csr_matrix((sub.data, (src_cols[ks][sub.row], tgt_cols[kt][sub.col])), shape=(n, n))


class WordByWordTranslation:
    r"""Word-by-word translation of weighted document vectors (Platt et al., 2010, section 3.2).

    A source-language log(tf)-idf vector :math:`x` is mapped to the target language by
    :math:`x P` with :math:`P_{ij} = t(\text{target}_j \mid \text{source}_i)` from IBM Model 1;
    target-language documents are left unchanged. Compare with cosine, optionally after a
    monolingual LSA (e.g. :class:`~workbench.crosslingual.CLLSI` fitted on the target
    language's training documents only).

    Parameters
    ----------
    model : IBM1Model
        Trained with ``source_language`` as source and ``target_language`` as target.
    space : TermSpace
    source_language, target_language : str
    """

    def __init__(
        self, model: IBM1Model, space: TermSpace, source_language: str, target_language: str
    ) -> None:
        self.model = model
        self.space = space
        self.source_language = source_language
        self.target_language = target_language
        self.matrix_ = translation_matrix(model, space, source_language, target_language)

    def transform(self, X: Matrix) -> sp.csr_matrix:
        """Translate source-language document vectors (documents x joint terms)."""
        x = sp.csr_matrix(check_array(X, "X", ndim=2, accept_sparse=True))
        if x.shape[1] != self.matrix_.shape[0]:
            raise ValueError(
                f"X has {x.shape[1]} terms, the term space has {self.matrix_.shape[0]}"
            )
        return sp.csr_matrix(x @ self.matrix_)
