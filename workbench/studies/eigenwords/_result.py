r"""The frozen result of notebook 06 and its records: :func:`run_prior` and :class:`PriorResult`.

:func:`run_prior` runs :func:`~._run.run_prior_study`, the Table 1 tests of every seed
(:func:`~._tables.study_tables`) and the Table 2 tests (:func:`~._tables.graph_only_tests`), and
returns a :class:`PriorResult`; its :meth:`PriorResult.records` (a :class:`PriorRecords`) is the
one definition of every record key of the notebook (``record_all(result)``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench._typing import Matrix
from workbench.baselines import glove_stopping
from workbench.eigenwords import CooccurrenceCounts
from workbench.lexicons import LexiconGraph
from workbench.views import EncodedCorpus

from ._run import PriorStudy, run_prior_study
from ._settings import PriorSettings
from ._sweeps import SweepRecords, Sweeps, run_sweeps
from ._tables import (
    graph_only_tests,
    per_set_display,
    prior_gains,
    prior_records,
    study_tables,
    table1_display,
    table2_matched,
)

__all__ = ["PriorRecords", "PriorResult", "run_prior"]


class GeoQuestions(TypedDict):
    total: int
    answerable: int


class BestCCAPrior(TypedDict):
    lexicon: str
    alpha: float
    avg: float


class GeoEntry(TypedDict):
    accuracy: float
    p: float | None
    q: float | None
    significant: bool


class DataRecords(TypedDict, total=False):
    """The record naming the data of a run (absent from records older than the data fields)."""

    #: the data fields of the run (:meth:`workbench.studies.data.DataChoice.describe`) and the
    #: rating sets (``wordsim_sets``) and lexicons (``lexicons_used``) used
    data: dict[str, Any]


class GloveStop(TypedDict):
    tol: float | None
    epochs: int
    stopped_by: dict[str, str]


def glove_stop_record(loss: Mapping[Any, Sequence[float] | np.ndarray],
                      glove: Mapping[str, Any]) -> GloveStop:
    """GloVe's stopping rule of the settings ``glove`` (``tol``, default None; ``epochs``,
    default the longest history) and, per seed of the loss histories ``loss``, what ended the
    fit (:func:`workbench.baselines.glove_stopping`)."""
    rule = {"epochs": max(map(len, loss.values()), default=1), **glove}
    tol = rule.get("tol")
    return GloveStop(
        tol=None if tol is None else float(tol), epochs=int(rule["epochs"]),
        stopped_by={str(seed): glove_stopping(history, rule).stopped_by
                    for seed, history in loss.items()},
    )  # fmt: skip


class Table2Matched(TypedDict):
    sets: int
    pairs: int
    eigen: float | None
    graph: float | None
    graph_rf: float | None


class SweepPart(TypedDict, total=False):
    """The sweep records (absent when the sweeps were not run)."""

    #: the dimension and data-size sweeps (:func:`~._sweeps.sweep_tests`)
    sweep: SweepRecords


class PriorRecords(DataRecords, SweepPart, total=True):
    """The records of notebook 06 (JSON values; per-seed values are lists in seed order; keys of
    CCAPrior rows are ``"<lexicon> <alpha>"``, of the others ``"<method> <lexicon>"``)."""

    data_size: str
    seeds: list[int]
    n_tokens: int
    n_words: int
    dim: int
    alphas: list[float]
    graph_edges: dict[str, int]
    eigen_avg_spearman: float
    eigen_avg_by_start: dict[str, float]
    eigen_geo_accuracy: float
    geo_questions: GeoQuestions
    n_sets_in_average: int
    ccaprior_avg_spearman: dict[str, float]
    #: rating sets where the configuration is significantly above / below Eigen after Holm over
    #: the seed-independent family (``n_tests["spectral"]`` tests)
    ccaprior_sets_better: dict[str, int]
    ccaprior_sets_worse: dict[str, int]
    ccaprior_rf_avg_spearman: dict[str, float]
    ccaprior_rf_sets_better: dict[str, int]
    eigen_rf_avg_spearman: dict[str, float]
    eigen_rf_sets_better: dict[str, int]
    spectral_geo: dict[str, GeoEntry]
    best_ccaprior: BestCCAPrior
    n_tests: dict[str, int]
    baseline_avg_spearman: dict[str, list[float]]
    baseline_geo_accuracy: dict[str, list[float]]
    #: per seed, after Holm over the seed's trained-baseline family
    baseline_sets_better: dict[str, list[int]]
    baseline_sets_worse: dict[str, list[int]]
    baseline_geo_significant: dict[str, list[bool]]
    glove_loss: dict[str, list[float]]
    #: GloVe's stopping rule (``tol``: the relative fall of the loss in an epoch below which
    #: the fit stops, None: none; ``epochs``: the cap) and, per seed, what stopped it
    #: (``"tolerance"`` or ``"epochs"``, :func:`workbench.baselines.glove_stop`)
    glove_stop: GloveStop
    table2_avg_spearman: dict[str, float]
    table2_rf_avg_spearman: dict[str, float]
    table2_coverage: dict[str, float]
    table2_sets: dict[str, int]
    #: Eigen's average Spearman on the pairs each graph-only embedding scores (same sets)
    table2_eigen_matched_avg_spearman: dict[str, float | None]
    #: rating sets where the graph-only embedding is significantly above / below Eigen on the
    #: matched pairs, after Holm over the Table 2 family (``table2_n_tests`` tests)
    table2_sets_better: dict[str, int]
    table2_sets_worse: dict[str, int]
    table2_sets_tested: dict[str, int]
    table2_n_tests: int
    #: per lexicon, Table 2 on matched pairs: Eigen, the graph-only embedding and the
    #: retrofitted graph-only embedding averaged over the same sets, each on the same pairs
    #: (the number of sets and the pairs summed over them)
    table2_matched: dict[str, Table2Matched]
    #: tokens per chunk of the prior counts (None: whole documents)
    prior_chunk_length: int | None
    seconds: dict[str, Any]


@dataclass(frozen=True, eq=False)
class PriorResult:
    """Everything notebook 06 shows and records.

    Attributes
    ----------
    data_size : str
    seeds : list of int
    n_tokens, n_words, dim : int
    alphas : tuple of float
    graph_edges : dict
        ``{lexicon: edges}``.
    n_questions : int
        Geographic questions asked.
    study : PriorStudy
        The scores (:func:`~workbench.studies.eigenwords.run_prior_study`).
    tables : dict
        ``{seed: table}`` of :func:`~workbench.studies.eigenwords.study_tables`.
    table2_tests : DataFrame
        :func:`~workbench.studies.eigenwords.graph_only_tests`.
    seconds : dict
        ``setup``, ``study`` (wall time) and ``total``.
    data : dict
        :meth:`~workbench.studies.data.DataChoice.describe` of the settings' data, with the
        rating sets (``wordsim_sets``) and lexicons (``lexicons_used``) of the run.
    sweeps : Sweeps or None
        The dimension and data-size sweeps (:func:`~workbench.studies.eigenwords.run_sweeps`).
    chunk_length : int or None
        Tokens per chunk of the prior counts (``settings.chunk_length``).
    glove : dict
        GloVe's settings (``settings.glove``: its ``epochs`` cap and ``tol``).
    """

    data_size: str
    seeds: list[int]
    n_tokens: int
    n_words: int
    dim: int
    alphas: tuple[float, ...]
    graph_edges: dict[str, int]
    n_questions: int
    study: PriorStudy
    tables: dict[int, pd.DataFrame]
    table2_tests: pd.DataFrame
    names: tuple[str, ...] = ()
    p0: float = 0.05
    seconds: dict[str, float] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    sweeps: Sweeps | None = None
    chunk_length: int | None = 13
    glove: dict[str, Any] = field(default_factory=dict)

    def table1(self) -> pd.DataFrame:
        """The Table 1 analogue (:func:`~workbench.studies.eigenwords.table1_display`)."""
        return table1_display(self.tables, self.names, p0=self.p0)

    def per_set(self) -> pd.DataFrame:
        """Spearman of every embedding on every set (:func:`per_set_display`)."""
        return per_set_display(self.tables, self.names)

    def gains(self, paper: pd.DataFrame | None = None) -> pd.DataFrame:
        """Gains over Eigen (:func:`~workbench.studies.eigenwords.prior_gains`, first seed)."""
        return prior_gains(self.tables[self.seeds[0]], paper)

    def table2(self) -> pd.DataFrame:
        """Table 2 on matched pairs (:func:`~workbench.studies.eigenwords.table2_matched`):
        per lexicon the sets and pairs, and Eigen, the graph-only embedding and the retrofitted
        graph-only embedding on those same pairs."""
        return table2_matched(self.table2_tests, [str(k) for k in self.study.graph_only.index])

    def sweep_table(self) -> pd.DataFrame:
        """The sweeps' average Spearman x 100 on matched pairs (data sizes x dimensions)."""
        if self.sweeps is None:
            raise ValueError("this result has no sweeps (run_prior(..., sweeps=True))")
        return self.sweeps.table()

    def records(self) -> PriorRecords:
        """The records of notebook 06: the one definition of every key (see
        :class:`PriorRecords`)."""
        rec = prior_records(self.study, self.tables, n_questions=self.n_questions,
                            table2_tests=self.table2_tests)  # fmt: skip
        jobs = {str(k): float(v) for k, v in self.study.seconds.items()}
        out: dict[str, Any] = {
            "data_size": str(self.data_size),
            "seeds": [int(s) for s in self.seeds],
            "n_tokens": int(self.n_tokens),
            "n_words": int(self.n_words),
            "dim": int(self.dim),
            "alphas": [float(a) for a in self.alphas],
            "graph_edges": {str(k): int(v) for k, v in self.graph_edges.items()},
            **rec,
            "seconds": {**{k: float(v) for k, v in self.seconds.items()}, "jobs": jobs},
        }
        out["prior_chunk_length"] = None if self.chunk_length is None else int(self.chunk_length)
        out["glove_stop"] = glove_stop_record(self.study.glove_loss, self.glove)
        if self.sweeps is not None:
            out["sweep"] = self.sweeps.records
        if self.data:
            out["data"] = dict(self.data)
        return PriorRecords(**out)  # type: ignore[typeddict-item]


