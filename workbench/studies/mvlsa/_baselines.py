"""Standard baselines trained on the study's corpus (PPMI-SVD, skip-gram and GloVe) and the same
baselines retrofitted to the lexicons MVLSA's lexicon views are built from."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed

from workbench import baselines
from workbench._io import content_hash
from workbench._validation import check_bool, check_int
from workbench.datasets import Corpus
from workbench.embeddings import WordVectors
from workbench.evaluation import evaluate_system
from workbench.retrofit import retrofit_matrix
from workbench.studies.mvlsa._comparison import pair_weighted_mean
from workbench.studies.mvlsa._settings import StudySettings, check_instance, check_sequence
from workbench.studies.mvlsa._tuning import split_wordsim
from workbench.studies.mvlsa._viewsets import (
    BASELINE_CACHE,
    USER_LEXICON_FAMILY,
    ViewSet,
    _check_view_set,
    study_cache,
)
from workbench.views import Vocabulary, encode_corpus, window_view

logger = logging.getLogger(__name__)

__all__ = [
    "CorpusBaselines",
    "corpus_baselines",
    "corpus_baselines_seeds",
    "BASELINE_NAMES",
    "LEXICON_FAMILIES",
    "RETROFIT_SETTINGS",
    "lexicon_families",
    "lexicon_graph",
    "retrofitted",
    "GLOVE_CANDIDATES",
    "GloveTuning",
    "tune_glove",
]

#: The corpus-trained baselines, in table order.
BASELINE_NAMES = ("PPMI-SVD", "SGNS", "GloVe")
#: The view families built from lexicons: the bundled kinds and the user's lexicons.
LEXICON_FAMILIES = ("morphology", "synonyms", "ppdb", "framenet", USER_LEXICON_FAMILY)
#: Retrofitting as its authors run it (Faruqui et al. 2015: 10 iterations, alpha = 1,
#: beta = 1/degree).
RETROFIT_SETTINGS: dict[str, Any] = {"n_iter": 10, "alpha": 1.0, "beta": "inverse_degree"}


def lexicon_families(view_set: ViewSet) -> list[str]:
    """The families of :data:`LEXICON_FAMILIES` the view set has, in its order."""
    _check_view_set(view_set)
    return [f for f in view_set.families() if f in LEXICON_FAMILIES]


def lexicon_graph(view_set: ViewSet, families: Sequence[str] | None = None) -> sp.csr_array:
    """The word graph of the view set's lexicon views (vocabulary x vocabulary, 0/1, symmetric,
    no self-loops): the same lexicons MVLSA reads, as retrofitting reads them.

    A word x word view (a paraphrase graph such as PPDB: its contexts are the vocabulary)
    contributes its non-zeros; a word x group view (FrameNet frames, WordNet synsets, morphological
    roots) links every two words of a group (:math:`Z Z^\top` off the diagonal). ``families``
    default: :func:`lexicon_families`.

    Raises
    ------
    ValueError
        ``families`` names a family the view set lacks or one that is not a lexicon family.
    """
    _check_view_set(view_set)
    have = lexicon_families(view_set)
    fams = have if families is None else check_sequence(families, "families", allow_empty=True)
    bad = [f for f in fams if f not in have]
    if bad:
        raise ValueError(
            f"families {bad} are not lexicon view families of the view set; it has {have}"
        )
    n = len(view_set.vocab)
    words = tuple(view_set.vocab.words)
    total = sp.csr_array((n, n), dtype=np.float64)
    for v in view_set.views:
        if v.family not in fams:
            continue
        z = sp.csr_array(v.matrix, dtype=np.float64)
        z.data[:] = 1.0
        if tuple(v.contexts) == words:
            edges = z + z.T
        else:
            edges = z @ z.T
        total = total + sp.csr_array(edges)
    total.setdiag(0)
    total.eliminate_zeros()
    total.data[:] = 1.0
    return sp.csr_array(total)


def retrofitted(
    vectors: WordVectors, graph: sp.csr_array, vocab_words: Sequence[str]
) -> WordVectors:
    """``vectors`` retrofitted (:func:`workbench.retrofit.retrofit_matrix`, :data:`RETROFIT_SETTINGS`)
    along ``graph``, a 0/1 adjacency over ``vocab_words`` (:func:`lexicon_graph`); words without
    a vector are dropped from the graph, words without a neighbour keep their vectors."""
    words = list(vectors.words)
    index = {w: i for i, w in enumerate(vocab_words)}
    graph = sp.csr_array(graph)
    if graph.shape != (len(index), len(index)):
        raise ValueError(
            f"graph has shape {graph.shape}, expected {(len(index), len(index))} (vocab_words)"
        )
    pos = np.array([index.get(w, -1) for w in words])
    keep = pos >= 0
    sub = sp.csr_array((len(words), len(words)), dtype=np.float64)
    if keep.any():
        rows = np.flatnonzero(keep)
        inner = graph[pos[keep]][:, pos[keep]]
        pick = sp.csr_array(
            (np.ones(rows.size), (rows, np.arange(rows.size))), shape=(len(words), rows.size)
        )
        sub = sp.csr_array(pick @ inner @ pick.T)
    q = retrofit_matrix(np.asarray(vectors.vectors, dtype=np.float64), sub, **RETROFIT_SETTINGS)
    return WordVectors(words, q)


#: GloVe settings tried on the dev halves, each over the size's ``settings.glove``; an empty
#: tuple: not tuned (the settings' values are used).
GLOVE_CANDIDATES: dict[str, tuple[dict[str, Any], ...]] = {
    "small": ({"x_max": 10.0}, {"x_max": 100.0}),
    "full": (
        {"window": 10, "learning_rate": 0.05},
        {"window": 15, "learning_rate": 0.05},
        {"window": 10, "learning_rate": 0.1},
        {"window": 15, "learning_rate": 0.1},
    ),
    "large": (),
}
#: How a GloVe candidate is chosen.
GLOVE_CRITERION = (
    "highest pair-weighted mean Spearman over the dev halves of every tuning rating set "
    "(first seed; ties: the first candidate)"
)


@dataclass(frozen=True, eq=False)
class GloveTuning:
    """GloVe's settings chosen on the dev halves (:func:`tune_glove`).

    Attributes
    ----------
    candidates : DataFrame
        One row per candidate (``label``): the settings it changes, ``dev mean`` (unweighted),
        ``dev mean (pair-weighted)`` (the criterion), ``epochs`` run and ``stopped_by``.
    chosen : dict
        The full GloVe configuration chosen.
    criterion : str
    """

    candidates: pd.DataFrame
    chosen: dict[str, Any]
    criterion: str = GLOVE_CRITERION

    def records(self) -> dict[str, Any]:
        """JSON-ready: the candidates, the chosen configuration and the criterion."""
        return {"candidates": self.candidates.to_dict(orient="index"), "chosen": self.chosen,
                "criterion": self.criterion}  # fmt: skip


def _label(change: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items()) or "settings"


def tune_glove(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    n_components: int,
    seed: int = 0,
    candidates: Sequence[Mapping[str, Any]] | None = None,
    cache: bool = True,
    n_jobs: int = 2,
) -> GloveTuning | None:
    """Choose GloVe's settings on the dev halves of every tuning rating set.

    Each candidate (default: :data:`GLOVE_CANDIDATES` of the settings' size, each a change of
    ``settings.glove``) is trained with ``seed`` (cached, so the chosen one is not trained
    again) under the same stopping rule (``tol``, cap ``epochs``) and scored on the dev halves of
    ``settings.dev_wordsim`` over the view set's vocabulary; the highest pair-weighted mean
    (:func:`~workbench.studies.mvlsa.pair_weighted_mean`: a set counts by the pairs scored on it)
    wins. None when there is nothing to tune (no candidate, or no dev set).
    """
    _check_view_set(view_set)
    n_components = check_int(n_components, "n_components", low=1)
    seed = check_int(seed, "seed", low=0)
    changes = list(GLOVE_CANDIDATES.get(settings.size, ()) if candidates is None else candidates)
    for c in changes:
        if not isinstance(c, Mapping):
            raise TypeError(f"candidates must be mappings of GloVe settings, got {c!r}")
    if not changes or not settings.dev_wordsim:
        return None
    base = dict(settings.glove)
    configs = [{**base, **c} for c in changes]
    if cache:  # build each window's counts once, before the workers read the cache
        enc = encode_corpus(settings.load_corpus(), view_set.vocab)
        for window in dict.fromkeys(int(c.get("window", 10)) for c in configs):
            window_view(enc, view_set.vocab, window, symmetric=True, weighting="harmonic",
                        cache=True)  # fmt: skip
    run = delayed(_train_baseline)
    n_jobs = max(1, min(check_int(n_jobs, "n_jobs", low=1), len(configs)))
    done = Parallel(n_jobs=n_jobs, backend="loky" if n_jobs > 1 else "sequential")(
        run("GloVe", settings, view_set.vocab, n_components, seed, cache, cfg) for cfg in configs
    )
    dev = split_wordsim(settings.dev_wordsim, "dev")
    rows = {}
    for change, cfg, (vec, _, loss) in zip(changes, configs, done):
        ev = evaluate_system(vec, name="GloVe", wordsim=dev, analogies=False,
                             restrict_to=view_set.words)  # fmt: skip
        sc, n = ev.scores(), ev.n_scored()
        stop = baselines.glove_stopping(loss, cfg)
        rows[_label(change)] = {**{k: change[k] for k in change}, "dev mean": float(sc.mean()),
                                "dev mean (pair-weighted)": pair_weighted_mean(sc, n),
                                "epochs": stop.epochs_run, "stopped_by": _stop_label(stop)}  # fmt: skip
    table = pd.DataFrame(rows).T
    crit = table["dev mean (pair-weighted)"].astype(float).fillna(-np.inf).to_numpy()
    best = int(np.argmax(crit))
    logger.info("GloVe tuned on dev: %s", table.to_dict(orient="index"))
    return GloveTuning(table, configs[best])


@dataclass(frozen=True, eq=False)
class CorpusBaselines:
    """Word vectors of the baselines over the view set's vocabulary, and how they were trained.

    Attributes
    ----------
    vectors : dict
        ``{"PPMI-SVD": WordVectors, "SGNS": ..., "GloVe": ...}``.
    settings : dict
        The training settings of each baseline.
    seconds : dict
        Training wall time of each baseline (seconds; 0 when loaded from the cache).
    glove_loss : ndarray
        GloVe's mean weighted squared error per epoch.
    glove_tuning : GloveTuning or None
        How GloVe's settings were chosen on the dev halves (None: the settings' values).
    """

    vectors: dict[str, WordVectors]
    settings: dict[str, dict[str, Any]]
    seconds: dict[str, float] = field(default_factory=dict)
    glove_loss: np.ndarray = field(default_factory=lambda: np.zeros(0))
    glove_tuning: GloveTuning | None = None

    @property
    def glove_stopped_by(self) -> str | None:
        """What ended GloVe's fit: ``"tolerance"`` (the loss flattened) or ``"epoch cap"``; None
        without a loss history."""
        stop = self._glove_stopping()
        return None if stop is None else _stop_label(stop)

    def _glove_stopping(self) -> baselines.GloVeStop | None:
        loss = np.asarray(self.glove_loss, dtype=float)
        if not loss.size:
            return None
        # settings without a cap: the history's length (the fit ran what it was asked to)
        return baselines.glove_stopping(loss, {"epochs": loss.size, **self.settings.get("GloVe", {})})

    def glove_stop(self) -> dict[str, Any]:
        """GloVe's stopping: ``stopped_by``, ``epochs`` run, the ``tol`` and the cap
        ``max_epochs`` it ran with and the ``last_change`` (relative fall of the loss in its last
        epoch); :func:`workbench.baselines.glove_stopping`."""
        stop = self._glove_stopping()
        if stop is None:
            cfg = self.settings.get("GloVe", {})
            return {"stopped_by": None, "epochs": 0, "tol": cfg.get("tol"),
                    "max_epochs": int(cfg.get("epochs", 0)), "last_change": None}  # fmt: skip
        return {"stopped_by": _stop_label(stop), "epochs": stop.epochs_run, "tol": stop.tol,
                "max_epochs": stop.max_epochs, "last_change": stop.last_change}  # fmt: skip


def _stop_label(stop: baselines.GloVeStop) -> str:
    """The records' word for what ended a fit: ``"tolerance"`` or ``"epoch cap"``."""
    return "tolerance" if stop.stopped_by == "tolerance" else "epoch cap"


