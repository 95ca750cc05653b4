"""Notebook discovery and the ``parameters`` cell: parsing, listing and validation."""

from __future__ import annotations

import ast
import json
import logging
import math
import os
import re
import reprlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from papermill.translators import translate_parameters

from workbench.datasets import CORPUS_NAMES, shared_data_dir
from workbench.studies import NOTEBOOKS

logger = logging.getLogger(__name__)


SIZES = ("small", "full", "large")
#: Notebooks with a ``large`` size (the 25M-token corpus of the shared data folder), from the
#: studies' registry (:data:`workbench.studies.NOTEBOOKS`).
LARGE_NOTEBOOKS = tuple(name for name, entry in NOTEBOOKS.items() if "large" in entry.sizes)
#: Parameters every notebook must declare in its ``parameters`` cell.
REQUIRED_PARAMETERS = ("DATA_SIZE", "INTERACTIVE", "SEED")
#: What a batch run passes for each size, to every notebook that declares the parameter
#: (explicit ``-p`` values win): no widgets, and the number of random seeds (``SEEDS``: 1 at
#: ``small``, 3 at ``full``, 2 at ``large``, whose notebooks take hours each).
BATCH_VALUES: dict[str, dict[str, Any]] = {
    "small": {"INTERACTIVE": False, "SEEDS": 1},
    "full": {"INTERACTIVE": False, "SEEDS": 3},
    "large": {"INTERACTIVE": False, "SEEDS": 2},
}
#: Notebooks that read what another one writes to the shared caches, from the studies' registry
#: (:data:`workbench.studies.NOTEBOOKS`): with ``jobs > 1`` a notebook starts only after those
#: of its dependencies that are selected have finished.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    name: entry.reads for name, entry in NOTEBOOKS.items() if entry.reads
}
NOTEBOOK_PATTERN = re.compile(r"^\d\d_[A-Za-z0-9_]+$")
#: What a parameter value may be (checked before anything runs).
PARAMETER_TYPES = "str, int, float (finite), bool, None, and lists / dicts of them (dict keys: str)"
#: Deepest nesting of lists / dicts in a parameter value.
MAX_NESTING = 20


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
    """The runnable notebooks ``NN_name.ipynb`` (regular files) of ``notebooks_dir``, in order."""
    folder = Path(notebooks_dir) if notebooks_dir is not None else default_notebooks_dir()
    if not folder.is_dir():
        return []
    folder = Path(os.path.abspath(folder))
    return sorted(
        p for p in folder.glob("*.ipynb") if NOTEBOOK_PATTERN.match(p.stem) and p.is_file()
    )


