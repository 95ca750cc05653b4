"""The sense studies (notebooks ``08_sense_pairs`` and ``09_sparse_noise``): Ex-RPCA of multi-sense
embeddings.

Shi, Sun & Hu (2018): sense-pair principal components, extended robust PCA and the elimination
of pseudo senses, on multi-sense embeddings trained on our corpus. The training, the MSSG format
and the sense-inspection helpers are in :mod:`workbench.senses`, the decompositions in
:mod:`workbench.rpca`; this study holds

* :func:`settings` -- the model of a data size (``settings = senses.settings(DATA_SIZE)``,
  shared by both notebooks) and :func:`train_preset`, which trains it for a seed or reads it
  from the cache;
* notebook 08: :func:`sense_pair_run` (one seed, with the part-of-speech test of the
  components) and :func:`sense_pair_study` (every seed, in worker processes, summarised, and the
  first seed re-run on the other base models of the settings: K = 2, 3, 4, NP-MSSG);
* notebook 09: :func:`sparse_noise_run`, :func:`sparse_noise_study`, :func:`removal_grid`,
  :func:`with_wordnet`, :func:`with_wordnet_elimination` (Table 4's supervised row);
* :func:`run_seeds`, :data:`ALPHA` -- seeds in parallel worker processes; the significance level
  of every test;
* the studies are frozen results whose ``records()`` (:class:`SensePairRecords`,
  :class:`SparseNoiseRecords`) define every record key (``record_all(study)``);
* :func:`facts_08`, :func:`facts_09` (``_facts``: the rules behind the Discussions' words) and
  :func:`discussion_08`, :func:`discussion_09` -- the Discussions rendered from a run's records
  by the templates ``templates/discussion_08.md.j2`` and ``discussion_09.md.j2``.
"""

from __future__ import annotations

from ._discussion import discussion_08, discussion_09
from ._facts import facts_08, facts_09
from ._runs import ALPHA, run_seeds
from ._sense_pairs import (
    SensePairRecords,
    SensePairRun,
    SensePairStudy,
    sense_pair_run,
    sense_pair_study,
)
from ._settings import SIZES, SenseSettings, settings, train_preset
from ._sparse_noise import (
    SparseNoiseRecords,
    SparseNoiseRun,
    SparseNoiseStudy,
    removal_grid,
    sparse_noise_run,
    sparse_noise_study,
    with_wordnet,
    with_wordnet_elimination,
)

__all__ = [
    "SIZES",
    "SenseSettings",
    "settings",
    "train_preset",
    "ALPHA",
    "run_seeds",
    "SensePairRun",
    "SensePairStudy",
    "SensePairRecords",
    "sense_pair_run",
    "sense_pair_study",
    "SparseNoiseRun",
    "SparseNoiseStudy",
    "SparseNoiseRecords",
    "sparse_noise_run",
    "sparse_noise_study",
    "removal_grid",
    "with_wordnet",
    "with_wordnet_elimination",
    "facts_08",
    "facts_09",
    "discussion_08",
    "discussion_09",
]
