"""Contextual word similarity on SCWS: avgSim, avgSimC, maxSim, maxSimC."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import pandas as pd
from scipy import stats

from workbench._validation import (
    check_array,
    check_bool,
    check_finite,
    check_int,
    check_nan_policy,
)
from workbench.datasets import SCWSItem, load_scws, scws_context
from workbench.embeddings import WordVectors

from ._common import (
    _check_vectors,
    _safe_corr,
    _Scored,
    _unit_rows,
    lookup_row,
)

logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# SCWS
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SCWSResult(_Scored):
    """Contextual word similarity on SCWS.

    Attributes
    ----------
    avg_sim, avg_sim_c, max_sim, max_sim_c : float
        Spearman correlation (over scored items) of each measure with the mean human rating.
        ``max_sim_c`` is also called localSim.
    n_items, n_scored : int
    scores : DataFrame
        Per item: ``id, word1, word2, gold, avgSim, avgSimC, maxSim, maxSimC`` (NaN if unscored).
    window : int
    """

    avg_sim: float
    avg_sim_c: float
    max_sim: float
    max_sim_c: float
    n_items: int
    n_scored: int
    scores: pd.DataFrame
    window: int

    _TOTAL = "n_items"

    @property
    def local_sim(self) -> float:
        return self.max_sim_c

    def as_dict(self) -> dict[str, float]:
        return {
            "avgSim": self.avg_sim,
            "avgSimC": self.avg_sim_c,
            "maxSim": self.max_sim,
            "maxSimC": self.max_sim_c,
        }


def sense_probabilities(ctx: np.ndarray | None, centers: np.ndarray) -> np.ndarray:
    """p(sense | context): cosine of context to each centre shifted to [0, 1], normalised."""
    k = centers.shape[0]
    if ctx is None or k == 1:
        return np.full(k, 1.0 / k)
    cu = _unit_rows(centers)
    nrm = np.linalg.norm(ctx)
    if nrm == 0:
        return np.full(k, 1.0 / k)
    w = (cu @ (ctx / nrm) + 1.0) / 2.0
    tot = w.sum()
    return w / tot if tot > 0 else np.full(k, 1.0 / k)


@runtime_checkable
class SenseVectors(Protocol):
    """Multi-prototype vectors with context centres (e.g. a
    :class:`~workbench.embeddings.MultiSenseVectors`)."""

    def as_word_vectors(self) -> WordVectors: ...

    def sense_vectors(self, word: str) -> np.ndarray: ...

    def context_centers(self, word: str) -> np.ndarray: ...


def evaluate_scws(
    vectors: WordVectors | SenseVectors,
    items: Sequence[SCWSItem] | None = None,
    *,
    window: int = 5,
    lowercase: bool = True,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
) -> SCWSResult:
    r"""avgSim, avgSimC, maxSim and maxSimC on the Stanford Contextual Word Similarity set.

    Parameters
    ----------
    vectors : WordVectors or MultiSenseVectors
        Single-sense vectors have one sense per word (all four measures then reduce to the
        global cosine, up to the context-independent tie).
    items : sequence of SCWSItem, optional
        Default :func:`workbench.datasets.load_scws`.
    window : int
        Context tokens taken on each side of the ``<b> ... </b>`` target
        (:func:`workbench.datasets.scws_context`).
    lowercase : bool
        Look words up lowercased first (then in their original form).
    nan_policy : {"raise", "omit", "propagate"}
        Items whose gold score is NaN or infinite: ``"raise"`` (default) raises
        ``ValueError``, ``"omit"`` leaves them unscored, ``"propagate"`` keeps them (the
        correlations are then NaN), as in :mod:`scipy.stats`.

    Raises
    ------
    ValueError
        NaN / inf gold scores with ``nan_policy="raise"``, NaN / inf global, sense or context
        centre vectors, ``window < 0``.

    Notes
    -----
    For words :math:`w, w'` with senses :math:`\mu_i(w)` (:math:`K_w` of them), context vectors
    :math:`c, c'` (the mean *global* vector of the in-vocabulary tokens in the window, target
    excluded) and sense probabilities :math:`p(i \mid c, w)`:

    .. math::
        \mathrm{avgSim} = \frac{1}{K_w K_{w'}} \sum_{i,j} \cos(\mu_i(w), \mu_j(w')),\qquad
        \mathrm{maxSim} = \max_{i,j} \cos(\mu_i(w), \mu_j(w')),

        \mathrm{avgSimC} = \sum_{i,j} p(i \mid c, w)\, p(j \mid c', w')
            \cos(\mu_i(w), \mu_j(w')),\qquad
        \mathrm{maxSimC} = \cos(\mu_{\hat\imath}(w), \mu_{\hat\jmath}(w')),
        \ \hat\imath = \arg\max_i p(i \mid c, w).

    Here :math:`p(i \mid c, w) \propto (\cos(c, m_i(w)) + 1)/2` for the sense's context centre
    :math:`m_i(w)` (uniform if the context is empty). An item is scored when both words are in
    the vocabulary.

    References
    ----------
    Reisinger, J. & Mooney, R. (2010). Multi-prototype vector-space models of word meaning.
    NAACL. Huang, E. et al. (2012). Improving word representations via global context and
    multiple word prototypes. ACL. Neelakantan, A. et al. (2014). Efficient non-parametric
    estimation of multiple embeddings per word in vector space. EMNLP.
    """
    window = check_int(window, "window", low=0)
    lowercase = check_bool(lowercase, "lowercase")
    policy = check_nan_policy(nan_policy)
    if items is None:
        items = load_scws()
    msv: SenseVectors | None = None
    if isinstance(vectors, SenseVectors):
        msv, glob = vectors, vectors.as_word_vectors()
    else:
        glob = vectors
    index, gmat = _check_vectors(glob)

    def word_row(w: str) -> int:
        return lookup_row(index, w, lowercase)

    def senses(w: str, row: int) -> tuple[np.ndarray, np.ndarray]:
        key = glob.words[row]
        if msv is not None:
            s = np.atleast_2d(np.asarray(msv.sense_vectors(key), dtype=float))
            c = np.atleast_2d(np.asarray(msv.context_centers(key), dtype=float))
            check_array(s, f"sense vectors of {key!r}", ndim=2)
            check_array(c, f"context centres of {key!r}", ndim=2)
            if c.shape[1] != gmat.shape[1]:
                raise ValueError(
                    f"context centres of {key!r} have dimension {c.shape[1]} but contexts are "
                    f"averages of global vectors of dimension {gmat.shape[1]}"
                )
            if s.shape[0] == 0:
                s = gmat[row][None, :].astype(float)
                c = s
            return s, c
        v = np.asarray(gmat[row], dtype=float)[None, :]
        return v, v

    def context_vec(text: str) -> np.ndarray | None:
        left, _target, right = scws_context(text, window)
        rows = [word_row(t) for t in list(left) + list(right)]
        rows = [r for r in rows if r >= 0]
        if not rows:
            return None
        return np.asarray(gmat[rows], dtype=float).mean(axis=0)

    records = []
    for it in items:
        r1, r2 = word_row(it.word1), word_row(it.word2)
        rec: dict[str, Any] = {
            "id": it.id,
            "word1": it.word1,
            "word2": it.word2,
            "gold": float(it.score),
        }
        if r1 < 0 or r2 < 0:
            rec.update(avgSim=np.nan, avgSimC=np.nan, maxSim=np.nan, maxSimC=np.nan)
            records.append(rec)
            continue
        s1, c1 = senses(it.word1, r1)
        s2, c2 = senses(it.word2, r2)
        sim = _unit_rows(s1) @ _unit_rows(s2).T
        p1 = sense_probabilities(context_vec(it.context1), c1)
        p2 = sense_probabilities(context_vec(it.context2), c2)
        rec.update(
            avgSim=float(sim.mean()),
            avgSimC=float(p1 @ sim @ p2),
            maxSim=float(sim.max()),
            maxSimC=float(sim[int(np.argmax(p1)), int(np.argmax(p2))]),
        )
        records.append(rec)
    df = pd.DataFrame(
        records, columns=["id", "word1", "word2", "gold", "avgSim", "avgSimC", "maxSim", "maxSimC"]
    )
    gold_ok = check_finite(df["gold"].to_numpy(dtype=float), "gold scores", nan_policy=policy)
    if not gold_ok.all():  # nan_policy="omit": items without a usable score are not scored
        df.loc[~gold_ok, ["avgSim", "avgSimC", "maxSim", "maxSimC"]] = np.nan
    ok = df["avgSim"].notna().to_numpy()
    gold = df["gold"].to_numpy(dtype=float)[ok]

    def rho(col: str) -> float:
        return _safe_corr(stats.spearmanr, df[col].to_numpy(dtype=float)[ok], gold)

    return SCWSResult(
        avg_sim=rho("avgSim"),
        avg_sim_c=rho("avgSimC"),
        max_sim=rho("maxSim"),
        max_sim_c=rho("maxSimC"),
        n_items=len(df),
        n_scored=int(ok.sum()),
        scores=df,
        window=window,
    )
