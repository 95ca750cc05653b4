"""Multi-prototype (multi-sense) word embeddings trained on a corpus, and the MSSG file format.

* :func:`train_multisense` -- two-stage multi-prototype training in the style of
  Reisinger & Mooney (2010) / Huang et al. (2012), with a fixed number of senses
  (spherical k-means) or a non-parametric variant that opens a new sense when no
  centre is similar enough (NP-MSSG, Neelakantan et al. 2014).
* :func:`load_mssg` / :func:`save_mssg` -- the text format of the MSSG / NP-MSSG
  release, so real MSSG vectors can replace the self-trained ones.
* Sense inspection helpers used by the sense-pair notebooks: :class:`SenseNeighbours`,
  :func:`neighbour_overlap`, :func:`component_pairs`, :func:`word_sparse_norms`,
  :func:`avg_sim_wordsim`, :func:`scws_wordsim_result`, :func:`synset_counts`.
* Part of speech of the words a direction picks out: :func:`treebank_majority_pos`,
  :func:`pos_purity_test`, :func:`component_top_words`.
* Similarity after removing directions without re-scoring the model:
  :class:`SenseSimilarityTask` (:func:`scws_task`, :func:`avg_sim_task`), and the fixed SCWS
  dev / test split :func:`scws_split`.

The experiments of notebooks 08 and 09 (their settings and training presets, the runs over
seeds and the Discussion) are the study :mod:`workbench.studies.senses`.

Implementation modules: ``_training`` (trainer, clustering), ``_mssg`` (file format),
``_analysis`` (inspection and pseudo-sense helpers), ``_similarity`` (similarity tasks).
"""

from __future__ import annotations

from workbench.senses._analysis import (
    PartialCorrelationResult,
    SenseNeighbours,
    avg_sim_wordsim,
    component_pairs,
    neighbour_overlap,
    pair_overlaps,
    partial_spearman,
    pseudo_rate,
    scws_wordsim_result,
    sparse_pair_table,
    synset_counts,
    unique_pairs,
    word_sparse_norms,
    wordnet_directions,
    wordnet_pseudo_pairs,
)
from workbench.senses._mssg import load_mssg, save_mssg
from workbench.senses._pos import (
    POSPurityResult,
    component_top_words,
    majority_pos,
    pos_purity_test,
    treebank_majority_pos,
)
from workbench.senses._similarity import SenseSimilarityTask, avg_sim_task, scws_split, scws_task
from workbench.senses._training import (
    MultiSenseConfig,
    online_sense_clustering,
    spherical_kmeans,
    train_multisense,
)

__all__ = [
    "MultiSenseConfig",
    "train_multisense",
    "load_mssg",
    "save_mssg",
    "spherical_kmeans",
    "online_sense_clustering",
    "SenseNeighbours",
    "neighbour_overlap",
    "component_pairs",
    "word_sparse_norms",
    "pair_overlaps",
    "unique_pairs",
    "pseudo_rate",
    "sparse_pair_table",
    "avg_sim_wordsim",
    "scws_wordsim_result",
    "synset_counts",
    "partial_spearman",
    "PartialCorrelationResult",
    "SenseSimilarityTask",
    "scws_task",
    "avg_sim_task",
    "scws_split",
    "majority_pos",
    "treebank_majority_pos",
    "pos_purity_test",
    "POSPurityResult",
    "component_top_words",
    "wordnet_pseudo_pairs",
    "wordnet_directions",
]
