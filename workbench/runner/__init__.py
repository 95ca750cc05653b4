"""Execute the workbench notebooks with papermill and collect their results.

:func:`run_notebooks` is the engine behind ``python -m workbench run``. For every selected
notebook it

1. validates the requested parameters against the notebook's ``parameters`` cell
   (*before anything runs*: an unknown notebook, an undeclared parameter or a value of
   the wrong type raises :class:`RunnerUsageError`);
2. skips the notebook when ``<out>/<name>/manifest.json`` already records a complete run
   with identical parameters (and an unchanged notebook) and every file it lists is there
   with its recorded size and sha256, unless ``force=True``;
3. executes it with papermill (kernel ``python3`` of the running interpreter, working
   directory = the notebooks folder) into a hidden sibling folder
   ``<out>/.<name>.partial-XXXX`` — the notebook writes ``records.json``,
   ``tables/*.csv`` and ``figures/*.png|pdf`` there through :mod:`workbench.records`; the
   injected parameters cell is parsed back and must give exactly the values passed;
4. on success writes ``manifest.json`` *last* and renames the folder onto
   ``<out>/<name>``; an interrupted run never leaves a folder that looks complete;
5. on failure keeps the executed copy in ``<out>/<name>.failed/`` and reports the
   failing cell and its error; the remaining notebooks still run.

The runner moves or deletes only folders it created (they carry an owner marker); anything
else at ``<out>/<name>``, ``<out>/<name>.failed`` or the summary files is left untouched and
reported.

Finally ``<out>/summary.json`` and ``<out>/summary.md`` describe the invocation.

Notebook-side helpers :func:`record` and :func:`read_records` are re-exported from
:mod:`workbench.records`.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import errno
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

import nbformat
import papermill as pm
from papermill.exceptions import PapermillExecutionError
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook

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
    PARAMETER_TYPES,
    REQUIRED_PARAMETERS,
    SIZES,
    NotebookFormatError,
    RunnerUsageError,
    _parameters_cells,
    _read_notebook_json,
    check_injected_cell,
    check_parameter_value,
    default_notebooks_dir,
    injected_cell,
    injected_parameters,
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
from workbench.runner._publish import (  # noqa: F401 - re-exported
    LOCK_FILE,
    MANIFEST,
    OWNER_FILE,
    RECORDS,
    PublishError,
    absolute_path_env,
    adopt,
    check_out_dir,
    describe_os_error,
    in_the_way,
    is_owned,
    mark_owned,
    output_hashes,
    read_manifest,
    result_status,
    verify_result,
    write_summary,
)
from workbench.runner._publish import locked as _locked
from workbench.runner._publish import remove_stale_partials as _remove_stale_partials

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
    "result_status",
    "run_notebooks",
    "validate_parameters",
]

#: Environment variables holding paths the notebook kernels read; a relative value is made
#: absolute once, by :func:`run_notebooks` (the kernels run in the notebooks folder).
PATH_ENV_VARS = ("WORKBENCH_CACHE", "WORKBENCH_DATA", "WORKBENCH_SHARED_DATA",
                 "WORKBENCH_NOTEBOOKS")  # fmt: skip


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class NotebookFailure:
    """Where and how a notebook failed.

    ``cell_index`` counts the cells of the source notebook from 0 (``None`` when the
    failure happened outside a cell, e.g. the kernel died); ``execution_count`` is the
    ``In [n]`` number in the executed copy. ``stage`` is ``"publishing"`` when the notebook
    could not be put in place (or was not run because something is in the way); ``evalue``
    then names the path.
    """

    cell_index: int | None
    execution_count: int | None
    ename: str
    evalue: str
    source: str = ""
    traceback: str = ""
    stage: str = "execution"

    def describe(self) -> str:
        if self.stage == "publishing":
            return f"not published: {self.evalue}"
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
    #: Problems outside the notebooks (e.g. the summary could not be written), one line each.
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No notebook failed and nothing else went wrong."""
        return all(r.status != "failed" for r in self.results) and not self.problems

    @property
    def failed(self) -> list[NotebookResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def exit_code(self) -> int:
        """0 when every notebook completed or was skipped (and the summary was written), else 1."""
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


def _stale_reason(folder: Path, parameters: Mapping[str, Any], nb_sha: str) -> str | None:
    """Why the result ``folder`` cannot be reused (None: it is complete and current)."""
    if not os.path.lexists(folder):
        return "not run yet"
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("status") != "complete":
        return "no complete result"
    if manifest.get("parameters") != to_jsonable(dict(parameters)):
        return "parameters changed"
    if manifest.get("notebook_sha256") != nb_sha:
        return "the notebook changed"
    problem = verify_result(folder, folder.name)
    return None if problem is None else f"damaged: {problem}"


def _is_up_to_date(folder: Path, parameters: Mapping[str, Any], nb_sha: str) -> bool:
    return _stale_reason(folder, parameters, nb_sha) is None


def _renameat2(a: Path, b: Path, flags: int) -> int:
    """Linux ``renameat2``: 0 done, else the ``errno`` (-1: not supported here)."""
    if not sys.platform.startswith("linux"):
        return -1
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return -1
    at_fdcwd = -100
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), flags) == 0:
        return 0
    err = ctypes.get_errno()
    return -1 if err in (errno.ENOSYS, errno.EINVAL) else err


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2(RENAME_EXCHANGE)``); False when the system
    or file system does not support it."""
    return _renameat2(a, b, 2) == 0


def _replace_dir(src: Path, dst: Path) -> None:
    """Move ``src`` onto ``dst`` with no moment at which ``dst`` is missing or a complete-looking
    leftover remains: an existing ``dst`` -- only ever a folder the runner made, else
    :class:`PublishError` -- is swapped atomically with ``src`` (whose name, a hidden
    ``.partial-<pid>-`` folder carrying the owner marker, then holds the old result and is
    deleted; after a kill it is removed by the next run). Without atomic exchange, ``dst`` is
    renamed to such a partial name first (and put back if ``src`` cannot take its place). An
    absent ``dst`` is never replaced by something that appears there meanwhile."""
    name = dst.name.removesuffix(".failed")
    if not os.path.lexists(dst):
        err = _renameat2(src, dst, 1)  # RENAME_NOREPLACE
        if err == -1:  # not supported: the check above is the best there is
            os.replace(src, dst)
            return
        if err == 0:
            return
        if err != errno.EEXIST:  # something appeared at dst meanwhile: checked below
            raise OSError(err, os.strerror(err), str(dst))
    blocked = in_the_way(dst, name)
    if blocked:
        raise PublishError(errno.EEXIST, blocked, str(dst))
    adopt(dst, name)
    if _exchange(src, dst):
        shutil.rmtree(src, ignore_errors=True)
        return
    old = dst.with_name(f".{dst.name}.partial-{os.getpid()}-old-{time.monotonic_ns()}")
    os.replace(dst, old)
    try:
        os.replace(src, dst)
    except OSError:
        os.replace(old, dst)  # the earlier result goes back where it was
        raise
    shutil.rmtree(old, ignore_errors=True)


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


def _brace_escaped(path: Path) -> str:
    """``path`` as papermill's input / output path: papermill formats those with the
    parameters (``str.format``), so braces in a folder name are doubled to stay unchanged."""
    return str(path).replace("{", "{{").replace("}", "}}")


def _execute(
    path: Path,
    output_notebook: Path,
    parameters: Mapping[str, Any],
    *,
    cwd: Path,
    kernel_name: str,
    progress: bool,
) -> None:
    """Execute one notebook with papermill (separate function so tests can patch it).

    The injected parameters cell is made by papermill, then parsed back and checked
    (:func:`check_injected_cell`) before the notebook, written to ``output_notebook``, is
    executed in place; a mismatch raises :class:`RunnerUsageError` and nothing runs.
    """
    nb = load_notebook_node(str(path))
    nb = parameterize_notebook(nb, dict(parameters), kernel_name=kernel_name, language="python")
    cells = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    if len(cells) != 1:
        raise RunnerUsageError(f"{path.stem}: papermill injected {len(cells)} parameters cells")
    check_injected_cell(cells[0].source, parameters, path.stem)
    nbformat.write(nb, str(output_notebook))
    pm.execute_notebook(
        _brace_escaped(output_notebook),
        _brace_escaped(output_notebook),
        parameters=None,  # injected and checked above
        cwd=str(cwd),
        kernel_name=kernel_name,
        progress_bar=progress,
        log_output=False,
        # the kernel's own start-up warnings are noise in a batch run; its errors still show
        extra_arguments=["--IPKernelApp.log_level=ERROR"],
    )


def _not_published(name: str, where: Path, parameters: dict[str, Any], message: str,
                   wall: float = 0.0) -> NotebookResult:  # fmt: skip
    failure = NotebookFailure(None, None, "PublishError", message, stage="publishing")
    return NotebookResult(name, "failed", where, parameters, wall, failure)


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
    for target in (final, failed_dir):
        blocked = in_the_way(target, name)
        if blocked:  # never moved or deleted: the notebook is not run
            return _not_published(name, target, parameters, blocked)
    nb_sha = file_sha256(path)
    declared = notebook_parameters(path)
    params_index = _parameters_cells(_read_notebook_json(path))[0][0]
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.partial-{os.getpid()}-", dir=out))
    except OSError as exc:
        return _not_published(name, out, parameters,
                              describe_os_error(f"could not create a folder in {out}", exc))  # fmt: skip
    started = _now()
    t0 = time.perf_counter()
    failure: NotebookFailure | None = None
    target = final
    try:
        # mkdtemp creates 0700; a result folder is readable as the user's umask allows
        os.chmod(tmp, dir_mode())
        mark_owned(tmp)
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
                    injected_parameters(parameters, declared),
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
            # size and sha256 of every file: a later run verifies the folder before skipping
            "outputs": output_hashes(tmp),
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
            if is_owned(failed_dir):  # only the runner's own copy of an earlier failure
                shutil.rmtree(failed_dir, ignore_errors=True)
            return NotebookResult(name, "complete", final, parameters, wall)
        target = failed_dir
        _replace_dir(tmp, failed_dir)
        return NotebookResult(name, "failed", failed_dir, parameters, wall, failure)
    except OSError as exc:  # disk full, permission denied, something in the way, ...
        message = (str(exc) if isinstance(exc, PublishError)
                   else describe_os_error(f"could not publish {target}", exc))  # fmt: skip
        if failure is not None:
            message += f" (the notebook had failed at {failure.describe().splitlines()[0]})"
        logger.error("%s: %s", name, message)
        return _not_published(name, target, parameters, message, time.perf_counter() - t0)
    finally:
        # interrupted (KeyboardInterrupt, SystemExit, ...): leave nothing that looks complete
        if os.path.lexists(tmp):  # this run's own folder (or the old result swapped into it)
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
        Values are ``str``, ``int``, finite ``float``, ``bool``, ``None`` and lists / dicts
        of them with ``str`` keys (:data:`PARAMETER_TYPES`); a notebook receives exactly
        these values (the injected cell is parsed back and compared before it runs).
    size : {"full", "small"}
        Sets ``DATA_SIZE`` in every notebook.
    out : path
        Results folder; each notebook gets ``<out>/<name>/``. Not the root of the file
        system, the home folder or a notebooks folder. Anything the runner did not create at
        ``<out>/<name>`` or ``<out>/<name>.failed`` is left untouched (that notebook is
        reported failed).
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
        cores busy. Capped at the number of notebooks to run and of cores.
    on_result : callable, optional
        ``on_result(result, index, total)`` is called as each notebook finishes (skipped ones
        first, then in completion order; ``index`` counts from 1), e.g. to print
        :func:`progress_line` -- the command line does.

    Returns
    -------
    RunReport
        Per-notebook status; ``exit_code`` is 1 if any notebook failed or could not be
        published, or the summary could not be written (``problems``).

    Raises
    ------
    RunnerUsageError
        Before anything runs, for an unknown notebook, a path that is not an existing
        ``NN_name.ipynb`` file, an undeclared parameter, a value of the wrong or of a
        non-passable type, an unusable results folder or lock file.

    Notes
    -----
    A relative ``WORKBENCH_CACHE``, ``WORKBENCH_DATA``, ``WORKBENCH_SHARED_DATA`` or
    ``WORKBENCH_NOTEBOOKS`` is made absolute (against the current folder) for the kernels,
    which run in the notebooks folder.
    """
    paths = resolve_notebooks(names, notebooks_dir)
    # ---- validate everything before running anything
    global_params: dict[str, Any] = {}
    scoped: dict[Path, dict[str, Any]] = {p: {} for p in paths}
    for key, value in (parameters or {}).items():
        if not isinstance(key, str):
            raise RunnerUsageError(f"parameter names must be str, got {key!r}")
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
        effective = validate_parameters(p, {**global_params, **scoped[p]}, size=size)
        injected = injected_parameters(effective, notebook_parameters(p))
        check_injected_cell(injected_cell(injected, kernel_name=kernel_name), injected, p.stem)
        plan.append((p, effective))

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise RunnerUsageError(f"jobs must be a positive integer, got {jobs!r}")
    out_dir = Path(out).resolve()  # the kernel runs in the notebooks folder: pass absolute paths
    check_out_dir(out, out_dir, paths)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-")  # noqa: SIM115
        probe.close()
    except OSError as exc:
        raise RunnerUsageError(
            f"results folder {str(out)!r} cannot be created or written: {exc.strerror or exc}"
        ) from None
    with _environment(**absolute_path_env(PATH_ENV_VARS)), _locked(out_dir):
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
    provenance: dict[str, Any] | None = None
    show = progress if progress is not None else sys.stderr.isatty()
    by_name: dict[str, NotebookResult] = {}
    todo: list[tuple[Path, dict[str, Any]]] = []
    for path, params in plan:
        final = out_dir / path.stem
        reason = None if force else _stale_reason(final, params, file_sha256(path))
        if reason is None and not force:
            logger.info("%s: up to date, skipped (use --force to re-run)", path.stem)
            by_name[path.stem] = NotebookResult(path.stem, "skipped", final, params)
            continue
        if reason is not None and reason.startswith("damaged"):
            logger.warning("%s: the result in %s is %s; running it again", path.stem, final,
                           reason)  # fmt: skip
        elif reason is not None:
            logger.info("%s: %s, running it", path.stem, reason)
        todo.append((path, params))
    cap = min(len(todo), os.cpu_count() or 1)
    if todo and jobs > cap:
        logger.info("--jobs %d capped at %d (notebooks to run: %d, cores: %s)", jobs, cap,
                    len(todo), os.cpu_count())  # fmt: skip
        jobs = max(cap, 1)
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
    problems = write_summary(report)
    for problem in problems:
        logger.error("%s", problem)
    return dataclasses.replace(report, problems=tuple(problems)) if problems else report


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
                try:
                    result = fut.result()
                except Exception as exc:  # noqa: BLE001 - e.g. a worker that died: report it
                    failure = NotebookFailure(None, None, type(exc).__name__, str(exc))
                    result = NotebookResult(name, "failed", kwargs["out"] / name, {}, 0.0,
                                            failure)  # fmt: skip
                done[name] = done_callback(_finish(result))
    return done
