"""Shards of a corpus and the first pass of the Dask backend (the word counts).

Part of :mod:`workbench.views._dask` (see its notes for the design): :func:`shard_corpus` cuts a
corpus into :class:`CorpusShard` descriptors at document boundaries, :func:`word_counts` counts
the words of every shard on the cluster and merges the counters by a tree reduction. Nothing
here needs the view containers, so :meth:`Vocabulary.from_corpus
<workbench.views.Vocabulary.from_corpus>` can use it; nothing imports :mod:`distributed` before
a Dask function runs.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from workbench._dask import active_client
from workbench._dask import tree_reduce as _tree_reduce
from workbench._typing import PathLikeStr
from workbench._validation import check_int
from workbench.datasets import Corpus, load_corpus
from workbench.datasets.text import file_document_sizes, iter_file_documents

if TYPE_CHECKING:
    from distributed import Client, Future

    from workbench.datasets import Document

logger = logging.getLogger(__name__)

__all__ = [
    "CorpusShard",
    "ShardedCorpus",
    "shard_corpus",
    "as_corpus_input",
    "tree_reduce",
    "word_counts",
    "DEFAULT_SPLIT_EVERY",
    "CorpusInput",
]

#: Partial results added by one task of the tree reduction.
DEFAULT_SPLIT_EVERY = 4
#: Default shards per worker thread: files of a directory / document ranges of one file.
_SHARDS_PER_THREAD_DIR = 8
_SHARDS_PER_THREAD_FILE = 2
#: Document ranges of one file when no client tells the number of threads.
_DEFAULT_FILE_SHARDS = 8


# ============================================================================ client


def _n_threads(client: Client) -> int:
    return max(1, int(sum(client.nthreads().values())))


def tree_reduce(
    client: Client,
    futures: Sequence[Future],
    func: Callable[..., Any],
    *,
    split_every: int = DEFAULT_SPLIT_EVERY,
) -> Future:
    """Combine ``futures`` on the workers by a tree of ``func(*group)`` tasks; one future back.

    Level by level, each group of ``split_every`` consecutive futures becomes one task
    ``func(*group)`` (:func:`workbench._dask.tree_reduce`), so the order of the parts is kept
    and no part travels to the client. ``func`` must be associative (a sum, a merge).
    """
    return _tree_reduce(
        futures, lambda group: client.submit(func, *group, pure=False), split_every=split_every
    )


# ============================================================================ shards


@dataclass(frozen=True)
class CorpusShard:
    """The part of a corpus one task reads: consecutive files, or a document range of one file.

    Attributes
    ----------
    files : tuple of str
        Corpus files (format of :func:`workbench.datasets.load_corpus`), read in order.
    first, stop : int, int or None
        Documents ``first .. stop - 1`` of the single file (``0, None``: all documents).
    lowercase : bool
        Lower-case the tokens (as the corpus does).
    options : tuple of (str, object) pairs
        The corpus' other reading options (``Corpus.read_options``: format, normalize,
        tokenizer), passed to :func:`~workbench.datasets.text.iter_file_documents`.
    """

    files: tuple[str, ...]
    first: int = 0
    stop: int | None = None
    lowercase: bool = True
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if not self.files:
            raise ValueError("a shard needs at least one file")
        if (self.first != 0 or self.stop is not None) and len(self.files) != 1:
            raise ValueError("a document range is a range of exactly one file")

    def iter_documents(self) -> Iterator[Document]:
        """The shard's :class:`~workbench.datasets.Document` objects, in corpus order."""
        for f in self.files:
            yield from iter_file_documents(
                f, lowercase=self.lowercase, first=self.first, stop=self.stop, **dict(self.options)
            )


class ShardedCorpus:
    """A :class:`~workbench.datasets.Corpus` cut into :class:`CorpusShard` s (:func:`shard_corpus`).

    It reads like the corpus (``iter_documents``, ``sha256``, ``name``, ``lowercase``), so
    the local builders accept it too; with ``backend="dask"`` its shards are the tasks.
    """

    def __init__(self, corpus: Corpus, shards: Sequence[CorpusShard]) -> None:
        self.corpus = corpus
        self.shards: tuple[CorpusShard, ...] = tuple(shards)
        if not self.shards:
            raise ValueError("a sharded corpus needs at least one shard")

    def __repr__(self) -> str:
        return f"ShardedCorpus({self.corpus!r}, shards={len(self.shards)})"

    def __len__(self) -> int:
        return len(self.shards)

    @property
    def name(self) -> str:
        return self.corpus.name

    @property
    def lowercase(self) -> bool:
        return self.corpus.lowercase

    @property
    def max_tokens(self) -> None:
        return None

    @property
    def sha256(self) -> str:
        """The sha256 of the corpus (shards do not change it)."""
        return self.corpus.sha256

    def iter_documents(self) -> Iterator[Document]:
        """Every document, shard after shard: the corpus' documents in order."""
        for shard in self.shards:
            yield from shard.iter_documents()


def _contiguous_groups(sizes: Sequence[int], k: int) -> list[tuple[int, int]]:
    """Cut ``range(len(sizes))`` into ``k`` non-empty consecutive groups of similar total size."""
    n = len(sizes)
    k = max(1, min(k, n))
    cum = np.cumsum(np.asarray(sizes, dtype=np.float64))
    total = float(cum[-1]) if n else 0.0
    cuts = [0]
    for j in range(1, k):
        c = int(np.searchsorted(cum, total * j / k, side="left")) + 1
        c = min(max(c, cuts[-1] + 1), n - (k - j))
        cuts.append(c)
    cuts.append(n)
    return list(zip(cuts[:-1], cuts[1:]))


