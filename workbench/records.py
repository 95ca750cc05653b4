"""Notebook-side output helpers: record key numbers, save tables and figures.

Notebooks executed by :mod:`workbench.runner` call :func:`record` in their final cell;
the values are written to the run's JSON file (path in the ``WORKBENCH_RECORD_FILE``
environment variable) and also embedded in the executed notebook as a display output
with the MIME type :data:`RECORD_MIME`, so :func:`read_records` can recover them from
either. :func:`save_table` and :func:`save_figure` write into the run's output folder
(``WORKBENCH_OUTPUT_DIR``; when a notebook is run by hand in JupyterLab, into
``results/interactive/<notebook>/`` of the checkout, one folder per notebook).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython import get_ipython
from IPython.display import display
from matplotlib.figure import Figure

from workbench._io import atomic_path, atomic_write_text
from workbench._typing import PathLikeStr
from workbench._validation import check_bool, check_dir, check_file, format_error
from workbench.notebook_log import OUTPUT_DIR_ENV, output_dir, project_root

RECORD_MIME = "application/vnd.workbench.record+json"
RECORD_FILE_ENV = "WORKBENCH_RECORD_FILE"

__all__ = [
    "RECORD_MIME",
    "RECORD_FILE_ENV",
    "OUTPUT_DIR_ENV",
    "record_all",
    "recorded",
    "roundtrip",
    "StudyResult",
    "to_jsonable",
    "record",
    "read_records",
    "find_records",
    "output_dir",
    "save_table",
    "save_figure",
    "atomic_write_text",
]


def to_jsonable(value: Any) -> Any:
    """Convert numpy / pandas values to plain JSON types.

    NaN, inf and the pandas missing values (``pd.NA``, ``pd.NaT``) become ``None``: JSON has no
    NaN, and the records deliberately hold undefined numbers (the p-value of a comparison with
    too few items, the standard deviation over a single seed); read back they are ``None``,
    which the Discussion templates print as ``"n/a"``.

    Raises
    ------
    TypeError
        A value of an unsupported type (the message gives where in ``value`` it is).
    ValueError
        A mapping or Series whose keys collide once made strings (``1`` and ``"1"``), which
        JSON would silently merge.
    """
    return _jsonable(value, "value")


def _jsonable(value: Any, where: str) -> Any:
    if isinstance(value, pd.DataFrame):
        return {
            "__type__": "DataFrame",
            "columns": [_jsonable(c, f"{where}.columns") for c in value.columns],
            "index": [_jsonable(i, f"{where}.index") for i in value.index],
            "data": [
                [_jsonable(v, f"{where}[{c!r}]") for c, v in zip(value.columns, row)]
                for row in value.itertuples(index=False)
            ],  # fmt: skip
        }
    if isinstance(value, (pd.Series, Mapping)):
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = str(k)
            if key in out:
                raise ValueError(
                    f"{where} has two keys that are both {key!r} as JSON strings; JSON would keep "
                    "only one of them (make the keys or the Series index unique)"
                )
            out[key] = _jsonable(v, f"{where}[{k!r}]")
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, np.ndarray):
        return [_jsonable(v, f"{where}[{i}]") for i, v in enumerate(value.tolist())]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, str):
        return str(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(
        f"cannot store {where} of type {type(value).__name__}; "
        "use numbers, strings, lists, dicts, numpy arrays or pandas objects"
    )


def record(name: str, value: Any) -> Any:
    """Record a key number (or table) of a notebook run for tests and reports.

    Parameters
    ----------
    name : str
        Key under which the value is stored; recording the same key twice overwrites it.
    value : Any
        A JSON-representable value: numbers, strings, lists, dicts, numpy arrays,
        pandas Series or DataFrames.

    Returns
    -------
    Any
        The JSON form that was stored.

    Raises
    ------
    TypeError
        ``name`` is not a string, or ``value`` (somewhere inside) has an unsupported type; the
        message names the record and where in the value.
    ValueError
        ``name`` is empty, or keys of a mapping / Series collide as JSON strings.

    Notes
    -----
    NaN and infinite numbers are stored as ``null`` (JSON has no NaN) and read back as
    ``None``. This is deliberate: notebooks record undefined values -- the p-value of a
    comparison on too few items, the standard deviation over one seed, an MRDS that does not
    exist at that size -- and the Discussion templates' number filters print ``None`` as "n/a"
    (:mod:`workbench.templating`).
    """
    if not isinstance(name, str):
        raise TypeError(
            f"record(): name must be a non-empty string, got {name!r} ({type(name).__name__})"
        )
    if not name:
        raise ValueError("record(): name must be a non-empty string, got ''")
    try:
        payload = _jsonable(value, "the value")
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"record({name!r}): {exc}") from None
    _store({name: payload})
    return payload


def _store(payloads: Mapping[str, Any]) -> None:
    """Keep ``payloads`` (JSON values by record name) in this process, in the run's records file
    and, in a kernel, in the executed notebook."""
    _RECORDED.update(payloads)
    target = os.environ.get(RECORD_FILE_ENV)
    if target:
        path = Path(target)
        current: dict[str, Any] = {}
        if path.exists():
            current = json.loads(path.read_text(encoding="utf-8") or "{}")
        current.update(payloads)
        atomic_write_text(path, json.dumps(current, indent=2, sort_keys=True))
    if get_ipython() is not None:  # embed in the executed notebook as well
        display({RECORD_MIME: dict(payloads)}, raw=True)


@runtime_checkable
class StudyResult(Protocol):
    """What :func:`record_all` records: a study's frozen result, whose ``records()`` is the one
    definition of every record key of its notebook (a ``TypedDict`` of JSON values)."""

    def records(self) -> Mapping[str, Any]: ...


def record_all(result: StudyResult) -> dict[str, Any]:
    """Record every value of ``result.records()`` -- the one way a notebook records its numbers.

    Parameters
    ----------
    result : StudyResult
        A study's result (e.g. what ``mvlsa.run_ablation`` returns); its ``records()`` maps each
        record key to a JSON value.

    Returns
    -------
    dict
        The JSON form of everything recorded so far in this run (what the Discussion reads).

    Raises
    ------
    TypeError
        ``result`` has no ``records()`` method, it does not return a mapping with string keys,
        or a value has an unsupported type (the message names the record).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Result:
    ...     n: int
    ...     def records(self):
    ...         return {"n": self.n, "half": self.n / 2}
    >>> record_all(Result(3))["half"]
    1.5
    """
    if not isinstance(result, StudyResult):
        raise TypeError(
            "record_all() needs a study result with a records() method, got "
            f"{type(result).__name__}"
        )
    values = result.records()
    if not isinstance(values, Mapping):
        raise TypeError(
            f"{type(result).__name__}.records() must return a mapping, got {type(values).__name__}"
        )
    payloads: dict[str, Any] = {}
    for name, value in values.items():
        if not isinstance(name, str) or not name:
            raise TypeError(
                f"{type(result).__name__}.records(): keys must be non-empty strings, got {name!r}"
            )
        try:
            payloads[name] = _jsonable(value, "the value")
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"record_all(): record {name!r}: {exc}") from None
    _store(payloads)
    return recorded()


def roundtrip(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` as they read back from a records file (JSON round trip of their JSON form):
    tests check that a study's ``records()`` equals its own round trip, i.e. holds JSON values
    only."""
    return json.loads(json.dumps(_jsonable(dict(values), "records")))


