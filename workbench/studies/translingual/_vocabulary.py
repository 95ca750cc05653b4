"""Does the vocabulary size matter? OPCA, JPLSA and CPLSA refitted at other sizes (notebook 07).

The paper kept 20,000 terms per language; notebook 07 keeps ``n_terms`` (5,000 at full size).
:func:`run_term_sweep` rebuilds the term space with each size of ``config.term_sweep`` and refits
OPCA (its dev-chosen gamma, every dimension), JPLSA and CPLSA (their dev-chosen numbers of topics
and CPLSA's penalty; every fold-in prior, early-stopped on dev) -- no other setting is re-tuned --,
then runs the verse evaluation with the same seeds. Each size draws its own verse pools (a verse
qualifies by its counted terms, which depend on the vocabulary), so the sizes are compared by
their values, not by a paired test.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ._data import prepare
from ._experiment import TranslingualResult, run_translingual
from ._plsa import HARD
from ._verses import VerseRetrievalResult, run_verse_retrieval

__all__ = ["SWEEP_METHODS", "chosen_params", "run_term_sweep", "sweep_rows"]

logger = logging.getLogger(__name__)

#: The methods refitted at every vocabulary size.
SWEEP_METHODS = ("OPCA", "JPLSA", "CPLSA")


def chosen_params(result: TranslingualResult, method: str) -> dict[str, float]:
    """The setting of ``method`` with the best chapter dev MRR (ties: the first candidate)."""
    curves = result.dev_curves
    own = curves[curves["method"] == method]
    if own.empty:
        raise KeyError(f"method {method!r} was not run")
    pos = int(np.argmax(own["mrr"].to_numpy()))  # (the first of the best)
    return dict(result.candidates[int(own.index[pos])].params)


def sweep_rows(
    n_terms: int, result: TranslingualResult, verses: VerseRetrievalResult
) -> list[dict[str, Any]]:
    """Per method of :data:`SWEEP_METHODS`: ``n_terms, method``, ``chapter setting`` and
    ``dev mrr`` (the setting chosen on dev chapters and its dev MRR), ``verse top1`` (list per
    seed, each seed's setting chosen on its dev verse pool) and ``eligible test verses``."""
    top1 = verses.per_seed("top1")
    rows = []
    for m in SWEEP_METHODS:
        if m not in top1.columns:
            continue
        own = result.dev_curves[result.dev_curves["method"] == m]
        pos = int(np.argmax(own["mrr"].to_numpy()))
        rows.append({"n_terms": int(n_terms), "method": m,
                     "chapter setting": str(own["setting"].iloc[pos]),
                     "dev mrr": float(own["mrr"].max()),
                     "verse top1": [float(v) for v in top1[m]],
                     "eligible test verses": int(verses.n_eligible["test"])})  # fmt: skip
    return rows


def run_term_sweep(
    result: TranslingualResult,
    verses: VerseRetrievalResult,
    seeds: Sequence[int],
    *,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """The vocabulary sweep of ``result.config.term_sweep`` (see the module docstring).

    Parameters
    ----------
    result, verses
        The main run (its size is the sweep's first row).
    seeds : sequence of int
        The seeds of the verse evaluation.
    n_jobs : int
        Worker processes for the PLSA fits.

    Returns
    -------
    DataFrame
        :func:`sweep_rows` of every size, the main run's first (empty without sizes to sweep).
    """
    cfg = result.config
    rows = sweep_rows(cfg.n_terms, result, verses)
    sizes = [k for k in cfg.term_sweep if k != cfg.n_terms]
    methods = tuple(m for m in SWEEP_METHODS if m in cfg.methods)
    if not sizes or not methods:
        return pd.DataFrame(rows[:0])
    params = {m: chosen_params(result, m) for m in methods}
    topics = sorted({int(params[m]["topics"]) for m in ("JPLSA", "CPLSA") if m in params})
    penalty = params.get("CPLSA", {}).get("penalty", HARD)
    for k in sizes:
        sub = replace(
            cfg,
            n_terms=k,
            methods=methods,
            opca_gammas=(params["OPCA"]["gamma"],) if "OPCA" in params else cfg.opca_gammas,
            topics=tuple(topics) or cfg.topics,
            topics_cap=0,
            cplsa_penalties=(None if np.isinf(penalty) else float(penalty),),
            term_sweep=(),
        )
        logger.info("vocabulary sweep: %d terms per language", k)
        res = run_translingual(prepare(sub), sub, n_jobs=n_jobs)
        rows += sweep_rows(k, res, run_verse_retrieval(res, seeds))
    return pd.DataFrame(rows)
