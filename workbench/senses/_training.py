"""Multi-prototype training: two-stage skip-gram + context clustering.

Part of :mod:`workbench.senses` (import the public names from there).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeAlias

import numpy as np
from gensim.models import Word2Vec
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from workbench._io import Cache
from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)
from workbench.datasets import Corpus
from workbench.embeddings import MultiSenseVectors

logger = logging.getLogger(__name__)

#: What :func:`train_multisense` reads: a corpus, or any iterable of token lists (documents).
CorpusLike: TypeAlias = Corpus | Iterable[Sequence[str]]

_CACHE_VERSION = 2
_CACHE_NAMESPACE = "multisense"
_STAGE1_NAMESPACE = "multisense-stage1"
#: The settings stage 1 (single-sense skip-gram) depends on: models that differ only in their
#: sense settings (k-means K, NP-MSSG's threshold and cap, ...) share it through the cache.
_STAGE1_FIELDS = ("dim", "window", "min_count", "epochs", "negative", "sample", "seed",
                  "workers")  # fmt: skip


# ============================================================================ training


@dataclass(frozen=True)
class MultiSenseConfig:
    """Parameters of :func:`train_multisense` (see there); used as the cache key."""

    dim: int = 50
    window: int = 5
    min_count: int = 5
    epochs: int = 5
    negative: int = 5
    sample: float = 1e-3
    method: str = "kmeans"
    n_senses: int = 3
    threshold: float = 0.15
    max_senses: int = 5
    n_multi: int = 2000
    min_sense_count: int = 50
    context_window: int = 5
    context_weighting: str = "subsample"
    max_samples: int = 1000
    min_sense_fraction: float = 0.05
    kmeans_iter: int = 20
    seed: int = 0
    workers: int = 1
    separator: str = "_"


def _validate_config(cfg: MultiSenseConfig) -> None:
    """Every field of ``cfg`` (the message names the field, the value and what is allowed)."""
    check_choice(cfg.method, "method", ("kmeans", "nonparametric"))
    check_choice(cfg.context_weighting, "context_weighting", ("subsample", "uniform"))
    for name in (
        "dim",
        "window",
        "min_count",
        "epochs",
        "negative",
        "n_senses",
        "max_senses",
        "min_sense_count",
        "context_window",
        "max_samples",
        "kmeans_iter",
        "workers",
    ):
        check_int(getattr(cfg, name), name, low=1)
    check_int(cfg.n_multi, "n_multi", low=0)
    check_int(cfg.seed, "seed", low=0)
    check_float(cfg.sample, "sample", low=0, high=1, high_open=True)
    check_float(cfg.threshold, "threshold (a cosine)", low=-1, high=1)
    check_float(cfg.min_sense_fraction, "min_sense_fraction", low=0, high=0.5, high_open=True)
    if not isinstance(cfg.separator, str) or not cfg.separator:
        raise ValueError(f"separator must be a non-empty string, got {cfg.separator!r}")


def _encode(
    docs: Iterable[Sequence[str]], min_count: int
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Vocabulary (by decreasing count), counts, token ids (rare tokens dropped), doc ids."""
    index: dict[str, int] = {}
    chunks: list[np.ndarray] = []
    doc_ids: list[np.ndarray] = []
    for d, tokens in enumerate(docs):
        ids = np.fromiter((index.setdefault(t, len(index)) for t in tokens), dtype=np.int64)
        chunks.append(ids)
        doc_ids.append(np.full(ids.size, d, dtype=np.int32))
    if not chunks or sum(c.size for c in chunks) == 0:
        raise ValueError("the corpus is empty: no tokens to train on")
    raw = np.concatenate(chunks)
    docs_arr = np.concatenate(doc_ids)
    words_raw = np.array(list(index), dtype=object)
    counts_raw = np.bincount(raw, minlength=len(index))
    keep = np.flatnonzero(counts_raw >= min_count)
    if keep.size == 0:
        raise ValueError(f"no word occurs at least min_count={min_count} times")
    order = keep[np.lexsort((np.arange(keep.size), -counts_raw[keep]))]
    remap = np.full(len(index), -1, dtype=np.int64)
    remap[order] = np.arange(order.size)
    ids = remap[raw]
    mask = ids >= 0
    return (
        [str(w) for w in words_raw[order]],
        counts_raw[order],
        ids[mask].astype(np.int32),
        docs_arr[mask],
    )


