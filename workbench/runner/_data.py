"""The data parameters of a run (``CORPUS``, ``WORDSIM``, ...; :mod:`workbench.studies.data`):
relative paths made absolute, every path checked before any notebook runs, and the user's files
listed with their size and sha256 for the manifest."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench._io import file_sha256
from workbench.datasets import WORDSIM_NAMES
from workbench.runner._notebooks import RunnerUsageError
from workbench.studies.data import DATA_PARAMETERS, DataChoice, check_data_parameters

__all__ = ["absolute_data_paths", "check_data", "user_data"]

_BUNDLED_CORPORA = ("1M", "5M", "25M")
_WORDSIM_KEYS = {n.upper(): n for n in WORDSIM_NAMES}


def _rating_set(value: Any) -> Any:
    """A bundled rating-set name in its canonical spelling (``"men"`` -> ``"MEN"``), else the
    absolute path."""
    if isinstance(value, str) and value.upper() in _WORDSIM_KEYS:
        return _WORDSIM_KEYS[value.upper()]
    return _absolute(value)


def _absolute(value: Any) -> Any:
    """A relative path string made absolute against the current folder (other values as given)."""
    if isinstance(value, str) and value and not os.path.isabs(os.path.expanduser(value)):
        return str(Path(value).expanduser().resolve())
    if isinstance(value, str) and value.startswith("~"):
        return str(Path(value).expanduser())
    return value


def absolute_data_paths(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """``parameters`` with the paths of the data parameters made absolute.

    The kernels run in the notebooks folder, so a path relative to where ``workbench run`` was
    started would name another file there. Bundled names are left as they are (``CORPUS="5M"``)
    or spelled as bundled (``WORDSIM=["men"]`` -> ``["MEN"]``); other parameters are unchanged.
    """
    out = dict(parameters)
    for name, value in parameters.items():
        if name == "CORPUS" and value not in _BUNDLED_CORPORA:
            out[name] = _absolute(value)
        elif name == "WORDSIM" and isinstance(value, list):
            out[name] = [_rating_set(v) for v in value]
        elif name == "WORDSIM" and isinstance(value, str):
            out[name] = _rating_set(value)
        elif name in ("PRETRAINED", "PARALLEL") and isinstance(value, list):
            out[name] = [_absolute(v) for v in value]
        elif name in ("PRETRAINED", "PARALLEL") and isinstance(value, str):
            out[name] = _absolute(value)
        elif name == "LEXICONS" and isinstance(value, dict):
            out[name] = {k: _absolute(v) for k, v in value.items()}
    return out


def check_data(parameters: Mapping[str, Any], notebook: str) -> DataChoice | None:
    """:func:`workbench.studies.data.check_data_parameters` with its errors as
    :class:`RunnerUsageError` naming the notebook (the message names the parameter)."""
    try:
        return check_data_parameters(parameters)
    except (TypeError, ValueError, OSError) as exc:
        raise RunnerUsageError(f"{notebook}: {exc}") from None


def _files_of(path: Path) -> list[Path]:
    """``path`` itself, or the regular, non-hidden files directly in a folder (sorted)."""
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    return [path]


def user_data(parameters: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Path, size and sha256 of every user file a run reads (every file of a folder), in the
    order of :meth:`DataChoice.user_files`; ``[]`` for the bundled data."""
    given = {k: v for k, v in parameters.items() if k in DATA_PARAMETERS}
    if not given:
        return []
    choice = DataChoice.from_parameters(**given)
    seen: set[Path] = set()
    out: list[dict[str, Any]] = []
    for named in choice.user_files():
        for f in _files_of(named.resolve()):
            if f in seen:
                continue
            seen.add(f)
            out.append({"path": str(f), "size": f.stat().st_size, "sha256": file_sha256(f)})
    return out
