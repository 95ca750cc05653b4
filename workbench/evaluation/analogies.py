"""Analogy evaluation: blocked 3CosAdd / 3CosMul over a top-N vocabulary."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from workbench._validation import check_bool, check_choice, check_float, check_int
from workbench.datasets import load_analogies
from workbench.embeddings import MultiSenseVectors, WordVectors

from ._common import (
    _ANALOGY_BUDGET,
    _acc,
    _Accuracy,
    _check_vectors,
    _frozen,
    _unit_rows,
    lookup_row,
)

logger = logging.getLogger(__name__)

#: Section of the Google analogy set used as the "geographic" subset.
GEOGRAPHIC_SECTION = "capital-common-countries"

# --------------------------------------------------------------------------------------------
# analogies
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class AnalogyResult(_Accuracy):
    """Analogy evaluation (a : b :: c : ?).

    Attributes
    ----------
    accuracy : float
        Correct / scorable questions (the convention of word2vec's ``compute-accuracy`` and
        gensim); see :attr:`accuracy_all` for correct / all questions.
    n_questions, n_scored : int
    per_section : DataFrame
        Columns ``section, kind, n_questions, n_scored, n_correct, accuracy``.
    semantic, syntactic, geographic : float
        Accuracy over the scorable semantic (AN-SEM), syntactic (AN-SYN) and
        ``capital-common-countries`` questions.
    hits : ndarray of bool
        Per question; False for unscorable ones.
    scorable : ndarray of bool
        All four words are inside the restricted vocabulary.
    predicted : ndarray of int
        Row of the predicted word in the vectors (-1 if unscorable).
    method : str
    top_n : int
        Size of the answer vocabulary used.
    """

    accuracy: float
    n_questions: int
    n_scored: int
    per_section: pd.DataFrame
    semantic: float
    syntactic: float
    geographic: float
    hits: np.ndarray
    scorable: np.ndarray
    predicted: np.ndarray
    method: str
    top_n: int

    _TOTAL = "n_questions"


def evaluate_analogies(
    vectors: WordVectors | MultiSenseVectors,
    questions: pd.DataFrame | None = None,
    *,
    method: Literal["3cosadd", "3cosmul"] = "3cosadd",
    top_n: int | None = None,
    block_size: int | None = None,
    lowercase: bool = True,
    epsilon: float = 1e-3,
) -> AnalogyResult:
    r"""Solve analogy questions ``a : b :: c : d`` by nearest neighbour search.

    Parameters
    ----------
    vectors : WordVectors
        Rows are assumed to be in decreasing frequency order (as in word2vec / GloVe files), so
        the first ``top_n`` rows form the answer vocabulary.
    questions : DataFrame, optional
        Columns ``section, a, b, c, d, kind``; default :func:`workbench.datasets.load_analogies`.
    method : {"3cosadd", "3cosmul"}
    top_n : int, optional
        Restrict the vocabulary (answers *and* question words) to the first ``top_n`` rows
        (default: all rows). Questions with a word outside it are unscorable.
    block_size : int, optional
        Questions per block (default: chosen so that a block of scores stays near 32 MB).
    lowercase : bool
        Lowercase question words before lookup.
    epsilon : float
        The 3CosMul smoothing constant (Levy & Goldberg use 1e-3).

    Returns
    -------
    AnalogyResult

    Notes
    -----
    With unit vectors :math:`\hat{x}` and the question words excluded from the answers,

    .. math::
        \text{3CosAdd:}\ \arg\max_x \cos(x, b) - \cos(x, a) + \cos(x, c) =
        \arg\max_x \hat{x}^\top(\hat{b} - \hat{a} + \hat{c}),

        \text{3CosMul:}\ \arg\max_x \frac{\cos'(x, b)\,\cos'(x, c)}{\cos'(x, a) + \varepsilon},
        \quad \cos' = (\cos + 1)/2.

    The similarities are computed in vocabulary column blocks against the (few hundred) distinct
    question words only, then combined per question block, so the cost is
    :math:`O(U V d + Q V)` for :math:`U` distinct question words, and memory is bounded by the
    block sizes rather than :math:`Q \times V`.

    References
    ----------
    Mikolov, T., Yih, W. & Zweig, G. (2013). Linguistic regularities in continuous space word
    representations. NAACL. Levy, O. & Goldberg, Y. (2014). Linguistic regularities in sparse
    and explicit word representations. CoNLL.
    """
    check_choice(method, "method", ("3cosadd", "3cosmul"))
    top_n = check_int(top_n, "top_n", low=1, allow_none=True)
    block_size = check_int(block_size, "block_size", low=1, allow_none=True)
    lowercase = check_bool(lowercase, "lowercase")
    epsilon = check_float(epsilon, "epsilon", low=0, low_open=True)
    index, mat = _check_vectors(vectors)
    if questions is None:
        questions = load_analogies()
    missing = {"section", "a", "b", "c", "d"} - set(questions.columns)
    if missing:
        raise ValueError(f"analogy questions lack columns {sorted(missing)}")
    n_vocab = mat.shape[0] if top_n is None else min(top_n, mat.shape[0])

    def rows(col: str) -> np.ndarray:
        r = np.array(
            [lookup_row(index, str(w), lowercase) for w in questions[col].tolist()], dtype=np.int64
        )
        r[r >= n_vocab] = -1
        return r

    ra, rb, rc, rd = rows("a"), rows("b"), rows("c"), rows("d")
    scorable = (ra >= 0) & (rb >= 0) & (rc >= 0) & (rd >= 0)
    n_q = len(questions)
    predicted = np.full(n_q, -1, dtype=np.int64)
    qidx = np.flatnonzero(scorable)
    if len(qidx):
        predicted[qidx] = _solve_analogies(
            mat[:n_vocab], ra[qidx], rb[qidx], rc[qidx], method, block_size, epsilon
        )
    hits = scorable & (predicted == rd)

    sections = questions["section"].astype(str).to_numpy()
    if "kind" in questions.columns:
        kinds = questions["kind"].astype(str).to_numpy()
    else:
        kinds = np.array(["syntactic" if s.startswith("gram") else "semantic" for s in sections])
    rows_out = []
    for sec in dict.fromkeys(sections.tolist()):
        m = sections == sec
        rows_out.append(
            {
                "section": sec,
                "kind": kinds[m][0],
                "n_questions": int(m.sum()),
                "n_scored": int((m & scorable).sum()),
                "n_correct": int(hits[m].sum()),
                "accuracy": _acc(hits, m & scorable),
            }
        )
    per_section = pd.DataFrame(
        rows_out, columns=["section", "kind", "n_questions", "n_scored", "n_correct", "accuracy"]
    )
    return AnalogyResult(
        accuracy=_acc(hits, scorable),
        n_questions=n_q,
        n_scored=int(scorable.sum()),
        per_section=per_section,
        semantic=_acc(hits, scorable & (kinds == "semantic")),
        syntactic=_acc(hits, scorable & (kinds == "syntactic")),
        geographic=_acc(hits, scorable & (sections == GEOGRAPHIC_SECTION)),
        hits=_frozen(hits, bool),
        scorable=_frozen(scorable, bool),
        predicted=_frozen(predicted),
        method=method,
        top_n=n_vocab,
    )


def _solve_analogies(
    mat: np.ndarray,
    ra: np.ndarray,
    rb: np.ndarray,
    rc: np.ndarray,
    method: str,
    block_size: int | None,
    epsilon: float,
) -> np.ndarray:
    """Arg-max answer rows for scorable questions (blocked over vocabulary and questions)."""
    unit = _unit_rows(mat, np.float32)
    n_vocab = unit.shape[0]
    uniq, inv = np.unique(np.concatenate([ra, rb, rc]), return_inverse=True)
    n = len(ra)
    la, lb, lc = inv[:n], inv[n : 2 * n], inv[2 * n :]
    wu = unit[uniq]  # U x d
    col_block = max(1, min(n_vocab, _ANALOGY_BUDGET // max(len(uniq), 1)))
    q_block = block_size or max(1, _ANALOGY_BUDGET // col_block)
    best = np.full(n, -np.inf, dtype=np.float32)
    best_idx = np.full(n, -1, dtype=np.int64)
    eps = np.float32(epsilon)
    for c0 in range(0, n_vocab, col_block):
        c1 = min(n_vocab, c0 + col_block)
        sims = wu @ unit[c0:c1].T  # U x cb
        if method == "3cosmul":
            sims = (sims + 1.0) * 0.5
        for q0 in range(0, n, q_block):
            q1 = min(n, q0 + q_block)
            score = sims[lb[q0:q1]]
            if method == "3cosadd":
                score -= sims[la[q0:q1]]
                score += sims[lc[q0:q1]]
            else:
                score *= sims[lc[q0:q1]]
                denom = sims[la[q0:q1]]
                denom += eps
                score /= denom
            rows = np.arange(q1 - q0)
            for r in (ra, rb, rc):
                rr = r[q0:q1]
                inside = (rr >= c0) & (rr < c1)
                score[rows[inside], rr[inside] - c0] = -np.inf
            j = np.argmax(score, axis=1)
            s = score[rows, j]
            upd = s > best[q0:q1]
            best[q0:q1][upd] = s[upd]
            best_idx[q0:q1][upd] = j[upd] + c0
    return best_idx
