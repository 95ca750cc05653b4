"""Sense inspection: neighbours, the pseudo-sense criterion, WordNet and statistics helpers.

Part of :mod:`workbench.senses` (import the public names from there).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_finite,
    check_float,
    check_int,
    check_nan_policy,
    check_random_state,
)
from workbench.datasets import load_wordnet
from workbench.embeddings import MultiSenseVectors
from workbench.evaluation import SCWSResult, WordSimResult
from workbench.rpca import pca
from workbench.senses._similarity import wordsim_frame, wordsim_result
from workbench.senses._training import _unit

if TYPE_CHECKING:
    from nltk.corpus.reader import WordNetCorpusReader


class SenseNeighbours:
    """Nearest neighbours of sense vectors among all sense vectors of a model.

    Parameters
    ----------
    msv : MultiSenseVectors
    restrict : int, optional
        Only the first ``restrict`` words (the most frequent for trained models) are
        candidate neighbours.
    """

    #: Queries scored at once by :meth:`neighbours_many` (bounds the memory of the scores).
    chunk = 256

    def __init__(self, msv: MultiSenseVectors, restrict: int | None = None) -> None:
        self.msv = msv
        words = msv.words if restrict is None else msv.words[:restrict]
        owners: list[str] = []
        mats: list[np.ndarray] = []
        for w in words:
            s = np.asarray(msv.sense_vectors(w))
            owners.extend([w] * s.shape[0])
            mats.append(s)
        self.owners = np.array(owners, dtype=object)
        self.matrix = _unit(np.vstack(mats))
        codes, self._owner_code = np.unique(self.owners.astype(str), return_inverse=True)
        self._code_of = {str(w): i for i, w in enumerate(codes)}
        self._max_senses = int(np.bincount(self._owner_code).max()) if len(owners) else 1

    def neighbours(self, word: str, sense: int, topn: int = 10) -> list[str]:
        """The ``topn`` distinct words (other than ``word``) nearest to sense ``sense`` of ``word``."""
        return self.neighbours_many([(word, sense)], topn)[0]

    def neighbours_many(
        self, queries: Sequence[tuple[str, int]], topn: int = 10
    ) -> list[list[str]]:
        """:meth:`neighbours` of many ``(word, sense)`` queries, scored in blocks.

        Each query's candidates are ranked by decreasing cosine (ties by position in
        :attr:`matrix`, as a stable sort would); a word's first (best) sense places it.
        """
        topn = check_int(topn, "topn", low=1)
        vecs = []
        for word, sense in queries:
            sense = check_int(sense, f"sense of {word!r}", low=0)
            s = np.asarray(self.msv.sense_vectors(word))
            if not 0 <= sense < s.shape[0]:
                raise IndexError(f"word {word!r} has {s.shape[0]} senses; no sense {sense}")
            vecs.append(s[sense])
        if not vecs:
            return []
        Q = _unit(np.vstack(vecs))
        n = self.matrix.shape[0]
        # every word has at most ``_max_senses`` rows, so this many best rows hold at least
        # ``topn + 1`` distinct words: enough for ``topn`` neighbours besides the word itself
        cand = min(n, (topn + 1) * self._max_senses)
        out: list[list[str]] = []
        for a in range(0, len(vecs), self.chunk):
            sims = Q[a : a + self.chunk] @ self.matrix.T
            if cand < n:
                top = np.argpartition(-sims, cand - 1, axis=1)[:, :cand]
            else:
                top = np.broadcast_to(np.arange(n), (sims.shape[0], n))
            for r in range(sims.shape[0]):
                idx = top[r]
                idx = idx[np.lexsort((idx, -sims[r, idx]))]
                own = self._owner_code[idx]
                # first occurrence of every owner, in rank order
                _, first = np.unique(own, return_index=True)
                order = idx[np.sort(first)]
                self_code = self._code_of.get(str(queries[a + r][0]), -1)
                words = [str(self.owners[i]) for i in order if self._owner_code[i] != self_code]
                out.append(words[:topn])
        return out


def neighbour_overlap(
    index: SenseNeighbours, word: str, sense_a: int, sense_b: int, *, topn: int = 10
) -> float:
    """Fraction of shared words among the ``topn`` neighbours of two senses (0..1).

    This is the workbench's reproducible pseudo-sense criterion: a pair is called *pseudo*
    (the two senses mean the same) when the overlap is at least a stated threshold.
    """
    topn = check_int(topn, "topn", low=1)
    a = set(index.neighbours(word, sense_a, topn))
    b = set(index.neighbours(word, sense_b, topn))
    return len(a & b) / float(topn)


def component_pairs(
    M: np.ndarray,
    labels: Sequence[tuple[str, int, int]],
    components: np.ndarray,
    *,
    n_top: int = 5,
    index: SenseNeighbours | None = None,
    topn_neighbours: int = 5,
    overlap_topn: int = 10,
    pseudo_threshold: float = 0.3,
) -> pd.DataFrame:
    """The sense pairs most aligned with each component (Table 1 / 2 analogue).

    For each component :math:`p_j` the columns :math:`m` of ``M`` are ranked by
    :math:`|\\cos(m, p_j)|`; the two orders of a pair give the same value, so each unordered
    pair is listed once. Returns one row per (component, pair) with the cosine, the senses'
    nearest neighbours and the pseudo-sense decision (neighbour overlap >= threshold) when
    ``index`` is given.
    """
    M = check_array(M, "M", ndim=2)
    P = check_array(components, "components", ndim=(1, 2))
    n_top = check_int(n_top, "n_top", low=1)
    topn_neighbours = check_int(topn_neighbours, "topn_neighbours", low=1)
    overlap_topn = check_int(overlap_topn, "overlap_topn", low=1)
    pseudo_threshold = check_float(pseudo_threshold, "pseudo_threshold", low=0, high=1)
    if P.ndim == 1:
        P = P[:, None]
    if M.shape[0] != P.shape[0]:
        raise ValueError(f"M has {M.shape[0]} rows but components have dimension {P.shape[0]}")
    if len(labels) != M.shape[1]:
        raise ValueError(f"{len(labels)} labels for {M.shape[1]} columns")
    cos = _unit(P.T) @ _unit(M.T).T  # (k, N)
    rows: list[dict[str, str | int | float]] = []
    listed: list[tuple[str, int, int]] = []  # (word, sense_a, sense_b) of every row
    for j in range(P.shape[1]):
        seen: set[tuple[str, int, int]] = set()
        for i in np.argsort(-np.abs(cos[j]), kind="stable"):
            w, a, b = labels[i]
            key = (w, min(a, b), max(a, b))
            if key in seen:
                continue
            seen.add(key)
            listed.append(key)
            rows.append(
                {
                    "component": j + 1,
                    "word": w,
                    "sense_a": key[1],
                    "sense_b": key[2],
                    "abs_cos": float(abs(cos[j, i])),
                }
            )
            if len(seen) == n_top:
                break
    if index is not None and rows:
        queries = [(w, s) for w, a, b in listed for s in (a, b)]
        topn = max(topn_neighbours, overlap_topn)
        nb = index.neighbours_many(queries, topn)
        for i, rec in enumerate(rows):
            na, nb_ = nb[2 * i], nb[2 * i + 1]
            rec["neighbours_a"] = ", ".join(na[:topn_neighbours])
            rec["neighbours_b"] = ", ".join(nb_[:topn_neighbours])
            ov = len(set(na[:overlap_topn]) & set(nb_[:overlap_topn])) / float(overlap_topn)
            rec["overlap"] = ov
            rec["pseudo"] = bool(ov >= pseudo_threshold)
    return pd.DataFrame(rows)


def pair_overlaps(
    index: SenseNeighbours,
    pairs: Sequence[tuple[str, int, int]],
    *,
    topn: int = 10,
) -> np.ndarray:
    """:func:`neighbour_overlap` of every (word, sense_a, sense_b) in ``pairs``."""
    topn = check_int(topn, "topn", low=1)
    pairs = list(pairs)
    if not pairs:
        return np.zeros(0)
    queries = [q for w, a, b in pairs for q in ((w, a), (w, b))]
    nb = index.neighbours_many(queries, topn)
    return np.array(
        [len(set(nb[2 * i]) & set(nb[2 * i + 1])) / float(topn) for i in range(len(pairs))]
    )


def unique_pairs(labels: Sequence[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The unordered sense pairs of a difference matrix (one per column pair ``a < b``)."""
    return [lab for lab in labels if lab[1] < lab[2]]


