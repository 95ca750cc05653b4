"""Word-similarity scores of multi-sense vectors after removing directions, without re-scoring.

Part of :mod:`workbench.senses` (import the public names from there).

The pseudo-sense elimination of Shi, Sun & Hu (2018, §3.3) maps every sense vector with the
projector :math:`T = I - QQ^\\top`; the senses chosen for an SCWS item depend only on the
context centres and global vectors, which :math:`T` leaves unchanged. So the senses of every
item are chosen once (:func:`scws_task`, :func:`avg_sim_task`) and any number of eliminations
are scored by projecting those few vectors (:meth:`SenseSimilarityTask.evaluate`), with the same
numbers as :func:`workbench.evaluation.evaluate_scws` / :func:`avg_sim_wordsim` on
:func:`workbench.rpca.eliminate_pseudo_senses` of the model, up to rounding: similarities are
rounded to :data:`ROUND_DECIMALS` decimals, so that items comparing the same two senses tie
exactly in the rank correlation instead of being ordered by last-bit noise.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from workbench._validation import check_array, check_finite, check_int
from workbench.datasets import SCWSItem, load_scws, load_wordsim, scws_context
from workbench.embeddings import MultiSenseVectors
from workbench.evaluation import WordSimResult, lookup_row, sense_probabilities

__all__ = ["SenseSimilarityTask", "scws_task", "avg_sim_task", "scws_split"]

#: Fraction of SCWS word pairs in the dev half of :func:`scws_split`.
SCWS_DEV_FRACTION = 0.5
#: Similarities are rounded to this many decimals (exact ties for items with the same senses).
ROUND_DECIMALS = 12


def wordsim_frame(dataset: str | pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The ratings of ``dataset`` (a name for :func:`workbench.datasets.load_wordsim`, or the
    table itself) and the set's name."""
    if isinstance(dataset, str):
        df = load_wordsim(dataset)
        return df, str(df.attrs.get("name", dataset))
    return dataset, str(dataset.attrs.get("name", "custom"))


def wordsim_result(
    name: str, pred: np.ndarray, gold: np.ndarray, oov_pairs: tuple[tuple[str, str], ...]
) -> WordSimResult:
    """A :class:`~workbench.evaluation.WordSimResult` of the predictions ``pred`` (NaN: not
    scored) against ``gold``: Spearman and Pearson over the scored items, NaN with fewer than
    three of them or when one side is constant there."""
    ok = ~np.isnan(pred)
    if ok.sum() >= 3 and np.ptp(pred[ok]) > 0 and np.ptp(gold[ok]) > 0:
        sp = float(stats.spearmanr(pred[ok], gold[ok]).statistic)
        pe = float(stats.pearsonr(pred[ok], gold[ok]).statistic)
    else:
        sp = pe = float("nan")
    return WordSimResult(
        name=name,
        spearman=sp,
        pearson=pe,
        n_pairs=int(gold.size),
        n_scored=int(ok.sum()),
        oov_pairs=oov_pairs,
        pred=pred,
        gold=gold,
    )


