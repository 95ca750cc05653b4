r"""The systems of notebook 06: eigenwords, CCAPrior, retrofitting and trained baselines.

:func:`run_prior_study` computes every embedding of the notebook's Table 1 and Table 2
analogues and scores it on the word-similarity sets and the geographic analogies, each job in
a worker process (joblib): the eigenword and CCAPrior SVDs, which do not depend on a random
seed (a converged truncated SVD), once; skip-gram and GloVe, which do, once per seed.
The tables over these scores are in :mod:`._tables`.
"""

from __future__ import annotations

import importlib.metadata
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench._io import Cache, content_hash
from workbench._io import cache_root as _io_cache_root
from workbench._typing import Matrix
from workbench.baselines import fit_glove, train_word2vec
from workbench.datasets import load_lexicons, load_wordnet
from workbench.eigenwords import (
    CooccurrenceCounts,
    chunk_documents,
    count_prior_pairs,
    eigenwords_svd,
    graph_embeddings,
)
from workbench.embeddings import WordVectors
from workbench.evaluation import AnalogyResult, evaluate_analogies, wordsim_suite
from workbench.lexicons import LexiconGraph, graph_from_lexicon, lexicon_graph
from workbench.retrofit import retrofit
from workbench.views import EncodedCorpus

from .._parallel import run_jobs
from ._settings import PriorSettings

logger = logging.getLogger(__name__)

__all__ = [
    "EIGEN",
    "LEXICON_NAMES",
    "EmbeddingScores",
    "PriorStudy",
    "Label",
    "score_vectors",
    "run_prior_study",
    "label_key",
    "lexicon_graphs",
    "prior_counts",
]

#: The disk cache of the trained baselines (skip-gram and GloVe), by content: (namespace,
#: version of what its entries hold).
MODEL_CACHE = ("eigenwords/baselines", 1)

#: An embedding's label: (method, lexicon, alpha) -- lexicon "NPK" (no prior knowledge) or
#: the key of a lexicon graph; alpha only for CCAPrior rows.
Label = tuple[str, str, float | None]
#: Eigenwords without prior knowledge, the reference of every test.
EIGEN: Label = ("Eigen", "NPK", None)
#: Lexicon keys of the paper's tables and their names.
LEXICON_NAMES: dict[str, str] = {"WN": "WordNet", "PD": "PPDB", "FN": "FrameNet"}


def lexicon_graphs(lexicons: Mapping[str, str], words: Sequence[str]) -> dict[str, LexiconGraph]:
    """``{key: LexiconGraph}`` over ``words`` of the settings' lexicons (``settings.lexicons``):
    a bundled key (:data:`LEXICON_NAMES`) gets its graph by name (:func:`lexicon_graph`), any
    other key is a user's lexicon file (``word nbr1 nbr2 ...`` per line, read by
    :func:`workbench.datasets.load_lexicons`) matched exactly to ``words`` and named by its key."""
    words = list(words)
    user = {k: v for k, v in lexicons.items() if k not in LEXICON_NAMES}
    loaded = load_lexicons(user) if user else {}
    wordnet = None
    out: dict[str, LexiconGraph] = {}
    for key, source in lexicons.items():
        if key in loaded:
            out[key] = graph_from_lexicon(words, loaded[key], name=key)
        elif source == "ppdb":
            out[key] = lexicon_graph(source, words)
        else:
            wordnet = wordnet if wordnet is not None else load_wordnet()
            out[key] = lexicon_graph(source, words, wordnet=wordnet)
    return out


