"""Word-vector containers: :class:`WordVectors` and :class:`MultiSenseVectors`."""

from __future__ import annotations

import logging
import math
import numbers
import warnings
from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from workbench._validation import (
    check_array,
    check_choice,
    check_int,
)
from workbench.views import WordIndexed

logger = logging.getLogger(__name__)

__all__ = ["WordVectors", "MultiSenseVectors"]


def _dedupe(words: Sequence[str], source: str) -> np.ndarray | None:
    """Row indices keeping the first occurrence of each word (None if no duplicates)."""
    seen: dict[str, int] = {}
    dups: list[str] = []
    keep: list[int] = []
    for i, w in enumerate(words):
        if w in seen:
            dups.append(w)
        else:
            seen[w] = i
            keep.append(i)
    if not dups:
        return None
    warnings.warn(
        f"{source}: {len(dups)} duplicated word(s) (e.g. {dups[:5]}); keeping the first occurrence",
        UserWarning,
        stacklevel=3,
    )
    return np.asarray(keep, dtype=np.int64)


#: Below this float64 norm a sum of squares may have lost entries to underflow.
_NORM_SAFE = float(np.sqrt(np.finfo(np.float64).tiny / np.finfo(np.float64).eps))


def _unit_rows(v: np.ndarray) -> np.ndarray:
    """``v`` with unit-length rows (zero rows stay zero), in ``v``'s dtype.

    The plain norm is kept where it is exact (so results do not change for ordinary vectors);
    rows whose sum of squares overflows or underflows (norm not finite, or below
    ``sqrt(tiny / eps)`` of the dtype), and every row of a float16 table (whose squares
    overflow at 256 and whose sums lose precision), are recomputed in float64 after dividing
    by the row's largest absolute entry."""
    info = np.finfo(v.dtype)
    if v.dtype == np.float16:
        norms = np.zeros((v.shape[0], 1), dtype=np.float64)
        redo = np.ones(v.shape[0], dtype=bool)
    else:
        with np.errstate(over="ignore", under="ignore"):
            norms = np.linalg.norm(v, axis=1, keepdims=True)
        redo = ~(np.isfinite(norms[:, 0]) & (norms[:, 0] >= np.sqrt(info.tiny / info.eps)))
        redo &= np.any(v != 0, axis=1) if redo.any() else redo
    if not redo.any():
        return np.divide(v, norms, out=np.zeros_like(v), where=norms > 0)
    out = np.zeros_like(v)
    keep = ~redo
    if keep.any():
        out[keep] = v[keep] / norms[keep]
    for start in range(0, int(redo.sum()), 65536):  # in blocks: a float64 copy of a block only
        rows = np.flatnonzero(redo)[start : start + 65536]
        block = v[rows].astype(np.float64)
        big = np.abs(block).max(axis=1, keepdims=True)
        block = np.divide(block, big, out=np.zeros_like(block), where=big > 0)
        n = np.linalg.norm(block, axis=1, keepdims=True)
        out[rows] = np.divide(block, n, out=np.zeros_like(block), where=n > 0).astype(v.dtype)
    return out


