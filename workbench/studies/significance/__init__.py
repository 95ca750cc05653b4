"""The significance study (notebook ``01_significance``): settings, the run, facts, Discussion.

The tests themselves are :mod:`workbench.significance`; this study holds :func:`settings` (the
corpus, vocabulary and LSA dimension of the notebook's systems at a data size),
:func:`comparison_over_seeds` (one row per rating set summarising the per-seed comparisons),
:func:`run_significance` (everything the notebook computes, as a frozen
:class:`SignificanceResult` whose ``records()`` defines every record key), the facts that
decide each qualitative word of the Discussion (:mod:`._facts`, each with its rule and its
correction family) and :func:`discussion_01`, which renders ``templates/discussion_01.md.j2``
from the records and the paper's published values kept as data
(:data:`workbench.significance.MVLSA_TABLE2`, :mod:`workbench.reported`).
"""

from __future__ import annotations

from ._facts import Facts01, discussion_01, facts_01
from ._run import SignificanceRecords, SignificanceResult, run_significance
from ._settings import SIZES, SignificanceSettings, comparison_over_seeds, records_frame, settings

__all__ = [
    "SIZES",
    "SignificanceSettings",
    "settings",
    "comparison_over_seeds",
    "records_frame",
    "SignificanceResult",
    "SignificanceRecords",
    "run_significance",
    "Facts01",
    "facts_01",
    "discussion_01",
]
