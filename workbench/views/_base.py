"""Core containers of :mod:`workbench.views`: vocabulary, encoded corpus, view, validator."""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np
import pandas as pd
import scipy.sparse as sp
from numpy.typing import ArrayLike, DTypeLike

from workbench._typing import Matrix, PathLikeStr
from workbench._validation import check_int
from workbench.datasets import Document

from ._shards import as_corpus_input, word_counts

logger = logging.getLogger(__name__)

__all__ = [
    "WordIndexed",
    "DocumentSource",
    "TokenCorpus",
    "Vocabulary",
    "EncodedCorpus",
    "View",
    "check_views",
    "iter_token_documents",
    "view_statistics",
]


class DocumentSource(Protocol):
    """A corpus that yields its documents (:class:`workbench.datasets.Corpus`, a shard, ...)."""

    def iter_documents(self) -> Iterator[Document]: ...


#: What the view builders count: a corpus, or one token list per document.
TokenCorpus: TypeAlias = DocumentSource | Iterable[Sequence[str]]


class WordIndexed:
    """``len``, ``in``, iteration and :meth:`id` of a table whose row ``i`` is ``words[i]``.

    The subclass provides ``words`` and ``index`` (word -> row).
    """

    __slots__ = ()

    if TYPE_CHECKING:

        @property
        def words(self) -> Sequence[str]: ...

        @property
        def index(self) -> Mapping[str, int]: ...

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def id(self, word: str) -> int:
        """Row of ``word``; ``KeyError`` naming the word if it is not in the vocabulary."""
        try:
            return self.index[word]
        except KeyError:
            raise KeyError(f"word {word!r} is not in the vocabulary ({len(self)} words)") from None


def _local_corpus(corpus: TokenCorpus | PathLikeStr) -> TokenCorpus:
    """``corpus`` for the local backend, which counts text already opened: a path (what the
    Dask backend reads on the workers) raises ``TypeError``."""
    if isinstance(corpus, os.PathLike):
        raise TypeError(
            f"with backend='local', corpus must be a Corpus or an iterable of token lists; open "
            f"the path with workbench.datasets.load_corpus({os.fspath(corpus)!r})"
        )
    return corpus


def iter_token_documents(corpus: TokenCorpus) -> Iterator[list[str]]:
    """Yield the token list of each document of ``corpus``.

    Accepts a :class:`workbench.datasets.Corpus` (anything with ``iter_documents()`` yielding
    objects with a ``tokens`` attribute), or an iterable of token sequences (one per document).
    A plain ``str`` is rejected (it would be iterated character by character).
    """
    if isinstance(corpus, (str, bytes)):
        raise TypeError(
            "corpus must be a Corpus or an iterable of token lists, not a string; "
            "tokenize it first with workbench.datasets.tokenize"
        )
    if hasattr(corpus, "iter_documents"):
        for doc in corpus.iter_documents():
            yield list(doc.tokens)
        return
    for i, doc in enumerate(corpus):
        if isinstance(doc, str):
            raise TypeError(
                f"corpus document {i} is a string; pass token lists (one list of tokens per document)"
            )
        yield list(doc)


