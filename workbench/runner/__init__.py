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

import contextlib
import ctypes
import ctypes.util
import fcntl
import json
import logging
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import papermill as pm
from papermill.exceptions import PapermillExecutionError

from workbench._io import dir_mode, file_sha256
from workbench.records import (
    OUTPUT_DIR_ENV,
    RECORD_FILE_ENV,
    atomic_write_text,
    read_records,
    record,
    to_jsonable,
)
from workbench.runner._notebooks import (  # noqa: F401 - re-exported
    DEPENDS_ON,
    NOTEBOOK_PATTERN,
    REQUIRED_PARAMETERS,
    SIZES,
    NotebookFormatError,
    RunnerUsageError,
    _parameters_cells,
    _read_notebook_json,
    default_notebooks_dir,
    list_notebooks,
    notebook_parameters,
    parse_parameter,
    repo_root,
    resolve_notebooks,
    validate_parameters,
)
from workbench.runner._provenance import (  # noqa: F401 - re-exported
    KEY_PACKAGES,
    _now,
    _seeds,
    data_checksums,
    git_commit,
    package_versions,
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
    "progress_line",
    "read_records",
    "record",
    "resolve_notebooks",
    "run_notebooks",
    "validate_parameters",
]


MANIFEST = "manifest.json"
RECORDS = "records.json"


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
    #: Wall-clock seconds of the whole run (notebooks may have run in parallel).
    elapsed: float = 0.0

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

    def counts(self) -> dict[str, int]:
        """Number of notebooks per status (in the order complete, skipped, failed)."""
        out = {s: 0 for s in ("complete", "skipped", "failed")}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return {s: n for s, n in out.items() if n}

    def summary_table(self) -> str:
        """A Markdown table: notebook, status, wall time, output folder / error; a last row with
        the counts per status and the run's elapsed time."""
        lines = ["| notebook | status | wall time (s) | output / error |", "|---|---|---:|---|"]
        for r in self.results:
            if r.failure is not None:
                detail = r.failure.describe().splitlines()[0].replace("|", "\\|")
            else:
                detail = str(r.output_dir)
            lines.append(f"| {r.name} | {r.status} | {r.wall_time:.1f} | {detail} |")
        counts = ", ".join(f"{n} {s}" for s, n in self.counts().items())
        n = len(self.results)
        lines.append(f"| **{n} notebook{'' if n == 1 else 's'}** | {counts} | {self.elapsed:.1f} | "
                     "elapsed time of the run |")  # fmt: skip
        return "\n".join(lines)


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


