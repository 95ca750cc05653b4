"""What the results site shows of one notebook's result folder, read from the folder only.

A notebook is shown when the runner reports its result as complete (every file its manifest
lists is there with the recorded size and sha256); the others are listed with their status.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from workbench import runner
from workbench.records import read_records

__all__ = ["NotebookResultView", "collect", "question_title"]

#: The MIME type of a widget view in a saved output.
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: Image files a browser shows, among a result's ``figures/``.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True)
class NotebookResultView:
    """One complete result folder as the site shows it.

    ``question`` is the Markdown source of the executed notebook's first Markdown cell,
    ``discussion`` the Markdown output of its last cell that has one (``""`` when none does),
    ``figures`` the manifest-listed images under ``figures/`` (paths relative to ``folder``).
    """

    name: str
    folder: Path
    notebook: Any  # the executed notebook (nbformat NotebookNode)
    manifest: dict[str, Any]
    records: dict[str, Any]
    question: str
    discussion: str
    figures: tuple[str, ...] = ()
    has_widgets: bool = False
    claims: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return question_title(self.question) or self.name


def question_title(markdown: str) -> str:
    """The text of the first Markdown heading of ``markdown`` (``""`` without one)."""
    for line in markdown.splitlines():
        match = _HEADING.match(line)
        if match:
            return match.group(1)
    return ""


def _markdown_text(data: Any) -> str:
    return "".join(data) if isinstance(data, list) else str(data)


def _question(nb: Any) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            return str(cell.source)
    return ""


def _discussion(nb: Any) -> str:
    """The Markdown output of the last cell that has one (the Discussion of the notebook)."""
    for cell in reversed(nb.cells):
        for output in reversed(cell.get("outputs", [])):
            data = output.get("data", {})
            if "text/markdown" in data:
                return _markdown_text(data["text/markdown"])
    return ""


def _has_widgets(nb: Any) -> bool:
    if "widgets" in nb.metadata:
        return True
    return any(WIDGET_MIME in output.get("data", {})
               for cell in nb.cells for output in cell.get("outputs", []))  # fmt: skip


def _figures(manifest: dict[str, Any]) -> tuple[str, ...]:
    outputs = manifest.get("outputs") or {}
    return tuple(sorted(rel for rel in outputs
                        if rel.startswith("figures/") and rel.lower().endswith(IMAGE_SUFFIXES)))  # fmt: skip


def read_result(folder: Path) -> NotebookResultView:
    """The view of the complete result ``folder`` (the caller checked it is complete)."""
    name = folder.name
    manifest = runner.read_manifest(folder) or {}
    nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    records = read_records(folder / runner.RECORDS)
    return NotebookResultView(
        name=name,
        folder=folder,
        notebook=nb,
        manifest=manifest,
        records=records,
        question=_question(nb),
        discussion=_discussion(nb),
        figures=_figures(manifest),
        has_widgets=_has_widgets(nb),
        claims=records.get("claims"),
    )


def collect(results: Path) -> tuple[list[NotebookResultView], dict[str, str]]:
    """The complete notebook results in the results folder ``results`` (in notebook order), and
    the status of every other notebook folder found there (``{name: status}``)."""
    shown, others = [], {}
    names = sorted({entry.name.removesuffix(".failed") for entry in os.scandir(results)
                    if runner.NOTEBOOK_PATTERN.match(entry.name.removesuffix(".failed"))})  # fmt: skip
    for name in names:
        status = runner.result_status(results, name)
        if status != "complete":
            others[name] = status
            continue
        try:
            shown.append(read_result(results / name))
        except (OSError, ValueError, json.JSONDecodeError) as exc:  # nbformat's errors too
            others[name] = f"unreadable: {exc}"
    return shown, others
