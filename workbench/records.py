"""Notebook-side output helpers: record key numbers, save tables and figures.

Notebooks executed by :mod:`workbench.runner` call :func:`record` in their final cell;
the values are written to the run's JSON file (path in the ``WORKBENCH_RECORD_FILE``
environment variable) and also embedded in the executed notebook as a display output
with the MIME type :data:`RECORD_MIME`, so :func:`read_records` can recover them from
either. :func:`save_table` and :func:`save_figure` write into the run's output folder
(``WORKBENCH_OUTPUT_DIR``; when a notebook is run by hand in JupyterLab, into
``results/interactive/`` of the checkout).
"""

from __future__ import annotations

import json
import math
import os
import string
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

RECORD_MIME = "application/vnd.workbench.record+json"
RECORD_FILE_ENV = "WORKBENCH_RECORD_FILE"
OUTPUT_DIR_ENV = "WORKBENCH_OUTPUT_DIR"

__all__ = [
    "RECORD_MIME",
    "narrate",
    "recorded",
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
    """Convert numpy / pandas values to plain JSON types (NaN and inf become ``None``)."""
    if isinstance(value, pd.DataFrame):
        return {
            "__type__": "DataFrame",
            "columns": [to_jsonable(c) for c in value.columns],
            "index": [to_jsonable(i) for i in value.index],
            "data": [[to_jsonable(v) for v in row] for row in value.itertuples(index=False)],
        }
    if isinstance(value, pd.Series):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [to_jsonable(v) for v in value.tolist()]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Path):
        return str(value)
    raise TypeError(
        f"record(): cannot store a value of type {type(value).__name__}; "
        "use numbers, strings, lists, dicts, numpy arrays or pandas objects"
    )


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
    """
    if not isinstance(name, str) or not name:
        raise ValueError("record(): name must be a non-empty string")
    payload = to_jsonable(value)
    _RECORDED[name] = payload
    target = os.environ.get(RECORD_FILE_ENV)
    if target:
        path = Path(target)
        current: dict[str, Any] = {}
        if path.exists():
            current = json.loads(path.read_text(encoding="utf-8") or "{}")
        current[name] = payload
        atomic_write_text(path, json.dumps(current, indent=2, sort_keys=True))
    try:  # embed in the executed notebook as well
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is not None:
            display({RECORD_MIME: {name: payload}}, raw=True)
    except ImportError:  # pragma: no cover - IPython is a dependency
        pass
    return payload


#: Values recorded in this process (what :func:`narrate` reads).
_RECORDED: dict[str, Any] = {}


def points(value: Any, *, signed: bool = False) -> str:
    """A fraction as points with one decimal (``0.4213`` -> ``"42.1"``; ``signed``: ``"+42.1"``),
    ``"n/a"`` for None or a non-finite value -- the ``pts`` / ``dpts`` specs of :func:`narrate`."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{100 * float(value):{'+' if signed else ''}.1f}"


def recorded() -> dict[str, Any]:
    """A copy of the values recorded so far in this process (this notebook run)."""
    return json.loads(json.dumps(_RECORDED))


