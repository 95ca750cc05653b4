"""The significance study (notebook ``01_significance``): settings, per-seed summary, Discussion.

The tests themselves are :mod:`workbench.significance`; this study holds :func:`settings` (the
corpus, vocabulary and LSA dimension of the notebook's systems at a data size),
:func:`comparison_over_seeds` (one row per rating set summarising the per-seed comparisons) and
:func:`discussion_01`, the Discussion rendered from a run's records. Every number in the text is
read from the records the notebook wrote in the same run
(:func:`workbench.records.recorded`) or from the paper's published values kept as data
(:data:`workbench.significance.MVLSA_TABLE2`, :mod:`workbench.reported`), and every qualitative
word ("reproduces", "significant", "worse") is chosen by comparing those numbers, so a re-run
with other data, parameters or seeds cannot contradict its own text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench._validation import check_choice, check_int
from workbench.reported import reported
from workbench.significance import MVLSA_FOOTNOTE4_TOEFL, MVLSA_TABLE2

from ._text import as_float, escape, join_and, mean_sd

__all__ = [
    "SIZES",
    "SignificanceSettings",
    "settings",
    "comparison_over_seeds",
    "discussion_01",
    "records_frame",
]

#: The data sizes of notebook 01.
SIZES = ("small", "full")


@dataclass(frozen=True)
class SignificanceSettings:
    """What notebook 01 computes at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments for the LSA systems of section 3.
    vocab_size, min_count : int
        Their vocabulary (:meth:`workbench.views.Vocabulary.from_corpus`).
    n_components : int
        Dimension of the LSA systems.
    mrds_ns : tuple of int or None
        Rating-set sizes of the MRDS curves (None: the ten sets of the paper's Table 2).
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    min_count: int
    n_components: int
    mrds_ns: tuple[int, ...] | None


def settings(size: str, *, n_components: int = 100) -> SignificanceSettings:
    """The settings of notebook 01 at ``size``: ``"small"`` (200K tokens of the 1M corpus, 5,000
    words, 50-d LSA, MRDS curves at n = 30, 300, 3000) or ``"full"`` (the whole 1M-token corpus,
    20,000 words, ``n_components``-d LSA -- the notebook's ``N_COMPONENTS`` -- and the MRDS
    curves of the paper's rating sets)."""
    check_choice(size, "size", SIZES)
    n_components = check_int(n_components, "n_components", low=1)
    if size == "full":
        return SignificanceSettings(size, corpus="1M", max_tokens=None, vocab_size=20_000,
                                    min_count=3, n_components=n_components,
                                    mrds_ns=None)  # fmt: skip
    return SignificanceSettings(size, corpus="1M", max_tokens=200_000, vocab_size=5_000,
                                min_count=3, n_components=50, mrds_ns=(30, 300, 3000))  # fmt: skip


_ACCURACY_ROWS = ("AN-SYN", "AN-SEM", "TOEFL")


def records_frame(obj: object) -> pd.DataFrame:
    """A DataFrame from its recorded JSON form (``{"__type__": "DataFrame", ...}``, see
    :func:`workbench.records.to_jsonable`); a DataFrame is returned as is."""
    if isinstance(obj, pd.DataFrame):
        return obj
    if not isinstance(obj, Mapping) or obj.get("__type__") != "DataFrame":
        raise TypeError(f"expected a recorded DataFrame, got {type(obj).__name__}")
    return pd.DataFrame(obj["data"], index=obj["index"], columns=obj["columns"])


def comparison_over_seeds(
    comparisons: Mapping[int, pd.DataFrame] | Mapping[str, pd.DataFrame],
) -> pd.DataFrame:
    """One row per rating set summarising per-seed comparisons of the same two systems.

    Parameters
    ----------
    comparisons : mapping
        ``{seed: table}`` of :func:`workbench.significance.compare_wordsim_suite` outputs
        (``dataset`` as a column or as the index).

    Returns
    -------
    DataFrame
        Indexed by data set, in the order of the first table: ``n`` (scored pairs), ``r_ab``
        (mean inter-system Spearman), ``gain`` and ``gain_sd`` (mean and sample standard
        deviation over seeds of B's minus A's Spearman; sd NaN for one seed), ``mrds`` (mean
        MRDS at the observed ``r_ab``), ``pvalue_max`` and ``pvalue_adjusted_max`` (largest
        uncorrected and corrected p over seeds), ``seeds_significant`` and
        ``seeds_exceeding_mrds`` (for how many seeds the gain is significant after the
        correction / larger than the MRDS) and ``n_seeds``.
    """
    if not isinstance(comparisons, Mapping) or not comparisons:
        raise ValueError("comparisons must be a non-empty mapping {seed: comparison table}")
    tables = {}
    for seed, table in comparisons.items():
        t = records_frame(table)
        if "dataset" in t.columns:
            t = t.set_index("dataset")
        missing = {"n", "r_ab", "difference", "pvalue", "pvalue_adjusted", "mrds",
                   "exceeds_mrds", "significant"} - set(t.columns)  # fmt: skip
        if missing:
            raise ValueError(f"comparison of seed {seed!r} lacks columns {sorted(missing)}")
        tables[seed] = t
    stacked = pd.concat(tables, names=["seed", "dataset"])
    g = stacked.groupby(level="dataset", sort=False)
    out = pd.DataFrame(
        {
            "n": g["n"].max().astype(int),
            "r_ab": g["r_ab"].mean(),
            "gain": g["difference"].mean(),
            "gain_sd": g["difference"].std(ddof=1),
            "mrds": g["mrds"].mean(),
            "pvalue_max": g["pvalue"].max(),
            "pvalue_adjusted_max": g["pvalue_adjusted"].max(),
            "seeds_significant": g["significant"].apply(lambda s: int(s.astype(bool).sum())),
            "seeds_exceeding_mrds": g["exceeds_mrds"].apply(lambda s: int(s.astype(bool).sum())),
            "n_seeds": g["difference"].size().astype(int),
        }
    )
    first = next(iter(tables.values())).index
    out = out.loc[[d for d in first if d in out.index] + [d for d in out.index if d not in first]]
    out.index.name = "dataset"
    return out


# --------------------------------------------------------------------------- formatting


def _num(v: object, spec: str) -> str:
    """A recorded number in ``spec`` (``"n/a"`` for None or a non-finite float)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return format(as_float(v), spec)


def _p(v: object) -> str:
    """A recorded p-value (``"n/a"`` for None or a non-finite float)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return "< 0.001" if as_float(v) < 0.001 else f"{as_float(v):.3f}"


def _holds(k: int, n: int, yes: str, no: str) -> str:
    """``yes`` / ``no`` with for how many of ``n`` seeds (``k``) it holds."""
    if n == 1:
        return yes if k else no
    if k == n:
        return f"{yes} for every one of the {n} seeds"
    if k == 0:
        return f"{no} for any of the {n} seeds"
    return f"{yes} for {k} of the {n} seeds"


# --------------------------------------------------------------------------- the text


def _table2_lines(rec: Mapping[str, Any]) -> list[str]:
    lines = []
    worst = rec["table2_worst_cell"]
    err = rec["table2_variant_max_error"]
    max_diff = float(rec["table2_max_abs_diff"])
    n_cells = int(rec["table2_n_cells"])
    within = "within the rounding of the printed values" if max_diff <= 0.05 else (
        "slightly more than the rounding of the printed values" if max_diff <= 0.15 else
        "not within the rounding of the printed values")  # fmt: skip
    one = err.get("williams1959, one-sided", float("nan"))
    two = err.get("williams1959, two-sided", float("nan"))
    z = err.get("steiger1980 z, one-sided", float("nan"))
    hot = err.get("hotelling1940, one-sided", float("nan"))
    script = err.get("mvlsa2015 (script, df=n-2), one-sided", float("nan"))
    best = min(err, key=lambda k: err[k])
    head = "Table 2 reproduces" if max_diff <= 0.15 else "Table 2 does not fully reproduce"
    text = (
        f"* **{head}.** Every one of the {n_cells} published cells is matched within "
        f"{max_diff:.2f} points, {within} (the largest gap, {worst['difference']:+.2f}, is at "
        f"{worst['dataset']}, n = {int(worst['n']):,}, column `{worst['column']}`). "
    )
    if z > 2 * one and z > 0.15:
        text += (f"The paper says \"Steiger's test\", but cocor's `steiger1980` z-test does *not* "
                 f"reproduce the table (errors up to {z:.2f} points)")  # fmt: skip
    else:
        text += f"cocor's `steiger1980` z-test reproduces it about as well ({z:.2f} points)"
    if two > 1:
        text += f", and a two-sided test is off by up to {two:.1f} points"
    text += f". A one-sided Williams' t matches within {one:.2f} points"
    if abs(hot - one) < 0.05:
        text += f" (Hotelling's t is practically identical at these inputs, {hot:.2f})"
    if np.isfinite(script):
        text += (f", and the authors' script (df = n − 2, `mvlsa2015`) within {script:.2f}"
                 + (", the closest of the variants" if best.startswith("mvlsa2015") else ""))  # fmt: skip
    if one <= 0.15 and two > 1 and z > one:
        text += (": the table is a **one-sided Williams' t** (the test Steiger 1980 recommends), "
                 "not Steiger's z")  # fmt: skip
    elif best != "williams1959, one-sided":
        text += f"; the closest variant is {best} ({err[best]:.2f} points)"
    lines.append(text + ".")
    # accuracy rows
    table = records_frame(rec["table2_reproduced"])
    acc = [r for r in _ACCURACY_ROWS if r in table.index]
    diffs = {
        r: abs(as_float(table.loc[r, "p0.05_r0.9"]) - as_float(MVLSA_TABLE2.loc[r, "p0.05_r0.9"]))
        for r in acc
    }
    exact = [r for r, d in diffs.items() if d < 0.005]
    close = [f"{r} within {d:.2f}" for r, d in diffs.items() if d >= 0.005]
    ours4 = float(rec["footnote4_toefl_sigma_005"])
    same4 = abs(ours4 - MVLSA_FOOTNOTE4_TOEFL) < 0.005
    forall = rec.get("accuracy_mrds_forall", {})
    ratio = [float(forall[r]) / as_float(table.loc[r, "p0.05_r0.9"]) for r in acc if r in forall]
    text = (
        "* **The accuracy rows come from the authors' script, not from the definition in the "
        "text.** The script stops at the first significant baseline accuracy between 0.90 and 0.75 "
        "with rounded counts; reproducing it gives "
        + join_and(close + ([f"{join_and(exact)} exactly"] if exact else []))
        + f" (σ at p₀ = 5 %, in points), and footnote 4's β(½, ½) value for TOEFL comes out as "
        f"{ours4:.2f} (paper {MVLSA_FOOTNOTE4_TOEFL:.2f}{', the same' if same4 else ''})."
    )
    if ratio:
        size = "much larger" if min(ratio) > 1.3 else "larger" if min(ratio) > 1.02 else "the same"
        text += (
            " The literal definition, significant *for all* baseline accuracies θ up to 0.9, "
            f"gives {size} thresholds: "
            + join_and([f"{r} {float(forall[r]):.2f}" for r in acc if r in forall])
            + " (the posterior is widest for θ̂_A near ½)."
        )
    lines.append(text)
    slope = float(rec["mrds_n_slope"])
    r_ratio = float(rec["mrds_r_ratio"])
    like = "like 1/√n" if abs(slope + 0.5) < 0.05 else f"like n^{slope:.2f}"
    lines.append(
        f"* **MRDS scales {like}** (fitted exponent {slope:.3f} over the ten rating sets at "
        f"r = 0.9, p₀ = 5 %) and shrinks as the two systems agree more: at r_AB = 0.9 it is "
        f"{100 * r_ratio:.0f} % of its value at r_AB = 0.5. The paper's choice r = 0.9 is therefore "
        "optimistic for systems that are genuinely different."
    )
    return lines


def _systems_lines(rec: Mapping[str, Any]) -> list[str]:
    seeds = [str(s) for s in rec["seeds"]]
    n_seeds = len(seeds)
    a, b = rec["system_a"], rec["system_b"]
    summary = records_frame(rec["wordsim_comparison_seeds"])
    if "dataset" in summary.columns:
        summary = summary.set_index("dataset")
    per_seed: dict[str, pd.DataFrame] = {str(s): records_frame(t).set_index("dataset")
                for s, t in rec["wordsim_comparison_by_seed"].items()}  # fmt: skip
    first = per_seed[seeds[0]]
    seed_note = (
        f"over {n_seeds} seeds of the randomized SVD, mean ± sd"
        if n_seeds > 1
        else "one seed of the randomized SVD: with `SEEDS = 1` this run does not test whether "
        "a finding replicates across seeds"
    )
    n_sets = len(summary)
    significant = [d for d in summary.index if summary.loc[d, "seeds_significant"] > 0]
    text = f"* **Two real systems** ({a} as A, {b} as B; {seed_note}). "
    parts = []
    for d in significant:
        gains = _per_seed(per_seed, seeds, d, "difference")
        t_mean = float(np.mean(_per_seed(per_seed, seeds, d, "statistic")))
        k = int(summary.loc[d, "seeds_significant"])
        parts.append(
            f"on {d}: B's Spearman is {mean_sd(gains, sign=True).lstrip('+-')} points "
            f"{'higher' if np.mean(gains) > 0 else 'lower'} (n = {int(summary.loc[d, 'n']):,} "
            f"scored pairs, r_AB = {summary.loc[d, 'r_ab']:.2f}, Williams' t = {t_mean:.1f}), "
            + _holds(k, n_seeds, "significant after the Holm correction", "")
        )
    if parts:
        text += (
            f"Of the {n_sets} rating sets, the window changes the score significantly "
            + "; ".join(parts)
            + "."
        )
    else:
        text += (
            f"No difference on the {n_sets} rating sets is significant after the Holm correction"
            + ("" if n_seeds == 1 else f" for any of the {n_seeds} seeds")
            + "."
        )
    if "MEN" in significant and "men_all_tests" in rec:
        tests = records_frame(rec["men_all_tests"])
        p = tests["pvalue"].dropna().astype(float)
        if len(p):
            agree = bool((p < 0.05).all() or (p >= 0.05).all())
            span = "all p < 0.001" if p.max() < 0.001 else f"p from {_p(p.min())} to {_p(p.max())}"
            text += (
                f" On MEN the {len(p)} dependent-correlation tests that give a p-value "
                f"{'agree' if agree else 'disagree'} ({span})."
            )
    lines = [text]
    rest = summary.drop(index=significant)
    notes = []
    mentioned = set()
    for d in rest.index[rest["seeds_exceeding_mrds"] > 0]:
        mentioned.add(d)
        claim = f"exceeds the (one-sided, liberal) MRDS of {100 * rest.loc[d, 'mrds']:.1f} points"
        notes.append(
            f"on {d} a {mean_sd(_per_seed(per_seed, seeds, d, 'difference'), sign=True)}-point difference "
            + _holds(int(rest.loc[d, "seeds_exceeding_mrds"]), n_seeds, claim, "")
            + ", but its uncorrected two-sided p is "
            + f"{'up to ' if n_seeds > 1 else ''}{_p(rest.loc[d, 'pvalue_max'])}"
        )
    below = rest[rest["seeds_exceeding_mrds"] == 0]
    if len(below):
        closest = (below["gain"].abs() / below["mrds"]).idxmax()
        mentioned.add(closest)
        notes.append(
            f"the difference closest to its MRDS without exceeding it is {closest}'s "
            f"{100 * as_float(below.at[closest, 'gain']):+.1f} points "
            f"(MRDS {100 * as_float(below.at[closest, 'mrds']):.1f}, "
            f"n = {int(as_float(below.at[closest, 'n']))})"
        )
    if len(rest):
        up, down = rest["gain"].idxmax(), rest["gain"].idxmin()
        for d, what in ((up, "gain"), (down, "loss")):
            g = as_float(rest.at[d, "gain"])
            if (g > 0) == (what == "gain") and g != 0 and d not in mentioned:
                notes.append(
                    f"the largest {what}, {abs(100 * g):.1f} points on {d} "
                    f"(n = {int(as_float(rest.at[d, 'n']))}), has an uncorrected p of "
                    f"{'up to ' if n_seeds > 1 else ''}{_p(rest.at[d, 'pvalue_max'])}"
                )
    if notes:
        lead = "No other difference is significant" if significant else "The largest differences"
        text = f"* **{lead}**: " + "; ".join(notes) + "."
    else:
        text = "*"
    coverage = rec.get("coverage_pairs", {})
    if "RW" in coverage:
        text += (
            f" Coverage matters as much as n: with a {int(rec['vocab_size']):,}-word vocabulary "
            f"only {int(coverage['RW']['n_scored']):,} of RW's {int(coverage['RW']['n_pairs']):,} "
            "pairs are scorable."
        )
    boot = rec.get("men_bootstrap", {})
    if boot and "MEN" in first.index:
        half = float(np.mean([(v["high"] - v["low"]) / 2 for v in boot.values()]))
        mrds_men = as_float(first.loc["MEN", "mrds"])
        text += (
            f" The per-system bootstrap intervals on MEN (±{100 * half:.1f} points, 95 %) are "
            + (
                "much wider than the paired test's resolution (MRDS "
                f"{100 * mrds_men:.1f} points at the observed r_AB), which is the point of "
                "testing *dependent* correlations."
                if half > 1.5 * mrds_men
                else f"about as wide as the paired test's MRDS ({100 * mrds_men:.1f} points at "
                "the observed r_AB); the paired test gains more the higher r_AB is."
            )
        )
    if n_seeds > 1:
        sd = summary["gain_sd"].astype(float)
        text += (
            f" Between seeds the differences move by a standard deviation of at most "
            f"{100 * sd.max():.1f} points (on {sd.idxmax()})."
        )
    lines.append(text)
    return lines


def _per_seed(
    per_seed: Mapping[str, pd.DataFrame], seeds: Sequence[str], row: str, col: str
) -> list[float]:
    """``per_seed[s].loc[row, col]`` for every seed ``s``."""
    return [as_float(per_seed[s].loc[row, col]) for s in seeds]


def _analogy_lines(rec: Mapping[str, Any]) -> list[str]:
    seeds = [str(s) for s in rec["seeds"]]
    n_seeds = len(seeds)
    a, b = rec["system_a"], rec["system_b"]
    accs = {str(s): v for s, v in rec["analogy_accuracy_by_seed"].items()}
    comp = {str(s): v for s, v in rec["analogy_comparison_by_seed"].items()}
    sup = {str(s): v for s, v in rec["superior_set_by_seed"].items()}
    mean_acc = {k: float(np.mean([accs[s][k] for s in seeds])) for k in accs[seeds[0]]}
    diffs = [comp[s]["difference"] for s in seeds]
    d_mean = float(np.mean(diffs))
    pvals = [float(comp[s]["mcnemar_pvalue"]) for s in seeds]
    n_sig = sum(p < 0.05 for p in pvals)
    probs = [float(comp[s]["prob_b_better"]) for s in seeds]
    exceeds = sum(bool(comp[s]["exceeds_mrds"]) for s in seeds)
    separated = sum(bool(sup[s]["separated"]) for s in seeds)
    lo, hi = min(mean_acc.values()), max(mean_acc.values())
    p_text = _p(pvals[0]) if n_seeds == 1 else f"from {_p(min(pvals))} to {_p(max(pvals))}"
    pr_text = (f"{probs[0]:.2f}" if n_seeds == 1
               else f"{min(probs):.2f} to {max(probs):.2f}")  # fmt: skip
    mrds = 100 * float(comp[seeds[0]]["mrds"])
    text = (
        f"* **Analogies** (3CosAdd, scorable questions). Accuracies are {100 * lo:.1f}–"
        f"{100 * hi:.1f} %; {b} is {mean_sd(diffs, sign=True).lstrip('+-')} points "
        f"{'better' if d_mean > 0 else 'worse'} than {a} (exact McNemar p {p_text}, "
        + _holds(n_sig, n_seeds, "significant at 5 %", "not significant at 5 %")
        + f"; posterior P(θ_B > θ_A) {pr_text}; the difference "
        + _holds(
            exceeds,
            n_seeds,
            f"exceeds the {mrds:.1f}-point accuracy MRDS",
            f"does not exceed the {mrds:.1f}-point accuracy MRDS",
        )  # fmt: skip
        + "). The OPCA-style procedure (paired t-tests, "
        "Bonferroni) "
        + _holds(
            separated,
            n_seeds,
            "separates a significantly superior subset",
            "finds no significantly superior subset",
        )  # fmt: skip
        + (
            f" (first seed: {', '.join(sup[seeds[0]]['members'])})"
            if sup[seeds[0]]["separated"]
            else ""
        )  # fmt: skip
        + "."
    )
    try:
        t9 = reported("mvlsa", "table9").table
        paper_syn = as_float(t9.loc["AN-SYN", "MVLSA All Views"])
        paper_sem = as_float(t9.loc["AN-SEM", "MVLSA All Views"])
        paper_low = min(paper_syn, paper_sem)
    except (FileNotFoundError, KeyError, ValueError):  # pragma: no cover - data ships with us
        paper_low = float("nan")
    if 100 * hi < 0.5 * paper_low:
        text += (
            " Absolute figures are far below the paper's (its MVLSA reaches "
            f"{paper_syn:.1f} % on AN-SYN and "
            f"{paper_sem:.1f} % on AN-SEM, Table 9, from billions of "
            "tokens), so they say nothing about the paper's systems, only about how to read "
            "differences."
        )
    return [text]


def discussion_01(rec: Mapping[str, Any]) -> str:
    """The Discussion of notebook 01 from its records (see the notebook's last cell).

    Parameters
    ----------
    rec : mapping
        The run's records (:func:`workbench.records.recorded`).

    Returns
    -------
    str
        Markdown, with braces escaped for :func:`workbench.records.narrate`.
    """
    lines = _table2_lines(rec) + _systems_lines(rec) + _analogy_lines(rec)
    return escape("\n".join(lines))
