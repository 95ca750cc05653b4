"""Long tables shown in a notebook cell the way the explorers show them: the first rows visible,
the rest folded under a ``<details>`` line that gives the row count (no ipywidgets needed)."""

from __future__ import annotations

import html

import pandas as pd
from IPython.display import HTML

__all__ = ["PAGE_ROWS", "folded_table", "table_html"]

#: Rows of a table shown before the rest is folded under a ``<details>`` line.
PAGE_ROWS = 20


def table_html(
    frame: pd.DataFrame, *, caption: str | None = None, rows: int = PAGE_ROWS, index: bool = True
) -> str:
    """``frame`` as HTML: ``caption`` in bold above it, the first ``rows`` rows visible, the
    rest folded under "show all N rows (M more)"; every row and column is kept (no "…")."""
    parts = []
    if caption:
        parts.append(f"<p><b>{html.escape(caption)}</b></p>")
    shown = frame.iloc[:rows]
    parts.append('<div style="overflow-x:auto">' + shown.to_html(index=index, border=0) + "</div>")
    if len(frame) > rows:
        rest = frame.iloc[rows:].to_html(index=index, border=0)
        parts.append(
            f"<details><summary>show all {len(frame)} rows ({len(frame) - rows} more)</summary>"
            f'<div style="overflow-x:auto">{rest}</div></details>'
        )
    return "".join(parts)


def folded_table(
    frame: pd.DataFrame, *, caption: str | None = None, rows: int = PAGE_ROWS, index: bool = True
) -> HTML:
    """:func:`table_html` as a displayable object (the last line of a notebook cell)."""
    return HTML(table_html(frame, caption=caption, rows=rows, index=index))
