"""One MVLSA system: fitting it on a view set and evaluating its vectors."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from workbench.embeddings import WordVectors
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.gcca import MVLSA
from workbench.studies.mvlsa._settings import (
    MVLSAConfig,
    check_instance,
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
    check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
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