def pseudo_rate(
    index: SenseNeighbours,
    labels: Sequence[tuple[str, int, int]],
    *,
    topn: int = 10,
    threshold: float = 0.3,
    sample: int | None = 2000,
    random_state: int = 0,
) -> float:
    """Base rate of pseudo pairs: the fraction of all sense pairs (or a seeded sample of
    ``sample`` of them) whose neighbour overlap is at least ``threshold``."""
    topn = check_int(topn, "topn", low=1)
    threshold = check_float(threshold, "threshold", low=0, high=1)
    sample = check_int(sample, "sample", low=1, allow_none=True)
    random_state = check_random_state(random_state)
    pairs = unique_pairs(labels)
    if not pairs:
        raise ValueError("no sense pairs")
    if sample is not None and len(pairs) > sample:
        rng = np.random.default_rng(random_state)
        pick = np.sort(rng.choice(len(pairs), size=sample, replace=False))
        pairs = [pairs[i] for i in pick]
    return float(np.mean(pair_overlaps(index, pairs, topn=topn) >= threshold))


def sparse_pair_table(
    labels: Sequence[tuple[str, int, int]],
    sparse: np.ndarray,
    index: SenseNeighbours,
    *,
    words: Sequence[str] | None = None,
    n_high: int = 3,
    n_low: int = 3,
    topn_neighbours: int = 5,
    overlap_topn: int = 10,
    wordnet: WordNetCorpusReader | None = None,
    synsets: bool = True,
) -> pd.DataFrame:
    r"""Table 3 analogue: per word, its sense pair with the largest sparse-noise column norm.

    Words are ``words`` if given, else the ``n_high`` words whose best pair has the largest
    :math:`\|S_p\|_2` and the ``n_low`` with the smallest. Columns: word, senses, their
    nearest neighbours, ``sparse_norm``, neighbour ``overlap`` and (unless ``synsets`` is
    False) the number of WordNet synsets ``n_synsets`` (``wordnet``: a WordNet reader, default
    the bundled one).
    """
    n_high = check_int(n_high, "n_high", low=0)
    n_low = check_int(n_low, "n_low", low=0)
    topn_neighbours = check_int(topn_neighbours, "topn_neighbours", low=1)
    overlap_topn = check_int(overlap_topn, "overlap_topn", low=1)
    synsets = check_bool(synsets, "synsets")
    norms = np.linalg.norm(check_array(sparse, "sparse", ndim=2), axis=0)
    if norms.size != len(labels):
        raise ValueError(f"{len(labels)} labels for {norms.size} columns")
    best: dict[str, tuple[float, int, int]] = {}
    for (w, a, b), v in zip(labels, norms):
        if a < b and (w not in best or v > best[w][0]):
            best[w] = (float(v), a, b)
    if words is None:
        ranked = sorted(best, key=lambda w: (-best[w][0], w))
        chosen = ranked[:n_high] + [w for w in ranked[::-1][:n_low] if w not in ranked[:n_high]]
    else:
        missing = [w for w in words if w not in best]
        if missing:
            raise KeyError(f"words without sense pairs: {missing}")
        chosen = list(words)
    topn = max(topn_neighbours, overlap_topn)
    nb = index.neighbours_many([(w, s) for w in chosen for s in best[w][1:]], topn)
    rows = []
    for i, w in enumerate(chosen):
        v, a, b = best[w]
        na, nb_ = nb[2 * i], nb[2 * i + 1]
        overlap = len(set(na[:overlap_topn]) & set(nb_[:overlap_topn])) / float(overlap_topn)
        rows.append(
            {
                "word": w,
                "sense_a": a,
                "sense_b": b,
                "neighbours_a": ", ".join(na[:topn_neighbours]),
                "neighbours_b": ", ".join(nb_[:topn_neighbours]),
                "sparse_norm": v,
                "overlap": overlap,
            }
        )
    table = pd.DataFrame(
        rows,
        columns=[
            "word",
            "sense_a",
            "sense_b",
            "neighbours_a",
            "neighbours_b",
            "sparse_norm",
            "overlap",
        ],
    )
    if synsets:
        table["n_synsets"] = synset_counts(chosen, wordnet) if chosen else np.zeros(0, np.int64)
    return table


