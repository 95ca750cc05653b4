"""Translingual document representations (Platt, Toutanova & Yih, 2010).

CL-LSI, Oriented PCA and CCA projections (:mod:`.projections`), joint and coupled PLSA
(:mod:`.plsa`), document-term matrices and book splits (:mod:`.documents`), word-by-word
translation baselines (:mod:`.baselines`), the Bible experiment of notebook 07
(:mod:`.experiment`), its harder verse-level evaluation (:mod:`.verses`), retrieval scoring and
pairwise tests (:mod:`.compare`) and the notebook's Discussion rendered from its records
(:func:`discussion_07`).
"""

from ._discussion import discussion_07, translingual_records
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
from .experiment import (
    METHODS,
    BibleData,
    ExperimentConfig,
    FittedModel,
    TranslingualResult,
    prepare_bible,
    run_translingual,
    top_matches,
)
from .plsa import CPLSA, JPLSA, frequency_sorted_topics, kl_project
from .projections import CLLSI, OPCA, CrossLingualCCA, check_aligned_views
from .verses import (
    PAPER_CLAIMS,
    VerseRetrievalResult,
    eligible_verses,
    run_verse_retrieval,
    sample_verse_pools,
)

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
    "FittedModel",
    "TranslingualResult",
    "prepare_bible",
    "run_translingual",
    "compare_pairs",
    "pairwise_mcnemar",
    "paired_retrieval",
    "compact_letters",
    "PAPER_CLAIMS",
    "VerseRetrievalResult",
    "eligible_verses",
    "sample_verse_pools",
    "run_verse_retrieval",
    "discussion_07",
    "translingual_records",
]
