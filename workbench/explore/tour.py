"""Widgets of the tour notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import ipywidgets as widgets
import pandas as pd

from workbench.coverage import coverage_table, item_max_ranks, items_of
from workbench.explore._output import append_table, describe, output_area, show_message

__all__ = ["coverage_explorer", "missing_items_table"]


def missing_items_table(
    vocabulary: Sequence[str], dataset: pd.DataFrame | Sequence[Sequence[str]], cutoff: int
) -> pd.DataFrame:
    """The items of ``dataset`` not covered by the ``cutoff`` most frequent words.

    Returns
    -------
    DataFrame
        Columns ``item`` (its words joined by " / ") and ``rarest word`` (the 1-based frequency
        rank of its rarest word, formatted with thousands separators, or "not in the corpus"),
        items whose words are all in the corpus first, then by rank.
    """
    items = items_of(dataset)
    worst = item_max_ranks(list(vocabulary), items)
    rows = [(" / ".join(it), r) for it, r in zip(items, worst) if r >= cutoff]
    rows.sort(key=lambda row: row[1])
    return pd.DataFrame(
        {
            "item": [it for it, _ in rows],
            "rarest word": [
                "not in the corpus" if math.isinf(r) else f"rank {int(r) + 1:,}" for _, r in rows
            ],
        }
    )


def coverage_explorer(
    vocabulary: Sequence[str], datasets: Mapping[str, pd.DataFrame], *, max_examples: int = 15
) -> widgets.VBox:
    """Slider over the vocabulary cut-off showing each set's coverage and missing items.

    The chosen set's uncovered items come first (``max_examples`` visible, the rest folded under
    a line with their count), then the coverage of every set at the cut-off, in % of items.

    Returns
    -------
    ipywidgets.VBox
    """
    vocab = list(vocabulary)
    names = list(datasets)
    top = max(len(vocab), 1)
    cutoff = describe(
        widgets.IntSlider(
            value=min(50_000, top),
            min=min(1_000, top),
            max=top,
            step=1_000 if top >= 2_000 else 1,
            continuous_update=False,
            readout_format=",d",
        ),
        "vocabulary cut-off",
        "keep only this many most frequent corpus words; an item is covered when all its words are kept",
    )
    which = describe(
        widgets.Dropdown(options=names),
        "evaluation set",
        "the set whose uncovered items are listed first",
    )
    out = output_area()

    def refresh(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if which.value is None:
            show_message(out, "no evaluation set to show")
            return
        out.outputs = ()
        k = cutoff.value
        n_items = len(items_of(datasets[which.value]))
        missing = missing_items_table(vocab, datasets[which.value], k)
        share = 100 * len(missing) / n_items if n_items else 0.0
        out.append_stdout(
            f"{which.value}: {len(missing):,} of {n_items:,} items not covered "
            f"({share:.1f} %) by the {k:,} most frequent words\n"
        )
        if len(missing):
            append_table(out, missing, rows=max_examples, index=False)
        table = coverage_table(vocab, datasets, [k])
        covered = pd.DataFrame(
            {
                "items": [f"{int(n):,}" for n in table["items"]],
                "covered (%)": [f"{100 * x:.1f}" for x in table.iloc[:, 1]],
            },
            index=table.index,
        )
        append_table(out, covered, caption=f"Coverage of every set at a cut-off of {k:,} words")

    cutoff.observe(refresh, names="value")
    which.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([cutoff, which]), out])
