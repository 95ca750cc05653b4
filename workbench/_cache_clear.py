"""``workbench cache clear``: remove what the cache wrote, and nothing else.

The rule (:func:`clear_cache`):

* The whole cache is cleared only when its root carries the marker file
  :data:`~workbench._files.CACHE_MARKER`, which :func:`workbench._io.cache_root` writes into a
  root it creates or finds empty. A folder without it (``WORKBENCH_CACHE=~`` by mistake, an old
  cache) is refused with :class:`NotACacheError`: nothing is removed.
* In a namespace folder (a folder holding a ``<key>.json`` manifest that names it, as found by
  :func:`workbench._io.iter_entries`; a symlinked folder is never one), the files named like
  entries: ``<key>.json``, ``<key>-<sha16>.npz``, ``<key>.lock``, and temporaries of the
  manifest and data file older than an hour (younger ones may be a write in progress). Then the
  namespace folder and its parents below the root, when they are empty.
* In an extracted folder (a folder under the root with a
  :data:`~workbench._files.TREE_MANIFEST` that parses), the files its manifest lists and the
  manifest, then its folders when empty; beside it, its lock file ``.<folder>.lock``. Empty
  lock files ``.<name>-<16 hex>.lock`` in the root (of extractions) go too.
* Only regular files and symlinks are removed; a symlink is removed as a link, never its target,
  and no symlinked folder is entered (removal goes through descriptors opened with
  ``O_NOFOLLOW``). Everything else (the user's files, unknown folders, partial extractions) is
  left and reported in :attr:`ClearReport.left`; what cannot be removed (read-only,
  permission) is reported in :attr:`ClearReport.failed` with the error.

With ``namespace``, only that namespace's entry files (and its empty folders) are removed; its
root need not carry the marker, since nothing but files named like entries is touched.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from workbench._files import (
    CACHE_MARKER,
    ENTRY_FILE_RE,
    ENTRY_TEMP_RE,
    TREE_MANIFEST,
    InvalidFile,
    read_json,
)
from workbench._io import Cache, cache_root, iter_entries, iter_trees

__all__ = ["ClearReport", "NotACacheError", "clear_cache"]

_STALE = 3600
_ROOT_LOCK_RE = re.compile(r"\.[\w.]+-[0-9a-f]{16}\.lock")


class NotACacheError(ValueError):
    """The folder to clear is not a workbench cache (it has no marker file)."""


@dataclass
class ClearReport:
    """What :func:`clear_cache` removed, left alone and could not remove."""

    root: Path
    #: Files and folders removed (with ``dry_run``: the files that would be removed).
    removed: list[Path] = field(default_factory=list)
    #: Files and folders the cache did not write, left alone.
    left: list[Path] = field(default_factory=list)
    #: ``(path, error)`` of what could not be removed.
    failed: list[tuple[Path, str]] = field(default_factory=list)


def _is_file_or_link(path: Path) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _namespace_files(folder: Path) -> list[Path]:
    out = []
    now = time.time()
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        p = Path(entry.path)
        if not _is_file_or_link(p):
            continue
        if ENTRY_FILE_RE.fullmatch(entry.name):
            out.append(p)
        elif ENTRY_TEMP_RE.fullmatch(entry.name) and now - os.lstat(p).st_mtime > _STALE:
            out.append(p)
    return out


def _tree_files(folder: Path, root: Path) -> tuple[list[Path], list[Path]]:
    """Files and folders of an extracted folder its manifest lists (``[]`` if unreadable)."""
    try:
        files = read_json(folder / TREE_MANIFEST, root)["files"]
        if not isinstance(files, dict):
            return [], []
    except (InvalidFile, OSError, KeyError, TypeError):
        return [], []
    out, dirs = [folder / TREE_MANIFEST], {folder}
    for rel in files:
        parts = rel.split("/") if isinstance(rel, str) else []
        if not parts or any(p in ("", ".", "..") for p in parts) or rel.startswith("/"):
            continue
        p = folder.joinpath(*parts)
        if _is_file_or_link(p):
            out.append(p)
            dirs.update(p.parents[: len(parts) - 1])
    return out, sorted(dirs)


def _plan(root: Path, namespace: str | None) -> tuple[list[Path], list[Path], set[Path]]:
    """Files to remove, folders to remove when empty, folders whose contents are looked at."""
    caches = [c for c in iter_entries(root) if namespace in (None, c.namespace)]
    if namespace is not None and not caches:
        raise ValueError(f"no cache namespace {namespace!r} under {root}")
    files: list[Path] = []
    dirs: set[Path] = set()
    for c in caches:
        folder = root / c.namespace
        files += _namespace_files(folder)
        dirs.add(folder)
        dirs.update(p for p in folder.parents if root in p.parents)
    if namespace is None:
        trees = list(iter_trees(root))
        for tree in trees:
            tree_files, tree_dirs = _tree_files(tree, root)
            if tree_files:
                files += tree_files
                dirs.update(tree_dirs)
        locks = {f".{t.name}.lock" for t in trees}
        for entry in os.scandir(root):
            if not (entry.name in locks or _ROOT_LOCK_RE.fullmatch(entry.name)):
                continue
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and (entry.name in locks or st.st_size == 0):
                files.append(Path(entry.path))
    return files, sorted(dirs, key=lambda p: -len(p.parts)), dirs | {root}


def _left(root: Path, start: Path, files: set[Path], looked: set[Path]) -> list[Path]:
    out = []
    for entry in sorted(os.scandir(start), key=lambda e: e.name):
        p = Path(entry.path)
        if p in files or (start == root and entry.name == CACHE_MARKER):
            continue
        if p in looked and entry.is_dir(follow_symlinks=False):
            out += _left(root, p, files, looked)
        elif p not in looked:
            out.append(p)
    return out


def _open_parent(root: Path, path: Path) -> int:
    """A descriptor of ``path``'s folder, reached from ``root`` without following symlinks."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    for part in path.parent.relative_to(root).parts:
        try:
            nfd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                          dir_fd=fd)  # fmt: skip
        finally:
            os.close(fd)
        fd = nfd
    return fd


