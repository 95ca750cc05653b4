"""Translingual document representations (Platt, Toutanova & Yih, 2010).

CL-LSI, Oriented PCA and CCA projections (:mod:`.projections`), joint and coupled PLSA
(:mod:`.plsa`), document-term matrices and book splits (:mod:`.documents`), word-by-word
translation baselines (:mod:`.baselines`) and the Bible experiment of notebook 07
(:mod:`.experiment`).
"""

from .baselines import WordByWordTranslation, translation_matrix
from .documents import (
    BookSplit,
    TermSpace,
    build_term_space,
    count_matrix,
    joint_log_tf_idf,
    log_tf_idf,
    split_books,
)
from .experiment import (
    METHODS,
    BibleData,
    ExperimentConfig,
    TranslingualResult,
    compare_pairs,
    prepare_bible,
    run_translingual,
    top_matches,
)
from .plsa import CPLSA, JPLSA, frequency_sorted_topics, kl_project
from .projections import CLLSI, OPCA, CrossLingualCCA, check_aligned_views

__all__ = [
    "top_matches",
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
    "METHODS",
    "BibleData",
    "ExperimentConfig",
    "TranslingualResult",
    "prepare_bible",
    "run_translingual",
    "compare_pairs",
]