def resolve_notebooks(
    names: Sequence[str | os.PathLike[str]] | None,
    notebooks_dir: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Map notebook references to paths.

    A reference is a full name (``00_tour``), a name without its number (``tour``), just the
    number (``00``) -- of a notebook of ``notebooks_dir`` -- or the path of an existing
    ``NN_name.ipynb`` file (a reference holding a path separator is always a path: it is never
    looked up by name). ``None`` or an empty list selects every notebook in order.

    Raises
    ------
    RunnerUsageError
        An unknown or ambiguous reference (the message lists the available notebooks), a path
        that does not exist or is not a regular file, a file not named ``NN_name.ipynb``, or two
        notebooks of the same name (they would write the same results folder).
    """
    available = list_notebooks(notebooks_dir)
    if not names:
        if not available:
            folder = notebooks_dir if notebooks_dir is not None else default_notebooks_dir()
            raise RunnerUsageError(f"no notebooks (NN_name.ipynb) found in {str(folder)!r}")
        return available
    out: list[Path] = []
    for ref in names:
        path = _resolve_one(ref, available)
        if path in out:
            continue
        clash = [p for p in out if p.stem == path.stem]
        if clash:
            raise RunnerUsageError(
                f"two notebooks named {path.stem} ({clash[0]} and {path}): they would write "
                "the same results folder; run them separately with different --out folders"
            )
        out.append(path)
    return out


def _resolve_one(ref: str | os.PathLike[str], available: list[Path]) -> Path:
    text = os.fspath(ref)
    if not isinstance(text, str):
        raise RunnerUsageError(f"notebook reference must be a name or a path, got {ref!r}")
    is_path = os.sep in text or "/" in text or (os.altsep is not None and os.altsep in text)
    candidate = Path(text)
    if is_path or text.endswith(".ipynb"):
        if is_path or os.path.lexists(candidate):
            return _notebook_file(candidate)
        text = text[: -len(".ipynb")]  # a bare file name: the notebook of that name
    matches = [p for p in available if text in (p.stem, p.stem.split("_", 1)[1], p.stem[:2])]
    if len(matches) == 1:
        return matches[0]
    listing = ", ".join(p.stem for p in available) or "(none)"
    if matches:
        raise RunnerUsageError(
            f"notebook {text!r} is ambiguous: {', '.join(p.stem for p in matches)}; "
            "give its full name"
        )
    raise RunnerUsageError(f"unknown notebook {text!r}; available: {listing}")


def _notebook_file(candidate: Path) -> Path:
    """``candidate`` (made absolute, symlinks kept: its name is the notebook's name) if it is an
    existing regular file named ``NN_name.ipynb``."""
    path = Path(os.path.abspath(candidate))
    if not os.path.lexists(path):
        raise RunnerUsageError(f"notebook {str(candidate)!r} does not exist ({path})")
    if not path.is_file():
        raise RunnerUsageError(f"notebook {str(candidate)!r} is not a regular file ({path})")
    if path.suffix != ".ipynb" or not NOTEBOOK_PATTERN.match(path.stem):
        raise RunnerUsageError(
            f"notebook {str(candidate)!r}: the file name must be NN_name.ipynb (two digits, "
            "an underscore, then letters, digits or underscores), got "
            f"{path.name!r}; its results folder is named after it"
        )
    return path


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


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60


def _short(value: Any) -> str:
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        return f"<{_type_name(value)} object>"


def check_parameter_value(name: str, value: Any) -> None:
    """Raise :class:`RunnerUsageError` unless ``value`` can be passed to a notebook.

    Allowed (:data:`PARAMETER_TYPES`): ``str`` (valid Unicode, i.e. encodable as UTF-8),
    ``int``, finite ``float``, ``bool``, ``None``, and ``list`` / ``dict`` of them (dict keys
    ``str``), nested at most :data:`MAX_NESTING` levels; exactly these types, not subclasses.
    Tuples, sets, bytes, complex numbers, non-str keys, NaN and infinity are refused: none of
    them reaches the notebook unchanged (the injected cell and the JSON manifest hold only
    these types).
    """
    _check_value(name, value, name, 0)


def _check_value(param: str, value: Any, at: str, depth: int) -> None:
    where = f"parameter {param}" + ("" if at == param else f" (at {at})")
    if depth > MAX_NESTING:
        raise RunnerUsageError(f"{where}: lists / dicts nested deeper than {MAX_NESTING} levels")
    kind = type(value)
    if value is None or kind is bool:
        return
    if kind is int:
        try:
            str(value)
        except ValueError:
            raise RunnerUsageError(f"{where}: the integer has too many digits") from None
        return
    if kind is float:
        if not math.isfinite(value):
            raise RunnerUsageError(
                f"{where}: float {value!r} is not allowed (NaN and infinity cannot be passed); "
                f"allowed: {PARAMETER_TYPES}"
            )
        return
    if kind is str:
        _check_text(where, "text", value)
        return
    if kind is list:
        for i, item in enumerate(value):
            _check_value(param, item, f"{at}[{i}]", depth + 1)
        return
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise RunnerUsageError(
                    f"{where}: dict key {_short(key)} is of type {_type_name(key)}; dict keys "
                    f"must be str (allowed: {PARAMETER_TYPES})"
                )
            _check_text(where, "dict key", key)
            _check_value(param, item, f"{at}[{key!r}]", depth + 1)
        return
    hint = " (write it as a list: [...])" if kind in (tuple, set, frozenset) else ""
    raise RunnerUsageError(
        f"{where}: a value of type {kind.__name__} ({_short(value)}) is not allowed{hint}; "
        f"allowed: {PARAMETER_TYPES}"
    )


def _check_text(where: str, what: str, text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RunnerUsageError(
            f"{where}: {what} {_short(text)} holds a character that is not valid Unicode "
            f"(position {exc.start}; e.g. non-UTF-8 bytes on the command line); pass UTF-8 text"
        ) from None


def _is_passable(value: Any) -> bool:
    try:
        _check_value("", value, "", 0)
    except RunnerUsageError:
        return False
    return True


def injected_parameters(
    effective: Mapping[str, Any], declared: Mapping[str, Any]
) -> dict[str, Any]:
    """The values papermill injects: every effective value, except a declared default the
    injected cell cannot hold (a tuple, ...) and left unchanged (the notebook's own
    ``parameters`` cell sets it)."""
    out = {}
    for name, value in effective.items():
        if _is_passable(value):
            out[name] = value
        elif not (name in declared and same_value(value, declared[name])):
            check_parameter_value(name, value)  # raises
    return out


def same_value(a: Any, b: Any) -> bool:
    """Equal values of the same types, recursively (``1``, ``1.0`` and ``True`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def injected_cell(parameters: Mapping[str, Any], *, kernel_name: str = "python3") -> str:
    """The source of the cell papermill injects for ``parameters`` (its Python translator)."""
    return str(translate_parameters(kernel_name, "python", dict(parameters), "Parameters"))


def check_injected_cell(source: str, parameters: Mapping[str, Any], notebook: str) -> None:
    """Refuse to execute unless the injected cell ``source`` is only ``NAME = literal``
    assignments that give exactly ``parameters``.

    Raises
    ------
    RunnerUsageError
        Naming the notebook and the parameter (or line) that does not match.
    """
    where = f"{notebook}: injected parameters cell"
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        raise RunnerUsageError(f"{where} does not parse ({exc}); refused to execute") from None
    seen: dict[str, Any] = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):  # fmt: skip
            raise RunnerUsageError(
                f"{where}, line {stmt.lineno}: not a `NAME = literal` assignment; refused to execute"
            )
        name = stmt.targets[0].id
        try:
            value = ast.literal_eval(stmt.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise RunnerUsageError(
                f"{where}: parameter {name} is not given as a literal; refused to execute"
            ) from None
        if name in seen or name not in parameters:
            raise RunnerUsageError(
                f"{where}, line {stmt.lineno}: unexpected assignment to {name}; refused to execute"
            )
        seen[name] = value
    for name, value in parameters.items():
        if name not in seen or not same_value(seen[name], value):
            raise RunnerUsageError(
                f"{where}: parameter {name} would arrive as {_short(seen.get(name))}, not as the "
                f"value given ({_short(value)}); refused to execute"
            )


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
            try:
                value = float(value)
            except OverflowError:
                raise RunnerUsageError(
                    f"{notebook}: parameter {name}: {_short(value)} is too large for a float"
                ) from None
    else:
        if expected is tuple and type(value) is list:
            expected = list  # a tuple default is overridden with a list (tuples cannot be passed)
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
        if not isinstance(name, str):
            raise RunnerUsageError(f"parameter names must be str, got {_short(name)}")
        check_parameter_value(name, value)
        if name not in declared:
            raise RunnerUsageError(
                f"{path.stem}: parameter {name!r} is not declared in its parameters cell; "
                f"declared: {', '.join(sorted(declared))}"
            )
        effective[name] = _coerce(name, value, declared[name], path.stem)
    effective["DATA_SIZE"] = size
    return effective
