"""Execute the workbench notebooks with papermill and collect their results.

:func:`run_notebooks` is the engine behind ``python -m workbench run``. For every selected
notebook it

1. validates the requested parameters against the notebook's ``parameters`` cell
   (*before anything runs*: an unknown notebook, an undeclared parameter or a value of
   the wrong type raises :class:`RunnerUsageError`); the data parameters (``CORPUS``,
   ``WORDSIM``, ... of :mod:`workbench.studies.data`) get absolute paths and every user file is
   checked (missing, empty, unknown format or language: :class:`RunnerUsageError`);
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

The package is split by concern: :mod:`._notebooks` (discovery, the ``parameters`` cell, what a
parameter may be), :mod:`._execution` (one notebook: papermill, the checked injected cell, the
manifest), :mod:`._publish` (what the runner owns, publishing, verifying a result, the summary),
:mod:`._schedule` (skipping, worker processes, dependencies), :mod:`._results` (what a run
reports) and :mod:`._provenance`.

Notebook-side helpers :func:`record` and :func:`read_records` are re-exported from
:mod:`workbench.records`.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.records import read_records, record
from workbench.runner._data import absolute_data_paths, check_data, user_data  # noqa: F401
from workbench.runner._estimate import TimeEstimate
from workbench.runner._execution import (  # noqa: F401 - re-exported for tests and callers
    _brace_escaped,
    _exchange,
    _replace_dir,
    environment,
)
from workbench.runner._notebooks import (  # noqa: F401 - re-exported
    DEPENDS_ON,
    NOTEBOOK_PATTERN,
    PARAMETER_TYPES,
    REQUIRED_PARAMETERS,
    SIZES,
    NotebookFormatError,
    RunnerUsageError,
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
from workbench.runner._publish import remove_stale_partials as _remove_stale_partials  # noqa: F401
from workbench.runner._results import (  # noqa: F401 - re-exported
    NotebookFailure,
    NotebookResult,
    RunReport,
    _duration,
    progress_line,
)
from workbench.runner._schedule import run_plan

logger = logging.getLogger(__name__)

__all__ = [
    "REQUIRED_PARAMETERS",
    "SIZES",
    "NotebookFailure",
    "NotebookFormatError",
    "NotebookResult",
    "RunReport",
    "RunnerUsageError",
    "TimeEstimate",
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
    on_estimate: Callable[[TimeEstimate], None] | None = None,
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
    on_estimate : callable, optional
        ``on_estimate(estimate)`` gets a :class:`TimeEstimate` of the time left before the
        first notebook starts and after each one finishes: the schedule simulated with each
        notebook's wall time in its last complete result in ``out`` at the same ``size``
        (notebooks never timed there are named in ``estimate.unknown``, not guessed).

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
        non-passable type, an unusable results folder or lock file, a data parameter naming a
        missing or empty file, an unknown corpus format or language.

    Notes
    -----
    A relative ``WORKBENCH_CACHE``, ``WORKBENCH_DATA``, ``WORKBENCH_SHARED_DATA`` or
    ``WORKBENCH_NOTEBOOKS`` is made absolute (against the current folder) for the kernels,
    which run in the notebooks folder; so are the paths given to the data parameters
    (:func:`absolute_data_paths`). The manifest of a notebook lists every user file it read
    (``user_data``: path, size, sha256), and a result is run again when one of them changed.
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
        given = absolute_data_paths({**global_params, **scoped[p]})
        effective = validate_parameters(p, given, size=size)
        check_data(effective, p.stem)  # every user file exists and is not empty
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
    with environment(**absolute_path_env(PATH_ENV_VARS)), _locked(out_dir):
        return run_plan(plan, out_dir, size=size, force=force, progress=progress,
                         kernel_name=kernel_name, jobs=jobs, on_result=on_result,
                         on_estimate=on_estimate)  # fmt: skip
