"""The result of notebook 07 (:class:`TranslingualStudyResult`) and its records.

:func:`run_study` runs the paper's setup (:func:`~._experiment.run_translingual`) and the verse
evaluation (:func:`~._verses.run_verse_retrieval`), timing both, and returns one frozen
:class:`TranslingualStudyResult`: the tables the notebook shows (Tables 1 and 3 with their
superior sets, the claim tests) and :meth:`TranslingualStudyResult.records`, the one definition
of every record key of the notebook (:class:`TranslingualRecords`).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from workbench._validation import check_choice, check_float, check_int
from workbench.crosslingual import compare_pairs
from workbench.significance import SuperiorSetResult, smallest_superior_set

from ._comparable import ComparableResult, run_comparable
from ._data import BibleData
from ._experiment import TranslingualResult, run_translingual
from ._settings import SIZES, ExperimentConfig
from ._verses import PAPER_CLAIMS, VerseRetrievalResult, run_verse_retrieval
from ._vocabulary import chosen_params, run_term_sweep

__all__ = [
    "CLASSIFICATION_PAIRS",
    "ClaimsFamilyRecord",
    "PairRecord",
    "TranslingualRecords",
    "TranslingualStudyResult",
    "VerseClaimRecord",
    "run_study",
]

#: The pairs of Table 3 (baseline, method) tested on classification: Holm over these three.
CLASSIFICATION_PAIRS: tuple[tuple[str, str], ...] = (
    ("CL-LSI", "OPCA"),
    ("CCA", "OPCA"),
    ("JPLSA", "CPLSA"),
)

#: One row of a pairs table (:func:`workbench.crosslingual.compare_pairs`): ``holm p`` is
#: adjusted over the rows of its table.
PairRecord = TypedDict(
    "PairRecord",
    {
        "baseline": str,
        "method": str,
        "accuracy baseline": float,
        "accuracy method": float,
        "difference": float,
        "n baseline only": int,
        "n method only": int,
        "mcnemar p": float,
        "holm p": float,
        "significant": bool,
    },
)

#: One pre-stated claim on the verse test, per seed (lists in the order of ``seeds``):
#: ``holm p`` is adjusted over the claims of that seed.
VerseClaimRecord = TypedDict(
    "VerseClaimRecord",
    {
        "difference": list[float],
        "mcnemar p": list[float],
        "holm p": list[float],
        "holds": list[bool],
    },
)


class ClaimsFamilyRecord(TypedDict):
    """The correction family of the paper's pre-stated claims, the same at both levels: Holm
    over ``claims`` (those whose methods were run) -- on chapters once, on verses per seed."""

    correction: str
    claims: list[str]


class LargestBookRecord(TypedDict):
    book: str
    chapters: int


class DataRecords(TypedDict, total=False):
    """The records naming the data of a run (absent from records older than the data fields)."""

    #: the data fields of the run (:meth:`workbench.studies.data.DataChoice.describe`)
    data: dict[str, Any]
    #: the texts (the Bible, or the name of a user's pair of files) and how they were split
    data_name: str
    split_rule: str


class TranslingualRecords(DataRecords, total=True):
    """Every record of notebook 07 (numbers are fractions, not points)."""

    data_size: str
    seed: int
    n_terms_joint: int
    n_terms_language: dict[str, int]
    n_chapters: dict[str, int]
    n_books: dict[str, int]
    n_test_queries: int
    test_top1: dict[str, float]
    test_mrr: dict[str, float]
    chosen_dim: dict[str, str]
    chosen_setting: dict[str, str]
    superior_set_top1: list[str]
    superior_separated_top1: bool
    superior_set_mrr: list[str]
    retrieval_pairs: list[PairRecord]
    claims_family: ClaimsFamilyRecord
    dev_mrr_by_dim: dict[str, dict[str, float]]
    dev_mrr_flat: dict[str, float]
    plsa_peak_iteration: dict[str, dict[str, int]]
    plsa_max_iterations: dict[str, int]
    plsa_eval_every: int
    plsa_seconds_per_iteration: dict[str, float]
    plsa_history_points: int
    #: one entry per PLSA fit: method, topics, penalty (None: hard constraint; JPLSA: None),
    #: iterations run, stop ("converged" / "cap"), seconds, the best fold-in prior, its
    #: dev-best iteration and dev MRR, and the training log-likelihood curve
    plsa_fits: list[dict[str, Any]]
    #: each topic model's chapter-dev-chosen setting: topics, prior, penalty (None: hard
    #: constraint; CPLSA only), iterations (its early-stopping iteration)
    plsa_chosen: dict[str, dict[str, float | None]]
    plsa_topic_grid: dict[str, list[int]]
    plsa_grid_end: dict[str, str]
    plsa_topics_cap: int
    plsa_tol: float
    plsa_fold_in_priors: list[float]
    plsa_penalties: list[float | None]
    #: the vocabulary sweep (:func:`._vocabulary.run_term_sweep`): one entry per size and method
    term_sweep: list[dict[str, Any]]
    #: the comparable-document condition (:meth:`._comparable.ComparableResult.records`;
    #: None when not run)
    comparable: dict[str, Any] | None
    classification_accuracy: dict[str, float]
    classification_dev_accuracy: dict[str, float]
    classification_dim: dict[str, str]
    superior_set_classification: list[str]
    classification_pairs: list[PairRecord]
    #: share of the majority division among the test chapters (None without division labels)
    majority_share: float | None
    dev_largest_book: LargestBookRecord
    fit_seconds: dict[str, float]
    seeds: list[int]
    verse_pool: int
    verse_min_terms: int
    verse_eligible: dict[str, int]
    verse_total: dict[str, int]
    verse_top1: dict[str, list[float]]
    verse_mrr: dict[str, list[float]]
    verse_chosen: dict[str, list[str]]
    verse_ranking: list[str]
    verse_letters: dict[str, str]
    verse_claims: dict[str, VerseClaimRecord]
    verse_superior_sets: dict[str, list[str]]
    verse_n_pairs: int
    verse_significant_pairs: dict[str, int]
    verse_replicated_differences: list[list[str]]
    verse_dev_mrr: dict[str, dict[str, float]]
    seconds: dict[str, float]


@dataclass(frozen=True, eq=False)
class TranslingualStudyResult:
    """Everything notebook 07 shows and records.

    Attributes
    ----------
    data_size : str
        ``"small"`` or ``"full"`` (the notebook's ``DATA_SIZE``).
    chapters : TranslingualResult
        The paper's setup (chapters; deterministic).
    verses : VerseRetrievalResult
        The verse-level evaluation, one replicate per seed.
    seconds : dict
        Wall time of ``"paper setup"``, ``"verse evaluation"`` and ``"vocabulary sweep"``.
    vocabulary : DataFrame
        The vocabulary sweep (:func:`._vocabulary.run_term_sweep`).
    comparable : ComparableResult or None
        The comparable-document condition (:func:`._comparable.run_comparable`).
    alpha : float
        Level of every test (after its stated correction).
    """

    data_size: str
    chapters: TranslingualResult
    verses: VerseRetrievalResult
    seconds: dict[str, float]
    alpha: float = 0.05
    vocabulary: pd.DataFrame = field(default_factory=pd.DataFrame)
    comparable: ComparableResult | None = None

    @property
    def data(self) -> BibleData:
        return self.chapters.data

    @cached_property
    def superior_top1(self) -> SuperiorSetResult:
        """Smallest significantly superior set on chapter Top-1 hits (t-tests, Bonferroni over
        all pairs of methods)."""
        return smallest_superior_set(self.chapters.test_hits, alpha=self.alpha)

    @cached_property
    def superior_mrr(self) -> SuperiorSetResult:
        """As :attr:`superior_top1`, on reciprocal ranks."""
        return smallest_superior_set(self.chapters.test_rr, alpha=self.alpha)

    @cached_property
    def superior_classification(self) -> SuperiorSetResult:
        """As :attr:`superior_top1`, on classification hits."""
        return smallest_superior_set(self.chapters.class_hits, alpha=self.alpha)

    @property
    def table1(self) -> pd.DataFrame:
        """Table 1/2 analogue with the superior-set columns ``superior top1`` / ``superior mrr``."""
        t = self.chapters.test_table
        return t.assign(**{"superior top1": t["method"].isin(self.superior_top1.members),
                           "superior mrr": t["method"].isin(self.superior_mrr.members)})  # fmt: skip

    @cached_property
    def retrieval_pairs(self) -> pd.DataFrame:
        """The paper's pre-stated claims on chapter Top-1 (McNemar, Holm over the claims)."""
        pairs = [(b, a) for a, b in PAPER_CLAIMS]
        return compare_pairs(self.chapters.test_hits, pairs, alpha=self.alpha)

    @property
    def claims_tested(self) -> list[str]:
        """The pre-stated claims whose methods were run (``"winner > loser"``): the Holm family
        of the claims, on chapters and within each seed on verses."""
        return [f"{r['method']} > {r['baseline']}" for _, r in self.retrieval_pairs.iterrows()]

    @property
    def labelled(self) -> bool:
        """Whether Table 3 was run (the Bible's division labels; a user's texts have none)."""
        return bool(self.chapters.class_hits)

    @property
    def table3(self) -> pd.DataFrame:
        """Table 3 analogue with the column ``superior`` (no rows without division labels)."""
        c = self.chapters.classification
        members = self.superior_classification.members if self.labelled else ()
        return c.assign(superior=c["method"].isin(members))

    @cached_property
    def classification_pairs(self) -> pd.DataFrame:
        """:data:`CLASSIFICATION_PAIRS` on classification hits (McNemar, Holm over the three;
        no rows without division labels)."""
        if not self.labelled:
            return pd.DataFrame(columns=["baseline", "method", "accuracy baseline",
                                         "accuracy method", "difference", "n baseline only",
                                         "n method only", "mcnemar p", "holm p", "significant"])  # fmt: skip
        return compare_pairs(self.chapters.class_hits, CLASSIFICATION_PAIRS, alpha=self.alpha)

    @cached_property
    def verse_claims(self) -> pd.DataFrame:
        """:meth:`VerseRetrievalResult.claims` of the paper's claims (Holm over the claims of
        each seed)."""
        return self.verses.claims(PAPER_CLAIMS, self.alpha)

    def records(self) -> TranslingualRecords:
        """The records of notebook 07 (JSON values; numbers are fractions, not points)."""
        ch, verse, alpha = self.chapters, self.verses, self.alpha
        data, cfg = ch.data, ch.config
        tt = ch.test_table.set_index("method")
        cl = ch.classification.set_index("method")
        max_iter = {"JPLSA": int(cfg.jplsa_iter), "CPLSA": int(cfg.cplsa_iter)}
        fits = ch.plsa_fits
        peak: dict[str, dict[str, int]] = {}
        per_iteration: dict[str, float] = {}
        if len(fits):  # the best fit (penalty, prior) at each number of topics
            best = fits.loc[fits.groupby(["method", "topics"], sort=False)["dev mrr"].idxmax()]
            for _, f in best.iterrows():
                peak.setdefault(str(f["method"]), {})[str(f["topics"])] = int(f["iteration"])
                per_iteration[f"{f['method']} {f['topics']}"] = float(
                    f["seconds"] / max(int(f["iterations"]), 1))  # fmt: skip
        test_labels = pd.Series(data.divisions[data.parts["test"]])
        labelled = self.labelled
        dev_books = pd.Series(data.books[data.parts["dev"]]).value_counts()
        top1, mrr = verse.per_seed("top1"), verse.per_seed("mrr")
        pw = verse.pairwise(alpha)
        return {
            "data_size": self.data_size,
            "seed": int(verse.seeds[0]),
            "n_terms_joint": len(data.space),
            "n_terms_language": {
                str(k): int(len(v)) for k, v in data.space.language_columns.items()
            },  # fmt: skip
            "n_chapters": {str(k): int(len(v)) for k, v in data.parts.items()},
            "n_books": {p: len(getattr(data.split, p)) for p in ("train", "dev", "test")},
            "n_test_queries": int(2 * len(data.parts["test"])),
            "test_top1": _floats(tt["top1"]),
            "test_mrr": _floats(tt["mrr"]),
            "chosen_dim": _strings(tt["dim"]),
            "chosen_setting": _strings(tt["setting"]),
            "superior_set_top1": list(self.superior_top1.members),
            "superior_separated_top1": bool(self.superior_top1.separated),
            "superior_set_mrr": list(self.superior_mrr.members),
            "retrieval_pairs": _pair_records(self.retrieval_pairs),
            "claims_family": {"correction": "Holm", "claims": self.claims_tested},
            "dev_mrr_by_dim": _by_dim(ch.dev_mrr_by_dim()),
            "dev_mrr_flat": ch.dev_mrr_flat(),
            "plsa_peak_iteration": peak,
            "plsa_max_iterations": max_iter,
            "plsa_eval_every": int(cfg.eval_every),
            "plsa_seconds_per_iteration": per_iteration,
            "plsa_history_points": int(len(ch.plsa_history)),
            "plsa_fits": [_fit_record(f) for f in fits.to_dict(orient="records")],
            "plsa_chosen": {
                m: {
                    k: (None if not np.isfinite(v) else float(v))
                    for k, v in chosen_params(ch, m).items()
                }
                for m in ("JPLSA", "CPLSA")
                if m in peak
            },  # fmt: skip
            "plsa_topic_grid": {str(k): [int(t) for t in v] for k, v in ch.plsa_grid.items()},
            "plsa_grid_end": {str(k): str(v) for k, v in ch.plsa_grid_end.items()},
            "plsa_topics_cap": int(ch.plsa_topics_cap),
            "plsa_tol": float(cfg.plsa_tol),
            "plsa_fold_in_priors": [float(p) for p in cfg.fold_in_priors],
            "plsa_penalties": [None if p is None else float(p) for p in cfg.cplsa_penalties],
            "comparable": None if self.comparable is None else self.comparable.records(),
            "term_sweep": [
                {str(k): (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
                for row in self.vocabulary.to_dict(orient="records")
            ],
            "classification_accuracy": _floats(cl["test accuracy"]),
            "classification_dev_accuracy": _floats(cl["dev accuracy"]),
            "classification_dim": _strings(cl["dim"]),
            "superior_set_classification": (
                list(self.superior_classification.members) if labelled else []
            ),
            "classification_pairs": _pair_records(self.classification_pairs),
            "majority_share": (
                float(test_labels.value_counts(normalize=True).iloc[0]) if labelled else None
            ),
            "dev_largest_book": {
                "book": str(dev_books.index[0]),
                "chapters": int(dev_books.iloc[0]),
            },  # fmt: skip
            "fit_seconds": {str(k): float(v) for k, v in ch.fit_seconds.items()},
            "seeds": [int(s) for s in verse.seeds],
            "verse_pool": int(verse.pool_size),
            "verse_min_terms": int(verse.min_terms),
            "verse_eligible": {str(k): int(v) for k, v in verse.n_eligible.items()},
            "verse_total": {p: int(np.sum(data.verse_part == p)) for p in ("dev", "test")},
            "verse_top1": {str(m): [float(v) for v in top1[m]] for m in top1.columns},
            "verse_mrr": {str(m): [float(v) for v in mrr[m]] for m in mrr.columns},
            "verse_chosen": {
                str(m): [_chosen_text(verse.tests[s], m) for s in verse.seeds] for m in top1.columns
            },  # fmt: skip
            "verse_ranking": [str(m) for m in verse.methods],
            "verse_letters": {str(k): str(v) for k, v in verse.letters(alpha).items()},
            "verse_claims": {
                str(c): {
                    "difference": [float(v) for v in g["difference"]],
                    "mcnemar p": [float(v) for v in g["mcnemar p"]],
                    "holm p": [float(v) for v in g["holm p"]],
                    "holds": [bool(v) for v in g["holds"]],
                }
                for c, g in self.verse_claims.groupby("claim", sort=False)
            },  # fmt: skip
            "verse_superior_sets": {
                str(s): list(r.members) for s, r in verse.superior_sets(alpha).items()
            },  # fmt: skip
            "verse_n_pairs": int((pw["seed"] == verse.seeds[0]).sum()),
            "verse_significant_pairs": {
                str(s): int(g["significant"].sum()) for s, g in pw.groupby("seed")
            },  # fmt: skip
            "verse_replicated_differences": [
                [str(a), str(b)] for a, b in verse.replicated_differences(alpha)
            ],  # fmt: skip
            "verse_dev_mrr": _by_dim(verse.dev_mrr()[0]),
            "seconds": {str(k): float(v) for k, v in self.seconds.items()},
            "data": cfg.data.describe(),
            "data_name": str(data.name),
            "split_rule": str(data.split.rule),
        }


def run_study(
    data: BibleData,
    config: ExperimentConfig,
    seeds: Sequence[int],
    *,
    data_size: str,
    n_jobs: int = 1,
    alpha: float = 0.05,
) -> TranslingualStudyResult:
    """Notebook 07: the paper's setup on chapters, then the verse evaluation once per seed, then
    the vocabulary sweep (``config.term_sweep``; none when empty), then the comparable-document
    condition (``config.comparable``).

    Parameters
    ----------
    data : BibleData
        From :func:`~workbench.studies.translingual.prepare_bible`.
    config : ExperimentConfig
        E.g. :func:`~workbench.studies.translingual.settings` ``(data_size)``.
    seeds : sequence of int
        Seeds of the verse pools (:func:`workbench.significance.seed_list`).
    data_size : {"small", "full"}
        Recorded as ``data_size``.
    n_jobs : int
        Worker processes for the PLSA fits (the results do not depend on it).
    alpha : float
        Level of every test, after its stated correction.

    Returns
    -------
    TranslingualStudyResult
    """
    data_size = check_choice(data_size, "data_size", SIZES)
    n_jobs = check_int(n_jobs, "n_jobs", low=1)
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    t0 = time.perf_counter()
    chapters = run_translingual(data, config, n_jobs=n_jobs)
    t1 = time.perf_counter()
    verses = run_verse_retrieval(chapters, seeds)
    t2 = time.perf_counter()
    vocabulary = run_term_sweep(chapters, verses, seeds, n_jobs=n_jobs)
    t3 = time.perf_counter()
    comparable = run_comparable(data, config, n_jobs=n_jobs, alpha=alpha)
    t4 = time.perf_counter()
    seconds = {"paper setup": t1 - t0, "verse evaluation": t2 - t1}
    if len(vocabulary):
        seconds["vocabulary sweep"] = t3 - t2
    if comparable is not None:
        seconds["comparable condition"] = t4 - t3
    return TranslingualStudyResult(
        data_size=data_size,
        chapters=chapters,
        verses=verses,
        seconds=seconds,
        alpha=alpha,
        vocabulary=vocabulary,
        comparable=comparable,
    )


def _fit_record(row: Mapping[Hashable, Any]) -> dict[str, Any]:
    """A row of :func:`._plsa.fit_table` as JSON values (penalty: None for the hard constraint
    and for JPLSA, which has none)."""
    pen = float(row["penalty"])
    return {
        "method": str(row["method"]),
        "topics": int(row["topics"]),
        "penalty": None if not np.isfinite(pen) else pen,
        "iterations": int(row["iterations"]),
        "stop": str(row["stop"]),
        "seconds": float(row["seconds"]),
        "prior": float(row["prior"]),
        "iteration": int(row["iteration"]),
        "dev mrr": float(row["dev mrr"]),
        "log likelihood": [float(v) for v in row["log likelihood"]],
    }


def _floats(column: pd.Series) -> dict[str, float]:
    return {str(k): float(v) for k, v in column.items()}


def _strings(column: pd.Series) -> dict[str, str]:
    return {str(k): str(v) for k, v in column.items()}


def _pair_records(table: pd.DataFrame) -> list[PairRecord]:
    cols = ["baseline", "method", "accuracy baseline", "accuracy method", "difference",
            "n baseline only", "n method only", "mcnemar p", "holm p", "significant"]  # fmt: skip
    out: list[Any] = []
    for row in table[cols].to_dict(orient="records"):
        out.append({str(k): (v.item() if hasattr(v, "item") else v) for k, v in row.items()})
    return out


def _by_dim(table: pd.DataFrame) -> dict[str, dict[str, float]]:
    """``{method: {dimension: value}}`` of a dimensions x methods table (NaN left out)."""
    out = {}
    for m in table.columns:
        col = table[m].dropna()
        out[str(m)] = {str(int(d)): float(v) for d, v in zip(col.index, col)}
    return out


def _chosen_text(table: pd.DataFrame, method: str) -> str:
    """The dev-chosen dimension and setting of ``method`` in a test table."""
    dim, setting = table.at[method, "dim"], table.at[method, "setting"]
    parts = []
    if str(dim) != "N/A" and "topics=" not in str(setting):
        parts.append(f"d={dim!s}")
    if setting:
        parts.append(str(setting))
    return ", ".join(parts) if parts else "no setting"
