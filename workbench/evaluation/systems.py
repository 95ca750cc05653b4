"""Evaluation of one system's word vectors on rating sets and the Google analogies, kept per
item so that systems can be compared by paired tests."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench._validation import check_bool, check_sequence
from workbench.datasets import load_analogies, load_wordsim
from workbench.embeddings import WordVectors

from .analogies import AnalogyResult, evaluate_analogies
from .wordsim import WordSimResult, evaluate_wordsim

__all__ = ["ANALOGY_SETS", "SystemEvaluation", "evaluate_system"]

#: Analogy rows: AN-SYN (syntactic questions), AN-SEM (semantic questions).
ANALOGY_SETS: dict[str, str] = {"AN-SYN": "syntactic", "AN-SEM": "semantic"}


def _check_vectors(vectors: object, name: str) -> None:
    """A ``TypeError`` naming ``name`` unless ``vectors`` looks like
    :class:`workbench.embeddings.WordVectors` (``words``, ``vectors`` and ``subset``)."""
    if not all(hasattr(vectors, a) for a in ("words", "vectors", "subset")):
        raise TypeError(
            f"{name} must be word vectors (workbench.embeddings.WordVectors), "
            f"got {type(vectors).__name__}"
        )


@functools.lru_cache(maxsize=32)
def _rating_set(name: str) -> pd.DataFrame:
    return load_wordsim(name)


@functools.lru_cache(maxsize=4)
def _analogy_questions() -> pd.DataFrame:
    return load_analogies()


@dataclass(frozen=True, eq=False)
class SystemEvaluation:
    """Scores of one system: per rating set :class:`WordSimResult`, and the analogy result."""

    name: str
    wordsim: dict[str, WordSimResult]
    analogy: AnalogyResult | None = None
    kinds: np.ndarray | None = None

    def scores(self) -> pd.Series:
        """Spearman per rating set, then AN-SYN / AN-SEM accuracy (fractions, not points)."""
        vals = {n: float(r.spearman) for n, r in self.wordsim.items()}
        if self.analogy is not None:
            vals["AN-SYN"] = float(self.analogy.syntactic)
            vals["AN-SEM"] = float(self.analogy.semantic)
        return pd.Series(vals, name=self.name, dtype=float)

    def n_scored(self) -> pd.Series:
        """Items scored per test set."""
        vals = {n: int(r.n_scored) for n, r in self.wordsim.items()}
        if self.analogy is not None and self.kinds is not None:
            for row, kind in ANALOGY_SETS.items():
                vals[row] = int((self.analogy.scorable & (self.kinds == kind)).sum())
        return pd.Series(vals, name=self.name)

    def hits(self, row: str) -> tuple[np.ndarray, np.ndarray]:
        """Per-question ``(hits, scorable)`` of AN-SYN or AN-SEM (only that kind's questions)."""
        if self.analogy is None or self.kinds is None:
            raise ValueError(f"system {self.name!r} was evaluated without analogies")
        sel = self.kinds == ANALOGY_SETS[row]
        return np.asarray(self.analogy.hits)[sel], np.asarray(self.analogy.scorable)[sel]


def evaluate_system(
    vectors: WordVectors,
    *,
    name: str = "system",
    wordsim: Sequence[str | pd.DataFrame] = (),
    analogies: bool = True,
    restrict_to: Sequence[str] | None = None,
) -> SystemEvaluation:
    """Evaluate word vectors on rating sets (Spearman) and AN-SYN / AN-SEM (3CosAdd accuracy).

    ``wordsim`` holds rating-set names (:data:`workbench.datasets.WORDSIM_NAMES`) or
    DataFrames with ``word1, word2, score`` (named by ``attrs["name"]``).
    ``restrict_to``: evaluate only these words' vectors (e.g. the MVLSA vocabulary, so that
    systems with bigger vocabularies such as pretrained GloVe are scored on the same pairs and
    the same answer vocabulary). Out-of-vocabulary pairs / questions are skipped.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r} ({type(name).__name__})")
    _check_vectors(vectors, "vectors")
    wordsim = check_sequence(wordsim, "wordsim", allow_empty=True)
    analogies = check_bool(analogies, "analogies")
    if not wordsim and not analogies:
        raise ValueError(f"nothing to evaluate for {name!r}: wordsim is empty and analogies=False")
    if restrict_to is not None:
        vectors = vectors.subset(restrict_to)
    if len(vectors) == 0:
        raise ValueError(f"system {name!r} has no vectors (after restrict_to)")
    ws: dict[str, WordSimResult] = {}
    for item in wordsim:
        if not isinstance(item, (str, pd.DataFrame)):
            raise TypeError(
                f"wordsim entries must be names or DataFrames, got {type(item).__name__}"
            )
        df = _rating_set(item) if isinstance(item, str) else item
        label = item if isinstance(item, str) else str(df.attrs.get("name", f"set{len(ws)}"))
        if label in ws:
            raise ValueError(
                f"wordsim names the rating set {label!r} twice (a DataFrame is named by "
                "attrs['name']); give each set once"
            )
        ws[label] = evaluate_wordsim(vectors, df)
    an, kinds = None, None
    if analogies:
        q = _analogy_questions()
        an = evaluate_analogies(vectors, q)
        kinds = q["kind"].to_numpy(dtype=object)
    return SystemEvaluation(name, ws, an, kinds)
