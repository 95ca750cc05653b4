"""The dev evaluations of MVLSA choices on a view set, kept in the disk cache by content.

A grid point or a step of the tuning path is one MVLSA fit and one evaluation on the dev halves;
its scores depend only on the view set's content, the choice (configuration, view families and
seed) and the dev halves. :class:`DevEvaluations` keys each evaluation by these, so a re-run of
notebook 03 on the same views refits nothing it evaluated before.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench._io import content_hash
from workbench.evaluation import SystemEvaluation, WordSimResult
from workbench.studies.mvlsa._factors import FactorStore
from workbench.studies.mvlsa._viewsets import ViewSet, study_cache

logger = logging.getLogger(__name__)

__all__ = ["EVALUATION_CACHE", "DevEvaluations", "view_set_key"]

#: The disk cache of dev evaluations (namespace, version of what an entry holds).
EVALUATION_CACHE = ("mvlsa/dev-evaluations", 2)


def view_set_key(view_set: ViewSet) -> str:
    """Content hash of a view set: its vocabulary and every view's matrix, observed rows and
    contexts, in order (what a fit on it depends on)."""
    parts: list[object] = [view_set.vocab]
    for v in view_set.views:
        m = sp.csr_matrix(v.matrix)
        if not m.has_sorted_indices:  # (on a copy: the view is not touched)
            m = m.copy()
            m.sort_indices()
        parts += [v.name, np.asarray(m.shape), m.indptr.astype(np.int64),
                  m.indices.astype(np.int64), np.asarray(m.data),
                  np.asarray(v.observed, dtype=bool), [str(c) for c in v.contexts]]  # fmt: skip
    return content_hash(*parts)


def _sets_key(dev: Sequence[pd.DataFrame]) -> str:
    return content_hash(*[str(d.attrs.get("name", "")) + "\n" + d.to_csv(index=False) for d in dev])


def _evaluation_arrays(ev: SystemEvaluation) -> tuple[dict[str, np.ndarray], dict[str, object]]:
    """A dev evaluation (rating sets only) as cache arrays and JSON metadata."""
    arrays, sets = {}, []
    for i, r in enumerate(ev.wordsim.values()):
        arrays[f"pred_{i}"], arrays[f"gold_{i}"] = np.asarray(r.pred), np.asarray(r.gold)
        sets.append({"name": r.name, "spearman": float(r.spearman), "pearson": float(r.pearson),
                     "n_pairs": int(r.n_pairs), "n_scored": int(r.n_scored),
                     "oov_pairs": [list(p) for p in r.oov_pairs], "oov_policy": r.oov_policy})  # fmt: skip
    return arrays, {"name": ev.name, "keys": list(ev.wordsim), "sets": sets}


def _evaluation_from(arrays: dict[str, np.ndarray], meta: dict) -> SystemEvaluation:
    results = {
        key: WordSimResult(r["name"], float(r["spearman"]), float(r["pearson"]), int(r["n_pairs"]),
                           int(r["n_scored"]), tuple(tuple(p) for p in r["oov_pairs"]),
                           np.asarray(arrays[f"pred_{i}"]), np.asarray(arrays[f"gold_{i}"]),
                           r["oov_policy"])  # fmt: skip
        for i, (key, r) in enumerate(zip(meta["keys"], meta["sets"]))
    }
    return SystemEvaluation(str(meta["name"]), results)


class DevEvaluations:
    """The cached dev evaluations of choices on ``view_set`` over the dev halves ``dev``,
    computed through ``store`` (its :meth:`FactorStore.settings` are part of the key)."""

    def __init__(
        self, view_set: ViewSet, dev: Sequence[pd.DataFrame], store: FactorStore
    ) -> None:
        self._cache = study_cache(EVALUATION_CACHE)
        self._key = {"view_set": view_set_key(view_set), "dev": _sets_key(dev),
                     "store": store.settings()}  # fmt: skip

    def _inputs(self, choice: Mapping[str, Any], label: str) -> dict[str, Any]:
        return {**self._key, "choice": dict(choice), "label": label}

    def load(self, choice: Mapping[str, Any], label: str) -> SystemEvaluation | None:
        """The evaluation of the choice described by ``choice`` (JSON: its configuration with
        the seed, view families and positional views) named ``label``, stored by an earlier
        run; None when there is none."""
        hit = self._cache.load(self._inputs(choice, label))
        return None if hit is None else _evaluation_from(dict(hit.arrays), hit.meta)

    def store(self, choice: Mapping[str, Any], label: str, evaluation: SystemEvaluation) -> None:
        """Keep ``evaluation`` (rating sets only); a disk that cannot take it is logged."""
        try:
            self._cache.store(self._inputs(choice, label), *_evaluation_arrays(evaluation))
        except OSError as exc:  # a full or read-only disk: the run goes on
            logger.warning("dev evaluation not cached (%s)", exc)
