"""The facts of notebook 01's Discussion: each qualitative word, decided from the records.

Every function here is a pure function of the run's records (and of the paper's published
values kept as data); its docstring states its rule. The correction families are fixed by the
notebook and named in the template:

* B against A on the rating sets: Williams' t (two-sided), **Holm over the rating sets of each
  seed** (``pvalue_adjusted``; :func:`workbench.studies.facts.significant`);
* B against A on the analogies: the exact McNemar test, **one test per seed** (no family, no
  correction);
* the OPCA-style superior set: paired t-tests, **Bonferroni over the m(m-1)/2 pairs** of the m
  systems;
* the ten dependent-correlation tests on MEN answer one question (no correction).

Section 1 (Table 2) is exact computation: its facts are stated tolerances, not tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from IPython.display import Markdown

from workbench import templating
from workbench.reported import reported
from workbench.significance import MVLSA_FOOTNOTE4_TOEFL, MVLSA_TABLE2
from workbench.studies.facts import (
    ALPHA,
    DataFact,
    Direction,
    SeedCount,
    check_records,
    data_fact,
    direction,
    finite,
    seed_count,
    significant,
)

from .._values import as_float
from ._run import ACCURACY_ROWS
from ._settings import records_frame

__all__ = [
    "Table2Facts",
    "table2_facts",
    "AccuracyRows",
    "accuracy_rows",
    "MrdsScaling",
    "mrds_scaling",
    "WordsimFinding",
    "wordsim_findings",
    "OtherDifferences",
    "other_differences",
    "MenTests",
    "men_tests",
    "BootstrapWidth",
    "bootstrap_width",
    "AnalogyFacts",
    "analogy_facts",
    "Facts01",
    "facts_01",
    "discussion_01",
]

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Table 2 prints one decimal: a reproduced cell within this many points is within rounding.
ROUNDING = 0.05
#: Largest |ours - paper| (points) at which Table 2 still "reproduces".
TOLERANCE = 0.15

Agreement = Literal[
    "within the rounding of the printed values",
    "slightly more than the rounding of the printed values",
    "not within the rounding of the printed values",
]


# --------------------------------------------------------------------------- section 1


@dataclass(frozen=True)
class Table2Facts:
    """How Table 2 is reproduced and which test produced it (:func:`table2_facts`)."""

    reproduces: bool
    agreement: Agreement
    #: the largest error of each variant, in points
    williams: float
    williams_two_sided: float
    steiger: float
    hotelling: float
    script: float | None
    steiger_reproduces: bool
    two_sided_off: bool
    hotelling_identical: bool
    script_closest: bool
    #: the table is a one-sided Williams' t (and not Steiger's z, not two-sided)
    williams_identified: bool
    closest: str
    closest_error: float


def table2_facts(rec: Mapping[str, Any]) -> Table2Facts:
    """Rule (exact computation, no test): Table 2 "reproduces" when every published cell is
    matched within :data:`TOLERANCE` points; the match is "within the rounding of the printed
    values" up to :data:`ROUNDING`, "slightly more" up to :data:`TOLERANCE`. Steiger's z does
    *not* reproduce the table when its largest error is above :data:`TOLERANCE` and more than
    twice the one-sided Williams' t's; a two-sided test is "off" when its error exceeds one
    point; Hotelling's t is "practically identical" to Williams' within :data:`ROUNDING`. The
    table is identified as a one-sided Williams' t when that variant is within
    :data:`TOLERANCE`, the two-sided one is off and Steiger's z is worse."""
    err = {str(k): float(v) for k, v in rec["table2_variant_max_error"].items()}
    nan = float("nan")
    one = err.get("williams1959, one-sided", nan)
    two = err.get("williams1959, two-sided", nan)
    z = err.get("steiger1980 z, one-sided", nan)
    hot = err.get("hotelling1940, one-sided", nan)
    script = finite(err.get("mvlsa2015 (script, df=n-2), one-sided"))
    max_diff = float(rec["table2_max_abs_diff"])
    agreement: Agreement = (
        "within the rounding of the printed values" if max_diff <= ROUNDING
        else "slightly more than the rounding of the printed values" if max_diff <= TOLERANCE
        else "not within the rounding of the printed values"
    )  # fmt: skip
    closest = min(err, key=lambda k: err[k])
    two_off = two > 1
    return Table2Facts(
        reproduces=max_diff <= TOLERANCE,
        agreement=agreement,
        williams=one,
        williams_two_sided=two,
        steiger=z,
        hotelling=hot,
        script=script,
        steiger_reproduces=not (z > 2 * one and z > TOLERANCE),
        two_sided_off=two_off,
        hotelling_identical=abs(hot - one) < ROUNDING,
        script_closest=closest.startswith("mvlsa2015"),
        williams_identified=one <= TOLERANCE and two_off and z > one,
        closest=closest,
        closest_error=err[closest],
    )