class WordVectors(WordIndexed):
    """An immutable table of word vectors.

    Parameters
    ----------
    words : sequence of str
        One word per row. Duplicates are dropped (first kept) with a warning.
    vectors : array-like, shape (n_words, dim)
        Finite real vectors, ``dim >= 1`` (integer / boolean input is converted to float64;
        float32 is kept).

    Raises
    ------
    TypeError
        ``words`` is a single string or holds a non-string; ``vectors`` is complex, sparse or
        not numeric.
    ValueError
        ``vectors`` is not 2-D, has no column, has a row count different from ``len(words)``,
        or holds NaN / infinite values (the message names the first such word).

    Attributes
    ----------
    words : list of str
    vectors : numpy.ndarray, shape (n_words, dim), read-only
    index : dict
        Word -> row.

    Examples
    --------
    >>> import numpy as np
    >>> vecs = WordVectors(["king", "queen", "apple"], np.array([[1.0, 0.2], [0.9, 0.3], [0.0, 1.0]]))
    >>> vecs
    WordVectors(n_words=3, dim=2, dtype=float64)
    >>> vecs["apple"], "queen" in vecs
    (array([0., 1.]), True)
    >>> [(word, round(cos, 3)) for word, cos in vecs.most_similar("king", topn=2)]
    [('queen', 0.992), ('apple', 0.196)]
    """

    __slots__ = ("words", "vectors", "index", "_normalized")

    def __init__(self, words: Sequence[str], vectors: np.ndarray) -> None:
        if isinstance(words, (str, bytes)):
            raise TypeError(f"words must be a sequence of str, got a single {type(words).__name__}")
        words = list(words)
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise TypeError(f"words[{i}] must be a str, got {w!r} ({type(w).__name__})")
        words = [str(w) for w in words]  # numpy str_ -> str
        arr = check_array(vectors, "vectors", dtype=None, finite=False)
        if arr.ndim != 2:
            raise ValueError(f"vectors must be a 2-D array (n_words, dim), got shape {arr.shape}")
        if arr.shape[0] != len(words):
            raise ValueError(f"{len(words)} words but {arr.shape[0]} vectors")
        if arr.shape[1] < 1:
            raise ValueError(f"vectors must have at least one column, got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.floating):
            arr = arr.astype(np.float64)
        finite = np.isfinite(arr).all(axis=1)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise ValueError(
                f"vectors contains NaN or infinite values in {int((~finite).sum())} row(s); "
                f"first: row {i} (word {words[i]!r})"
            )
        keep = _dedupe(words, "WordVectors")
        if keep is not None:
            words = [words[i] for i in keep]
            arr = arr[keep]
        arr = np.ascontiguousarray(arr).view()  # read-only view; the caller's array is untouched
        arr.flags.writeable = False
        self.words: list[str] = words
        self.vectors: np.ndarray = arr
        self.index: dict[str, int] = {w: i for i, w in enumerate(words)}
        self._normalized: WordVectors | None = None

    # ------------------------------------------------------------------ container protocol
    def __getitem__(self, word: str) -> np.ndarray:
        return self.vectors[self.id(word)]

    def __repr__(self) -> str:
        return f"WordVectors(n_words={len(self)}, dim={self.dim}, dtype={self.vectors.dtype})"

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return int(self.vectors.shape[1])

    # ------------------------------------------------------------------ derived tables
    def normalized(self) -> WordVectors:
        """Copy with unit-length rows (zero rows stay zero), in the dtype of ``vectors``; cached.

        The norms are computed without overflow or underflow: a row whose sum of squares
        leaves the range of its dtype (float16 rows of a few hundred entries above ~15 or
        below ~1e-3, float64 entries near 1e200 or 1e-200) is scaled by its largest entry
        and normed in float64.
        """
        if self._normalized is None:
            out = _unit_rows(np.asarray(self.vectors, dtype=self.vectors.dtype))
            wv = WordVectors.__new__(WordVectors)
            out.flags.writeable = False
            wv.words, wv.vectors, wv.index = self.words, out, self.index
            wv._normalized = wv
            self._normalized = wv
        return self._normalized

    def subset(
        self, words: Iterable[str], *, missing: Literal["skip", "raise"] = "skip"
    ) -> WordVectors:
        """Vectors of ``words`` (in the given order, duplicates dropped).

        ``missing="skip"`` (default) leaves out words not in the vocabulary; ``"raise"`` raises
        ``KeyError`` naming them.
        """
        check_choice(missing, "missing", ("skip", "raise"))
        if isinstance(words, (str, bytes)):
            raise TypeError("words must be an iterable of words, got a single string")
        ws = list(dict.fromkeys(words))
        absent = [w for w in ws if w not in self.index]
        if absent and missing == "raise":
            raise KeyError(f"{len(absent)} word(s) not in the vocabulary, e.g. {absent[:5]}")
        ws = [w for w in ws if w in self.index]
        rows = np.fromiter((self.index[w] for w in ws), dtype=np.int64, count=len(ws))
        return WordVectors(ws, self.vectors[rows])

    def most_similar(
        self,
        word_or_vec: str | np.ndarray,
        topn: int = 10,
        restrict: int | Iterable[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Nearest words by cosine similarity.

        Parameters
        ----------
        word_or_vec : str or array of shape (dim,)
            A word (excluded from the answer) or a query vector.
        topn : int
            Number of words returned (>= 0).
        restrict : int or iterable of str, optional
            Search only the first ``restrict`` (>= 0) rows (frequency-sorted files) or only these
            words.

        Returns
        -------
        list of (word, cosine) pairs, best first.
        """
        topn = check_int(topn, "topn", low=0)
        if isinstance(restrict, (str, bytes)):
            raise TypeError("restrict must be an int or an iterable of words, got a single string")
        unit = self.normalized().vectors
        exclude: int | None = None
        if isinstance(word_or_vec, str):
            exclude = self.index.get(word_or_vec)
            if exclude is None:
                raise KeyError(f"word {word_or_vec!r} is not in the vocabulary")
            q = unit[exclude].astype(np.float64)
        else:
            q = check_array(word_or_vec, "query vector").ravel()
            if q.shape[0] != self.dim:
                raise ValueError(f"query vector has dimension {q.shape[0]}, expected {self.dim}")
            with np.errstate(over="ignore", under="ignore"):
                n = float(np.linalg.norm(q))
            if math.isfinite(n) and n >= _NORM_SAFE:
                q = q / n
            else:  # the sum of squares overflowed or underflowed: norm it stably
                q = _unit_rows(q[None, :])[0]
        if restrict is None:
            rows = np.arange(len(self))
        elif isinstance(restrict, (int, numbers.Real, np.number)):  # a float: named error
            rows = np.arange(min(check_int(restrict, "restrict", low=0), len(self)))
        else:
            rows = np.array([self.index[w] for w in restrict if w in self.index], dtype=np.int64)
        if exclude is not None:
            rows = rows[rows != exclude]
        if rows.size == 0 or topn <= 0:
            return []
        sims = unit[rows] @ q
        k = min(int(topn), rows.size)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.lexsort((rows[top], -sims[top]))]
        return [(self.words[int(rows[i])], float(sims[i])) for i in top]


class MultiSenseVectors(WordIndexed):
    """Multi-prototype embeddings: a global vector plus ``k_i`` sense vectors per word.

    Parameters
    ----------
    words : sequence of str
    global_vectors : array, shape (n_words, dim)
    senses : list of arrays, each (k_i, dim), k_i >= 1
        Sense vectors of each word.
    centers : list of arrays, each (k_i, dim_c)
        Context-cluster centre of each sense (used for contextual sense selection, e.g.
        avgSimC / maxSimC of Huang et al. 2012); ``dim_c`` may differ from ``dim``.

    Examples
    --------
    >>> import numpy as np
    >>> msv = MultiSenseVectors(
    ...     ["bank"], np.array([[1.0, 0.0]]), [np.eye(2)], [np.array([[0.5], [0.7]])]
    ... )
    >>> msv
    MultiSenseVectors(n_words=1, dim=2, mean_senses=2.00)
    >>> msv.n_senses("bank"), msv.sense_vectors("bank")[1]
    (2, array([0., 1.]))
    """

    def __init__(
        self,
        words: Sequence[str],
        global_vectors: np.ndarray,
        senses: Sequence[np.ndarray],
        centers: Sequence[np.ndarray],
    ) -> None:
        self._global = WordVectors(words, global_vectors)
        if len(self._global) != len(words):
            raise ValueError("words must be unique in MultiSenseVectors")
        if len(senses) != len(words) or len(centers) != len(words):
            raise ValueError(
                f"{len(words)} words but {len(senses)} sense arrays and {len(centers)} centre arrays"
            )
        d = self._global.dim
        self._senses: list[np.ndarray] = []
        self._centers: list[np.ndarray] = []
        dc: int | None = None
        for w, s, c in zip(words, senses, centers):
            s = np.atleast_2d(np.asarray(s, dtype=float)).view()
            c = np.atleast_2d(np.asarray(c, dtype=float)).view()
            if s.shape[0] < 1 or s.shape[1] != d:
                raise ValueError(f"senses of {w!r} have shape {s.shape}, expected (k>=1, {d})")
            if c.shape[0] != s.shape[0]:
                raise ValueError(f"{w!r}: {s.shape[0]} senses but {c.shape[0]} context centres")
            if not (np.isfinite(s).all() and np.isfinite(c).all()):
                raise ValueError(f"senses or context centres of {w!r} contain NaN or inf")
            if dc is None:
                dc = c.shape[1]
            elif c.shape[1] != dc:
                raise ValueError(
                    f"{w!r}: context centres have dimension {c.shape[1]}, expected {dc}"
                )
            s.flags.writeable = False
            c.flags.writeable = False
            self._senses.append(s)
            self._centers.append(c)

    @property
    def words(self) -> list[str]:
        return self._global.words

    @property
    def index(self) -> dict[str, int]:
        return self._global.index

    @property
    def dim(self) -> int:
        return self._global.dim

    def __repr__(self) -> str:
        k = np.array([s.shape[0] for s in self._senses])
        mean = float(k.mean()) if k.size else 0.0
        return f"MultiSenseVectors(n_words={len(self)}, dim={self.dim}, mean_senses={mean:.2f})"

    def n_senses(self, word: str) -> int:
        return int(self._senses[self.id(word)].shape[0])

    def sense_vectors(self, word: str) -> np.ndarray:
        """(k, dim) sense vectors of ``word``."""
        return self._senses[self.id(word)]

    def context_centers(self, word: str) -> np.ndarray:
        """(k, dim_c) context-cluster centres of ``word``'s senses."""
        return self._centers[self.id(word)]

    def global_vector(self, word: str) -> np.ndarray:
        return self._global[word]

    def as_word_vectors(self) -> WordVectors:
        """The global vectors as a :class:`WordVectors`."""
        return self._global
