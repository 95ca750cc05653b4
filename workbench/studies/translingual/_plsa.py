"""The PLSA models of notebook 07: fits with early stopping, fold-in priors, penalties, topic grid.

Every JPLSA / CPLSA fit (one number of topics, and for CPLSA one slack penalty) runs EM up to its
cap or its relative tolerance; every ``eval_every`` iterations, and at the end, the dev chapters
are folded in with each fold-in prior of the settings and retrieved (dev MRR). Each prior keeps the
topics of its best dev iteration, so one fit gives one model per prior. The topic grid starts at
``topics`` and is extended by doubling its largest number while a method's best dev MRR (over its
priors and penalties; ties go to the smaller number) is at the grid's top; a doubling that would
pass ``topics_cap`` fits the cap itself, so the grid ends where the dev curve turns or at the cap.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed

from workbench._io import Cache, cache_root, content_hash
from workbench.crosslingual import CPLSA, JPLSA, paired_retrieval

from ._data import BibleData
from ._settings import ExperimentConfig

__all__ = ["HARD", "PLSA_METHODS", "PLSAFit", "grid_end", "extension", "fit_table", "plsa_tasks",
           "run_plsa_tasks", "start_plsa_tasks"]  # fmt: skip

#: The disk cache of the PLSA fits, by content: (namespace, version of what its entries hold).
FIT_CACHE = ("translingual/plsa", 2)

#: The topic models, in the order of the tables.
PLSA_METHODS = ("JPLSA", "CPLSA")

#: What a penalty of None (the hard constraint) is shown as in settings and tables.
HARD = math.inf


@dataclass(eq=False)
class PLSAFit:
    """One PLSA fit: per fold-in prior, the topics of its best dev iteration.

    Attributes
    ----------
    name : str
    topics : int
    penalty : float
        CPLSA's slack penalty (``inf``: the hard constraint; NaN for JPLSA).
    best : dict prior -> (dev mrr, iteration, topic-word matrix)
    seconds : float
        The whole EM run with its dev evaluations.
    history : list of (iteration, prior, dev mrr)
    iterations : int
        EM iterations run.
    stop : str
        ``"converged"`` (relative tolerance reached) or ``"cap"``.
    log_likelihood : list of float
        The training log-likelihood before every iteration and after the last.
    template : JPLSA or CPLSA
        The unfitted estimator (its parameters).
    """

    name: str
    topics: int
    penalty: float
    best: dict[float, tuple[float, int, np.ndarray]]
    seconds: float
    history: list[tuple[int, float, float]]
    iterations: int
    stop: str
    log_likelihood: list[float]
    template: JPLSA | CPLSA = field(repr=False)

    @property
    def dev_mrr(self) -> float:
        """The best dev MRR over the priors."""
        return max(v[0] for v in self.best.values())

    @property
    def prior(self) -> float:
        """The prior of the best dev MRR (ties: the first prior of the settings)."""
        return max(self.best, key=lambda p: self.best[p][0])


#: A PLSA task: method, number of topics, penalty, training and dev count matrices, settings.
_Task: TypeAlias = tuple[
    str, int, float | None, list[sp.csr_matrix], list[sp.csr_matrix], ExperimentConfig
]

_Model = TypeVar("_Model", JPLSA, CPLSA)


def _model(name: str, n_topics: int, penalty: float | None, cfg: ExperimentConfig
           ) -> JPLSA | CPLSA:  # fmt: skip
    """The unfitted estimator of a task."""
    if name == "JPLSA":
        return JPLSA(n_topics, n_iter=cfg.jplsa_iter, tol=cfg.plsa_tol)
    return CPLSA(n_topics, n_iter=cfg.cplsa_iter, n_projection_steps=cfg.projection_steps,
                 epsilon_penalty=penalty, tol=cfg.plsa_tol)  # fmt: skip


def fit_inputs(name: str, n_topics: int, penalty: float | None, views: list[sp.csr_matrix],
               dev_views: list[sp.csr_matrix], cfg: ExperimentConfig) -> dict[str, object]:  # fmt: skip
    """What a fit depends on, as the key of its entry in :data:`FIT_CACHE`: the estimator's
    parameters, the content of the training and dev count matrices, and the dev evaluation's
    schedule and fold-in priors."""
    params = _model(name, n_topics, penalty, cfg).get_params()
    return {"method": name, "params": params,
            "views": content_hash(*views), "dev": content_hash(*dev_views),
            "eval_every": cfg.eval_every, "fold_in_priors": [float(p) for p in cfg.fold_in_priors]}  # fmt: skip


def _fit_task(
    name: str,
    n_topics: int,
    penalty: float | None,
    views: list[sp.csr_matrix],
    dev_views: list[sp.csr_matrix],
    cfg: ExperimentConfig,
    cache: bool = True,
    root: str | None = None,
) -> PLSAFit:
    """One PLSA fit (:func:`_fit`), from the disk cache :data:`FIT_CACHE` under the cache root
    ``root`` (default: :func:`~workbench._io.cache_root`) when the same fit was made before
    (``cache``); run in a worker process, which is given the root of the process that
    started it."""
    if not cache:
        return _fit(name, n_topics, penalty, views, dev_views, cfg)
    made: list[PLSAFit] = []

    def build() -> tuple[dict[str, np.ndarray], dict[str, object]]:
        fit = _fit(name, n_topics, penalty, views, dev_views, cfg)
        made.append(fit)
        priors = list(fit.best)
        # priors whose best iteration is the same share that iteration's topics: one array each
        its = sorted({int(fit.best[p][1]) for p in priors})
        arrays = {f"topic_word_it{it}": next(fit.best[p][2] for p in priors
                                             if int(fit.best[p][1]) == it) for it in its}  # fmt: skip
        meta = {"priors": [float(p) for p in priors],
                "best": [[float(fit.best[p][0]), int(fit.best[p][1])] for p in priors],
                "seconds": fit.seconds, "history": [list(h) for h in fit.history],
                "iterations": fit.iterations, "stop": fit.stop,
                "log_likelihood": fit.log_likelihood}  # fmt: skip
        return arrays, meta

    entry = Cache(FIT_CACHE[0], version=FIT_CACHE[1], root=root).get_or_build(
        fit_inputs(name, n_topics, penalty, views, dev_views, cfg), build)
    if made:
        return made[0]
    meta, arrays = entry.meta, entry.arrays
    topics = {int(b[1]): np.asarray(arrays[f"topic_word_it{int(b[1])}"]) for b in meta["best"]}
    best = {float(p): (float(b[0]), int(b[1]), topics[int(b[1])])
            for p, b in zip(meta["priors"], meta["best"])}  # fmt: skip
    pen = math.nan if name == "JPLSA" else HARD if penalty is None else float(penalty)
    return PLSAFit(name, n_topics, pen, best, float(meta["seconds"]),
                   [(int(i), float(p), float(m)) for i, p, m in meta["history"]],
                   int(meta["iterations"]), str(meta["stop"]),
                   [float(v) for v in meta["log_likelihood"]],
                   _unfitted(_model(name, n_topics, penalty, cfg)))  # fmt: skip


def _fit(
    name: str,
    n_topics: int,
    penalty: float | None,
    views: list[sp.csr_matrix],
    dev_views: list[sp.csr_matrix],
    cfg: ExperimentConfig,
) -> PLSAFit:
    """Fit one PLSA model, evaluating every fold-in prior on dev."""
    model = _model(name, n_topics, penalty, cfg)
    best: dict[float, tuple[float, int, np.ndarray]] = {}
    history: list[tuple[int, float, float]] = []

    def evaluate(it: int) -> None:
        topics = None  # this iteration's topics, copied once for every prior they are best for
        for prior in cfg.fold_in_priors:
            model.fold_in_prior = prior
            a, b = (model.transform(v) for v in dev_views)
            mrr = paired_retrieval(a, b, metric="l1").mrr
            history.append((it, float(prior), mrr))
            if prior not in best or mrr > best[prior][0]:
                topics = model.topic_word_.copy() if topics is None else topics
                best[prior] = (mrr, it, topics)
        model.fold_in_prior = None

    def callback(it: int, _: object) -> bool:
        # (called by model.fit with the model itself)
        if it % cfg.eval_every == 0 or it == model.n_iter:
            evaluate(it)
        return False

    t0 = time.perf_counter()
    model.fit(views, callback=callback)
    if not history or history[-1][0] != model.n_iter_:  # converged between two evaluations
        evaluate(model.n_iter_)
    sec = time.perf_counter() - t0
    pen = math.nan if name == "JPLSA" else HARD if penalty is None else float(penalty)
    return PLSAFit(name, n_topics, pen, best, sec, history, int(model.n_iter_),
                   str(model.stop_reason_), [float(v) for v in model.log_likelihood_],
                   _unfitted(model))  # fmt: skip


def _unfitted(model: _Model) -> _Model:
    t = copy.copy(model)
    for attr in ("topic_word_", "doc_topic_", "objective_", "constraint_violation_",
                 "log_likelihood_", "n_iter_", "stop_reason_", "converged_"):  # fmt: skip
        t.__dict__.pop(attr, None)
    return t


def plsa_tasks(
    data: BibleData, cfg: ExperimentConfig, topics: Mapping[str, Sequence[int]]
) -> list[_Task]:
    """The fits of ``topics`` (method -> topic numbers): one per penalty for CPLSA, the largest
    first (so that two workers finish at about the same time)."""
    langs = data.languages
    train, dev = data.parts["train"], data.parts["dev"]
    views = [data.counts[lang][train] for lang in langs]
    dev_views = [data.counts[lang][dev] for lang in langs]
    tasks: list[_Task] = []
    for name in PLSA_METHODS:
        penalties: Sequence[float | None] = (None,) if name == "JPLSA" else cfg.cplsa_penalties
        tasks += [
            (name, t, p, views, dev_views, cfg) for t in topics.get(name, ()) for p in penalties
        ]
    cost = {"JPLSA": cfg.jplsa_iter, "CPLSA": 6 * cfg.cplsa_iter}
    return sorted(tasks, key=lambda t: -cost[t[0]] * t[1])


def start_plsa_tasks(tasks: list[_Task], n_jobs: int) -> Iterable[PLSAFit]:
    """The fits of ``tasks`` in ``n_jobs`` worker processes, as a generator (started now)."""
    if not tasks:
        return []
    runner = Parallel(n_jobs=min(n_jobs, len(tasks)), return_as="generator")
    root = str(cache_root())  # this process's cache root (a reused worker may have another)
    return runner(delayed(_fit_task)(*t, root=root) for t in tasks)


def run_plsa_tasks(tasks: list[_Task], n_jobs: int) -> list[PLSAFit]:
    """The fits of ``tasks`` (in worker processes for ``n_jobs > 1``)."""
    return list(start_plsa_tasks(tasks, n_jobs))


def _best_topics(fits: Sequence[PLSAFit], name: str) -> tuple[int, int] | None:
    """(topics of the best dev MRR -- ties: the smaller number --, largest topics fitted)."""
    own = [f for f in fits if f.name == name]
    if not own:
        return None
    by_topics: dict[int, float] = {}
    for f in own:
        by_topics[f.topics] = max(by_topics.get(f.topics, -1.0), f.dev_mrr)
    top = max(by_topics)
    best = min(by_topics, key=lambda t: (-by_topics[t], t))
    return best, top


def extension(fits: Sequence[PLSAFit], cap: int) -> dict[str, list[int]]:
    """The grid-extension rule: per method whose best dev MRR (over its fits at each number of
    topics; ties: the smaller number) is at the largest number fitted, that number doubled, or
    ``cap`` when doubling would pass it (nothing once the cap was fitted)."""
    out: dict[str, list[int]] = {}
    for name in PLSA_METHODS:
        bt = _best_topics(fits, name)
        if bt is not None and bt[0] == bt[1] and bt[1] < cap:
            out[name] = [min(2 * bt[1], cap)]
    return out


def grid_end(fits: Sequence[PLSAFit], cap: int) -> dict[str, str]:
    """Why each method's topic grid ended: ``"turned"`` (the best dev MRR is below the grid's
    top) or ``"cap"`` (the best is at the top, which is ``cap`` after :func:`extension`)."""
    out = {}
    for name in PLSA_METHODS:
        bt = _best_topics(fits, name)
        if bt is not None:
            out[name] = "turned" if bt[0] < bt[1] else "cap"
    return out


def fit_table(fits: Sequence[PLSAFit]) -> pd.DataFrame:
    """One row per fit: ``method, topics, penalty, iterations, stop, seconds, prior, iteration,
    dev mrr`` (the best prior and its iteration) and ``log likelihood`` (a list)."""
    rows = [{"method": f.name, "topics": f.topics, "penalty": f.penalty,
             "iterations": f.iterations, "stop": f.stop, "seconds": f.seconds,
             "prior": f.prior, "iteration": f.best[f.prior][1], "dev mrr": f.dev_mrr,
             "log likelihood": f.log_likelihood} for f in fits]  # fmt: skip
    columns = ["method", "topics", "penalty", "iterations", "stop", "seconds", "prior",
               "iteration", "dev mrr", "log likelihood"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)
