"""The eigenwords study (notebook ``06_eigenwords_prior``): CCA with prior knowledge.

Osborne, Narayan & Cohen (2016): eigenword CCA with a WordNet / PPDB / FrameNet prior, compared
with retrofitting and with skip-gram and GloVe trained on the same corpus. The algorithms are
in :mod:`workbench.eigenwords` (eigenwords, CCAPrior, graph embeddings), the lexicon graphs in
:mod:`workbench.lexicons`, retrofitting in :mod:`workbench.retrofit`; this study holds

* :func:`settings` -- what the notebook computes at a data size (``settings =
  eigenwords.settings(DATA_SIZE)``: corpus, vocabulary, dimension, alphas, skip-gram and GloVe
  settings, rating sets, lexicons, test level);
* :func:`run_prior_study` -- every embedding of the Table 1 and Table 2 analogues, scored on the
  rating sets and the geographic analogies, in parallel jobs;
* the tables: :func:`comparison_table`, :func:`holm_marks`, :func:`study_tables`,
  :func:`table1_display`, :func:`per_set_display`, :func:`prior_gains`,
  :func:`baseline_rf_gains`, :func:`graph_only_tests` (Table 2 against Eigen on matched pairs),
  :func:`table2_matched` (Table 2 with every method on the same pairs);
* :func:`prior_counts` -- the prior counts of every lexicon, in the paper's 13-token chunks
  (``settings.chunk_length``);
* :func:`run_sweeps` and :func:`sweep_tests` -- Eigen over dimensions and data sizes (§5.4),
  every cell scored on the same pairs (:mod:`._matched`), each step tested;
* :func:`run_prior` -- the notebook's study, returning a frozen :class:`PriorResult` whose
  ``records()`` (:class:`PriorRecords`) defines every record key;
* :func:`facts_06` (``_facts``: the rules behind the Discussion's words) and
  :func:`discussion_06` -- the Discussion rendered from a run's records by the template
  ``templates/discussion_06.md.j2``.
"""

from __future__ import annotations

from ._discussion import discussion_06
from ._facts import facts_06
from ._matched import common_mask, matched_table, restrict
from ._result import PriorRecords, PriorResult, run_prior
from ._run import (
    EIGEN,
    LEXICON_NAMES,
    EmbeddingScores,
    PriorStudy,
    label_key,
    lexicon_graphs,
    prior_counts,
    run_prior_study,
    score_vectors,
)
from ._settings import BUNDLED_CORPORA, LEXICONS, PAPER_WORDSIM, SIZES, PriorSettings, settings
from ._sweeps import SweepRecords, Sweeps, corpus_prefix, run_sweeps, size_label, sweep_tests
from ._tables import (
    baseline_rf_gains,
    comparison_table,
    graph_only_tests,
    holm_marks,
    per_set_display,
    prior_gains,
    study_tables,
    table1_display,
    table2_matched,
)

__all__ = [
    "SIZES",
    "PAPER_WORDSIM",
    "LEXICONS",
    "BUNDLED_CORPORA",
    "PriorSettings",
    "settings",
    "EIGEN",
    "LEXICON_NAMES",
    "EmbeddingScores",
    "PriorStudy",
    "label_key",
    "lexicon_graphs",
    "prior_counts",
    "score_vectors",
    "run_prior_study",
    "comparison_table",
    "holm_marks",
    "study_tables",
    "table1_display",
    "per_set_display",
    "prior_gains",
    "baseline_rf_gains",
    "graph_only_tests",
    "table2_matched",
    "common_mask",
    "restrict",
    "matched_table",
    "Sweeps",
    "SweepRecords",
    "corpus_prefix",
    "size_label",
    "run_sweeps",
    "sweep_tests",
    "PriorRecords",
    "PriorResult",
    "run_prior",
    "facts_06",
    "discussion_06",
]
