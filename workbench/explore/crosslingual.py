"""Widget of the translingual notebook (only used under ``if INTERACTIVE:``): pick an English
chapter, see the top Spanish matches under each method with their scores."""

from __future__ import annotations

import ipywidgets as widgets

from workbench.explore._output import append_display, output_area, show_message
from workbench.studies.translingual import TranslingualResult, top_matches

__all__ = ["chapter_explorer"]


def chapter_explorer(result: TranslingualResult, *, topn: int = 5) -> widgets.VBox:
    """An ipywidgets box: a dropdown of English test chapters and the table of top matches."""
    data = result.data
    options = [(f"{data.ids[i][0]} {data.ids[i][1]}", data.ids[i]) for i in data.parts["test"]]
    dropdown = widgets.Dropdown(
        options=options,
        description="English chapter",
        style={"description_width": "initial"},
        layout=widgets.Layout(width="auto"),
    )
    out = output_area()

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if dropdown.value is None:
            show_message(out, "no English test chapter to show")
            return
        out.outputs = ()
        append_display(out, top_matches(result, dropdown.value, topn=topn))

    dropdown.observe(show, names="value")
    show()
    return widgets.VBox([dropdown, out])