#: Values recorded in this process (what :func:`recorded` returns).
_RECORDED: dict[str, Any] = {}


def recorded() -> dict[str, Any]:
    """A copy of the values recorded so far in this process (this notebook run)."""
    return json.loads(json.dumps(_RECORDED))


def read_records(path: PathLikeStr) -> dict[str, Any]:
    """Read the values recorded by a notebook run.

    Parameters
    ----------
    path : path-like
        Either the run's ``records.json`` or an executed ``.ipynb``.

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    workbench._validation.DataFormatError
        The file is not valid JSON, or not a JSON object (the message names the file and line).
    ValueError
        ``path`` is neither a ``.json`` nor an ``.ipynb`` file.
    """
    if isinstance(path, (str, os.PathLike)) and not Path(path).expanduser().exists():
        raise FileNotFoundError(f"no records at {path}")
    path = check_file(path, "path", allow_empty=True)
    if path.suffix not in (".json", ".ipynb"):
        raise ValueError(f"{path}: expected a .json records file or an executed .ipynb")
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except json.JSONDecodeError as exc:
        raise format_error(path, exc.lineno, f"not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise format_error(path, None, f"expected a JSON object, got a {type(data).__name__}")
    if path.suffix == ".json":
        return data
    out: dict[str, Any] = {}  # an executed notebook: the records embedded in its outputs
    for cell in data.get("cells", []):
        for o in cell.get("outputs", []):
            bundle = o.get("data", {})
            if RECORD_MIME in bundle:
                out.update(bundle[RECORD_MIME])
    return out


def find_records(
    notebook: str,
    size: str,
    *,
    root: PathLikeStr | None = None,
    current_only: bool = True,
) -> dict[str, Any] | None:
    """The records of the newest complete run of ``notebook`` at ``size`` under ``root``.

    Looks for ``<root>/**/<notebook>/manifest.json`` written by :mod:`workbench.runner` with
    ``status == "complete"`` and ``parameters["DATA_SIZE"] == size`` (``root`` defaults to the
    checkout's ``results/`` folder) and returns its ``records.json``; None when there is none.
    With ``current_only`` (default) only runs of the current version of the notebook count
    (the manifest's ``notebook_sha256`` equals that of ``notebooks/<notebook>.ipynb``), so a
    run of an older version is never compared as if it were this one.

    Raises
    ------
    TypeError
        ``notebook`` or ``size`` is not a string, ``root`` not a path, ``current_only`` not a
        bool.
    ValueError
        ``notebook`` is not the name of a notebook of the checkout (the message lists them), or
        holds a path separator or a glob character.
    FileNotFoundError, NotADirectoryError
        ``root`` was given but is not a folder (the default ``results/`` may be missing: None).
    """
    for name, val in (("notebook", notebook), ("size", size)):
        if not isinstance(val, str) or not val:
            raise TypeError(f"{name} must be a non-empty string, got {val!r}")
    if any(c in notebook for c in "/\\*?[]"):
        raise ValueError(f"notebook must be a notebook name such as '03_mvlsa', got {notebook!r}")
    current_only = check_bool(current_only, "current_only")
    base = check_dir(root, "root") if root is not None else project_root() / "results"
    folder = project_root() / "notebooks"
    if folder.is_dir() and not (folder / f"{notebook}.ipynb").is_file():
        known = sorted(p.stem for p in folder.glob("*.ipynb"))
        raise ValueError(f"unknown notebook {notebook!r}; notebooks: {', '.join(known)}")
    best: tuple[str, Path] | None = None
    if not base.is_dir():
        return None
    want_sha = None
    if current_only:
        source = folder / f"{notebook}.ipynb"
        if not source.is_file():
            return None
        want_sha = hashlib.sha256(source.read_bytes()).hexdigest()
    for manifest in base.glob(f"**/{notebook}/manifest.json"):
        try:
            meta = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if meta.get("status") != "complete":
            continue
        if (meta.get("parameters") or {}).get("DATA_SIZE") != size:
            continue
        if want_sha is not None and meta.get("notebook_sha256") != want_sha:
            continue
        stamp = str(meta.get("finished", ""))
        rec = manifest.parent / "records.json"
        if rec.is_file() and (best is None or stamp > best[0]):
            best = (stamp, rec)
    return None if best is None else read_records(best[1])


def _check_output_name(name: Any, where: str) -> str:
    """``name`` as the file stem of a table / figure: a non-empty string without path parts."""
    if not isinstance(name, str):
        raise TypeError(f"{where}: name must be a string, got {name!r} ({type(name).__name__})")
    if not name or name.startswith(".") or any(c in name for c in "/\\"):
        raise ValueError(
            f"{where}: name must be a non-empty file name without '/', '\\' or a leading '.', "
            f"got {name!r}"
        )
    return name


def save_table(name: str, table: pd.DataFrame, *, index: bool = True) -> Path:
    """Save a table as CSV into the run's output folder; returns the CSV path.

    ``name`` is the file stem (no folder); a table that is not a DataFrame raises TypeError.
    """
    _check_output_name(name, "save_table()")
    index = check_bool(index, "index")
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"save_table({name!r}): expected a pandas DataFrame, got {type(table).__name__}"
        )
    path = output_dir() / "tables" / f"{name}.csv"
    atomic_write_text(path, table.to_csv(index=index))
    return path


def save_figure(name: str, fig: Figure | None = None) -> list[Path]:
    """Save a matplotlib figure as PNG and PDF into the run's output folder.

    ``name`` is the file stem (no folder); ``fig`` defaults to the current figure.
    """
    _check_output_name(name, "save_figure()")
    if fig is not None and not callable(getattr(fig, "savefig", None)):
        raise TypeError(
            f"save_figure({name!r}): fig must be a matplotlib Figure or None, "
            f"got {type(fig).__name__}"
        )
    fig = fig if fig is not None else plt.gcf()
    folder = output_dir() / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in ("png", "pdf"):
        path = folder / f"{name}.{ext}"
        with atomic_path(path, suffix=f".{ext}") as tmp:
            fig.savefig(tmp, dpi=150, bbox_inches="tight")
        paths.append(path)
    return paths
