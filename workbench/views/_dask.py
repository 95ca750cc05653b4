"""Counting views on a Dask cluster: a sharded corpus, partial counts summed by a tree reduction.

The ``backend="dask"`` of :func:`~workbench.views.positional_views`,
:func:`~workbench.views.window_view`, :func:`~workbench.views.dependency_views` and
:meth:`Vocabulary.from_corpus <workbench.views.Vocabulary.from_corpus>`. It needs
``dask.distributed`` (the ``scale`` extra: ``pip install "workbench[scale]"``) and an active
:class:`distributed.Client` (``Client(LocalCluster())`` on one machine, ``Client(address)`` for
a running cluster; ``with client.as_current():`` picks one of several). Neither is imported
before a Dask function runs: ``import workbench`` does not need them, and a missing package
or client gives an error saying what to do.

Design
------
Shards
    :func:`shard_corpus` cuts a corpus into :class:`CorpusShard` descriptors -- a few file
    names and a document range, a few hundred bytes each: consecutive files of a corpus
    directory (by default one file per shard, at most ``8 x`` the workers' threads, balanced
    by bytes), or document ranges of similar size of a single file (``2 x`` the threads).
    The workers read their shards' text themselves, so the files must be visible to every
    worker (one machine, or a shared file system); no text passes through the client or the
    scheduler. Shards split only at document boundaries: a document is never cut (a single
    huge document is one shard).
First pass: the vocabulary
    One task per shard counts its words (a :class:`collections.Counter`); the counters are
    merged by a tree reduction and ranked by :meth:`Vocabulary.from_counts` -- the same counts,
    hence the same vocabulary (words, counts, order, ties broken alphabetically, ``max_size``,
    ``min_count``) as the local :meth:`Vocabulary.from_corpus` / ``vocabulary_and_encoding``.
Second pass: the counts
    The vocabulary's ``word -> row`` index is scattered to the workers ONCE
    (``client.scatter(..., broadcast=True)``); every shard task gets the future of it, never a
    pickled copy. A task encodes its shard with the index (out-of-vocabulary tokens keep their
    positions, as :func:`~workbench.views.encode_corpus` does) and counts every requested
    offset with the local kernel :func:`~workbench.views.count_offset` into int64 sparse
    matrices. The partials are summed by a tree reduction (:func:`tree_reduce`): groups of
    ``split_every`` consecutive partials are added by one task, level by level, on the
    workers; only the final sum is gathered. A window view is the weighted sum of the offset
    counts ``1 .. w``, formed on the client by the code of the local builder.
Exactness
    Counts are integers summed as int64, so the order of the additions cannot change them: the
    matrices equal the local ones entry by entry (``(A != B).nnz == 0``), and the float views
    are made from them exactly as locally (casts, window weights, transposes). With
    ``respect_documents=True`` no pair crosses a shard boundary (shards split at document
    boundaries). With ``respect_documents=False`` the pairs that do are counted on the client
    from the first and last ``max |offset|`` token ids of every shard (returned with the
    partials, in shard order), so those counts are exact as well.
Dependency views
    Shards are CoNLL-U files of a folder (each read by a worker, which keeps the sentences
    for both passes) or ranges of a list of sentences (each range scattered once). A task
    counts its relations' edges into one int64 matrix per relation; ``relations="all"``
    first collects the deprels of every shard. The partials are tree-summed the same way.

Modules: the shards and the first pass are in :mod:`workbench.views._shards` (which the
vocabulary uses), the counting kernels both backends run in :mod:`workbench.views._counting` and
:mod:`workbench.views._dependencies`; this module holds the second pass.

Limits: a corpus truncated with ``max_tokens`` is refused (where it is cut depends on every
earlier shard); a single corpus file is re-read by each of its shards from the start up to the
end of the shard's range (only the shard's own documents are tokenized), so a large corpus
scales better as a directory of many files (:func:`workbench.datasets.load_corpus`).
"""

from __future__ import annotations

import functools
import logging
import operator
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from workbench._dask import active_client
from workbench._typing import PathLikeStr
from workbench._validation import check_bool, check_int
from workbench.datasets import Corpus, Sentence, load_conllu

from ._base import Vocabulary
from ._counting import DEFAULT_CHUNK, count_offset, count_pairs, encode_with_index
from ._dependencies import _deprels, conllu_files, relation_list
from ._dependencies import dependency_counts as _local_dependency_counts
from ._shards import (
    _SHARDS_PER_THREAD_FILE,
    DEFAULT_SPLIT_EVERY,
    CorpusShard,
    ShardedCorpus,
    _contiguous_groups,
    _merge_counters,
    _n_threads,
    _sharded,
    tree_reduce,
)

if TYPE_CHECKING:
    from distributed import Client, Future

logger = logging.getLogger(__name__)

__all__ = ["offset_counts", "dependency_counts"]


