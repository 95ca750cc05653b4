"""Output cells show results, not logs: a notebook kernel logs to ``workbench.log``.

A Jupyter kernel that imports :mod:`workbench` (every notebook does, in its imports cell) calls
:func:`setup_notebook_logging`, which

* writes every log record of the ``workbench`` loggers (INFO and above) and of other libraries
  (WARNING and above) to ``workbench.log`` in the run's results folder
  (:func:`output_dir`: ``results/<notebook>/`` for a run of :mod:`workbench.runner`,
  ``results/interactive/<notebook>/`` for a notebook run by hand in JupyterLab);
* routes Python warnings to the same file instead of the cell's stderr;
* after each cell, shows every *new* warning that matters once, as one short line under the
  cell (the same warning again is only counted, in the log), with what it means when it is a
  known one (:data:`MEANINGS`: a solver that did not converge, dropped views, a tiny set -- also
  when the solver logs it at INFO): warnings addressed to developers (:data:`QUIET_CATEGORIES`,
  e.g. ``DeprecationWarning``) and other INFO records are never shown.

Outside a kernel (scripts, tests, the runner's own process), and in a kernel of a project that
is not a workbench checkout nor a runner run, nothing is changed.
"""

from __future__ import annotations

import logging
import os
import re
import runpy
import sys
import warnings
from pathlib import Path
from typing import Any

from workbench._typing import PathLikeStr

__all__ = [
    "LOG_FILE",
    "MEANINGS",
    "OUTPUT_DIR_ENV",
    "QUIET_CATEGORIES",
    "SESSION_NAME_ENV",
    "UNNAMED",
    "WarningSummary",
    "auto_setup",
    "in_kernel",
    "meaning",
    "notebook_name",
    "output_dir",
    "project_root",
    "refresh_git_index",
    "setup_notebook_logging",
    "teardown_notebook_logging",
]

#: Environment variable naming the results folder of a :mod:`workbench.runner` run.
OUTPUT_DIR_ENV = "WORKBENCH_OUTPUT_DIR"
#: Environment variable jupyter-server sets in a kernel: the path of the kernel's notebook.
SESSION_NAME_ENV = "JPY_SESSION_NAME"
#: Folder of the hand runs whose notebook is not known (a console, a script).
UNNAMED = "unnamed"
#: Name of the log file in the results folder.
LOG_FILE = "workbench.log"
#: Warning categories written to the log only (they address developers, not a reader).
QUIET_CATEGORIES: tuple[type[Warning], ...] = (
    DeprecationWarning,
    PendingDeprecationWarning,
    FutureWarning,
    ImportWarning,
    ResourceWarning,
)
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

#: What :func:`setup_notebook_logging` changed (to undo it); empty when not set up.
_STATE: dict[str, Any] = {}
#: Whether the fallback to ``results/interactive/unnamed/`` is yet to be logged ("pending") or
#: was ("logged"): one line per process.
_UNNAMED: dict[str, str] = {}


def _checkout_root() -> Path | None:
    """The workbench checkout (a folder with ``notebooks/`` and ``workbench/``) containing the
    working directory, or None."""
    cwd = Path.cwd().resolve()
    for folder in (cwd, *cwd.parents):
        if (folder / "notebooks").is_dir() and (folder / "workbench").is_dir():
            return folder
    return None


def project_root() -> Path:
    """The workbench checkout containing the working directory (or the working directory)."""
    return _checkout_root() or Path.cwd().resolve()


def notebook_name() -> str | None:
    """The name (file stem) of the notebook this kernel runs, or None when it is not known.

    Read from ``JPY_SESSION_NAME`` (set by jupyter-server when it starts the kernel of a
    notebook) or from the ipykernel session (``__session__`` of the user namespace); characters
    other than letters, digits, ``.``, ``_`` and ``-`` become ``_``.
    """
    session = os.environ.get(SESSION_NAME_ENV)
    if not session:
        shell = _shell()
        ns = getattr(shell, "user_ns", None) if shell is not None else None
        session = ns.get("__session__") if isinstance(ns, dict) else None
    if not isinstance(session, str) or not session.strip():
        return None
    stem = Path(session.strip()).stem
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", stem).lstrip(".")
    return stem or None


