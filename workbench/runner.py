"""Execute the workbench notebooks with papermill and collect their results.

:func:`run_notebooks` is the engine behind ``python -m workbench run``. For every selected
notebook it

1. validates the requested parameters against the notebook's ``parameters`` cell
   (*before anything runs*: an unknown notebook, an undeclared parameter or a value of
   the wrong type raises :class:`RunnerUsageError`);
2. skips the notebook when ``<out>/<name>/manifest.json`` already records a complete run
   with identical parameters (and an unchanged notebook), unless ``force=True``;
3. executes it with papermill (kernel ``python3`` of the running interpreter, working
   directory = the notebooks folder) into a hidden sibling folder
   ``<out>/.<name>.partial-XXXX`` — the notebook writes ``records.json``,
   ``tables/*.csv`` and ``figures/*.png|pdf`` there through :mod:`workbench.records`;
4. on success writes ``manifest.json`` *last* and renames the folder onto
   ``<out>/<name>``; an interrupted run never leaves a folder that looks complete;
5. on failure keeps the executed copy in ``<out>/<name>.failed/`` and reports the
   failing cell and its error; the remaining notebooks still run.

Finally ``<out>/summary.json`` and ``<out>/summary.md`` describe the invocation.

Notebook-side helpers :func:`record` and :func:`read_records` are re-exported from
:mod:`workbench.records`.
"""

from __future__ import annotations

import ast
import contextlib
import datetime as _dt
import hashlib
import json
import logging
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from workbench.records import (
    OUTPUT_DIR_ENV,
    RECORD_FILE_ENV,
    atomic_write_text,
    read_records,
    record,
    to_jsonable,
)

logger = logging.getLogger(__name__)

__all__ = [
    "REQUIRED_PARAMETERS",
    "SIZES",
    "NotebookFailure",
    "NotebookFormatError",
    "NotebookResult",
    "RunReport",
    "RunnerUsageError",
    "default_notebooks_dir",
    "list_notebooks",
    "notebook_parameters",
    "parse_parameter",
    "read_records",
    "record",
    "resolve_notebooks",
    "run_notebooks",
    "validate_parameters",
]

SIZES = ("small", "full")
#: Parameters every notebook must declare in its ``parameters`` cell.
REQUIRED_PARAMETERS = ("DATA_SIZE", "INTERACTIVE", "SEED")
NOTEBOOK_PATTERN = re.compile(r"^\d\d_[A-Za-z0-9_]+$")
MANIFEST = "manifest.json"
RECORDS = "records.json"
#: Distributions whose versions go into every manifest.
KEY_PACKAGES = (
    "workbench",
    "numpy",
    "scipy",
    "pandas",
    "scikit-learn",
    "gensim",
    "nltk",
    "matplotlib",
    "papermill",
    "ipykernel",
)


class RunnerUsageError(ValueError):
    """Bad request (unknown notebook, undeclared parameter, wrong type); nothing was run."""


class NotebookFormatError(RunnerUsageError):
    """A notebook whose ``parameters`` cell does not follow the conventions."""


# --------------------------------------------------------------------------- discovery


def repo_root() -> Path:
    """The repository folder (parent of the ``workbench`` package)."""
    return Path(__file__).resolve().parents[1]


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


def validate_parameters(
    path: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    size: str = "full",
) -> dict[str, Any]:
    """Effective parameters of one notebook run: defaults, then ``parameters``, then size.

    Raises
    ------
    RunnerUsageError
        For an undeclared parameter, a value of the wrong type, a bad size or a
        ``DATA_SIZE`` parameter that contradicts ``size``.
    """
    path = Path(path)
    if size not in SIZES:
        raise RunnerUsageError(f"size must be one of {SIZES}, got {size!r}")
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
    for name, value in given.items():
        if name not in declared:
            raise RunnerUsageError(
                f"{path.stem}: parameter {name!r} is not declared in its parameters cell; "
                f"declared: {', '.join(sorted(declared))}"
            )
        effective[name] = _coerce(name, value, declared[name], path.stem)
    effective["DATA_SIZE"] = size
    return effective


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class NotebookFailure:
    """Where and how a notebook failed.

    ``cell_index`` counts the cells of the source notebook from 0 (``None`` when the
    failure happened outside a cell, e.g. the kernel died); ``execution_count`` is the
    ``In [n]`` number in the executed copy.
    """

    cell_index: int | None
    execution_count: int | None
    ename: str
    evalue: str
    source: str = ""
    traceback: str = ""

    def describe(self) -> str:
        where = (
            f"cell {self.cell_index} (In [{self.execution_count}])"
            if self.cell_index is not None
            else "outside any cell"
        )
        text = f"{where}: {self.ename}: {self.evalue}"
        if self.source:
            snippet = "\n".join("    " + line for line in self.source.strip().splitlines()[:8])
            text += f"\n  failing cell source:\n{snippet}"
        return text


