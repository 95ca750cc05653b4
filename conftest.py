"""Doctests of the package: every module under ``workbench/`` is collected as a doctest module.

``pytest`` with no arguments runs ``tests/`` and ``workbench/`` (``testpaths``); ``pytest
workbench`` runs the doctests alone (a few seconds). Only ``workbench/`` is collected this way:
``--doctest-modules`` over ``tests/`` would import its two ``conftest.py`` files as doctest
modules, which pytest refuses (same basename).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

PACKAGE = Path(__file__).resolve().parent / "workbench"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if (
        file_path.suffix == ".py"
        and file_path.name != "__main__.py"
        and PACKAGE in file_path.resolve().parents
        and not parent.config.option.doctestmodules  # (then pytest collects them itself)
    ):
        return DoctestModule.from_parent(parent, path=file_path)
    return None
