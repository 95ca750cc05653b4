"""Widgets of the tour notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from workbench.coverage import coverage_table, item_max_ranks, items_of

__all__ = ["coverage_explorer"]


def coverage_explorer(
    vocabulary: Sequence[str], datasets: Mapping[str, pd.DataFrame], *, max_examples: int = 15
) -> Any:
    """Slider over the vocabulary cut-off showing each set's coverage and missing items.

    Returns
    -------
    ipywidgets.VBox
    """
    import ipywidgets as widgets
    from IPython.display import display

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
    out = widgets.Output()

    def refresh(_: Any = None) -> None:
        out.clear_output(wait=True)
        with out:
            display(coverage_table(vocab, datasets, [cutoff.value]).round(3))
            items = items_of(datasets[which.value])
            worst = item_max_ranks(vocab, items)
            missing = [" / ".join(it) for it, r in zip(items, worst) if r >= cutoff.value]
            print(f"{which.value}: {len(missing)} of {len(items)} items not covered, e.g.:")
            print("\n".join(missing[:max_examples]))

    cutoff.observe(refresh, names="value")
    which.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([cutoff, which]), out])