def word_sparse_norms(
    sparse: np.ndarray, labels: Sequence[tuple[str, int, int]], *, reduce: str = "mean"
) -> pd.Series:
    """Per word, the ``mean`` (or ``max``) 2-norm of its columns in the sparse matrix ``S``."""
    check_choice(reduce, "reduce", ("mean", "max"))
    norms = np.linalg.norm(check_array(sparse, "sparse", ndim=2), axis=0)
    if norms.size != len(labels):
        raise ValueError(f"{len(labels)} labels for {norms.size} columns")
    df = pd.DataFrame({"word": [lab[0] for lab in labels], "norm": norms})
    grouped = df.groupby("word", sort=False)["norm"]
    out = grouped.mean() if reduce == "mean" else grouped.max()
    out.name = f"sparse_norm_{reduce}"
    return out


def avg_sim_wordsim(
    msv: MultiSenseVectors,
    dataset: str | pd.DataFrame = "WS",
    *,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
) -> WordSimResult:
    """avgSim (mean cosine over all sense pairs) on a word-similarity set, as a ``WordSimResult``.

    .. math:: \\mathrm{avgSim}(w, w') = \\frac{1}{K_w K_{w'}}\\sum_{i,j}\\cos(\\mu_i(w), \\mu_j(w'))

    Pairs with an out-of-vocabulary word are skipped (NaN prediction), so the result can be
    compared with :func:`workbench.significance.compare_wordsim`. Pairs with a NaN or infinite
    gold rating: ``nan_policy="raise"`` (default) raises ``ValueError``, ``"omit"`` skips them,
    ``"propagate"`` scores them (the correlations are then NaN), as in
    :func:`workbench.evaluation.evaluate_wordsim`.

    References
    ----------
    Reisinger & Mooney (2010); Neelakantan et al. (2014), Table 3 (WS-353 avgSim).
    """
    df, name = wordsim_frame(dataset)
    gold = np.asarray(df["score"], dtype=float)
    gold_ok = check_finite(
        gold, f"gold ratings (column 'score') of {name!r}", nan_policy=check_nan_policy(nan_policy)
    )
    pred = np.full(gold.size, np.nan)
    oov: list[tuple[str, str]] = []
    for i, (a, b) in enumerate(zip(df["word1"].tolist(), df["word2"].tolist())):
        if not gold_ok[i]:
            continue
        a, b = str(a).lower(), str(b).lower()
        if a not in msv or b not in msv:
            oov.append((a, b))
            continue
        pred[i] = float(np.mean(_unit(msv.sense_vectors(a)) @ _unit(msv.sense_vectors(b)).T))
    return wordsim_result(name, pred, gold, tuple(oov))


