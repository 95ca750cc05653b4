"""Paths, errors, checksum verification and robust line reading shared by the loaders."""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

logger = logging.getLogger(__name__)

__all__ = [
    "DataFormatError",
    "ChecksumError",
    "data_dir",
    "shared_data_dir",
    "cache_dir",
    "dataset_checksums",
    "verify_checksums",
    "file_sha256",
]

CHECKSUM_FILE = "checksums.sha256"
_REPO_ROOT = Path(__file__).resolve().parents[2]


class DataFormatError(ValueError):
    """A data file is truncated or malformed; the message names the file and the line."""


class ChecksumError(DataFormatError):
    """A bundled data file does not match the sha256 listed in ``data/checksums.sha256``."""


def data_dir() -> Path:
    """Folder of the bundled data (environment variable ``WORKBENCH_DATA`` overrides <repo>/data)."""
    env = os.environ.get("WORKBENCH_DATA")
    return Path(env).expanduser().resolve() if env else _REPO_ROOT / "data"


def shared_data_dir() -> Path | None:
    """Folder of the large benchmark-only data (``WORKBENCH_SHARED_DATA``, else <repo>/../shared/data).

    Returns ``None`` when the folder does not exist.
    """
    env = os.environ.get("WORKBENCH_SHARED_DATA")
    path = Path(env).expanduser().resolve() if env else _REPO_ROOT.parent / "shared" / "data"
    return path if path.is_dir() else None


def cache_dir() -> Path:
    """Cache folder (``WORKBENCH_CACHE``, default ``~/.cache/workbench``); created on demand."""
    env = os.environ.get("WORKBENCH_CACHE")
    path = Path(env).expanduser() if env else Path.home() / ".cache" / "workbench"
    path.mkdir(parents=True, exist_ok=True)
    return path


# --------------------------------------------------------------------------- checksums


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _read_checksum_file(root: Path) -> dict[str, str]:
    path = root / CHECKSUM_FILE
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(maxsplit=1)
            if len(parts) != 2 or len(parts[0]) != 64:
                raise DataFormatError(f"{path} line {lineno}: expected '<sha256>  <relative path>'")
            out[parts[1].lstrip("*")] = parts[0].lower()
    return out


def dataset_checksums() -> dict[str, str]:
    """Expected sha256 of every bundled file (relative path -> hex digest), from the checksum file.

    Cheap (reads ``data/checksums.sha256`` only); used by the runner's manifest.
    """
    return dict(sorted(_read_checksum_file(data_dir()).items()))


_verified: dict[str, str] = {}
_lock = threading.Lock()


def _relative_to_data(path: Path) -> str | None:
    try:
        return path.resolve().relative_to(data_dir().resolve()).as_posix()
    except ValueError:
        return None


def verify_bundled(path: Path) -> None:
    """Verify ``path`` against the checksum file if it is a bundled file (once per process).

    User-supplied files (outside :func:`data_dir`, or not listed) are not verified.
    Raises :class:`ChecksumError` naming the file and both hashes on a mismatch.
    """
    rel = _relative_to_data(path)
    if rel is None:
        return
    expected = _read_checksum_file(data_dir()).get(rel)
    if expected is None:
        return
    key = str(path.resolve())
    with _lock:
        if _verified.get(key) == expected:
            return
    actual = file_sha256(path)
    if actual != expected:
        raise ChecksumError(
            f"{path}: sha256 mismatch (expected {expected}, got {actual}); the bundled file is "
            f"corrupt or was modified -- restore it from version control"
        )
    with _lock:
        _verified[key] = expected


def verify_checksums(*, strict: bool = False) -> dict[str, bool]:
    """Hash every file listed in ``data/checksums.sha256`` and compare.

    Parameters
    ----------
    strict : bool
        Raise :class:`ChecksumError` (or FileNotFoundError) at the first bad file.

    Returns
    -------
    dict
        Relative path -> ``True`` if the file exists and matches.
    """
    root = data_dir()
    out: dict[str, bool] = {}
    for rel, expected in dataset_checksums().items():
        path = root / rel
        if not path.is_file():
            if strict:
                raise FileNotFoundError(f"bundled data file missing: {path}")
            out[rel] = False
            continue
        actual = file_sha256(path)
        ok = actual == expected
        if not ok and strict:
            raise ChecksumError(f"{path}: sha256 mismatch (expected {expected}, got {actual})")
        if ok:
            with _lock:
                _verified[str(path.resolve())] = expected
        out[rel] = ok
    return out


# --------------------------------------------------------------------------- reading


def resolve_file(path: str | os.PathLike[str], *, verify: bool = True) -> Path:
    """Check that ``path`` exists (FileNotFoundError naming it) and verify it if bundled."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise FileNotFoundError(f"data file not found: {p}")
    if verify:
        verify_bundled(p)
    return p


def bundled(rel: str) -> Path:
    """Path of a bundled file under :func:`data_dir`, checked and verified."""
    return resolve_file(data_dir() / rel)


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` (1-based, newline stripped) from a text or ``.gz`` file.

    Truncated / corrupt gzip streams and undecodable bytes raise :class:`DataFormatError`
    naming the file and the line at which reading failed.
    """
    lineno = 0
    try:
        if path.suffix == ".gz":
            fh = gzip.open(path, "rt", encoding="utf-8", newline="")
        else:
            fh = open(path, encoding="utf-8", newline="")  # noqa: SIM115
        with fh:
            for lineno, line in enumerate(fh, 1):  # noqa: B007
                yield lineno, line.rstrip("\r\n")
    except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise DataFormatError(
            f"{path.name} line {lineno + 1}: truncated or corrupt file ({exc}) [{path}]"
        ) from exc
    except UnicodeDecodeError as exc:
        raise DataFormatError(
            f"{path.name} line {lineno + 1}: not valid UTF-8 ({exc}) [{path}]"
        ) from exc


def fail(path: Path, lineno: int, message: str) -> DataFormatError:
    """Build a DataFormatError "<file> line N: message [full path]"."""
    return DataFormatError(f"{path.name} line {lineno}: {message} [{path}]")


def write_checksum_file(root: str | os.PathLike[str] | None = None) -> Path:
    """Regenerate ``<root>/checksums.sha256`` (sha256sum format, paths relative to ``root``).

    Lists every file under ``root`` except the checksum file itself and ``README.md``; equivalent
    to ``cd data && find . -type f ! -name checksums.sha256 ! -name README.md | sort | xargs
    sha256sum``. For maintainers after adding or updating bundled data.
    """
    base = Path(root) if root is not None else data_dir()
    files = sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*")
        if p.is_file() and p.name not in (CHECKSUM_FILE, "README.md") and not p.name.startswith(".")
    )
    text = "".join(f"{file_sha256(base / rel)}  {rel}\n" for rel in files)
    out = base / CHECKSUM_FILE
    tmp = out.with_name(f".{CHECKSUM_FILE}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    with _lock:
        _verified.clear()
    return out