@dataclass(frozen=True)
class AccuracyRows:
    """The accuracy rows of Table 2 (:func:`accuracy_rows`)."""

    #: row -> |ours - paper| in points, for the rows not matched exactly
    close: dict[str, float]
    exact: list[str]
    footnote4: float
    footnote4_paper: float
    footnote4_same: bool
    #: row -> the "for all θ" threshold (points)
    forall: dict[str, float]
    forall_size: Literal["much larger", "larger", "the same"] | None
    from_script: bool


def accuracy_rows(rec: Mapping[str, Any]) -> AccuracyRows:
    """Rule (exact computation): a reproduced accuracy row is "exact" within half a hundredth of
    a point, else quoted with its gap; footnote 4 is "the same" within half a hundredth. The
    literal "for all θ" thresholds are "much larger" than the script's when the smallest ratio
    exceeds 1.3, "larger" above 1.02, else "the same". The rows "come from the authors'
    script, not from the definition in the text" when every row is matched within
    :data:`ROUNDING` and the literal definition gives larger thresholds."""
    table = records_frame(rec["table2_reproduced"])
    acc = [r for r in ACCURACY_ROWS if r in table.index]
    diffs = {
        r: abs(as_float(table.loc[r, "p0.05_r0.9"]) - as_float(MVLSA_TABLE2.loc[r, "p0.05_r0.9"]))
        for r in acc
    }
    ours4 = float(rec["footnote4_toefl_sigma_005"])
    forall = {r: float(v) for r, v in (rec.get("accuracy_mrds_forall") or {}).items() if r in acc}
    ratio = [forall[r] / as_float(table.loc[r, "p0.05_r0.9"]) for r in forall]
    size: Literal["much larger", "larger", "the same"] | None = None
    if ratio:
        size = "much larger" if min(ratio) > 1.3 else "larger" if min(ratio) > 1.02 else "the same"
    return AccuracyRows(
        close={r: d for r, d in diffs.items() if d >= 0.005},
        exact=[r for r, d in diffs.items() if d < 0.005],
        footnote4=ours4,
        footnote4_paper=float(MVLSA_FOOTNOTE4_TOEFL),
        footnote4_same=abs(ours4 - MVLSA_FOOTNOTE4_TOEFL) < 0.005,
        forall=forall,
        forall_size=size,
        from_script=bool(diffs) and max(diffs.values()) <= ROUNDING
        and size in ("much larger", "larger"),
    )


@dataclass(frozen=True)
class MrdsScaling:
    """How MRDS scales with n and r_AB (:func:`mrds_scaling`)."""

    slope: float
    like_inverse_sqrt: bool
    r_ratio: float
    shrinks_with_r: bool


