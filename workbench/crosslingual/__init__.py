"""Translingual document representations (Platt, Toutanova & Yih, 2010).

CL-LSI, Oriented PCA and CCA projections (:mod:`.projections`), joint and coupled PLSA
(:mod:`.plsa`), document-term matrices and book splits (:mod:`.documents`), word-by-word
translation baselines (:mod:`.baselines`), and retrieval scoring and pairwise tests
(:mod:`.compare`). The Bible experiment of notebook 07 (its settings, the verse-level
evaluation and the Discussion) is the study :mod:`workbench.studies.translingual`.
"""

from .baselines import WordByWordTranslation, translation_matrix
from .compare import compact_letters, compare_pairs, paired_retrieval, pairwise_mcnemar
from .documents import (
    BookSplit,
    TermSpace,
    build_term_space,
    count_matrix,
    joint_log_tf_idf,
    log_tf_idf,
    split_books,
)
from .plsa import CPLSA, JPLSA, frequency_sorted_topics, kl_project
from .projections import CLLSI, OPCA, CrossLingualCCA, check_aligned_views

__all__ = [
    "CLLSI",
    "OPCA",
    "CrossLingualCCA",
    "JPLSA",
    "CPLSA",
    "WordByWordTranslation",
    "translation_matrix",
    "TermSpace",
    "BookSplit",
    "build_term_space",
    "count_matrix",
    "log_tf_idf",
    "joint_log_tf_idf",
    "split_books",
    "frequency_sorted_topics",
    "kl_project",
    "check_aligned_views",
    "compare_pairs",
    "pairwise_mcnemar",
    "paired_retrieval",
    "compact_letters",
]
