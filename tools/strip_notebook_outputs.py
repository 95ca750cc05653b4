#!/usr/bin/env python3
"""Git ``clean`` filter of ``notebooks/*.ipynb``: the committed notebooks never hold outputs.

Reads a notebook on stdin and writes it on stdout without its outputs, execution counts and
execution timings (cell metadata ``execution``). When the stripped notebook is the one in git's
index (same cells, sources and metadata), the index's bytes are written unchanged, so that a
notebook saved by JupyterLab with outputs leaves ``git status`` clean whatever JSON layout the
committed file has. ``make venv`` installs it (``.gitattributes`` names it, ``git config
filter.nbstrip.clean`` in the checkout's local config runs it).

``git status`` takes a file whose size changed for modified without running the filter; so
``make lab`` has JupyterLab call :func:`refresh` after every save
(:func:`workbench.notebook_log.refresh_git_index`): a saved notebook that is the committed one
once stripped is re-added, which stores nothing new and only refreshes the index's file
sizes. A notebook whose cells changed is left alone (not staged).

Usage: ``strip_notebook_outputs.py [PATH]`` (PATH: the notebook's path in the repository, as
git's ``%f`` gives it; used only to read the index's copy). Standard library only. Input that is
not a notebook is passed through unchanged (git must never lose a file's content).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def strip(nb: dict[str, Any]) -> dict[str, Any]:
    """``nb`` without outputs, execution counts and execution timings (in place; returned)."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        meta = cell.get("metadata")
        if isinstance(meta, dict):
            meta.pop("execution", None)
    return nb


def _normal(nb: Any) -> Any:
    """``nb`` with every cell source as one string (nbformat stores either form)."""
    if isinstance(nb, dict):
        return {k: ("".join(v) if k == "source" and isinstance(v, list) else _normal(v))
                for k, v in nb.items()}  # fmt: skip
    if isinstance(nb, list):
        return [_normal(v) for v in nb]
    return nb


def clean(text: str, committed: str | None = None) -> str:
    """The committed form of the notebook ``text``: ``committed`` (the index's copy) when it is
    the same notebook without outputs, else the stripped notebook in nbformat's layout."""
    try:
        nb = json.loads(text)
    except ValueError:
        return text
    if not isinstance(nb, dict) or "cells" not in nb:
        return text
    nb = strip(nb)
    if committed is not None:
        try:
            if _normal(json.loads(committed)) == _normal(nb):
                return committed
        except ValueError:
            pass
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _index_copy(path: str) -> str | None:
    """The index's copy of ``path`` (None outside a repository or for a new file)."""
    try:
        res = subprocess.run(["git", "cat-file", "blob", f":{path}"], capture_output=True,
                             check=False)  # fmt: skip
    except OSError:
        return None
    return res.stdout.decode("utf-8") if res.returncode == 0 else None


def refresh(path: str, cwd: str | None = None) -> bool:
    """Re-add ``path`` when, once stripped, it is its index copy (``git diff`` finds no change);
    True when it did. Outside a repository, for an untracked file or one with other changes,
    nothing is done."""
    try:
        same = subprocess.run(["git", "diff", "--quiet", "--", path], cwd=cwd,
                              capture_output=True, check=False)  # fmt: skip
        if same.returncode != 0:
            return False
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", "--", path], cwd=cwd,
                                 capture_output=True, check=False)  # fmt: skip
        if tracked.returncode != 0:
            return False
        done = subprocess.run(["git", "add", "--", path], cwd=cwd, capture_output=True,
                              check=False)  # fmt: skip
    except OSError:
        return False
    return done.returncode == 0


def main(argv: list[str]) -> int:
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        sys.stdout.buffer.write(data)
        return 0
    committed = _index_copy(argv[1]) if len(argv) > 1 else None
    sys.stdout.buffer.write(clean(text, committed).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
