"""Word-similarity evaluation: cosine vs human ratings (Spearman and Pearson)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from workbench._validation import check_bool, check_choice, check_finite, check_nan_policy
from workbench.datasets import WORDSIM_NAMES, load_wordsim
from workbench.embeddings import MultiSenseVectors, WordVectors

from ._common import (
    _check_vectors,
    _frozen,
    _safe_corr,
    _Scored,
    _unit_rows,
    lookup_row,
)

logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# word similarity
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WordSimResult(_Scored):
    """Word-similarity evaluation of one embedding on one rating set.

    Attributes
    ----------
    name : str
        Rating set name.
    spearman, pearson : float
        Correlations between cosine similarities and gold ratings over the scored pairs
        (NaN when fewer than 3 pairs are scored or either side is constant).
    n_pairs, n_scored : int
        Pairs in the set; pairs scored.
    oov_pairs : tuple of (str, str)
        Pairs with at least one out-of-vocabulary word (skipped under ``oov="skip"``, scored with
        a zero / mean vector otherwise).
    pred : ndarray
        Cosine per pair, NaN where the pair was skipped.
    gold : ndarray
        Gold rating per pair.
    oov_policy : str
        The out-of-vocabulary policy used.
    """

    name: str
    spearman: float
    pearson: float
    n_pairs: int
    n_scored: int
    oov_pairs: tuple[tuple[str, str], ...]
    pred: np.ndarray
    gold: np.ndarray
    oov_policy: str = "skip"

    _TOTAL = "n_pairs"

    @property
    def scored(self) -> np.ndarray:
        """Boolean mask of scored pairs."""
        return ~np.isnan(self.pred)


def _resolve_wordsim(dataset: str | pd.DataFrame) -> tuple[str, pd.DataFrame]:
    if isinstance(dataset, pd.DataFrame):
        df = dataset
        name = str(df.attrs.get("name", "custom"))
    elif isinstance(dataset, str):
        df = load_wordsim(dataset)
        name = str(df.attrs.get("name", dataset))
    else:
        raise TypeError(
            f"dataset must be a rating-set name or a DataFrame, got {type(dataset).__name__}"
        )
    missing = {"word1", "word2", "score"} - set(df.columns)
    if missing:
        raise ValueError(f"word-similarity DataFrame {name!r} lacks columns {sorted(missing)}")
    return name, df


def evaluate_wordsim(
    vectors: WordVectors | MultiSenseVectors,
    dataset: str | pd.DataFrame,
    *,
    oov: Literal["skip", "zero", "mean"] = "skip",
    lowercase: bool = True,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
) -> WordSimResult:
    r"""Score an embedding on a word-similarity rating set.

    Parameters
    ----------
    vectors : WordVectors
        The embedding (multi-sense containers are evaluated on their global vectors).
    dataset : str or DataFrame
        A name from :data:`workbench.datasets.WORDSIM_NAMES` (loaded with
        :func:`workbench.datasets.load_wordsim`) or a DataFrame with ``word1, word2, score``.
    oov : {"skip", "zero", "mean"}
        Out-of-vocabulary policy: ``"skip"`` leaves the pair out and reports it (default);
        ``"zero"`` scores the pair with a zero vector (cosine 0); ``"mean"`` replaces the missing
        word by the mean of all vectors.
    lowercase : bool
        Look words up lowercased first (then in their original form).
    nan_policy : {"raise", "omit", "propagate"}
        Pairs whose gold rating is NaN or infinite: ``"raise"`` (default) raises ``ValueError``,
        ``"omit"`` leaves them unscored (``pred`` NaN, like out-of-vocabulary pairs),
        ``"propagate"`` scores them, so the correlations are NaN (as in :mod:`scipy.stats`).

    Returns
    -------
    WordSimResult

    Raises
    ------
    ValueError
        NaN / inf gold ratings with ``nan_policy="raise"``, NaN / inf vectors, a non-numeric
        ``score`` column, missing columns, an unknown ``oov`` or ``nan_policy``.

    Notes
    -----
    The prediction for a pair is :math:`\cos(u, v) = u^\top v / (\|u\|\,\|v\|)` (0 when either
    vector is zero); the figure reported is Spearman's :math:`\rho` between predictions and gold
    ratings over the scored pairs.

    References
    ----------
    Faruqui, M. & Dyer, C. (2014). Community evaluation and exchange of word vectors at
    wordvectors.org. ACL demos.
    """
    check_choice(oov, "oov", ("skip", "zero", "mean"))
    lowercase = check_bool(lowercase, "lowercase")
    policy = check_nan_policy(nan_policy)
    index, mat = _check_vectors(vectors)
    name, df = _resolve_wordsim(dataset)
    w1 = [str(w) for w in df["word1"].tolist()]
    w2 = [str(w) for w in df["word2"].tolist()]
    try:
        gold = np.asarray(df["score"], dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"column 'score' of {name!r} must be numeric ratings: {exc}") from None
    gold_ok = check_finite(gold, f"gold ratings (column 'score') of {name!r}", nan_policy=policy)
    r1 = np.array([lookup_row(index, w, lowercase) for w in w1], dtype=np.int64)
    r2 = np.array([lookup_row(index, w, lowercase) for w in w2], dtype=np.int64)
    oov_mask = (r1 < 0) | (r2 < 0)
    unit = _unit_rows(mat)
    if oov == "mean" and len(mat):
        filler = np.asarray(mat, dtype=float).mean(axis=0)
        nrm = np.linalg.norm(filler)
        filler = filler / nrm if nrm > 0 else filler
    else:
        filler = np.zeros(mat.shape[1])
    u = np.where((r1 >= 0)[:, None], unit[np.maximum(r1, 0)], filler[None, :])
    v = np.where((r2 >= 0)[:, None], unit[np.maximum(r2, 0)], filler[None, :])
    pred = np.einsum("ij,ij->i", u, v)
    if oov == "skip":
        pred[oov_mask] = np.nan
    pred[~gold_ok] = np.nan  # nan_policy="omit": pairs without a usable rating are not scored
    scored = ~np.isnan(pred)
    spearman = _safe_corr(stats.spearmanr, pred[scored], gold[scored])
    pearson = _safe_corr(stats.pearsonr, pred[scored], gold[scored])
    oov_pairs = tuple((a, b) for a, b, m in zip(w1, w2, oov_mask) if m)
    return WordSimResult(
        name=name,
        spearman=spearman,
        pearson=pearson,
        n_pairs=len(gold),
        n_scored=int(scored.sum()),
        oov_pairs=oov_pairs,
        pred=_frozen(pred, float),
        gold=_frozen(gold, float),
        oov_policy=oov,
    )


def wordsim_suite(
    vectors: WordVectors | MultiSenseVectors, names: Sequence[str] | None = None, **kw: Any
) -> pd.DataFrame:
    """Score ``vectors`` on several rating sets (default: all of ``WORDSIM_NAMES``).

    Returns one row per dataset with columns ``dataset, n_pairs, n_scored, coverage, spearman,
    pearson``; keyword arguments are passed to :func:`evaluate_wordsim`. The per-pair results are
    available in ``df.attrs["results"]`` (dict name -> :class:`WordSimResult`).
    """
    if isinstance(names, str):
        raise TypeError(f"names must be a sequence of rating-set names, not a string ({names!r})")
    if names is None:
        names = WORDSIM_NAMES
    rows = []
    results: dict[str, WordSimResult] = {}
    for name in names:
        res = evaluate_wordsim(vectors, name, **kw)
        results[name] = res
        rows.append(
            {
                "dataset": name,
                "n_pairs": res.n_pairs,
                "n_scored": res.n_scored,
                "coverage": res.coverage,
                "spearman": res.spearman,
                "pearson": res.pearson,
            }
        )
    out = pd.DataFrame(
        rows, columns=["dataset", "n_pairs", "n_scored", "coverage", "spearman", "pearson"]
    )
    out.attrs["results"] = results
    return out
