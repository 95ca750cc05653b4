"""One module per study: its settings per data size, systems, tables and Discussion.

A notebook imports its study by name and gets every setting that depends on the data size
from it, the same way in every notebook (a notebook never branches on ``DATA_SIZE`` itself)::

    from workbench.studies import mvlsa

    settings = mvlsa.settings(DATA_SIZE)

* :mod:`.tour` (notebook 00) -- the corpus described; the Discussion;
* :mod:`.significance` (01) -- corpus, vocabulary and dimension of the LSA systems; the per-seed
  summary; the Discussion;
* :mod:`.views` (02) -- corpus, vocabulary, offsets, treebank split, bitext verses, GloVe rows;
  the Discussion;
* :mod:`.mvlsa` (03, 04, 05) -- settings, view sets, view factors, systems, the dev-tuned path,
  the test comparison, ablations, fusion, tables, the Discussions;
* :mod:`.eigenwords` (06) -- settings, every embedding of Tables 1-2 in parallel jobs, tests and
  tables, the Discussion;
* :mod:`.translingual` (07) -- settings (:class:`~.translingual.ExperimentConfig`), the Bible
  experiment, the verse-level evaluation, records, the Discussion;
* :mod:`.senses` (08, 09) -- settings (the multi-sense model), the runs over seeds of both
  notebooks, the Discussions.

The algorithms the studies call live in :mod:`workbench.gcca`, :mod:`workbench.eigenwords`,
:mod:`workbench.rpca`, :mod:`workbench.crosslingual`, :mod:`workbench.senses`,
:mod:`workbench.significance` (and :mod:`workbench.baselines`, :mod:`workbench.evaluation`,
:mod:`workbench.retrofit`); the data in :mod:`workbench.datasets`, :mod:`workbench.views` and
:mod:`workbench.lexicons`. The study modules are imported on first use (importing this package
imports none of them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NotebookEntry:
    """What the runner needs to know of one notebook: its study module
    (``workbench.studies.<study>``), the data sizes it has, and the notebooks whose caches it
    reads (a batch run with several jobs starts it only after those have finished)."""

    study: str
    sizes: tuple[str, ...] = ("small", "full")
    reads: tuple[str, ...] = ()


#: The one registry of notebooks: each study declares its notebooks' sizes and the caches they
#: read (the offset views of 02; the dev-tuned configuration and the baselines of 03; the
#: multi-sense models of 08). The runner reads it.
NOTEBOOKS: dict[str, NotebookEntry] = {
    "00_tour": NotebookEntry("tour"),
    "01_significance": NotebookEntry("significance"),
    "02_views": NotebookEntry("views"),
    "03_mvlsa": NotebookEntry("mvlsa", ("small", "full", "large"), reads=("02_views",)),
    "04_ablation": NotebookEntry("mvlsa", ("small", "full", "large"), reads=("03_mvlsa",)),
    "05_fusion": NotebookEntry("mvlsa", ("small", "full", "large"), reads=("03_mvlsa",)),
    "06_eigenwords_prior": NotebookEntry("eigenwords"),
    "07_translingual": NotebookEntry("translingual"),
    "08_sense_pairs": NotebookEntry("senses"),
    "09_sparse_noise": NotebookEntry("senses", reads=("08_sense_pairs",)),
}

#: The study module of every notebook (``workbench.studies.<name>``).
NOTEBOOK_STUDIES: dict[str, str] = {name: entry.study for name, entry in NOTEBOOKS.items()}

__all__ = ["NOTEBOOKS", "NOTEBOOK_STUDIES", "NotebookEntry"]