class _Sentences:
    """Restartable iterable of token lists (chunks of <= 10,000 tokens within documents)."""

    def __init__(self, tokens: Sequence[str] | np.ndarray, doc_ids: np.ndarray, chunk: int = 10000):
        self.tokens = tokens
        starts = np.flatnonzero(np.r_[True, doc_ids[1:] != doc_ids[:-1]])
        bounds: list[tuple[int, int]] = []
        ends = np.r_[starts[1:], doc_ids.size]
        for s, e in zip(starts, ends):
            for a in range(int(s), int(e), chunk):
                bounds.append((a, min(a + chunk, int(e))))
        self.bounds = bounds

    def __iter__(self) -> Iterator[list[str]]:
        for a, b in self.bounds:
            yield list(self.tokens[a:b])


def _word2vec(sentences: _Sentences, cfg: MultiSenseConfig, min_count: int) -> Word2Vec:
    return Word2Vec(
        sentences,
        vector_size=cfg.dim,
        window=cfg.window,
        min_count=min_count,
        sg=1,
        negative=cfg.negative,
        sample=cfg.sample,
        epochs=cfg.epochs,
        seed=cfg.seed,
        workers=cfg.workers,
    )


def _unit(X: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(X, axis=-1, keepdims=True)
    return np.asarray(X / np.where(n > 0, n, 1.0))


def _contexts(
    positions: np.ndarray,
    ids: np.ndarray,
    docs: np.ndarray,
    weighted: np.ndarray,
    window: int,
) -> np.ndarray:
    """Unit-normalised weighted context vectors of the tokens at ``positions``."""
    n = ids.size
    acc = np.zeros((positions.size, weighted.shape[1]), dtype=np.float64)
    pos_docs = docs[positions]
    for o in range(-window, window + 1):
        if o == 0:
            continue
        q = positions + o
        ok = (q >= 0) & (q < n)
        ok[ok] &= docs[q[ok]] == pos_docs[ok]
        acc[ok] += weighted[ids[q[ok]]]
    return _unit(acc)


def spherical_kmeans(
    X: np.ndarray, k: int, *, n_iter: int = 20, random_state: int | np.random.Generator = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Spherical k-means (cosine) with k-means++ seeding.

    Parameters
    ----------
    X : ndarray, shape (m, d)
        Rows are normalised to unit length internally.
    k : int
        Number of clusters (reduced to the number of distinct rows if larger).

    Returns
    -------
    centers : ndarray, shape (k', d)
        Unit-norm centres.
    labels : ndarray, shape (m,)

    Notes
    -----
    Maximises :math:`\\sum_i \\cos(x_i, c_{z_i})` by alternating :math:`z_i = \\arg\\max_j
    x_i^\\top c_j` and :math:`c_j = \\sum_{z_i=j} x_i / \\|\\sum_{z_i=j} x_i\\|`
    (Dhillon & Modha, 2001). Empty clusters are re-seeded at the worst-fitting point.
    """
    k = check_int(k, "k", low=1)
    n_iter = check_int(n_iter, "n_iter", low=0)
    rng = np.random.default_rng(check_random_state(random_state))
    X = _unit(check_array(X, "X", ndim=2))
    m = X.shape[0]
    if m == 0:
        raise ValueError("cannot cluster zero points")
    k = max(1, min(int(k), m))
    centers = np.empty((k, X.shape[1]))
    centers[0] = X[rng.integers(m)]
    dist = 1.0 - X @ centers[0]
    for j in range(1, k):
        p = np.clip(dist, 0.0, None)
        tot = p.sum()
        i = int(rng.choice(m, p=p / tot)) if tot > 0 else int(rng.integers(m))
        centers[j] = X[i]
        dist = np.minimum(dist, 1.0 - X @ centers[j])
    labels = np.zeros(m, dtype=np.int64)
    for it in range(n_iter):
        sims = X @ centers.T
        new = np.argmax(sims, axis=1)
        for j in range(k):
            members = new == j
            if not members.any():
                worst = int(np.argmin(sims[np.arange(m), new]))
                new[worst] = j
                members = new == j
            centers[j] = _unit(X[members].sum(axis=0))
        if it > 0 and np.array_equal(new, labels):
            break
        labels = new
    labels = np.argmax(X @ centers.T, axis=1)
    return centers, labels


def online_sense_clustering(
    X: np.ndarray, threshold: float, max_senses: int
) -> tuple[np.ndarray, np.ndarray]:
    """Non-parametric online clustering of NP-MSSG (Neelakantan et al., 2014).

    Visits the rows of ``X`` in order; a row opens a new cluster when its cosine to every
    existing centre is below ``threshold`` (:math:`\\lambda`) and fewer than ``max_senses``
    clusters exist, otherwise it joins the most similar centre (centre = running sum).

    Returns
    -------
    centers : ndarray, shape (k, d) (unit norm)
    labels : ndarray, shape (m,)
    """
    threshold = check_float(threshold, "threshold (a cosine)", low=-1, high=1)
    max_senses = check_int(max_senses, "max_senses", low=1)
    X = _unit(check_array(X, "X", ndim=2))
    m = X.shape[0]
    if m == 0:
        raise ValueError("cannot cluster zero points")
    sums = np.zeros((max_senses, X.shape[1]))
    units = np.zeros_like(sums)
    k = 0
    labels = np.empty(m, dtype=np.int64)
    for i in range(m):
        x = X[i]
        if k:
            sims = units[:k] @ x
            j = int(np.argmax(sims))
            if sims[j] < threshold and k < max_senses:
                j = k
                k += 1
        else:
            j, k = 0, 1
        sums[j] += x
        nrm = np.linalg.norm(sums[j])
        units[j] = sums[j] / nrm if nrm > 0 else sums[j]
        labels[i] = j
    return units[:k].copy(), labels


def _prune_small(
    X: np.ndarray, centers: np.ndarray, labels: np.ndarray, min_fraction: float
) -> np.ndarray:
    """Drop clusters holding fewer than ``min_fraction`` of the points; return kept centres."""
    m = labels.size
    for _ in range(centers.shape[0]):
        sizes = np.bincount(labels, minlength=centers.shape[0])
        small = sizes < max(2.0, min_fraction * m)
        if not small.any() or small.all():
            break
        centers = centers[~small]
        labels = np.argmax(X @ centers.T, axis=1)
        centers = _unit(np.stack([X[labels == j].sum(axis=0) for j in range(centers.shape[0])]))
        labels = np.argmax(X @ centers.T, axis=1)
    # order senses by decreasing size for readability / reproducibility
    sizes = np.bincount(labels, minlength=centers.shape[0])
    order = np.lexsort((np.arange(sizes.size), -sizes))
    return centers[order]


def _msv_arrays(msv: MultiSenseVectors) -> dict[str, np.ndarray]:
    words = msv.words
    senses = [msv.sense_vectors(w) for w in words]
    return {
        "words": np.array(words, dtype=str),
        "glob": msv.as_word_vectors().vectors,
        "counts": np.array([s.shape[0] for s in senses]),
        "senses": np.vstack(senses),
        "centers": np.vstack([msv.context_centers(w) for w in words]),
    }


def _msv_from_arrays(z: Mapping[str, np.ndarray]) -> MultiSenseVectors:
    words = [str(w) for w in z["words"]]
    splits = np.cumsum(z["counts"])[:-1]
    return MultiSenseVectors(
        words, z["glob"], np.split(z["senses"], splits), np.split(z["centers"], splits)
    )


def train_multisense(
    corpus: CorpusLike,
    *,
    config: MultiSenseConfig | None = None,
    max_tokens: int | None = None,
    cache: bool = False,
    progress: bool | None = None,
    **params: Any,
) -> MultiSenseVectors:
    """Train multi-prototype embeddings on a corpus.

    Parameters
    ----------
    corpus : Corpus or iterable of token lists
        A :class:`workbench.datasets.Corpus` (documents are read with ``iter_documents``) or
        any iterable of token sequences (one per document).
    config : MultiSenseConfig, optional
        All training parameters; keyword arguments (``dim=...``, ``method=...``) override its
        fields. Fields:

        * ``dim, window, min_count, epochs, negative, sample`` -- gensim skip-gram settings
          for both stages (``min_count`` also prunes the vocabulary);
        * ``method`` -- ``"kmeans"`` (fixed ``n_senses`` = K per word, spherical k-means) or
          ``"nonparametric"`` (NP-MSSG-style: a new sense opens when the context's cosine
          to every centre is below ``threshold`` = :math:`\\lambda`, at most ``max_senses``);
        * ``n_multi`` / ``min_sense_count`` -- the ``n_multi`` most frequent words occurring
          at least ``min_sense_count`` times get several senses (all others one);
        * ``context_window`` -- tokens on each side forming an occurrence's context;
          ``context_weighting`` -- ``"subsample"`` weights each context word by
          :math:`\\min(1, \\sqrt{t/f(w)})` with :math:`t` = ``sample`` (frequent words count
          less, as in word2vec subsampling), ``"uniform"`` averages them;
        * ``max_samples`` -- occurrences per word (seeded sample) used to fit the centres;
          all occurrences are then assigned to their nearest centre;
        * ``min_sense_fraction`` -- senses with fewer occurrences than this fraction of the
          sample are merged into the others;
        * ``seed``, ``workers`` -- reproducibility (``workers=1`` makes gensim deterministic);
        * ``separator`` -- relabelled tokens are ``word + separator + sense`` (``bank_0``).
    max_tokens : int, optional
        Use only the first ``max_tokens`` tokens of the corpus.
    cache : bool
        Store / reuse the trained model in :func:`workbench.datasets.cache_dir` under a key
        made of the corpus identity (name, sha256 and ``max_tokens``) and every parameter.
    progress : bool or None
        Show tqdm progress bars (``None``: only on a terminal).

    Returns
    -------
    MultiSenseVectors
        ``global_vectors`` are the stage-1 single-sense vectors, centred (their mean vector
        subtracted: skip-gram vectors share a large common direction that makes all contexts
        look alike), ``senses`` the stage-2 sense vectors (one per sense token; words with one
        sense get their stage-2 word vector) and ``centers`` the unit-norm context centres of
        the senses, in the global-vector space (a one-sense word's centre is its unit global
        vector).

    Notes
    -----
    1. Skip-gram (gensim) on the corpus gives single-sense vectors :math:`u_w` (centred).
    2. Each occurrence :math:`i` of a multi-sense word gets the context vector
       :math:`c_i = \\sum_{0<|o|\\le h} a_{w_{i+o}} \\hat u_{w_{i+o}}` (unit :math:`\\hat u`,
       weights :math:`a`), normalised to unit length.
    3. The contexts of each word are clustered: spherical k-means with fixed K
       (Reisinger & Mooney 2010; Huang et al. 2012) or the online non-parametric rule of
       NP-MSSG; each occurrence is labelled with its nearest centre.
    4. Tokens are relabelled ``word_s`` and skip-gram is trained again on the relabelled
       corpus; the vector of ``word_s`` is sense :math:`s` of ``word``.

    References
    ----------
    Reisinger & Mooney (2010), NAACL; Huang et al. (2012), ACL; Neelakantan et al. (2014),
    EMNLP.
    """
    cfg = config or MultiSenseConfig()
    if params:
        unknown = set(params) - set(asdict(cfg))
        if unknown:
            raise TypeError(f"unknown training parameters: {sorted(unknown)}")
        cfg = MultiSenseConfig(**{**asdict(cfg), **params})
    _validate_config(cfg)
    max_tokens = check_int(max_tokens, "max_tokens", low=1, allow_none=True)
    cache = check_bool(cache, "cache")
    if progress is not None:
        progress = check_bool(progress, "progress")

    if cache:
        corpus_id = _corpus_identity(corpus)
        if corpus_id is None:
            raise ValueError("cache=True needs a workbench Corpus (with a name and sha256)")
        # the cache's per-entry lock makes another process training the same model (a seed
        # worker, a notebook run in parallel) wait for it instead of training it twice
        stage1 = {"corpus": corpus_id, "max_tokens": max_tokens,
                  **{k: v for k, v in asdict(cfg).items() if k in _STAGE1_FIELDS}}  # fmt: skip
        entry = Cache(_CACHE_NAMESPACE, version=_CACHE_VERSION).get_or_build(
            {"corpus": corpus_id, "max_tokens": max_tokens, "cfg": asdict(cfg)},
            lambda: (
                _msv_arrays(_train_single_threaded(corpus, cfg, max_tokens, progress, stage1)),
                None,
            ),  # fmt: skip
        )
        return _msv_from_arrays(entry.arrays)
    return _train_single_threaded(corpus, cfg, max_tokens, progress)


def _train_single_threaded(
    corpus: CorpusLike,
    cfg: MultiSenseConfig,
    max_tokens: int | None,
    progress: bool | None,
    stage1_key: Mapping[str, Any] | None = None,
) -> MultiSenseVectors:
    """:func:`_train` with one BLAS thread: its matrix products are small, and on a shared
    machine idle BLAS threads spinning for a core slow them down many times over."""
    with threadpool_limits(limits=1):
        return _train(corpus, cfg, max_tokens, progress, stage1_key)


def _corpus_identity(corpus: CorpusLike) -> str | None:
    if hasattr(corpus, "sha256") and hasattr(corpus, "name"):
        base = f"{corpus.name}:{corpus.sha256}:{getattr(corpus, 'lowercase', True)}"
        mt = getattr(corpus, "max_tokens", None)
        return base + (f":{mt}" if mt is not None else "")
    return None


def _iter_docs(corpus: CorpusLike, max_tokens: int | None) -> Iterator[Sequence[str]]:
    source = corpus.iter_documents() if hasattr(corpus, "iter_documents") else corpus
    budget = max_tokens
    for doc in source:
        tokens = doc.tokens if hasattr(doc, "tokens") else doc
        if isinstance(tokens, str):
            raise TypeError("corpus must yield token sequences (lists of str), not strings")
        if budget is not None:
            if budget <= 0:
                return
            tokens = list(tokens)[:budget]
            budget -= len(tokens)
        yield tokens


def _train(
    corpus: CorpusLike,
    cfg: MultiSenseConfig,
    max_tokens: int | None,
    progress: bool | None,
    stage1_key: Mapping[str, Any] | None = None,
) -> MultiSenseVectors:
    disable = None if progress is None else not progress
    bar = tqdm(total=4, desc="multi-sense training", disable=disable)
    vocab, counts, ids, docs = _encode(_iter_docs(corpus, max_tokens), cfg.min_count)
    n_tok = ids.size
    logger.info("multi-sense: %d tokens, %d words (min_count=%d)", n_tok, len(vocab), cfg.min_count)
    words_arr = np.array(vocab, dtype=object)

    # stage 1: single-sense skip-gram
    bar.set_postfix_str("stage 1 skip-gram")

    def stage1() -> np.ndarray:
        model1 = _word2vec(_Sentences(words_arr[ids], docs), cfg, min_count=1)
        return np.stack([model1.wv[w] for w in vocab]).astype(np.float64)

    if stage1_key is None:
        glob = stage1()
    else:  # models differing only in their sense settings share stage 1 (and wait for it)
        glob = (
            Cache(_STAGE1_NAMESPACE, version=_CACHE_VERSION)
            .get_or_build(stage1_key, lambda: ({"glob": stage1()}, None))
            .arrays["glob"]
        )
        if glob.shape != (len(vocab), cfg.dim):
            glob = stage1()
    bar.update(1)

    # multi-sense targets
    eligible = np.flatnonzero(counts >= cfg.min_sense_count)[: cfg.n_multi]
    targets = eligible  # vocab is sorted by decreasing count
    sep = cfg.separator
    if targets.size:
        vocab_set = set(vocab)
        clash = [
            f"{vocab[t]}{sep}{s}"
            for t in targets
            for s in range(max(cfg.n_senses, cfg.max_senses))
            if f"{vocab[t]}{sep}{s}" in vocab_set
        ]
        if clash:
            raise ValueError(
                f"relabelled sense token {clash[0]!r} already occurs in the corpus; choose "
                "another separator"
            )

    # context vectors
    freq = counts / float(n_tok)
    if cfg.context_weighting == "subsample":
        weights = np.minimum(1.0, np.sqrt(cfg.sample / freq))
    else:
        weights = np.ones(len(vocab))
    # single-sense vectors share a large common direction (contexts of any word then have
    # cosine ~0.97); centring the unit vectors removes it so contexts can be told apart
    glob = glob - glob.mean(axis=0)
    centred = _unit(glob)
    weighted = centred * weights[:, None]
    rng = np.random.default_rng(cfg.seed)

    is_target = np.zeros(len(vocab), dtype=bool)
    is_target[targets] = True
    target_pos = np.flatnonzero(is_target[ids])
    order = np.argsort(ids[target_pos], kind="stable")
    sorted_pos = target_pos[order]
    word_of = ids[sorted_pos]
    starts = np.searchsorted(word_of, targets)
    ends = np.searchsorted(word_of, targets, side="right")

    kmax = cfg.n_senses if cfg.method == "kmeans" else cfg.max_senses
    centers_pad = np.zeros((targets.size, kmax, glob.shape[1]))
    n_centers = np.zeros(targets.size, dtype=np.int64)
    bar.set_postfix_str("clustering contexts")
    for j in tqdm(range(targets.size), desc="clustering", disable=disable, leave=False):
        pos = sorted_pos[starts[j] : ends[j]]
        if pos.size > cfg.max_samples:
            pos = np.sort(rng.choice(pos, size=cfg.max_samples, replace=False))
        X = _contexts(pos, ids, docs, weighted, cfg.context_window)
        if cfg.method == "kmeans":
            C, lab = spherical_kmeans(X, cfg.n_senses, n_iter=cfg.kmeans_iter, random_state=rng)
        else:
            C, lab = online_sense_clustering(X, cfg.threshold, cfg.max_senses)
        C = _prune_small(X, C, lab, cfg.min_sense_fraction)
        centers_pad[j, : C.shape[0]] = C
        n_centers[j] = C.shape[0]
    bar.update(1)

    # assign every occurrence, relabel
    bar.set_postfix_str("relabelling")
    target_row = np.full(len(vocab), -1, dtype=np.int64)
    target_row[targets] = np.arange(targets.size)
    labels = np.zeros(n_tok, dtype=np.int64)
    chunk = 100_000
    valid = np.arange(kmax)[None, :] < n_centers[:, None]
    for a in range(0, target_pos.size, chunk):
        pos = target_pos[a : a + chunk]
        X = _contexts(pos, ids, docs, weighted, cfg.context_window)
        rows = target_row[ids[pos]]
        sims = np.einsum("nd,nkd->nk", X, centers_pad[rows])
        sims[~valid[rows]] = -np.inf
        labels[pos] = np.argmax(sims, axis=1)
    multi_rows = np.flatnonzero(n_centers >= 2)
    multi_words = targets[multi_rows]
    sense_names: dict[int, list[str]] = {
        int(t): [f"{vocab[t]}{sep}{s}" for s in range(int(n_centers[r]))]
        for r, t in zip(multi_rows, multi_words)
    }
    # token strings of the relabelled corpus: sense tokens get ids after the vocabulary
    offsets = np.zeros(len(vocab), dtype=np.int64)
    extra: list[str] = []
    for t in multi_words:
        offsets[t] = len(vocab) + len(extra)
        extra.extend(sense_names[int(t)])
    all_names = np.array(vocab + extra, dtype=object)
    is_multi = np.zeros(len(vocab), dtype=bool)
    is_multi[multi_words] = True
    new_ids = ids.astype(np.int64)
    sel = is_multi[ids]
    new_ids[sel] = offsets[ids[sel]] + labels[sel]
    bar.update(1)

    # stage 2: skip-gram on the relabelled corpus
    bar.set_postfix_str("stage 2 skip-gram")
    model2 = _word2vec(_Sentences(all_names[new_ids], docs), cfg, min_count=1)
    bar.update(1)
    bar.close()

    dim = glob.shape[1]
    senses: list[np.ndarray] = []
    centers: list[np.ndarray] = []
    for i, w in enumerate(vocab):
        if is_multi[i]:
            names = sense_names[i]
            vecs = np.stack(
                [model2.wv[n] if n in model2.wv else np.full(dim, np.nan) for n in names]
            )
            if np.isnan(vecs).any():  # a sense never occurred after assignment: drop it
                keep = ~np.isnan(vecs).any(axis=1)
                r = target_row[i]
                senses.append(vecs[keep])
                centers.append(centers_pad[r, : len(names)][keep])
                continue
            senses.append(vecs.astype(np.float64))
            centers.append(centers_pad[target_row[i], : len(names)].copy())
        else:
            senses.append(np.asarray(model2.wv[w], dtype=np.float64)[None, :])
            centers.append(centred[i][None, :])
    n_multi = int(sum(s.shape[0] >= 2 for s in senses))
    logger.info(
        "multi-sense: %d words with >= 2 senses, %d sense vectors",
        n_multi,
        sum(len(s) for s in senses),
    )
    return MultiSenseVectors(vocab, glob, senses, centers)
