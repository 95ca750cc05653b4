"""Atomic writes and the verified on-disk cache used by every module that writes files.

Atomic writes
    :func:`atomic_write_bytes`, :func:`atomic_write_text` and the :func:`atomic_path` context
    write to a temporary file in the target folder and rename it into place, so a reader sees
    the old file or the new one, never a partial one. New files get the permissions of the
    user's umask (``0o666 & ~umask``), not the ``0o600`` of :func:`tempfile.mkstemp`.

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

    :meth:`Cache.get_or_build` holds a per-key file lock while it loads or builds, so two
    processes asking for the same entry build it once.

Extracted folders (e.g. the WordNet database) are verified the same way with
:func:`write_tree_manifest` / :func:`verify_tree`.

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
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from workbench._typing import Matrix

logger = logging.getLogger(__name__)

__all__ = [
    "CACHE_FORMAT",
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
    "file_sha256",
    "iter_entries",
    "verify_tree",
    "write_tree_manifest",
]

#: Version of the entry layout; part of every key, so a new layout never reads an old entry.
CACHE_FORMAT = 1
TREE_MANIFEST = ".workbench-manifest.json"
_BLOCK = 1 << 20


class CacheWarning(UserWarning):
    """A cache entry was damaged or did not match its manifest and is rebuilt."""


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
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
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


def canonical_json(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces; tuples as lists, paths and other objects as str)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def content_hash(*parts: Any) -> str:
    """SHA-256 (hex) of arrays, strings, word lists and JSON-able values, order-sensitive.

    Used to put large inputs (a corpus' token ids, a vocabulary) into cache keys: arrays hash
    their dtype and bytes, objects with a ``words`` attribute (a vocabulary) their words.
    """
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
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


def cache_root() -> Path:
    """Root folder of every cache: ``WORKBENCH_CACHE``, default ``~/.cache/workbench``."""
    env = os.environ.get("WORKBENCH_CACHE")
    path = Path(env).expanduser() if env else Path.home() / ".cache" / "workbench"
    path.mkdir(parents=True, exist_ok=True)
    return path


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


class _Invalid(Exception):
    """An entry that must not be used (the message says why)."""


class Cache:
    """The verified on-disk cache of one namespace (see the module docstring).

    Parameters
    ----------
    namespace : str
        Folder name under ``root`` (e.g. ``"views"``, ``"mvlsa/baselines"``).
    version : int
        Version of the namespace's builder: part of every key, raised when the code that builds
        the entries changes what it builds (the one versioning scheme of all caches).
    root : path, optional
        Cache root; default :func:`cache_root` (``WORKBENCH_CACHE``).
    """

    def __init__(
        self, namespace: str, *, version: int = 1, root: str | os.PathLike[str] | None = None
    ) -> None:
        if not namespace or namespace.startswith((".", "/")) or ".." in namespace.split("/"):
            raise ValueError(f"cache namespace must be a relative folder name, got {namespace!r}")
        self.namespace = namespace
        self.version = version
        self._root = Path(root) if root is not None else None

    @property
    def folder(self) -> Path:
        """The namespace's folder (created on demand)."""
        base = self._root if self._root is not None else cache_root()
        folder = base / self.namespace
        folder.mkdir(parents=True, exist_ok=True)
        return folder

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
        if not manifest_path.exists():
            return None
        try:
            manifest = self._read_manifest(manifest_path, key, _roundtrip(inputs))
            arrays = self._read_data(manifest_path.parent, manifest)
        except _Invalid as exc:
            self._discard(manifest_path, str(exc))
            return None
        logger.debug("cache hit %s/%s", self.namespace, key)
        return CacheEntry(key, arrays, manifest.get("meta"), manifest_path)

    def _read_manifest(self, path: Path, key: str | None, inputs: Any) -> dict[str, Any]:
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _Invalid(f"manifest unreadable ({exc.__class__.__name__}: {exc})") from None
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
            and isinstance(data.get("arrays"), dict)
            and "/" not in data["file"]
            and data["file"].startswith(expected_key)
        ):
            raise _Invalid("manifest data record malformed")
        return manifest

    def _read_data(self, folder: Path, manifest: Mapping[str, Any]) -> dict[str, Any]:
        data = manifest.get("data")
        if data is None:
            return {}
        path = folder / data["file"]
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise _Invalid(f"data file {path.name} unreadable ({exc})") from None
        if len(raw) != data["size"]:
            raise _Invalid(
                f"data file {path.name} has {len(raw)} bytes, manifest says {data['size']}"
            )
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
        warnings.warn(msg, CacheWarning, stacklevel=3)
        logger.warning(msg)
        self._remove_files(manifest_path.stem)

    def _remove_files(self, key: str) -> None:
        folder = self.folder
        with contextlib.suppress(FileNotFoundError):
            (folder / f"{key}.json").unlink()
        for p in folder.glob(f"{key}-*.npz"):
            p.unlink(missing_ok=True)

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
        """
        key = self.key(inputs)
        folder = self.folder
        data_record = None
        if arrays:
            flat, kinds = _pack(arrays)
            buf = io.BytesIO()
            np.savez(buf, **flat)  # type: ignore[arg-type]
            raw = buf.getvalue()
            sha = hashlib.sha256(raw).hexdigest()
            name = f"{key}-{sha[:16]}.npz"
            atomic_write_bytes(folder / name, raw)
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
        manifest_path = folder / f"{key}.json"
        atomic_write_text(manifest_path, json.dumps(manifest, indent=1, sort_keys=True))
        keep = data_record["file"] if data_record else None
        for p in folder.glob(f"{key}-*.npz"):
            if p.name != keep:
                p.unlink(missing_ok=True)
        return manifest_path

    @contextlib.contextmanager
    def lock(self, inputs: Mapping[str, Any]) -> Iterator[None]:
        """Hold an exclusive per-entry file lock (``<key>.lock``) for the block."""
        path = self.folder / f"{self.key(inputs)}.lock"
        with open(path, "a+b") as fh:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    def get_or_build(
        self,
        inputs: Mapping[str, Any],
        build: Callable[[], tuple[Mapping[str, ArrayLike | Matrix] | None, Any]],
    ) -> CacheEntry:
        """The verified entry of ``inputs``; on a miss, ``build() -> (arrays, meta)`` and store it.

        The returned entry holds the arrays and metadata as they read back from the cache
        (JSON round trip of ``meta``), so a hit and a miss give the same types.
        """
        with self.lock(inputs):
            hit = self.load(inputs)
            if hit is not None:
                return hit
            arrays, meta = build()
            manifest_path = self.store(inputs, arrays, meta)
            stored = {k: (sp.csr_array(v) if sp.issparse(v) else np.asarray(v))
                      for k, v in (arrays or {}).items()}  # fmt: skip
            return CacheEntry(self.key(inputs), stored, _roundtrip(meta), manifest_path)

    # ------------------------------------------------------------------ maintenance

    def check(self) -> list[EntryStatus]:
        """Verify every entry of the namespace (manifest, data file size, SHA-256, decoding)."""
        out = []
        folder = self.folder
        for manifest_path in sorted(folder.glob("*.json")):
            key = manifest_path.stem
            try:
                manifest = self._read_manifest(manifest_path, None, None)
                self._read_data(folder, manifest)
                data = manifest.get("data") or {}
                out.append(EntryStatus(self.namespace, key, manifest_path, True, "",
                                       int(data.get("size", 0)), str(manifest.get("created", "")),
                                       manifest.get("inputs")))  # fmt: skip
            except _Invalid as exc:
                out.append(EntryStatus(self.namespace, key, manifest_path, False, str(exc)))
        return out

    def orphans(self) -> list[Path]:
        """Data files no manifest names (left by an interrupted write) and stale temporaries."""
        folder = self.folder
        named = set()
        for manifest_path in folder.glob("*.json"):
            with contextlib.suppress(Exception):
                data = json.loads(manifest_path.read_text(encoding="utf-8")).get("data")
                if isinstance(data, dict):
                    named.add(data.get("file"))
        loose = [p for p in folder.glob("*.npz") if p.name not in named]
        temps = [p for p in folder.glob(".*.tmp*") if time.time() - p.stat().st_mtime > 3600]
        return sorted(loose + temps)

    def remove(self, key: str) -> None:
        """Remove the entry ``key`` (its manifest and data files)."""
        self._remove_files(key)


def iter_entries(root: str | os.PathLike[str] | None = None) -> Iterator[Cache]:
    """Every namespace under ``root`` (default :func:`cache_root`) that holds cache manifests.

    A folder is a namespace when one of its ``<32 hex digits>.json`` files names it as its
    namespace (damaged manifests beside it are then reported by :meth:`Cache.check`).
    """
    base = Path(root) if root is not None else cache_root()
    found: dict[str, int] = {}
    for manifest_path in sorted(base.rglob("*.json")):
        stem = manifest_path.stem
        if len(stem) != 32 or any(c not in "0123456789abcdef" for c in stem):
            continue
        ns = manifest_path.parent.relative_to(base).as_posix()
        if ns in found:
            continue
        try:
            head = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(head, dict) and head.get("namespace") == ns:
            found[ns] = int(head.get("version", 1)) if isinstance(head.get("version"), int) else 1
    for ns, version in found.items():
        yield Cache(ns, version=version, root=base)


# --------------------------------------------------------------------------- folders


def write_tree_manifest(folder: str | os.PathLike[str], *, source: str = "") -> Path:
    """Write ``<folder>/.workbench-manifest.json`` with the size and SHA-256 of every file."""
    root = Path(folder)
    files = {
        p.relative_to(root).as_posix(): {"size": p.stat().st_size, "sha256": file_sha256(p)}
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != TREE_MANIFEST
    }
    manifest = {"format": CACHE_FORMAT, "source": source, "files": files}
    return atomic_write_text(root / TREE_MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))


def verify_tree(folder: str | os.PathLike[str], *, source: str | None = None) -> str:
    """Check an extracted folder against its manifest: ``""`` when intact, else the problem.

    Checks that the manifest parses (and names ``source`` when given), that every listed file
    exists with its size and SHA-256, and that no file was added.
    """
    root = Path(folder)
    try:
        manifest = json.loads((root / TREE_MANIFEST).read_text(encoding="utf-8"))
        files = manifest["files"]
        if not isinstance(files, dict):
            raise TypeError("files is not an object")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        return f"manifest {root / TREE_MANIFEST} missing or unreadable ({exc.__class__.__name__})"
    if source is not None and manifest.get("source") != source:
        return f"extracted from {manifest.get('source')!r}, not {source!r}"
    present = {p.relative_to(root).as_posix() for p in root.rglob("*")
               if p.is_file() and p.name != TREE_MANIFEST}  # fmt: skip
    if set(files) != present:
        extra = sorted(present - set(files))[:3]
        missing = sorted(set(files) - present)[:3]
        return f"files differ from the manifest (missing {missing}, extra {extra})"
    for rel, rec in files.items():
        p = root / rel
        try:
            if p.stat().st_size != rec["size"] or file_sha256(p) != rec["sha256"]:
                return f"{rel} does not match its SHA-256"
        except (OSError, KeyError, TypeError) as exc:
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