def _train_baseline(
    kind: str,
    settings: StudySettings,
    vocab: Vocabulary,
    n_components: int,
    seed: int,
    cache: bool,
    config: dict[str, Any] | None = None,
) -> tuple[WordVectors, float, np.ndarray]:
    """Train one baseline for one seed (or load it from the disk cache): ``(vectors, seconds,
    loss history)``; ``config`` replaces the settings' configuration of ``kind``. A top-level
    function so that seeds can train in worker processes."""
    cfg = _configs(settings)[kind] if config is None else dict(config)
    corpus = settings.load_corpus()
    inputs = {"kind": kind, "corpus": corpus.sha256, "vocab": content_hash(vocab), "config": cfg,
              "n_components": n_components, "seed": seed, "size": settings.size}  # fmt: skip

    built: list[float] = []

    def build() -> tuple[dict[str, np.ndarray], dict[str, float]]:
        t0 = time.perf_counter()
        vec, loss = _fit_baseline(kind, cfg, corpus, vocab, n_components, seed, cache)
        arrays = {"words": np.asarray(vec.words, dtype=str), "vectors": vec.vectors,
                  "loss": np.asarray(loss, dtype=np.float64)}  # fmt: skip
        built.append(time.perf_counter() - t0)
        return arrays, {"seconds": built[-1]}

    if cache:
        arrays = study_cache(BASELINE_CACHE).get_or_build(inputs, build).arrays
    else:
        arrays = build()[0]
    vec = WordVectors([str(w) for w in arrays["words"]], arrays["vectors"])
    return vec, (built[0] if built else 0.0), np.asarray(arrays["loss"])


