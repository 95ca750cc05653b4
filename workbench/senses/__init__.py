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
* Similarity after removing directions without re-scoring the model:
  :class:`SenseSimilarityTask` (:func:`scws_task`, :func:`avg_sim_task`), and the fixed SCWS
  dev / test split :func:`scws_split`.
* The experiments of notebooks 08 and 09 over several seeds: :func:`sense_pair_study`,
  :func:`sparse_noise_study` (one seed: :func:`sense_pair_run`, :func:`sparse_noise_run`;
  :func:`run_seeds` runs seeds in worker processes), and their Discussion text
  :func:`discussion_08`, :func:`discussion_09`.

Implementation modules: ``_training`` (trainer, clustering, presets), ``_mssg`` (file format),
``_analysis`` (inspection and pseudo-sense helpers), ``_similarity`` (similarity tasks),
``_studies`` (notebook experiments), ``_discussion`` (notebook prose).
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
)
from workbench.senses._discussion import discussion_08, discussion_09
from workbench.senses._mssg import load_mssg, save_mssg
from workbench.senses._similarity import SenseSimilarityTask, avg_sim_task, scws_split, scws_task
from workbench.senses._studies import (
    ALPHA,
    SensePairRun,
    SensePairStudy,
    SparseNoiseRun,
    SparseNoiseStudy,
    removal_grid,
    run_seeds,
    sense_pair_run,
    sense_pair_study,
    sparse_noise_run,
    sparse_noise_study,
)
from workbench.senses._training import (
    TRAINING_PRESETS,
    MultiSenseConfig,
    online_sense_clustering,
    spherical_kmeans,
    train_multisense,
    train_preset,
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
    "TRAINING_PRESETS",
    "partial_spearman",
    "PartialCorrelationResult",
    "train_preset",
    "SenseSimilarityTask",
    "scws_task",
    "avg_sim_task",
    "scws_split",
    "ALPHA",
    "run_seeds",
    "removal_grid",
    "SensePairRun",
    "SensePairStudy",
    "sense_pair_run",
    "sense_pair_study",
    "SparseNoiseRun",
    "SparseNoiseStudy",
    "sparse_noise_run",
    "sparse_noise_study",
    "discussion_08",
    "discussion_09",
]