def _remove(root: Path, path: Path, *, folder: bool) -> str | None:
    """Remove ``path`` (a file or symlink; an empty folder); the error, ``""`` when a folder is
    not empty, ``None`` when removed."""
    try:
        fd = _open_parent(root, path)
    except OSError as exc:
        return f"cannot open its folder without following a symlink ({exc.strerror or exc})"
    try:
        if folder:
            os.rmdir(path.name, dir_fd=fd)
            return None
        mode = os.stat(path.name, dir_fd=fd, follow_symlinks=False).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            return "it is no longer a file or symlink"
        os.unlink(path.name, dir_fd=fd)
        return None
    except FileNotFoundError:
        return "" if folder else None
    except OSError as exc:
        if folder and exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            return ""
        return exc.strerror or str(exc)
    finally:
        os.close(fd)


def clear_cache(
    root: str | os.PathLike[str] | None = None,
    *,
    namespace: str | None = None,
    dry_run: bool = False,
) -> ClearReport:
    """Remove the files the cache wrote under ``root`` (default :func:`cache_root`).

    See the module docstring for the precise rule.

    Parameters
    ----------
    root : path, optional
        The cache root.
    namespace : str, optional
        Only this namespace (e.g. ``"views"``).
    dry_run : bool
        Remove nothing; :attr:`ClearReport.removed` lists the files that would be removed.

    Raises
    ------
    NotACacheError
        ``root`` has no marker file (and no ``namespace`` is given).
    ValueError
        ``namespace`` is not a relative folder name, or no namespace of that name exists.
    """
    base = Path(root) if root is not None else cache_root()
    if namespace is not None:
        Cache(namespace, root=base)  # a ValueError naming a bad namespace ('../x', '/etc')
    elif not os.path.isfile(base / CACHE_MARKER) or os.path.islink(base / CACHE_MARKER):
        raise NotACacheError(
            f"{base} is not a workbench cache (it has no {CACHE_MARKER} marker file), so "
            f"nothing is removed. Check WORKBENCH_CACHE; if this folder really holds only the "
            f"workbench cache, create the marker (touch {base / CACHE_MARKER}) and run clear "
            f"again, or clear one namespace with --namespace NAME."
        )
    files, dirs, looked = _plan(base, namespace)
    start = base / namespace if namespace is not None else base
    report = ClearReport(base, left=_left(base, start, set(files), looked))
    if dry_run:
        report.removed = files
        return report
    for path in files:
        error = _remove(base, path, folder=False)
        if error is None:
            report.removed.append(path)
        else:
            report.failed.append((path, error))
    for path in dirs:
        error = _remove(base, path, folder=True)
        if error is None:
            report.removed.append(path)
        elif error:
            report.failed.append((path, error))
    return report