def output_dir() -> Path:
    """The folder where the current notebook run writes its tables, figures and log.

    ``WORKBENCH_OUTPUT_DIR`` for a run of :mod:`workbench.runner`; for a notebook run by hand,
    ``results/interactive/<notebook>/`` of the checkout (:func:`notebook_name`), or
    ``results/interactive/unnamed/`` when the notebook is not known (said once in the log).
    """
    env = os.environ.get(OUTPUT_DIR_ENV)
    if env:
        path = Path(env)
    else:
        name = notebook_name()
        if name is None:
            name = UNNAMED
            _UNNAMED.setdefault("state", "pending")
        path = project_root() / "results" / "interactive" / name
    path.mkdir(parents=True, exist_ok=True)
    _log_unnamed()
    return path


def _log_unnamed() -> None:
    """The one log line saying that hand-run outputs go to ``unnamed/`` (once logging is set
    up, so that it lands in the log file)."""
    if _UNNAMED.get("state") == "pending" and "handler" in _STATE:
        _UNNAMED["state"] = "logged"
        logging.getLogger(__name__).info(
            "the notebook's name is not known (no %s): hand-run outputs go to "
            "results/interactive/%s/", SESSION_NAME_ENV, UNNAMED,
        )  # fmt: skip


def refresh_git_index(*, os_path: str, **_: Any) -> None:
    """JupyterLab's ``post_save_hook`` (``make lab``): after a notebook of a checkout is saved
    with outputs, refresh git's index so that ``git status`` stays clean (the checkout's
    ``tools/strip_notebook_outputs.py``, :func:`refresh`); a notebook whose cells changed, or a
    file outside a checkout, is left alone."""
    path = Path(os_path).resolve()
    if path.suffix != ".ipynb":
        return
    root = next((f for f in path.parents if (f / "tools" / "strip_notebook_outputs.py").is_file()
                 and (f / "workbench").is_dir()), None)  # fmt: skip
    if root is None:
        return
    script = runpy.run_path(str(root / "tools" / "strip_notebook_outputs.py"))
    if script["refresh"](str(path.relative_to(root)), cwd=str(root)):
        logging.getLogger(__name__).debug("git index refreshed for %s", path.name)


def _shell() -> Any:
    """The running IPython shell, or None. A kernel has imported IPython already: it is looked up
    in ``sys.modules``, so that ``import workbench`` outside a kernel does not import it."""
    ipython = sys.modules.get("IPython")
    return None if ipython is None else ipython.get_ipython()


def in_kernel() -> bool:
    """True inside a Jupyter (ipykernel) kernel."""
    if "ipykernel" not in sys.modules:
        return False
    shell = _shell()
    return shell is not None and getattr(shell, "kernel", None) is not None


#: Messages that matter to a reader, with what they mean: ``(pattern, meaning)``. A log record
#: (INFO too: solvers log their non-convergence at INFO) or warning whose text matches is shown
#: once under the cell, as its first line followed by the meaning.
MEANINGS: tuple[tuple[str, str], ...] = (
    (r"adaptive truncated SVD stopped after",
     "the SVD of a view did not reach its tolerance: its factor is less accurate than requested"),
    (r"did not converge|not converged|stopped after",
     "a solver stopped before reaching its tolerance: its result is less accurate than requested"),
    (r"\bdrop(ped|ping)\b.*\bviews?\b|\bviews?\b.*\bdropped\b",
     "fewer views than asked for enter the model"),
    (r"too few|only \d+ (pairs|items|questions|words)\b",
     "a tiny set: its score is noisy and differences on it are rarely significant"),
)  # fmt: skip


def meaning(text: str) -> str | None:
    """What a message of :data:`MEANINGS` means for the reader, or None."""
    for pattern, what in MEANINGS:
        if re.search(pattern, text, re.IGNORECASE):
            return what
    return None


