"""Running one notebook: papermill into a hidden folder the runner owns, the injected cell checked
before anything executes, the manifest written last, the folder published in place."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import nbformat
import papermill as pm
from papermill.exceptions import PapermillExecutionError
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook

from workbench._io import dir_mode, file_sha256
from workbench.records import OUTPUT_DIR_ENV, RECORD_FILE_ENV, atomic_write_text, to_jsonable
from workbench.runner._data import user_data
from workbench.runner._notebooks import (
    RunnerUsageError,
    _parameters_cells,
    _read_notebook_json,
    check_injected_cell,
    injected_parameters,
    notebook_parameters,
)
from workbench.runner._provenance import _now, _seeds
from workbench.runner._publish import (
    MANIFEST,
    RECORDS,
    PublishError,
    adopt,
    describe_os_error,
    in_the_way,
    is_owned,
    mark_owned,
    output_hashes,
    read_manifest,
    verify_result,
)
from workbench.runner._results import NotebookFailure, NotebookResult

logger = logging.getLogger(__name__)

__all__ = ["environment", "run_one", "stale_reason"]


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
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


def stale_reason(folder: Path, parameters: Mapping[str, Any], nb_sha: str) -> str | None:
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
    if manifest.get("user_data", []) != _user_data(parameters):
        return "a user data file changed"
    problem = verify_result(folder, folder.name)
    return None if problem is None else f"damaged: {problem}"


def _user_data(parameters: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """:func:`user_data` of ``parameters``; None when a file cannot be read (then the result is
    not reused and the run itself reports the problem)."""
    try:
        return user_data(parameters)
    except (OSError, TypeError, ValueError):
        return None


def _is_up_to_date(folder: Path, parameters: Mapping[str, Any], nb_sha: str) -> bool:
    return stale_reason(folder, parameters, nb_sha) is None


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


def run_one(
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
    try:
        data_files = user_data(parameters)
    except (OSError, TypeError, ValueError) as exc:  # a file removed since the validation
        return _not_published(name, out, parameters, f"user data: {exc}")
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
        with environment(
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
            # the user's corpus, rating sets, vectors, lexicons, parallel files (every file of
            # a folder): path, size, sha256 -- hashed before the run, as the notebook read them
            "user_data": data_files,
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
