"""What an executed notebook's output cells must not show (issue: clean output cells).

:func:`unclean_outputs` lists, for one executed notebook, every output a reader should not see:

- an echoed return value: an ``execute_result`` whose only representation is plain text (a
  list of paths after ``save_figure``, a dict, a dataclass, a Series) -- a DataFrame, a
  Markdown object, a figure or a widget has a rich representation and passes;
- a ``PosixPath(`` anywhere in text output;
- a dict or dataclass repr printed as text (a line starting ``{'`` or ``Name(field=``);
- a finished text progress bar (``100%|``) left in a stream;
- a Python traceback.

The ``run_notebook`` fixture applies it to every notebook the tests execute.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat

__all__ = ["unclean_outputs"]

_REPRS = (
    ("a path repr", re.compile(r"(?:Posix|Windows)Path\(")),
    ("a dict repr", re.compile(r"^\s*\{'[^']*': ", re.M)),
    ("a dataclass repr", re.compile(r"^\s*[A-Z][A-Za-z0-9]*\([a-z_][a-z0-9_]*=", re.M)),
    ("a finished progress bar", re.compile(r"100%\|")),
    ("a traceback", re.compile(r"Traceback \(most recent call last\)")),
)
_RICH = ("text/html", "text/markdown", "text/latex", "image/png", "image/svg+xml",
         "application/vnd.jupyter.widget-view+json")  # fmt: skip


def _texts(output: Any) -> list[str]:
    if output.get("output_type") == "stream":
        return [output.get("text", "")]
    data = output.get("data", {})
    text = data.get("text/plain", "")
    return [text if isinstance(text, str) else "".join(text)]


def unclean_outputs(notebook: str | Path | nbformat.NotebookNode) -> list[str]:
    """One line per unclean output of ``notebook`` (a path or a read notebook):
    ``"cell N: <what>: <first 80 characters>"``; empty when every output is clean."""
    nb = notebook if isinstance(notebook, nbformat.NotebookNode) else nbformat.read(notebook, 4)
    found = []
    code_cells = (c for c in nb.cells if c.cell_type == "code")
    for number, cell in enumerate(code_cells, start=1):
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "execute_result" and not any(k in output.get("data", {}) for k in _RICH):
                snippet = _texts(output)[0].strip().replace("\n", " ")[:80]
                found.append(f"cell {number}: an echoed return value: {snippet}")
                continue
            if kind == "display_data" and any(k in output.get("data", {}) for k in _RICH):
                continue  # rich display: its plain-text fallback is not shown
            for text in _texts(output):
                for what, pattern in _REPRS:
                    match = pattern.search(text)
                    if match:
                        start = max(match.start() - 20, 0)
                        snippet = text[start : start + 80].strip().replace("\n", " ")
                        found.append(f"cell {number}: {what}: {snippet}")
    return found
