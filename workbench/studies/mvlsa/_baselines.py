"""Standard baselines trained on the study's corpus: PPMI-SVD, skip-gram and GloVe."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from workbench import baselines
from workbench._io import content_hash
from workbench._validation import check_bool, check_int
from workbench.datasets import Corpus
from workbench.embeddings import WordVectors
from workbench.studies.mvlsa._settings import StudySettings, check_instance, check_sequence
from workbench.studies.mvlsa._viewsets import (
    BASELINE_CACHE,
    ViewSet,
    _check_view_set,
    study_cache,
)
from workbench.views import Vocabulary, encode_corpus, window_view

logger = logging.getLogger(__name__)

__all__ = ["CorpusBaselines", "corpus_baselines", "corpus_baselines_seeds", "BASELINE_NAMES"]

#: The corpus-trained baselines, in table order.
BASELINE_NAMES = ("PPMI-SVD", "SGNS", "GloVe")


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
    """

    vectors: dict[str, WordVectors]
    settings: dict[str, dict[str, Any]]
    seconds: dict[str, float] = field(default_factory=dict)
    glove_loss: np.ndarray = field(default_factory=lambda: np.zeros(0))


def _train_baseline(
    kind: str,
    settings: StudySettings,
    vocab: Vocabulary,
    n_components: int,
    seed: int,
    cache: bool,
) -> tuple[WordVectors, float, np.ndarray]:
    """Train one baseline for one seed (or load it from the disk cache): ``(vectors, seconds,
    loss history)``. A top-level function so that seeds can train in worker processes."""
    cfg = _configs(settings)[kind]
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
    on symmetric harmonic window counts. The seeds' SGNS and GloVe runs are single-threaded and
    run in ``n_jobs`` worker processes; each (baseline, seed) is cached on disk, so notebooks
    03 and 05 train it once.

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
    cfg = _configs(settings)
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
        run(kind, settings, vocab, n_components, s, cache) for kind, s in tasks
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
        )
    logger.info("baselines for seeds %s: %s", seeds,
                {f"{k} {s}": round(float(v[1]), 1) for (k, s), v in got.items()})  # fmt: skip
    return out
