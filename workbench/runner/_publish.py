"""What the runner owns in a results folder, and how it checks, locks and summarises it.

The runner only ever moves or deletes folders it created: each carries an owner marker file
(:data:`OWNER_FILE`) written the moment the runner created it. A result folder published by
an older runner (a ``manifest.json`` naming its notebook, no marker) is also recognised.
Anything else at a path the runner would write (a user's file, folder, symlink, FIFO) is
"in the way": it is reported, never touched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import shutil
import stat
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench._io import file_mode, file_sha256
from workbench.records import atomic_write_text, read_records, to_jsonable
from workbench.runner._notebooks import NOTEBOOK_PATTERN, RunnerUsageError
from workbench.runner._provenance import _now

logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
RECORDS = "records.json"
LOCK_FILE = ".workbench-run.lock"
SUMMARY_JSON = "summary.json"
SUMMARY_MD = "summary.md"
#: The marker the runner writes into every folder it creates (partial, result, failed copy).
OWNER_FILE = ".workbench-runner"
OWNER_TEXT = "created by workbench.runner (python -m workbench run), which may replace it\n"
#: Hidden folders of a run in progress, or of a replaced result being removed.
PARTIAL_PATTERN = re.compile(r"^\.(\d\d_[A-Za-z0-9_]+(?:\.failed)?)\.partial-(\d+)-(old-)?")
SUMMARY_TITLE = "# Notebook run summary ("
#: At most this many key numbers per notebook in ``summary.md`` (see :func:`key_numbers`).
KEY_NUMBERS = 5


class PublishError(OSError):
    """A result could not be put in place (the message names the path)."""


def mark_owned(folder: Path) -> None:
    """Write the owner marker into ``folder`` (a folder the runner created)."""
    fd = os.open(folder / OWNER_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                 file_mode())  # fmt: skip
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(OWNER_TEXT)


def is_owned(folder: Path) -> bool:
    """``folder`` is a real folder (not a symlink) holding the runner's owner marker."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return False
        marker = folder / OWNER_FILE
        if not stat.S_ISREG(os.lstat(marker).st_mode):
            return False
        return marker.read_text(encoding="utf-8") == OWNER_TEXT
    except (OSError, UnicodeDecodeError):
        return False


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_result_folder(folder: Path, name: str) -> bool:
    """``folder`` is a result (or ``.failed``) folder of notebook ``name`` the runner made: it
    carries the owner marker, or (older runners) a manifest naming the notebook."""
    if is_owned(folder):
        return True
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return False
    except OSError:
        return False
    manifest = read_manifest(folder)
    return manifest is not None and manifest.get("notebook") == name


