r"""Numbers the papers report, as data: each paper's tables with their source.

Notebooks compare a run with what a paper reported; those numbers are quoted from here (and
read by the Discussion templates), never typed into prose. Each paper is one JSON
file in this folder::

    {"paper": "<short name>", "citation": "<authors (year), title>",
     "tables": {"<table id>": {"source": "Table 9, p. 7", "caption": "...",
                               "units": "Spearman x 100", "index": [...], "columns": [...],
                               "data": [[...], ...]}}}

``data`` rows follow ``index``; ``null`` marks a cell the paper leaves empty.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd

__all__ = ["ReportedTable", "PAPERS", "reported", "reported_tables"]

#: Paper short names (file stems) and the paper file in ``../shared/papers``.
PAPERS: dict[str, str] = {
    "mvlsa": "mvlsa-generalized-cca.txt",
    "eigenwords": "cca-prior-knowledge-eigenwords.txt",
    "translingual": "translingual-opca-cplsa.txt",
    "ex_rpca": "ex-rpca-multisense.txt",
}


@dataclass(frozen=True, eq=False)
class ReportedTable:
    """One reported table: values (``table``), where it is in the paper and its units."""

    paper: str
    citation: str
    name: str
    source: str
    caption: str
    units: str
    table: pd.DataFrame


@cache
def _load(paper: str) -> dict[str, Any]:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {sorted(PAPERS)}")
    path = resources.files(__name__).joinpath(f"{paper}.json")
    if not path.is_file():
        raise FileNotFoundError(f"no reported tables for {paper!r} ({path})")
    obj = json.loads(path.read_text(encoding="utf-8"))
    for key in ("paper", "citation", "tables"):
        if key not in obj:
            raise ValueError(f"{path}: missing key {key!r}")
    return obj


def reported_tables(paper: str) -> list[str]:
    """The table ids reported for ``paper``."""
    return list(_load(paper)["tables"])


def reported(paper: str, table: str) -> ReportedTable:
    """A table reported by ``paper`` (see :data:`PAPERS`), as a DataFrame with its source."""
    obj = _load(paper)
    tables = obj["tables"]
    if table not in tables:
        raise KeyError(f"{paper} reports no table {table!r}; reported: {list(tables)}")
    t = tables[table]
    rows, cols = t["index"], t["columns"]
    if len(t["data"]) != len(rows) or any(len(r) != len(cols) for r in t["data"]):
        raise ValueError(f"{paper}.json table {table!r}: data is not {len(rows)} x {len(cols)}")
    df = pd.DataFrame(t["data"], index=rows, columns=cols, dtype=object)
    df = df.infer_objects()
    return ReportedTable(obj["paper"], obj["citation"], table, t.get("source", ""),
                         t.get("caption", ""), t.get("units", ""), df)  # fmt: skip
