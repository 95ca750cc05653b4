"""Notebook discovery and the ``parameters`` cell: parsing, listing and validation."""

from __future__ import annotations

import ast
import json
import logging
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.datasets import CORPUS_NAMES
from workbench.datasets._common import shared_data_dir

logger = logging.getLogger(__name__)


SIZES = ("small", "full", "large")
#: Notebooks with a ``large`` size (the 25M-token corpus of the shared data folder).
LARGE_NOTEBOOKS = ("03_mvlsa", "04_ablation", "05_fusion")
#: Parameters every notebook must declare in its ``parameters`` cell.
REQUIRED_PARAMETERS = ("DATA_SIZE", "INTERACTIVE", "SEED")
#: What a batch run passes for each size, to every notebook that declares the parameter
#: (explicit ``-p`` values win): no widgets, and the number of random seeds (``SEEDS``: 1 at
#: ``small``, 3 at ``full``; ``large`` runs one seed, its cost being an hour per notebook).
BATCH_VALUES: dict[str, dict[str, Any]] = {
    "small": {"INTERACTIVE": False, "SEEDS": 1},
    "full": {"INTERACTIVE": False, "SEEDS": 3},
    "large": {"INTERACTIVE": False, "SEEDS": 1},
}
#: Notebooks that read what another one writes to the shared caches (the offset views of 02,
#: the dev-tuned configuration and the baselines of 03): with ``jobs > 1`` a notebook starts
#: only after those of its dependencies that are selected have finished.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "03_mvlsa": ("02_views",),
    "04_ablation": ("03_mvlsa",),
    "05_fusion": ("03_mvlsa",),
    "09_sparse_noise": ("08_sense_pairs",),
}
NOTEBOOK_PATTERN = re.compile(r"^\d\d_[A-Za-z0-9_]+$")


class RunnerUsageError(ValueError):
    """Bad request (unknown notebook, undeclared parameter, wrong type); nothing was run."""


class NotebookFormatError(RunnerUsageError):
    """A notebook whose ``parameters`` cell does not follow the conventions."""


# --------------------------------------------------------------------------- discovery


def repo_root() -> Path:
    """The repository folder (parent of the ``workbench`` package)."""
    return Path(__file__).resolve().parents[2]  # workbench/runner/_notebooks.py


def default_notebooks_dir() -> Path:
    """``$WORKBENCH_NOTEBOOKS`` if set, else ``<repo>/notebooks``."""
    env = os.environ.get("WORKBENCH_NOTEBOOKS")
    return Path(env) if env else repo_root() / "notebooks"


def list_notebooks(notebooks_dir: str | os.PathLike[str] | None = None) -> list[Path]:
    """The runnable notebooks ``NN_name.ipynb`` of ``notebooks_dir``, in order."""
    folder = Path(notebooks_dir) if notebooks_dir is not None else default_notebooks_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.ipynb") if NOTEBOOK_PATTERN.match(p.stem))