@dataclass(frozen=True)
class NotebookResult:
    """Outcome for one notebook: ``status`` is "complete", "skipped" or "failed"."""

    name: str
    status: str
    output_dir: Path
    parameters: dict[str, Any] = field(default_factory=dict)
    wall_time: float = 0.0
    failure: NotebookFailure | None = None

    @property
    def records(self) -> dict[str, Any]:
        """Values the notebook recorded (empty for a failed run)."""
        path = self.output_dir / RECORDS
        return read_records(path) if self.status != "failed" and path.exists() else {}


@dataclass(frozen=True)
class RunReport:
    """Outcome of :func:`run_notebooks`."""

    results: tuple[NotebookResult, ...]
    out: Path

    @property
    def ok(self) -> bool:
        return all(r.status != "failed" for r in self.results)

    @property
    def failed(self) -> list[NotebookResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def exit_code(self) -> int:
        """0 when every notebook completed or was skipped, else 1."""
        return 0 if self.ok else 1

    def __getitem__(self, name: str) -> NotebookResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def summary_table(self) -> str:
        """A Markdown table: notebook, status, wall time, output folder / error."""
        lines = ["| notebook | status | wall time (s) | output / error |", "|---|---|---:|---|"]
        for r in self.results:
            if r.failure is not None:
                detail = r.failure.describe().splitlines()[0].replace("|", "\\|")
            else:
                detail = str(r.output_dir)
            lines.append(f"| {r.name} | {r.status} | {r.wall_time:.1f} | {detail} |")
        return "\n".join(lines)


# --------------------------------------------------------------------------- provenance


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def git_commit(root: Path | None = None) -> str:
    """The current git commit of the repository, or ``"unknown"``."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=root or repo_root(),
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and commit else "unknown"


def package_versions(names: Sequence[str] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of ``names`` (``"not installed"`` when missing)."""
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def data_checksums() -> dict[str, Any]:
    """sha256 of the bundled data files.

    Uses ``workbench.datasets.dataset_checksums()`` when available; otherwise hashes
    every file under ``<repo>/data`` (or ``$WORKBENCH_DATA``).
    """
    try:
        from workbench import datasets

        return dict(datasets.dataset_checksums())  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - provenance must never break a run
        logger.debug("dataset_checksums() unavailable (%s); hashing data/ directly", exc)
    env = os.environ.get("WORKBENCH_DATA")
    folder = Path(env) if env else repo_root() / "data"
    if not folder.is_dir():
        return {}
    return {
        str(p.relative_to(folder)): _sha256(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def _seeds(parameters: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: v for k, v in parameters.items() if "SEED" in k.upper() or "RANDOM_STATE" in k.upper()
    }


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- execution


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _is_up_to_date(folder: Path, parameters: Mapping[str, Any], nb_sha: str) -> bool:
    manifest = _read_manifest(folder)
    return (
        manifest is not None
        and manifest.get("status") == "complete"
        and manifest.get("parameters") == to_jsonable(dict(parameters))
        and manifest.get("notebook_sha256") == nb_sha
    )


def _replace_dir(src: Path, dst: Path) -> None:
    """Move ``src`` onto ``dst``; an existing ``dst`` is renamed away first, then deleted."""
    old: Path | None = None
    if dst.exists():
        old = dst.with_name(f".{dst.name}.old-{os.getpid()}-{time.monotonic_ns()}")
        os.replace(dst, old)
    os.replace(src, dst)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _remove_stale_partials(out: Path) -> None:
    """Delete ``.<name>.partial-<pid>-*`` folders left by runs whose process is gone (killed)."""
    for folder in out.glob(".*.partial-*"):
        match = re.search(r"\.partial-(\d+)-", folder.name)
        if not match or not folder.is_dir():
            continue
        pid = int(match.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # exists but not ours, or not checkable: leave it
            continue


def _failure_from_exception(exc: BaseException, params_index: int | None) -> NotebookFailure:
    from papermill.exceptions import PapermillExecutionError

    if isinstance(exc, PapermillExecutionError):
        index = exc.cell_index
        # papermill inserts an "injected-parameters" cell right after the parameters cell
        if params_index is not None and index is not None and index > params_index:
            index -= 1
        tb = exc.traceback or []
        tb_text = "\n".join(tb) if isinstance(tb, list) else str(tb)
        tb_text = re.sub(r"\x1b\[[0-9;]*m", "", tb_text)
        return NotebookFailure(
            cell_index=index,
            execution_count=exc.exec_count,
            ename=str(exc.ename),
            evalue=str(exc.evalue),
            source=str(exc.source or ""),
            traceback=tb_text,
        )
    return NotebookFailure(None, None, type(exc).__name__, str(exc))


def _execute(
    path: Path,
    output_notebook: Path,
    parameters: Mapping[str, Any],
    *,
    cwd: Path,
    kernel_name: str,
    progress: bool,
) -> None:
    """Execute one notebook with papermill (separate function so tests can patch it)."""
    import papermill as pm

    pm.execute_notebook(
        str(path),
        str(output_notebook),
        parameters=dict(parameters),
        cwd=str(cwd),
        kernel_name=kernel_name,
        progress_bar=progress,
        log_output=False,
        # the kernel's own start-up warnings are noise in a batch run; its errors still show
        extra_arguments=["--IPKernelApp.log_level=ERROR"],
    )


def _run_one(
    path: Path,
    parameters: dict[str, Any],
    *,
    size: str,
    out: Path,
    kernel_name: str,
    progress: bool,
    provenance: dict[str, Any],
) -> NotebookResult:
    name = path.stem
    final = out / name
    failed_dir = out / f"{name}.failed"
    nb_sha = _sha256(path)
    declared = notebook_parameters(path)
    params_index = _parameters_cells(_read_notebook_json(path))[0][0]
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.partial-{os.getpid()}-", dir=out))
    started = _now()
    t0 = time.perf_counter()
    failure: NotebookFailure | None = None
    try:
        with _environment(
            **{
                RECORD_FILE_ENV: str(tmp / RECORDS),
                OUTPUT_DIR_ENV: str(tmp),
                # figures both inline in the executed notebook and saved by save_figure
                "MPLBACKEND": "module://matplotlib_inline.backend_inline",
                # the kernelspec of this interpreter's environment wins over user-level ones
                "JUPYTER_PATH": os.pathsep.join(
                    p
                    for p in (
                        str(Path(sys.prefix) / "share" / "jupyter"),
                        os.environ.get("JUPYTER_PATH"),
                    )
                    if p
                ),
            }
        ):
            try:
                _execute(
                    path,
                    tmp / f"{name}.ipynb",
                    parameters,
                    cwd=path.parent,
                    kernel_name=kernel_name,
                    progress=progress,
                )
            except Exception as exc:  # noqa: BLE001 - reported, other notebooks continue
                failure = _failure_from_exception(exc, params_index)
        wall = time.perf_counter() - t0
        if not (tmp / RECORDS).exists():
            atomic_write_text(tmp / RECORDS, "{}")
            if failure is None:
                logger.warning("%s recorded no values (its final cell should call record())", name)
        manifest = {
            "notebook": name,
            "notebook_path": str(path),
            "notebook_sha256": nb_sha,
            "status": "complete" if failure is None else "failed",
            "size": size,
            "parameters": to_jsonable(parameters),
            "defaults": to_jsonable(declared),
            "overrides": to_jsonable({k: v for k, v in parameters.items() if declared.get(k) != v}),
            "seeds": to_jsonable(_seeds(parameters)),
            "started": started,
            "finished": _now(),
            "wall_time_s": round(wall, 3),
            "outputs": sorted(
                str(p.relative_to(tmp))
                for p in tmp.rglob("*")
                if p.is_file() and p.name != MANIFEST
            ),
            **provenance,
        }
        if failure is not None:
            manifest["error"] = {
                "cell_index": failure.cell_index,
                "execution_count": failure.execution_count,
                "ename": failure.ename,
                "evalue": failure.evalue,
                "source": failure.source,
            }
        # the manifest is written last: it marks the folder as complete
        atomic_write_text(tmp / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
        if failure is None:
            _replace_dir(tmp, final)
            shutil.rmtree(failed_dir, ignore_errors=True)
            return NotebookResult(name, "complete", final, parameters, wall)
        _replace_dir(tmp, failed_dir)
        return NotebookResult(name, "failed", failed_dir, parameters, wall, failure)
    finally:
        # interrupted (KeyboardInterrupt, SystemExit, ...): leave nothing that looks complete
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def run_notebooks(
    names: Sequence[str | os.PathLike[str]] | None = None,
    *,
    parameters: Mapping[str, Any] | None = None,
    size: str = "full",
    out: str | os.PathLike[str] = "results",
    force: bool = False,
    notebooks_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    kernel_name: str = "python3",
) -> RunReport:
    """Execute notebooks with papermill and collect their records, tables and figures.

    Parameters
    ----------
    names : sequence of str or path, optional
        Notebook references (``"00_tour"``, ``"tour"``, ``"00"`` or a path); ``None``
        runs every ``NN_name.ipynb`` of ``notebooks_dir`` in order.
    parameters : mapping, optional
        Parameter overrides. A key ``"name"`` applies to every selected notebook (each
        must declare it); a key ``"notebook:name"`` (e.g. ``"03_mvlsa:K"``) to one only.
    size : {"full", "small"}
        Sets ``DATA_SIZE`` in every notebook.
    out : path
        Results folder; each notebook gets ``<out>/<name>/``.
    force : bool
        Re-run notebooks whose existing results are complete for the same parameters.
    notebooks_dir : path, optional
        Where notebooks are looked up (default :func:`default_notebooks_dir`).
    progress : bool, optional
        Show progress bars (``None``: only on a terminal).
    kernel_name : str
        Jupyter kernel; ``"python3"`` resolves to the running interpreter.

    Returns
    -------
    RunReport
        Per-notebook status; ``exit_code`` is 1 if any notebook failed.

    Raises
    ------
    RunnerUsageError
        Before anything runs, for an unknown notebook, an undeclared parameter or a value
        of the wrong type.
    """
    from tqdm.auto import tqdm

    paths = resolve_notebooks(names, notebooks_dir)
    # ---- validate everything before running anything
    global_params: dict[str, Any] = {}
    scoped: dict[Path, dict[str, Any]] = {p: {} for p in paths}
    for key, value in (parameters or {}).items():
        if ":" in key:
            nb_ref, pname = key.split(":", 1)
            (target,) = resolve_notebooks([nb_ref], notebooks_dir)
            if target not in scoped:
                raise RunnerUsageError(
                    f"parameter {key!r} targets notebook {target.stem}, which is not selected"
                )
            scoped[target][pname] = value
        else:
            global_params[key] = value
    plan: list[tuple[Path, dict[str, Any]]] = []
    for p in paths:
        plan.append((p, validate_parameters(p, {**global_params, **scoped[p]}, size=size)))

    out_dir = Path(out).resolve()  # the kernel runs in the notebooks folder: pass absolute paths
    out_dir.mkdir(parents=True, exist_ok=True)
    _remove_stale_partials(out_dir)
    show = progress if progress is not None else sys.stderr.isatty()
    provenance: dict[str, Any] | None = None
    results: list[NotebookResult] = []
    bar = tqdm(plan, desc="notebooks", unit="nb", disable=not show)
    for path, params in bar:
        bar.set_postfix_str(path.stem)
        final = out_dir / path.stem
        if not force and _is_up_to_date(final, params, _sha256(path)):
            logger.info("%s: up to date, skipped (use --force to re-run)", path.stem)
            results.append(NotebookResult(path.stem, "skipped", final, params))
            continue
        if provenance is None:
            provenance = {
                "git_commit": git_commit(),
                "packages": package_versions(),
                "data_checksums": data_checksums(),
                "kernel": kernel_name,
                "python_executable": sys.executable,
            }
        result = _run_one(
            path,
            params,
            size=size,
            out=out_dir,
            kernel_name=kernel_name,
            progress=bool(show),
            provenance=provenance,
        )
        if result.failure is not None:
            logger.error("%s failed at %s", path.stem, result.failure.describe())
        results.append(result)
    report = RunReport(tuple(results), out_dir)
    _write_summary(report)
    return report


def _write_summary(report: RunReport) -> None:
    entries = []
    for r in report.results:
        entry: dict[str, Any] = {
            "notebook": r.name,
            "status": r.status,
            "output_dir": str(r.output_dir),
            "wall_time_s": round(r.wall_time, 3),
            "parameters": to_jsonable(r.parameters),
        }
        if r.failure is not None:
            entry["error"] = {
                "cell_index": r.failure.cell_index,
                "execution_count": r.failure.execution_count,
                "ename": r.failure.ename,
                "evalue": r.failure.evalue,
            }
        entries.append(entry)
    # results of earlier runs in the same folder, for an overview of everything in it
    this_run = {r.name for r in report.results}
    earlier = []
    for manifest_path in sorted(report.out.glob("*/" + MANIFEST)):
        manifest = _read_manifest(manifest_path.parent)
        name = manifest_path.parent.name
        if manifest is None or name in this_run or name.endswith(".failed"):
            continue
        earlier.append(
            {
                "notebook": name,
                "status": manifest.get("status"),
                "finished": manifest.get("finished"),
                "size": manifest.get("size"),
                "wall_time_s": manifest.get("wall_time_s"),
            }
        )
    summary = {
        "finished": _now(),
        "ok": report.ok,
        "notebooks": entries,
        "earlier_results": earlier,
    }
    atomic_write_text(report.out / "summary.json", json.dumps(summary, indent=2, sort_keys=True))
    md = f"# Notebook run summary ({summary['finished']})\n\n{report.summary_table()}\n"
    if earlier:
        md += "\n## Earlier results in this folder\n\n| notebook | status | size | finished |\n"
        md += "|---|---|---|---|\n"
        md += "".join(
            f"| {e['notebook']} | {e['status']} | {e['size']} | {e['finished']} |\n"
            for e in earlier
        )
    atomic_write_text(report.out / "summary.md", md)