def prior_counts(settings: PriorSettings, encoded: EncodedCorpus,
                 graphs: Mapping[str, LexiconGraph]) -> dict[str, sp.csr_matrix]:  # fmt: skip
    """``{lexicon: count_prior_pairs(...)}`` of every lexicon of ``settings.lexicons``: the
    α-free prior counts of Figure 3 with the settings' window and reach ``N``, over chunks of
    ``settings.chunk_length`` tokens (:func:`workbench.eigenwords.chunk_documents`; the paper's
    13, so that ``N = 12`` spans one chunk; each document is chunked on its own) or, with
    ``chunk_length=None``, over whole documents. A token pair, and the contexts it adds, never
    cross a chunk boundary."""
    if not isinstance(settings, PriorSettings):
        raise TypeError(
            "settings must be a PriorSettings (workbench.studies.eigenwords.settings(size)), "
            f"got {type(settings).__name__}"
        )
    starts = np.asarray(encoded.doc_starts)
    if settings.chunk_length is not None:
        starts = chunk_documents(starts, encoded.n_tokens, settings.chunk_length)
    return {key: count_prior_pairs(encoded.ids, graphs[key], window=settings.window,
                                   n_neighbors=settings.n_neighbors, doc_starts=starts)
            for key in settings.lexicons}  # fmt: skip


def label_key(label: Label) -> str:
    """A record key of a label: ``"WN 0.5"`` for CCAPrior rows, ``"Skip-Gram PD"`` otherwise."""
    method, lexicon, alpha = label
    return f"{lexicon} {alpha:g}" if alpha is not None else f"{method} {lexicon}"


@dataclass(frozen=True, eq=False)
class EmbeddingScores:
    """One embedding's scores.

    Attributes
    ----------
    wordsim : DataFrame
        :func:`workbench.evaluation.wordsim_suite` (per-pair results in ``attrs["results"]``).
    geo : AnalogyResult
        :func:`workbench.evaluation.evaluate_analogies` on the geographic questions.
    """

    wordsim: pd.DataFrame
    geo: AnalogyResult

    def average(self, min_pairs: int) -> float:
        """Mean Spearman over the sets with at least ``min_pairs`` scored pairs."""
        ws = self.wordsim
        ok = ws["n_scored"] >= min_pairs
        return float(ws.loc[ok, "spearman"].mean()) if ok.any() else float("nan")


def score_vectors(
    vectors: WordVectors, questions: pd.DataFrame, names: Sequence[str]
) -> EmbeddingScores:
    """Score ``vectors`` on the rating sets ``names`` and the analogy ``questions``."""
    return EmbeddingScores(wordsim_suite(vectors, names=list(names)),
                           evaluate_analogies(vectors, questions))  # fmt: skip


@dataclass(eq=False)
class PriorStudy:
    """Everything :func:`run_prior_study` computed.

    Attributes
    ----------
    spectral : dict
        ``{label: EmbeddingScores}`` of the seed-independent embeddings: Eigen, Eigen + RF,
        CCAPrior and CCAPrior + RF.
    baselines : dict
        ``{seed: {label: EmbeddingScores}}``: skip-gram and GloVe, without and with
        retrofitting.
    graph_only : DataFrame
        Table 2 analogue, one row per lexicon: ``words``, ``avg``, ``avg + RF``,
        ``mean coverage``.
    eigen_by_start : dict
        ``{seed: average Spearman}`` of Eigen computed from each seed's start block (the SVD
        does not depend on it: a check).
    glove_loss : dict
        ``{seed: loss per epoch}``.
    seconds : dict
        Compute time of each job (in its worker).
    vectors : dict
        ``{label: WordVectors}`` when asked for (spectral ones and the first seed's baselines).
    graph_scores : dict
        ``{lexicon: wordsim_suite(...)}`` of the graph-only embeddings (per-pair results in
        ``attrs["results"]``, for the tests against Eigen on the pairs both score).
    graph_rf_scores : dict
        The same for the graph-only embeddings retrofitted to their graph.
    """

    spectral: dict[Label, EmbeddingScores]
    baselines: dict[int, dict[Label, EmbeddingScores]]
    graph_only: pd.DataFrame
    eigen_by_start: dict[int, float]
    glove_loss: dict[int, np.ndarray]
    seconds: dict[str, float] = field(default_factory=dict)
    vectors: dict[Label, WordVectors] = field(default_factory=dict)
    graph_scores: dict[str, pd.DataFrame] = field(default_factory=dict)
    graph_rf_scores: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def seeds(self) -> list[int]:
        return list(self.baselines)

    def scores(self, seed: int) -> dict[Label, EmbeddingScores]:
        """The seed-independent scores and those of ``seed``'s baselines."""
        return {**self.spectral, **self.baselines[seed]}


