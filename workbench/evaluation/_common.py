"""Shared helpers of :mod:`workbench.evaluation` (lookup, normalisation, blocked scores)."""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, DTypeLike

from workbench._typing import Matrix
from workbench._validation import check_array

logger = logging.getLogger(__name__)

_ELEMENT_BUDGET = 1 << 23  # floats per temporary block (~32 MB in float32)
_ANALOGY_BUDGET = 1 << 20  # smaller blocks for the memory-bound analogy gathers (cache friendly)


class _Scored:
    """``coverage`` of a result that scored ``n_scored`` of its items; the class names the
    attribute holding the number of items in ``_TOTAL``."""

    __slots__ = ()
    _TOTAL: ClassVar[str]
    n_scored: int

    def _fraction(self, part: float) -> float:
        total = getattr(self, self._TOTAL)
        return float(part / total) if total else float("nan")

    @property
    def coverage(self) -> float:
        """Fraction of the items scored (NaN without items)."""
        return self._fraction(self.n_scored)


class _Accuracy(_Scored):
    """A :class:`_Scored` result with a per-item ``hits`` mask: also ``accuracy_all``."""

    __slots__ = ()
    hits: np.ndarray

    @property
    def accuracy_all(self) -> float:
        """Correct / all items (unscorable items count as wrong)."""
        return self._fraction(self.hits.sum())


def _frozen(a: ArrayLike, dtype: DTypeLike | None = None) -> np.ndarray:
    arr = np.array(a, dtype=dtype, copy=True)
    arr.setflags(write=False)
    return arr


def _check_vectors(vectors: Any, name: str = "vectors") -> tuple[dict[str, int], np.ndarray]:
    """Return (index, matrix) of a WordVectors-like object, with a clear error otherwise."""
    if hasattr(vectors, "as_word_vectors") and not hasattr(vectors, "vectors"):
        vectors = vectors.as_word_vectors()
    index = getattr(vectors, "index", None)
    mat = getattr(vectors, "vectors", None)
    if index is None or mat is None:
        raise TypeError(
            f"{name} must be a WordVectors-like object with .index and .vectors, "
            f"got {type(vectors).__name__}"
        )
    mat = check_array(mat, f"{name}.vectors (n_words x dim)", ndim=2, dtype=None)
    return dict(index), mat


def _unit_rows(mat: np.ndarray, dtype: DTypeLike = np.float64) -> np.ndarray:
    """Rows scaled to unit L2 norm; all-zero rows stay zero (their cosine with anything is 0)."""
    m = np.asarray(mat, dtype=dtype)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


def lookup_row(index: dict[str, int], word: str, lowercase: bool) -> int:
    """Row of ``word`` (lowercased first when ``lowercase``; falls back to the original form)."""
    if lowercase:
        row = index.get(word.lower())
        if row is not None:
            return row
    row = index.get(word)
    return -1 if row is None else row


def _safe_corr(fn: Any, x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(fn(x, y)[0])


def _acc(hits: np.ndarray, mask: np.ndarray) -> float:
    n = int(mask.sum())
    return float(hits[mask].sum() / n) if n else float("nan")


def _as_dense_unit(x: ArrayLike | Matrix, name: str) -> np.ndarray | sp.csr_matrix:
    x = check_array(x, f"{name} (items x features)", ndim=2, accept_sparse=True)
    if sp.issparse(x):
        m = sp.csr_matrix(x, dtype=np.float64)
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return sp.csr_matrix(sp.diags(1.0 / norms) @ m)
    return _unit_rows(x)


def _block_scores(
    q: np.ndarray | sp.csr_matrix, t: np.ndarray | sp.csr_matrix, metric: str
) -> np.ndarray:
    """Similarity block (higher is better): cosine of unit rows, or minus L1 distance."""
    if metric == "cosine":
        s = q @ t.T
        return np.asarray(s.toarray() if sp.issparse(s) else s)
    qa = np.asarray(q.todense()) if sp.issparse(q) else np.asarray(q)  # type: ignore[union-attr]
    ta = np.asarray(t.todense()) if sp.issparse(t) else np.asarray(t)  # type: ignore[union-attr]
    out = np.empty((qa.shape[0], ta.shape[0]))
    step = max(1, _ELEMENT_BUDGET // max(1, ta.shape[0] * ta.shape[1]))
    for i in range(0, qa.shape[0], step):
        out[i : i + step] = -np.abs(qa[i : i + step, None, :] - ta[None, :, :]).sum(axis=2)
    return out


def _prepare(x: ArrayLike | Matrix, metric: str, name: str) -> np.ndarray | sp.csr_matrix:
    if metric == "cosine":
        return _as_dense_unit(x, name)
    checked: np.ndarray | sp.csr_matrix = check_array(
        x, f"{name} (items x features)", ndim=2, accept_sparse=True
    )
    return checked
