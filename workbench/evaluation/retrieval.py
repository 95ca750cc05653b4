"""Retrieval of true mates (Top-1, MRR; ties count as errors) in one or both directions."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from workbench._typing import Matrix
from workbench._validation import check_choice

from ._common import (
    _ELEMENT_BUDGET,
    _block_scores,
    _frozen,
    _prepare,
)

logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# retrieval
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RetrievalResult:
    """Retrieval of true mates.

    Attributes
    ----------
    top1 : float
        Fraction of queries whose true mate has rank 1.
    mrr : float
        Mean reciprocal rank of the true mate.
    ranks : ndarray of int
        Rank of the true mate per query (for :func:`crosslingual_retrieval`: forward ranks then
        backward ranks).
    metric : str
    forward, backward : RetrievalResult or None
        Per-direction results of :func:`crosslingual_retrieval` (None for one direction).
    """

    top1: float
    mrr: float
    ranks: np.ndarray
    metric: str
    forward: RetrievalResult | None = None
    backward: RetrievalResult | None = None

    @property
    def n_queries(self) -> int:
        return len(self.ranks)

    @property
    def hits(self) -> np.ndarray:
        """Per-query Top-1 hits (rank == 1)."""
        return self.ranks == 1

    @property
    def reciprocal_ranks(self) -> np.ndarray:
        return 1.0 / self.ranks


def retrieval(
    queries: ArrayLike | Matrix,
    targets: ArrayLike | Matrix,
    *,
    metric: Literal["cosine", "l1"] = "cosine",
) -> RetrievalResult:
    r"""Rank every target for every query; row ``i`` of ``targets`` is query ``i``'s true mate.

    Parameters
    ----------
    queries, targets : array or sparse matrix, shape (n, d)
    metric : {"cosine", "l1"}
        Cosine similarity, or negative L1 distance.

    Notes
    -----
    With scores :math:`s_{ij}` (higher is better) the rank of the true mate is

    .. math:: \operatorname{rank}_i = 1 + \#\{j \ne i : s_{ij} \ge s_{ii}\},

    so a candidate that *ties* with the true mate pushes it down: ties count as errors, as in
    Platt et al. (2010). Top-1 is the fraction with rank 1 and
    :math:`\mathrm{MRR} = \frac1n\sum_i 1/\operatorname{rank}_i`.

    References
    ----------
    Platt, J., Toutanova, K. & Yih, W. (2010). Translingual document representations from
    discriminative projections. EMNLP.
    """
    check_choice(metric, "metric", ("cosine", "l1"))
    q = _prepare(queries, metric, "queries")
    t = _prepare(targets, metric, "targets")
    if q.shape != t.shape:
        raise ValueError(
            f"queries and targets must have the same shape (row i's mate is row i), got "
            f"{q.shape} and {t.shape}"
        )
    n = q.shape[0]
    if n == 0:
        raise ValueError("no queries")
    ranks = np.empty(n, dtype=np.int64)
    step = max(1, _ELEMENT_BUDGET // max(1, n))
    for i0 in range(0, n, step):
        i1 = min(n, i0 + step)
        s = _block_scores(q[i0:i1], t, metric)
        rows = np.arange(i1 - i0)
        true = s[rows, rows + i0]
        ge = s >= true[:, None]
        ranks[i0:i1] = ge.sum(axis=1)  # includes the true mate itself => 1 + #others
    return RetrievalResult(
        top1=float(np.mean(ranks == 1)),
        mrr=float(np.mean(1.0 / ranks)),
        ranks=_frozen(ranks),
        metric=metric,
    )


def crosslingual_retrieval(
    A: ArrayLike | Matrix, B: ArrayLike | Matrix, *, metric: Literal["cosine", "l1"] = "cosine"
) -> RetrievalResult:
    """Retrieval in both directions (A -> B and B -> A), averaged as in Platt et al. (2010).

    ``top1`` and ``mrr`` are the means of the two directions; ``ranks`` concatenates the forward
    and backward ranks; ``forward`` / ``backward`` hold the per-direction results.
    """
    fwd = retrieval(A, B, metric=metric)
    bwd = retrieval(B, A, metric=metric)
    return RetrievalResult(
        top1=(fwd.top1 + bwd.top1) / 2,
        mrr=(fwd.mrr + bwd.mrr) / 2,
        ranks=_frozen(np.concatenate([fwd.ranks, bwd.ranks])),
        metric=metric,
        forward=fwd,
        backward=bwd,
    )