LOCK_FILE = ".workbench-run.lock"


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the results folder ``out`` for the whole run; a second run
    into the same folder waits for it (and says so) instead of interleaving with it."""
    path = out / LOCK_FILE
    fh = open(path, "a+")  # noqa: SIM115 - held for the duration of the context
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.warning("another run is writing to %s; waiting for it to finish", out)
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # releases the lock


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2(RENAME_EXCHANGE)``); False when the system
    or file system does not support it."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return rc == 0


def _replace_dir(src: Path, dst: Path) -> None:
    """Move ``src`` onto ``dst`` with no moment at which ``dst`` is missing or a complete-looking
    leftover remains: an existing ``dst`` is swapped atomically with ``src`` (whose name, a
    hidden ``.partial-<pid>-`` folder, then holds the old result and is deleted; after a kill it
    is removed by the next run). Without atomic exchange, ``dst`` is renamed to such a partial
    name first."""
    if not dst.exists():
        os.replace(src, dst)
        return
    if _exchange(src, dst):
        shutil.rmtree(src, ignore_errors=True)
        return
    old = dst.with_name(f".{dst.name}.partial-{os.getpid()}-old-{time.monotonic_ns()}")
    os.replace(dst, old)
    os.replace(src, dst)
    shutil.rmtree(old, ignore_errors=True)


def _remove_stale_partials(out: Path) -> None:
    """Delete ``.<name>.partial-<pid>-*`` folders left by runs whose process is gone (killed);
    a ``<name>`` folder missing because a run was killed while publishing is restored from its
    renamed-away previous version."""
    for folder in out.glob(".*.partial-*"):
        match = re.match(r"\.(.+)\.partial-(\d+)-(old-)?", folder.name)
        if not match or not folder.is_dir():
            continue
        pid = int(match.group(2))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            final = out / match.group(1)
            if match.group(3) and not final.exists():
                os.replace(folder, final)
            else:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # exists but not ours, or not checkable: leave it
            continue


def _failure_from_exception(exc: BaseException, params_index: int | None) -> NotebookFailure:
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
    nb_sha = file_sha256(path)
    declared = notebook_parameters(path)
    params_index = _parameters_cells(_read_notebook_json(path))[0][0]
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.partial-{os.getpid()}-", dir=out))
    # mkdtemp creates 0700; a result folder is readable as the user's umask allows (shared machines)
    os.chmod(tmp, dir_mode())
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
    jobs: int = 1,
    on_result: Callable[[NotebookResult, int, int], None] | None = None,
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
    jobs : int
        Notebooks executed at the same time, each in its own worker process; a notebook
        starts only after the selected notebooks it depends on (:data:`DEPENDS_ON`) have
        finished. Most of the notebooks' heavy work is single-threaded, so two jobs keep two
        cores busy.
    on_result : callable, optional
        ``on_result(result, index, total)`` is called as each notebook finishes (skipped ones
        first, then in completion order; ``index`` counts from 1), e.g. to print
        :func:`progress_line` -- the command line does.

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

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise RunnerUsageError(f"jobs must be a positive integer, got {jobs!r}")
    out_dir = Path(out).resolve()  # the kernel runs in the notebooks folder: pass absolute paths
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-")  # noqa: SIM115
        probe.close()
    except OSError as exc:
        raise RunnerUsageError(
            f"results folder {str(out)!r} cannot be created or written: {exc.strerror or exc}"
        ) from None
    with _locked(out_dir):
        return _run_plan(plan, out_dir, size=size, force=force, progress=progress,
                         kernel_name=kernel_name, jobs=jobs, on_result=on_result)  # fmt: skip


def _duration(seconds: float) -> str:
    """``"4.2 s"``, ``"3 min 07 s"``, ``"1 h 02 min"``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def progress_line(result: NotebookResult, index: int, total: int) -> str:
    """One line per finished notebook: ``[index/total] name  elapsed  status`` (and, for a
    failure, where it failed)."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {result.name:<22} {_duration(result.wall_time):>12}  "
            f"{result.status}")  # fmt: skip
    if result.failure is not None:
        line += f" -- {result.failure.describe().splitlines()[0]}"
    return line


def _run_plan(
    plan: Sequence[tuple[Path, dict[str, Any]]],
    out_dir: Path,
    *,
    size: str,
    force: bool,
    progress: bool | None,
    kernel_name: str,
    jobs: int,
    on_result: Callable[[NotebookResult, int, int], None] | None = None,
) -> RunReport:
    """Run a validated plan into ``out_dir`` (the caller holds the folder's lock)."""
    t0 = time.perf_counter()
    _remove_stale_partials(out_dir)
    show = progress if progress is not None else sys.stderr.isatty()
    provenance: dict[str, Any] | None = None
    by_name: dict[str, NotebookResult] = {}
    todo: list[tuple[Path, dict[str, Any]]] = []
    for path, params in plan:
        final = out_dir / path.stem
        if not force and _is_up_to_date(final, params, file_sha256(path)):
            logger.info("%s: up to date, skipped (use --force to re-run)", path.stem)
            by_name[path.stem] = NotebookResult(path.stem, "skipped", final, params)
        else:
            todo.append((path, params))
    if todo:
        provenance = {
            "git_commit": git_commit(),
            "packages": package_versions(),
            "data_checksums": data_checksums(),
            "kernel": kernel_name,
            "python_executable": sys.executable,
        }
    kwargs: dict[str, Any] = {
        "size": size,
        "out": out_dir,
        "kernel_name": kernel_name,
        "provenance": provenance,
    }
    finished = 0

    def done(result: NotebookResult) -> NotebookResult:
        nonlocal finished
        finished += 1
        if on_result is not None:
            on_result(result, finished, len(plan))
        return result

    for result in list(by_name.values()):  # the skipped ones
        done(result)
    if jobs == 1 or len(todo) <= 1:
        for path, params in todo:
            by_name[path.stem] = done(
                _finish(_run_one(path, params, progress=bool(show), **kwargs))
            )
    else:
        by_name.update(_run_parallel(todo, jobs, done, kwargs))
    results = [by_name[p.stem] for p, _ in plan]
    report = RunReport(tuple(results), out_dir, time.perf_counter() - t0)
    _write_summary(report)
    return report


def _finish(result: NotebookResult) -> NotebookResult:
    if result.failure is not None:
        logger.error("%s failed at %s", result.name, result.failure.describe())
    return result


def _run_parallel(
    todo: Sequence[tuple[Path, dict[str, Any]]],
    jobs: int,
    done_callback: Callable[[NotebookResult], NotebookResult],
    kwargs: dict[str, Any],
) -> dict[str, NotebookResult]:
    """Run ``todo`` in ``jobs`` worker processes, each notebook after its dependencies;
    ``done_callback`` sees each result as it finishes."""
    pending = list(todo)
    selected = {p.stem for p, _ in todo}
    done: dict[str, NotebookResult] = {}
    running: dict[Future[NotebookResult], str] = {}
    # fork: the workers inherit this process's state (the environment is set per worker)
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork")
    ) as pool:
        while pending or running:
            for item in list(pending):
                if len(running) >= jobs:
                    break
                path, params = item
                deps = [d for d in DEPENDS_ON.get(path.stem, ()) if d in selected]
                if all(d in done for d in deps):
                    pending.remove(item)
                    fut = pool.submit(_run_one, path, params, progress=False, **kwargs)
                    running[fut] = path.stem
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in finished:
                name = running.pop(fut)
                done[name] = done_callback(_finish(fut.result()))
    return done


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