# ------------------------------------------------------------------------------------ jobs


@dataclass
class _JobResult:
    """What a job returns: scores and kept vectors of its embeddings (``scores``, ``vectors``),
    GloVe's loss per epoch (``loss``), a Table 2 row (``row``) or Eigen's average from another
    start (``avg``)."""

    scores: dict[Label, EmbeddingScores] = field(default_factory=dict)
    vectors: dict[Label, WordVectors] = field(default_factory=dict)
    loss: np.ndarray = field(default_factory=lambda: np.zeros(0))
    row: dict[str, float] = field(default_factory=dict)
    avg: float = float("nan")
    suite: pd.DataFrame | None = None
    suite_rf: pd.DataFrame | None = None


def _retrofit_all(vectors: WordVectors, graphs: Mapping[str, LexiconGraph], method: str,
                  alpha: float | None, questions: pd.DataFrame, names: Sequence[str], keep: bool,
                  ) -> _JobResult:  # fmt: skip
    """The scores (and, with ``keep``, the vectors) of ``vectors`` retrofitted to every graph."""
    out = _JobResult()
    for key, graph in graphs.items():
        rf = retrofit(vectors, graph)
        label = (method, key, alpha)
        out.scores[label] = score_vectors(rf, questions, names)
        if keep:
            out.vectors[label] = rf
    return out


def _with_retrofits(label: Label, vectors: WordVectors, graphs: Mapping[str, LexiconGraph],
                    rf_method: str, questions: pd.DataFrame, names: Sequence[str],
                    keep: bool) -> _JobResult:  # fmt: skip
    """The scores of ``vectors`` (labelled ``label``) and of their retrofits to every graph
    (labelled ``rf_method``), and the vectors with ``keep``."""
    scores = {label: score_vectors(vectors, questions, names)}
    out = _retrofit_all(vectors, graphs, rf_method, label[2], questions, names, keep)
    out.scores = {**scores, **out.scores}
    if keep:
        out.vectors = {label: vectors, **out.vectors}
    return out


def _spectral_job(counts: CooccurrenceCounts, prior: sp.csr_matrix | None, alpha: float | None,
                  lexicon: str | None, graphs: Mapping[str, LexiconGraph], words: list[str],
                  dim: int, solver: str, random_state: int, questions: pd.DataFrame,
                  names: Sequence[str], keep: bool) -> _JobResult:  # fmt: skip
    """Eigen (``prior=None``: with Eigen + RF for every graph) or CCAPrior at ``alpha`` with
    the prior of ``lexicon`` (and CCAPrior + RF with that lexicon's graph)."""
    res = eigenwords_svd(counts, dim, prior=prior, alpha=alpha, solver=solver,  # type: ignore[arg-type]
                         random_state=random_state)  # fmt: skip
    vecs = WordVectors(words, res.word_embeddings)
    if prior is None:
        return _with_retrofits(EIGEN, vecs, graphs, "Eigen", questions, names, keep)
    key = str(lexicon)
    return _with_retrofits(("CCAPrior", key, alpha), vecs, {key: graphs[key]}, "CCAPrior + RF",
                           questions, names, keep)  # fmt: skip


def _eigen_start_job(counts: CooccurrenceCounts, words: list[str], dim: int, solver: str,
                     random_state: int, questions: pd.DataFrame, names: Sequence[str],
                     min_pairs: int) -> _JobResult:  # fmt: skip
    res = eigenwords_svd(counts, dim, solver=solver, random_state=random_state)  # type: ignore[arg-type]
    sc = score_vectors(WordVectors(words, res.word_embeddings), questions, names)
    return _JobResult(avg=sc.average(min_pairs))


def _graph_job(graph: LexiconGraph, dim: int, solver: str, random_state: int,
               names: Sequence[str], min_pairs: int) -> _JobResult:  # fmt: skip
    ge = graph_embeddings(graph, dim, solver=solver, random_state=random_state)
    vecs = WordVectors(ge.words, ge.embeddings)
    ws = wordsim_suite(vecs, names=list(names))
    ws_rf = wordsim_suite(retrofit(vecs, graph), names=list(names))

    def avg(t: pd.DataFrame) -> float:
        ok = t["n_scored"] >= min_pairs
        return float(t.loc[ok, "spearman"].mean()) if ok.any() else float("nan")

    return _JobResult(row={"words": len(ge.words), "avg": avg(ws), "avg + RF": avg(ws_rf),
                           "mean coverage": float(ws["coverage"].mean()),
                           "sets": int((ws["n_scored"] >= min_pairs).sum())},
                      suite=ws, suite_rf=ws_rf)  # fmt: skip