class WarningSummary(logging.Handler):
    """Collects the distinct messages that matter, each once: WARNING (and worse) records and
    warnings not addressed to developers, and records of any level whose text is in
    :data:`MEANINGS` (shown with their meaning; the same meaning again is only counted).

    :meth:`take` returns the messages not shown yet; ``counts`` holds how often each occurred.
    """

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: dict[str, int] = {}
        self._pending: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "quiet", False):
            return
        text = getattr(record, "summary", None) or record.getMessage()
        lines = str(text).strip().splitlines()
        first = lines[0] if lines else record.levelname.lower()
        what = meaning(first)
        if record.levelno < logging.WARNING and what is None:
            return
        if record.levelno >= logging.ERROR and "error" not in first.lower():
            first = f"error: {first}"
        key = what or first  # the same meaning with other numbers is the same message
        if key in self.counts:
            self.counts[key] += 1
            return
        self.counts[key] = 1
        self._pending.append(first if what is None else f"{first} \u2014 {what}")

    def take(self) -> list[str]:
        """The messages not returned before (first occurrences, in order)."""
        out, self._pending = self._pending, []
        return out


def _showwarning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """``warnings.showwarning`` replacement: log to ``py.warnings`` instead of printing."""
    text = f"{category.__name__}: {message}"
    logging.getLogger("py.warnings").warning(
        "%s (%s:%d)", text, os.path.basename(filename), lineno,
        extra={"quiet": issubclass(category, QUIET_CATEGORIES), "summary": text},
    )  # fmt: skip


def _report(*_: Any) -> None:
    """``post_run_cell`` hook: the new warnings of the cell, one line each, on stderr."""
    summary = _STATE.get("summary")
    if summary is None:
        return
    new = summary.take()
    if new:
        lines = "".join(f"\u26a0 {msg}\n" for msg in new)
        sys.stderr.write(f"{lines}  (each warning is shown once; every log message and warning "
                         f"is in {LOG_FILE} of the results folder)\n")  # fmt: skip
        sys.stderr.flush()


def setup_notebook_logging(folder: PathLikeStr | None = None) -> Path:
    """Log to ``<folder>/workbench.log`` (default: :func:`output_dir`) and
    summarise the warnings that matter once (see the module docstring); returns the log's path.

    Idempotent for the same folder; a different folder replaces the previous set-up.
    """
    if folder is None:
        folder = output_dir()
    path = Path(folder) / LOG_FILE
    if _STATE.get("path") == path:
        return path
    teardown_notebook_logging()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter(_FORMAT))
    summary = WarningSummary()
    root = logging.getLogger()
    root.addHandler(handler)
    root.addHandler(summary)
    package = logging.getLogger("workbench")
    _STATE.update(path=path, handler=handler, summary=summary, package_level=package.level,
                  showwarning=warnings.showwarning)  # fmt: skip
    if package.level == logging.NOTSET:
        package.setLevel(logging.INFO)
    warnings.showwarning = _showwarning
    if in_kernel():
        _shell().events.register("post_run_cell", _report)
        _STATE["hooked"] = True
    _log_unnamed()
    return path


def teardown_notebook_logging() -> None:
    """Undo :func:`setup_notebook_logging` (close the file, restore warnings and levels)."""
    if not _STATE:
        return
    root = logging.getLogger()
    for key in ("handler", "summary"):
        h = _STATE.get(key)
        if h is not None:
            root.removeHandler(h)
            h.close()
    logging.getLogger("workbench").setLevel(_STATE.get("package_level", logging.NOTSET))
    if warnings.showwarning is _showwarning:
        warnings.showwarning = _STATE.get("showwarning", warnings.showwarning)
    if _STATE.get("hooked"):
        shell = _shell()
        if shell is not None:
            try:
                shell.events.unregister("post_run_cell", _report)
            except ValueError:
                pass
    _STATE.clear()


def _in_workbench_run() -> bool:
    """A kernel run by :mod:`workbench.runner`, or one working inside a workbench checkout.

    A kernel of a user's own project that imports :mod:`workbench` as a library keeps its
    logging untouched.
    """
    return bool(os.environ.get(OUTPUT_DIR_ENV)) or _checkout_root() is not None


def auto_setup() -> None:
    """Called when :mod:`workbench` is imported: set up inside a kernel of a workbench run (see
    :func:`_in_workbench_run`), never fail the import."""
    if _STATE or not in_kernel() or not _in_workbench_run():
        return
    try:
        setup_notebook_logging()
    except OSError as exc:  # e.g. a read-only checkout: keep the default behaviour
        logging.getLogger(__name__).debug("no notebook log file: %s", exc)