@dataclass(frozen=True, eq=False)
class Vocabulary(WordIndexed):
    """A word list with counts, indexed ``0 .. len-1`` (most frequent first when built from text).

    Attributes
    ----------
    words : tuple of str
        The words, row ``i`` of every view belongs to ``words[i]``.
    counts : ndarray of int64
        Corpus frequency of each word (zeros for :meth:`from_words`).
    index : dict
        ``word -> row``.
    """

    words: tuple[str, ...]
    counts: np.ndarray
    index: dict[str, int] = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.index) != len(self.words):
            raise ValueError("Vocabulary: duplicate words in the word list")
        if self.counts.shape != (len(self.words),):
            raise ValueError(
                f"Vocabulary: counts has shape {self.counts.shape}, expected ({len(self.words)},)"
            )

    @classmethod
    def from_words(
        cls, words: Iterable[str], counts: Sequence[int] | np.ndarray | None = None
    ) -> Vocabulary:
        """Vocabulary with the given word order (duplicates are an error)."""
        ws = tuple(str(w) for w in words)
        index = {w: i for i, w in enumerate(ws)}
        if len(index) != len(ws):
            dup = [w for w, c in Counter(ws).items() if c > 1][:5]
            raise ValueError(f"Vocabulary.from_words: duplicate words {dup}")
        c = (
            np.zeros(len(ws), dtype=np.int64)
            if counts is None
            else np.asarray(counts, dtype=np.int64)
        )
        return cls(ws, c, index)

    @classmethod
    def from_counts(
        cls,
        counter: Counter[str] | dict[str, int],
        *,
        max_size: int | None = None,
        min_count: int = 1,
    ) -> Vocabulary:
        """Most frequent words first (ties broken alphabetically), filtered by ``min_count``."""
        max_size = check_int(max_size, "max_size", low=1, allow_none=True)
        min_count = check_int(min_count, "min_count", low=1)
        items = sorted(
            ((w, c) for w, c in counter.items() if c >= min_count), key=lambda x: (-x[1], x[0])
        )
        if max_size is not None:
            items = items[:max_size]
        return cls.from_words([w for w, _ in items], [c for _, c in items])

    @classmethod
    def from_corpus(
        cls,
        corpus: TokenCorpus | PathLikeStr,
        *,
        max_size: int | None = None,
        min_count: int = 1,
        backend: str = "local",
    ) -> Vocabulary:
        """Count the tokens of ``corpus`` and keep the ``max_size`` most frequent with ``count >= min_count``.

        ``corpus`` is a :class:`workbench.datasets.Corpus` or an iterable of token lists; tokenisation
        (and lower-casing) happen in the corpus loader (:func:`workbench.datasets.tokenize`).
        With ``backend="dask"`` (a Corpus, a corpus path or directory, or a
        :func:`~workbench.views.shard_corpus` result) the words are counted per shard on the
        active ``dask.distributed`` Client and the counters merged by a tree reduction: the
        same counts, hence the same vocabulary (see :mod:`workbench.views._dask`).
        """
        if backend not in ("local", "dask"):
            raise ValueError(f"backend must be one of 'local', 'dask'; got {backend!r}")
        max_size = check_int(max_size, "max_size", low=1, allow_none=True)
        min_count = check_int(min_count, "min_count", low=1)
        counter: Counter[str]
        if backend == "dask":
            counter = word_counts(as_corpus_input(corpus, "corpus"))
        else:
            counter = Counter()
            for toks in iter_token_documents(_local_corpus(corpus)):
                counter.update(toks)
        vocab = cls.from_counts(counter, max_size=max_size, min_count=min_count)
        if len(vocab) == 0:
            raise ValueError(f"Vocabulary.from_corpus: no word has count >= min_count={min_count}")
        return vocab

    def encode(self, tokens: Iterable[str]) -> np.ndarray:
        """int32 row ids of ``tokens``, ``-1`` for out-of-vocabulary tokens."""
        get = self.index.get
        return np.fromiter((get(t, -1) for t in tokens), dtype=np.int32)

    def same_as(self, other: Vocabulary) -> bool:
        """True if both vocabularies list the same words in the same order."""
        return self is other or self.words == other.words

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vocabulary) and self.same_as(other)

    def __hash__(self) -> int:
        return hash(self.words)


@dataclass(frozen=True, eq=False)
class EncodedCorpus:
    """A corpus as one int32 array of vocabulary ids (``-1`` = out of vocabulary).

    Attributes
    ----------
    ids : ndarray of int32, shape (n_tokens,)
        Token ids of all documents concatenated.
    doc_starts : ndarray of int64, shape (n_documents,)
        Offset of the first token of each document in ``ids`` (sorted, first is 0).
    vocab_size : int
        Size of the vocabulary the ids index.
    source : str or None
        Identity of the source text (the corpus sha256 plus loader options) used as cache key.
    """

    ids: np.ndarray
    doc_starts: np.ndarray
    vocab_size: int = -1
    source: str | None = None

    @property
    def n_tokens(self) -> int:
        return int(self.ids.shape[0])

    @property
    def n_documents(self) -> int:
        return int(self.doc_starts.shape[0])

    def position_in_document(self) -> np.ndarray:
        """For each token, its position inside its document (int32)."""
        n = self.n_tokens
        pos = np.arange(n, dtype=np.int64)
        if self.n_documents:
            lengths = np.diff(np.append(self.doc_starts, n))
            pos -= np.repeat(self.doc_starts, lengths)
        return pos.astype(np.int32) if n < 2**31 else pos