def _sentences(encoded: EncodedCorpus, words: Sequence[str]) -> list[list[str]]:
    """The corpus as lists of in-vocabulary words (out-of-vocabulary tokens dropped before
    windowing, as :func:`workbench.baselines.train_word2vec` does with ``words``)."""
    arr = np.asarray(list(words), dtype=object)
    ids = np.asarray(encoded.ids)
    bounds = [*np.asarray(encoded.doc_starts).tolist(), ids.size]
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        doc = ids[a:b]
        out.append(arr[doc[doc >= 0]].tolist())
    return out


def _cached(inputs: Mapping[str, Any] | None, build: Callable[[], dict[str, np.ndarray]],
            root: str | None) -> dict[str, np.ndarray]:
    """``build()`` through the disk cache :data:`MODEL_CACHE` (under the cache root ``root``;
    None: :func:`~workbench._io.cache_root`) under ``inputs`` (None: no cache)."""
    if inputs is None:
        return build()
    entry = Cache(MODEL_CACHE[0], version=MODEL_CACHE[1], root=root).get_or_build(
        inputs, lambda: (build(), {}))
    return dict(entry.arrays)


def corpus_key(encoded: EncodedCorpus, words: Sequence[str]) -> str:
    """Content hash of the token stream skip-gram reads (the corpus over ``words``)."""
    return content_hash(np.asarray(encoded.ids), np.asarray(encoded.doc_starts), list(words))


def _skipgram_job(encoded: EncodedCorpus, words: list[str], dim: int, seed: int,
                  settings: Mapping[str, Any], graphs: Mapping[str, LexiconGraph],
                  questions: pd.DataFrame, names: Sequence[str], keep: bool,
                  cache_key: str | None = None, cache_root: str | None = None) -> _JobResult:  # fmt: skip
    def build() -> dict[str, np.ndarray]:
        v = train_word2vec(_sentences(encoded, words), words=words, vector_size=dim, seed=seed,
                           **dict(settings))  # fmt: skip
        return {"words": np.asarray(v.words, dtype=str), "vectors": np.asarray(v.vectors)}

    inputs = None if cache_key is None else {
        "kind": "skip-gram", "corpus": cache_key, "dim": dim, "seed": seed,
        "settings": dict(settings), "gensim": _gensim_version()}  # fmt: skip
    arrays = _cached(inputs, build, cache_root)
    vecs = WordVectors([str(w) for w in arrays["words"]], arrays["vectors"])
    label: Label = ("Skip-Gram", "NPK", None)
    return _with_retrofits(label, vecs, graphs, "Skip-Gram", questions, names, keep)


def _gensim_version() -> str:
    return importlib.metadata.version("gensim")


def _glove_job(cooc: Matrix, words: list[str], dim: int, seed: int, settings: Mapping[str, Any],
               graphs: Mapping[str, LexiconGraph], questions: pd.DataFrame, names: Sequence[str],
               keep: bool, cache_key: str | None = None, cache_root: str | None = None,
               ) -> _JobResult:  # fmt: skip
    def build() -> dict[str, np.ndarray]:
        fit = fit_glove(cooc, dim, random_state=seed, progress=False, **dict(settings))
        return {"vectors": fit.vectors, "loss": np.asarray(fit.loss_history, dtype=float)}

    inputs = None if cache_key is None else {
        "kind": "GloVe", "cooccurrence": cache_key, "dim": dim, "seed": seed,
        "settings": {k: str(v) if k == "dtype" else v for k, v in dict(settings).items()}}  # fmt: skip
    arrays = _cached(inputs, build, cache_root)
    m = sp.csr_matrix(cooc)
    seen = (np.diff(m.indptr) > 0) | (np.diff(m.tocsc().indptr) > 0)
    keep_rows = np.flatnonzero(seen)
    vecs = WordVectors([words[i] for i in keep_rows], arrays["vectors"][keep_rows])
    label: Label = ("GloVe", "NPK", None)
    out = _with_retrofits(label, vecs, graphs, "GloVe", questions, names, keep)
    out.loss = np.asarray(arrays["loss"], dtype=float)
    return out


