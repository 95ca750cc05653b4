"""Paths, errors, checksum verification and robust line reading shared by the loaders."""

from __future__ import annotations

import gzip
import logging
import os
import threading
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from workbench._io import cache_root, file_sha256
from workbench._validation import DataFormatError, check_dir, check_file, format_error

logger = logging.getLogger(__name__)

__all__ = [
    "DataFormatError",
    "DataFormatWarning",
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


class ChecksumError(DataFormatError):
    """A bundled data file does not match the sha256 listed in ``data/checksums.sha256``."""


class DataFormatWarning(UserWarning):
    """A data file was read with a documented repair (e.g. repeated rating pairs averaged)."""


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


#: Cache folder (``WORKBENCH_CACHE``, default ``~/.cache/workbench``; created on demand): the
#: root of :mod:`workbench._io`'s caches.
cache_dir = cache_root


# --------------------------------------------------------------------------- checksums


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


def check_name_or_path(value: object, name: str) -> str:
    """``str(value)`` for a dataset name or a path; ``TypeError`` naming ``name`` otherwise.

    Used by the loaders that take either a bundled name or a file path, so that ``None`` or a
    number is refused instead of being looked up as the name ``"None"``.
    """
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise TypeError(
            f"{name} must be a dataset name or a path (str or os.PathLike), "
            f"got {value!r} ({type(value).__name__})"
        )
    return os.fsdecode(value)


def _spelled_as_path(key: str) -> bool:
    """A path separator, a dot (a suffix, ``.``, ``..``) or a leading ``~``: always a path."""
    return (
        os.sep in key
        or (os.altsep is not None and os.altsep in key)
        or "." in key
        or key.startswith("~")
    )


def resolve_name_or_path(
    value: object,
    param: str,
    names: Iterable[str],
    *,
    what: str,
    hint: str = "or a path",
    accept_dir: bool = False,
) -> tuple[str | None, Path | None]:
    """``(name, None)`` for a bundled name, ``(None, path)`` for a user file or folder.

    The rule shared by every loader that takes a bundled name or a path:

    * a :class:`os.PathLike` (``pathlib.Path``), or a string holding a path separator, a dot
      (a suffix: ``ws.txt``; ``./ws``) or a leading ``~`` is always a path;
    * a bare string that is one of ``names`` (case-insensitive) is the bundled set, unless a
      file of that name (with ``accept_dir``: or a folder) exists in the current folder: that
      ambiguity is a ``ValueError`` naming both and telling to write ``./<name>`` for the file;
    * any other bare string is a path if it exists, else a ``ValueError`` listing ``names``.

    ``TypeError`` for a value that is neither a str nor a path (see :func:`check_name_or_path`).
    """
    key = check_name_or_path(value, param)
    if isinstance(value, os.PathLike) or _spelled_as_path(key):
        return None, Path(key).expanduser()
    valid = ", ".join(names)
    if not key.strip():
        raise ValueError(f"{param} must be a dataset name ({valid}) or a path, got {key!r}")
    canonical = {n.casefold(): n for n in names}.get(key.casefold())
    here = Path(key)
    if canonical is not None:
        if here.is_file() or (accept_dir and here.is_dir()):
            kind = "folder" if here.is_dir() else "file"
            raise ValueError(
                f"{param}={key!r} is ambiguous: it names the bundled {what} {canonical!r} and "
                f"the {kind} {str(here.resolve())!r} in the current folder; write "
                f"{'./' + key!r} (or pass a pathlib.Path) for the {kind}, or rename it to use "
                "the bundled one"
            )
        return canonical, None
    if here.exists():
        return None, here
    raise ValueError(f"unknown {what} {key!r}; valid names: {valid} ({hint})")


def resolve_file(path: str | os.PathLike[str], *, verify: bool = True, name: str = "path") -> Path:
    """``path`` checked by :func:`~workbench._validation.check_file` and verified if bundled.

    A missing file raises ``FileNotFoundError``, a directory ``IsADirectoryError`` and an empty
    file :class:`DataFormatError`, each naming the file (and ``name``, the parameter).
    """
    p = check_file(path, name)
    if verify:
        verify_bundled(p)
    return p


def resolve_dir_files(
    path: str | os.PathLike[str],
    suffixes: tuple[str, ...],
    *,
    name: str = "path",
    what: str = "data files",
) -> list[Path]:
    """The files of folder ``path`` whose names end in one of ``suffixes``, sorted by file name.

    Only the folder itself is listed (not its sub-folders); hidden files (``.name``) and files
    with other suffixes are skipped (logged). Each file is checked by :func:`resolve_file`, so
    an empty one raises :class:`DataFormatError` naming it. A folder holding no such file
    raises ``IsADirectoryError`` naming the folder and the suffixes expected; a missing folder
    ``FileNotFoundError``; a file ``NotADirectoryError``.
    """
    d = check_dir(path, name)
    if not os.access(d, os.R_OK | os.X_OK):
        raise PermissionError(f"{name} {str(d)!r} is not readable")
    found: list[Path] = []
    skipped = 0
    for f in d.iterdir():
        if f.name.startswith("."):
            continue
        if f.name.endswith(suffixes) and f.is_file():
            found.append(f)
        else:
            skipped += 1
    if not found:
        listed = ", ".join(f"*{s}" for s in suffixes)
        raise IsADirectoryError(
            f"{name} {str(d)!r} is a directory without {what} ({listed}); give a file, or a "
            f"folder holding such files"
        )
    if skipped:
        logger.info("%s: %d entries that are not %s skipped", d, skipped, what)
    return [resolve_file(f, name=name) for f in sorted(found, key=lambda f: f.name)]


def bundled(rel: str) -> Path:
    """Path of a bundled file under :func:`data_dir`, checked and verified."""
    return resolve_file(data_dir() / rel)


_GZIP_MAGIC = b"\x1f\x8b"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def is_gzip(path: Path) -> bool:
    """Whether ``path`` is read as gzip: its name ends in ``.gz`` or it starts with gzip's magic."""
    if path.suffix == ".gz":
        return True
    with open(path, "rb") as fh:
        return fh.read(2) == _GZIP_MAGIC


def first_undecodable_line(path: Path, gz: bool) -> tuple[int, str] | None:
    """Line number and byte description of the first line of ``path`` that is not UTF-8."""
    try:
        with gzip.open(path, "rb") if gz else open(path, "rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    what = f"byte {raw[exc.start]:#04x} at column {exc.start + 1}"
                    if lineno == 1 and raw.startswith(_UTF16_BOMS):
                        what += ", a UTF-16 byte-order mark: save the file as UTF-8"
                    return lineno, what
    except (EOFError, OSError, zlib.error):
        return None
    return None


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` (1-based, newline stripped) from a text or gzip file.

    The file is UTF-8; a leading byte-order mark is dropped (``utf-8-sig``); line ends may be
    ``\\n``, ``\\r\\n`` or ``\\r``. Gzip is recognised by the ``.gz`` suffix or by its magic bytes.
    Truncated / corrupt gzip streams raise :class:`DataFormatError` naming the file and the line
    at which reading failed; undecodable bytes raise it naming the file, the line and the column
    of the first bad byte; a NUL character (a binary file, or UTF-16 text) raises it naming the
    line and the column.
    """
    lineno = 0
    gz = is_gzip(path)
    try:
        if gz:
            fh = gzip.open(path, "rt", encoding="utf-8-sig", newline="")
        else:
            fh = open(path, encoding="utf-8-sig", newline="")  # noqa: SIM115
        with fh:
            for lineno, line in enumerate(fh, 1):  # noqa: B007
                if "\x00" in line:
                    raise format_error(
                        path,
                        lineno,
                        f"NUL byte at column {line.index(chr(0)) + 1}: this is a binary file (or "
                        "UTF-16 text), not UTF-8 text",
                    )
                yield lineno, line.rstrip("\r\n")
    except UnicodeDecodeError as exc:
        # the decoder works on blocks: find the exact line by decoding line by line
        found = first_undecodable_line(path, gz)
        where, what = found if found is not None else (lineno + 1, str(exc))
        raise format_error(
            path, where, f"not valid UTF-8 ({what}); the file must be UTF-8 text"
        ) from exc
    except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise format_error(path, lineno + 1, f"truncated or corrupt file ({exc})") from exc


def fail(path: Path, lineno: int | None, message: str) -> DataFormatError:
    """Build a DataFormatError "<file> line N: message [full path]"."""
    return format_error(path, lineno, message)


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
