"""Accuracy tasks: TOEFL-style synonym questions and 1-nearest-neighbour classification."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from workbench._typing import Matrix
from workbench._validation import check_bool, check_choice
from workbench.embeddings import MultiSenseVectors, WordVectors

from ._common import (
    _ELEMENT_BUDGET,
    _acc,
    _Accuracy,
    _block_scores,
    _check_vectors,
    _frozen,
    _prepare,
    _unit_rows,
    lookup_row,
)

logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# accuracy tasks: TOEFL, kNN
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class AccuracyResult(_Accuracy):
    """Accuracy on a set of items.

    Attributes
    ----------
    name : str
    accuracy : float
        Correct / scorable items.
    n_items, n_scored : int
    hits : ndarray of bool
        Per item; False for unscorable items.
    scorable : ndarray of bool
    predicted : ndarray
        Per-item prediction (choice letter, label, ...; None / -1 when unscorable).
    """

    name: str
    accuracy: float
    n_items: int
    n_scored: int
    hits: np.ndarray
    scorable: np.ndarray
    predicted: np.ndarray

    _TOTAL = "n_items"


def evaluate_toefl(
    vectors: WordVectors | MultiSenseVectors,
    questions_df: pd.DataFrame,
    *,
    lowercase: bool = True,
    oov: Literal["skip", "partial"] = "skip",
) -> AccuracyResult:
    r"""TOEFL-style synonym questions: pick the choice whose vector is most similar to the stem.

    Parameters
    ----------
    vectors : WordVectors
    questions_df : DataFrame
        Columns ``qid, stem, choice_a, choice_b, choice_c, choice_d, answer`` (answer a letter),
        as returned by :func:`workbench.datasets.load_toefl`.
    oov : {"skip", "partial"}
        ``"skip"`` (default): a question is scorable only if the stem and all four choices are in
        the vocabulary. ``"partial"``: scorable if the stem and at least one choice are known;
        unknown choices can never be picked.

    Notes
    -----
    The prediction is :math:`\arg\max_{c} \cos(\text{stem}, c)`. A question counts as correct
    only if the correct choice's cosine is strictly greater than every other choice's (ties are
    errors).

    References
    ----------
    Landauer, T. K. & Dumais, S. T. (1997). A solution to Plato's problem. Psychological Review.
    """
    check_choice(oov, "oov", ("skip", "partial"))
    lowercase = check_bool(lowercase, "lowercase")
    if not isinstance(questions_df, pd.DataFrame):
        raise TypeError(f"questions_df must be a DataFrame, got {type(questions_df).__name__}")
    index, mat = _check_vectors(vectors)
    cols = ["stem", "choice_a", "choice_b", "choice_c", "choice_d", "answer"]
    missing = set(cols) - set(questions_df.columns)
    if missing:
        raise ValueError(f"TOEFL questions lack columns {sorted(missing)}")
    unit = _unit_rows(mat)
    letters = np.array(["a", "b", "c", "d"])
    n = len(questions_df)
    hits = np.zeros(n, dtype=bool)
    scorable = np.zeros(n, dtype=bool)
    predicted = np.full(n, None, dtype=object)
    for i, row in enumerate(questions_df[cols].itertuples(index=False)):
        answer = str(row[5]).strip().lower()
        if answer not in letters:
            raise ValueError(f"TOEFL question {i}: answer must be one of a-d, got {row[5]!r}")
        s = lookup_row(index, str(row[0]), lowercase)
        ch = [lookup_row(index, str(w), lowercase) for w in row[1:5]]
        known = np.array([c >= 0 for c in ch])
        if s < 0 or not known.any() or (oov == "skip" and not known.all()):
            continue
        scorable[i] = True
        sims = np.array([unit[s] @ unit[c] if c >= 0 else -np.inf for c in ch])
        k = int(np.argmax(sims))
        predicted[i] = letters[k]
        true = int(np.flatnonzero(letters == answer)[0])
        others = np.delete(sims, true)
        hits[i] = bool(sims[true] > others.max())
    return AccuracyResult(
        name=str(questions_df.attrs.get("name", "TOEFL")),
        accuracy=_acc(hits, scorable),
        n_items=n,
        n_scored=int(scorable.sum()),
        hits=_frozen(hits, bool),
        scorable=_frozen(scorable, bool),
        predicted=_frozen(predicted, object),
    )


def knn_classify(
    train_X: ArrayLike | Matrix,
    train_y: Sequence[Hashable] | np.ndarray,
    test_X: ArrayLike | Matrix,
    test_y: Sequence[Hashable] | np.ndarray,
    *,
    metric: Literal["cosine", "l1"] = "cosine",
) -> AccuracyResult:
    r"""1-nearest-neighbour classification.

    Each test row takes the label of the most similar training row (cosine of the raw rows, or
    smallest L1 distance); on exact ties the first training row wins.

    Returns
    -------
    AccuracyResult
        ``predicted`` holds the predicted labels; every test item is scorable.
    """
    check_choice(metric, "metric", ("cosine", "l1"))
    tr = _prepare(train_X, metric, "train_X")
    te = _prepare(test_X, metric, "test_X")
    ytr = np.asarray(train_y)
    yte = np.asarray(test_y)
    if tr.shape[0] != len(ytr):
        raise ValueError(f"train_X has {tr.shape[0]} rows but train_y has {len(ytr)} labels")
    if te.shape[0] != len(yte):
        raise ValueError(f"test_X has {te.shape[0]} rows but test_y has {len(yte)} labels")
    if tr.shape[1] != te.shape[1]:
        raise ValueError(f"train_X has {tr.shape[1]} features but test_X has {te.shape[1]}")
    if tr.shape[0] == 0:
        raise ValueError("train_X is empty")
    n = te.shape[0]
    nearest = np.empty(n, dtype=np.int64)
    step = max(1, _ELEMENT_BUDGET // max(1, tr.shape[0]))
    for i in range(0, n, step):
        nearest[i : i + step] = np.argmax(_block_scores(te[i : i + step], tr, metric), axis=1)
    pred = ytr[nearest]
    hits = pred == yte
    return AccuracyResult(
        name="1-NN",
        accuracy=float(hits.mean()) if n else float("nan"),
        n_items=n,
        n_scored=n,
        hits=_frozen(hits, bool),
        scorable=_frozen(np.ones(n, dtype=bool)),
        predicted=_frozen(pred),
    )