def _unit_last(x: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(n > 0, n, 1.0)


@dataclass(frozen=True, eq=False)
class SenseSimilarityTask:
    """The sense vectors a similarity measure compares, item by item.

    Item ``i`` is scored as the mean cosine between the rows ``first[i, :, :]`` and
    ``second[i, :, :]`` allowed by the masks: one sense on each side for SCWS maxSimC (the
    senses chosen by the contexts), every sense pair for avgSim.

    Attributes
    ----------
    name : str
        Name of the rating set and measure (``"SCWS-maxSimC"``, ``"WS-avgSim"``).
    first, second : ndarray, shape (n, k, d)
        Sense vectors of the two words of every item (zero-padded to ``k`` senses).
    first_mask, second_mask : ndarray of bool, shape (n, k)
        Which rows are real senses.
    gold : ndarray, shape (n,)
    scored : ndarray of bool, shape (n,)
        Items whose two words are in the vocabulary.
    oov_pairs : tuple of (str, str)
    """

    name: str
    first: np.ndarray
    first_mask: np.ndarray
    second: np.ndarray
    second_mask: np.ndarray
    gold: np.ndarray
    scored: np.ndarray
    oov_pairs: tuple[tuple[str, str], ...]

    def __len__(self) -> int:
        return int(self.gold.size)

    def predictions(self, components: np.ndarray | None = None) -> np.ndarray:
        """Similarity of every item (NaN where unscored) after removing the span of
        ``components`` (``(d, k)``; None: the vectors as they are) from every sense vector."""
        A, B = self.first, self.second
        if components is not None:
            C = check_array(components, "components", ndim=(1, 2))
            if C.ndim == 1:
                C = C[:, None]
            if C.shape[0] != A.shape[-1]:
                raise ValueError(
                    f"components have dimension {C.shape[0]} but the vectors have {A.shape[-1]}"
                )
            Q, _ = np.linalg.qr(C)
            A = A - (A @ Q) @ Q.T
            B = B - (B @ Q) @ Q.T
        sims = np.einsum("nid,njd->nij", _unit_last(A), _unit_last(B))
        w = self.first_mask[:, :, None] & self.second_mask[:, None, :]
        count = w.sum(axis=(1, 2))
        pred = np.where(w, sims, 0.0).sum(axis=(1, 2)) / np.where(count > 0, count, 1)
        # items with the same senses must tie exactly in the rank correlation; rounding
        # removes the last-bit differences of vectorised arithmetic at different positions
        pred = np.round(pred, ROUND_DECIMALS)
        return np.where(self.scored & (count > 0), pred, np.nan)

    def evaluate(self, components: np.ndarray | None = None) -> WordSimResult:
        """A :class:`workbench.evaluation.WordSimResult` (Spearman over the scored items) after
        removing the span of ``components``; comparable with
        :func:`workbench.significance.compare_wordsim` across eliminations."""
        return wordsim_result(
            self.name, self.predictions(components), self.gold.copy(), self.oov_pairs
        )

    def subset(self, mask: np.ndarray, name: str | None = None) -> SenseSimilarityTask:
        """The items selected by the boolean ``mask`` (e.g. a dev or test split)."""
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"mask must be a boolean array, got dtype {mask.dtype}")
        if mask.shape != self.gold.shape:
            raise ValueError(f"mask has shape {mask.shape}; the task has {len(self)} items")
        return SenseSimilarityTask(
            name=name or self.name,
            first=self.first[mask],
            first_mask=self.first_mask[mask],
            second=self.second[mask],
            second_mask=self.second_mask[mask],
            gold=self.gold[mask],
            scored=self.scored[mask],
            oov_pairs=self.oov_pairs,
        )


def _pad(rows: list[np.ndarray], dim: int) -> tuple[np.ndarray, np.ndarray]:
    k = max((r.shape[0] for r in rows), default=1) or 1
    out = np.zeros((len(rows), k, dim))
    mask = np.zeros((len(rows), k), dtype=bool)
    for i, r in enumerate(rows):
        out[i, : r.shape[0]] = r
        mask[i, : r.shape[0]] = True
    return out, mask


