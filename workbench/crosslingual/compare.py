"""Scoring and comparing translingual retrieval runs.

* :func:`paired_retrieval` -- both retrieval directions from ONE score matrix (cosine, or minus
  the L1 distance through :func:`scipy.spatial.distance.cdist`); the same ranks as
  :func:`workbench.evaluation.crosslingual_retrieval` with ties counted as errors, at a fraction
  of the cost for the L1 distance of topic vectors.
* :func:`compare_pairs` -- exact McNemar tests of chosen pairs of methods, Holm-adjusted.
* :func:`pairwise_mcnemar` -- every pair of methods, Holm-adjusted over all pairs.
* :func:`compact_letters` -- the compact letter display of a set of significant differences
  (methods that share a letter are not significantly different; Piepho, 2004).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.spatial.distance import cdist
from scipy.stats import binomtest

from workbench._typing import Matrix
from workbench._validation import check_array, check_choice, check_float
from workbench.evaluation import RetrievalResult
from workbench.significance import compare_accuracy, holm

__all__ = ["paired_retrieval", "compare_pairs", "pairwise_mcnemar", "compact_letters"]

_BLOCK_ELEMENTS = 1 << 24


def _rows_for_metric(x: Matrix, metric: str, name: str) -> np.ndarray | sp.csr_matrix:
    x = check_array(x, name, ndim=2, accept_sparse=True)
    if sp.issparse(x):
        m = sp.csr_matrix(x, dtype=np.float64)
        if metric == "l1" or m.nnz > 0.2 * m.shape[0] * m.shape[1]:
            return _rows_for_metric(m.toarray(), metric, name)  # dense enough for BLAS
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return sp.csr_matrix(sp.diags(1.0 / norms) @ m)
    arr = x
    if metric == "l1":
        return arr
    norms = np.linalg.norm(arr, axis=1)
    norms[norms == 0] = 1.0
    return arr / norms[:, None]


def _score_block(
    a: np.ndarray | sp.csr_matrix, b: np.ndarray | sp.csr_matrix, metric: str
) -> np.ndarray:
    if metric == "cosine":
        s = a @ b.T
        return np.asarray(s.toarray() if sp.issparse(s) else s)
    return -cdist(a, b, "cityblock")


def paired_retrieval(
    A: Matrix, B: Matrix, *, metric: Literal["cosine", "l1"] = "cosine"
) -> RetrievalResult:
    r"""Retrieval in both directions (A -> B and B -> A) from one score matrix.

    Row ``i`` of ``B`` is the true mate of row ``i`` of ``A``. With scores :math:`s_{ij}` (cosine
    similarity, or minus the L1 distance) the forward rank of item ``i`` is
    :math:`1 + \#\{j \ne i : s_{ij} \ge s_{ii}\}` and the backward rank
    :math:`1 + \#\{j \ne i : s_{ji} \ge s_{ii}\}`: ties count as errors (Platt et al., 2010).

    Parameters
    ----------
    A, B : array or sparse matrix, shape (n, d)
    metric : {"cosine", "l1"}

    Returns
    -------
    workbench.evaluation.RetrievalResult
        ``top1`` and ``mrr`` averaged over the two directions, ``ranks`` (forward then backward)
        and the per-direction results in ``forward`` / ``backward``, as
        :func:`workbench.evaluation.crosslingual_retrieval` returns them.
    """
    check_choice(metric, "metric", ("cosine", "l1"))
    a = _rows_for_metric(A, metric, "A")
    b = _rows_for_metric(B, metric, "B")
    if a.shape != b.shape:
        raise ValueError(
            f"A and B must have the same shape (row i's mate is row i), got {a.shape} and {b.shape}"
        )
    n = a.shape[0]
    if n == 0:
        raise ValueError("no items to retrieve")
    step = max(1, _BLOCK_ELEMENTS // n)
    blocks = [(i0, min(n, i0 + step)) for i0 in range(0, n, step)]
    fwd = np.empty(n, dtype=np.int64)
    diag = np.empty(n)
    bwd = np.zeros(n, dtype=np.int64)
    cached = None
    for i0, i1 in blocks:
        s = _score_block(a[i0:i1], b, metric)
        rows = np.arange(i1 - i0)
        true = s[rows, rows + i0]
        diag[i0:i1] = true
        fwd[i0:i1] = (s >= true[:, None]).sum(axis=1)
        if len(blocks) == 1:
            cached = s
    # second pass (the very same block computations, so the same numbers) for the columns
    for i0, i1 in blocks:
        s = cached if cached is not None else _score_block(a[i0:i1], b, metric)
        bwd += (s >= diag[None, :]).sum(axis=0)

    def one(ranks: np.ndarray) -> RetrievalResult:
        ranks = np.array(ranks, copy=True)
        ranks.setflags(write=False)
        return RetrievalResult(float(np.mean(ranks == 1)), float(np.mean(1.0 / ranks)), ranks,
                               metric)  # fmt: skip

    f, g = one(fwd), one(bwd)
    both = np.concatenate([fwd, bwd])
    both.setflags(write=False)
    return RetrievalResult((f.top1 + g.top1) / 2, (f.mrr + g.mrr) / 2, both, metric, f, g)


def compare_pairs(
    hits: Mapping[str, np.ndarray], pairs: Sequence[tuple[str, str]], *, alpha: float = 0.05
) -> pd.DataFrame:
    """Paired comparisons of per-item hits (exact McNemar test), one row per ``(a, b)`` pair.

    Columns: ``baseline, method, accuracy baseline, accuracy method, difference,
    n baseline only, n method only, mcnemar p, holm p, significant, p(method better)``.
    ``holm p`` adjusts the McNemar p-values over the rows of this table (Holm, 1979);
    ``significant`` is ``holm p < alpha``. Pairs whose methods were not run are skipped.
    """
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    rows = []
    for a, b in pairs:
        if a not in hits or b not in hits:
            continue
        r = compare_accuracy(hits[a], hits[b])
        rows.append(
            {
                "baseline": a,
                "method": b,
                "accuracy baseline": r.accuracy_a,
                "accuracy method": r.accuracy_b,
                "difference": r.difference,
                "n baseline only": r.n_a_only,
                "n method only": r.n_b_only,
                "mcnemar p": r.mcnemar_pvalue,
                "p(method better)": r.prob_b_better,
            }
        )
    table = pd.DataFrame(rows)
    if len(table):
        table.insert(8, "holm p", np.asarray(holm(table["mcnemar p"].to_numpy())))
        table.insert(9, "significant", table["holm p"] < alpha)
    return table


def pairwise_mcnemar(hits: Mapping[str, np.ndarray], *, alpha: float = 0.05) -> pd.DataFrame:
    """Every pair of methods on the same items: exact McNemar test, Holm over all pairs.

    The McNemar p-value is the two-sided binomial test of the discordant items (as in
    :func:`workbench.significance.compare_accuracy`).

    Parameters
    ----------
    hits : dict method -> per-item bool array
        Top-1 hits of each method on the same queries.
    alpha : float
        Level of the Holm-adjusted tests.

    Returns
    -------
    DataFrame
        One row per unordered pair, ``better`` being the method with the higher accuracy (the
        first given on a tie): ``better, worse, accuracy better, accuracy worse, difference,
        n better only, n worse only, mcnemar p, holm p, significant``.
    """
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    names = list(hits)
    if len(names) < 2:
        raise ValueError("need hits of at least two methods")
    for m in names:
        h = check_array(hits[m], f"hits[{m!r}]", ndim=1, dtype=None)
        if h.dtype != bool and not np.isin(h, (0, 1)).all():
            raise ValueError(f"hits[{m!r}] must be boolean (or 0/1) per query")
    acc = {m: float(np.mean(hits[m])) for m in names}
    order = sorted(names, key=lambda m: -acc[m])
    rows = []
    for i, j in itertools.combinations(range(len(order)), 2):
        hi, lo = order[i], order[j]
        a, b = np.asarray(hits[hi], dtype=bool), np.asarray(hits[lo], dtype=bool)
        if a.shape != b.shape or a.ndim != 1 or a.size == 0:
            raise ValueError(f"hits of {hi!r} and {lo!r} must be 1-D of the same non-zero length")
        n_hi, n_lo = int((a & ~b).sum()), int((b & ~a).sum())
        p = 1.0 if n_hi + n_lo == 0 else float(binomtest(n_hi, n_hi + n_lo, 0.5).pvalue)
        rows.append(
            {
                "better": hi,
                "worse": lo,
                "accuracy better": float(a.mean()),
                "accuracy worse": float(b.mean()),
                "difference": float(a.mean() - b.mean()),
                "n better only": n_hi,
                "n worse only": n_lo,
                "mcnemar p": p,
            }
        )
    table = pd.DataFrame(rows)
    table["holm p"] = np.asarray(holm(table["mcnemar p"].to_numpy()))
    table["significant"] = table["holm p"] < alpha
    return table


def compact_letters(order: Sequence[str], different: Collection[tuple[str, str]]) -> dict[str, str]:
    """Compact letter display: methods that share a letter are not significantly different.

    The insert-and-absorb algorithm of Piepho (2004): start from one group holding every
    method; for each significantly different pair, split every group holding both into two
    groups without one of them, then drop groups contained in another. Letters ``a, b, ...`` go
    to the groups in the order of their best-ranked member (``order``: best first).

    Parameters
    ----------
    order : sequence of str
        The methods, best first.
    different : collection of (str, str)
        The pairs that differ significantly (either orientation).

    Returns
    -------
    dict method -> letters

    References
    ----------
    H.-P. Piepho (2004). An algorithm for a letter-based representation of all-pairwise
    comparisons. Journal of Computational and Graphical Statistics 13(2), 456-466.
    """
    order = list(order)
    if len(set(order)) != len(order):
        raise ValueError("order must not repeat a method")
    rank = {m: i for i, m in enumerate(order)}
    for a, b in different:
        if a not in rank or b not in rank:
            raise ValueError(f"pair ({a!r}, {b!r}) names a method not in order")
    groups: list[frozenset[str]] = [frozenset(order)]
    oriented = {(a, b) if rank[a] < rank[b] else (b, a) for a, b in different if a != b}
    pairs = sorted(oriented, key=lambda p: (rank[p[0]], rank[p[1]]))
    for a, b in pairs:
        new: list[frozenset[str]] = []
        for g in groups:
            if a in g and b in g:
                new += [g - {a}, g - {b}]
            else:
                new.append(g)
        unique = list(dict.fromkeys(g for g in new if g))
        groups = [g for g in unique if not any(g < h for h in unique)]
    groups.sort(key=lambda g: sorted(rank[m] for m in g))
    letters = {m: "" for m in order}
    for k, g in enumerate(groups):
        letter = _letter(k)
        for m in order:
            if m in g:
                letters[m] += letter
    return letters


def _letter(k: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    return alphabet[k] if k < len(alphabet) else f"<{k}>"
