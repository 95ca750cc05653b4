"""One MVLSA system: fitting it on a view set and evaluating its vectors."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench._validation import check_bool
from workbench.datasets import load_analogies, load_wordsim
from workbench.embeddings import WordVectors
from workbench.evaluation import AnalogyResult, WordSimResult, evaluate_analogies, evaluate_wordsim
from workbench.gcca import MVLSA
from workbench.studies.mvlsa._settings import (
    ANALOGY_SETS,
    PAPER_WORDSIM,
    MVLSAConfig,
    _check_instance,
    _names,
)
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set, usable_views
from workbench.views import View, preprocess

logger = logging.getLogger(__name__)

__all__ = ["FittedSystem", "fit_mvlsa", "SystemEvaluation", "evaluate_system"]


# ============================================================================================
# one system
# ============================================================================================
@dataclass(frozen=True, eq=False)
class FittedSystem:
    """A fitted MVLSA system: ``model`` (the estimator), its config and the views' names."""

    config: MVLSAConfig
    model: MVLSA
    words: tuple[str, ...]
    view_names: tuple[str, ...]
    seconds: float

    def vectors(self, n_components: int | None = None) -> WordVectors:
        """``WordVectors`` of the first ``n_components`` dimensions (no refit)."""
        return self.model.to_word_vectors(self.words, n_components)


def _preprocessed(view_set: ViewSet, config: MVLSAConfig) -> list[View]:
    spec = config.spec()
    out = []
    for v in view_set.views:
        if v.family == "embedding":
            out.append(v)
            continue
        pv = preprocess(v, spec=spec)
        if not pv.observed.any():
            logger.info("view %s has no observed row after top_t=%s; left out", v.name, spec.top_t)
            continue
        out.append(pv)
    return out


def fit_mvlsa(view_set: ViewSet, config: MVLSAConfig) -> FittedSystem:
    """Preprocess every non-embedding view with :math:`f_j` of ``config`` and fit MVLSA.

    ``n_components`` is capped at ``view_rank`` x (number of views) with a warning; the other
    bad combinations (``v`` above the number of views, ...) raise the estimator's ValueError.
    A view with NaN or infinite entries raises ValueError naming it.
    """
    _check_view_set(view_set)
    _check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
    t0 = time.perf_counter()
    views, _ = usable_views(_preprocessed(view_set, config))
    if not views:
        raise ValueError("no usable view left after preprocessing")
    k = config.n_components
    cap = sum(min(config.view_rank, v.shape[1], int(v.observed.sum())) for v in views)
    if k > cap:
        logger.warning("n_components=%d exceeds the stacked rank bound %d; using %d", k, cap, cap)
        k = cap
    model = MVLSA(
        k,
        view_rank=config.view_rank,
        regularization=config.regularization,
        relative_regularization=config.relative_regularization,
        min_view_support=config.min_view_support,
        row_weighting=config.row_weighting,
        random_state=config.random_state,
        svd_solver=config.svd_solver,
        n_jobs=-1,
    ).fit(views)
    return FittedSystem(
        config, model, tuple(view_set.words), tuple(v.name for v in views), time.perf_counter() - t0
    )


def _check_vectors(vectors: object, name: str) -> None:
    """A ``TypeError`` naming ``name`` unless ``vectors`` looks like
    :class:`workbench.embeddings.WordVectors` (``words``, ``vectors`` and ``subset``)."""
    if not all(hasattr(vectors, a) for a in ("words", "vectors", "subset")):
        raise TypeError(
            f"{name} must be word vectors (workbench.embeddings.WordVectors), "
            f"got {type(vectors).__name__}"
        )


@functools.lru_cache(maxsize=32)
def _rating_set(name: str) -> pd.DataFrame:
    return load_wordsim(name)


@functools.lru_cache(maxsize=4)
def _analogy_questions() -> pd.DataFrame:
    return load_analogies()


@dataclass(frozen=True, eq=False)
class SystemEvaluation:
    """Scores of one system: per rating set :class:`WordSimResult`, and the analogy result."""

    name: str
    wordsim: dict[str, WordSimResult]
    analogy: AnalogyResult | None = None
    kinds: np.ndarray | None = None

    def scores(self) -> pd.Series:
        """Spearman per rating set, then AN-SYN / AN-SEM accuracy (fractions, not points)."""
        vals = {n: float(r.spearman) for n, r in self.wordsim.items()}
        if self.analogy is not None:
            vals["AN-SYN"] = float(self.analogy.syntactic)
            vals["AN-SEM"] = float(self.analogy.semantic)
        return pd.Series(vals, name=self.name, dtype=float)

    def n_scored(self) -> pd.Series:
        """Items scored per test set."""
        vals = {n: int(r.n_scored) for n, r in self.wordsim.items()}
        if self.analogy is not None and self.kinds is not None:
            for row, kind in ANALOGY_SETS.items():
                vals[row] = int((self.analogy.scorable & (self.kinds == kind)).sum())
        return pd.Series(vals, name=self.name)

    def hits(self, row: str) -> tuple[np.ndarray, np.ndarray]:
        """Per-question ``(hits, scorable)`` of AN-SYN or AN-SEM (only that kind's questions)."""
        if self.analogy is None or self.kinds is None:
            raise ValueError(f"system {self.name!r} was evaluated without analogies")
        sel = self.kinds == ANALOGY_SETS[row]
        return np.asarray(self.analogy.hits)[sel], np.asarray(self.analogy.scorable)[sel]


def evaluate_system(
    vectors: WordVectors,
    *,
    name: str = "system",
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    restrict_to: Sequence[str] | None = None,
) -> SystemEvaluation:
    """Evaluate word vectors on rating sets (Spearman) and AN-SYN / AN-SEM (3CosAdd accuracy).

    ``wordsim`` holds rating-set names (:data:`workbench.datasets.WORDSIM_NAMES`) or
    DataFrames with ``word1, word2, score`` (named by ``attrs["name"]``).
    ``restrict_to``: evaluate only these words' vectors (e.g. the MVLSA vocabulary, so that
    systems with bigger vocabularies such as pretrained GloVe are scored on the same pairs and
    the same answer vocabulary). Out-of-vocabulary pairs / questions are skipped.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r} ({type(name).__name__})")
    _check_vectors(vectors, "vectors")
    wordsim = _names(wordsim, "wordsim", allow_empty=True)
    analogies = check_bool(analogies, "analogies")
    if not wordsim and not analogies:
        raise ValueError(f"nothing to evaluate for {name!r}: wordsim is empty and analogies=False")
    if restrict_to is not None:
        vectors = vectors.subset(restrict_to)
    if len(vectors) == 0:
        raise ValueError(f"system {name!r} has no vectors (after restrict_to)")
    ws: dict[str, WordSimResult] = {}
    for item in wordsim:
        if not isinstance(item, (str, pd.DataFrame)):
            raise TypeError(
                f"wordsim entries must be names or DataFrames, got {type(item).__name__}"
            )
        df = _rating_set(item) if isinstance(item, str) else item
        label = item if isinstance(item, str) else str(df.attrs.get("name", f"set{len(ws)}"))
        if label in ws:
            raise ValueError(
                f"wordsim names the rating set {label!r} twice (a DataFrame is named by "
                "attrs['name']); give each set once"
            )
        ws[label] = evaluate_wordsim(vectors, df)
    an, kinds = None, None
    if analogies:
        q = _analogy_questions()
        an = evaluate_analogies(vectors, q)
        kinds = q["kind"].to_numpy(dtype=object)
    return SystemEvaluation(name, ws, an, kinds)