@dataclass(frozen=True, eq=False)
class View:
    """One view of the words: a sparse ``N x d`` matrix whose rows follow a shared vocabulary.

    Attributes
    ----------
    name : str
        E.g. ``"offset_+3"``, ``"dep_nsubj"``, ``"bitext_es"``, ``"wordnet_synonyms"``.
    matrix : scipy.sparse.csr_array
        Rows = vocabulary words, columns = contexts (float64 counts or values).
    contexts : tuple of str
        Label of each column.
    observed : ndarray of bool, shape (N,)
        Rows for which the view has data (``K_j`` of the paper). Builders mark all-zero rows
        unobserved; embedding views mark words missing from the vector file unobserved.
    family : str
        ``"positional"``, ``"window"``, ``"dependency"``, ``"bitext"``, ``"morphology"``,
        ``"synonyms"``, ``"ppdb"``, ``"framenet"``, ``"embedding"`` ...
    vocab : Vocabulary or None
        The row vocabulary (used by :func:`check_views` to refuse views over different vocabularies).
    meta : dict
        Builder parameters (JSON-able), e.g. the offset or the relation.
    """

    name: str
    matrix: Any  # ndarray or scipy.sparse: readers branch on sp.issparse, which mypy cannot follow
    contexts: tuple[str, ...]
    observed: np.ndarray
    family: str
    vocab: Vocabulary | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        m = self.matrix
        if not (sp.issparse(m) or isinstance(m, np.ndarray)) or m.ndim != 2:
            raise TypeError(
                f"View {self.name!r}: matrix must be a 2-D scipy.sparse matrix or ndarray"
            )
        n, d = m.shape
        if len(self.contexts) != d:
            raise ValueError(
                f"View {self.name!r}: {len(self.contexts)} context labels for {d} columns"
            )
        if self.observed.shape != (n,) or self.observed.dtype != bool:
            raise ValueError(f"View {self.name!r}: observed must be a bool array of length {n}")
        if self.vocab is not None and len(self.vocab) != n:
            raise ValueError(
                f"View {self.name!r}: {n} rows but a vocabulary of {len(self.vocab)} words"
            )

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self.matrix.shape)  # type: ignore[return-value]

    @property
    def nnz(self) -> int:
        m = self.matrix
        return int(m.nnz) if sp.issparse(m) else int(np.count_nonzero(m))

    @property
    def density(self) -> float:
        n, d = self.shape
        return self.nnz / float(n * d) if n * d else 0.0

    def with_matrix(
        self, matrix: Matrix, contexts: Sequence[str] | None = None, **meta: Any
    ) -> View:
        """A copy with a new matrix (same rows), optionally new context labels and extra meta."""
        ctx = self.contexts if contexts is None else tuple(contexts)
        return View(
            self.name,
            matrix,
            ctx,
            self.observed.copy(),
            self.family,
            self.vocab,
            {**self.meta, **meta},
        )

    def top_contexts(self, word: str | int, n: int = 10) -> list[tuple[str, float]]:
        """The ``n`` largest entries of a word's row as ``(context, value)`` pairs."""
        if isinstance(word, str):
            if self.vocab is None:
                raise ValueError(f"View {self.name!r} has no vocabulary; pass a row index")
            row = self.vocab.id(word)
        else:
            row = int(word)
        m = self.matrix
        if sp.issparse(m):
            r = sp.csr_array(m[[row]]) if not isinstance(m, sp.csr_array) else m[[row]]
            idx, val = r.indices, r.data
        else:
            idx = np.flatnonzero(m[row])
            val = m[row, idx]
        order = np.argsort(-np.abs(val), kind="stable")[:n]
        return [(self.contexts[int(idx[o])], float(val[o])) for o in order]