def _fit_baseline(
    kind: str,
    cfg: dict[str, Any],
    corpus: Corpus,
    vocab: Vocabulary,
    n_components: int,
    seed: int,
    cache: bool,
) -> tuple[WordVectors, np.ndarray]:
    """Train one baseline: ``(vectors, loss history)``."""
    loss = np.zeros(0)
    words = list(vocab.words)
    if kind == "PPMI-SVD":
        enc = encode_corpus(corpus, vocab)
        vec = baselines.ppmi_svd(
            enc, vocab=vocab, window=int(cfg.get("window", 5)), cds=float(cfg.get("cds", 0.75)),
            shift=float(cfg.get("shift", 1.0)), eig=float(cfg.get("eig", 0.5)),
            n_components=n_components, svd_solver=str(cfg.get("svd_solver", "arpack")),
            random_state=seed,
        )  # fmt: skip
    elif kind == "SGNS":
        vec = baselines.train_word2vec(
            corpus, words=words, vector_size=n_components, seed=seed, **cfg
        )
    elif kind == "GloVe":
        g = dict(cfg)
        window = int(g.pop("window", 10))
        enc = encode_corpus(corpus, vocab)
        cooc = window_view(enc, vocab, window, symmetric=True, weighting="harmonic", cache=cache)
        fit = baselines.fit_glove(cooc, n_components, random_state=seed, progress=False, **g)
        keep = np.flatnonzero(np.diff(cooc.matrix.indptr) > 0)
        vec = WordVectors([words[i] for i in keep], fit.vectors[keep])
        loss = np.asarray(fit.loss_history)
    else:
        raise ValueError(f"unknown baseline {kind!r}; known: {BASELINE_NAMES}")
    return vec, loss


