"""Widget of the translingual notebook (only used under ``if INTERACTIVE:``): pick an English
chapter, see the top Spanish matches under each method with their scores."""

from __future__ import annotations

import ipywidgets as widgets

from workbench.explore._output import (
    append_table,
    clamp_note,
    describe,
    output_area,
    show_message,
)
from workbench.studies.translingual import TranslingualResult, top_matches

__all__ = ["chapter_explorer"]

#: What the scores of the table are (shown under it).
SCORE_NOTE = (
    "* marks the true translation; scores are cosine similarities (CL-LSI, OPCA, CCA and the "
    "baselines) or minus the L1 distance of topic vectors (JPLSA, CPLSA): higher is closer."
)


def chapter_explorer(result: TranslingualResult, *, topn: int = 5) -> widgets.VBox:
    """An ipywidgets box: a dropdown of English test chapters, a slider for the number of
    matches, and the table of top Spanish matches under every method.

    The number of matches is limited to the number of test chapters, with a note saying so.

    Returns
    -------
    ipywidgets.VBox
        A row of controls (chapter, matches) above the output area.
    """
    data = result.data
    options = [(f"{data.ids[i][0]} {data.ids[i][1]}", data.ids[i]) for i in data.parts["test"]]
    n_chapters = len(options)
    dropdown = describe(
        widgets.Dropdown(options=options, layout=widgets.Layout(width="auto")),
        "English chapter",
        "an English chapter of the test books; its Spanish matches are ranked by each method",
    )
    matches = describe(
        widgets.IntSlider(value=topn, min=1, max=max(topn, 10), continuous_update=False),
        "matches",
        "how many Spanish chapters to list per method (best first)",
    )
    out = output_area()

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if dropdown.value is None:
            show_message(out, "no English test chapter to show")
            return
        n = min(matches.value, n_chapters)
        out.outputs = ()
        if n < matches.value:
            out.append_stdout(
                clamp_note("matches", matches.value, n, f"there are {n_chapters} test chapters")
                + "\n"
            )
        book, chapter = dropdown.value
        append_table(
            out,
            top_matches(result, dropdown.value, topn=n),
            caption=f"Spanish test chapters closest to English {book} {chapter}",
        )
        out.append_stdout(SCORE_NOTE + "\n")

    dropdown.observe(show, names="value")
    matches.observe(show, names="value")
    show()
    return widgets.VBox([widgets.HBox([dropdown, matches]), out])
