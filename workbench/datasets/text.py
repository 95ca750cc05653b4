"""The tokenizer and the Gutenberg corpora as token streams."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench._validation import check_bool, check_int

from ._common import (
    data_dir,
    fail,
    file_sha256,
    iter_lines,
    resolve_dir_files,
    resolve_file,
    resolve_name_or_path,
    shared_data_dir,
)

__all__ = [
    "TOKEN_PATTERN",
    "tokenize",
    "Document",
    "Corpus",
    "load_corpus",
    "CORPUS_NAMES",
    "CORPUS_FILE_SUFFIXES",
    "iter_file_documents",
    "file_document_sizes",
]

#: Numbers (with inner ``.``/``,`` groups, e.g. ``3.14``, ``1,000``) or words of unicode letters and
#: digits with inner apostrophes / hyphens (``don't``, ``o’clock``, ``well-known``).
TOKEN_PATTERN = r"\d+(?:[.,]\d+)+|[^\W_]+(?:['’\-][^\W_]+)*"
_TOKEN_RE = re.compile(TOKEN_PATTERN)
_findall = _TOKEN_RE.findall


def tokenize(text: str, *, lowercase: bool = True) -> list[str]:
    """Split text into word tokens; the one tokenizer used for English and Spanish text.

    Tokens are maximal runs of unicode letters/digits, joined across single inner apostrophes
    (``'`` or ``’``) and hyphens, or numbers with inner ``.``/``,`` groups. Punctuation and
    underscores are dropped. ``lowercase=True`` (default) lowercases first.

    Examples
    --------
    >>> tokenize("Don't stop -- ¿Qué pasó? 3.14 well-known")
    ["don't", 'stop', 'qué', 'pasó', '3.14', 'well-known']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _findall(text.lower() if lowercase else text)


@dataclass(frozen=True, slots=True)
class Document:
    """A document of a corpus: its title and its tokens."""

    title: str
    tokens: list[str]


CORPUS_NAMES: dict[str, str] = {
    "1M": "corpus/gutenberg_en_1M.txt.gz",
    "5M": "corpus/gutenberg_en_5M.txt.gz",
    "25M": "corpus/gutenberg_en_25M.txt.gz",
}
DOC_MARKER = "@@DOC\t"
#: Files of a corpus directory: read in sorted file-name order, other files are skipped.
CORPUS_FILE_SUFFIXES = (".txt", ".txt.gz")


def _iter_raw_documents(
    path: Path, *, first: int = 0, stop: int | None = None, keep: bool = True
) -> Iterator[tuple[str, str | None, int]]:
    """``(title, text, n_chars)`` of documents ``first .. stop - 1`` of one corpus file.

    Lines of documents before ``first`` are not kept, and reading stops as soon as document
    ``stop`` starts. ``text`` is None when ``keep`` is False (only the titles and sizes are
    wanted). A document is open once a line was read or a marker seen: text before the first
    marker is a document titled with the file name.
    """
    title = path.name
    buf: list[str] = []
    size = 0
    is_open = False
    index = 0
    for lineno, line in iter_lines(path):
        if line.startswith("@@DOC"):
            if not line.startswith(DOC_MARKER):
                raise fail(path, lineno, "document marker must be '@@DOC<TAB>idx<TAB>title'")
            if is_open:
                if index >= first:
                    yield title, ("\n".join(buf) if keep else None), size
                index += 1
                if stop is not None and index >= stop:
                    return
            parts = line.split("\t", 2)
            title = parts[2] if len(parts) == 3 else parts[-1]
            buf = []
            size = 0
            is_open = True
        else:
            if index >= first:
                if keep:
                    buf.append(line)
                size += len(line) + 1
            is_open = True
    if is_open and index >= first and (stop is None or index < stop):
        yield title, ("\n".join(buf) if keep else None), size


def iter_file_documents(
    path: str | os.PathLike[str],
    *,
    lowercase: bool = True,
    first: int = 0,
    stop: int | None = None,
) -> Iterator[Document]:
    """Yield the tokenized documents ``first .. stop - 1`` of ONE corpus file, in file order.

    The reader behind :meth:`Corpus.iter_documents` (one file at a time) and the document-range
    shards of :func:`workbench.views.shard_corpus`: only the selected documents are tokenized,
    and reading stops after document ``stop - 1``. Reading a whole file (``first=0``,
    ``stop=None``) that holds no token raises :class:`DataFormatError`.
    """
    p = Path(path)
    n_tokens = 0
    for title, text, _ in _iter_raw_documents(p, first=first, stop=stop):
        assert text is not None
        toks = _findall(text.lower() if lowercase else text)
        n_tokens += len(toks)
        yield Document(title, toks)
    if first == 0 and stop is None and n_tokens == 0:
        raise fail(p, None, "no word tokens in the file")


def file_document_sizes(path: str | os.PathLike[str]) -> list[int]:
    """Size in characters of each document of one corpus file (one pass, nothing tokenized).

    Used to cut a single corpus file into document ranges of similar size.
    """
    return [n for _, _, n in _iter_raw_documents(Path(path), keep=False)]


class Corpus:
    """A raw-text corpus read lazily as a stream of tokenized documents.

    File format: UTF-8 text, optionally gzip-compressed. A line ``@@DOC<TAB>idx<TAB>title``
    starts a new document; text before the first marker (or a file without markers) forms one
    document titled with the file name. Every iteration re-reads the file (streaming, memory
    bounded by the largest document).

    A corpus may also be a *directory* of such files (``*.txt`` / ``*.txt.gz``, see
    :func:`load_corpus`): its files are read in sorted file-name order as one corpus whose
    documents are the files' documents (no document spans two files).

    Attributes
    ----------
    name : str
        ``"1M"``, ``"5M"``, ``"25M"``, the file stem of a user file or the directory name.
    path : Path
        The file, or the directory.
    files : tuple of Path
        The files read, in order (``(path,)`` for a single file).
    lowercase : bool
    max_tokens : int or None
        Stop after this many tokens (the last document is cut).

    Iterating over a file that holds no token at all raises :class:`DataFormatError`.
    """

    def __init__(
        self,
        name: str,
        path: Path,
        *,
        lowercase: bool = True,
        max_tokens: int | None = None,
        files: Sequence[Path] | None = None,
    ) -> None:
        self.name = name
        self.path = path
        self.files: tuple[Path, ...] = (path,) if files is None else tuple(files)
        if not self.files:
            raise ValueError("a corpus needs at least one file")
        self.lowercase = check_bool(lowercase, "lowercase")
        self.max_tokens: int | None = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
        self._sha256: str | None = None
        self._n_counted: tuple[int, int] | None = None

    def __repr__(self) -> str:
        files = "" if self.files == (self.path,) else f", files={len(self.files)}"
        return (
            f"Corpus(name={self.name!r}, path='{self.path}'{files}, lowercase={self.lowercase}, "
            f"max_tokens={self.max_tokens})"
        )

    @property
    def is_directory(self) -> bool:
        """True for a corpus read from a directory of files."""
        return self.files != (self.path,)

    @property
    def sha256(self) -> str:
        """sha256 of the corpus file (computed once).

        For a directory: the sha256 of its ``sha256sum`` listing, i.e. of the lines
        ``"<sha256 of the file>  <file name>\\n"`` of its files in reading order.
        """
        if self._sha256 is None:
            if not self.is_directory:
                self._sha256 = file_sha256(self.path)
            else:
                listing = "".join(f"{file_sha256(f)}  {f.name}\n" for f in self.files)
                self._sha256 = hashlib.sha256(listing.encode("utf-8")).hexdigest()
        return self._sha256

    def iter_documents(self) -> Iterator[Document]:
        """Yield :class:`Document` objects in file order (files in order for a directory)."""
        budget = self.max_tokens
        if budget == 0:
            return
        for path in self.files:
            for doc in iter_file_documents(path, lowercase=self.lowercase):
                if budget is not None:
                    if len(doc.tokens) >= budget:
                        yield Document(doc.title, doc.tokens[:budget])
                        return
                    budget -= len(doc.tokens)
                yield doc

    def __iter__(self) -> Iterator[Document]:
        return self.iter_documents()

    def tokens(self) -> Iterator[str]:
        """Yield every token of the corpus in order (across documents)."""
        for doc in self.iter_documents():
            yield from doc.tokens

    @property
    def n_documents(self) -> int:
        """Number of documents (counted once; respects ``max_tokens``)."""
        return self._counts()[0]

    @property
    def n_tokens(self) -> int:
        """Number of tokens (counted once by a pass over the file)."""
        return self._counts()[1]

    def _counts(self) -> tuple[int, int]:
        """Documents and tokens, counted by one pass over the text on first use."""
        if self._n_counted is None:
            n_docs = n_tok = 0
            for doc in self.iter_documents():
                n_docs += 1
                n_tok += len(doc.tokens)
            self._n_counted = (n_docs, n_tok)
        return self._n_counted


def load_corpus(
    name_or_path: str | os.PathLike[str] = "1M",
    *,
    lowercase: bool = True,
    max_tokens: int | None = None,
) -> Corpus:
    r"""Open a corpus as a lazy :class:`Corpus` (nothing is read until iterated).

    Parameters
    ----------
    name_or_path : {"1M", "5M", "25M"} or path
        Bundled Gutenberg samples (1.0M / 5.0M whitespace tokens) or the 25M sample read from
        :func:`shared_data_dir` (benchmarks only; not bundled), a user text / ``.gz`` file, or
        a user *directory* of corpus files.
    lowercase : bool
        Lowercase tokens (default).
    max_tokens : int, optional
        Truncate the stream after this many tokens.

    Notes
    -----
    A ``pathlib.Path``, or a string with a ``/`` or a dot, is a path; a bare name such as
    ``"1M"`` that is also a file or folder in the current folder is refused (write ``./1M``
    for it); any other bare string is a path.

    A directory is read as ONE corpus: its files named ``*.txt`` or ``*.txt.gz``
    (:data:`CORPUS_FILE_SUFFIXES`; sub-folders, hidden files and other files are skipped) in
    sorted file-name order (code-point order: zero-pad numbers, ``part-002.txt``), each in the
    file format above. The corpus' documents are the files' documents in that order: a file
    without markers is one document titled with its file name, and no document spans two
    files. Such a directory is also the natural input of the Dask backend of the view
    builders (:func:`workbench.views.shard_corpus`: one shard per file or group of files).

    Raises
    ------
    ValueError
        Unknown corpus name (the message lists the valid names), a bare name that is also a
        file or folder in the current folder, ``max_tokens`` < 0.
    TypeError
        ``max_tokens`` not an integer (e.g. the string ``'10'``), ``lowercase`` not a bool.
    FileNotFoundError
        Missing file or directory.
    IsADirectoryError
        A directory without any ``*.txt`` / ``*.txt.gz`` file (e.g. an empty one).
    DataFormatError
        Empty file (also a file of a directory); while iterating: undecodable bytes, truncated
        gzip, a bad ``@@DOC`` marker, a file without any token (file and line in the message).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "b.txt").write_text("@@DOC\t1\tB1\nSecond file.\n@@DOC\t2\tB2\nLast one.\n")
    >>> _ = (folder / "a.txt").write_text("First file, one document.\n")
    >>> corpus = load_corpus(folder)
    >>> [(d.title, len(d.tokens)) for d in corpus.iter_documents()]
    [('a.txt', 4), ('B1', 2), ('B2', 2)]
    >>> import shutil; shutil.rmtree(folder)
    """
    lowercase = check_bool(lowercase, "lowercase")
    max_tokens = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
    name, user = resolve_name_or_path(
        name_or_path,
        "name_or_path",
        tuple(CORPUS_NAMES),
        what="corpus",
        hint="or a file path",
        accept_dir=True,
    )
    if name is not None:
        rel = CORPUS_NAMES[name]
        if name == "25M":
            root = shared_data_dir()
            if root is None:
                raise FileNotFoundError(
                    "the 25M corpus is not bundled; it is read from the shared data folder "
                    "(set WORKBENCH_SHARED_DATA), which was not found"
                )
            path = resolve_file(root / rel, verify=False)
        else:
            path = resolve_file(data_dir() / rel)
        return Corpus(name, path, lowercase=lowercase, max_tokens=max_tokens)
    assert user is not None
    p = user
    if p.is_dir():
        files = resolve_dir_files(
            p, CORPUS_FILE_SUFFIXES, name="name_or_path", what="corpus text files"
        )
        return Corpus(p.name, p, lowercase=lowercase, max_tokens=max_tokens, files=files)
    path = resolve_file(p, name="name_or_path")
    stem = path.name.split(".")[0]
    return Corpus(stem, path, lowercase=lowercase, max_tokens=max_tokens)
