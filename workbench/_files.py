"""Atomic writes, and reading files that are not trusted (the cache root, extracted folders).

Atomic writes
    :func:`atomic_write_bytes`, :func:`atomic_write_text` and the :func:`atomic_path` context
    write to a temporary file in the target folder and rename it into place, so a reader sees
    the old file or the new one, never a partial one. New files get the permissions of the
    user's umask (``0o666 & ~umask``), not the ``0o600`` of :func:`tempfile.mkstemp`.

Untrusted files
    The cache (:mod:`workbench._io`) and ``workbench cache clear`` (:mod:`workbench._cache_clear`)
read and remove files in a folder other users or programs may also write to. Every file the
cache opens is first checked with ``os.lstat``: a FIFO, socket, device, folder, a symlink that
resolves outside the cache root, or a file larger than a stated bound raises
:class:`InvalidFile` (never read, never blocking), and the file is opened with ``O_NONBLOCK``
and re-checked with ``fstat``. Only regular files and symlinks (as links) are ever unlinked.

Extracted folders (e.g. the WordNet database) are verified with :func:`write_tree_manifest` /
:func:`verify_tree`. :mod:`workbench._io` re-exports all of these.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = [
    "CACHE_MARKER",
    "TREE_FORMAT",
    "atomic_path",
    "atomic_write_bytes",
    "atomic_write_text",
    "dir_mode",
    "file_mode",
    "file_sha256",
    "replace_dir",
    "verify_tree",
    "write_tree_manifest",
    "ENTRY_FILE_RE",
    "ENTRY_TEMP_RE",
    "MANIFEST_LIMIT",
    "TREE_MANIFEST",
    "InvalidFile",
    "file_kind",
    "inside",
    "read_json",
    "read_regular",
    "regular_stat",
    "removable",
    "unlink_quietly",
]

#: Manifest of an extracted folder (:func:`workbench._io.write_tree_manifest`).
TREE_MANIFEST = ".workbench-manifest.json"
#: Marker file written into the cache root when the cache creates it (or finds it empty);
#: ``workbench cache clear`` refuses a root without it.
CACHE_MARKER = ".workbench-cache"
#: Largest manifest (of an entry or an extracted folder) the cache reads.
MANIFEST_LIMIT = 16 << 20
#: Version of the layout of :data:`TREE_MANIFEST`.
TREE_FORMAT = 1
_BLOCK = 1 << 20
#: The names the cache writes into a namespace folder: manifest, data file and lock file ...
ENTRY_FILE_RE = re.compile(r"[0-9a-f]{32}(\.json|-[0-9a-f]{16}\.npz|\.lock)")
#: ... and the temporaries of the manifest and data file (:func:`workbench._io.atomic_path`).
ENTRY_TEMP_RE = re.compile(r"\.[0-9a-f]{32}(\.json|-[0-9a-f]{16}\.npz)\..+\.tmp(\.npz)?")


class InvalidFile(Exception):
    """An entry that must not be used (the message says why)."""


_KINDS = {stat.S_IFIFO: "FIFO", stat.S_IFSOCK: "socket", stat.S_IFCHR: "character device",
          stat.S_IFBLK: "block device", stat.S_IFDIR: "folder", stat.S_IFLNK: "symlink"}  # fmt: skip


def file_kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "special file")


def inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether the real path of ``path`` lies in the real path of ``root``."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def regular_stat(path: Path, within: Path | None) -> os.stat_result:
    """``stat`` of ``path``; :class:`InvalidFile` unless it is a regular file (or a symlink to one
    inside ``within``). ``FileNotFoundError`` when it does not exist: a miss."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        if within is not None and not inside(path, within):
            raise InvalidFile(f"{path} is a symlink to {os.path.realpath(path)}, outside the "
                           f"cache root {within}")  # fmt: skip
        st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise InvalidFile(f"{path} is a {file_kind(st.st_mode)}, not a regular file")
    return st


