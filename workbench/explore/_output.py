"""Writing to an ``ipywidgets.Output`` from the kernel side (the package never ``print``\\s).

Callbacks clear ``out.outputs`` and append to it directly instead of capturing ``print`` /
``display`` inside ``with out:``: the order of text and tables is then exact (no mixing of
frontend-captured and kernel-side outputs) and the output can be inspected without a kernel.
"""

from __future__ import annotations

from typing import Any

__all__ = ["append_display"]


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