class _NarrationFormatter(string.Formatter):
    """``str.format`` with extra format specs for numbers of a run:

    * ``pts`` -- a fraction as points with one decimal (``0.4213`` -> ``42.1``);
    * ``dpts`` -- a signed difference in points (``-0.012`` -> ``-1.2``, ``0.03`` -> ``+3.0``);
    * ``p`` -- a p-value (``< 0.001`` below one in a thousand, else three decimals);
    * ``mpts`` / ``mdpts`` -- per-seed values (a list, or a dict keyed by seed) as
      ``mean ± sd`` in points (``[0.42, 0.44]`` -> ``43.0 ± 1.4``; one seed: the value alone).
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in ("mpts", "mdpts"):
            from workbench.significance.seeds import _values

            vals = _values(value)
            vals = vals[np.isfinite(vals)]
            if vals.size == 0:
                return "n/a"
            sign = "+" if format_spec == "mdpts" else ""
            text = f"{100 * vals.mean():{sign}.1f}"
            return text + (f" ± {100 * vals.std(ddof=1):.1f}" if vals.size > 1 else "")
        if format_spec in ("pts", "dpts", "p"):
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                return "n/a"
            v = float(value)
            if format_spec == "pts":
                return f"{100 * v:.1f}"
            if format_spec == "dpts":
                return f"{100 * v:+.1f}"
            return "< 0.001" if v < 0.001 else f"{v:.3f}"
        return super().format_field(value, format_spec)

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str) and key not in kwargs:
            raise KeyError(
                f"narrate(): {key!r} is neither recorded in this run nor passed as a keyword; "
                f"recorded: {sorted(_RECORDED)}"
            )
        return super().get_value(key, args, kwargs)


def narrate(template: str, /, **values: Any) -> Any:
    """Render prose whose numbers come from this run: ``template`` formatted with the values
    recorded so far (:func:`record`) and ``values``, displayed as Markdown.

    Fields use ``str.format`` syntax with item access into recorded dicts
    (``{scores[MEN]:pts}``) and the extra specs ``pts``, ``dpts`` and ``p`` (see
    :class:`_NarrationFormatter`). A field that is neither recorded nor passed raises KeyError
    naming it, so prose cannot quote a number the run did not produce.

    Returns
    -------
    IPython.display.Markdown
        (Displayed by the notebook when it is a cell's last expression.)
    """
    from IPython.display import Markdown

    text = _NarrationFormatter().vformat(template, (), {**recorded(), **values})
    return Markdown(text)


def read_records(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read the values recorded by a notebook run.

    Parameters
    ----------
    path : path-like
        Either the run's ``records.json`` or an executed ``.ipynb``.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no records at {path}")
    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        out: dict[str, Any] = {}
        for cell in nb.get("cells", []):
            for o in cell.get("outputs", []):
                data = o.get("data", {})
                if RECORD_MIME in data:
                    out.update(data[RECORD_MIME])
        return out
    raise ValueError(f"{path}: expected a .json records file or an executed .ipynb")


def find_records(
    notebook: str,
    size: str,
    *,
    root: str | os.PathLike[str] | None = None,
    current_only: bool = True,
) -> dict[str, Any] | None:
    """The records of the newest complete run of ``notebook`` at ``size`` under ``root``.

    Looks for ``<root>/**/<notebook>/manifest.json`` written by :mod:`workbench.runner` with
    ``status == "complete"`` and ``parameters["DATA_SIZE"] == size`` (``root`` defaults to the
    checkout's ``results/`` folder) and returns its ``records.json``; None when there is none.
    With ``current_only`` (default) only runs of the current version of the notebook count
    (the manifest's ``notebook_sha256`` equals that of ``notebooks/<notebook>.ipynb``), so a
    run of an older version is never compared as if it were this one.
    """
    base = Path(root) if root is not None else _project_root() / "results"
    best: tuple[str, Path] | None = None
    if not base.is_dir():
        return None
    want_sha = None
    if current_only:
        source = _project_root() / "notebooks" / f"{notebook}.ipynb"
        if not source.is_file():
            return None
        import hashlib

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


def _project_root() -> Path:
    """The workbench checkout containing the working directory (or the working directory)."""
    cwd = Path.cwd().resolve()
    for folder in (cwd, *cwd.parents):
        if (folder / "notebooks").is_dir() and (folder / "workbench").is_dir():
            return folder
    return cwd


def output_dir() -> Path:
    """The folder where the current notebook run writes its tables and figures."""
    env = os.environ.get(OUTPUT_DIR_ENV)
    path = Path(env) if env else _project_root() / "results" / "interactive"
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_table(name: str, table: pd.DataFrame, *, index: bool = True) -> Path:
    """Save a table as CSV into the run's output folder; returns the CSV path."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"save_table({name!r}): expected a pandas DataFrame, got {type(table).__name__}"
        )
    path = output_dir() / "tables" / f"{name}.csv"
    atomic_write_text(path, table.to_csv(index=index))
    return path


def save_figure(name: str, fig: Any = None) -> list[Path]:
    """Save a matplotlib figure as PNG and PDF into the run's output folder."""
    import matplotlib.pyplot as plt

    fig = fig if fig is not None else plt.gcf()
    folder = output_dir() / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in ("png", "pdf"):
        path = folder / f"{name}.{ext}"
        tmp = folder / f".{name}.tmp.{ext}"
        fig.savefig(tmp, dpi=150, bbox_inches="tight")
        os.replace(tmp, path)
        paths.append(path)
    return paths