def read_regular(
    path: Path, within: Path | None, *, limit: int = MANIFEST_LIMIT, size: int | None = None
) -> bytes:
    """The bytes of the regular file ``path``, never blocking and never more than ``limit``.

    A FIFO, socket, device, folder, a symlink out of ``within``, a file larger than ``limit``
    or of another size than ``size`` raises :class:`InvalidFile` before anything is read; the
    file is opened with ``O_NONBLOCK`` and re-checked with ``fstat`` (it may be swapped
    between the check and the open). ``FileNotFoundError`` when it does not exist.
    """
    st = regular_stat(path, within)
    if size is not None and st.st_size != size:
        raise InvalidFile(f"data file {path.name} has {st.st_size} bytes, manifest says {size}")
    if st.st_size > limit:
        raise InvalidFile(f"{path} has {st.st_size} bytes, more than the {limit} allowed")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise InvalidFile(f"{path} unreadable ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as fh:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise InvalidFile(f"{path} was replaced while it was opened")
        try:
            raw = fh.read(limit + 1)
        except OSError as exc:
            raise InvalidFile(f"{path} unreadable ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise InvalidFile(f"{path} has more than the {limit} bytes allowed")
    return raw


def read_json(path: Path, within: Path | None) -> Any:
    """The JSON in ``path`` read with :func:`_read_regular`; :class:`InvalidFile` when it does
    not parse (also when nested too deep)."""
    raw = read_regular(path, within)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise InvalidFile(
            f"manifest unreadable ({exc.__class__.__name__}: {str(exc)[:200]})"
        ) from None


def removable(path: Path) -> bool:
    """Whether the cache may unlink ``path``: a regular file, or a symlink (removed as a link)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def unlink_quietly(path: Path) -> bool:
    """Unlink a file the cache wrote (never a folder or special file); ``False`` if it cannot."""
    if not removable(path):
        return False
    try:
        os.unlink(path)
    except FileNotFoundError:
        return True
    except OSError as exc:
        logger.debug("cannot remove %s: %s", path, exc)
        return False
    return True


# --------------------------------------------------------------------------- atomic writes


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """Permissions of a new file under the current umask (``0o666 & ~umask``)."""
    return 0o666 & ~_umask()


def dir_mode() -> int:
    """Permissions of a new folder under the current umask (``0o777 & ~umask``)."""
    return 0o777 & ~_umask()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` if the block succeeds.

    The temporary file is removed when the block raises. ``suffix`` is kept on the temporary
    name (writers such as :func:`numpy.savez` append ``.npz`` to names without it).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=f".tmp{suffix}"
    )
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, file_mode())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + rename); return the path."""
    with atomic_path(path) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    return Path(path)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; return the path."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------- folders


def _tree_files(root: Path) -> tuple[dict[str, os.stat_result], list[str]]:
    """Regular files under ``root`` (symlinks inside it followed) and the other entries."""
    files: dict[str, os.stat_result] = {}
    other: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(filenames) + sorted(d for d in dirnames if os.path.islink(
                os.path.join(dirpath, d))):  # fmt: skip
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            if rel == TREE_MANIFEST:
                continue
            try:
                files[rel] = _regular_stat_in(p, root)
            except (InvalidFile, OSError) as exc:
                other.append(f"{rel} ({exc})")
    return files, other


def _regular_stat_in(path: Path, root: Path) -> os.stat_result:
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) and not inside(path, root):
        raise InvalidFile(f"symlink to {os.path.realpath(path)}, outside {root}")
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise InvalidFile(f"a {file_kind(st.st_mode)}, not a regular file")
    return st


def _sha256_of(path: Path, root: Path, size: int) -> str:
    return hashlib.sha256(read_regular(path, root, limit=size, size=size)).hexdigest()


def write_tree_manifest(folder: str | os.PathLike[str], *, source: str = "") -> Path:
    """Write ``<folder>/.workbench-manifest.json`` with the size and SHA-256 of every file.

    Raises ``ValueError`` naming the entry when the folder holds a FIFO, socket, device or a
    symlink out of it (never read, never blocking).
    """
    root = Path(folder)
    found, other = _tree_files(root)
    if other:
        raise ValueError(f"{root}: not a regular file: {other[0]}")
    try:
        files = {rel: {"size": st.st_size, "sha256": _sha256_of(root / rel, root, st.st_size)}
                 for rel, st in sorted(found.items())}  # fmt: skip
    except InvalidFile as exc:
        raise ValueError(f"{root}: {exc}") from None
    manifest = {"format": TREE_FORMAT, "source": source, "files": files}
    return atomic_write_text(root / TREE_MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))


def verify_tree(folder: str | os.PathLike[str], *, source: str | None = None) -> str:
    """Check an extracted folder against its manifest: ``""`` when intact, else the problem.

    Checks that the manifest parses (and names ``source`` when given), that every listed file
    exists with its size and SHA-256, and that no file was added. A FIFO, socket, device or
    symlink out of the folder (also as the manifest) is a problem, never read.
    """
    root = Path(folder)
    try:
        manifest = read_json(root / TREE_MANIFEST, root)
        files = manifest["files"]
        if not isinstance(files, dict):
            raise TypeError("files is not an object")
    except (InvalidFile, OSError, ValueError, KeyError, TypeError) as exc:
        return f"manifest {root / TREE_MANIFEST} missing or unreadable ({exc})"
    if source is not None and manifest.get("source") != source:
        return f"extracted from {manifest.get('source')!r}, not {source!r}"
    present, other = _tree_files(root)
    if other:
        return f"not a regular file: {other[0]}"
    if set(files) != set(present):
        extra = sorted(set(present) - set(files))[:3]
        missing = sorted(set(files) - set(present))[:3]
        return f"files differ from the manifest (missing {missing}, extra {extra})"
    for rel, rec in files.items():
        try:
            if (
                present[rel].st_size != rec["size"]
                or _sha256_of(root / rel, root, rec["size"]) != rec["sha256"]
            ):
                return f"{rel} does not match its SHA-256"
        except (InvalidFile, OSError, KeyError, TypeError) as exc:
            return f"{rel} unreadable ({exc.__class__.__name__})"
    return ""


def replace_dir(tmp: Path, target: Path) -> None:
    """Move the finished folder ``tmp`` onto ``target`` (an existing ``target`` is removed first)."""
    try:
        os.rename(tmp, target)
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
        shutil.rmtree(target, ignore_errors=True)
        os.rename(tmp, target)
