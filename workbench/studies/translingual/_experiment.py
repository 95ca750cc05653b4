"""The English-Spanish Bible experiment of notebook ``07_translingual`` (Platt et al., 2010, sec. 3).

Documents are the 1,189 aligned chapters of the KJV and the Reina-Valera 1909; sentences for the
word-by-word baseline are the verses of the *training* books. Books are split by
:func:`~workbench.crosslingual.documents.split_books`; the vocabulary and idf come from the
training chapters. Every method's dimension (and gamma / number of topics) is chosen by dev MRR;
PLSA models are early-stopped on dev MRR (as in the paper); the chosen settings are reported on
test, with per-query hits and reciprocal ranks kept for significance tests.

Nothing here draws random numbers: the eigen-solvers are exact with fixed signs and the PLSA
models start from the paper's deterministic frequency-sorted initialisation (its footnote 2).
The harder verse-level evaluation (:mod:`._verses`) samples verses and is run once per seed.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

import numpy as np
import pandas as pd
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from workbench._typing import Matrix
from workbench._validation import check_int
from workbench.alignment import IBM1Model, train_ibm1
from workbench.crosslingual import (
    CLLSI,
    CPLSA,
    JPLSA,
    OPCA,
    CrossLingualCCA,
    WordByWordTranslation,
    joint_log_tf_idf,
    paired_retrieval,
)  # fmt: skip
from workbench.evaluation import AccuracyResult, RetrievalResult, knn_classify

from ._data import BibleData
from ._plsa import (
    HARD,
    PLSA_METHODS,
    PLSAFit,
    extension,
    fit_table,
    grid_end,
    plsa_tasks,
    run_plsa_tasks,
    start_plsa_tasks,
)
from ._settings import METHODS, ExperimentConfig

__all__ = [
    "FittedModel",
    "TranslingualResult",
    "run_translingual",
    "top_matches",
]

logger = logging.getLogger(__name__)


#: How document vectors are compared: cosine, or the L1 distance (PLSA topic proportions).
Metric: TypeAlias = Literal["cosine", "l1"]

#: ``represent(language, weighted_rows, count_rows)`` -> document vectors at the full dimension.
Represent: TypeAlias = Callable[[str, sp.csr_matrix, sp.csr_matrix], Matrix]


@dataclass(eq=False)
class FittedModel:
    """One fitted model of a method at one setting (gamma, number of topics), all dimensions.

    Attributes
    ----------
    method : str
    params : dict
        The setting (``gamma``, or ``topics`` and the early-stopping ``iterations``).
    dims : tuple of int or None
        Leading dimensions evaluated (``(None,)`` for methods without a dimension; the number
        of topics for PLSA).
    represent : callable
        ``represent(language, weighted_rows, count_rows)`` -> vectors of those documents.
    metric : str
        ``"cosine"`` or ``"l1"`` (PLSA topic proportions).
    fit_seconds : float
    """

    method: str
    params: dict[str, float]
    dims: tuple[int | None, ...]
    represent: Represent
    metric: Metric
    fit_seconds: float
    _chapters: dict[str, Matrix] = field(default_factory=dict, repr=False)

    @property
    def setting(self) -> str:
        """The setting as ``"key=value, ..."`` (early-stopping iterations left out)."""
        return ", ".join(f"{k}={v}" for k, v in self.params.items() if k != "iterations")

    def vectors(
        self,
        language: str,
        weighted: sp.csr_matrix,
        counts: sp.csr_matrix,
        dim: int | None = None,
    ) -> Matrix:
        """Vectors of documents given as rows of weighted and count matrices, cut to ``dim``."""
        return _cut(self.represent(language, weighted, counts), dim)

    def chapters(self, data: BibleData, language: str) -> Matrix:
        """Vectors of all chapters in ``language`` at the full dimension (computed once)."""
        if language not in self._chapters:
            self._chapters[language] = self.represent(
                language, data.weighted[language], data.counts[language]
            )
        return self._chapters[language]


def _cut(x: Matrix, dim: int | None) -> Matrix:
    """The first ``dim`` columns of ``x`` (all for ``None``)."""
    return x if dim is None else x[:, :dim]


@dataclass(eq=False)
class _Candidate:
    """A model at one dimension: what the dev sweep chooses among."""

    model: FittedModel
    dim: int | None
    data: BibleData = field(repr=False)

    @property
    def method(self) -> str:
        return self.model.method

    @property
    def params(self) -> dict[str, float]:
        return self.model.params

    @property
    def metric(self) -> Metric:
        return self.model.metric

    @property
    def fit_seconds(self) -> float:
        return self.model.fit_seconds

    def embed(self, language: str, idx: np.ndarray) -> Matrix:
        return _cut(self.model.chapters(self.data, language)[idx], self.dim)


@dataclass(eq=False)
class TranslingualResult:
    """Everything notebook 07 shows of the paper's setup (chapter-level, deterministic).

    Attributes
    ----------
    dev_curves : DataFrame
        ``method, dim, setting, top1, mrr`` on dev for every candidate.
    test_table : DataFrame
        Table 1/2 analogue: per method its dev-chosen setting and test Top-1 / MRR (both
        directions averaged and per direction) and fit time.
    test_hits, test_rr : dict method -> ndarray
        Per-query Top-1 hits and reciprocal ranks on test (en->es queries then es->en).
    classification : DataFrame
        Table 3 analogue: 1-NN division accuracy (English train-book chapters label Spanish
        test-book chapters), dimension chosen on dev books.
    class_hits : dict method -> ndarray of bool
    fit_seconds : dict method -> float
        Fit time of the chosen model (including the sweep's shared work for nested methods).
    embeddings : dict method -> (en_test, es_test, metric)
        Test-chapter vectors for the explorer widget.
    ibm1 : IBM1Model or None
    models : list of FittedModel
        Every fitted model (all settings), reused by the verse-level evaluation.
    plsa_history : DataFrame
        ``method, topics, penalty, prior, iteration, dev mrr`` of every early-stopping
        evaluation.
    plsa_fits : DataFrame
        One row per PLSA fit (:func:`._plsa.fit_table`), with its log-likelihood curve.
    plsa_grid : dict method -> list of int
        The topic numbers fitted (the initial grid and its doublings).
    plsa_grid_end : dict method -> str
        ``"turned"`` or ``"cap"`` (:func:`._plsa.grid_end`).
    plsa_topics_cap : int
        The largest number of topics the grid could reach.
    """

    data: BibleData
    config: ExperimentConfig
    dev_curves: pd.DataFrame
    test_table: pd.DataFrame
    test_hits: dict[str, np.ndarray]
    test_rr: dict[str, np.ndarray]
    classification: pd.DataFrame
    class_hits: dict[str, np.ndarray]
    fit_seconds: dict[str, float]
    embeddings: dict[str, tuple[Matrix, Matrix, Metric]]
    ibm1: IBM1Model | None = None
    candidates: list[_Candidate] = field(default_factory=list, repr=False)
    models: list[FittedModel] = field(default_factory=list, repr=False)
    plsa_history: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    plsa_fits: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    plsa_grid: dict[str, list[int]] = field(default_factory=dict)
    plsa_grid_end: dict[str, str] = field(default_factory=dict)
    plsa_topics_cap: int = 0

    def dev_mrr_by_dim(self) -> pd.DataFrame:
        """Dev MRR per dimension (rows) and method (columns) at each method's chosen setting.

        For JPLSA / CPLSA the "dimension" is the number of topics (each early-stopped on dev; the
        best fold-in prior and penalty at each).
        Methods without a dimension (Untranslated, Word-by-word) are left out: see
        :meth:`dev_mrr_flat`.
        """
        chosen = dict(zip(self.test_table["method"], self.test_table["setting"]))
        c = self.dev_curves
        keep = c["dim"].notna() & (
            c["method"].isin(["JPLSA", "CPLSA"]) | (c["setting"] == c["method"].map(chosen))
        )
        # (PLSA: the best setting -- prior, penalty -- at each number of topics)
        table = c[keep].pivot_table(index="dim", columns="method", values="mrr", aggfunc="max")
        table.index = table.index.astype(int)
        return table

    def dev_mrr_flat(self) -> dict[str, float]:
        """Dev MRR of the methods without a dimension."""
        c = self.dev_curves
        flat = c[c["dim"].isna()]
        return {str(m): float(v) for m, v in zip(flat["method"], flat["mrr"])}


def _retrieval(embed: Callable[[str, np.ndarray], Matrix], metric: Metric, langs: Sequence[str],
               idx: np.ndarray) -> RetrievalResult:  # fmt: skip
    return paired_retrieval(embed(langs[0], idx), embed(langs[1], idx), metric=metric)


def _direction_top1(r: RetrievalResult, langs: Sequence[str]) -> dict[str, float]:
    """``{"top1 en->es": ..., "top1 es->en": ...}`` of a retrieval in both directions."""
    if r.forward is None or r.backward is None:
        raise ValueError("not a retrieval in both directions (paired_retrieval)")
    return {
        f"top1 {langs[0]}->{langs[1]}": r.forward.top1,
        f"top1 {langs[1]}->{langs[0]}": r.backward.top1,
    }


def _linear_models(
    data: BibleData, cfg: ExperimentConfig, ibm1: IBM1Model | None
) -> list[FittedModel]:
    langs = data.languages
    train = data.parts["train"]
    w = data.weighted
    views = [w[lang][train] for lang in langs]
    max_dim = max(cfg.dims)
    k_lsi = min(max_dim, len(train) - 1)
    lsi_dims = tuple(d for d in cfg.dims if d <= k_lsi)
    out: list[FittedModel] = []
    methods = set(cfg.methods)

    if "Untranslated" in methods:
        out.append(FittedModel("Untranslated", {}, (None,), lambda lang, x, c: x, "cosine", 0.0))
    if "CL-LSI" in methods:
        t0 = time.perf_counter()
        joint = joint_log_tf_idf(data.space, [data.counts[lang][train] for lang in langs])
        lsi = CLLSI(k_lsi).fit([joint])
        sec = time.perf_counter() - t0
        out.append(FittedModel("CL-LSI", {}, lsi_dims, _linear(lsi.components_), "cosine", sec))
    if "OPCA" in methods:
        for g in cfg.opca_gammas:
            t0 = time.perf_counter()
            op = OPCA(max_dim, g).fit(views)
            sec = time.perf_counter() - t0
            out.append(
                FittedModel("OPCA", {"gamma": g}, cfg.dims, _linear(op.components_), "cosine", sec)
            )
    if "CCA" in methods:
        for g in cfg.cca_gammas:
            t0 = time.perf_counter()
            cca = CrossLingualCCA(max_dim, g).fit(views)
            sec = time.perf_counter() - t0
            per = dict(zip(langs, cca.view_components_))
            out.append(
                FittedModel("CCA", {"gamma": g}, cfg.dims, _per_language(per), "cosine", sec)
            )
    if ibm1 is not None and ({"Word-by-word", "Word-by-word+LSA"} & methods):
        t0 = time.perf_counter()
        wbw = WordByWordTranslation(ibm1, data.space, langs[1], langs[0])
        sec = time.perf_counter() - t0
        source = langs[1]

        def translate(lang: str, x: sp.csr_matrix, c: sp.csr_matrix) -> Matrix:
            return wbw.transform(x) if lang == source else x

        if "Word-by-word" in methods:
            out.append(FittedModel("Word-by-word", {}, (None,), translate, "cosine", sec))
        if "Word-by-word+LSA" in methods:
            t1 = time.perf_counter()
            mono = CLLSI(k_lsi).fit([w[langs[0]][train]])
            # (x P) C = x (P C): translate-then-project as one projection of the source language
            comps = {langs[0]: mono.components_,
                     source: np.asarray(wbw.matrix_ @ mono.components_)}  # fmt: skip
            sec2 = sec + time.perf_counter() - t1
            out.append(
                FittedModel("Word-by-word+LSA", {}, lsi_dims, _per_language(comps), "cosine", sec2)
            )
    return out


def _linear(comps: np.ndarray) -> Represent:
    return lambda lang, x, c: np.asarray(x @ comps)


def _per_language(comps: dict[str, np.ndarray]) -> Represent:
    return lambda lang, x, c: np.asarray(x @ comps[lang])


def _plsa_models(res: PLSAFit) -> list[FittedModel]:
    """One model per fold-in prior of a fit: the topics of that prior's best dev iteration."""
    out = []
    for prior, (_, iteration, phi) in res.best.items():
        snapshot = copy.copy(res.template)
        snapshot.topic_word_ = phi
        snapshot.n_features_in_ = phi.shape[1]
        snapshot.fold_in_prior = prior
        params: dict[str, float] = {"topics": res.topics, "prior": prior}
        if res.name == "CPLSA":
            params["penalty"] = res.penalty
        params["iterations"] = iteration
        out.append(FittedModel(res.name, params, (res.topics,), _fold_in(snapshot), "l1",
                               res.seconds))  # fmt: skip
    return out


def _fold_in(model: JPLSA | CPLSA) -> Represent:
    return lambda lang, x, c: model.transform(c)


def _setting(c: _Candidate) -> str:
    return ", ".join(f"{k}={v}" for k, v in c.params.items())


def run_translingual(
    data: BibleData, config: ExperimentConfig | None = None, *, n_jobs: int = 1
) -> TranslingualResult:
    """Run every method: dev sweep, test retrieval (Table 1/2), classification (Table 3).

    Parameters
    ----------
    data : BibleData
    config : ExperimentConfig, optional
    n_jobs : int, default 1
        Worker processes for the PLSA fits (joblib); the linear models and IBM Model 1 are
        fitted in this process meanwhile. The results do not depend on ``n_jobs``.
    """
    cfg = ExperimentConfig() if config is None else config
    if not isinstance(cfg, ExperimentConfig):
        raise TypeError(f"config must be an ExperimentConfig or None, got {type(cfg).__name__}")
    unknown = set(cfg.methods) - set(METHODS)
    if unknown:
        raise ValueError(f"unknown methods {sorted(unknown)}; choose from {list(METHODS)}")
    n_jobs = check_int(n_jobs, "n_jobs", low=1)
    cfg = _fit_dims(cfg, data)
    # one BLAS thread in this process: the PLSA workers use the other core(s), and more threads
    # than free cores make the dense eigen-solvers several times slower
    with threadpool_limits(1):
        return _run(data, cfg, n_jobs)


def _fit_dims(cfg: ExperimentConfig, data: BibleData) -> ExperimentConfig:
    """``cfg`` with the dimensions and topic numbers a small corpus supports: below the number
    of training chapters (a user's few documents; the Bible's are far more than any setting),
    or that number minus one when none is (logged)."""
    n = len(data.parts["train"])
    cap = max(1, n - 1)
    dims = tuple(d for d in cfg.dims if d <= cap) or (cap,)
    topics = tuple(t for t in cfg.topics if t <= cap) or (cap,)
    if dims == tuple(cfg.dims) and topics == tuple(cfg.topics):
        return cfg
    logger.warning("%d training documents: dimensions %s -> %s, topics %s -> %s", n, cfg.dims,
                   dims, cfg.topics, topics)  # fmt: skip
    return replace(cfg, dims=dims, topics=topics)


def _run(data: BibleData, cfg: ExperimentConfig, n_jobs: int) -> TranslingualResult:
    langs = data.languages
    dev, test, train = data.parts["dev"], data.parts["test"], data.parts["train"]

    grid = {name: list(cfg.topics) for name in PLSA_METHODS if name in cfg.methods}
    pending = start_plsa_tasks(plsa_tasks(data, cfg, grid), n_jobs)

    ibm1 = None
    ibm1_sec = 0.0
    if {"Word-by-word", "Word-by-word+LSA"} & set(cfg.methods):
        t0 = time.perf_counter()
        # source = the second language (Spanish): t(English word | Spanish word)
        ibm1 = train_ibm1(
            data.verse_tokens[langs[1]], data.verse_tokens[langs[0]], n_iter=cfg.ibm1_iter
        )
        ibm1_sec = time.perf_counter() - t0
    models = _linear_models(data, cfg, ibm1)
    for m in models:
        if m.method.startswith("Word-by-word"):
            m.fit_seconds += ibm1_sec
    fits = list(pending)
    cap = min(cfg.topics_cap, max(1, len(train) - 1))
    while more := extension(fits, cap):  # double the grid's top while the best is there
        for name, ts in more.items():
            grid[name] += ts
        fits += run_plsa_tasks(plsa_tasks(data, cfg, more), n_jobs)
    penalty_order = {p: i for i, p in enumerate(cfg.cplsa_penalties)}
    fits.sort(key=lambda f: (PLSA_METHODS.index(f.name), f.topics,
                             penalty_order.get(None if f.penalty == HARD else f.penalty, 0)))  # fmt: skip
    for f in fits:
        models += _plsa_models(f)
    history = pd.DataFrame(
        [{"method": f.name, "topics": f.topics, "penalty": f.penalty, "prior": prior,
          "iteration": it, "dev mrr": v} for f in fits for it, prior, v in f.history],
        columns=["method", "topics", "penalty", "prior", "iteration", "dev mrr"],
    )  # fmt: skip

    candidates = [_Candidate(m, d, data) for m in models for d in m.dims]
    rows = []
    dev_mrr: list[float] = []
    for c in candidates:
        r = _retrieval(c.embed, c.metric, langs, dev)
        dev_mrr.append(r.mrr)
        rows.append(
            {
                "method": c.method,
                "dim": c.dim,
                "setting": _setting(c),
                "top1": r.top1,
                "mrr": r.mrr,
            }
        )
    curves = pd.DataFrame(rows)
    curves["dim"] = curves["dim"].astype("Float64")

    # choose per method: best dev MRR (ties: first = smaller dimension / earlier setting)
    chosen: dict[str, int] = {}
    for i, c in enumerate(candidates):
        cur = chosen.get(c.method)
        if cur is None or dev_mrr[i] > dev_mrr[cur]:
            chosen[c.method] = i

    test_rows = []
    hits: dict[str, np.ndarray] = {}
    rr: dict[str, np.ndarray] = {}
    fit_seconds: dict[str, float] = {}
    embeddings: dict[str, tuple[Matrix, Matrix, Metric]] = {}
    for method in METHODS:
        if method not in chosen:
            continue
        c = candidates[chosen[method]]
        r = _retrieval(c.embed, c.metric, langs, test)
        hits[method] = np.asarray(r.hits)
        rr[method] = np.asarray(r.reciprocal_ranks)
        fit_seconds[method] = c.fit_seconds
        embeddings[method] = (c.embed(langs[0], test), c.embed(langs[1], test), c.metric)
        test_rows.append(
            {
                "method": method,
                "dim": "N/A" if c.dim is None else str(c.dim),
                "setting": _setting(c),
                "top1": r.top1,
                "mrr": r.mrr,
                **_direction_top1(r, langs),
                "fit seconds": c.fit_seconds,
            }
        )
    test_table = pd.DataFrame(test_rows).sort_values("mrr", ascending=False, kind="stable")
    test_table = test_table.reset_index(drop=True)

    # Table 3: English chapters of training books label Spanish chapters of other books
    labels = data.divisions

    def classify(c: _Candidate, part: np.ndarray) -> AccuracyResult:
        """1-NN: the English training chapters label the Spanish chapters of ``part``."""
        return knn_classify(c.embed(langs[0], train), labels[train], c.embed(langs[1], part),
                            labels[part], metric=c.metric)  # fmt: skip

    class_rows = []
    class_hits: dict[str, np.ndarray] = {}
    by_method: dict[str, list[_Candidate]] = {}
    for c in candidates:
        same = c.method in chosen and c.params == candidates[chosen[c.method]].params
        if same or c.method in ("JPLSA", "CPLSA"):
            by_method.setdefault(c.method, []).append(c)
    for method in METHODS if data.labelled else ():  # no division labels: no Table 3
        if method not in by_method:
            continue
        best_c, best_acc = None, -1.0
        for c in by_method[method]:
            acc = classify(c, dev).accuracy
            if acc > best_acc:
                best_c, best_acc = c, acc
        assert best_c is not None
        res = classify(best_c, test)
        class_hits[method] = np.asarray(res.hits)
        class_rows.append(
            {
                "method": method,
                "dim": "N/A" if best_c.dim is None else str(best_c.dim),
                "setting": _setting(best_c),
                "dev accuracy": best_acc,
                "test accuracy": res.accuracy,
            }
        )
    classification = (
        pd.DataFrame(
            class_rows, columns=["method", "dim", "setting", "dev accuracy", "test accuracy"]
        )  # fmt: skip
        .sort_values("test accuracy", ascending=False, kind="stable")
        .reset_index(drop=True)
    )
    return TranslingualResult(
        data=data,
        config=cfg,
        dev_curves=curves,
        test_table=test_table,
        test_hits=hits,
        test_rr=rr,
        classification=classification,
        class_hits=class_hits,
        fit_seconds=fit_seconds,
        embeddings=embeddings,
        ibm1=ibm1,
        candidates=candidates,
        models=models,
        plsa_history=history,
        plsa_fits=fit_table(fits),
        plsa_grid={k: sorted(v) for k, v in grid.items()},
        plsa_grid_end=grid_end(fits, cap),
        plsa_topics_cap=int(cap),
    )


def _scores(query: Matrix, targets: Matrix, metric: Metric) -> np.ndarray:
    """Similarity of one query row to every target row (cosine, or negative L1 distance)."""
    q = np.asarray(query, dtype=float) if isinstance(query, np.ndarray) else query.toarray()
    t = np.asarray(targets, dtype=float) if isinstance(targets, np.ndarray) else targets.toarray()
    q = q.reshape(1, -1)
    if metric == "l1":
        return -np.abs(t - q).sum(axis=1)
    qn = np.linalg.norm(q)
    tn = np.linalg.norm(t, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = (t @ q.ravel()) / (tn * qn)
    return np.nan_to_num(s, nan=-np.inf)


def top_matches(
    result: TranslingualResult, chapter: tuple[str, int], *, topn: int = 5
) -> pd.DataFrame:
    """Top Spanish test chapters for an English test chapter under every method.

    Parameters
    ----------
    result : TranslingualResult
        From :func:`workbench.studies.translingual.run_translingual`.
    chapter : (book, chapter)
        An English chapter of the *test* books.
    topn : int

    Returns
    -------
    DataFrame
        Rows ``rank 1..topn``, one column per method with ``"Book ch (score)"`` strings; a ``*``
        marks the true translation. Scores are cosine similarities, or minus the L1 distance for
        the PLSA models.
    """
    topn = check_int(topn, "topn", low=1)
    data = result.data
    test = data.parts["test"]
    ids = [data.ids[i] for i in test]
    key = (str(chapter[0]), int(chapter[1]))
    if key not in ids:
        raise KeyError(f"chapter {chapter!r} is not a test chapter (test books: {data.split.test})")
    pos = ids.index(key)
    cols: dict[str, list[str]] = {}
    for method, (en, es, metric) in result.embeddings.items():
        s = _scores(en[pos], es, metric)
        order = np.argsort(-s, kind="stable")[:topn]
        cols[method] = [
            f"{'*' if j == pos else ''}{ids[j][0]} {ids[j][1]} ({s[j]:.3f})" for j in order
        ]
    return pd.DataFrame(cols, index=pd.RangeIndex(1, topn + 1, name="rank"))