def _configs(settings: StudySettings) -> dict[str, dict[str, Any]]:
    return {
        "PPMI-SVD": dict(settings.ppmi),
        "SGNS": dict(settings.word2vec),
        "GloVe": dict(settings.glove),
    }


def corpus_baselines(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    n_components: int,
    seed: int = 0,
    cache: bool = True,
) -> CorpusBaselines:
    """The baselines of one seed: :func:`corpus_baselines_seeds` with ``seeds=[seed]``."""
    seed = check_int(seed, "seed", low=0)
    return corpus_baselines_seeds(view_set, settings, n_components=n_components, seeds=[seed],
                                  cache=cache, n_jobs=1)[seed]  # fmt: skip


def corpus_baselines_seeds(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    n_components: int,
    seeds: Sequence[int],
    cache: bool = True,
    n_jobs: int = 2,
) -> dict[int, CorpusBaselines]:
    """Train PPMI-SVD, skip-gram (SGNS) and GloVe on the settings' corpus over the view set's
    vocabulary for each seed, each with the settings its users train it with
    (``settings.ppmi``, ``settings.word2vec``, ``settings.glove``).

    PPMI-SVD: :func:`workbench.baselines.ppmi_svd` (Levy et al. 2015's recipe) with an exact
    (ARPACK) SVD, which does not depend on the seed: it is fitted once and shared by every
    seed. SGNS: :func:`workbench.baselines.train_word2vec` restricted to the vocabulary (gensim,
    one worker thread, so each seed is reproducible); GloVe: :func:`workbench.baselines.fit_glove`
    on symmetric harmonic window counts, its settings chosen on the dev halves first
    (:func:`tune_glove`; the first seed's fit of the chosen settings is reused) and run until its
    loss flattens (``tol``, with ``epochs`` as the cap). The seeds' SGNS and GloVe runs are
    single-threaded and run in ``n_jobs`` worker processes; each (baseline, seed) is cached on
    disk, so notebooks 03 and 05 train it once.

    Returns
    -------
    dict
        ``{seed: CorpusBaselines}`` (``seconds`` is 0 for what came from the cache).
    """
    _check_view_set(view_set)
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    n_components = check_int(n_components, "n_components", low=1)
    seeds = [check_int(s, "seeds entries", low=0) for s in check_sequence(seeds, "seeds")]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds!r}")
    cache = check_bool(cache, "cache")
    n_jobs = check_int(n_jobs, "n_jobs", low=1)
    tuning = tune_glove(view_set, settings, n_components=n_components, seed=seeds[0],
                        cache=cache, n_jobs=n_jobs)  # fmt: skip
    cfg = _configs(settings)
    if tuning is not None:
        cfg["GloVe"] = dict(tuning.chosen)
    vocab = view_set.vocab
    if cfg["PPMI-SVD"].get("svd_solver", "arpack") != "arpack":
        raise ValueError("corpus_baselines_seeds shares one PPMI-SVD fit across seeds: its solver "
                         "must be the exact 'arpack'")  # fmt: skip
    if cache:  # build the GloVe co-occurrence counts once, before the workers read the cache
        corpus = settings.load_corpus()
        window_view(encode_corpus(corpus, vocab), vocab, int(cfg["GloVe"].get("window", 10)),
                    symmetric=True, weighting="harmonic", cache=True)  # fmt: skip
    tasks = [("PPMI-SVD", seeds[0])] + [(k, s) for k in ("SGNS", "GloVe") for s in seeds]
    n_jobs = max(1, min(int(n_jobs), len(tasks)))
    run = delayed(_train_baseline)
    done = Parallel(n_jobs=n_jobs, backend="loky" if n_jobs > 1 else "sequential")(
        run(kind, settings, vocab, n_components, s, cache, cfg[kind]) for kind, s in tasks
    )
    got = dict(zip(tasks, done))
    out: dict[int, CorpusBaselines] = {}
    for s in seeds:
        parts = {"PPMI-SVD": got[("PPMI-SVD", seeds[0])], "SGNS": got[("SGNS", s)],
                 "GloVe": got[("GloVe", s)]}  # fmt: skip
        out[s] = CorpusBaselines(
            {k: v[0] for k, v in parts.items()},
            cfg,
            {k: float(v[1]) for k, v in parts.items()},
            np.asarray(parts["GloVe"][2]),
            tuning,
        )
    logger.info("baselines for seeds %s: %s", seeds,
                {f"{k} {s}": round(float(v[1]), 1) for (k, s), v in got.items()})  # fmt: skip
    return out
