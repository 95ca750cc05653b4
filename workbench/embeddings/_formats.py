"""Readers and writers of word2vec (text, binary) and GloVe files.

Formats
-------
``word2vec-text``
    Header line ``<n_words> <dim>``, then ``word v1 ... v_dim`` a line (space-separated).
``word2vec-binary``
    Header line ``<n_words> <dim>\\n``, then per word: UTF-8 word, a space, ``dim`` little-endian
    float32 values, optionally a newline (as written by the original C tool and gensim).
``glove-text``
    No header; ``word v1 ... v_dim`` a line; ``dim`` is taken from the first line.

Any file may be gzip-compressed (``.gz``, or recognised by its magic bytes); text files are UTF-8
(a leading byte-order mark is dropped). ``format="auto"`` picks ``word2vec-binary`` for ``.bin``
files or when the bytes after a ``n d`` header are not text, ``word2vec-text`` when the first line
is a ``n d`` header, and ``glove-text`` otherwise. Readers refuse (``DataFormatError`` naming the
file and the line) lines with more or fewer values than the header or the first line says,
non-numeric, NaN or infinite values, a vector count different from the header, and a text file
read as binary (or the reverse).
"""

from __future__ import annotations

import gzip
import io
import logging
import warnings
import zlib
from pathlib import Path
from typing import IO, Literal, cast

import numpy as np

from workbench._io import atomic_path
from workbench._typing import PathLikeStr
from workbench._validation import (
    check_choice,
    check_file,
    check_int,
    format_error,
)
from workbench.datasets import first_undecodable_line, is_gzip
from workbench.embeddings._vectors import WordVectors, _dedupe

logger = logging.getLogger(__name__)

__all__ = ["load_word_vectors", "save_word_vectors", "VectorFormat"]

VectorFormat = Literal["auto", "word2vec-text", "word2vec-binary", "glove-text"]
_FORMATS = ("auto", "word2vec-text", "word2vec-binary", "glove-text")


def _open_binary(path: Path) -> IO[bytes]:
    if is_gzip(path):
        return cast(IO[bytes], gzip.open(path, "rb"))
    return open(path, "rb")  # noqa: SIM115


_BOM = b"\xef\xbb\xbf"


def _parse_header(line: bytes) -> tuple[int, int] | None:
    parts = line.removeprefix(_BOM).split()
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def _numeric_pair(line: bytes) -> str | None:
    """``line`` as text if it is two numbers that are not both non-negative integers."""
    parts = line.removeprefix(_BOM).split()
    if len(parts) != 2 or all(p.isdigit() for p in parts):
        return None
    try:
        text = [p.decode("ascii") for p in parts]
    except UnicodeDecodeError:
        return None
    return " ".join(text) if all(_is_float(p) for p in text) else None


#: Deflate never compresses more than 1032:1, so a gzip file of ``s`` bytes holds at most
#: ``1032 * s`` bytes of data.
_GZIP_MAX_RATIO = 1032


def _check_header(path: Path, n: int, dim: int, *, binary: bool) -> None:
    """Refuse a ``<n_words> <dim>`` header that is not positive or cannot fit in the file.

    A vector takes more than ``4 * dim`` bytes in a binary file (``dim`` float32 after its
    word) and more than ``2 * dim`` characters in a text file (a digit and a separator a
    value); the check runs before anything is allocated or read. A header a little too large
    is found when the vectors run out (the message then gives the count read).
    """
    header = f"'{n} {dim}'"
    if dim < 1:
        raise format_error(path, 1, f"header announces dimension {dim} ({header}; must be >= 1)")
    if n < 1:
        raise format_error(path, 1, f"header announces {n} vectors ({header}; must be >= 1)")
    per_vector = 4 * dim if binary else 2 * dim
    need = n * per_vector
    size = path.stat().st_size
    gz = is_gzip(path)
    room = size * _GZIP_MAX_RATIO if gz else size
    if need > room:
        kind = "binary: dim float32" if binary else "text: a digit and a space a value"
        held = (
            f"the gzip file has {size:,} bytes (at most {room:,} uncompressed)"
            if gz
            else f"the file has {size:,} bytes"
        )
        raise format_error(
            path,
            1,
            f"header {header} announces {n:,} vectors of dimension {dim:,}, at least {need:,} bytes "
            f"({per_vector:,} per vector, {kind}), but {held}: the header is wrong or the file "
            "is truncated",
        )