def scws_wordsim_result(result: SCWSResult, measure: str = "maxSimC") -> WordSimResult:
    """Wrap one measure of an :class:`~workbench.evaluation.SCWSResult` as a ``WordSimResult``.

    Lets :func:`workbench.significance.compare_wordsim` test SCWS differences (the items are
    the same across models evaluated on the same item list).
    """
    check_choice(measure, "measure (an SCWS measure)", ("avgSim", "avgSimC", "maxSim", "maxSimC"))
    pred = result.scores[measure].to_numpy(dtype=float)
    gold = result.scores["gold"].to_numpy(dtype=float)
    oov = tuple(
        (str(a), str(b))
        for a, b, m in zip(result.scores["word1"], result.scores["word2"], np.isnan(pred))
        if m
    )
    return wordsim_result(f"SCWS-{measure}", pred, gold, oov)


def synset_counts(words: Iterable[str], wordnet: WordNetCorpusReader | None = None) -> np.ndarray:
    """Number of WordNet 3.0 synsets of each word (all parts of speech; 0 if unknown)."""
    if wordnet is None:
        wordnet = load_wordnet()
    return np.array([len(wordnet.synsets(w)) for w in words], dtype=np.int64)


@dataclass(frozen=True)
class PartialCorrelationResult:
    """Partial rank correlation ``statistic`` of x and y given z, with its two-sided ``pvalue``."""

    statistic: float
    pvalue: float
    n: int