def resolve_notebooks(
    names: Sequence[str | os.PathLike[str]] | None,
    notebooks_dir: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Map notebook references to paths.

    A reference is a path to an ``.ipynb`` file, a full name (``00_tour``), a name
    without its number (``tour``) or just the number (``00``). ``None`` or an empty
    list selects every notebook in order. Unknown references raise
    :class:`RunnerUsageError` listing the available notebooks.
    """
    available = list_notebooks(notebooks_dir)
    if not names:
        if not available:
            raise RunnerUsageError(f"no notebooks (NN_name.ipynb) found in {notebooks_dir}")
        return available
    out: list[Path] = []
    for ref in names:
        path = _resolve_one(ref, available)
        if path is None:
            listing = ", ".join(p.stem for p in available) or "(none)"
            raise RunnerUsageError(f"unknown notebook {str(ref)!r}; available: {listing}")
        if path not in out:
            out.append(path)
    return out


def _resolve_one(ref: str | os.PathLike[str], available: list[Path]) -> Path | None:
    text = str(ref)
    candidate = Path(text)
    if text.endswith(".ipynb") or os.sep in text or "/" in text:
        if candidate.is_file():
            return candidate.resolve()
        text = candidate.stem
    for path in available:
        stem = path.stem
        if text in (stem, stem.split("_", 1)[1], stem[:2]):
            return path
    return None


# --------------------------------------------------------------------------- parameters


def _parameters_cells(nb: Mapping[str, Any]) -> list[tuple[int, str]]:
    cells = []
    for i, cell in enumerate(nb.get("cells", [])):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") == "code" and "parameters" in tags:
            source = cell.get("source", "")
            cells.append((i, "".join(source) if isinstance(source, list) else source))
    return cells


def _read_notebook_json(path: Path) -> dict[str, Any]:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunnerUsageError(f"notebook not found: {path}") from None
    except json.JSONDecodeError as exc:
        raise NotebookFormatError(f"{path}: not a valid notebook (JSON error: {exc})") from None
    if not isinstance(nb, dict) or "cells" not in nb:
        raise NotebookFormatError(f"{path}: not a notebook (no 'cells')")
    return nb


def notebook_parameters(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The parameters a notebook declares, with their default values.

    The notebook must contain exactly one code cell tagged ``parameters`` whose
    statements are all assignments of literals to names (``SEED = 0``); comments are
    allowed.

    Raises
    ------
    NotebookFormatError
        Naming the notebook and the offending line.
    """
    path = Path(path)
    nb = _read_notebook_json(path)
    cells = _parameters_cells(nb)
    if len(cells) != 1:
        raise NotebookFormatError(
            f"{path.name}: expected exactly one code cell tagged 'parameters', found {len(cells)}"
        )
    index, source = cells[0]
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise NotebookFormatError(
            f"{path.name}, parameters cell (cell {index}), line {exc.lineno}: {exc.msg}"
        ) from None
    params: dict[str, Any] = {}
    for stmt in tree.body:
        where = f"{path.name}, parameters cell (cell {index}), line {stmt.lineno}"
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            raise NotebookFormatError(f"{where}: only `NAME = literal` assignments are allowed")
        if not isinstance(target, ast.Name):
            raise NotebookFormatError(f"{where}: assignment target must be a plain name")
        try:
            params[target.id] = ast.literal_eval(value)
        except ValueError:
            raise NotebookFormatError(
                f"{where}: value of {target.id} is not a literal ({ast.unparse(value)})"
            ) from None
    return params


def parse_parameter(text: str) -> tuple[str | None, str, Any]:
    """Parse a command-line parameter ``[notebook:]name=value``.

    The value is read with :func:`ast.literal_eval` (``3``, ``0.5``, ``True``,
    ``"x"``, ``[1, 2]``); anything that is not a Python literal is kept as a string.

    Returns
    -------
    (notebook or None, name, value)
    """
    if "=" not in text:
        raise RunnerUsageError(f"parameter {text!r}: expected name=value")
    key, raw = text.split("=", 1)
    notebook: str | None = None
    if ":" in key:
        notebook, key = key.split(":", 1)
    key = key.strip()
    if not key.isidentifier():
        raise RunnerUsageError(f"parameter {text!r}: {key!r} is not a valid parameter name")
    try:
        value: Any = ast.literal_eval(raw.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = raw
    return notebook, key, value


def _type_name(value: Any) -> str:
    return type(value).__name__


def _coerce(name: str, value: Any, default: Any, notebook: str) -> Any:
    """Check ``value`` against the declared default's type; int is accepted for float."""
    if default is None:  # declared as None: any literal is accepted
        return value
    expected = type(default)
    ok: bool
    if expected is bool:
        ok = isinstance(value, bool)
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif expected is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok:
            value = float(value)
    else:
        ok = isinstance(value, expected)
        element_types = {type(v) for v in default} if isinstance(default, (list, tuple)) else set()
        if ok and len(element_types) == 1:  # homogeneous list/tuple: check its elements too
            element = default[0]
            value = expected(
                _coerce(f"{name}[{i}]", v, element, notebook) for i, v in enumerate(value)
            )
    if not ok:
        raise RunnerUsageError(
            f"{notebook}: parameter {name} expects {expected.__name__} "
            f"(default {default!r}), got {_type_name(value)} {value!r}"
        )
    return value


def check_large_available(notebook: str) -> None:
    """Raise :class:`RunnerUsageError` unless ``notebook`` has a ``large`` size and the shared
    25M-token corpus it reads is present."""
    if notebook not in LARGE_NOTEBOOKS:
        raise RunnerUsageError(
            f"{notebook} has no 'large' size; only {', '.join(LARGE_NOTEBOOKS)} do "
            "(run the others with --size full or small)"
        )
    root = shared_data_dir()
    if root is None or not (root / CORPUS_NAMES["25M"]).is_file():
        raise RunnerUsageError(
            "--size large reads the 25M-token corpus from the shared data folder, which was not "
            "found; set WORKBENCH_SHARED_DATA to the folder holding "
            f"{CORPUS_NAMES['25M']} (the bundled data covers --size full and small)"
        )


def validate_parameters(
    path: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    size: str = "full",
) -> dict[str, Any]:
    """Effective parameters of one notebook run: defaults, then the size's batch values
    (:data:`BATCH_VALUES`, for the parameters the notebook declares), then ``parameters``,
    then ``DATA_SIZE``.

    Raises
    ------
    RunnerUsageError
        For an undeclared parameter, a value of the wrong type, a bad size or a
        ``DATA_SIZE`` parameter that contradicts ``size``.
    """
    path = Path(path)
    if size not in SIZES:
        raise RunnerUsageError(f"size must be one of {SIZES}, got {size!r}")
    if size == "large":
        check_large_available(path.stem)
    declared = notebook_parameters(path)
    missing = [p for p in REQUIRED_PARAMETERS if p not in declared]
    if missing:
        raise NotebookFormatError(
            f"{path.name}: the parameters cell must declare {', '.join(missing)}"
        )
    given = dict(parameters or {})
    if "DATA_SIZE" in given and given["DATA_SIZE"] != size:
        raise RunnerUsageError(
            f"DATA_SIZE={given['DATA_SIZE']!r} contradicts size={size!r}; use --size instead"
        )
    effective = dict(declared)
    for name, value in BATCH_VALUES[size].items():
        if name in declared and name not in given:
            effective[name] = _coerce(name, value, declared[name], path.stem)
    for name, value in given.items():
        if name not in declared:
            raise RunnerUsageError(
                f"{path.stem}: parameter {name!r} is not declared in its parameters cell; "
                f"declared: {', '.join(sorted(declared))}"
            )
        effective[name] = _coerce(name, value, declared[name], path.stem)
    effective["DATA_SIZE"] = size
    return effective
