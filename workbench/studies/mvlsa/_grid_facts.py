"""The facts of notebook 03's grids (the paper's configuration and its claims on Tables 3--7
and ``r_j``): pure functions of the records whose docstrings state their rules.

Split from :mod:`workbench.studies.mvlsa._facts`, which re-exports them. A claim is decided per
seed by :func:`~workbench.studies.mvlsa._facts.claim_status` on that seed's Holm-corrected tests
(Holm over each grid's tests); over the seeds by :func:`claim_over_seeds`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.studies.facts import SeedCount, finite

__all__ = [
    "PaperValue",
    "paper_values",
    "claim_over_seeds",
    "SeedClaimFact",
    "seed_claims",
    "family_sizes",
]


@dataclass(frozen=True)
class PaperValue:
    """One parameter of the paper's configuration: as the paper states it, as used, and why
    they differ (``changed``: they do)."""

    parameter: str
    paper: str
    used: str
    why: str
    changed: bool


def paper_values(rec: Mapping[str, Any]) -> list[PaperValue]:
    """Rule: one row per recorded ``paper_config`` parameter; a value is *changed* when the
    recorded ``why`` is not empty (the run scaled or capped it), and used as the paper states it
    otherwise."""
    out = []
    for name, row in (rec.get("paper_config") or {}).items():
        why = str(row.get("why") or "")
        out.append(PaperValue(str(name), str(row.get("paper", "")), str(row.get("used", "")),
                              why, bool(why)))  # fmt: skip
    return out


def claim_over_seeds(statuses: Sequence[str]) -> str:
    """Rule: a claim's status over the seeds is the status every seed gave it (each seed
    decided by :func:`claim_status` on its own Holm-corrected tests); ``"varies across seeds"``
    when the seeds disagree; ``"not testable here"`` without any seed."""
    distinct = set(statuses)
    if not distinct:
        return "not testable here"
    return statuses[0] if len(distinct) == 1 else "varies across seeds"


@dataclass(frozen=True)
class SeedClaimFact:
    """One of the paper's claims as tested on its grid in every seed (a row of the ``claims``
    record): ``status`` over the seeds and ``seeds`` (status -> seeds with it, a
    :class:`SeedCount` each)."""

    claim: str
    table: str
    kind: str
    status: str
    a: str
    b: str
    mean_a: float | None
    mean_b: float | None
    seeds: dict[str, SeedCount]
    n_seeds: int
    reason: str


def seed_claims(rec: Mapping[str, Any]) -> list[SeedClaimFact]:
    """Rule: each recorded claim with its per-seed status counts (``seeds <status>``) and its
    status over the seeds re-derived by :func:`claim_over_seeds` from those counts (so the
    Discussion cannot disagree with the claims table); a claim with a ``reason`` is *not
    testable here*."""
    out = []
    for name, c in rec.get("claims", {}).items():
        n = int(c.get("n seeds") or 0)
        reason = str(c.get("reason") or "")
        counts = {st: int(c.get(f"seeds {st}") or 0) for st in
                  ("holds", "does not hold", "no detectable difference", "not testable here")}  # fmt: skip
        statuses = [st for st, k in counts.items() for _ in range(k)]
        status = "not testable here" if reason else claim_over_seeds(statuses)
        out.append(SeedClaimFact(name, str(c.get("table", "")), str(c.get("kind", "direction")),
                                 status, str(c.get("a", "")), str(c.get("b", "")),
                                 finite(c.get("dev mean a")), finite(c.get("dev mean b")),
                                 {st: SeedCount(k, n) for st, k in counts.items() if k},
                                 n, reason))  # fmt: skip
    return out


def family_sizes(rec: Mapping[str, Any]) -> dict[str, int]:
    """Rule: the recorded Holm family size of each grid (``claims_family_size``); an older
    record's single int is one family, ``all``."""
    sizes = rec.get("claims_family_size") or {}
    if not isinstance(sizes, Mapping):
        return {"all": int(sizes)}
    return {str(k): int(v) for k, v in sizes.items()}
