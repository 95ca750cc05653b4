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

from typing import Any

__all__ = ["MAX_HEIGHT", "append_display", "output_area", "show_message"]

#: Height beyond which an explorer's output area scrolls.
MAX_HEIGHT = "480px"


def output_area(max_height: str = MAX_HEIGHT) -> Any:
    """An ``ipywidgets.Output`` that scrolls (both ways) beyond ``max_height``."""
    import ipywidgets as widgets

    return widgets.Output(layout=widgets.Layout(max_height=max_height, overflow="auto"))


def show_message(out: Any, text: str) -> None:
    """Replace what ``out`` shows by the one-line message ``text``."""
    out.outputs = ()
    out.append_stdout(text.rstrip("\n") + "\n")


def append_display(out: Any, obj: Any) -> None:
    """Append ``obj`` (e.g. a DataFrame) to ``out`` as rich display data.

    Same representations as ``IPython.display.display(obj)`` (the running shell's formatter
    in a kernel, IPython's default formatter otherwise), without creating a shell.
    """
    from IPython import get_ipython
    from IPython.core.formatters import DisplayFormatter

    shell = get_ipython()
    formatter = shell.display_formatter if shell is not None else DisplayFormatter()
    data, metadata = formatter.format(obj)
    out.outputs += ({"output_type": "display_data", "data": data, "metadata": metadata},)