def mrds_scaling(rec: Mapping[str, Any]) -> MrdsScaling:
    """Rule (exact computation): MRDS scales "like 1/√n" when the fitted log-log slope is within
    0.05 of -1/2; it "shrinks as the two systems agree more" when its value at r_AB = 0.9 is
    below its value at r_AB = 0.5 (ratio below 1)."""
    slope, ratio = float(rec["mrds_n_slope"]), float(rec["mrds_r_ratio"])
    return MrdsScaling(slope, abs(slope + 0.5) < 0.05, ratio, ratio < 1)


# --------------------------------------------------------------------------- section 3


def _summary(rec: Mapping[str, Any]) -> pd.DataFrame:
    summary = records_frame(rec["wordsim_comparison_seeds"])
    return summary.set_index("dataset") if "dataset" in summary.columns else summary


def _per_seed(rec: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    return {str(s): records_frame(t).set_index("dataset")
            for s, t in rec["wordsim_comparison_by_seed"].items()}  # fmt: skip


def _seeds(rec: Mapping[str, Any]) -> list[str]:
    return [str(s) for s in rec["seeds"]]


def _column(rec: Mapping[str, Any], dataset: str, column: str) -> list[float | None]:
    per_seed = _per_seed(rec)
    return [finite(per_seed[s].loc[dataset, column]) for s in _seeds(rec)]


@dataclass(frozen=True)
class WordsimFinding:
    """A rating set on which B - A is significant after Holm in at least one seed."""

    dataset: str
    #: B - A per seed (fractions)
    gains: list[float | None]
    n: int
    r_ab: float
    t_mean: float
    #: seeds in which the Holm-corrected p is below 5 %
    seeds: SeedCount
    #: "higher" / "lower" only when significant in every seed and beyond the MRDS
    direction: Direction

    @property
    def magnitudes(self) -> list[float | None]:
        """|B - A| per seed (quoted with "higher" / "lower")."""
        return [None if g is None else abs(g) for g in self.gains]


def wordsim_findings(rec: Mapping[str, Any]) -> list[WordsimFinding]:
    """Rule: a rating set is a finding when B - A is significant -- its p-value after Holm over
    the rating sets of that seed below 5 % -- in at least one seed (``seeds`` counts in how
    many). Its direction is "higher" / "lower" by the sign of the mean gain only when it is
    significant in every seed and the mean gain is at least the mean MRDS; otherwise "no
    detectable difference" (:func:`workbench.studies.facts.direction`)."""
    summary = _summary(rec)
    per_seed = _per_seed(rec)
    seeds = _seeds(rec)
    out = []
    for d in summary.index:
        count = seed_count(
            [significant(per_seed[s].loc[d, "pvalue_adjusted"]) for s in seeds]
        )
        if not count.some:
            continue
        gains = _column(rec, d, "difference")
        stats = [t for t in _column(rec, d, "statistic") if t is not None]
        mean_gain = float(np.nanmean([np.nan if g is None else g for g in gains]))
        out.append(
            WordsimFinding(
                dataset=str(d),
                gains=gains,
                n=int(as_float(summary.loc[d, "n"])),
                r_ab=float(summary.loc[d, "r_ab"]),
                t_mean=float(np.mean(stats)) if stats else float("nan"),
                seeds=count,
                direction=direction(mean_gain, is_significant=count.every,
                                    mrds=finite(summary.loc[d, "mrds"])),
            )
        )  # fmt: skip
    return out


@dataclass(frozen=True)
class Exceeding:
    """A difference that exceeds its MRDS in some seed but is not significant after Holm."""

    dataset: str
    gains: list[float | None]
    mrds: float
    seeds: SeedCount
    pvalue_max: float | None


@dataclass(frozen=True)
class Extreme:
    """A rating set's mean B - A and what qualifies it (closest to its MRDS / largest)."""

    dataset: str
    gain: float
    n: int
    mrds: float | None
    pvalue_max: float | None


@dataclass(frozen=True)
class OtherDifferences:
    """The differences that are not findings (:func:`other_differences`)."""

    n_sets: int
    exceeding: list[Exceeding]
    closest_below: Extreme | None
    largest_gain: Extreme | None
    largest_loss: Extreme | None

    @property
    def any(self) -> bool:
        return bool(self.exceeding or self.closest_below or self.largest_gain
                    or self.largest_loss)  # fmt: skip


def other_differences(rec: Mapping[str, Any]) -> OtherDifferences:
    """Rule: among the rating sets that are not findings (:func:`wordsim_findings`), those whose
    |B - A| exceeds the one-sided MRDS in at least one seed are listed with that seed count and
    their largest uncorrected p (they are *not* significant after Holm); of those that exceed
    it in no seed, the one with the largest |mean gain| / mean MRDS is "closest to its MRDS";
    the largest positive and most negative mean gains not already named are quoted with their
    largest uncorrected p."""
    summary = _summary(rec)
    seeds = _seeds(rec)
    found = {f.dataset for f in wordsim_findings(rec)}
    rest = summary.drop(index=[d for d in summary.index if d in found])

    def extreme(d: Any) -> Extreme:
        return Extreme(str(d), as_float(rest.at[d, "gain"]), int(as_float(rest.at[d, "n"])),
                       finite(rest.at[d, "mrds"]), finite(rest.at[d, "pvalue_max"]))  # fmt: skip

    exceeding, named = [], set()
    for d in rest.index[rest["seeds_exceeding_mrds"] > 0]:
        named.add(d)
        exceeding.append(Exceeding(
            str(d), _column(rec, d, "difference"), as_float(rest.at[d, "mrds"]),
            SeedCount(int(as_float(rest.at[d, "seeds_exceeding_mrds"])), len(seeds)),
            finite(rest.at[d, "pvalue_max"]),
        ))  # fmt: skip
    closest = None
    below = rest[rest["seeds_exceeding_mrds"] == 0]
    if len(below):
        d = (below["gain"].abs() / below["mrds"]).idxmax()
        named.add(d)
        closest = extreme(d)
    largest_gain = largest_loss = None
    if len(rest):
        up, down = rest["gain"].idxmax(), rest["gain"].idxmin()
        if as_float(rest.at[up, "gain"]) > 0 and up not in named:
            largest_gain = extreme(up)
        if as_float(rest.at[down, "gain"]) < 0 and down not in named:
            largest_loss = extreme(down)
    return OtherDifferences(len(summary), exceeding, closest, largest_gain, largest_loss)


@dataclass(frozen=True)
class MenTests:
    """The ten dependent-correlation tests on MEN, first seed (:func:`men_tests`)."""

    n: int
    agree: bool
    p_min: float
    p_max: float


def men_tests(rec: Mapping[str, Any]) -> MenTests | None:
    """Rule: the tests that give a p-value "agree" when all of them are below 5 % or all at or
    above it (they answer one question, so no correction applies). None without the table or
    a p-value."""
    if "men_all_tests" not in rec:
        return None
    p = records_frame(rec["men_all_tests"])["pvalue"].dropna().astype(float)
    if not len(p):
        return None
    agree = bool((p < ALPHA).all() or (p >= ALPHA).all())
    return MenTests(len(p), agree, float(p.min()), float(p.max()))


@dataclass(frozen=True)
class BootstrapWidth:
    """The per-system bootstrap intervals on MEN against the paired test's MRDS."""

    half_width: float
    mrds: float
    verdict: Literal["much wider than", "about as wide as", "narrower than"]


def bootstrap_width(rec: Mapping[str, Any]) -> BootstrapWidth | None:
    """Rule: the mean half-width of the systems' 95 % bootstrap intervals on MEN is "much wider
    than" the first seed's MEN MRDS above 1.5 times it, "narrower than" below it divided by
    1.5, else "about as wide as" (a comparison of two exact widths, no test). None without
    the bootstrap or MEN."""
    boot = rec.get("men_bootstrap") or {}
    first = _per_seed(rec)[_seeds(rec)[0]]
    if not boot or "MEN" not in first.index:
        return None
    half = float(np.mean([(float(v["high"]) - float(v["low"])) / 2 for v in boot.values()]))
    mrds = as_float(first.loc["MEN", "mrds"])
    verdict: Literal["much wider than", "about as wide as", "narrower than"] = (
        "much wider than" if half > 1.5 * mrds
        else "narrower than" if half < mrds / 1.5
        else "about as wide as"
    )  # fmt: skip
    return BootstrapWidth(half, mrds, verdict)


@dataclass(frozen=True)
class AnalogyFacts:
    """B against A on the analogies (:func:`analogy_facts`)."""

    accuracy_low: float
    accuracy_high: float
    differences: list[float]
    pvalues: list[float]
    #: seeds in which the exact McNemar p (one test per seed, no correction) is below 5 %
    significant: SeedCount
    verdict: Literal["better", "worse", "no detectable difference", "not consistent across seeds"]
    prob_low: float
    prob_high: float
    #: the first seed's accuracy MRDS (fraction)
    mrds: float
    exceeds_mrds: SeedCount
    #: seeds in which the OPCA-style procedure separates a superior subset
    separated: SeedCount
    first_members: list[str] | None
    n_pairs: int
    paper_syn: float
    paper_sem: float
    far_below_paper: bool

    @property
    def magnitudes(self) -> list[float]:
        """|B - A| per seed (quoted with "better" / "worse")."""
        return [abs(d) for d in self.differences]


def analogy_facts(rec: Mapping[str, Any], paper: tuple[float, float] | None = None) -> AnalogyFacts:
    """Rule: B is "better" / "worse" than A on the analogies only when the exact McNemar test
    (one test per seed, so no correction) is significant at 5 % in every seed and the mean
    difference is at least the mean accuracy MRDS (:func:`workbench.studies.facts.direction`);
    "no detectable difference" when it is significant in no seed (or inside the MRDS); "not
    consistent across seeds" when it is significant in some seeds only. The OPCA-style superior
    set is counted per seed (Bonferroni over the m(m-1)/2 pairs). Absolute accuracies are "far
    below the paper's" when the best is under half the lower of the paper's MVLSA AN-SYN and
    AN-SEM accuracies (``paper``: those two, in %; default :mod:`workbench.reported`)."""
    seeds = _seeds(rec)
    accs = {str(s): v for s, v in rec["analogy_accuracy_by_seed"].items()}
    comp = {str(s): v for s, v in rec["analogy_comparison_by_seed"].items()}
    sup = {str(s): v for s, v in rec["superior_set_by_seed"].items()}
    mean_acc = [float(np.mean([float(accs[s][k]) for s in seeds])) for k in accs[seeds[0]]]
    diffs = [float(comp[s]["difference"]) for s in seeds]
    pvalues = [float(comp[s]["mcnemar_pvalue"]) for s in seeds]
    sig = seed_count([significant(p) for p in pvalues])
    probs = [float(comp[s]["prob_b_better"]) for s in seeds]
    mrds = float(np.mean([float(comp[s]["mrds"]) for s in seeds]))
    verdict: Literal["better", "worse", "no detectable difference", "not consistent across seeds"]
    if sig.some and not sig.every:
        verdict = "not consistent across seeds"
    else:
        word = direction(float(np.mean(diffs)), is_significant=sig.every, mrds=mrds)
        verdict = {"higher": "better", "lower": "worse"}.get(word, "no detectable difference")  # type: ignore[assignment]
    if paper is None:
        t9 = reported("mvlsa", "table9").table
        paper = (as_float(t9.loc["AN-SYN", "MVLSA All Views"]),
                 as_float(t9.loc["AN-SEM", "MVLSA All Views"]))  # fmt: skip
    m = len(accs[seeds[0]])
    return AnalogyFacts(
        accuracy_low=min(mean_acc),
        accuracy_high=max(mean_acc),
        differences=diffs,
        pvalues=pvalues,
        significant=sig,
        verdict=verdict,
        prob_low=min(probs),
        prob_high=max(probs),
        mrds=float(comp[seeds[0]]["mrds"]),
        exceeds_mrds=seed_count([bool(comp[s]["exceeds_mrds"]) for s in seeds]),
        separated=seed_count([bool(sup[s]["separated"]) for s in seeds]),
        first_members=list(sup[seeds[0]]["members"]) if sup[seeds[0]]["separated"] else None,
        n_pairs=m * (m - 1) // 2,
        paper_syn=paper[0],
        paper_sem=paper[1],
        far_below_paper=100 * max(mean_acc) < 0.5 * min(paper),
    )


# --------------------------------------------------------------------------- gathered


@dataclass(frozen=True)
class Facts01:
    """The facts of notebook 01's Discussion (:func:`facts_01`)."""

    table2: Table2Facts
    accuracy: AccuracyRows
    mrds: MrdsScaling
    n_seeds: int
    n_sets: int
    findings: list[WordsimFinding]
    others: OtherDifferences
    men_tests: MenTests | None
    bootstrap: BootstrapWidth | None
    #: largest sd over seeds of B - A (fraction) and its set; None for one seed
    gain_sd_max: float | None
    gain_sd_set: str | None
    analogies: AnalogyFacts | None
    data: DataFact | None = None


def facts_01(rec: Mapping[str, Any], *, paper: tuple[float, float] | None = None) -> Facts01:
    """Every fact of notebook 01's Discussion from its records."""
    summary = _summary(rec)
    n_seeds = len(_seeds(rec))
    findings = wordsim_findings(rec)
    sd_max = sd_set = None
    if n_seeds > 1:
        sd = summary["gain_sd"].astype(float)
        sd_max, sd_set = float(sd.max()), str(sd.idxmax())
    return Facts01(
        table2=table2_facts(rec),
        accuracy=accuracy_rows(rec),
        mrds=mrds_scaling(rec),
        n_seeds=n_seeds,
        n_sets=len(summary),
        findings=findings,
        others=other_differences(rec),
        men_tests=men_tests(rec) if any(f.dataset == "MEN" for f in findings) else None,
        bootstrap=bootstrap_width(rec),
        gain_sd_max=sd_max,
        gain_sd_set=sd_set,
        analogies=analogy_facts(rec, paper) if rec["analogy_accuracy_by_seed"] else None,
        data=data_fact(rec),
    )


_NEEDED = ("table2_reproduced", "table2_max_abs_diff", "table2_n_cells", "table2_worst_cell",
           "table2_variant_max_error", "footnote4_toefl_sigma_005", "mrds_n_slope",
           "mrds_r_ratio", "seeds", "system_a", "system_b", "wordsim_comparison_by_seed",
           "wordsim_comparison_seeds", "analogy_accuracy_by_seed",
           "analogy_comparison_by_seed", "superior_set_by_seed")  # fmt: skip


def discussion_01(rec: Mapping[str, Any], *, paper: Sequence[float] | None = None) -> Markdown:
    """The Discussion of notebook 01, rendered from its records by
    ``templates/discussion_01.md.j2``.

    Parameters
    ----------
    rec : mapping
        The run's records (:meth:`SignificanceResult.records`).
    paper : (float, float), optional
        The paper's MVLSA accuracies on AN-SYN and AN-SEM in % (default: Table 9 of
        :mod:`workbench.reported`).

    Returns
    -------
    IPython.display.Markdown
    """
    check_records(rec, _NEEDED, notebook="01")
    facts = facts_01(rec, paper=None if paper is None else (float(paper[0]), float(paper[1])))
    coverage = rec.get("coverage_pairs") or {}
    return templating.render(TEMPLATES, "discussion_01.md.j2", r=rec, facts=facts,
                             rw=coverage.get("RW"))  # fmt: skip
