"""The verified on-disk cache used by every module that caches what it builds.

Atomic writes (:func:`atomic_write_bytes`, :func:`atomic_path`, ...) and the verified
extracted folders (:func:`write_tree_manifest`, :func:`verify_tree`) live in
:mod:`workbench._files` and are re-exported here.

The verified cache
    A :class:`Cache` is one namespace (a folder under :func:`cache_root`). An entry is addressed
    by its *inputs*, a JSON-able mapping of everything the content depends on; its key is the
    SHA-256 of the canonical JSON of ``(format version, namespace, inputs)``. An entry is two
    files:

    ``<key>-<sha16>.npz``
        the arrays (dense or CSR sparse), written with ``allow_pickle=False`` so a damaged or
        planted file cannot run code or decode to an arbitrary object;
    ``<key>.json``
        the manifest, written last and atomically: format, namespace, key, inputs, the data
        file's name, size and SHA-256, the array names and kinds, JSON metadata, and a SHA-256
        of all of these (so an edited manifest is detected too).

    On read, a missing manifest is a miss; a manifest that does not parse, names another key or
    other inputs (e.g. two entries swapped), a data file whose size or SHA-256 differs from the
    manifest (e.g. rewritten with other values of the same shape), or a data file that does not
    decode, is *invalid*: one :class:`CacheWarning` naming the file is emitted, the entry is
    removed and the caller rebuilds. An invalid entry is never returned and never raises.
    A manifest or data file that is a FIFO, socket, device, folder, a symlink resolving
    outside the cache root, or larger than its bound (a manifest over
    :data:`~workbench._files.MANIFEST_LIMIT`, a data file of another size than its manifest
    says) is invalid too, and never opened for reading (:mod:`workbench._files`); only
    regular files and symlinks (as links) are ever removed.

    :meth:`Cache.get_or_build` holds a per-key file lock while it loads or builds, so two
    processes asking for the same entry build it once.

A cache that cannot be written is still read: without the lock when the lock file cannot be
created (a debug log), and a missing entry is built and returned with one
:class:`CacheWarning` naming the folder and the error (read-only or full disk), leaving no
partial file. :func:`cache_root` writes the marker :data:`CACHE_MARKER` into a root it creates
or finds empty; ``workbench cache clear`` (:func:`workbench._cache_clear.clear_cache`) refuses a
root without it and removes only what the cache wrote.

The command line ``workbench cache list|verify|clear`` lists, verifies and removes entries.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import io
import json
import logging
import os
import re
import stat
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from workbench._files import (
    CACHE_MARKER,
    ENTRY_FILE_RE,
    ENTRY_TEMP_RE,
    TREE_MANIFEST,
    atomic_path,
    atomic_write_bytes,
    atomic_write_text,
    dir_mode,
    file_kind,
    file_mode,
    file_sha256,
    inside,
    read_json,
    read_regular,
    replace_dir,
    unlink_quietly,
    verify_tree,
    write_tree_manifest,
)
from workbench._files import InvalidFile as _Invalid
from workbench._typing import Matrix

logger = logging.getLogger(__name__)

__all__ = [
    "CACHE_FORMAT",
    "CACHE_MARKER",
    "TREE_MANIFEST",
    "Cache",
    "CacheEntry",
    "CacheWarning",
    "EntryStatus",
    "atomic_path",
    "atomic_write_bytes",
    "atomic_write_text",
    "cache_root",
    "canonical_json",
    "content_hash",
    "dir_mode",
    "file_mode",
    "file_sha256",
    "iter_entries",
    "iter_trees",
    "replace_dir",
    "verify_tree",
    "write_tree_manifest",
]

#: Version of the entry layout; part of every key, so a new layout never reads an old entry.
CACHE_FORMAT = 1
_BLOCK = 1 << 20
_KEY_RE = re.compile(r"[0-9a-f]{32}")
_NOT_STORABLE = (errno.EACCES, errno.EROFS, errno.EPERM)


class CacheWarning(UserWarning):
    """A cache entry was damaged or did not match its manifest and is rebuilt."""


def canonical_json(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces; tuples as lists, paths and other objects as str)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def content_hash(*parts: Any) -> str:
    """SHA-256 (hex) of arrays, strings, word lists and JSON-able values, order-sensitive.

    Used to put large inputs (a corpus' token ids, a vocabulary) into cache keys: arrays hash
    their dtype and bytes, sparse matrices their values in canonical CSR form (duplicates summed,
    indices sorted, as float64; the storage format does not matter, the matrix is not touched),
    objects with a ``words`` attribute (a vocabulary) their words.
    """
    h = hashlib.sha256()
    for p in parts:
        if sp.issparse(p):
            m = sp.csr_matrix(p, dtype=np.float64, copy=True)
            m.sum_duplicates()
            m.sort_indices()
            h.update(b"sparse")
            for a in (np.asarray(m.shape, dtype=np.int64), m.indptr.astype(np.int64),
                      m.indices.astype(np.int64), m.data):  # fmt: skip
                h.update(np.ascontiguousarray(a).tobytes())
        elif isinstance(p, np.ndarray):
            h.update(str(p.dtype).encode())
            h.update(str(p.shape).encode())
            h.update(np.ascontiguousarray(p).tobytes())
        elif hasattr(p, "words") and not isinstance(p, Mapping):
            h.update(hashlib.sha256("\n".join(p.words).encode()).digest())
        elif isinstance(p, str):
            h.update(p.encode())
        else:
            h.update(canonical_json(p).encode())
        h.update(b"\x00")
    return h.hexdigest()


def _roundtrip(value: Any) -> Any:
    return json.loads(canonical_json(value))


def _manifest_checksum(manifest: Mapping[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


# --------------------------------------------------------------------------- arrays <-> npz


def _pack(arrays: Mapping[str, ArrayLike | Matrix]) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    flat: dict[str, np.ndarray] = {}
    kinds: dict[str, str] = {}
    for name, value in arrays.items():
        if "/" in name or name.startswith("_"):
            raise ValueError(f"cache array name {name!r}: no '/' and no leading '_'")
        if sp.issparse(value):
            m = sp.csr_array(value)
            m.sort_indices()
            flat[f"{name}/data"] = m.data
            flat[f"{name}/indices"] = m.indices
            flat[f"{name}/indptr"] = m.indptr
            flat[f"{name}/shape"] = np.asarray(m.shape, dtype=np.int64)
            kinds[name] = "csr"
        else:
            arr = np.asarray(value)
            if arr.dtype.hasobject:
                raise TypeError(f"cache array {name!r} has dtype object; store strings as str")
            flat[name] = arr
            kinds[name] = "dense"
    return flat, kinds


def _unpack(
    z: Mapping[str, np.ndarray], kinds: Mapping[str, str]
) -> dict[str, np.ndarray | sp.csr_array]:
    out: dict[str, np.ndarray | sp.csr_array] = {}
    for name, kind in kinds.items():
        if kind == "csr":
            shape = tuple(int(s) for s in z[f"{name}/shape"])
            out[name] = sp.csr_array(
                (z[f"{name}/data"], z[f"{name}/indices"], z[f"{name}/indptr"]), shape=shape
            )
        elif kind == "dense":
            out[name] = z[name]
        else:
            raise ValueError(f"unknown array kind {kind!r} of {name!r}")
    return out


# --------------------------------------------------------------------------- the cache


def _prepare_root(path: Path) -> Path:
    """Create the cache root ``path`` (marking it with :data:`CACHE_MARKER` when it is created
    or found empty); a root that exists but cannot be written is returned as it is."""
    if os.path.lexists(path / CACHE_MARKER):
        return path
    try:
        created = not path.exists()
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(
            errno.ENOTDIR,
            "the cache root is not a folder (set WORKBENCH_CACHE to a folder)",
            str(path),
        ) from None
    except OSError as exc:
        logger.debug("cannot create the cache root %s (%s); it is used read-only", path, exc)
        return path
    try:
        if created or not any(os.scandir(path)):
            fd = os.open(path / CACHE_MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                         file_mode())  # fmt: skip
            with os.fdopen(fd, "w") as fh:
                fh.write("This folder is the workbench cache; `python -m workbench cache clear`\n"
                         "removes only the files the cache wrote here.\n")  # fmt: skip
    except OSError as exc:
        logger.debug("cannot mark the cache root %s (%s)", path, exc)
    return path


def cache_root() -> Path:
    """Root folder of every cache: ``WORKBENCH_CACHE``, default ``~/.cache/workbench``.

    Created on demand, with the marker file :data:`CACHE_MARKER` when the cache creates it or
    finds it empty (``workbench cache clear`` refuses a folder without it). A root that exists
    but cannot be written is returned as it is: the cache reads it and stores nothing.
    """
    env = os.environ.get("WORKBENCH_CACHE")
    path = Path(env).expanduser() if env else Path.home() / ".cache" / "workbench"
    return _prepare_root(path)


@dataclass(frozen=True)
class CacheEntry:
    """A verified cache entry: its arrays and the JSON metadata stored with them."""

    key: str
    arrays: dict[str, Any]  # ndarray or csr_array, as stored: readers know which they stored
    meta: Any
    manifest_path: Path


@dataclass(frozen=True)
class EntryStatus:
    """What :meth:`Cache.check` found for one manifest."""

    namespace: str
    key: str
    manifest_path: Path
    ok: bool
    problem: str = ""
    size: int = 0
    created: str = ""
    inputs: Any = field(default=None, repr=False)


def _valid_namespace(namespace: str) -> bool:
    parts = namespace.split("/") if isinstance(namespace, str) else []
    return bool(parts) and all(p and not p.startswith(".") for p in parts)


class Cache:
    """The verified on-disk cache of one namespace (see the module docstring).

    Parameters
    ----------
    namespace : str
        Folder name under ``root`` (e.g. ``"views"``, ``"mvlsa/baselines"``): relative, no
        empty, ``.`` or ``..`` part and no part starting with a dot.
    version : int
        Version of the namespace's builder: part of every key, raised when the code that builds
        the entries changes what it builds (the one versioning scheme of all caches).
    root : path, optional
        Cache root; default :func:`cache_root` (``WORKBENCH_CACHE``).
    """

    def __init__(
        self, namespace: str, *, version: int = 1, root: str | os.PathLike[str] | None = None
    ) -> None:
        if not _valid_namespace(namespace):
            raise ValueError(
                f"cache namespace must be a relative folder name (parts separated by '/', none "
                f"empty or starting with '.'), got {namespace!r}"
            )
        self.namespace = namespace
        self.version = version
        self._root = Path(root) if root is not None else None

    @property
    def root(self) -> Path:
        """The cache root the namespace lives in."""
        return _prepare_root(self._root) if self._root is not None else cache_root()

    @property
    def folder(self) -> Path:
        """The namespace's folder (created on demand when the root can be written)."""
        base = self.root
        folder = base / self.namespace
        if inside(folder, base):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                logger.debug("cannot create the cache folder %s (%s)", folder, exc)
        return folder

    def _folder_problem(self, folder: Path) -> str:
        """Why the namespace folder must not be used (``""`` when it may)."""
        if not inside(folder, self.root):
            return f"it resolves to {os.path.realpath(folder)}, outside the cache root {self.root}"
        if os.path.lexists(folder) and not folder.is_dir():
            return f"it is a {file_kind(os.lstat(folder).st_mode)}, not a folder"
        return ""

    def key(self, inputs: Mapping[str, Any], *, version: int | None = None) -> str:
        """The entry key of ``inputs`` (32 hex digits of a SHA-256)."""
        v = self.version if version is None else version
        payload = canonical_json(
            {"format": CACHE_FORMAT, "ns": self.namespace, "v": v, "in": inputs}
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:32]

    def _manifest_path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    # ------------------------------------------------------------------ read

    def load(self, inputs: Mapping[str, Any]) -> CacheEntry | None:
        """The verified entry of ``inputs``, or ``None`` (a miss, or an invalid entry removed)."""
        key = self.key(inputs)
        manifest_path = self._manifest_path(key)
        problem = self._folder_problem(manifest_path.parent)
        if problem:
            _warn(f"cache folder {manifest_path.parent} is not used ({problem})")
            return None
        try:
            manifest = self._read_manifest(manifest_path, key, _roundtrip(inputs))
            arrays = self._read_data(manifest_path.parent, manifest)
        except FileNotFoundError:
            return None
        except _Invalid as exc:
            self._discard(manifest_path, str(exc))
            return None
        logger.debug("cache hit %s/%s", self.namespace, key)
        return CacheEntry(key, arrays, manifest.get("meta"), manifest_path)

    def _read_manifest(self, path: Path, key: str | None, inputs: Any) -> dict[str, Any]:
        manifest = read_json(path, self.root)
        if not isinstance(manifest, dict):
            raise _Invalid("manifest is not a JSON object")
        if manifest.get("checksum") != _manifest_checksum(manifest):
            raise _Invalid("manifest does not match its own checksum (edited or damaged)")
        if manifest.get("format") != CACHE_FORMAT:
            raise _Invalid(f"manifest format {manifest.get('format')!r} != {CACHE_FORMAT}")
        if manifest.get("namespace") != self.namespace:
            raise _Invalid(f"manifest of namespace {manifest.get('namespace')!r}")
        expected_key = key if key is not None else path.stem
        if manifest.get("key") != expected_key or path.stem != expected_key:
            raise _Invalid(f"manifest holds key {manifest.get('key')!r}, not {expected_key!r}")
        if inputs is not None and manifest.get("inputs") != inputs:
            raise _Invalid("manifest inputs differ from the requested ones")
        version = manifest.get("version")
        if not isinstance(version, int) or (key is not None and version != self.version):
            raise _Invalid(f"manifest of builder version {version!r}, not {self.version}")
        stored_inputs = manifest.get("inputs")
        if key is None and (
            not isinstance(stored_inputs, dict)
            or self.key(stored_inputs, version=version) != expected_key
        ):
            raise _Invalid("manifest inputs do not hash to its key")
        data = manifest.get("data")
        if data is not None and not (
            isinstance(data, dict)
            and isinstance(data.get("file"), str)
            and isinstance(data.get("sha256"), str)
            and isinstance(data.get("size"), int)
            and not isinstance(data.get("size"), bool)
            and data["size"] >= 0
            and isinstance(data.get("arrays"), dict)
            and data["file"].startswith(f"{expected_key}-")
            and data["file"].endswith(".npz")
            and ENTRY_FILE_RE.fullmatch(data["file"])
        ):
            raise _Invalid("manifest data record malformed")
        return manifest

    def _read_data(self, folder: Path, manifest: Mapping[str, Any]) -> dict[str, Any]:
        data = manifest.get("data")
        if data is None:
            return {}
        path = folder / data["file"]
        try:
            raw = read_regular(path, self.root, limit=data["size"], size=data["size"])
        except FileNotFoundError:
            raise _Invalid(f"data file {path.name} unreadable (it is missing)") from None
        if hashlib.sha256(raw).hexdigest() != data["sha256"]:
            raise _Invalid(f"data file {path.name} does not match its SHA-256")
        try:
            with np.load(io.BytesIO(raw), allow_pickle=False) as z:
                return _unpack({k: z[k] for k in z.files}, data["arrays"])
        except Exception as exc:  # noqa: BLE001 - any decoding failure means: rebuild
            raise _Invalid(
                f"data file {path.name} does not decode ({exc.__class__.__name__})"
            ) from None

    def _discard(self, manifest_path: Path, problem: str) -> None:
        msg = f"cache entry {manifest_path} is invalid ({problem}); it is removed and rebuilt"
        _warn(msg, stacklevel=4)
        self._remove_files(manifest_path.stem)

    def _remove_files(self, key: str) -> None:
        """Unlink the manifest and data files of ``key`` that are regular files or symlinks
        (a symlink as a link); a folder or special file under such a name is left alone."""
        folder = self.folder
        if self._folder_problem(folder):
            return
        unlink_quietly(folder / f"{key}.json")
        for p in folder.glob(f"{key}-*.npz"):
            unlink_quietly(p)

    # ------------------------------------------------------------------ write

    def store(
        self,
        inputs: Mapping[str, Any],
        arrays: Mapping[str, ArrayLike | Matrix] | None = None,
        meta: Any = None,
    ) -> Path:
        """Store ``arrays`` (dense / sparse) and JSON ``meta`` under ``inputs``; return the manifest.

        The data file is written first under a content-addressed name, the manifest last; both
        atomically. Concurrent writers of one key never leave a manifest naming another's file.

        Raises
        ------
        OSError
            When the entry cannot be written (read-only or full disk, a folder or special file
            under the entry's name, a namespace folder outside the cache root); the message
            names the path and nothing partial is left.
        """
        key = self.key(inputs)
        folder = self.folder
        manifest_path = folder / f"{key}.json"
        problem = self._folder_problem(folder)
        if problem:
            raise OSError(errno.EXDEV, f"cache folder is not used ({problem})", str(folder))
        data_record = None
        target, new_data = manifest_path, None
        try:
            if arrays:
                flat, kinds = _pack(arrays)
                buf = io.BytesIO()
                np.savez(buf, **flat)  # type: ignore[arg-type]
                raw = buf.getvalue()
                sha = hashlib.sha256(raw).hexdigest()
                name = f"{key}-{sha[:16]}.npz"
                target = folder / name
                new_data = None if os.path.lexists(target) else target
                _check_writable_name(target)
                atomic_write_bytes(target, raw)
                data_record = {"file": name, "sha256": sha, "size": len(raw), "arrays": kinds}
            manifest = {
                "format": CACHE_FORMAT,
                "namespace": self.namespace,
                "version": self.version,
                "key": key,
                "inputs": _roundtrip(inputs),
                "data": data_record,
                "meta": _roundtrip(meta),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }
            manifest["checksum"] = _manifest_checksum(manifest)
            target = manifest_path
            _check_writable_name(target)
            atomic_write_text(manifest_path, json.dumps(manifest, indent=1, sort_keys=True))
        except OSError as exc:
            if new_data is not None:
                unlink_quietly(new_data)
            reason = exc.strerror or str(exc)
            raise OSError(exc.errno, f"cannot store cache entry ({reason})", str(target)) from exc
        keep = data_record["file"] if data_record else None
        for p in folder.glob(f"{key}-*.npz"):
            if p.name != keep:
                unlink_quietly(p)
        return manifest_path

    @contextlib.contextmanager
    def lock(self, inputs: Mapping[str, Any]) -> Iterator[None]:
        """Hold an exclusive per-entry file lock (``<key>.lock``) for the block.

        Without the lock when the lock file cannot be created (read-only cache: a debug log) or
        is not a regular file (a FIFO, folder, symlink: a :class:`CacheWarning`).
        """
        fd = _open_lock(self.folder / f"{self.key(inputs)}.lock")
        locked = False
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                    locked = True
                except OSError as exc:
                    logger.debug("cache lock not taken (%s); reading without it", exc)
            yield
        finally:
            if fd is not None:
                if locked:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def get_or_build(
        self,
        inputs: Mapping[str, Any],
        build: Callable[[], tuple[Mapping[str, ArrayLike | Matrix] | None, Any]],
    ) -> CacheEntry:
        """The verified entry of ``inputs``; on a miss, ``build() -> (arrays, meta)`` and store it.

        The returned entry holds the arrays and metadata as they read back from the cache
        (JSON round trip of ``meta``), so a hit and a miss give the same types. When the entry
        cannot be stored (read-only or full disk, ...), the built value is returned with one
        :class:`CacheWarning` naming the path and the error.
        """
        manifest_path = self._manifest_path(self.key(inputs))
        problem = self._folder_problem(manifest_path.parent)
        with self.lock(inputs) if not problem else contextlib.nullcontext():
            hit = self.load(inputs) if not problem else None
            if hit is not None:
                return hit
            arrays, meta = build()
            try:
                if problem:
                    raise OSError(f"cache folder is not used ({problem})")
                manifest_path = self.store(inputs, arrays, meta)
            except OSError as exc:
                _warn(f"cache folder {manifest_path.parent}: the entry cannot be stored "
                      f"({exc}); the built value is used without caching", stacklevel=4)  # fmt: skip
            stored = {k: (sp.csr_array(v) if sp.issparse(v) else np.asarray(v))
                      for k, v in (arrays or {}).items()}  # fmt: skip
            return CacheEntry(self.key(inputs), stored, _roundtrip(meta), manifest_path)

    # ------------------------------------------------------------------ maintenance

    def _manifests(self) -> list[Path]:
        folder = self.folder
        if self._folder_problem(folder) or not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.json") if _KEY_RE.fullmatch(p.stem))

    def check(self) -> list[EntryStatus]:
        """Verify every entry of the namespace (manifest, data file size, SHA-256, decoding)."""
        out = []
        folder = self.folder
        for manifest_path in self._manifests():
            key = manifest_path.stem
            try:
                manifest = self._read_manifest(manifest_path, None, None)
                self._read_data(folder, manifest)
                data = manifest.get("data") or {}
                out.append(EntryStatus(self.namespace, key, manifest_path, True, "",
                                       int(data.get("size", 0)), str(manifest.get("created", "")),
                                       manifest.get("inputs")))  # fmt: skip
            except (_Invalid, FileNotFoundError) as exc:
                out.append(EntryStatus(self.namespace, key, manifest_path, False, str(exc)))
        return out

    def entries(self) -> list[EntryStatus]:
        """Entries of the namespace from their manifests only (no hashing of data files)."""
        out = []
        for path in self._manifests():
            try:
                m = read_json(path, self.root)
                if not isinstance(m, dict):
                    raise _Invalid("manifest is not a JSON object")
                data = m.get("data")
                size = data.get("size", 0) if isinstance(data, dict) else 0
                out.append(EntryStatus(self.namespace, path.stem, path, True, "",
                                       size if isinstance(size, int) else 0,
                                       str(m.get("created", ""))))  # fmt: skip
            except (_Invalid, FileNotFoundError) as exc:
                out.append(EntryStatus(self.namespace, path.stem, path, False, str(exc)))
        return out

    def orphans(self) -> list[Path]:
        """Data files no manifest names (left by an interrupted write) and stale temporaries."""
        folder = self.folder
        named = set()
        for manifest_path in self._manifests():
            with contextlib.suppress(_Invalid, OSError):
                data = read_json(manifest_path, self.root).get("data")
                if isinstance(data, dict):
                    named.add(data.get("file"))
        out = []
        for p in folder.glob("*.npz") if not self._folder_problem(folder) else []:
            if ENTRY_FILE_RE.fullmatch(p.name) and p.name not in named:
                out.append(p)
        for p in folder.glob(".*.tmp*") if not self._folder_problem(folder) else []:
            with contextlib.suppress(OSError):
                if ENTRY_TEMP_RE.fullmatch(p.name) and time.time() - p.lstat().st_mtime > 3600:
                    out.append(p)
        return sorted(out)

    def remove(self, key: str) -> None:
        """Remove the entry ``key`` (its manifest and data files)."""
        self._remove_files(key)


def _warn(msg: str, stacklevel: int = 3) -> None:
    warnings.warn(msg, CacheWarning, stacklevel=stacklevel)
    logger.warning(msg)


def _check_writable_name(path: Path) -> None:
    """Refuse to replace a folder or special file (not something the cache writes)."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise OSError(errno.EEXIST, f"a {file_kind(mode)} is in the way", str(path))


def _open_lock(path: Path) -> int | None:
    """A descriptor of the regular lock file ``path`` (created when missing), else ``None``."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    problem = ""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            problem = f"it is a {file_kind(mode)}"
    except FileNotFoundError:
        pass
    except OSError as exc:
        problem = exc.strerror or str(exc)
    fd = None
    if not problem:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | flags, file_mode())
        except OSError as exc:
            if exc.errno not in _NOT_STORABLE + (errno.ENOENT, errno.ENOTDIR):
                problem = exc.strerror or str(exc)
            else:
                with contextlib.suppress(OSError):
                    fd = os.open(path, os.O_RDONLY | flags)
                if fd is None:
                    logger.debug("cannot create the lock file %s (%s); reading without the lock",
                                 path, exc)  # fmt: skip
                    return None
    if fd is not None and not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        fd, problem = None, "it was replaced by a special file"
    if problem:
        _warn(f"cache lock file {path} is not usable ({problem}); the entry is read and built "
              f"without the lock", stacklevel=5)  # fmt: skip
    return fd