def run_prior(
    settings: PriorSettings,
    seeds: Sequence[int],
    *,
    encoded: EncodedCorpus,
    words: Sequence[str],
    counts: CooccurrenceCounts,
    prior: Mapping[str, sp.csr_matrix],
    graphs: Mapping[str, LexiconGraph],
    cooc: Matrix,
    questions: pd.DataFrame,
    keep_vectors: bool = False,
    setup_seconds: float = 0.0,
    sweeps: bool = True,
) -> PriorResult:
    """Notebook 06's study at ``settings``: :func:`run_prior_study` with the settings' alphas,
    dimension, trainers, rating sets and workers, the Table 1 tests of every seed
    (:func:`study_tables`) and the Table 2 tests (:func:`graph_only_tests`).

    ``setup_seconds`` (the notebook's time for the corpus, graphs and counts) is recorded with
    the study's own wall time. ``sweeps``: also run the dimension and data-size sweeps
    (:func:`run_sweeps`, timed as ``seconds["sweeps"]``).
    """
    if not isinstance(settings, PriorSettings):
        raise TypeError(
            "settings must be a PriorSettings (workbench.studies.eigenwords.settings(size)), "
            f"got {type(settings).__name__}"
        )
    t0 = time.perf_counter()
    study = run_prior_study(
        encoded=encoded, words=words, counts=counts, prior=prior, graphs=graphs, cooc=cooc,
        alphas=settings.alphas, dim=settings.dim, seeds=seeds, word2vec=settings.word2vec,
        glove=settings.glove, questions=questions, names=settings.wordsim,
        min_pairs=settings.min_pairs, n_jobs=settings.n_jobs, keep_vectors=keep_vectors,
    )  # fmt: skip
    names = tuple(settings.wordsim)
    tables = study_tables(study, names, min_pairs=settings.min_pairs, p0=settings.p0)
    t2 = graph_only_tests(study, names, min_pairs=settings.min_pairs, p0=settings.p0)
    t_study = time.perf_counter() - t0
    sw = None
    t_sweeps = 0.0
    if sweeps:
        t1 = time.perf_counter()
        sw = run_sweeps(settings, encoded=encoded, words=words, counts=counts,
                        random_state=study.seeds[0])  # fmt: skip
        _ = sw.records  # the matched-pair averages and the tests, computed once
        t_sweeps = time.perf_counter() - t1
    setup = float(setup_seconds)
    return PriorResult(
        data_size=settings.size, seeds=study.seeds, n_tokens=int(encoded.ids.size),
        n_words=len(list(words)), dim=int(settings.dim), alphas=tuple(settings.alphas),
        graph_edges={str(k): int(g.n_edges) for k, g in graphs.items()},
        n_questions=len(questions), study=study, tables=tables, table2_tests=t2, names=names,
        p0=float(settings.p0),
        seconds={"setup": setup, "study": t_study, "sweeps": t_sweeps,
                 "total": setup + t_study + t_sweeps},
        data={**settings.data.describe(), "wordsim_sets": [str(n) for n in names],
              "lexicons_used": [str(k) for k in graphs]},
        sweeps=sw, chunk_length=settings.chunk_length, glove=dict(settings.glove),
    )  # fmt: skip
