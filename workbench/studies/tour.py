"""The tour study (notebook ``00_tour``): settings, the run's result, its facts and Discussion.

The data, vocabulary and coverage functions are the data-layer tools of
:mod:`workbench.coverage`; this study holds :func:`settings` (which corpus, how many tokens),
:func:`run_tour` (every count, fit and coverage the notebook shows, as a frozen
:class:`TourResult` whose :meth:`~TourResult.records` defines every record key), the facts that
decide each qualitative word of the Discussion (each with its rule) and :func:`discussion_00`,
which renders ``templates/discussion_00.md.j2`` from the records.

Nothing in this notebook is random and nothing is tested for significance: every fact is a
stated threshold on exact counts.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict

import pandas as pd
from IPython.display import Markdown

from workbench import datasets as ds
from workbench import templating
from workbench._validation import check_choice, check_int
from workbench.coverage import (
    PowerLawFit,
    coverage_table,
    data_inventory,
    fit_heaps,
    fit_zipf,
    missing_words,
    type_token_curve,
    vocabulary_counts,
)
from workbench.records import to_jsonable
from workbench.studies.data import DataChoice, rating_set_labels
from workbench.studies.facts import DataFact, check_records, data_fact

__all__ = [
    "SIZES",
    "TourSettings",
    "settings",
    "TourResult",
    "TourRecords",
    "run_tour",
    "CoverageSpan",
    "CommonCoverage",
    "Facts00",
    "zipf_heaps_hold",
    "complete_sets",
    "common_sets_coverage",
    "missing_examples",
    "rw_is_exception",
    "semantic_analogies",
    "facts_00",
    "discussion_00",
    "DataFact",
    "data_fact",
    "data_choice",
]

#: The data sizes of notebook 00.
SIZES = ("small", "full")
TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class TourSettings:
    """The corpus notebook 00 describes at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments.
    data : DataChoice
        The data chosen (empty: the bundled data); ``corpus`` is the user's corpus when it
        names one, and the user's rating sets are added to the coverage table.
    """

    size: str
    corpus: str
    max_tokens: int | None
    data: DataChoice = DataChoice()

    @property
    def corpus_label(self) -> str:
        """The corpus as the records and the Discussion name it (a bundled name or a file name)."""
        if self.data.bundled_corpus:
            return self.corpus
        return Path(self.corpus).name or self.corpus

    def load_corpus(self) -> ds.Corpus:
        """The corpus of these settings (a user's corpus read in its format and language)."""
        if self.data.bundled_corpus:
            return ds.load_corpus(self.corpus, max_tokens=self.max_tokens)
        return ds.load_corpus(self.corpus, format=self.data.corpus_format,
                              language=self.data.language, max_tokens=self.max_tokens)  # fmt: skip

    def rating_sets(self) -> dict[str, str]:
        """The rating sets of the coverage table, label -> bundled name or path: every bundled
        set for an English corpus (the bundled sets are English; for another language only
        when the user names them or names none), then the user's files
        (:func:`~workbench.studies.data.rating_set_labels`)."""
        user = [w for w in self.data.wordsim if w not in ds.WORDSIM_NAMES]
        named = [w for w in self.data.wordsim if w in ds.WORDSIM_NAMES]
        if self.data.side_views() or not self.data.wordsim:
            bundled = list(ds.WORDSIM_NAMES)
        else:
            bundled = named
        return rating_set_labels([*bundled, *user])

    @property
    def analogies(self) -> bool:
        """The (English) Google analogies are in the coverage table only for English corpora."""
        return self.data.side_views()


def settings(size: str, *, small_max_tokens: int = 500_000, **data: Any) -> TourSettings:
    """The settings of notebook 00 at ``size``: ``"small"`` reads the first ``small_max_tokens``
    tokens of the 1M corpus (the notebook's ``SMALL_MAX_TOKENS``), ``"full"`` the whole 5M-token
    corpus. The data fields of :class:`workbench.studies.data.DataChoice` (``corpus=``,
    ``corpus_format=``, ``language=``, ``wordsim=``; empty: the bundled data) choose a user's
    corpus (read whole at ``"full"``, capped at ``small_max_tokens`` at ``"small"``) and add the
    user's rating sets to the coverage table."""
    check_choice(size, "size", SIZES)
    small_max_tokens = check_int(small_max_tokens, "small_max_tokens", low=1)
    choice = data_choice(data)
    if size == "full":
        return TourSettings(size, corpus=choice.corpus_or("5M"), max_tokens=None, data=choice)
    return TourSettings(size, corpus=choice.corpus_or("1M"), max_tokens=small_max_tokens,
                        data=choice)  # fmt: skip


def data_choice(data: dict[str, Any]) -> DataChoice:
    """The :class:`DataChoice` of the data keyword arguments (unknown names raise, naming the
    known ones)."""
    known = [f.name for f in dataclasses.fields(DataChoice)]
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise TypeError(f"settings(): unknown settings {unknown}; data settings: {known}")
    wordsim = data.get("wordsim")
    if isinstance(wordsim, str) and wordsim:
        raise TypeError(
            f"wordsim must be a list of rating-set names or paths (e.g. ['MEN', 'my.csv']), "
            f"got {wordsim!r}"
        )
    return DataChoice(**data)


# --------------------------------------------------------------------------- the result


class TourRecords(TypedDict):
    """The records of notebook 00 (JSON values; the one definition of every key)."""

    corpus: str
    #: the data the run used (:meth:`workbench.studies.data.DataChoice.describe`)
    data: dict[str, Any]
    n_documents: int
    n_tokens: int
    n_types: int
    n_hapax: int
    zipf_exponent: float
    heaps_beta: float
    data_files: int
    data_bytes: int
    #: the cut-off labels, smallest first, ending with ``"all"``
    cutoffs: list[str]
    #: ``{set: {"items": n, <cut-off label>: fraction covered, ...}}``
    coverage: dict[str, dict[str, float]]
    #: ``{set: "w1, w2, ..."}``: the most used words of the set the whole vocabulary lacks
    missing_examples: dict[str, str]


@dataclass(frozen=True, eq=False)
class TourResult:
    """Everything notebook 00 shows: the data inventory, the corpus counts and fits, the coverage
    of every evaluation set and the words they miss (:func:`run_tour`)."""

    settings: TourSettings
    #: one row per bundled data file (:func:`workbench.coverage.data_inventory`)
    inventory: pd.DataFrame
    n_documents: int
    n_tokens: int
    #: word -> count, most frequent first
    counts: pd.Series
    #: the type/token curve (:func:`workbench.coverage.type_token_curve`)
    curve: pd.DataFrame
    zipf: PowerLawFit
    heaps: PowerLawFit
    #: the evaluation sets by name (rating sets, the analogies and their two halves)
    eval_sets: dict[str, pd.DataFrame] = field(repr=False)
    #: coverage by set (rows) and cut-off (columns; ``items`` the size of the set)
    coverage: pd.DataFrame
    #: :func:`workbench.coverage.missing_words` of the whole vocabulary
    missing: pd.DataFrame

    @property
    def folders(self) -> pd.DataFrame:
        """The inventory per folder: ``files``, ``bytes``, ``lines`` and ``MB``."""
        folders = self.inventory.groupby("folder").agg(
            files=("file", "size"), bytes=("bytes", "sum"), lines=("lines", "sum")
        )
        folders["MB"] = (folders["bytes"] / 1e6).round(2)
        return folders

    @property
    def corpus_summary(self) -> dict[str, Any]:
        """The corpus in a few numbers (displayed by the notebook)."""
        return {
            "corpus": self.settings.corpus_label,
            "documents (books)" if self.settings.data.bundled_corpus else "documents": self.n_documents,
            "tokens": self.n_tokens,
            "types": len(self.counts),
            "types seen >= 5 times": int((self.counts >= 5).sum()),
            "hapax legomena": int((self.counts == 1).sum()),
            "Zipf exponent (ranks 10-10,000)": round(self.zipf.exponent, 3),
            "Heaps beta": round(self.heaps.exponent, 3),
        }

    def records(self) -> TourRecords:
        """The records of the run (see :class:`TourRecords`)."""
        coverage = to_jsonable(self.coverage.to_dict(orient="index"))
        return TourRecords(
            corpus=self.settings.corpus_label,
            data=self.settings.data.describe(),
            n_documents=int(self.n_documents),
            n_tokens=int(self.n_tokens),
            n_types=len(self.counts),
            n_hapax=int((self.counts == 1).sum()),
            zipf_exponent=float(self.zipf.exponent),
            heaps_beta=float(self.heaps.exponent),
            data_files=len(self.inventory),
            data_bytes=int(self.inventory["bytes"].sum()),
            cutoffs=[str(c) for c in self.coverage.columns if c != "items"],
            coverage=coverage,
            missing_examples={str(k): str(v) for k, v in self.missing["examples"].items()},
        )


def run_tour(settings: TourSettings, *, cutoffs: Sequence[int]) -> TourResult:
    """Describe the bundled data and the corpus of ``settings``, and the coverage of every
    evaluation set by the vocabulary cut at each of ``cutoffs`` (the whole vocabulary is
    added as the last column, ``"all"``)."""
    if not isinstance(settings, TourSettings):
        raise TypeError(f"settings must be a TourSettings, got {type(settings).__name__}")
    inventory = data_inventory(ds.data_dir())
    corpus = settings.load_corpus()
    documents = list(corpus.iter_documents())
    tokens = [token for document in documents for token in document.tokens]
    counts = vocabulary_counts(tokens)
    curve = type_token_curve(tokens)
    eval_sets: dict[str, pd.DataFrame] = {
        label: ds.load_wordsim(source) for label, source in settings.rating_sets().items()
    }
    if settings.analogies:
        analogies = ds.load_analogies()
        eval_sets["analogy"] = analogies
        eval_sets["analogy semantic"] = analogies[analogies["kind"] == "semantic"]
        eval_sets["analogy syntactic"] = analogies[analogies["kind"] == "syntactic"]
    return TourResult(
        settings=settings,
        inventory=inventory,
        n_documents=len(documents),
        n_tokens=len(tokens),
        counts=counts,
        curve=curve,
        zipf=fit_zipf(counts),
        heaps=fit_heaps(curve),
        eval_sets=eval_sets,
        coverage=coverage_table(list(counts.index), eval_sets, [*cutoffs, None]),
        missing=missing_words(list(counts.index), eval_sets),
    )


# --------------------------------------------------------------------------- facts

#: The usual ranges of the fitted exponents (Zipf slope over ranks 10-10,000; Heaps beta).
ZIPF_RANGE = (-1.4, -0.8)
HEAPS_RANGE = (0.3, 0.9)
#: Full-vocabulary pair coverage from which a rating set counts as essentially complete.
COMPLETE = 0.97
#: Levels of the common sets' coverage: worst full-vocabulary coverage at least 0.8 / 0.5.
WELL_COVERED, PARTLY_COVERED = 0.8, 0.5
#: RW is the exception when its coverage is below this share of the lowest other rating set's.
EXCEPTION_SHARE = 0.75
#: Rating sets built from web text that a books corpus covers well but not completely.
COMMON_SETS = ("MEN", "SCWS", "WS", "MTURK-287", "MTURK-771")
#: The sets whose missing words the Discussion quotes, in this order.
EXAMPLE_SETS = ("MEN", "WS", "MTURK-771", "SIMLEX")

CoverageLevel = Literal["well covered, but not completely", "only partly covered", "poorly covered"]


@dataclass(frozen=True)
class CoverageSpan:
    """The lowest and highest coverage of some sets at one cut-off."""

    low: float
    high: float


@dataclass(frozen=True)
class CommonCoverage:
    """How well the common rating sets are covered (:func:`common_sets_coverage`)."""

    sets: list[str]
    level: CoverageLevel
    #: the largest cut-off smaller than the vocabulary (None: every cut-off covers it all)
    below: str | None
    at_below: CoverageSpan | None
    at_full: CoverageSpan
    #: rating sets essentially complete with the whole vocabulary
    complete: list[str]
    #: ``{set: share of its pairs lost}`` at the smallest cut-off, for MEN and WS
    lost_at_first: dict[str, float]


def _cutoff_value(label: str) -> float:
    """Inverse of :func:`workbench.coverage.cutoff_label` (``"10K" -> 10000``, ``"all" -> inf``)."""
    if label == "all":
        return math.inf
    scale = {"K": 1e3, "M": 1e6}.get(label[-1:], 1.0)
    return float(label[:-1] if scale != 1.0 else label) * scale


def _rating_sets(rec: Mapping[str, Any]) -> list[str]:
    return [n for n in rec["coverage"] if not str(n).lower().startswith("analogy")]


def _full(rec: Mapping[str, Any], name: str) -> float:
    return float(rec["coverage"][name][str(rec["cutoffs"][-1])])


def zipf_heaps_hold(rec: Mapping[str, Any]) -> bool:
    """Rule: Zipf and Heaps "hold as expected" when the fitted Zipf slope lies strictly inside
    :data:`ZIPF_RANGE` and the Heaps exponent strictly inside :data:`HEAPS_RANGE` (a range
    check on exact fits; no test)."""
    zipf, beta = float(rec["zipf_exponent"]), float(rec["heaps_beta"])
    return ZIPF_RANGE[0] < zipf < ZIPF_RANGE[1] and HEAPS_RANGE[0] < beta < HEAPS_RANGE[1]


def complete_sets(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the rating sets (not the analogies) whose pair coverage with the whole vocabulary
    is at least :data:`COMPLETE` are "essentially complete"."""
    return [n for n in _rating_sets(rec) if _full(rec, n) >= COMPLETE]


def common_sets_coverage(rec: Mapping[str, Any]) -> CommonCoverage | None:
    """Rule: the common sets are those of :data:`COMMON_SETS` present and not essentially
    complete; their level is "well covered, but not completely" when the lowest of their
    full-vocabulary coverages is at least :data:`WELL_COVERED`, "only partly covered" when at
    least :data:`PARTLY_COVERED`, else "poorly covered". None when there is no such set."""
    complete = complete_sets(rec)
    common = [n for n in COMMON_SETS if n in rec["coverage"] and n not in complete]
    if not common:
        return None
    labels = [str(c) for c in rec["cutoffs"]]
    cov = rec["coverage"]
    full = [_full(rec, n) for n in common]
    worst = min(full)
    level: CoverageLevel = (
        "well covered, but not completely" if worst >= WELL_COVERED
        else "only partly covered" if worst >= PARTLY_COVERED
        else "poorly covered"
    )  # fmt: skip
    below = [c for c in labels[:-1] if _cutoff_value(c) < int(rec["n_types"])]
    at_below = None
    if below:
        values = [float(cov[n][below[-1]]) for n in common]
        at_below = CoverageSpan(min(values), max(values))
    return CommonCoverage(
        sets=common,
        level=level,
        below=below[-1] if below else None,
        at_below=at_below,
        at_full=CoverageSpan(min(full), max(full)),
        complete=complete,
        lost_at_first={n: 1 - float(cov[n][labels[0]]) for n in ("MEN", "WS") if n in cov},
    )


def missing_examples(rec: Mapping[str, Any], *, limit: int = 6) -> list[str]:
    """Rule: the first ``limit`` distinct words of the recorded missing examples of
    :data:`EXAMPLE_SETS`, in that order (each set's most used missing words first)."""
    examples = rec.get("missing_examples") or {}
    words: list[str] = []
    for name in EXAMPLE_SETS:
        for w in str(examples.get(name, "")).split(", "):
            if w and w not in words:
                words.append(w)
    return words[:limit]


def rw_is_exception(rec: Mapping[str, Any]) -> bool | None:
    """Rule: RW "is the exception" when its full-vocabulary pair coverage is below
    :data:`EXCEPTION_SHARE` times the lowest of the other rating sets'; None without RW."""
    if "RW" not in rec["coverage"]:
        return None
    others = [_full(rec, n) for n in _rating_sets(rec) if n != "RW"]
    return bool(others) and _full(rec, "RW") < EXCEPTION_SHARE * min(others)


@dataclass(frozen=True)
class SemanticAnalogies:
    """The reach of the semantic analogy questions (:func:`semantic_analogies`)."""

    semantic: float
    syntactic: float
    #: the answerable share is below one half
    mostly_out_of_reach: bool
    #: fewer semantic than syntactic questions are answerable
    below_syntactic: bool
    #: the most used words of the semantic questions the vocabulary lacks
    missing: list[str]


def semantic_analogies(rec: Mapping[str, Any]) -> SemanticAnalogies | None:
    """Rule: the semantic analogies are "mostly out of reach" when less than half of them are
    answerable with the whole vocabulary (all four words in it), else "reachable"; they are
    compared with the syntactic half by the same share. None without both halves."""
    cov = rec["coverage"]
    if "analogy semantic" not in cov or "analogy syntactic" not in cov:
        return None
    sem, syn = _full(rec, "analogy semantic"), _full(rec, "analogy syntactic")
    words = str((rec.get("missing_examples") or {}).get("analogy semantic", "")).split(", ")
    return SemanticAnalogies(sem, syn, sem < 0.5, sem < syn, [w for w in words if w][:6])


@dataclass(frozen=True)
class Facts00:
    """The facts of notebook 00's Discussion (:func:`facts_00`)."""

    zipf_heaps_hold: bool
    zipf_range: tuple[float, float]
    heaps_range: tuple[float, float]
    hapax_share: float
    common: CommonCoverage | None
    complete_share: float
    missing_examples: list[str]
    rw_is_exception: bool | None
    rw_coverage: float | None
    semantic: SemanticAnalogies | None
    data: DataFact | None = None


def facts_00(rec: Mapping[str, Any]) -> Facts00:
    """Every fact of notebook 00's Discussion from its records."""
    return Facts00(
        zipf_heaps_hold=zipf_heaps_hold(rec),
        zipf_range=ZIPF_RANGE,
        heaps_range=HEAPS_RANGE,
        hapax_share=int(rec["n_hapax"]) / int(rec["n_types"]),
        common=common_sets_coverage(rec),
        complete_share=COMPLETE,
        missing_examples=missing_examples(rec),
        rw_is_exception=rw_is_exception(rec),
        rw_coverage=_full(rec, "RW") if "RW" in rec["coverage"] else None,
        semantic=semantic_analogies(rec),
        data=data_fact(rec),
    )


_NEEDED = ("corpus", "n_tokens", "n_types", "n_hapax", "n_documents", "zipf_exponent",
           "heaps_beta", "cutoffs", "coverage")  # fmt: skip


def discussion_00(rec: Mapping[str, Any]) -> Markdown:
    """The Discussion of the tour notebook (``00_tour``), rendered from its records by
    ``templates/discussion_00.md.j2``.

    Parameters
    ----------
    rec : mapping
        The run's records (:meth:`TourResult.records`); needs ``corpus, n_tokens, n_types,
        n_hapax, n_documents, zipf_exponent, heaps_beta, cutoffs, coverage`` and optionally
        ``missing_examples``.

    Returns
    -------
    IPython.display.Markdown
    """
    check_records(rec, _NEEDED, notebook="00")
    return templating.render(TEMPLATES, "discussion_00.md.j2", r=rec, facts=facts_00(rec))