def _view_label(i: int, v: object) -> str:
    return f"view {i} ({v.name!r})" if isinstance(v, View) else f"view {i}"


def check_views(
    views: Sequence[Matrix | View],
    masks: Sequence[ArrayLike | None] | None = None,
    *,
    min_views: int = 1,
    dtype: DTypeLike | None = None,
) -> tuple[list[Any], list[np.ndarray]]:  # ndarray or csr_array: callers branch on sp.issparse
    """Validate multiview input: the ONE validator used by every multiview estimator.

    Parameters
    ----------
    views : sequence
        Each element a 2-D dense ``ndarray``, a ``scipy.sparse`` matrix/array, or a :class:`View`.
        All must have the same number of rows ``N`` (row ``i`` = word ``i`` of one shared
        vocabulary). :class:`View` objects carrying vocabularies must carry the *same* vocabulary.
    masks : sequence of array-like of bool, optional
        One boolean vector of length ``N`` per view marking observed rows (``K_j``). ``None``
        entries (or ``masks=None``) mean "all rows observed" (for :class:`View`: ``View.observed``).
    min_views : int
        Minimum number of views required.
    dtype : numpy dtype, optional
        Output floating dtype; by default float32/float64 input keeps its dtype, other
        numeric input becomes float64.

    Returns
    -------
    views : list
        ``scipy.sparse.csr_array`` (sparse input, canonical format: sorted indices, summed
        duplicates) or C-contiguous float ``ndarray`` (dense input).
    masks : list of ndarray of bool
        Observed rows. **All-zero rows are always unobserved**: the returned mask is the given
        mask AND "row has a nonzero entry", because a row without any data carries no
        information (the paper's ``K_j``); rows masked out may hold nonzeros, which downstream
        estimators ignore.

    Raises
    ------
    ValueError
        Naming the view (index and name) and the problem: not a list, fewer than
        ``min_views`` views, not 2-D, empty (no rows, no columns or no nonzeros), non-numeric,
        NaN or infinite values, row counts that differ, views over different vocabularies,
        masks of the wrong length/type, or a view with no observed row.
    """
    min_views = check_int(min_views, "min_views", low=1)
    if sp.issparse(views) or isinstance(views, (np.ndarray, View, str)):
        raise ValueError("views must be a list of matrices (one per view), not a single matrix")
    try:
        views = list(views)
    except TypeError:
        raise ValueError(f"views must be a list of matrices, got {type(views).__name__}") from None
    if len(views) < min_views:
        raise ValueError(f"need at least {min_views} view(s), got {len(views)}")
    if masks is not None:
        masks = list(masks)
        if len(masks) != len(views):
            raise ValueError(f"got {len(masks)} masks for {len(views)} views")

    ref_vocab: Vocabulary | None = None
    ref_vocab_at = -1
    n_rows: int | None = None
    out_views: list[Any] = []
    out_masks: list[np.ndarray] = []
    for i, v in enumerate(views):
        label = _view_label(i, v)
        mask_in = None if masks is None else masks[i]
        if isinstance(v, View):
            if v.vocab is not None:
                if ref_vocab is None:
                    ref_vocab, ref_vocab_at = v.vocab, i
                elif not ref_vocab.same_as(v.vocab):
                    raise ValueError(
                        f"{label} is over a different vocabulary ({len(v.vocab)} words) than "
                        f"{_view_label(ref_vocab_at, views[ref_vocab_at])} ({len(ref_vocab)} words); "
                        "build all views with the same Vocabulary"
                    )
            if mask_in is None:
                mask_in = v.observed
            m = v.matrix
        else:
            m = v
        if sp.issparse(m):
            if m.ndim != 2:
                raise ValueError(f"{label}: must be 2-D, got {m.ndim}-D")
            if not np.issubdtype(m.dtype, np.number) or np.issubdtype(m.dtype, np.complexfloating):
                raise ValueError(f"{label}: dtype {m.dtype} is not real numeric")
            out_dtype = dtype or (m.dtype if m.dtype in (np.float32, np.float64) else np.float64)
            x = sp.csr_array(m, dtype=out_dtype)
            if not x.has_canonical_format:
                x = x.copy()
                x.sum_duplicates()
            data = x.data
            nz_rows = np.diff(x.indptr) > 0
            if not data.all():  # explicit zeros: a row is nonzero if one of its entries is
                nz_rows = np.zeros(x.shape[0], dtype=bool)
                nz_rows[np.repeat(np.arange(x.shape[0]), np.diff(x.indptr))[data != 0]] = True
        else:
            try:
                arr = np.asarray(m)
            except Exception as exc:  # pragma: no cover - exotic inputs
                raise ValueError(f"{label}: cannot convert to an array ({exc})") from None
            if arr.ndim != 2:
                raise ValueError(f"{label}: must be 2-D (words x contexts), got shape {arr.shape}")
            if arr.dtype == bool:
                arr = arr.astype(np.float64)
            if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(
                arr.dtype, np.complexfloating
            ):
                raise ValueError(f"{label}: dtype {arr.dtype} is not real numeric")
            out_dtype = dtype or (
                arr.dtype if arr.dtype in (np.float32, np.float64) else np.float64
            )
            x = np.ascontiguousarray(arr, dtype=out_dtype)
            data = x.ravel()[:0]
            nz_rows = np.zeros(x.shape[0], dtype=bool)
            if x.size:  # one pass of row sums (BLAS gemv, threaded; NaN and inf propagate)
                with np.errstate(over="ignore", invalid="ignore"):  # inf / NaN sums are read
                    data = x @ np.ones(x.shape[1], dtype=x.dtype)  # below, not warned about
                nz_rows = data != 0
                if not nz_rows.all():  # a zero sum need not be a zero row: check those exactly
                    sub = x[~nz_rows]
                    nz_rows[~nz_rows] = (sub.max(axis=1) != 0) | (sub.min(axis=1) != 0)
        n, d = x.shape
        if n == 0 or d == 0:
            raise ValueError(f"{label} is empty: shape {x.shape}")
        if n_rows is None:
            n_rows = n
        elif n != n_rows:
            raise ValueError(
                f"{label} has {n} rows but view 0 has {n_rows}; all views must share the rows (words)"
            )
        if not np.isfinite(data).all():  # (a dense row sum can also overflow: count exactly)
            vals = x.data if sp.issparse(x) else x.ravel()
            bad = int(np.size(vals) - np.count_nonzero(np.isfinite(vals)))
            if bad:
                kind = "NaN" if np.isnan(vals).any() else "infinite"
                raise ValueError(f"{label} contains {bad} non-finite ({kind}) value(s)")
        if not nz_rows.any():
            raise ValueError(f"{label} is empty: all entries are zero")
        if mask_in is None:
            mask = np.ones(n, dtype=bool)
        else:
            mask = np.asarray(mask_in)
            if mask.dtype != bool:
                raise ValueError(f"mask of {label} must be boolean, got dtype {mask.dtype}")
            if mask.shape != (n,):
                raise ValueError(f"mask of {label} has shape {mask.shape}, expected ({n},)")
        mask = mask & nz_rows
        if not mask.any():
            raise ValueError(
                f"{label} has no observed rows (mask is all False on its nonzero rows)"
            )
        out_views.append(x)
        out_masks.append(mask)
    return out_views, out_masks


def view_statistics(views: Sequence[View]) -> pd.DataFrame:
    """One row per view: name, family, shape, nnz, density, observed rows, nnz per observed row, sum.

    Returns a :class:`pandas.DataFrame` indexed by view name.
    """
    rows = []
    for v in views:
        n, d = v.shape
        m = v.matrix
        total = float(m.sum())
        n_obs = int(v.observed.sum())
        rows.append(
            {
                "view": v.name,
                "family": v.family,
                "rows": n,
                "columns": d,
                "nnz": v.nnz,
                "density": v.density,
                "observed_rows": n_obs,
                "observed_fraction": n_obs / n if n else 0.0,
                "nnz_per_observed_row": v.nnz / n_obs if n_obs else 0.0,
                "sum": total,
            }
        )
    return pd.DataFrame(rows).set_index("view")
