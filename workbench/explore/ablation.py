"""Widget of the view-ablation notebook 04 (only used under ``if INTERACTIVE:``).

:func:`ablation_explorer` lets a reader choose a removal (a view family, the paper's
combinations or a single view) and a test set, and see the drop of MVLSA without those views
against "All views" in every seed: both scores, the drop, its p-value before and after the Holm
correction over the seed's whole table, and whether it is significant. The widget-free part is
:func:`ablation_detail`; nothing is refitted (the numbers are those of the notebook's tables).
"""

from __future__ import annotations

import math

import ipywidgets as widgets
import pandas as pd

from workbench.explore._output import (
    append_table,
    append_text,
    default_test_set,
    describe,
    output_area,
    show_message,
)
from workbench.studies.mvlsa import AblationSeeds
from workbench.templating import dpts, pts, pvalue

__all__ = ["ablation_detail", "ablation_explorer", "readable_detail"]


def _points(value: float, *, signed: bool = False) -> str:
    """A value already in points, one decimal (signed for a difference); "n/a" if not finite."""
    return "n/a" if not math.isfinite(value) else f"{value:{'+' if signed else ''}.1f}"


def ablation_detail(
    ablation: AblationSeeds, removal: str, test_set: str
) -> tuple[str, pd.DataFrame]:
    """The drop of one removal on one test set, over the seeds.

    Parameters
    ----------
    ablation : AblationSeeds
        From :func:`workbench.studies.mvlsa.ablation_seeds`.
    removal : str
        A row of ``ablation.drops.mean`` (e.g. ``"!dependency"``).
    test_set : str
        A column of it (a rating set, ``"AN-SYN"`` or ``"AN-SEM"``).

    Returns
    -------
    (str, DataFrame)
        A one-line summary (mean ± sd drop in points, in how many seeds it is significant after
        Holm and in which direction) and one row per seed: the scores of "All views" and of the
        ablated system (points), the drop over the items both score (points), the uncorrected and
        Holm-corrected p-values and ``significant``.

    Raises
    ------
    KeyError
        For an unknown removal or test set (naming the available ones).
    """
    drops = ablation.drops.mean
    if removal not in drops.index:
        raise KeyError(f"unknown removal {removal!r}; available: {list(drops.index)}")
    if test_set not in drops.columns:
        raise KeyError(f"unknown test set {test_set!r}; available: {list(drops.columns)}")
    rows = {}
    removed: tuple[str, ...] = ()
    for seed, res in ablation.per_seed.items():
        removed = tuple(res.removals.get(removal, ()))
        rows[seed] = {
            "All views": 100 * float(res.scores.loc[test_set, "All views"]),  # type: ignore[arg-type]
            f"without ({removal})": 100 * float(res.scores.loc[test_set, removal]),  # type: ignore[arg-type]
            "drop (points)": 100 * float(res.drops.loc[removal, test_set]),  # type: ignore[arg-type]
            "p": float(res.pvalues.loc[removal, test_set]),  # type: ignore[arg-type]
            "p (Holm)": float(res.pvalues_corrected.loc[removal, test_set]),  # type: ignore[arg-type]
            "significant": bool(res.significant.loc[removal, test_set]),
        }
    table = pd.DataFrame.from_dict(rows, orient="index").rename_axis("seed")
    mean = float(drops.loc[removal, test_set])  # type: ignore[arg-type]
    sd = float(ablation.drops.sd.loc[removal, test_set])  # type: ignore[arg-type]
    n = int(ablation.n_seeds)
    helped = int(float(ablation.helped.loc[removal, test_set]))  # type: ignore[arg-type]
    hurt = int(float(ablation.hurt.loc[removal, test_set]))  # type: ignore[arg-type]
    what = f"{removal} (removes {', '.join(removed)})" if removed else removal
    if not math.isfinite(mean):
        return f"{what} on {test_set}: no comparison (no item scored by both systems)", table
    spread = f" ± {pts(sd)}" if n > 1 and math.isfinite(sd) else ""
    if helped or hurt:
        parts = []
        if helped:
            parts.append(f"the removed views helped in {helped} of {n} seed(s)")
        if hurt:
            parts.append(f"they hurt in {hurt} of {n} seed(s)")
        verdict = "significant after Holm: " + "; ".join(parts)
    else:
        verdict = f"not significant after Holm in any of {n} seed(s)"
    return f"{what} on {test_set}: drop {dpts(mean)}{spread} points; {verdict}", table


def readable_detail(table: pd.DataFrame) -> pd.DataFrame:
    """The per-seed table of :func:`ablation_detail` formatted for reading: scores and drops in
    points with one decimal (drops signed), p-values as :func:`workbench.templating.pvalue`
    writes them, ``significant`` as yes / no."""
    out = pd.DataFrame(index=table.index)
    for col in table.columns:
        values = table[col]
        if col == "significant":
            out[col] = ["yes" if v else "no" for v in values]
        elif col.startswith("p"):
            out[col] = [pvalue(v) for v in values]
        else:
            signed = col.startswith("drop")
            out[col] = [_points(float(v), signed=signed) for v in values]
    return out


def ablation_explorer(
    ablation: AblationSeeds, *, removal: str | None = None, test_set: str | None = None
) -> widgets.VBox:
    """Choose a removal and a test set; see the drop and its significance in every seed.

    Parameters
    ----------
    ablation : AblationSeeds
        From :func:`workbench.studies.mvlsa.ablation_seeds`.
    removal, test_set : str, optional
        Initial choices (default: the first removal, and MEN when present, else the first test
        set).

    Returns
    -------
    ipywidgets.VBox
    """
    removals = list(ablation.drops.mean.index)
    test_sets = list(ablation.drops.mean.columns)
    if not removals or not test_sets:
        raise ValueError("the ablation has no removal or no test set")
    first = next(iter(ablation.per_seed.values()))
    labels = [(f"{r} ({', '.join(first.removals.get(r, ()))})" if first.removals.get(r) else r, r)
              for r in removals]  # fmt: skip
    if removal is None or removal not in removals:
        removal = removals[0]
    test_set = default_test_set(test_sets, test_set)
    w_rem = describe(
        widgets.Dropdown(options=labels, value=removal, layout=widgets.Layout(width="auto")),
        "views removed",
        "the removal: a view family (!family), the paper's combinations or one single view; "
        "the views it takes out are in brackets",
    )
    w_set = describe(
        widgets.Dropdown(options=test_sets, value=test_set), "test set",
        "the rating set (test half; Spearman ρ × 100) or analogy set (AN-SYN / AN-SEM; "
        "accuracy × 100) the drop is measured on",
    )  # fmt: skip
    out = output_area()

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if w_rem.value is None or w_set.value is None:
            show_message(out, "choose a removal and a test set")
            return
        try:
            text, table = ablation_detail(ablation, w_rem.value, w_set.value)
        except KeyError as exc:
            show_message(out, str(exc.args[0]))
            return
        out.outputs = ()
        append_text(out, text)
        append_table(out, readable_detail(table),
                     caption="per seed: scores and drop in points (ρ or accuracy × 100); "
                     "p two-sided, Holm over every cell of the seed's table")  # fmt: skip

    w_rem.observe(show, names="value")
    w_set.observe(show, names="value")
    show()
    return widgets.VBox([widgets.HBox([w_rem, w_set]), out])
