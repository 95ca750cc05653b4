"""Writing the site folder: only files the report wrote are ever replaced or removed.

The report creates ``<results>/site/`` and keeps in it a marker file (:data:`SITE_MARKER`)
listing every file it wrote with its sha256. A ``site`` folder without the marker is the
user's and is refused; a listed file that was changed since (its sha256 differs), or a file
the report would write that it did not write before, is "in the way" and refused too -- before
anything is written.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from workbench._files import atomic_write_bytes, atomic_write_text, file_sha256

__all__ = ["SITE_MARKER", "ReportError", "write_files"]

#: The marker file of a site folder the report created.
SITE_MARKER = ".workbench-report.json"
_MARKER_KIND = "workbench results site"


class ReportError(ValueError):
    """The site cannot be written (the message names the path and what to do)."""


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _read_marker(site: Path) -> dict[str, str]:
    """The files the report wrote into ``site`` (``{relative path: sha256}``); raises
    :class:`ReportError` when ``site`` is not a folder the report created."""
    marker = site / SITE_MARKER
    if os.path.islink(site) or not site.is_dir():
        raise ReportError(f"{site} is not a folder (a file or symlink is in the way); move it "
                          "away and run the report again")  # fmt: skip
    problem = (f"{site} exists but was not created by the report (no valid {SITE_MARKER} in "
               "it); it is left untouched: move it away or rename it, and run the report again")
    if not _is_regular(marker):
        raise ReportError(problem)
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ReportError(problem) from None
    files = data.get("files") if isinstance(data, dict) else None
    if data.get("kind") != _MARKER_KIND or not isinstance(files, dict):
        raise ReportError(problem)
    return {str(k): str(v) for k, v in files.items()}


def _inside(site: Path, rel: str) -> Path:
    path = site / rel
    if Path(rel).is_absolute() or ".." in Path(rel).parts:
        raise ReportError(f"{site / SITE_MARKER} lists {rel!r}, outside the site folder")
    return path


def write_files(site: Path, files: Mapping[str, str | bytes]) -> list[Path]:
    """Write ``files`` (``{path relative to site: text or bytes}``) into ``site``; remove the
    files an earlier report wrote there that are not written now (when unchanged). Returns the
    paths written.

    Raises
    ------
    ReportError
        ``site`` is not the report's folder, or a file is in the way (nothing is written then).
    """
    previous = _read_marker(site) if os.path.lexists(site) else {}
    blocked = []
    for rel in sorted(set(files) | set(previous)):
        path = _inside(site, rel)
        if not os.path.lexists(path):
            continue
        if rel not in previous:
            blocked.append(f"{path} (not written by the report)")
        elif not _is_regular(path) or file_sha256(path) != previous[rel]:
            blocked.append(f"{path} (changed since the report wrote it)")
    if blocked:
        raise ReportError("files in the way of the site (left untouched; move them away and run "
                          "the report again): " + "; ".join(blocked))  # fmt: skip
    site.mkdir(parents=True, exist_ok=True)
    written = {}
    marker_files = dict(previous)
    _write_marker(site, marker_files)  # before any file: the folder is the report's from now on
    for rel, content in files.items():
        path = _inside(site, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, content if isinstance(content, bytes) else content.encode("utf-8"))
        written[rel] = file_sha256(path)
        marker_files[rel] = written[rel]
        # the marker is kept current after each file, so an interrupted report still owns all
        _write_marker(site, marker_files)
    for rel in sorted(set(previous) - set(files)):
        path = _inside(site, rel)
        if _is_regular(path):
            path.unlink()
        marker_files.pop(rel, None)
        for parent in path.parents:
            if parent == site:
                break
            try:
                parent.rmdir()  # only when empty: a folder the report made for its files
            except OSError:
                break
    _write_marker(site, written)
    return [site / rel for rel in files]


def _write_marker(site: Path, files: Mapping[str, str]) -> None:
    atomic_write_text(site / SITE_MARKER,
                      json.dumps({"kind": _MARKER_KIND, "files": dict(sorted(files.items()))},
                                 indent=1))  # fmt: skip
