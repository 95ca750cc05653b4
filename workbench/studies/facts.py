"""The shared vocabulary of facts: the rules behind the qualitative words of every Discussion.

A *fact* is a pure function of a run's records (plain JSON values) that decides a qualitative
statement -- "significant", "in every seed", "no detectable difference", "moved between sizes".
Its docstring states its rule; it is unit-tested on constructed records; a Discussion template
(:mod:`workbench.templating`) chooses its words by it and never decides anything itself. The
studies' own facts (``workbench/studies/<study>/_facts.py``) are built from the ones here, so that
the same word means the same rule in every notebook:

* **significant** -- a p-value *after the stated correction* (Holm over the named family) below
  :data:`ALPHA` = 0.05 (:func:`significant`);
* **in every seed / in k of n seeds** -- how many seeds a per-seed fact holds in
  (:class:`SeedCount`, printed by the ``seeds`` filter);
* **no detectable difference** -- a difference that is not significant, or that lies inside the
  minimum required difference for significance (MRDS) when one is given (:func:`direction`);
* **moved** -- a finding that has a value in both runs being compared and differs between them; a
  finding that exists in only one run is *not comparable*, never "moved" (:func:`compare_findings`).

Causal words ("because", "pulls the space away") are never facts here: a Discussion may only use
them where a test of that cause was run and recorded.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ALPHA",
    "DataFact",
    "Direction",
    "FindingsComparison",
    "SeedCount",
    "check_records",
    "compare_findings",
    "data_fact",
    "direction",
    "finite",
    "seed_count",
    "significant",
]

#: Significance level of every test, after the correction each table states.
ALPHA = 0.05

Direction = Literal["higher", "lower", "no detectable difference"]


@dataclass(frozen=True)
class DataFact:
    """The data a run used, as its Discussion names it (read from the record ``data``)."""

    bundled: bool
    corpus: str
    corpus_format: str
    language: str
    #: the rating sets the user named (file names for paths); empty: the study's bundled list
    wordsim: list[str]
    all_pairs: bool
    side_views: bool
    side_views_note: str
    #: pretrained vectors and lexicons the user named (notebooks 03-06); empty: none / bundled
    pretrained: list[str] = field(default_factory=list)
    lexicons: list[str] = field(default_factory=list)


def check_records(rec: object, needed: Iterable[str], *, notebook: str) -> None:
    """Check that ``rec`` is the records of a complete run of ``notebook`` (a mapping holding
    every key of ``needed``), as every Discussion does before it renders.

    Raises
    ------
    TypeError
        ``rec`` is not a mapping.
    KeyError
        Keys of ``needed`` are missing; the message lists them.

    Examples
    --------
    >>> check_records({"seeds": [0]}, ["seeds"], notebook="07")
    >>> check_records({}, ["seeds", "scores"], notebook="07")
    Traceback (most recent call last):
    ...
    KeyError: "rec lacks the records ['seeds', 'scores'] that notebook 07 writes; pass the records of a complete run of notebook 07"
    """
    if not isinstance(rec, Mapping):
        raise TypeError(
            f"rec must be the records of a run of notebook {notebook} (a mapping, e.g. "
            f"result.records()), got {type(rec).__name__}"
        )
    missing = [k for k in needed if k not in rec]
    if missing:
        raise KeyError(
            f"rec lacks the records {missing} that notebook {notebook} writes; pass the records "
            f"of a complete run of notebook {notebook}"
        )


def data_fact(rec: Mapping[str, Any]) -> DataFact | None:
    """Rule: the corpus is *bundled* when the record ``data.corpus`` is ``"bundled"``; the rating
    sets are scored on *every pair* when ``data.wordsim_split`` is ``"all"`` (they are then not
    tuned on) and on their test halves otherwise; *side views* were used when
    ``data.side_views`` (the corpus is English); rating sets given as paths are named by their
    file names. None for records without ``data``. Shared by every study's Discussion."""
    d = rec.get("data")
    if not d:
        return None
    ws = d.get("wordsim")
    return DataFact(
        bundled=d.get("corpus") == "bundled",
        corpus=str(d.get("corpus")),
        corpus_format=str(d.get("corpus_format")),
        language=str(d.get("language")),
        wordsim=[Path(str(w)).name for w in ws] if isinstance(ws, list) else [],
        all_pairs=d.get("wordsim_split") == "all",
        side_views=bool(d.get("side_views")),
        side_views_note=str(rec.get("side_views_note") or ""),
        pretrained=list(d.get("pretrained") or []),
        lexicons=list(d.get("lexicons") or []),
    )