# ============================================================================ second pass

_OffsetPartial = tuple[list[sp.csr_array], list[tuple[np.ndarray, np.ndarray]]]


def _shard_offset_counts(
    shard: CorpusShard,
    index: dict[str, int],
    ks: Sequence[int],
    respect_documents: bool,
    chunk_size: int,
    edge: int,
) -> _OffsetPartial:
    """On a worker: int64 counts of offsets ``ks`` in one shard, and its first / last ``edge`` ids."""
    enc = encode_with_index(shard, index)
    pos = enc.position_in_document() if respect_documents else None
    mats = [
        count_offset(
            enc, k, respect_documents=respect_documents, chunk_size=chunk_size,
            dtype=np.int64, _pos=pos,
        )
        for k in ks
    ]  # fmt: skip
    ids = enc.ids
    edges = [(ids[:edge].copy(), ids[max(0, ids.shape[0] - edge) :].copy())] if edge else []
    return mats, edges


def _sum_matrices(*parts: Sequence[sp.csr_array]) -> list[sp.csr_array]:
    return [functools.reduce(operator.add, ms) for ms in zip(*parts)]


def _merge_offset_partials(*parts: _OffsetPartial) -> _OffsetPartial:
    mats = _sum_matrices(*(p[0] for p in parts))
    return mats, [e for p in parts for e in p[1]]


def _boundary_counts(
    edges: Sequence[tuple[np.ndarray, np.ndarray]], ks: Sequence[int], n: int
) -> list[sp.csr_array]:
    """Pairs ``(t - k, t)`` whose two tokens lie in different shards, from the shards' edges.

    ``edges[s]`` = the first and the last ``max(ks)`` ids of shard ``s`` (all of them if
    shorter). Walking the shards in order with the last ``max(ks)`` ids seen so far, every
    pair ending in the head of shard ``s`` and starting before it is counted once.
    """
    big = max(ks)
    rows: dict[int, list[np.ndarray]] = {k: [] for k in ks}
    cols: dict[int, list[np.ndarray]] = {k: [] for k in ks}
    prev = np.zeros(0, dtype=np.int32)
    for head, tail in edges:
        if prev.size and head.size:
            seq = np.concatenate([prev, head])
            p = prev.shape[0]
            for k in ks:
                t = np.arange(max(p, k), min(seq.shape[0], p + k))
                if t.size:
                    r, c = seq[t], seq[t - k]
                    ok = (r >= 0) & (c >= 0)
                    rows[k].append(r[ok])
                    cols[k].append(c[ok])
        prev = np.concatenate([prev, tail])[-big:]
    out = []
    for k in ks:
        r = np.concatenate(rows[k]) if rows[k] else np.zeros(0, dtype=np.int32)
        c = np.concatenate(cols[k]) if cols[k] else np.zeros(0, dtype=np.int32)
        out.append(count_pairs(r, c, n, n, dtype=np.int64))
    return out


def _canonical(m: sp.csr_array) -> sp.csr_array:
    m = sp.csr_array(m)
    m.sum_duplicates()
    m.sort_indices()
    return m


def offset_counts(
    corpus: Corpus | ShardedCorpus | PathLikeStr,
    vocab: Vocabulary,
    offsets: Iterable[int],
    *,
    respect_documents: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    n_shards: int | None = None,
    split_every: int = DEFAULT_SPLIT_EVERY,
    client: Client | None = None,
) -> list[sp.csr_array]:
    r"""int64 count matrices :math:`Z_k` of ``offsets``, counted on the cluster.

    Equal, entry by entry, to ``count_offset(encode_corpus(corpus, vocab), k, ...)`` of the
    whole corpus (negative offsets: transposes). One pass over the text: each shard task
    counts every offset; the partials are tree-summed (see the module notes).

    Parameters
    ----------
    corpus : Corpus, path or ShardedCorpus
    vocab : Vocabulary
        Its ``word -> row`` index is scattered to the workers once.
    offsets : iterable of int
        Non-zero offsets.
    respect_documents : bool
        No pair across a document boundary (else boundary pairs between shards are added).
    chunk_size : int
        Positions counted at once inside a shard.
    n_shards : int, optional
        Shards of a Corpus or path (:func:`shard_corpus`); default from the workers' threads.
    split_every : int
        Fan-in of the tree reduction.
    client : distributed.Client, optional
        Default: the active client.

    Returns
    -------
    list of scipy.sparse.csr_array
        int64, canonical, one per offset, in the order given.
    """
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")
    offs = [check_int(k, f"offsets[{i}]") for i, k in enumerate(offsets)]
    if not offs or any(k == 0 for k in offs):
        raise ValueError(f"offsets must be non-zero integers, got {offs}")
    respect_documents = check_bool(respect_documents, "respect_documents")
    chunk_size = check_int(chunk_size, "chunk_size", low=1)
    client = active_client(client)
    sharded = _sharded(corpus, client, n_shards)
    ks = sorted({abs(k) for k in offs})
    edge = 0 if respect_documents or len(sharded) == 1 else ks[-1]
    [index] = client.scatter([vocab.index], broadcast=True, hash=False)
    logger.info(
        "offset counts of %s: %d shards, offsets %s, vocabulary index (%d words) scattered once",
        sharded.name, len(sharded), ks, len(vocab),
    )  # fmt: skip
    parts = [
        client.submit(
            _shard_offset_counts, shard, index, ks, respect_documents, chunk_size, edge,
            pure=False,
        )
        for shard in sharded.shards
    ]  # fmt: skip
    mats, edges = tree_reduce(
        client, parts, _merge_offset_partials, split_every=split_every
    ).result()
    del parts, index
    if edge:
        mats = _sum_matrices(mats, _boundary_counts(edges, ks, len(vocab)))
    by_k = {k: _canonical(m) for k, m in zip(ks, mats)}
    return [by_k[k] if k > 0 else _canonical(by_k[-k].T) for k in offs]


