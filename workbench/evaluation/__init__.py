"""Intrinsic and extrinsic evaluation of word and document representations.

Every evaluator returns a frozen result object carrying the headline figure, the coverage
(how many items could be scored and which could not) and the per-item predictions or hits,
so that :mod:`workbench.significance` can compare two systems item by item.

Evaluators
----------
* :func:`evaluate_wordsim` / :func:`wordsim_suite` -- cosine similarity against human ratings
  (Spearman, the figure the papers report, and Pearson).
* :func:`evaluate_analogies` -- 3CosAdd / 3CosMul analogies (Mikolov et al. 2013; Levy & Goldberg 2014).
* :func:`evaluate_toefl` -- TOEFL-style closed-vocabulary synonym questions (Landauer & Dumais 1997).
* :func:`evaluate_scws` -- contextual similarity on SCWS: avgSim, avgSimC, maxSim, maxSimC
  (Reisinger & Mooney 2010; Huang et al. 2012; Neelakantan et al. 2014).
* :func:`retrieval` / :func:`crosslingual_retrieval` -- Top-1 accuracy and MRR of the true mate with
  ties counted as errors (Platt, Toutanova & Yih 2010).
* :func:`knn_classify` -- 1-nearest-neighbour classification.

The vector containers are duck-typed: anything with ``.words`` (sequence of str), ``.vectors``
(n x d array) and ``.index`` (dict word -> row), i.e. :class:`workbench.embeddings.WordVectors`;
multi-sense containers additionally provide ``sense_vectors(word)``, ``context_centers(word)``
and ``global_vector(word)`` (:class:`workbench.embeddings.MultiSenseVectors`).
"""

from ._common import lookup_row
from .accuracy import AccuracyResult, evaluate_toefl, knn_classify
from .analogies import GEOGRAPHIC_SECTION, AnalogyResult, evaluate_analogies
from .retrieval import RetrievalResult, crosslingual_retrieval, retrieval
from .scws import SCWSResult, evaluate_scws, sense_probabilities
from .systems import ANALOGY_SETS, SystemEvaluation, evaluate_system
from .wordsim import WordSimResult, evaluate_wordsim, wordsim_suite

__all__ = [
    "WordSimResult",
    "AnalogyResult",
    "AccuracyResult",
    "SCWSResult",
    "RetrievalResult",
    "evaluate_wordsim",
    "wordsim_suite",
    "evaluate_analogies",
    "evaluate_toefl",
    "evaluate_scws",
    "retrieval",
    "crosslingual_retrieval",
    "knn_classify",
    "ANALOGY_SETS",
    "SystemEvaluation",
    "evaluate_system",
    "lookup_row",
    "sense_probabilities",
    "GEOGRAPHIC_SECTION",
]