def finite(value: Any) -> float | None:
    """``value`` as a float, or None when it is None, NaN, infinite or not a number.

    Records hold None where a number is undefined (JSON has no NaN).
    """
    if value is None or isinstance(value, bool):
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def significant(p_corrected: Any, *, alpha: float = ALPHA) -> bool:
    """Rule: significant when the *corrected* p-value is below ``alpha`` (5 %); an undefined
    p-value (None, NaN: too few items to test) is not significant."""
    p = finite(p_corrected)
    return p is not None and p < alpha


def direction(diff: Any, *, is_significant: bool, mrds: Any = None) -> Direction:
    """Rule: ``"higher"`` / ``"lower"`` by the sign of ``diff`` only when the difference is
    significant (``is_significant``, after the stated correction) and, when an MRDS is given, at
    least as large as it in absolute value; otherwise ``"no detectable difference"`` (also for an
    undefined or zero difference)."""
    d = finite(diff)
    if d is None or d == 0 or not is_significant:
        return "no detectable difference"
    m = finite(mrds)
    if m is not None and abs(d) < m:
        return "no detectable difference"
    return "higher" if d > 0 else "lower"


@dataclass(frozen=True)
class SeedCount:
    """In how many of ``n`` seeds a per-seed fact holds (``k``).

    ``every``: in all of them (and at least one seed); ``none``: in none; ``some``: in at least
    one. The ``seeds`` template filter prints it ("in every seed", "in 2 of 3 seeds", "in no
    seed"; nothing for a one-seed run).
    """

    k: int
    n: int

    def __post_init__(self) -> None:
        if not (0 <= self.k <= self.n):
            raise ValueError(f"SeedCount needs 0 <= k <= n, got k={self.k}, n={self.n}")

    @property
    def every(self) -> bool:
        return self.n > 0 and self.k == self.n

    @property
    def none(self) -> bool:
        return self.k == 0

    @property
    def some(self) -> bool:
        return self.k > 0


def seed_count(flags: Iterable[Any] | Mapping[Any, Any]) -> SeedCount:
    """Rule: ``k`` = the number of seeds whose flag is true, ``n`` = the number of seeds (a
    mapping is read by its values; None counts as false)."""
    values = list(flags.values()) if isinstance(flags, Mapping) else list(flags)
    return SeedCount(sum(bool(v) for v in values), len(values))


@dataclass(frozen=True)
class FindingsComparison:
    """Findings of two runs side by side (see :func:`compare_findings`)."""

    #: finding -> (here, there), for findings present in both runs that differ
    moved: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: findings present in both runs with the same value
    unchanged: list[str] = field(default_factory=list)
    #: findings present in only one of the runs (e.g. a factor the other size does not tune)
    not_comparable: list[str] = field(default_factory=list)

    @property
    def n_compared(self) -> int:
        return len(self.moved) + len(self.unchanged)


def compare_findings(
    here: Mapping[str, str], there: Mapping[str, str] | None
) -> FindingsComparison | None:
    """Rule: a finding *moved* when both runs have it and its labels differ; it is *unchanged*
    when both have it with the same label; it is *not comparable* when only one run has it (never
    counted as moved). ``None`` when there is no other run."""
    if there is None:
        return None
    moved: dict[str, tuple[str, str]] = {}
    unchanged: list[str] = []
    not_comparable: list[str] = []
    for key in dict.fromkeys([*here, *there]):
        if key in here and key in there:
            if here[key] != there[key]:
                moved[key] = (here[key], there[key])
            else:
                unchanged.append(key)
        else:
            not_comparable.append(key)
    return FindingsComparison(moved, unchanged, not_comparable)
