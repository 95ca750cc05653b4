"""Positional and window co-occurrence views from a corpus, with an on-disk cache."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from workbench._io import Cache, content_hash
from workbench._validation import check_bool, check_choice, check_int

from ._base import EncodedCorpus, View, Vocabulary, iter_token_documents

logger = logging.getLogger(__name__)

__all__ = [
    "encode_corpus",
    "vocabulary_and_encoding",
    "count_offset",
    "positional_views",
    "window_view",
    "window_weight",
    "WINDOW_WEIGHTINGS",
    "views_cache_dir",
    "BACKENDS",
]

_CACHE_VERSION = 2
_CACHE_NAMESPACE = "views"
#: Positions counted at once per offset (bounds memory: ~ 30 bytes per position).
DEFAULT_CHUNK = 1 << 23
#: Where counting runs: ``"local"`` (this process) or ``"dask"`` (the active dask.distributed
#: Client, see :mod:`workbench.views._dask`).
BACKENDS = ("local", "dask")


def encode_corpus(corpus: Any, vocab: Vocabulary, *, drop_oov: bool = False) -> EncodedCorpus:
    """Encode a corpus once as an int32 id array (``-1`` for out-of-vocabulary tokens).

    Parameters
    ----------
    corpus : Corpus or iterable of token lists
        A :class:`workbench.datasets.Corpus` (tokenised by :func:`workbench.datasets.tokenize`
        with the corpus' ``lowercase`` / ``max_tokens`` options) or one token list per document.
    vocab : Vocabulary
    drop_oov : bool, default False
        If False, out-of-vocabulary tokens keep their position (id ``-1``): offsets are measured
        in the original text and pairs involving them are skipped. If True they are removed
        first, so offsets count in-vocabulary words only.

    Returns
    -------
    EncodedCorpus
        ``ids`` (int32), ``doc_starts`` (int64), ``vocab_size`` and ``source`` (the corpus
        sha256 and options when known).
    """
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")
    return encode_with_index(corpus, vocab.index, drop_oov=drop_oov)


def encode_with_index(
    corpus: Any, index: Mapping[str, int], *, drop_oov: bool = False
) -> EncodedCorpus:
    """:func:`encode_corpus` with a bare ``word -> row`` index (rows ``0 .. len(index) - 1``).

    What the Dask backend's workers run on their shard with the scattered vocabulary index.
    """
    get = index.get
    chunks: list[np.ndarray] = []
    lengths: list[int] = []
    for toks in iter_token_documents(corpus):
        arr = np.fromiter((get(t, -1) for t in toks), dtype=np.int32, count=len(toks))
        if drop_oov:
            arr = arr[arr >= 0]
        chunks.append(arr)
        lengths.append(arr.shape[0])
    ids = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    doc_starts = np.zeros(len(lengths), dtype=np.int64)
    if lengths:
        doc_starts[1:] = np.cumsum(lengths[:-1])
    return EncodedCorpus(ids, doc_starts, len(index), _source_of(corpus, drop_oov))


def vocabulary_and_encoding(
    corpus: Any, *, max_size: int | None = None, min_count: int = 1, drop_oov: bool = False
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


def _source_of(corpus: Any, drop_oov: bool) -> str | None:
    sha = getattr(corpus, "sha256", None)
    if not isinstance(sha, str):
        return None
    return json.dumps(
        {
            "sha256": sha,
            "lowercase": getattr(corpus, "lowercase", None),
            "max_tokens": getattr(corpus, "max_tokens", None),
            "drop_oov": drop_oov,
        },
        sort_keys=True,
    )


def _as_encoded(corpus: Any, vocab: Vocabulary) -> EncodedCorpus:
    if isinstance(corpus, EncodedCorpus):
        if corpus.vocab_size not in (-1, len(vocab)):
            raise ValueError(
                f"the encoded corpus indexes a vocabulary of {corpus.vocab_size} words, "
                f"but vocab has {len(vocab)}; encode it with this vocabulary"
            )
        if corpus.ids.size and int(corpus.ids.max()) >= len(vocab):
            raise ValueError(f"encoded corpus has ids >= len(vocab) = {len(vocab)}")
        return corpus
    return encode_corpus(corpus, vocab)


def _count_codes(
    codes: np.ndarray, stride: int, n_rows: int, n_cols: int, dtype: Any
) -> sp.csr_array:
    """Sort pair codes ``row * stride + col`` in place and run-length count them into CSR."""
    n = codes.shape[0]
    if n == 0:
        return sp.csr_array((n_rows, n_cols), dtype=dtype)
    codes.sort()
    flag = np.empty(n, dtype=bool)
    flag[0] = True
    np.not_equal(codes[1:], codes[:-1], out=flag[1:])
    first = np.flatnonzero(flag)
    del flag
    u = codes[first]
    counts = np.diff(first, append=n)
    del first
    rows = u // stride
    cols = (u - rows * stride).astype(np.int32)
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=indptr[1:])
    m = sp.csr_array((counts.astype(dtype), cols, indptr), shape=(n_rows, n_cols))
    m.has_canonical_format = True
    return m


_SMALL_BITS = 15


def count_pairs(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int, *, dtype: Any = np.float64
) -> sp.csr_array:
    """Count ``(rows[t], cols[t])`` pairs into a canonical CSR matrix (vectorised).

    Pair codes ``r * n_cols + c`` are sorted in place and run-length counted; the sorted codes
    give the CSR structure directly. Codes are int32 whenever they fit: for large
    vocabularies the (Zipf-frequent) pairs of two ids below :math:`2^{15}` are packed into
    int32 codes ``r << 15 | c`` and the rest sorted as int64, then both parts are added.
    Same result as ``coo -> csr`` with ``sum_duplicates``, about twice as fast.
    """
    rows = np.asarray(rows)
    cols = np.asarray(cols)
    if rows.shape != cols.shape or rows.ndim != 1:
        raise ValueError("rows and cols must be 1-D arrays of the same length")
    if n_rows * n_cols < 2**31:
        codes = rows.astype(np.int32)
        codes *= np.int32(n_cols)
        codes += cols.astype(np.int32, copy=False)
        return _count_codes(codes, n_cols, n_rows, n_cols, dtype)
    lim = 1 << _SMALL_BITS
    small = (rows < lim) & (cols < lim)
    codes = rows[small].astype(np.int32)
    codes <<= _SMALL_BITS
    codes |= cols[small].astype(np.int32, copy=False)
    a = _count_codes(codes, lim, n_rows, n_cols, dtype)
    del codes
    np.logical_not(small, out=small)
    big = rows[small].astype(np.int64)
    big *= n_cols
    big += cols[small]
    del small
    b = _count_codes(big, n_cols, n_rows, n_cols, dtype)
    if b.nnz == 0:
        return a
    if a.nnz == 0:
        return b
    m = sp.csr_array(a + b)
    m.sort_indices()
    return m


def count_offset(
    encoded: EncodedCorpus,
    offset: int,
    *,
    respect_documents: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    dtype: Any = np.float64,
    _pos: np.ndarray | None = None,
) -> sp.csr_array:
    r"""Count matrix :math:`Z_k` of one offset ``k``.

    :math:`[Z_k]_{ij} = \#\{t : \mathrm{ids}_t = i,\ \mathrm{ids}_{t-k} = j\}`: word ``j``
    occurs ``k`` positions *behind* (before) word ``i``. A negative ``k`` looks ahead
    (:math:`Z_{-k} = Z_k^\top`). With ``respect_documents`` no pair crosses a document
    boundary. Counting is vectorised: pair codes of ``chunk_size`` positions at a time are
    sorted and counted, and the per-chunk CSR matrices are summed.
    """
    k = check_int(offset, "offset")
    if k == 0:
        raise ValueError("offset must be a non-zero integer (0 pairs a word with itself)")
    chunk_size = check_int(chunk_size, "chunk_size", low=1)
    respect_documents = check_bool(respect_documents, "respect_documents")
    if k < 0:
        return sp.csr_array(
            count_offset(
                encoded,
                -k,
                respect_documents=respect_documents,
                chunk_size=chunk_size,
                dtype=dtype,
                _pos=_pos,
            ).T
        )
    ids = encoded.ids
    v = encoded.vocab_size if encoded.vocab_size > 0 else int(ids.max(initial=-1)) + 1
    pos = None
    if respect_documents:
        pos = encoded.position_in_document() if _pos is None else _pos
    n = ids.shape[0]
    total: sp.csr_array | None = None
    for start in range(k, max(n, k), chunk_size):
        end = min(n, start + chunk_size)
        r = ids[start:end]
        c = ids[start - k : end - k]
        valid = (r >= 0) & (c >= 0)
        if pos is not None:
            valid &= pos[start:end] >= k
        m = count_pairs(r[valid], c[valid], v, v, dtype=dtype)
        total = m if total is None else total + m
    if total is None:
        total = sp.csr_array((v, v), dtype=dtype)
    return total


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
    build: Any,
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

    def _build() -> tuple[dict[str, Any], dict[str, Any]]:
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
    corpus: Any,
    vocab: Vocabulary,
    offsets: Iterable[int] = range(1, 16),
    *,
    respect_documents: bool = True,
    dtype: Any = np.float64,
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
        from tqdm.auto import tqdm

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
        from joblib import Parallel, delayed

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
    corpus: Any,
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
    from . import _dask

    source = _dask.as_corpus_input(corpus, "corpus")
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")

    def counts(offsets: Sequence[int], **kw: Any) -> list[sp.csr_array]:
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
    corpus: Any,
    vocab: Vocabulary,
    window: int = 5,
    *,
    symmetric: bool = True,
    weighting: str = "uniform",
    respect_documents: bool = True,
    dtype: Any = np.float64,
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
