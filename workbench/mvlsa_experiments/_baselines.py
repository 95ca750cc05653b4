"""Standard baselines trained on the study's corpus: PPMI-SVD, skip-gram and GloVe."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.mvlsa_experiments._settings import StudySettings
from workbench.mvlsa_experiments._viewsets import (
    _CACHE_VERSION,
    ViewSet,
    _cache_root,
    _key,
    _load_pickle,
    _save_pickle,
)

logger = logging.getLogger(__name__)

__all__ = ["CorpusBaselines", "corpus_baselines", "BASELINE_NAMES"]

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

    vectors: dict[str, Any]
    settings: dict[str, dict[str, Any]]
    seconds: dict[str, float] = field(default_factory=dict)
    glove_loss: np.ndarray = field(default_factory=lambda: np.zeros(0))


def corpus_baselines(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    n_components: int,
    seed: int = 0,
    cache: bool = True,
) -> CorpusBaselines:
    """Train PPMI-SVD, skip-gram (SGNS) and GloVe on the settings' corpus over the view set's
    vocabulary, each with the settings its users train it with (``settings.ppmi``,
    ``settings.word2vec``, ``settings.glove``), cached on disk.

    PPMI-SVD: :func:`workbench.baselines.ppmi_svd` (Levy et al. 2015's recipe); SGNS:
    :func:`workbench.baselines.train_word2vec` restricted to the vocabulary (gensim); GloVe:
    :func:`workbench.baselines.fit_glove` on symmetric harmonic window counts of the corpus.
    """
    from workbench import baselines
    from workbench.datasets import load_corpus
    from workbench.views import encode_corpus, window_view

    cfg = {
        "PPMI-SVD": dict(settings.ppmi),
        "SGNS": dict(settings.word2vec),
        "GloVe": dict(settings.glove),
    }
    corpus = load_corpus(settings.corpus, max_tokens=settings.max_tokens)
    key = _key(_CACHE_VERSION, "baselines-v2", corpus.sha256, settings.view_key(), cfg,
               n_components, seed)  # fmt: skip
    path = _cache_root() / f"baselines-{settings.size}-{key}.pkl"
    if cache and path.exists():
        obj = _load_pickle(path)
        if isinstance(obj, CorpusBaselines):
            return CorpusBaselines(obj.vectors, obj.settings, dict.fromkeys(obj.vectors, 0.0),
                                   obj.glove_loss)  # fmt: skip
    vocab = view_set.vocab
    secs: dict[str, float] = {}
    vecs: dict[str, Any] = {}
    t0 = time.perf_counter()
    enc = encode_corpus(corpus, vocab)
    p = cfg["PPMI-SVD"]
    vecs["PPMI-SVD"] = baselines.ppmi_svd(
        enc, vocab=vocab, window=int(p.get("window", 5)), cds=float(p.get("cds", 0.75)),
        shift=float(p.get("shift", 1.0)), eig=float(p.get("eig", 0.5)),
        n_components=n_components, random_state=seed,
    )  # fmt: skip
    secs["PPMI-SVD"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    w = cfg["SGNS"]
    vecs["SGNS"] = baselines.train_word2vec(
        corpus, words=view_set.words, vector_size=n_components, seed=seed,
        **{k: v for k, v in w.items()},
    )  # fmt: skip
    secs["SGNS"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    g = dict(cfg["GloVe"])
    window = int(g.pop("window", 10))
    cooc = window_view(enc, vocab, window, symmetric=True, weighting="harmonic", cache=cache)
    fit = baselines.fit_glove(cooc, n_components, random_state=seed, progress=False, **g)
    seen = np.diff(cooc.matrix.indptr) > 0
    from workbench.embeddings import WordVectors

    keep = np.flatnonzero(seen)
    vecs["GloVe"] = WordVectors([view_set.words[i] for i in keep], fit.vectors[keep])
    secs["GloVe"] = time.perf_counter() - t0
    out = CorpusBaselines(vecs, cfg, secs, np.asarray(fit.loss_history))
    logger.info("baselines trained in %s", {k: round(v, 1) for k, v in secs.items()})
    if cache:
        _save_pickle(path, out)
    return out
