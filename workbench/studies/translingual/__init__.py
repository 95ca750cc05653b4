"""The translingual study (notebook ``07_translingual``): English-Spanish Bible documents.

Platt, Toutanova & Yih (2010): CL-LSI, OPCA, CCA, word-by-word translation and joint / coupled
PLSA compared on cross-language retrieval of aligned Bible chapters. The methods, document-term
matrices and retrieval tests are in :mod:`workbench.crosslingual`; this study holds

* :func:`settings` -- what the notebook computes at a data size (``settings =
  translingual.settings(DATA_SIZE)``, an :class:`ExperimentConfig`: terms per language,
  dimensions, ridge values, topics, EM iterations, verse pools);
* :func:`prepare` (the user's aligned texts, ``PARALLEL``, :func:`prepare_parallel`, or the
  bundled Bibles, :func:`prepare_bible`), :func:`run_translingual`, :func:`top_matches` -- the paper's setup:
  book split, term space, every method chosen on dev and scored on test (Tables 1-3, Figure 3);
* :func:`run_verse_retrieval` -- the harder verse-level evaluation, once per seed
  (:data:`PAPER_CLAIMS`, :class:`VerseRetrievalResult`);
* the PLSA models tuned on dev (:mod:`._plsa`: fold-in prior, CPLSA's slack penalty, EM
  tolerance, a topic grid doubled while the best is at its top), the vocabulary sweep
  (:func:`run_term_sweep`) and the comparable-document condition (:func:`run_comparable`);
* :func:`run_study` -- all of them, timed, as one frozen :class:`TranslingualStudyResult` whose
  ``records()`` (:class:`TranslingualRecords`) defines every record of the notebook;
* :func:`discussion_07` -- the Discussion rendered from the records (template
  ``templates/discussion_07.md.j2``, facts in :mod:`._facts`, :func:`facts_07`).
"""

from __future__ import annotations

from ._comparable import ComparableResult, comparable_data, run_comparable
from ._data import BibleData, prepare, prepare_bible, prepare_parallel
from ._discussion import discussion_07
from ._experiment import (
    FittedModel,
    TranslingualResult,
    run_translingual,
    top_matches,
)
from ._facts import Facts07, facts_07
from ._result import (
    CLASSIFICATION_PAIRS,
    TranslingualRecords,
    TranslingualStudyResult,
    run_study,
)
from ._settings import METHODS, SIZES, ExperimentConfig, settings
from ._verses import (
    PAPER_CLAIMS,
    VerseRetrievalResult,
    eligible_verses,
    run_verse_retrieval,
    sample_verse_pools,
)
from ._vocabulary import run_term_sweep

__all__ = [
    "SIZES",
    "METHODS",
    "ExperimentConfig",
    "settings",
    "BibleData",
    "FittedModel",
    "TranslingualResult",
    "prepare",
    "prepare_bible",
    "prepare_parallel",
    "run_translingual",
    "top_matches",
    "PAPER_CLAIMS",
    "VerseRetrievalResult",
    "eligible_verses",
    "sample_verse_pools",
    "run_verse_retrieval",
    "ComparableResult",
    "comparable_data",
    "run_comparable",
    "run_term_sweep",
    "CLASSIFICATION_PAIRS",
    "TranslingualRecords",
    "TranslingualStudyResult",
    "run_study",
    "Facts07",
    "facts_07",
    "discussion_07",
]