def _kind(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "entry"
    for test, kind in ((stat.S_ISLNK, "symlink"), (stat.S_ISDIR, "folder"),
                       (stat.S_ISREG, "file"), (stat.S_ISFIFO, "FIFO"),
                       (stat.S_ISSOCK, "socket")):  # fmt: skip
        if test(mode):
            return kind
    return "special file"


def in_the_way(path: Path, name: str) -> str | None:
    """Why the runner may not replace ``path`` (the result or failed folder of notebook
    ``name``), or None when nothing is there or it is the runner's."""
    if not os.path.lexists(path) or is_result_folder(path, name):
        return None
    return (f"a file is in the way: {path} is a {_kind(path)} the runner did not create "
            "(it is left untouched; move it away or choose another --out)")  # fmt: skip


def adopt(folder: Path, name: str) -> None:
    """Mark a result folder of an older runner as the runner's before it is replaced (so that,
    after a kill mid-replacement, the next run recognises and removes it)."""
    if not is_owned(folder) and is_result_folder(folder, name):
        mark_owned(folder)


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the results folder ``out`` for the whole run; a second run
    into the same folder waits for it (and says so) instead of interleaving with it.

    The lock file must be a regular file (a symlink, FIFO or folder there is a usage error).
    """
    path = out / LOCK_FILE
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, file_mode())
    except OSError as exc:
        raise RunnerUsageError(
            f"lock file {path} cannot be opened ({exc.strerror}): it is a {_kind(path)}, not a "
            "regular file; move it away"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RunnerUsageError(
                f"lock file {path} is a {_kind(path)}, not a regular file; move it away"
            )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.warning("another run is writing to %s; waiting for it to finish", out)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def remove_stale_partials(out: Path) -> None:
    """Delete the runner's ``.<name>.partial-<pid>-*`` folders left by runs whose process is
    gone (killed); a ``<name>`` folder missing because a run was killed while publishing is
    restored from its renamed-away previous version. Folders without the owner marker are
    never touched."""
    for folder in out.glob(".*.partial-*"):
        match = PARTIAL_PATTERN.match(folder.name)
        if not match or not is_owned(folder):
            continue
        try:
            os.kill(int(match.group(2)), 0)
        except ProcessLookupError:
            final = out / match.group(1)
            try:
                if match.group(3) and not os.path.lexists(final):
                    os.replace(folder, final)
                else:
                    shutil.rmtree(folder, ignore_errors=True)
            except OSError as exc:
                logger.warning("could not clean up %s: %s", folder, exc.strerror or exc)
        except (OSError, OverflowError):  # exists but not ours, or not checkable: leave it
            continue


def check_out_dir(given: str | os.PathLike[str], out_dir: Path, paths: Sequence[Path]) -> None:
    """Refuse a results folder that is a place of the user's own: the root of the file system,
    the home folder, or a folder holding the notebooks."""
    notebook_dirs = {p.parent.resolve() for p in paths}
    home = Path.home().resolve()
    if out_dir.parent == out_dir or out_dir == home or out_dir in notebook_dirs:
        what = ("the root of the file system" if out_dir.parent == out_dir
                else "your home folder" if out_dir == home else "the notebooks folder")  # fmt: skip
        raise RunnerUsageError(
            f"results folder {str(given)!r} ({out_dir}) is {what}; give --out a folder of its own "
            "(e.g. results/)"
        )


def absolute_path_env(names: Sequence[str]) -> dict[str, str]:
    """The environment variables ``names`` that are set to a relative path, made absolute
    against the current folder (``~`` expanded)."""
    fixed = {}
    for var in names:
        value = os.environ.get(var)
        if value and not Path(value).expanduser().is_absolute():
            fixed[var] = os.path.abspath(Path(value).expanduser())
            logger.info("%s=%s is relative: the notebooks get %s", var, value, fixed[var])
    return fixed


# --------------------------------------------------------------------------- verification


def output_hashes(folder: Path) -> dict[str, dict[str, Any]]:
    """Size and sha256 of every file under ``folder`` but the manifest and the marker."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink() and p.name not in (MANIFEST, OWNER_FILE):
            out[p.relative_to(folder).as_posix()] = {
                "size": p.stat().st_size,
                "sha256": file_sha256(p),
            }
    return out


def verify_result(folder: Path, name: str) -> str | None:
    """What is wrong with the complete result ``folder`` of notebook ``name`` (None: nothing):
    every file its manifest lists must be there with the recorded size and sha256, and
    ``records.json`` must parse."""
    if not is_result_folder(folder, name):
        return f"{folder} is not a result folder of the runner"
    manifest = read_manifest(folder)
    if manifest is None:
        return "manifest.json missing or unreadable"
    if manifest.get("status") != "complete":
        return f"manifest status is {manifest.get('status')!r}"
    outputs = manifest.get("outputs")
    if not (isinstance(outputs, dict)
            and all(isinstance(v, dict) and {"size", "sha256"} <= v.keys()
                    for v in outputs.values())):  # fmt: skip
        return "manifest.json records no file hashes (written by an older runner)"
    for required in (f"{name}.ipynb", RECORDS):
        if required not in outputs:
            return f"manifest.json does not list {required}"
    for rel, meta in sorted(outputs.items()):
        parts = Path(rel).parts
        if Path(rel).is_absolute() or ".." in parts:
            return f"manifest.json lists {rel!r}, outside the folder"
        path = folder / rel
        if path.is_symlink() or not path.is_file():
            return f"{rel} is missing"
        if path.stat().st_size != meta["size"]:
            return f"{rel} has {path.stat().st_size} bytes, not {meta['size']}"
        if file_sha256(path) != meta["sha256"]:
            return f"{rel} was modified (sha256 differs)"
    try:
        read_records(folder / RECORDS)
    except Exception as exc:  # noqa: BLE001 - any unreadable records file is damage
        return f"records.json does not parse ({exc})"
    return None


def result_status(out: Path, name: str) -> str:
    """``"complete"``, ``"damaged: <what>"``, ``"failed"``, ``"not run"`` or
    ``"in the way: ..."`` for notebook ``name`` in the results folder ``out``."""
    final = out / name
    if os.path.lexists(final):
        blocked = in_the_way(final, name)
        if blocked:
            return f"in the way: {final} is not a result folder of the runner"
        problem = verify_result(final, name)
        return "complete" if problem is None else f"damaged: {problem}"
    failed = out / f"{name}.failed"
    if os.path.lexists(failed) and is_result_folder(failed, name):
        return "failed"
    return "not run"


# --------------------------------------------------------------------------- summary


def _summary_in_the_way(path: Path) -> str | None:
    """Why the runner may not replace the summary file ``path`` (None: absent or its own)."""
    if not os.path.lexists(path):
        return None
    try:
        ours = stat.S_ISREG(os.lstat(path).st_mode)
        text = path.read_text(encoding="utf-8") if ours else ""
        if ours and path.suffix == ".json":
            data = json.loads(text)
            ours = isinstance(data, dict) and {"notebooks", "earlier_results"} <= data.keys()
        elif ours:
            ours = text.startswith(SUMMARY_TITLE)
    except (OSError, ValueError):
        ours = False
    if ours:
        return None
    return (f"a file is in the way: {path} is a {_kind(path)} the runner did not write "
            "(left untouched; the summary was not written)")  # fmt: skip


def write_summary(report: Any) -> list[str]:
    """Write ``summary.json`` and ``summary.md`` into ``report.out``; the problems (one line
    each, naming the path) that kept either from being written."""
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
        name = manifest_path.parent.name
        if name in this_run or not NOTEBOOK_PATTERN.match(name):
            continue
        manifest = read_manifest(manifest_path.parent)
        if manifest is None or not is_result_folder(manifest_path.parent, name):
            continue
        earlier.append({key: manifest.get(key)
                        for key in ("status", "finished", "size", "wall_time_s")}
                       | {"notebook": name})  # fmt: skip
    summary = {"finished": _now(), "ok": report.ok, "notebooks": entries,
               "earlier_results": earlier}  # fmt: skip
    md = f"{SUMMARY_TITLE}{summary['finished']})\n\n{report.summary_table()}\n"
    if earlier:
        md += "\n## Earlier results in this folder\n\n| notebook | status | size | finished |\n"
        md += "|---|---|---|---|\n"
        md += "".join(
            f"| {e['notebook']} | {e['status']} | {e['size']} | {e['finished']} |\n"
            for e in earlier
        )
    md += _key_numbers_md(report.results)
    texts: Mapping[str, str] = {
        SUMMARY_JSON: json.dumps(summary, indent=2, sort_keys=True),
        SUMMARY_MD: md,
    }
    problems = []
    for filename, text in texts.items():
        path = report.out / filename
        blocked = _summary_in_the_way(path)
        if blocked:
            problems.append(blocked)
            continue
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            problems.append(describe_os_error(f"could not write {path}", exc))
    return problems


def key_numbers(records: Mapping[str, Any], limit: int = KEY_NUMBERS) -> list[tuple[str, Any]]:
    """The key numbers of a notebook: the first ``limit`` top-level records whose value is a
    number (an int or float; not a bool, not ``None``), in the order of ``records.json``.

    No study marks records as key, so this is the one rule; nested values (tables, per-set
    dictionaries) are left to the notebook and the results site.

    Examples
    --------
    >>> key_numbers({"corpus": "1M", "n_tokens": 500000, "ok": True, "beta": 0.63}, limit=5)
    [('n_tokens', 500000), ('beta', 0.63)]
    """
    numbers = [(name, value) for name, value in records.items()
               if isinstance(value, (int, float)) and not isinstance(value, bool)]  # fmt: skip
    return numbers[:limit]


def _format_number(value: int | float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:.4g}"


def _key_numbers_md(results: Sequence[Any]) -> str:
    """The ``## Key numbers`` section of ``summary.md``: per notebook of the run with records
    (complete or skipped as up to date), its :func:`key_numbers` as a table."""
    sections = []
    for r in results:
        if r.status == "failed":
            continue
        try:
            numbers = key_numbers(r.records)
        except (OSError, ValueError) as exc:  # a damaged records.json: say so, keep the summary
            sections.append(f"### {r.name}\n\nrecords unreadable: {exc}\n")
            continue
        if numbers:
            rows = "".join(f"| {name} | {_format_number(v)} |\n" for name, v in numbers)
            sections.append(f"### {r.name}\n\n| record | value |\n|---|---:|\n{rows}")
    if not sections:
        return ""
    return (
        f"\n## Key numbers\n\nUp to {KEY_NUMBERS} numeric records per notebook, in the order "
        "of its records.json.\n\n" + "\n".join(sections)
    )


def describe_os_error(what: str, exc: OSError) -> str:
    """One line: ``what``, the failing path and the system's reason (e.g. no space left)."""
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "") or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{what}{where}: {reason}"
