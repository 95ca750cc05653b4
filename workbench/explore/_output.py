"""Writing to an ``ipywidgets.Output`` from the kernel side (the package never ``print``\\s).

Callbacks clear ``out.outputs`` and append to it directly instead of capturing ``print`` /
``display`` inside ``with out:``: the order of text and tables is then exact (no mixing of
frontend-captured and kernel-side outputs) and the output can be inspected without a kernel.

Every explorer shows its results in an :func:`output_area` that grows with its content (no
inner scroll box hides a result); long tables go through :func:`append_table`, which shows the
first rows and folds the rest under a ``<details>`` line that gives the row count. An unknown
word or an empty selection is answered with :func:`show_message` -- a short line that replaces
the previous result, never a stale result or a traceback. Words are looked up the same way in
every explorer (:func:`resolve_word`: exact, then lower case), controls carry a label and a
tooltip (:func:`describe`), and a value an explorer has to limit says so (:func:`clamp_note`).
"""

from __future__ import annotations

import html
from collections.abc import Container, Sequence

import ipywidgets as widgets
import pandas as pd
from IPython import get_ipython
from IPython.core.formatters import DisplayFormatter

from workbench.viz.tables import PAGE_ROWS, table_html

__all__ = [
    "PAGE_ROWS",
    "append_display",
    "append_query_notes",
    "append_table",
    "append_text",
    "clamp_note",
    "default_test_set",
    "describe",
    "output_area",
    "resolve_word",
    "show_message",
    "split_queries",
    "word_missing",
]


def output_area() -> widgets.Output:
    """An ``ipywidgets.Output`` that grows with its content (no inner scroll box).

    Wide tables scroll sideways inside their own HTML; nothing is hidden vertically.
    """
    return widgets.Output(layout=widgets.Layout(overflow="visible"))


def describe(widget: widgets.Widget, label: str, tooltip: str) -> widgets.Widget:
    """Give ``widget`` a visible ``label`` (its ``description``, shown in full) and a
    ``tooltip`` saying what it does; returns the widget."""
    widget.description = label
    widget.tooltip = tooltip
    if hasattr(widget, "style") and "description_width" in widget.style.keys:
        widget.style.description_width = "initial"
    return widget


def clamp_note(name: str, given: float, used: float, reason: str) -> str:
    """The line an explorer shows when it limits ``name`` from ``given`` to ``used``
    (``reason`` says why, e.g. ``"the vocabulary has 40 words"``); whole numbers are written
    with thousands separators (``10,000,000``, never ``1e+07``)."""

    def fmt(x: float) -> str:
        return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"

    return f"{name} = {fmt(given)} is more than allowed ({reason}); showing {name} = {fmt(used)}."


def resolve_word(word: str, vocabulary: Container[str]) -> str | None:
    """The entry of ``vocabulary`` that ``word`` names, looked up the same way in every
    explorer: the word as typed (stripped), then in lower case; None if neither is present."""
    word = word.strip()
    if not word:
        return None
    if word in vocabulary:
        return word
    lower = word.lower()
    return lower if lower in vocabulary else None


def append_table(
    out: widgets.Output,
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    rows: int = PAGE_ROWS,
    index: bool = True,
) -> None:
    """Append ``frame`` to ``out`` as an HTML table: the first ``rows`` rows visible, the rest
    folded under a ``<details>`` line that says how many rows there are in all.

    ``caption`` is shown above the table in bold. Numbers should be formatted for reading
    before the call (e.g. with :func:`workbench.templating.pts`).
    """
    out.outputs += (
        {
            "output_type": "display_data",
            "data": {
                "text/html": table_html(frame, caption=caption, rows=rows, index=index),
                "text/plain": caption or "",
            },
            "metadata": {},
        },
    )


def append_text(out: widgets.Output, text: str) -> None:
    """Append ``text`` to ``out`` as a paragraph that wraps between words (a stream line is
    wrapped anywhere, which can break a word such as a test set's name across two lines)."""
    out.outputs += (
        {
            "output_type": "display_data",
            "data": {"text/html": f"<p>{html.escape(text)}</p>", "text/plain": text},
            "metadata": {},
        },
    )


def show_message(out: widgets.Output, text: str) -> None:
    """Replace what ``out`` shows by the one-line message ``text``."""
    out.outputs = ()
    out.append_stdout(text.rstrip("\n") + "\n")


def append_display(out: widgets.Output, obj: object) -> None:
    """Append ``obj`` (e.g. a DataFrame) to ``out`` as rich display data.

    Same representations as ``IPython.display.display(obj)`` (the running shell's formatter
    in a kernel, IPython's default formatter otherwise), without creating a shell.
    """
    shell = get_ipython()
    formatter = shell.display_formatter if shell is not None else DisplayFormatter()
    data, metadata = formatter.format(obj)
    out.outputs += ({"output_type": "display_data", "data": data, "metadata": metadata},)


def word_missing(
    out: widgets.Output,
    word: str,
    vocabulary: Container[str],
    *,
    prompt: str = "type a word",
    size: int | None = None,
) -> bool:
    """Whether ``word`` cannot be looked up (:func:`resolve_word`), saying why in ``out``:
    ``prompt`` for an empty word, "... is not in the vocabulary" (with the vocabulary's
    ``size`` if given) for an unknown one."""
    if not word.strip():
        show_message(out, prompt)
        return True
    if resolve_word(word, vocabulary) is None:
        where = "" if size is None else f" ({size} words)"
        show_message(out, f"{word!r} is not in the vocabulary{where}")
        return True
    return False


def split_queries(text: str, vocabulary: Container[str]) -> tuple[list[str], list[str], list[str]]:
    """The comma-separated query words of ``text``, those found in ``vocabulary`` (as
    :func:`resolve_word` finds them) and the others (as typed)."""
    queries = [q.strip() for q in text.split(",") if q.strip()]
    known = [w for w in (resolve_word(q, vocabulary) for q in queries) if w is not None]
    unknown = [q for q in queries if resolve_word(q, vocabulary) is None]
    return queries, known, unknown


def append_query_notes(out: widgets.Output, queries: Sequence[str], unknown: Sequence[str]) -> None:
    """Append what is wrong with the queries of :func:`split_queries`: none typed, or some not
    in the vocabulary."""
    if not queries:
        out.append_stdout("type one or more query words (comma separated)\n")
    if unknown:
        out.append_stdout(f"not in the vocabulary: {', '.join(map(repr, unknown))}\n")


def default_test_set(test_sets: Sequence[str], test_set: str | None) -> str:
    """``test_set`` if it is one of ``test_sets``, else MEN when present, else the first."""
    if test_set is None or test_set not in test_sets:
        return "MEN" if "MEN" in test_sets else test_sets[0]
    return test_set
