"""A static, offline results site of a results folder: ``python -m workbench report [results/]``.

For a results folder written by :mod:`workbench.runner` (``<results>/<notebook>/`` with the
executed notebook, ``records.json``, ``figures/`` and ``manifest.json``), :func:`write_site`
writes ``<results>/site/``:

* ``index.html`` -- per notebook with a complete result: its question in short, its key
  findings (the Discussion: the Markdown output of the executed notebook's last cell that has
  one), its claims table (when the records hold ``claims``), its figures and the links below;
  then the notebook folders without a complete result, with their status;
* ``<notebook>.html`` -- the question (the notebook's first Markdown cell), the key findings,
  the claims, the figures, and the run's data size, parameters, seeds, git commit and package
  versions from its manifest;
* ``<notebook>.notebook.html`` -- the whole executed notebook rendered by nbconvert
  (``lab`` template, images embedded);
* ``figures/<notebook>/`` -- copies of the figures (the site can be shared on its own);
* ``_mathjax/`` -- a copy of MathJax 2 (from ``jupyter-server-mathjax``) that typesets the
  math of every page.

The site loads nothing from a network: nbconvert's scripts from a CDN (require.js, mermaid,
the widget manager) are left out, so widgets show as their static state, with the note
:data:`WIDGET_NOTE`; MathJax is the site's own copy.

The report writes only inside ``<results>/site/``. It keeps a marker file there
(:data:`SITE_MARKER`) listing what it wrote; a ``site`` folder without it, or a file there the
report did not write (or that was changed since), is refused with :class:`ReportError` and left
untouched. Re-running replaces the report's own files only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from workbench.report._collect import NotebookResultView, collect
from workbench.report._mathjax import mathjax_files
from workbench.report._render import (
    WIDGET_NOTE,
    index_html,
    notebook_html,
    page_html,
    remote_references,
)
from workbench.report._site import SITE_MARKER, ReportError, write_files

__all__ = [
    "SITE_DIR",
    "SITE_MARKER",
    "WIDGET_NOTE",
    "ReportError",
    "Site",
    "remote_references",
    "write_site",
]

#: The site's folder inside the results folder.
SITE_DIR = "site"


@dataclass(frozen=True)
class Site:
    """What :func:`write_site` wrote: the ``index`` page, the notebooks shown, the notebook
    folders left out with their status, and every file written."""

    index: Path
    notebooks: tuple[str, ...]
    left_out: dict[str, str]
    files: tuple[Path, ...]


def _site_files(views: list[NotebookResultView], others: dict[str, str],
                results: Path) -> dict[str, str | bytes]:  # fmt: skip
    files: dict[str, str | bytes] = dict(mathjax_files())
    figures: dict[str, list[str]] = {}
    for view in views:
        figures[view.name] = []
        for rel in view.figures:
            target = f"figures/{view.name}/{rel.removeprefix('figures/')}"
            files[target] = (view.folder / rel).read_bytes()
            figures[view.name].append(target)
        files[f"{view.name}.html"] = page_html(view, figures[view.name])
        files[f"{view.name}.notebook.html"] = notebook_html(view)
    files["index.html"] = index_html(views, figures, others, results)
    return files


def write_site(results: str | os.PathLike[str] = "results") -> Site:
    """Write the results site of the results folder ``results`` into ``<results>/site/``.

    Parameters
    ----------
    results : path-like, default "results"
        A results folder written by ``python -m workbench run``.

    Returns
    -------
    Site
        The index page and what the site shows.

    Raises
    ------
    ReportError
        ``results`` is not a folder, holds no notebook with a complete result, or the site
        folder (or a file in it) is not the report's (the message names the path).
    """
    folder = Path(results).expanduser()
    if not folder.is_dir():
        what = "does not exist" if not os.path.lexists(folder) else "is not a folder"
        raise ReportError(f"results folder {str(results)!r} {what}; give the folder that "
                          "'python -m workbench run --out' wrote (default results/)")  # fmt: skip
    folder = folder.resolve()
    views, others = collect(folder)
    if not views:
        found = ("; found: " + ", ".join(f"{n} ({s})" for n, s in others.items())) if others else ""
        raise ReportError(f"results folder {str(results)!r} holds no notebook with a complete "
                          f"result{found}; run 'python -m workbench run --out {results}' first")  # fmt: skip
    files = _site_files(views, others, folder)
    site = folder / SITE_DIR
    written = write_files(site, files)
    return Site(index=site / "index.html", notebooks=tuple(v.name for v in views),
                left_out=dict(others), files=tuple(written))  # fmt: skip