#: What the Dask backend counts: a corpus the workers can read (or its path), or its shards.
CorpusInput: TypeAlias = "Corpus | ShardedCorpus | PathLikeStr"


def shard_corpus(corpus: CorpusInput, n_shards: int | None = None) -> ShardedCorpus:
    """Cut a corpus into shards at document boundaries (the unit of work of the Dask backend).

    Parameters
    ----------
    corpus : Corpus, path or ShardedCorpus
        A :class:`~workbench.datasets.Corpus` or what :func:`workbench.datasets.load_corpus`
        opens: a corpus file, or a directory of ``*.txt`` / ``*.txt.gz`` files.
    n_shards : int, optional
        Number of shards. Directory: consecutive files grouped into at most ``n_shards``
        shards of similar size in bytes (default: one shard per file; never more shards than
        files). Single file: ranges of its documents of similar size in characters (default
        8; never more shards than documents; the file is read once here to measure them --
        shard it once and pass the result to every builder).

    Returns
    -------
    ShardedCorpus

    Raises
    ------
    TypeError
        Not a corpus (e.g. token lists or an EncodedCorpus: the workers read files).
    ValueError
        A corpus truncated with ``max_tokens``, or ``n_shards < 1``.

    Examples
    --------
    >>> from workbench.datasets import load_corpus
    >>> sharded = shard_corpus(load_corpus("1M"), n_shards=4)
    >>> len(sharded), [(s.first, s.stop) for s in sharded.shards][:2]
    (4, [(0, 5), (5, 8)])
    """
    n_shards = check_int(n_shards, "n_shards", low=1, allow_none=True)
    source = as_corpus_input(corpus, "corpus")
    if isinstance(source, ShardedCorpus):
        if n_shards is None:
            return source
        source = source.corpus
    files = tuple(f.resolve() for f in source.files)  # absolute: workers may run elsewhere
    lower = source.lowercase
    opts = tuple(source.read_options.items())
    if len(files) > 1:
        k = len(files) if n_shards is None else min(n_shards, len(files))
        groups = _contiguous_groups([f.stat().st_size for f in files], k)
        shards = [
            CorpusShard(tuple(str(f) for f in files[a:b]), lowercase=lower, options=opts)
            for a, b in groups
        ]
    else:
        sizes = file_document_sizes(files[0], format=source.format)
        k = min(_DEFAULT_FILE_SHARDS if n_shards is None else n_shards, len(sizes))
        if k <= 1:
            shards = [CorpusShard((str(files[0]),), lowercase=lower, options=opts)]
        else:
            shards = [
                CorpusShard((str(files[0]),), a, b, lowercase=lower, options=opts)
                for a, b in _contiguous_groups(sizes, k)
            ]
    logger.info("corpus %s: %d shards of %d file(s)", source.name, len(shards), len(files))
    return ShardedCorpus(source, shards)


def as_corpus_input(corpus: Any, name: str = "corpus") -> Corpus | ShardedCorpus:
    """``corpus`` as a Corpus or ShardedCorpus the workers can read (paths are opened).

    Token lists and :class:`~workbench.views.EncodedCorpus` are refused with a ``TypeError``
    (the Dask backend reads the text on the workers), a ``max_tokens`` cut with a
    ``ValueError``.
    """
    if isinstance(corpus, (str, os.PathLike)):
        corpus = load_corpus(corpus)
    if isinstance(corpus, ShardedCorpus):
        return corpus
    if not isinstance(corpus, Corpus):
        raise TypeError(
            f"with backend='dask', {name} must be a workbench.datasets.Corpus (load_corpus), a "
            "corpus file or directory path, or shard_corpus(...) -- the workers read the text "
            f"themselves; got {type(corpus).__name__}"
        )
    if corpus.max_tokens is not None:
        raise ValueError(
            f"with backend='dask', {name} cannot be truncated with max_tokens "
            f"({corpus.max_tokens}): open it without max_tokens, or count it with backend='local'"
        )
    return corpus


def _sharded(corpus: CorpusInput, client: Client, n_shards: int | None) -> ShardedCorpus:
    source = as_corpus_input(corpus, "corpus")
    if n_shards is None:
        if isinstance(source, ShardedCorpus):
            return source
        per = _SHARDS_PER_THREAD_DIR if len(source.files) > 1 else _SHARDS_PER_THREAD_FILE
        n_shards = per * _n_threads(client)
    return shard_corpus(source, n_shards)


# ============================================================================ first pass


def _shard_word_counts(shard: CorpusShard) -> Counter[str]:
    counter: Counter[str] = Counter()
    for doc in shard.iter_documents():
        counter.update(doc.tokens)
    return counter


def _merge_counters(*parts: Counter[str]) -> Counter[str]:
    out = Counter(parts[0])
    for p in parts[1:]:
        out.update(p)
    return out


def word_counts(
    corpus: CorpusInput,
    *,
    n_shards: int | None = None,
    split_every: int = DEFAULT_SPLIT_EVERY,
    client: Client | None = None,
) -> Counter[str]:
    """Token counts of a corpus, counted per shard on the cluster and tree-merged.

    The first pass of the Dask backend: ``Vocabulary.from_counts(word_counts(corpus), ...)``
    is ``Vocabulary.from_corpus(corpus, ...)``.
    """
    client = active_client(client)
    sharded = _sharded(corpus, client, n_shards)
    parts = [client.submit(_shard_word_counts, s, pure=False) for s in sharded.shards]
    counter: Counter[str] = tree_reduce(
        client, parts, _merge_counters, split_every=split_every
    ).result()
    logger.info(
        "word counts of %s: %d shards, %d types, %d tokens",
        sharded.name, len(sharded), len(counter), sum(counter.values()),
    )  # fmt: skip
    return counter