def scws_task(
    msv: MultiSenseVectors, items: Sequence[SCWSItem] | None = None, *, window: int = 5
) -> SenseSimilarityTask:
    """SCWS maxSimC (localSim) as a :class:`SenseSimilarityTask`: for every item, the sense of
    each word whose context centre is closest to the item's context.

    The choice follows :func:`workbench.evaluation.evaluate_scws` exactly (context = mean
    global vector of the in-vocabulary tokens within ``window`` of the target; the sense of
    largest :math:`p(i \\mid c, w)`, the first one when the context is empty), so
    the item similarities equal ``evaluate_scws(msv, items).scores["maxSimC"]`` (to rounding),
    also after :func:`workbench.rpca.eliminate_pseudo_senses`.
    """
    window = check_int(window, "window", low=0)
    if items is None:
        items = load_scws()
    glob = msv.as_word_vectors()
    index = glob.index
    gmat = np.asarray(glob.vectors, dtype=np.float64)
    dim = gmat.shape[1]

    def context_vec(text: str) -> np.ndarray | None:
        left, _target, right = scws_context(text, window)
        rows = [r for r in (lookup_row(index, t, True) for t in list(left) + list(right)) if r >= 0]
        return gmat[rows].mean(axis=0) if rows else None

    def chosen(word_row: int, context: str) -> np.ndarray:
        key = glob.words[word_row]
        s = np.atleast_2d(np.asarray(msv.sense_vectors(key), dtype=np.float64))
        c = np.atleast_2d(np.asarray(msv.context_centers(key), dtype=np.float64))
        if s.shape[0] == 0:
            return gmat[word_row][None, :]
        return s[int(np.argmax(sense_probabilities(context_vec(context), c)))][None, :]

    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    gold = np.array([float(it.score) for it in items])
    scored = np.zeros(len(items), dtype=bool)
    oov: list[tuple[str, str]] = []
    for i, it in enumerate(items):
        r1, r2 = lookup_row(index, it.word1, True), lookup_row(index, it.word2, True)
        if r1 < 0 or r2 < 0:
            first.append(np.zeros((0, dim)))
            second.append(np.zeros((0, dim)))
            oov.append((str(it.word1), str(it.word2)))
            continue
        first.append(chosen(r1, it.context1))
        second.append(chosen(r2, it.context2))
        scored[i] = True
    A, am = _pad(first, dim)
    B, bm = _pad(second, dim)
    return SenseSimilarityTask("SCWS-maxSimC", A, am, B, bm, gold, scored, tuple(oov))


def avg_sim_task(msv: MultiSenseVectors, dataset: str | pd.DataFrame = "WS") -> SenseSimilarityTask:
    """avgSim on a word-similarity set (mean cosine over all sense pairs) as a
    :class:`SenseSimilarityTask`; the same scores as :func:`avg_sim_wordsim`."""
    df, name = wordsim_frame(dataset)
    dim = msv.dim
    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    gold = np.asarray(df["score"], dtype=float)
    check_finite(gold, f"gold ratings (column 'score') of {name!r}")
    scored = np.zeros(gold.size, dtype=bool)
    oov: list[tuple[str, str]] = []
    for i, (a, b) in enumerate(zip(df["word1"].tolist(), df["word2"].tolist())):
        a, b = str(a).lower(), str(b).lower()
        if a not in msv or b not in msv:
            first.append(np.zeros((0, dim)))
            second.append(np.zeros((0, dim)))
            oov.append((a, b))
            continue
        first.append(np.atleast_2d(np.asarray(msv.sense_vectors(a), dtype=np.float64)))
        second.append(np.atleast_2d(np.asarray(msv.sense_vectors(b), dtype=np.float64)))
        scored[i] = True
    A, am = _pad(first, dim)
    B, bm = _pad(second, dim)
    return SenseSimilarityTask(f"{name}-avgSim", A, am, B, bm, gold, scored, tuple(oov))


def scws_split(items: Sequence[SCWSItem], *, name: str = "SCWS") -> np.ndarray:
    """Boolean mask of the *dev* items of a fixed, documented dev / test split of SCWS.

    The split is by **word pair**, so that the contexts of one pair never fall on both sides:
    the distinct unordered, lowercased pairs are permuted with
    ``numpy.random.default_rng(zlib.crc32(name))`` and the first ``ceil(SCWS_DEV_FRACTION *
    n_pairs)`` of them are dev; every item of a dev pair is a dev item. The split depends only
    on the item list, so it is the same on every machine and run (and never on a seed).
    """
    keys = [tuple(sorted((str(it.word1).lower(), str(it.word2).lower()))) for it in items]
    if not keys:
        raise ValueError("no SCWS items to split")
    distinct = sorted(set(keys))
    rng = np.random.default_rng(zlib.crc32(name.encode("utf-8")))
    order = rng.permutation(len(distinct))
    n_dev = int(np.ceil(SCWS_DEV_FRACTION * len(distinct)))
    dev_pairs = {distinct[i] for i in order[:n_dev]}
    return np.array([k in dev_pairs for k in keys])
