"""Positional and window co-occurrence views from a corpus, with an on-disk cache."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed
from numpy.typing import DTypeLike
from tqdm.auto import tqdm

from workbench._io import Cache, content_hash
from workbench._typing import Matrix, PathLikeStr
from workbench._validation import check_bool, check_choice, check_int
from workbench.cluster import BACKENDS

from . import _dask
from ._base import (
    EncodedCorpus,
    TokenCorpus,
    View,
    Vocabulary,
    _local_corpus,
    iter_token_documents,
)
from ._counting import (
    DEFAULT_CHUNK,
    _source_of,
    count_offset,
    count_pairs,
    encode_corpus,
    encode_with_index,
)
from ._shards import as_corpus_input

logger = logging.getLogger(__name__)

__all__ = [
    "encode_corpus",
    "encode_with_index",
    "vocabulary_and_encoding",
    "count_offset",
    "count_pairs",
    "positional_views",
    "window_view",
    "window_weight",
    "WINDOW_WEIGHTINGS",
    "views_cache_dir",
    "BACKENDS",
    "DEFAULT_CHUNK",
]

_CACHE_VERSION = 2
_CACHE_NAMESPACE = "views"


def vocabulary_and_encoding(
    corpus: TokenCorpus, *, max_size: int | None = None, min_count: int = 1, drop_oov: bool = False
) -> tuple[Vocabulary, EncodedCorpus]:
    """Build the vocabulary and encode the corpus in ONE pass over the text.

    Same result as ``vocab = Vocabulary.from_corpus(corpus, max_size=..., min_count=...)``
    followed by ``encode_corpus(corpus, vocab, drop_oov=...)``, but the corpus is read and
    tokenised once (tokens are numbered by first occurrence, counted with ``np.bincount`` and
    renumbered by frequency). Use it for large corpora.
    """
    max_size = check_int(max_size, "max_size", low=1, allow_none=True)
    min_count = check_int(min_count, "min_count", low=1)
    drop_oov = check_bool(drop_oov, "drop_oov")
    types: dict[str, int] = {}
    setdefault = types.setdefault
    chunks: list[np.ndarray] = []
    lengths: list[int] = []
    for toks in iter_token_documents(corpus):
        arr = np.fromiter(
            (setdefault(t, len(types)) for t in toks), dtype=np.int32, count=len(toks)
        )
        chunks.append(arr)
        lengths.append(arr.shape[0])
    type_ids = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    del chunks
    words = list(types)
    counts = np.bincount(type_ids, minlength=len(words))
    keep = np.flatnonzero(counts >= min_count)
    order = sorted(keep.tolist(), key=lambda i: (-int(counts[i]), words[i]))
    if max_size is not None:
        order = order[:max_size]
    if not order:
        raise ValueError(f"no word has count >= min_count={min_count}")
    vocab = Vocabulary.from_words([words[i] for i in order], counts[order])
    remap = np.full(len(words), -1, dtype=np.int32)
    remap[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
    ids = remap[type_ids]
    del type_ids
    doc_of = None
    if drop_oov:
        doc_of = np.repeat(np.arange(len(lengths)), lengths)
        keep_tok = ids >= 0
        ids = ids[keep_tok]
        lengths = np.bincount(doc_of[keep_tok], minlength=len(lengths)).tolist()
    doc_starts = np.zeros(len(lengths), dtype=np.int64)
    if lengths:
        doc_starts[1:] = np.cumsum(lengths[:-1])
    return vocab, EncodedCorpus(ids, doc_starts, len(vocab), _source_of(corpus, drop_oov))


def _as_encoded(
    corpus: TokenCorpus | EncodedCorpus | PathLikeStr, vocab: Vocabulary
) -> EncodedCorpus:
    if isinstance(corpus, EncodedCorpus):
        if corpus.vocab_size not in (-1, len(vocab)):
            raise ValueError(
                f"the encoded corpus indexes a vocabulary of {corpus.vocab_size} words, "
                f"but vocab has {len(vocab)}; encode it with this vocabulary"
            )
        if corpus.ids.size and int(corpus.ids.max()) >= len(vocab):
            raise ValueError(f"encoded corpus has ids >= len(vocab) = {len(vocab)}")
        return corpus
    return encode_corpus(_local_corpus(corpus), vocab)


# ----------------------------------------------------------------------------- cache


def views_cache_dir() -> Path:
    """Folder of cached views: ``<cache root>/views`` (see :mod:`workbench._io`)."""
    return Cache(_CACHE_NAMESPACE, version=_CACHE_VERSION).folder


def _encoded_hash(encoded: EncodedCorpus, vocab: Vocabulary) -> str:
    # the encoded ids cover the corpus text, tokenisation, max_tokens and the vocabulary mapping
    return content_hash(vocab, encoded.ids, encoded.doc_starts)


def cached_matrices(
    cache: bool | str | os.PathLike[str] | None,
    content: str,
    params: dict[str, Any],
    names: Sequence[str],
    build: Callable[[], Iterable[Matrix]],
) -> list[sp.csr_array]:
    """Load the matrices ``names`` of ``params`` from the verified cache, or ``build()`` them.

    ``cache`` is False/None (no cache), True (the default cache root) or a folder used as the
    cache root. Entries live in the ``views`` namespace of :class:`workbench._io.Cache`.
    """
    if cache is False or cache is None:
        return list(build())
    root = None if cache is True else Path(cache)
    store = Cache(_CACHE_NAMESPACE, version=_CACHE_VERSION, root=root)
    inputs = {"params": params, "content": content, "names": list(names)}

    def _build() -> tuple[dict[str, sp.csr_array], dict[str, Any]]:
        mats = [sp.csr_array(m) for m in build()]
        arrays = {f"m{i}": m for i, m in enumerate(mats)}
        return arrays, {"names": list(names), "nnz": [int(m.nnz) for m in mats]}

    entry = store.get_or_build(inputs, _build)
    logger.info("views %s: %d matrices (%s)", entry.key, len(names), store.folder)
    return [sp.csr_array(entry.arrays[f"m{i}"]) for i in range(len(names))]


# ----------------------------------------------------------------------------- builders


def _observed(m: sp.csr_array) -> np.ndarray:
    return np.diff(m.indptr) > 0


def positional_views(
    corpus: TokenCorpus | EncodedCorpus | PathLikeStr,
    vocab: Vocabulary,
    offsets: Iterable[int] = range(1, 16),
    *,
    respect_documents: bool = True,
    dtype: DTypeLike = np.float64,
    n_jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK,
    cache: bool | str | os.PathLike[str] = False,
    progress: bool | None = None,
    backend: str = "local",
) -> list[View]:
    r"""One co-occurrence view per offset ``k`` (the paper's 15 irredundant views, k = 1..15).

    Parameters
    ----------
    corpus : Corpus, iterable of token lists, or EncodedCorpus
        Encoded once with :func:`encode_corpus` (pass an :class:`EncodedCorpus` to reuse it,
        e.g. to choose ``drop_oov``). With ``backend="dask"``: a
        :class:`~workbench.datasets.Corpus`, a corpus file or directory path, or a
        :class:`ShardedCorpus` from :func:`shard_corpus` (read by the workers).
    vocab : Vocabulary
        Rows *and* columns (contexts) of every view; built with explicit ``max_size`` /
        ``min_count`` by :meth:`Vocabulary.from_corpus`.
    offsets : iterable of int
        Non-zero offsets; negative offsets look ahead (:math:`Z_{-k} = Z_k^\top`).
    respect_documents : bool, default True
        No pair crosses a document boundary.
    n_jobs : int
        Threads over offsets (numpy's sort releases the GIL); memory grows with ``n_jobs``.
        Local backend only.
    chunk_size : int
        Positions counted at once (memory bound; per shard with ``backend="dask"``).
    cache : bool or path
        Store / reuse the matrices on disk (``views_cache_dir()`` when True), keyed by the
        sha256 of the encoded corpus, the vocabulary and the parameters (with
        ``backend="dask"``: the sha256 of the corpus files instead of the encoded corpus).
    progress : bool or None
        tqdm progress bar (None = only on a terminal). Local backend only.
    backend : {"local", "dask"}
        ``"dask"`` counts on the active ``dask.distributed`` Client: the corpus is cut into
        shards at document boundaries, each worker counts its shards and the partial counts
        are summed by a tree reduction -- the same matrices as ``"local"``, entry by entry
        (see :mod:`workbench.views._dask`; needs the ``scale`` extra).

    Returns
    -------
    list of View
        ``name = "offset_{k}"``, family ``"positional"``, ``meta = {"offset": k}``; rows with
        no pair are unobserved.

    Notes
    -----
    .. math:: [Z_k]_{ij} = \sum_t \mathbb{1}[w_t = i]\,\mathbb{1}[w_{t-k} = j]

    i.e. the number of times word :math:`w_j` occurred :math:`k` words behind :math:`w_i`
    (Rastogi et al., 2015, Sec. 4). Out-of-vocabulary tokens keep their positions unless the
    corpus was encoded with ``drop_oov=True``.

    References
    ----------
    P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: representation learning via
    generalized CCA. NAACL-HLT.
    """
    if isinstance(offsets, (str, bytes)) or not hasattr(offsets, "__iter__"):
        raise TypeError(f"offsets must be an iterable of integers, got {offsets!r}")
    offs = [check_int(k, f"offsets[{i}]") for i, k in enumerate(offsets)]
    respect_documents = check_bool(respect_documents, "respect_documents")
    n_jobs = check_int(n_jobs, "n_jobs", low=1)
    chunk_size = check_int(chunk_size, "chunk_size", low=1)
    if progress is not None:
        progress = check_bool(progress, "progress")
    if not offs:
        raise ValueError("offsets is empty")
    if any(k == 0 for k in offs):
        raise ValueError("offsets must be non-zero")
    if len(set(offs)) != len(offs):
        raise ValueError(f"duplicate offsets in {offs}")
    backend = check_choice(backend, "backend", BACKENDS)
    names = [f"offset_{k}" for k in offs]
    params = {
        "kind": "positional",
        "offsets": offs,
        "respect_documents": respect_documents,
        "dtype": np.dtype(dtype).name,
    }
    if backend == "dask":

        def build_dask(counts: Callable[..., list[sp.csr_array]]) -> list[sp.csr_array]:
            mats = counts(offs, respect_documents=respect_documents, chunk_size=chunk_size)
            return [m.astype(dtype) for m in mats]

        mats = _dask_cached(corpus, vocab, params, names, cache, build_dask)
        return _positional(names, mats, offs, vocab)
    enc = _as_encoded(corpus, vocab)
    if enc.n_tokens == 0:
        raise ValueError("the corpus has no tokens")

    def build() -> list[sp.csr_array]:
        pos = enc.position_in_document() if respect_documents else None

        def one(k: int) -> sp.csr_array:
            return count_offset(
                enc,
                k,
                respect_documents=respect_documents,
                chunk_size=chunk_size,
                dtype=dtype,
                _pos=pos,
            )

        disable = None if progress is None else not progress
        if n_jobs == 1:
            return [one(k) for k in tqdm(offs, desc="offset views", disable=disable)]
        return list(Parallel(n_jobs=n_jobs, prefer="threads")(delayed(one)(k) for k in offs))

    mats = cached_matrices(
        cache, _encoded_hash(enc, vocab), {**params, "source": enc.source}, names, build
    )
    return _positional(names, mats, offs, vocab)


def _positional(
    names: Sequence[str], mats: Sequence[sp.csr_array], offs: Sequence[int], vocab: Vocabulary
) -> list[View]:
    return [
        View(name, m, vocab.words, _observed(m), "positional", vocab, {"offset": k})
        for name, m, k in zip(names, mats, offs)
    ]


def _dask_cached(
    corpus: TokenCorpus | EncodedCorpus | PathLikeStr,
    vocab: Vocabulary,
    params: dict[str, Any],
    names: Sequence[str],
    cache: bool | str | os.PathLike[str] | None,
    build: Callable[[Callable[..., list[sp.csr_array]]], list[sp.csr_array]],
) -> list[sp.csr_array]:
    """Matrices ``names`` built on the Dask cluster: ``build(counts)``, through the cache.

    ``counts(offsets, **kw)`` is :func:`workbench.views._dask.offset_counts` bound to the
    corpus and vocabulary: int64 count matrices, equal to the local :func:`count_offset`.
    The cache key is the sha256 of the corpus files (plus options) and the vocabulary.
    """
    source = as_corpus_input(corpus, "corpus")
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")

    def counts(offsets: Iterable[int], **kw: Any) -> list[sp.csr_array]:
        return _dask.offset_counts(source, vocab, offsets, **kw)

    if cache is False or cache is None:
        return build(counts)
    ident = _source_of(source, False)
    return cached_matrices(
        cache, content_hash(vocab, ident), {**params, "source": ident}, names, lambda: build(counts)
    )


WINDOW_WEIGHTINGS = ("uniform", "harmonic", "dynamic")


def _window_matrix(
    z: Callable[[int], sp.csr_array], window: int, weighting: str, symmetric: bool
) -> sp.csr_array:
    """:math:`\\sum_k a_k Z_k` (plus its transpose if ``symmetric``) from ``z(k) = Z_k``.

    One code path for both backends, so that equal :math:`Z_k` give bitwise equal windows.
    """
    total: sp.csr_array | None = None
    for k in range(1, window + 1):
        m = z(k)
        a_k = window_weight(k, window, weighting)
        if a_k != 1.0:
            m = m * a_k
        total = m if total is None else total + m
    assert total is not None
    if symmetric:
        total = total + total.T.tocsr()
    return sp.csr_array(total)


def window_weight(k: int, window: int, weighting: str) -> float:
    """Weight :math:`a_k` of a context ``k`` words away in a window of half-width ``window``."""
    window = check_int(window, "window", low=1)
    k = check_int(k, "k", low=1, high=window)
    check_choice(weighting, "weighting", WINDOW_WEIGHTINGS)
    if weighting == "harmonic":
        return 1.0 / k
    if weighting == "dynamic":
        return (window - k + 1) / window
    return 1.0


def window_view(
    corpus: TokenCorpus | EncodedCorpus | PathLikeStr,
    vocab: Vocabulary,
    window: int = 5,
    *,
    symmetric: bool = True,
    weighting: str = "uniform",
    respect_documents: bool = True,
    dtype: DTypeLike = np.float64,
    cache: bool | str | os.PathLike[str] = False,
    name: str | None = None,
    backend: str = "local",
) -> View:
    r"""A window co-occurrence view: :math:`\sum_{k=1}^{w} a_k (Z_k + Z_k^\top)` (symmetric).

    Parameters
    ----------
    window : int
        Window half-width :math:`w \ge 1`.
    symmetric : bool, default True
        Count contexts on both sides; if False only the :math:`w` words behind
        (:math:`\sum_k a_k Z_k`, GloVe's "previous words" window).
    weighting : {"uniform", "harmonic", "dynamic"}
        :math:`a_k = 1`, :math:`a_k = 1/k` (GloVe's distance weighting) or
        :math:`a_k = (w - k + 1)/w` (word2vec's dynamic window in expectation: the window size
        is drawn uniformly from :math:`1..w`).

    Other parameters are as in :func:`positional_views` (``backend="dask"`` counts the
    offsets ``1 .. w`` on the cluster, exactly, and weights them here). Name ``"window_{w}"``
    (or ``"window_{w}_left"``), family ``"window"``.
    """
    window = check_int(window, "window", low=1)
    check_choice(weighting, "weighting", WINDOW_WEIGHTINGS)
    symmetric = check_bool(symmetric, "symmetric")
    respect_documents = check_bool(respect_documents, "respect_documents")
    backend = check_choice(backend, "backend", BACKENDS)
    params = {
        "kind": "window",
        "window": int(window),
        "symmetric": symmetric,
        "weighting": weighting,
        "respect_documents": respect_documents,
        "dtype": np.dtype(dtype).name,
    }
    vname = name or (f"window_{window}" if symmetric else f"window_{window}_left")
    if backend == "dask":

        def build_dask(counts: Callable[..., list[sp.csr_array]]) -> list[sp.csr_array]:
            mats = counts(range(1, int(window) + 1), respect_documents=respect_documents)
            return [
                _window_matrix(
                    lambda k: mats[k - 1].astype(dtype), int(window), weighting, symmetric
                )
            ]

        (m,) = _dask_cached(corpus, vocab, params, [vname], cache, build_dask)
    else:
        enc = _as_encoded(corpus, vocab)
        if enc.n_tokens == 0:
            raise ValueError("the corpus has no tokens")

        def build() -> list[sp.csr_array]:
            pos = enc.position_in_document() if respect_documents else None

            def z(k: int) -> sp.csr_array:
                return count_offset(
                    enc, k, respect_documents=respect_documents, dtype=dtype, _pos=pos
                )

            return [_window_matrix(z, int(window), weighting, symmetric)]

        (m,) = cached_matrices(
            cache, _encoded_hash(enc, vocab), {**params, "source": enc.source}, [vname], build
        )
    m.sort_indices()
    return View(
        vname,
        m,
        vocab.words,
        _observed(m),
        "window",
        vocab,
        {k: v for k, v in params.items() if k != "kind"},
    )