def _namespace_dirs(base: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """``os.walk`` of ``base`` that never follows a symlinked folder and skips dot folders."""
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        yield Path(dirpath), dirnames, sorted(filenames)


def iter_entries(root: str | os.PathLike[str] | None = None) -> Iterator[Cache]:
    """Every namespace under ``root`` (default :func:`cache_root`) that holds cache manifests.

    A folder is a namespace when one of its ``<32 hex digits>.json`` files names it as its
    namespace (damaged manifests beside it are then reported by :meth:`Cache.check`). Symlinked
    folders are not followed; manifests that are not regular files are not read.
    """
    base = Path(root) if root is not None else cache_root()
    for folder, _, filenames in _namespace_dirs(base):
        ns = folder.relative_to(base).as_posix()
        if not _valid_namespace(ns) or ns == ".":
            continue
        for name in filenames:
            if not (name.endswith(".json") and _KEY_RE.fullmatch(name[:-5])):
                continue
            try:
                head = read_json(folder / name, base)
            except (_Invalid, OSError):
                continue
            if isinstance(head, dict) and head.get("namespace") == ns:
                version = head.get("version")
                yield Cache(ns, version=version if isinstance(version, int) else 1, root=base)
                break


def iter_trees(root: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """Every folder under ``root`` (default :func:`cache_root`) with a :data:`TREE_MANIFEST`."""
    base = Path(root) if root is not None else cache_root()
    for folder, dirnames, filenames in _namespace_dirs(base):
        if TREE_MANIFEST in filenames and folder != base:
            dirnames[:] = []
            yield folder