def _looks_like_text(line: bytes, dim: int) -> bool:
    """Whether ``line`` (the line after a header) is a text vector line ``word v1 ... v_dim``."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return False
    if not text.replace("\t", " ").isprintable():
        return False
    fields = text.split()
    # ``word v1 ... v_dim`` (a word may contain spaces), or a malformed text line of dim + 1 fields
    return len(fields) == dim + 1 or (
        len(fields) > dim >= 1 and all(_is_float(x) for x in fields[-dim:])
    )


def _detect_format(path: Path) -> str:
    stem = path.name[:-3] if path.name.endswith(".gz") else path.name
    try:
        with _open_binary(path) as fh:
            first = fh.readline(1 << 16)
            hdr = _parse_header(first)
            if hdr is None:
                bad = _numeric_pair(first)
                if bad is not None and len(fh.readline(1 << 20).split()) > 2:
                    raise format_error(
                        path,
                        1,
                        f"header {bad!r} is not a word2vec header: '<n_words> <dim>' must be two "
                        "positive integers",
                    )
                return "glove-text"
            if stem.endswith(".bin"):
                return "word2vec-binary"
            second = fh.readline(1 << 20)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise format_error(path, 1, f"truncated or corrupt gzip stream ({exc})") from exc
    return "word2vec-text" if _looks_like_text(second, hdr[1]) else "word2vec-binary"


def _read_text(path: Path, fmt: str, limit: int | None) -> tuple[list[str], np.ndarray]:
    words: list[str] = []
    rows: list[np.ndarray] = []
    linenos: list[int] = []
    spaced: list[int] = []  # lines whose word contains a space
    dim: int | None = None
    dim_from = ""
    expected_n: int | None = None
    header_like: tuple[int, int] | None = None  # a glove-text first line that reads "<n> <d>"
    lineno = 0
    gz = is_gzip(path)
    try:
        if gz:
            fh: IO[str] = gzip.open(path, "rt", encoding="utf-8-sig")
        else:
            fh = open(path, encoding="utf-8-sig")  # noqa: SIM115
        with fh, np.errstate(over="ignore"):
            for lineno, line in enumerate(fh, 1):  # noqa: B007
                if lineno == 1:
                    hdr = _parse_header(line.encode())
                    if fmt == "word2vec-text":
                        if hdr is None:
                            raise format_error(
                                path,
                                1,
                                f"expected a word2vec header '<n_words> <dim>' (two positive "
                                f"integers), got {line.strip()[:60]!r} (a file without header "
                                "is read with format='glove-text' or 'auto')",
                            )
                        expected_n, dim = hdr
                        dim_from = "the header says"
                        _check_header(path, expected_n, dim, binary=False)
                        continue
                    header_like = hdr
                if limit is not None and len(words) >= limit:
                    break
                s = line.rstrip("\r\n").rstrip(" ")
                if not s:
                    continue
                if dim is None:
                    dim = len(s.split(" ")) - 1
                    dim_from = f"line {lineno} has"
                    if dim < 1:
                        raise format_error(path, lineno, "no vector values after the word")
                parts = s.rsplit(" ", dim)
                word = parts[0]
                too_many = " " in word and _is_float(word.rsplit(" ", 1)[1])
                if too_many or len(parts) != dim + 1 or not word or not all(parts[1:]):
                    got = len(s.split()) - 1
                    msg = f"expected a word and {dim} values, got {got} values ({dim_from} {dim})"
                    if header_like is not None and lineno == 2 and got == header_like[1]:
                        msg += (
                            f"; line 1 '{header_like[0]} {header_like[1]}' looks like a word2vec "
                            "header: read the file with format='word2vec-text' or 'auto'"
                        )
                    raise format_error(path, lineno, msg)
                try:
                    vec = np.array(parts[1:], dtype=np.float32)
                except ValueError:
                    bad = next(p for p in parts[1:] if not _is_float(p))
                    raise format_error(path, lineno, f"value {bad!r} is not a number") from None
                if " " in word:
                    spaced.append(lineno)
                words.append(word)
                rows.append(vec)
                linenos.append(lineno)
    except UnicodeDecodeError as exc:
        found = first_undecodable_line(path, gz)
        where, what = found if found is not None else (lineno + 1, str(exc))
        raise format_error(
            path,
            where,
            f"not valid UTF-8 ({what}); a binary word2vec file is read with "
            "format='word2vec-binary' or 'auto'",
        ) from exc
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise format_error(path, lineno + 1, f"truncated or corrupt ({exc})") from exc
    if expected_n is not None:
        want = expected_n if limit is None else min(limit, expected_n)
        if len(words) < want or (len(words) > expected_n):
            where = linenos[expected_n] if len(words) > expected_n else lineno + 1
            raise format_error(
                path,
                where,
                f"header announces {expected_n} vectors, file has "
                f"{'more' if len(words) > expected_n else len(words)}",
            )
    if not words:
        raise format_error(path, None, "no vectors found")
    assert dim is not None
    mat = np.vstack(rows)
    finite = np.isfinite(mat).all(axis=1)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise format_error(
            path,
            linenos[i],
            f"vector of {words[i]!r} has NaN / infinite values (or values beyond the float32 "
            f"range); {int((~finite).sum())} such line(s) in the file",
        )
    if spaced:
        warnings.warn(
            f"{path.name}: {len(spaced)} word(s) contain spaces (first on line {spaced[0]}); "
            "they are kept as single words",
            UserWarning,
            stacklevel=3,
        )
    return words, mat


def _is_float(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


_NUMERIC_TEXT = frozenset(b"0123456789.-+eE \t\r\n")


def _read_binary(path: Path, limit: int | None) -> tuple[list[str], np.ndarray]:
    try:
        with _open_binary(path) as fh:
            first = fh.readline(1 << 16)
            hdr = _parse_header(first)
            if hdr is None:
                raise format_error(
                    path,
                    1,
                    f"expected a word2vec header '<n_words> <dim>' (two positive integers), got "
                    f"{first.strip()[:60]!r} (a file without header is a GloVe text file: "
                    "format='glove-text' or 'auto')",
                )
            n, dim = hdr
            _check_header(path, n, dim, binary=True)
            if limit is not None:
                n = min(n, limit)
            nbytes = 4 * dim
            data = bytearray()  # grows with what is read: never more than the file holds
            words: list[str] = []
            for i in range(n):
                buf = bytearray()
                while True:
                    ch = fh.read(1)
                    if not ch:
                        raise format_error(
                            path,
                            i + 2,
                            f"vector {i + 1}: file ends inside a word; header announces "
                            f"{hdr[0]} vectors",
                        )
                    if ch == b" ":
                        break
                    if ch != b"\n" or buf:
                        buf.extend(ch)
                raw = fh.read(nbytes)
                if len(raw) != nbytes:
                    raise format_error(
                        path,
                        i + 2,
                        f"vector {i + 1}: truncated, {len(raw)} of {nbytes} bytes for {dim} "
                        "float32 values",
                    )
                if i == 0 and set(raw) <= _NUMERIC_TEXT:
                    raise format_error(
                        path,
                        2,
                        f"the values of the first vector are text ({raw[:40]!r}): this is a "
                        "word2vec text file; read it with format='word2vec-text' or 'auto'",
                    )
                try:
                    words.append(buf.decode("utf-8"))
                except UnicodeDecodeError:
                    raise format_error(
                        path,
                        i + 2,
                        f"vector {i + 1}: word is not valid UTF-8 (is the dimension {dim} of "
                        "the header right?)",
                    ) from None
                data += raw
            if limit is None or limit > hdr[0]:
                rest = fh.read(4096)
                if rest.strip():
                    raise format_error(
                        path,
                        n + 2,
                        f"data after vector {n}: the header announces {n} vectors of dimension "
                        f"{dim} but the file holds more (wrong header?)",
                    )
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise format_error(path, None, f"truncated or corrupt gzip stream ({exc})") from exc
    out = np.frombuffer(data, dtype="<f4").astype(np.float32, copy=False).reshape(n, dim)
    finite = np.isfinite(out).all(axis=1)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise format_error(
            path,
            bad + 2,
            f"vector {bad + 1} ({words[bad]!r}) has NaN / infinite values; "
            f"{int((~finite).sum())} such vector(s) in the file",
        )
    return words, out


def load_word_vectors(
    path: PathLikeStr,
    *,
    format: VectorFormat = "auto",
    limit: int | None = None,
) -> WordVectors:
    """Read word vectors from a word2vec (text or binary) or GloVe text file.

    Parameters
    ----------
    path : path
        File, optionally gzip-compressed (``.gz`` or recognised by its magic bytes). A leading
        UTF-8 byte-order mark of a text file is dropped.
    format : {"auto", "word2vec-text", "word2vec-binary", "glove-text"}
        See the module docstring for the formats and the auto-detection rule.
    limit : int, optional
        Read only the first ``limit`` (>= 1) vectors.

    Returns
    -------
    WordVectors
        float32 vectors; duplicated words keep their first vector (with a warning); words that
        contain spaces are kept (with one warning giving their count).

    Raises
    ------
    TypeError
        ``limit`` not an integer (e.g. ``'5'``), ``path`` not a path.
    ValueError
        Unknown ``format``; ``limit`` < 1.
    FileNotFoundError, IsADirectoryError
        Missing file, or a folder given.
    DataFormatError
        Empty file; a line with more or fewer values than the header (or the first line) says;
        a non-numeric, NaN or infinite value; a header whose count differs from the vectors;
        a text file read as ``word2vec-binary`` (or a binary one as text); truncated file (file
        and line in the message).

    Examples
    --------
    A GloVe text file (no header; written here to a temporary folder):

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "vectors.txt"
    ...     _ = path.write_text("the 0.1 0.2 0.3\\nof 0.4 0.5 0.6\\n")
    ...     vecs = load_word_vectors(path)
    >>> vecs
    WordVectors(n_words=2, dim=3, dtype=float32)
    >>> vecs.words, vecs["of"]
    (['the', 'of'], array([0.4, 0.5, 0.6], dtype=float32))
    """
    check_choice(format, "format", _FORMATS)
    limit = check_int(limit, "limit", low=1, allow_none=True)
    p = check_file(path, "path")
    fmt = _detect_format(p) if format == "auto" else format
    if fmt == "word2vec-binary":
        words, vecs = _read_binary(p, limit)
    else:
        words, vecs = _read_text(p, fmt, limit)
    keep = _dedupe(words, str(p))
    if keep is not None:
        words = [words[i] for i in keep]
        vecs = vecs[keep]
    logger.info("read %d x %d vectors from %s (%s)", len(words), vecs.shape[1], p, fmt)
    return WordVectors(words, vecs)


def save_word_vectors(
    vectors: WordVectors,
    path: PathLikeStr,
    format: Literal["word2vec-text", "word2vec-binary", "glove-text"] = "word2vec-text",
) -> Path:
    """Write vectors as word2vec text / binary or GloVe text (gzip if ``path`` ends in ``.gz``).

    Text formats write each value with the shortest repr that reads back exactly. Words must not
    contain whitespace. The file is written to a temporary name and renamed (atomic).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> vecs = WordVectors(["king", "queen"], np.array([[1.0, 0.2], [0.9, 0.3]]))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = save_word_vectors(vecs, Path(tmp) / "vectors.txt")
    ...     print(path.read_text(), end="")
    ...     back = load_word_vectors(path)
    2 2
    king 1.0 0.2
    queen 0.9 0.3
    >>> back.words
    ['king', 'queen']
    """
    if format not in ("word2vec-text", "word2vec-binary", "glove-text"):
        raise ValueError(
            f"format must be word2vec-text, word2vec-binary or glove-text, got {format!r}"
        )
    bad = [w for w in vectors.words if not w or any(c.isspace() for c in w)]
    if bad:
        raise ValueError(f"{len(bad)} word(s) are empty or contain whitespace, e.g. {bad[:3]!r}")
    p = Path(path).expanduser()
    with atomic_path(p) as tmp:
        raw = cast(IO[bytes], gzip.open(tmp, "wb") if p.suffix == ".gz" else open(tmp, "wb"))  # noqa: SIM115
        with raw:
            n, d = vectors.vectors.shape
            if format != "glove-text":
                raw.write(f"{n} {d}\n".encode())
            if format == "word2vec-binary":
                data = np.asarray(vectors.vectors, dtype="<f4")
                for w, row in zip(vectors.words, data):
                    raw.write(w.encode("utf-8") + b" " + row.tobytes() + b"\n")
            else:
                text = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
                values = vectors.vectors
                if values.dtype == np.float32:
                    for w, row in zip(vectors.words, values):
                        text.write(w + " " + " ".join(map(_f32repr, row)) + "\n")
                else:
                    for w, row in zip(vectors.words, values.tolist()):
                        text.write(w + " " + " ".join(map(repr, row)) + "\n")
                text.flush()
                text.detach()
    return p


def _f32repr(x: np.float32) -> str:
    return str(x)