_JOBS: dict[str, Callable[..., _JobResult]] = {
    "spectral": _spectral_job, "start": _eigen_start_job, "graph": _graph_job,
    "skipgram": _skipgram_job, "glove": _glove_job}  # fmt: skip


def _run_job(kind: str, kwargs: dict[str, Any]) -> tuple[_JobResult, float]:
    """One job; returns its result and compute time."""
    t0 = time.perf_counter()
    out = _JOBS[kind](**kwargs)
    return out, time.perf_counter() - t0


def run_prior_study(
    *,
    encoded: EncodedCorpus,
    words: Sequence[str],
    counts: CooccurrenceCounts,
    prior: Mapping[str, sp.csr_matrix],
    graphs: Mapping[str, LexiconGraph],
    cooc: Matrix,
    alphas: Sequence[float],
    dim: int,
    seeds: Sequence[int],
    word2vec: Mapping[str, Any],
    glove: Mapping[str, Any],
    questions: pd.DataFrame,
    names: Sequence[str],
    min_pairs: int = 10,
    solver: str = "lanczos",
    n_jobs: int = 2,
    keep_vectors: bool = False,
    cache: bool = True,
) -> PriorStudy:
    """Every embedding of the Table 1 and Table 2 analogues, scored, in parallel jobs.

    Parameters
    ----------
    encoded : EncodedCorpus
        The corpus over the vocabulary ``words`` (skip-gram is trained on its in-vocabulary
        tokens).
    words : sequence of str
    counts : CooccurrenceCounts
        :func:`count_contexts` of ``encoded``.
    prior : dict
        ``{lexicon: count_prior_pairs(...)}``.
    graphs : dict
        ``{lexicon: LexiconGraph}`` over ``words`` (retrofitting and Table 2 use them too).
    cooc : sparse matrix
        GloVe's co-occurrence counts over ``words``.
    alphas : sequence of float
        CCAPrior weights.
    dim : int
        Dimension of every embedding.
    seeds : sequence of int
        One skip-gram and one GloVe model per seed; the first seed also starts the SVDs, and
        Eigen is recomputed from every other seed's start as a check.
    word2vec, glove : dict
        Settings of :func:`workbench.baselines.train_word2vec` and
        :func:`workbench.baselines.fit_glove` (besides dimension and seed).
    questions : DataFrame
        Analogy questions (the geographic ones).
    names : sequence of str
        Rating sets.
    min_pairs : int, default 10
        A set enters an average only with at least this many scored pairs.
    solver : str, default "lanczos"
        SVD solver of :func:`eigenwords_svd` and :func:`graph_embeddings`.
    n_jobs : int, default 2
        Worker processes; 1 runs everything in this process. The results do not depend on it.
    keep_vectors : bool, default False
        Return the spectral embeddings and the first seed's baselines (for exploring).
    cache : bool, default True
        Keep each trained skip-gram and GloVe model in the disk cache (:data:`MODEL_CACHE`,
        under ``WORKBENCH_CACHE``), keyed by the content of its inputs (token stream or
        co-occurrence matrix, dimension, seed, settings), and reuse it when they recur: a re-run
        retrains nothing that did not change. The results are the same either way.

    Returns
    -------
    PriorStudy
    """
    seeds = [int(s) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and non-empty, got {seeds}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, got {n_jobs!r}")
    unknown = set(prior) - set(graphs)
    if unknown:
        raise ValueError(f"prior counts for lexicons without a graph: {sorted(unknown)}")
    words = list(words)
    common = {"questions": questions, "names": list(names)}
    first = seeds[0]
    sg_key = corpus_key(encoded, words) if cache else None
    glove_key = content_hash(cooc) if cache else None
    # this process's cache root, for the workers (a reused worker may have another)
    root = str(_io_cache_root()) if cache else None
    jobs: list[tuple[str, str, dict[str, Any]]] = []
    # the longest jobs first: the trainers, then the SVDs
    for s in seeds:
        jobs.append((f"skipgram {s}", "skipgram", dict(
            encoded=encoded, words=words, dim=dim, seed=s, settings=dict(word2vec),
            graphs=graphs, keep=keep_vectors and s == first, cache_key=sg_key, cache_root=root,
            **common)))  # fmt: skip
        jobs.append((f"glove {s}", "glove", dict(
            cooc=cooc, words=words, dim=dim, seed=s, settings=dict(glove), graphs=graphs,
            keep=keep_vectors and s == first, cache_key=glove_key, cache_root=root,
            **common)))  # fmt: skip
    jobs.append(("eigen", "spectral", dict(
        counts=counts, prior=None, alpha=None, lexicon=None, graphs=graphs, words=words,
        dim=dim, solver=solver, random_state=first, keep=keep_vectors, **common)))  # fmt: skip
    for key in prior:
        for a in alphas:
            jobs.append((f"ccaprior {key} {a:g}", "spectral", dict(
                counts=counts, prior=prior[key], alpha=float(a), lexicon=key,
                graphs={key: graphs[key]}, words=words, dim=dim, solver=solver,
                random_state=first, keep=keep_vectors, **common)))  # fmt: skip
    for key in graphs:
        jobs.append((f"graph {key}", "graph", dict(
            graph=graphs[key], dim=dim, solver=solver, random_state=first,
            names=list(names), min_pairs=min_pairs)))  # fmt: skip
    for s in seeds[1:]:
        jobs.append((f"eigen start {s}", "start", dict(
            counts=counts, words=words, dim=dim, solver=solver, random_state=s,
            min_pairs=min_pairs, **common)))  # fmt: skip
    outs = run_jobs(_run_job, [{"kind": kind, "kwargs": kw} for _, kind, kw in jobs], int(n_jobs))
    spectral: dict[Label, EmbeddingScores] = {}
    baselines: dict[int, dict[Label, EmbeddingScores]] = {s: {} for s in seeds}
    graph_rows: dict[str, dict[str, float]] = {}
    graph_scores: dict[str, pd.DataFrame] = {}
    graph_rf_scores: dict[str, pd.DataFrame] = {}
    glove_loss: dict[int, np.ndarray] = {}
    seconds: dict[str, float] = {}
    vectors: dict[Label, WordVectors] = {}
    eigen_by_start: dict[int, float] = {}
    for (name, kind, kw), (out, secs) in zip(jobs, outs):
        seconds[name] = float(secs)
        if kind == "spectral":
            spectral.update(out.scores)
            vectors.update(out.vectors)
        elif kind in ("skipgram", "glove"):
            baselines[kw["seed"]].update(out.scores)
            vectors.update(out.vectors)
            if kind == "glove":
                glove_loss[kw["seed"]] = out.loss
        elif kind == "graph":
            graph_rows[name.split(" ", 1)[1]] = out.row
            if out.suite is not None:
                graph_scores[name.split(" ", 1)[1]] = out.suite
            if out.suite_rf is not None:
                graph_rf_scores[name.split(" ", 1)[1]] = out.suite_rf
        else:
            eigen_by_start[kw["random_state"]] = out.avg
    eigen_by_start = {first: spectral[EIGEN].average(min_pairs), **eigen_by_start}
    order = [EIGEN] + [(m, k, None) for m in ("Eigen",) for k in graphs]
    order += [
        (m, k, float(a)) for m in ("CCAPrior", "CCAPrior + RF") for k in prior for a in alphas
    ]
    spectral = {lab: spectral[lab] for lab in order if lab in spectral}
    graph_only = pd.DataFrame(graph_rows).T
    graph_only.index.name = "resource"
    logger.info("prior study: %s", {k: round(v, 1) for k, v in seconds.items()})
    return PriorStudy(spectral, baselines, graph_only, eigen_by_start, glove_loss, seconds,
                      vectors, graph_scores, graph_rf_scores)  # fmt: skip
