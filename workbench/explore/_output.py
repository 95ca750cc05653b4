"""Writing to an ``ipywidgets.Output`` from the kernel side (the package never ``print``\\s).

Callbacks clear ``out.outputs`` and append to it directly instead of capturing ``print`` /
``display`` inside ``with out:``: the order of text and tables is then exact (no mixing of
frontend-captured and kernel-side outputs) and the output can be inspected without a kernel.

Every explorer shows its results in an :func:`output_area` (scrollable beyond a maximum
height, so a long result never makes the notebook thousands of pixels tall) and answers an
unknown word or an empty selection with :func:`show_message` -- a short line that replaces the
previous result, never a stale result or a traceback.
"""

from __future__ import annotations

from collections.abc import Container, Sequence

import ipywidgets as widgets
from IPython import get_ipython
from IPython.core.formatters import DisplayFormatter

__all__ = [
    "MAX_HEIGHT",
    "append_display",
    "append_query_notes",
    "default_test_set",
    "output_area",
    "show_message",
    "split_queries",
    "word_missing",
]

#: Height beyond which an explorer's output area scrolls.
MAX_HEIGHT = "480px"


def output_area(max_height: str = MAX_HEIGHT) -> widgets.Output:
    """An ``ipywidgets.Output`` that scrolls (both ways) beyond ``max_height``."""
    return widgets.Output(layout=widgets.Layout(max_height=max_height, overflow="auto"))


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
    """Whether ``word`` cannot be looked up, saying why in ``out``: ``prompt`` for an empty
    word, "... is not in the vocabulary" (with the vocabulary's ``size`` if given) for an
    unknown one."""
    if not word:
        show_message(out, prompt)
        return True
    if word not in vocabulary:
        where = "" if size is None else f" ({size} words)"
        show_message(out, f"{word!r} is not in the vocabulary{where}")
        return True
    return False


def split_queries(text: str, vocabulary: Container[str]) -> tuple[list[str], list[str], list[str]]:
    """The comma-separated query words of ``text`` (stripped, lower case), those in
    ``vocabulary`` and the others."""
    queries = [q.strip().lower() for q in text.split(",") if q.strip()]
    known = [q for q in queries if q in vocabulary]
    unknown = [q for q in queries if q not in vocabulary]
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
