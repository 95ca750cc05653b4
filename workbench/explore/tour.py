"""Widgets of the tour notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ipywidgets as widgets
import pandas as pd

from workbench.coverage import coverage_table, item_max_ranks, items_of
from workbench.explore._output import append_display, output_area, show_message

__all__ = ["coverage_explorer"]


def coverage_explorer(
    vocabulary: Sequence[str], datasets: Mapping[str, pd.DataFrame], *, max_examples: int = 15
) -> widgets.VBox:
    """Slider over the vocabulary cut-off showing each set's coverage and missing items.

    Returns
    -------
    ipywidgets.VBox
    """
    vocab = list(vocabulary)
    names = list(datasets)
    cutoff = widgets.IntSlider(
        value=min(50_000, len(vocab)),
        min=1_000,
        max=max(len(vocab), 1_000),
        step=1_000,
        description="cut-off",
        continuous_update=False,
    )
    which = widgets.Dropdown(options=names, description="dataset")
    out = output_area()

    def refresh(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if which.value is None:
            show_message(out, "no evaluation set to show")
            return
        out.outputs = ()
        append_display(out, coverage_table(vocab, datasets, [cutoff.value]).round(3))
        items = items_of(datasets[which.value])
        worst = item_max_ranks(vocab, items)
        missing = [" / ".join(it) for it, r in zip(items, worst) if r >= cutoff.value]
        out.append_stdout(
            f"{which.value}: {len(missing)} of {len(items)} items not covered, e.g.:\n"
        )
        out.append_stdout("\n".join(missing[:max_examples]) + "\n")

    cutoff.observe(refresh, names="value")
    which.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([cutoff, which]), out])