def partial_spearman(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    z: npt.ArrayLike,
    *,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
) -> PartialCorrelationResult:
    """Spearman partial correlation of ``x`` and ``y`` controlling for ``z``.

    ``nan_policy``: observations with a NaN or infinite value in ``x``, ``y`` or ``z`` raise
    ``ValueError`` (``"raise"``, default), are dropped (``"omit"``) or make the result NaN
    (``"propagate"``), as in :mod:`scipy.stats`. When ``x``, ``y`` or ``z`` is constant (over the
    observations kept) the partial correlation is undefined: statistic and p-value are NaN.

    Notes
    -----
    The Pearson correlation of the residuals of the ranks of ``x`` and ``y`` after a linear
    regression on the ranks of ``z``:
    :math:`r_{xy\\cdot z} = (r_{xy} - r_{xz}r_{yz}) / \\sqrt{(1-r_{xz}^2)(1-r_{yz}^2)}`, tested
    with :math:`t = r\\sqrt{(n-3)/(1-r^2)}` on :math:`n-3` degrees of freedom.

    References
    ----------
    Conover, W. J. (1999). *Practical Nonparametric Statistics*, 3rd ed., §5.4.
    """
    policy = check_nan_policy(nan_policy)
    xa, ya, za = (
        check_array(a, name, ndim=1, finite=False) for a, name in ((x, "x"), (y, "y"), (z, "z"))
    )
    if not (ya.size == xa.size and za.size == xa.size):
        raise ValueError(
            f"x, y and z must have the same length, got {xa.size}, {ya.size}, {za.size}"
        )
    if policy == "propagate" and not np.isfinite(np.stack([xa, ya, za])).all():
        return PartialCorrelationResult(statistic=float("nan"), pvalue=float("nan"), n=xa.size)
    keep = check_finite(
        np.where(np.isfinite(np.stack([xa, ya, za])).all(axis=0), 0.0, np.nan),
        "x, y or z",
        nan_policy=policy,
    )
    rx, ry, rz = (stats.rankdata(a[keep]) for a in (xa, ya, za))
    n = rx.size
    if n < 4:
        raise ValueError(f"need at least 4 observations, got {n}")
    if min(np.ptp(rx), np.ptp(ry), np.ptp(rz)) == 0:  # a constant variable: undefined
        return PartialCorrelationResult(statistic=float("nan"), pvalue=float("nan"), n=int(n))
    r = np.corrcoef(np.vstack([rx, ry, rz]))
    rxy, rxz, ryz = r[0, 1], r[0, 2], r[1, 2]
    denom = np.sqrt(max((1 - rxz**2) * (1 - ryz**2), 0.0))
    stat = float((rxy - rxz * ryz) / denom) if denom > 0 else float("nan")
    if not np.isfinite(stat) or abs(stat) >= 1:
        p = 0.0 if np.isfinite(stat) else float("nan")
    else:
        t = stat * np.sqrt((n - 3) / (1 - stat**2))
        p = float(2 * stats.t.sf(abs(t), n - 3))
    return PartialCorrelationResult(statistic=stat, pvalue=p, n=int(n))


def wordnet_pseudo_pairs(
    labels: Sequence[tuple[str, int, int]], synsets: Mapping[str, int]
) -> np.ndarray:
    """The sense pairs WordNet calls pseudo: those of words with exactly one WordNet synset.

    A word that WordNet knows in a single meaning cannot have two real senses, so every pair of
    its sense vectors is a pseudo multi-sense pair; words WordNet does not know (0 synsets, or
    missing from ``synsets``) and words with several synsets are left out (WordNet cannot
    tell their pairs apart without a sense-to-synset mapping).

    Parameters
    ----------
    labels : sequence of (word, sense, sense)
        Columns of the difference matrix (:func:`workbench.rpca.difference_matrix`).
    synsets : mapping
        Word -> number of WordNet synsets (:func:`synset_counts`).

    Returns
    -------
    ndarray of bool, shape (len(labels),)

    Examples
    --------
    >>> wordnet_pseudo_pairs([("cat", 0, 1), ("bank", 0, 1), ("the", 0, 1)],
    ...                      {"cat": 1, "bank": 18, "the": 0}).tolist()
    [True, False, False]
    """
    return np.array([int(synsets.get(w, 0)) == 1 for w, _, _ in labels], dtype=bool)


def wordnet_directions(
    M: np.ndarray,
    labels: Sequence[tuple[str, int, int]],
    synsets: Mapping[str, int],
    rank: int,
) -> np.ndarray:
    """The eliminated directions of :math:`\\tilde V_{\\rm WordNet}`: the top ``rank`` principal
    components of the columns of ``M`` that :func:`wordnet_pseudo_pairs` calls pseudo.

    This is the supervised counterpart of eliminating PCA's components (Shi, Sun & Hu 2018,
    eq. 6-7): the directions come from the difference vectors of pairs known to be pseudo from
    WordNet (the semi-supervised method of Shi, Li & Hu 2016, as the workbench defines it)
    instead of from all pairs.

    Returns
    -------
    ndarray, shape (d, rank)
        Orthonormal columns, signs fixed as :func:`workbench.rpca.pca` fixes them.

    Raises
    ------
    ValueError
        ``rank`` larger than the number of pseudo pairs or the dimension.
    """
    mask = wordnet_pseudo_pairs(labels, synsets)
    n = int(mask.sum())
    rank = int(rank)
    if not 1 <= rank <= min(n, M.shape[0]):
        raise ValueError(
            f"rank={rank}: WordNet calls {n} sense pairs pseudo and M has {M.shape[0]} rows; "
            f"allowed 1 <= rank <= {min(n, M.shape[0])}"
        )
    return pca(M[:, mask], rank).components
