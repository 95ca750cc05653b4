"""Widgets of the significance notebook (only used under ``if INTERACTIVE:``).

Correlations and their differences are shown in points (Spearman's rho x 100, one decimal),
p-values as :func:`workbench.templating.pvalue` writes them.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets as widgets
import pandas as pd

from workbench.evaluation import WordSimResult
from workbench.explore._output import (
    append_table,
    clamp_note,
    describe,
    output_area,
    show_message,
)
from workbench.significance import (
    DEPENDENT_CORR_METHODS,
    compare_wordsim,
    dependent_corr_table,
    mrds_accuracy,
    mrds_correlation,
)
from workbench.templating import dpts, pts, pvalue
from workbench.viz.significance import dependent_tests_frame, mrds_text

__all__ = [
    "MAX_N",
    "MIN_N",
    "P0_CHOICES",
    "comparison_explorer",
    "mrds_calculator",
]

#: Thresholds p₀ offered by the sliders (the conventional 0.05 and 0.01 among them).
P0_CHOICES = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1)

#: Smallest and largest number of items the MRDS calculator computes for.
MIN_N, MAX_N = 5, 10_000_000

_ALTERNATIVE_TIP = (
    "greater: one-sided, is B better than A? (the paper's MRDS); "
    "two-sided: is there any difference?"
)


def _p0_slider(value: float) -> widgets.SelectionSlider:
    """A slider over :data:`P0_CHOICES` (plus ``value``) that lands exactly on each threshold."""
    choices = sorted({*P0_CHOICES, float(value)})
    slider = widgets.SelectionSlider(options=[(f"{p:g}", p) for p in choices], value=float(value),
                                     continuous_update=False)  # fmt: skip
    return describe(
        slider, "threshold p₀", "a difference is significant when its p-value is below p₀"
    )


def mrds_calculator(*, n: int = 353, r_ab: float = 0.9, p0: float = 0.05) -> widgets.VBox:
    """An MRDS calculator: number of items, inter-system correlation, threshold, test.

    Shows the correlation MRDS (:func:`workbench.significance.mrds_correlation`) and the
    accuracy MRDS (:func:`workbench.significance.mrds_accuracy`) for the same ``n``, both in
    points. An ``n`` outside [:data:`MIN_N`, :data:`MAX_N`] is limited to that range, and the
    result says so.

    Returns
    -------
    ipywidgets.VBox
    """
    w_n = describe(widgets.IntText(value=n), "items n",
                   f"number of rated pairs (or test items), {MIN_N:,} to {MAX_N:,}")  # fmt: skip
    w_r = describe(
        widgets.FloatSlider(value=r_ab, min=0.0, max=0.99, step=0.01, continuous_update=False),
        "r_AB (upper bound)",
        "assumed largest correlation between the two systems' scores (the paper uses 0.5, 0.7, 0.9)",
    )
    w_p = _p0_slider(p0)
    methods = ["williams1959", "mvlsa2015"] + [
        m for m in DEPENDENT_CORR_METHODS if m not in ("williams1959", "zou2007")
    ]
    w_m = describe(widgets.Dropdown(options=methods, value="williams1959"), "test",
                   "dependent-correlation test; mvlsa2015 = Williams' t with df = n − 2, "
                   "as in the authors' script")  # fmt: skip
    w_alt = describe(widgets.ToggleButtons(options=["greater", "two-sided"], value="greater"),
                     "alternative", _ALTERNATIVE_TIP)  # fmt: skip
    w_alt.tooltips = ["one-sided: B better than A", "either direction"]
    out = widgets.HTML()

    def update(*_: object) -> None:
        notes = []
        n_used = min(max(w_n.value, MIN_N), MAX_N)
        if w_n.value > MAX_N:
            notes.append(clamp_note("n", w_n.value, MAX_N, "the calculator's largest n"))
        elif w_n.value < MIN_N:
            notes.append(
                f"n = {w_n.value} is less than allowed (the tests need at least {MIN_N} items); "
                f"showing n = {MIN_N}."
            )
        try:
            s = mrds_correlation(
                n_used, w_r.value, w_p.value, method=w_m.value, alternative=w_alt.value
            )
            a = mrds_accuracy(n_used, w_p.value)
        except ValueError as err:
            out.value = f"<span style='color:red'>{html.escape(str(err))}</span>"
            return
        parts = [f"<i>{html.escape(note)}</i><br>" for note in notes]
        parts.append(
            f"n = {n_used:,}, r_AB ≤ {pts(w_r.value)} points, p₀ = {w_p.value:g}:<br>"
            f"<b>correlation MRDS</b> σ = {mrds_text(s)} &nbsp; "
            f"<b>accuracy MRDS</b> (Beta(1, 1) prior) = {mrds_text(a)}"
        )
        out.value = "".join(parts)

    for w in (w_n, w_r, w_p, w_m, w_alt):
        w.observe(update, names="value")
    update()
    return widgets.VBox([w_n, w_r, w_p, w_m, w_alt, out])


def comparison_explorer(
    suite_a: pd.DataFrame | Mapping[str, WordSimResult],
    suite_b: pd.DataFrame | Mapping[str, WordSimResult],
    *,
    labels: tuple[str, str] = ("A", "B"),
) -> widgets.VBox:
    """Pick a rating set and a test: both systems' correlations, all ten tests and the MRDS.

    ``suite_a`` / ``suite_b`` are :func:`workbench.evaluation.wordsim_suite` DataFrames (their
    ``attrs["results"]``) or dicts name -> WordSimResult. Correlations are shown in points.

    Returns
    -------
    ipywidgets.VBox
    """
    ra = suite_a.attrs["results"] if hasattr(suite_a, "attrs") else dict(suite_a)
    rb = suite_b.attrs["results"] if hasattr(suite_b, "attrs") else dict(suite_b)
    names = [k for k in ra if k in rb]
    w_ds = describe(widgets.Dropdown(options=names), "rating set",
                    "the rating set both systems are compared on")  # fmt: skip
    w_alt = describe(
        widgets.ToggleButtons(options=["two-sided", "greater", "less"], value="two-sided"),
        "alternative",
        f"two-sided: any difference; greater: {labels[1]} better than {labels[0]}; "
        f"less: {labels[1]} worse",
    )
    w_alt.tooltips = ["any difference", f"{labels[1]} better", f"{labels[1]} worse"]
    w_p = _p0_slider(0.05)
    out = output_area()

    def update(*_: object) -> None:
        # kernel-side output (see workbench.explore._output)
        if w_ds.value is None:
            show_message(out, "the two systems share no rating set")
            return
        out.outputs = ()
        try:
            c = compare_wordsim(
                ra[w_ds.value], rb[w_ds.value], alternative=w_alt.value, p0=w_p.value
            )
        except ValueError as err:
            out.append_stdout(f"{err}\n")
            return
        verdict = "exceeded" if c.exceeds_mrds else "not exceeded"
        out.append_stdout(
            f"{labels[0]}: Spearman {pts(c.r_a)} points; {labels[1]}: {pts(c.r_b)} points; "
            f"r_AB (between the systems) {pts(c.r_ab)} points; n = {c.n:,} pairs\n"
            f"difference {labels[1]} − {labels[0]}: {dpts(c.difference)} points; "
            f"Williams' t ({c.alternative}) p = {pvalue(c.pvalue)}; "
            f"MRDS at the observed r_AB and p₀ = {w_p.value:g}: {mrds_text(c.mrds)} ({verdict})\n"
        )
        if c.r_ab < 1:
            tests = dependent_corr_table(c.r_b, c.r_a, c.r_ab, c.n, alternative=w_alt.value)
            append_table(
                out,
                dependent_tests_frame(tests),
                caption=f"All ten tests of r({labels[1]}, gold) against r({labels[0]}, gold)",
                index=False,
            )

    for w in (w_ds, w_alt, w_p):
        w.observe(update, names="value")
    update()
    return widgets.VBox([widgets.HBox([w_ds, w_p]), w_alt, out])