# ============================================================================ dependencies


def _read_conllu(path: str) -> list[Sentence]:
    return load_conllu(Path(path))


def _shard_deprels(sentences: Sequence[Sentence]) -> Counter[str]:
    return _deprels(sentences)


def _shard_dependency_counts(
    sentences: Sequence[Sentence],
    index: dict[str, int],
    rel_list: Sequence[str],
    use_lemma: bool,
    lowercase: bool,
) -> tuple[list[sp.csr_array], int]:
    return _local_dependency_counts(
        sentences, index, rel_list, use_lemma=use_lemma, lowercase=lowercase, dtype=np.int64
    )


def _merge_dependency_partials(
    *parts: tuple[list[sp.csr_array], int],
) -> tuple[list[sp.csr_array], int]:
    return _sum_matrices(*(p[0] for p in parts)), sum(p[1] for p in parts)


def dependency_counts(
    sentences: Sequence[Sentence] | PathLikeStr,
    vocab: Vocabulary,
    relations: Sequence[str] | str,
    *,
    use_lemma: bool = False,
    lowercase: bool = True,
    n_shards: int | None = None,
    split_every: int = DEFAULT_SPLIT_EVERY,
    client: Client | None = None,
) -> tuple[list[str], list[sp.csr_array], int]:
    """Relation list, int64 edge count matrices and number of sentences, counted on the cluster.

    ``sentences``: a folder of CoNLL-U files (one shard per file, read by a worker), a CoNLL-U
    file (read here) or a sequence of sentences (cut into ``n_shards`` ranges of similar size,
    each scattered once). Equal to the local counts of
    :func:`~workbench.views.dependency_views`.
    """
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")
    needs_all = isinstance(relations, str) and relations == "all"
    rel_list = [] if needs_all else relation_list(relations, Counter)
    files: list[Path] | None = None
    sents: list[Sentence] = []
    if isinstance(sentences, (str, os.PathLike)):
        files = conllu_files(sentences)
        if len(files) == 1:
            sents = _read_conllu(str(files[0]))
            files = None
    elif isinstance(sentences, Sequence) and not isinstance(sentences, (str, bytes)):
        sents = list(sentences)
    else:
        raise TypeError(
            "sentences must be a sequence of Sentence or the path of a CoNLL-U file or folder, "
            f"got {type(sentences).__name__}"
        )
    client = active_client(client)
    sources: list[Future]
    if files is not None:
        sources = [client.submit(_read_conllu, str(f.resolve()), pure=False) for f in files]
    else:
        if not sents:
            return (rel_list if not needs_all else relation_list("all", Counter)), [], 0
        k = n_shards if n_shards is not None else _SHARDS_PER_THREAD_FILE * _n_threads(client)
        groups = _contiguous_groups([len(s.tokens) for s in sents], k)
        sources = client.scatter([sents[a:b] for a, b in groups], hash=False)
    if needs_all:
        found = tree_reduce(
            client,
            [client.submit(_shard_deprels, s, pure=False) for s in sources],
            _merge_counters,
            split_every=split_every,
        ).result()
        rel_list = relation_list("all", lambda: found)
    [index] = client.scatter([vocab.index], broadcast=True, hash=False)
    logger.info(
        "dependency counts: %d shards, %d relations, vocabulary index (%d words) scattered once",
        len(sources), len(rel_list), len(vocab),
    )  # fmt: skip
    parts = [
        client.submit(
            _shard_dependency_counts, s, index, rel_list, use_lemma, lowercase, pure=False
        )
        for s in sources
    ]
    mats, n_sent = tree_reduce(
        client, parts, _merge_dependency_partials, split_every=split_every
    ).result()
    return rel_list, [_canonical(m) for m in mats], int(n_sent)
