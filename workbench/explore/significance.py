"""Widgets of the significance notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping

import ipywidgets as widgets
import pandas as pd

from workbench.evaluation import WordSimResult
from workbench.explore._output import append_display, output_area, show_message
from workbench.significance import (
    DEPENDENT_CORR_METHODS,
    compare_wordsim,
    dependent_corr_table,
    mrds_accuracy,
    mrds_correlation,
)

__all__ = ["P0_CHOICES", "mrds_calculator", "comparison_explorer"]

#: Thresholds p₀ offered by the sliders (the conventional 0.05 and 0.01 among them).
P0_CHOICES = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1)


def _p0_slider(value: float) -> widgets.SelectionSlider:
    """A slider over :data:`P0_CHOICES` (plus ``value``) that lands exactly on each threshold."""
    choices = sorted({*P0_CHOICES, float(value)})
    return widgets.SelectionSlider(options=[(f"{p:g}", p) for p in choices], value=float(value),
                                   description="p₀", continuous_update=False)  # fmt: skip


def mrds_calculator(*, n: int = 353, r_ab: float = 0.9, p0: float = 0.05) -> widgets.VBox:
    """An MRDS calculator: number of items, inter-system correlation, threshold, test.

    Shows the correlation MRDS (:func:`workbench.significance.mrds_correlation`) and the
    accuracy MRDS (:func:`workbench.significance.mrds_accuracy`) for the same ``n``.

    Returns
    -------
    ipywidgets.VBox
    """
    w_n = widgets.BoundedIntText(value=n, min=5, max=10_000_000, description="n")
    w_r = widgets.FloatSlider(value=r_ab, min=0.0, max=0.99, step=0.01, description="r_AB")
    w_p = _p0_slider(p0)
    methods = ["williams1959", "mvlsa2015"] + [
        m for m in DEPENDENT_CORR_METHODS if m not in ("williams1959", "zou2007")
    ]
    w_m = widgets.Dropdown(options=methods, value="williams1959", description="test")
    w_alt = widgets.ToggleButtons(options=["greater", "two-sided"], value="greater")
    out = widgets.HTML()

    def update(*_: object) -> None:
        try:
            s = mrds_correlation(
                w_n.value, w_r.value, w_p.value, method=w_m.value, alternative=w_alt.value
            )
            a = mrds_accuracy(w_n.value, w_p.value)
            out.value = (
                f"<b>correlation MRDS</b> = {100 * s:.2f} points &nbsp; "
                f"<b>accuracy MRDS</b> (beta(1,1)) = {100 * a:.2f} points"
            )
        except ValueError as err:
            out.value = f"<span style='color:red'>{err}</span>"

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
    ``attrs["results"]``) or dicts name -> WordSimResult.

    Returns
    -------
    ipywidgets.VBox
    """
    ra = suite_a.attrs["results"] if hasattr(suite_a, "attrs") else dict(suite_a)
    rb = suite_b.attrs["results"] if hasattr(suite_b, "attrs") else dict(suite_b)
    names = [k for k in ra if k in rb]
    w_ds = widgets.Dropdown(options=names, description="data set")
    w_alt = widgets.ToggleButtons(options=["two-sided", "greater", "less"], value="two-sided")
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
        out.append_stdout(
            f"{labels[0]}: r={c.r_a:.4f}  {labels[1]}: r={c.r_b:.4f}  r_AB={c.r_ab:.4f}  n={c.n}\n"
            f"difference {c.difference:+.4f}; MRDS at observed r_AB = {c.mrds:.4f} "
            f"({'exceeded' if c.exceeds_mrds else 'not exceeded'})\n"
        )
        if c.r_ab < 1:
            append_display(
                out, dependent_corr_table(c.r_b, c.r_a, c.r_ab, c.n, alternative=w_alt.value)
            )

    for w in (w_ds, w_alt, w_p):
        w.observe(update, names="value")
    update()
    return widgets.VBox([widgets.HBox([w_ds, w_p]), w_alt, out])
