"""The tour study (notebook ``00_tour``): its settings per data size and its Discussion.

The data, vocabulary and coverage functions the notebook calls are the data-layer tools of
:mod:`workbench.coverage`; this study holds :func:`settings` (which corpus, how many tokens) and
:func:`discussion_00` (the Discussion rendered from a run's records).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench._validation import check_choice, check_int

from ._text import escape, join_and

__all__ = ["SIZES", "TourSettings", "settings", "discussion_00"]

#: The data sizes of notebook 00.
SIZES = ("small", "full")


@dataclass(frozen=True)
class TourSettings:
    """The corpus notebook 00 describes at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments.
    """

    size: str
    corpus: str
    max_tokens: int | None


def settings(size: str, *, small_max_tokens: int = 500_000) -> TourSettings:
    """The settings of notebook 00 at ``size``: ``"small"`` reads the first ``small_max_tokens``
    tokens of the 1M corpus (the notebook's ``SMALL_MAX_TOKENS``), ``"full"`` the whole 5M-token
    corpus."""
    check_choice(size, "size", SIZES)
    small_max_tokens = check_int(small_max_tokens, "small_max_tokens", low=1)
    if size == "full":
        return TourSettings(size, corpus="5M", max_tokens=None)
    return TourSettings(size, corpus="1M", max_tokens=small_max_tokens)


#: Rating sets built from web text that a books corpus covers well but not completely.
_COMMON_SETS = ("MEN", "SCWS", "WS", "MTURK-287", "MTURK-771")


def _pct(v: float) -> str:
    return f"{100 * float(v):.0f} %"


def _pct_range(values: Sequence[float]) -> str:
    lo, hi = round(100 * min(values)), round(100 * max(values))
    return f"{lo} %" if lo == hi else f"{lo}–{hi} %"


def _cutoff_value(label: str) -> float:
    """Inverse of :func:`workbench.coverage.cutoff_label` (``"10K" -> 10000``, ``"all" -> inf``)."""
    if label == "all":
        return math.inf
    scale = {"K": 1e3, "M": 1e6}.get(label[-1:], 1.0)
    return float(label[:-1] if scale != 1.0 else label) * scale


def discussion_00(rec: Mapping[str, Any]) -> str:
    """The Discussion of the tour notebook (``00_tour``) from its records.

    Every number is read from ``rec`` (the values the notebook recorded:
    :func:`workbench.records.recorded`) and every qualitative word ("hold", "essentially
    complete", "the exception") is chosen by comparing them, so a run on other data or other
    cut-offs cannot contradict its own text.

    Parameters
    ----------
    rec : mapping
        Needs ``corpus, n_tokens, n_types, n_hapax, n_documents, zipf_exponent, heaps_beta,
        cutoffs, coverage`` and optionally ``missing_examples`` (``{set: "w1, w2, ..."}``).

    Returns
    -------
    str
        Markdown with braces escaped for :func:`workbench.records.narrate`.
    """
    if not isinstance(rec, Mapping):
        raise TypeError(
            "rec must be the records of a run of notebook 00 (a mapping, e.g. "
            f"workbench.records.recorded()), got {type(rec).__name__}"
        )
    need = ("corpus", "n_tokens", "n_types", "n_hapax", "n_documents", "zipf_exponent",
            "heaps_beta", "cutoffs", "coverage")  # fmt: skip
    missing = [k for k in need if k not in rec]
    if missing:
        raise KeyError(
            f"rec lacks the records {missing} that notebook 00 writes; pass the records of a "
            "complete run of notebook 00"
        )
    cov: Mapping[str, Mapping[str, float]] = rec["coverage"]
    labels = [str(c) for c in rec["cutoffs"]]
    first, full = labels[0], labels[-1]
    zipf, beta = float(rec["zipf_exponent"]), float(rec["heaps_beta"])
    n_types, n_hapax = int(rec["n_types"]), int(rec["n_hapax"])
    lines = []
    holds = -1.4 < zipf < -0.8 and 0.3 < beta < 0.9
    lines.append(
        f"* **Zipf and Heaps {'hold as expected' if holds else 'do not hold as expected'}** "
        f"(the {rec['corpus']} corpus: {int(rec['n_tokens']):,} tokens, {n_types:,} types, "
        f"{int(rec['n_documents'])} books). The rank/frequency slope is {zipf:.2f} over ranks "
        f"10–10,000 and the vocabulary keeps growing as roughly tokens^{beta:.2f}: there is no "
        f'corpus size at which "all words" are covered, and {_pct(n_hapax / n_types)} of the '
        "types are hapaxes, which carry almost no distributional signal. The vocabulary cap / "
        "`min_count` of every view builder is therefore a real modelling choice, not a detail."
    )
    rating = [n for n in cov if not str(n).lower().startswith("analogy")]
    complete = [n for n in rating if cov[n][full] >= 0.97]
    common = [n for n in _COMMON_SETS if n in cov and n not in complete]
    if common:
        # the largest cut-off that is smaller than the vocabulary (others equal "all")
        below = [c for c in labels[:-1] if _cutoff_value(c) < n_types]
        worst = min(cov[n][full] for n in common)
        how = ("well covered, but not completely" if worst >= 0.8 else
               "only partly covered" if worst >= 0.5 else "poorly covered")  # fmt: skip
        text = f"* **The common rating sets are {how}.** {join_and(common)} reach "
        if below:
            text += (
                f"{_pct_range([cov[n][below[-1]] for n in common])} pair coverage at a "
                f"{below[-1]} vocabulary and {_pct_range([cov[n][full] for n in common])} with "
                f"all {n_types:,} types"
            )
        else:
            text += f"{_pct_range([cov[n][full] for n in common])} pair coverage with all {n_types:,} types"
        if complete:
            verb = "is" if len(complete) == 1 else "are"
            text += f"; {join_and(complete)} {verb} essentially complete (at least 97 %)."
        else:
            text += "."
        lost = [n for n in ("MEN", "WS") if n in cov]
        if lost:
            text += (
                f" A {first} vocabulary loses "
                + " and ".join(f"{_pct(1 - cov[n][first])} of {n}" for n in lost)
                + "."
            )
        text += (
            " Every score reported later is on the covered pairs and comes with its coverage, "
            "so methods are compared on the same pairs."
        )
        lines.append(text)
    examples = rec.get("missing_examples") or {}
    words: list[str] = []
    for name in ("MEN", "WS", "MTURK-771", "SIMLEX"):
        for w in str(examples.get(name, "")).split(", "):
            if w and w not in words:
                words.append(w)
    if words:
        lines.append(
            "* **What is missing.** The most used words of the rating sets that the whole "
            f"vocabulary lacks include *{', '.join(words[:6])}* (table above). The rating sets "
            "were built from web text and our corpus is public-domain books, a genuine limitation "
            "of the bundled data relative to the papers' Wikipedia / newswire corpora."
        )
    if "RW" in cov:
        rw = cov["RW"][full]
        others = [cov[n][full] for n in rating if n != "RW"]
        exception = others and rw < 0.75 * min(others)
        lines.append(
            f"* **RW (rare words) {'is the exception' if exception else 'is covered like the rest'}"
            f"**: {_pct(rw)} of its pairs are covered by the whole vocabulary"
            + (
                ", so RW results on this corpus are computed on a small, biased subset and should "
                "be read with that caveat."
                if exception
                else "."
            )  # fmt: skip
        )
    if "analogy semantic" in cov and "analogy syntactic" in cov:
        sem, syn = cov["analogy semantic"][full], cov["analogy syntactic"][full]
        lines.append(
            f"* **The semantic analogies are {'mostly out of reach' if sem < 0.5 else 'reachable'}"
            f"**: {_pct(sem)} of the semantic questions are answerable with the whole vocabulary, "
            f"against {_pct(syn)} of the syntactic ones"
            + (
                " (capitals, countries, currencies and US states are rare or absent in these "
                "books). Analogy accuracies later are reported on scorable questions and "
                "separately for the two halves; they are not comparable with the papers' absolute "
                "numbers."
                if sem < syn
                else "."
            )  # fmt: skip
        )
    lines.append(
        "* **Nothing here is random**: the counts, fits and coverage are exact, so the notebook "
        "has no `SEEDS` parameter and one run is the result."
    )
    return escape("\n".join(lines))
