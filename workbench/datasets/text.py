"""The tokenizer and the corpora (bundled Gutenberg samples, users' text) as token streams."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench._validation import check_bool, check_choice, check_int

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
    "CORPUS_FORMATS",
    "CORPUS_FILE_SUFFIXES",
    "NORMALIZATIONS",
    "iter_file_documents",
    "file_document_sizes",
    "prepare_text",
]

#: Numbers (with inner ``.``/``,`` groups, e.g. ``3.14``, ``1,000``) or words of unicode letters and
#: digits with inner apostrophes / hyphens (``don't``, ``o’clock``, ``well-known``). Combining
#: marks (Unicode category M) after a letter stay in its word (see :func:`tokenize`).
TOKEN_PATTERN = r"\d+(?:[.,]\d+)+|[^\W_]+(?:['’\-][^\W_]+)*"
_TOKEN_RE = re.compile(TOKEN_PATTERN)
_findall = _TOKEN_RE.findall

#: Unicode normalisations :func:`load_corpus` accepts (``None``: the text as written).
NORMALIZATIONS: tuple[str | None, ...] = ("NFC", "NFKC", None)


@functools.cache
def _marked_findall() -> Callable[[str], list[str]]:
    """:data:`TOKEN_PATTERN` whose words also hold combining marks (built on first need)."""
    ranges: list[tuple[int, int]] = []
    start: int | None = None
    category = unicodedata.category
    for cp in range(0x300, sys.maxunicode + 1):
        mark = category(chr(cp))[0] == "M"
        if mark and start is None:
            start = cp
        elif not mark and start is not None:
            ranges.append((start, cp - 1))
            start = None
    marks = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)
    word = r"[^\W_]+(?:[" + marks + r"]+[^\W_]*)*"
    return re.compile(r"\d+(?:[.,]\d+)+|" + word + r"(?:['’\-]" + word + r")*").findall


def _has_marks(text: str) -> bool:
    if text.isascii():
        return False
    category = unicodedata.category
    return any(ord(c) >= 0x300 and category(c)[0] == "M" for c in set(text))


def _split(text: str) -> list[str]:
    """The tokens of prepared text: the fast pattern unless the text holds a combining mark."""
    return _marked_findall()(text) if _has_marks(text) else _findall(text)


def prepare_text(text: str, *, lowercase: bool = True, normalize: str | None = None) -> str:
    """``text`` normalised (``normalize``), then lowercased (``str.lower``) and normalised again.

    The second normalisation keeps the text in the chosen form after lowercasing (``"İ"``
    lowercases to ``"i"`` + U+0307 COMBINING DOT ABOVE, which has no precomposed form: the
    word stays one token, see :func:`tokenize`).
    """
    if normalize is not None and not text.isascii():
        text = unicodedata.normalize(normalize, text)  # type: ignore[arg-type]
    if lowercase:
        text = text.lower()
        if normalize is not None and not text.isascii():
            text = unicodedata.normalize(normalize, text)  # type: ignore[arg-type]
    return text


def tokenize(text: str, *, lowercase: bool = True, normalize: str | None = None) -> list[str]:
    """Split text into word tokens; the one tokenizer used for English and Spanish text.

    Tokens are maximal runs of unicode letters/digits, with the combining marks (accents
    written as separate code points) that follow a letter, joined across single inner
    apostrophes (``'`` or ``’``) and hyphens, or numbers with inner ``.``/``,`` groups.
    Punctuation and underscores are dropped. ``normalize`` (``"NFC"``, ``"NFKC"``; default
    ``None``: as written) normalises the text first; ``lowercase=True`` (default) then
    lowercases it with ``str.lower`` (see :func:`prepare_text`): ``"İstanbul"`` gives the one
    token ``"i̇stanbul"`` (``i`` + combining dot above), a decomposed ``"corazón"`` one token.

    Examples
    --------
    >>> tokenize("Don't stop -- ¿Qué pasó? 3.14 well-known")
    ["don't", 'stop', 'qué', 'pasó', '3.14', 'well-known']
    >>> tokenize("corazo\\u0301n", normalize="NFC") == ["coraz\\u00f3n"]
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _split(prepare_text(text, lowercase=lowercase, normalize=normalize))


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
#: How a corpus file is cut into documents (see :func:`load_corpus`).
CORPUS_FORMATS: tuple[str, ...] = ("marked", "line-docs", "line-sentences", "folder")
#: A user tokenizer: one line of text -> its tokens.
Tokenizer = Callable[[str], list[str]]


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


def _iter_line_units(path: Path, fmt: str) -> Iterator[tuple[str, int, str]]:
    """``(title, line number, line)`` of every non-blank line of a line-format file.

    ``"line-docs"``: title ``<file name>:<line>``; ``"line-sentences"``: title
    ``<file name>:p<paragraph>:<line>``, paragraphs (from 1) being runs of lines separated by
    blank lines.
    """
    paragraph = 1
    in_paragraph = False
    for lineno, line in iter_lines(path):
        if not line.strip():
            if in_paragraph:
                paragraph += 1
                in_paragraph = False
            continue
        in_paragraph = True
        if fmt == "line-docs":
            yield f"{path.name}:{lineno}", lineno, line
        else:
            yield f"{path.name}:p{paragraph}:{lineno}", lineno, line


def _check_tokens(tokens: object, tokenizer: Tokenizer, path: Path, lineno: int) -> list[str]:
    if type(tokens) is list and all(isinstance(t, str) and t for t in tokens):
        return tokens
    name = getattr(tokenizer, "__qualname__", type(tokenizer).__name__)
    if type(tokens) is not list:
        got = f"a {type(tokens).__name__}"
    else:
        bad = next(t for t in tokens if not (isinstance(t, str) and t))
        got = f"a list holding {bad!r} ({type(bad).__name__})"
    raise TypeError(
        f"{path.name} line {lineno}: the tokenizer {name} returned {got}; it must return a "
        f"list of non-empty str (the tokens of the line) [{path}]"
    )


def iter_file_documents(
    path: str | os.PathLike[str],
    *,
    lowercase: bool = True,
    first: int = 0,
    stop: int | None = None,
    format: str = "marked",
    normalize: str | None = None,
    tokenizer: Tokenizer | None = None,
) -> Iterator[Document]:
    """Yield the tokenized documents ``first .. stop - 1`` of ONE corpus file, in file order.

    The reader behind :meth:`Corpus.iter_documents` (one file at a time) and the document-range
    shards of :func:`workbench.views.shard_corpus`: only the selected documents are tokenized,
    and reading stops after document ``stop - 1``. ``format`` (``"marked"``, ``"line-docs"``,
    ``"line-sentences"``), ``normalize`` and ``tokenizer`` are those of :func:`load_corpus`
    (a ``tokenizer`` is called once per line). Reading a whole file (``first=0``,
    ``stop=None``) that holds no token raises :class:`DataFormatError`.
    """
    p = Path(path)
    n_tokens = 0
    if format in ("marked", "folder"):
        if tokenizer is None:
            for title, text, _ in _iter_raw_documents(p, first=first, stop=stop):
                assert text is not None
                toks = _split(prepare_text(text, lowercase=lowercase, normalize=normalize))
                n_tokens += len(toks)
                yield Document(title, toks)
        else:
            for title, lines in _iter_marked_lines(p, first=first, stop=stop):
                toks = []
                for lineno, line in lines:
                    text = prepare_text(line, lowercase=lowercase, normalize=normalize)
                    toks.extend(_check_tokens(tokenizer(text), tokenizer, p, lineno))
                n_tokens += len(toks)
                yield Document(title, toks)
    else:
        for index, (title, lineno, line) in enumerate(_iter_line_units(p, format)):
            if index < first:
                continue
            if stop is not None and index >= stop:
                break
            text = prepare_text(line, lowercase=lowercase, normalize=normalize)
            if tokenizer is None:
                toks = _split(text)
            else:
                toks = _check_tokens(tokenizer(text), tokenizer, p, lineno)
            n_tokens += len(toks)
            yield Document(title, toks)
    if first == 0 and stop is None and n_tokens == 0:
        raise fail(p, None, "no word tokens in the file")


def _iter_marked_lines(
    path: Path, *, first: int, stop: int | None
) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """Documents of a marked file as ``(title, [(line number, line), ...])`` (for a tokenizer)."""
    title = path.name
    buf: list[tuple[int, str]] = []
    is_open = False
    index = 0
    for lineno, line in iter_lines(path):
        if line.startswith("@@DOC"):
            if not line.startswith(DOC_MARKER):
                raise fail(path, lineno, "document marker must be '@@DOC<TAB>idx<TAB>title'")
            if is_open:
                if index >= first:
                    yield title, buf
                index += 1
                if stop is not None and index >= stop:
                    return
            parts = line.split("\t", 2)
            title = parts[2] if len(parts) == 3 else parts[-1]
            buf = []
            is_open = True
        else:
            if index >= first:
                buf.append((lineno, line))
            is_open = True
    if is_open and index >= first and (stop is None or index < stop):
        yield title, buf


def file_document_sizes(path: str | os.PathLike[str], *, format: str = "marked") -> list[int]:
    """Size in characters of each document of one corpus file (one pass, nothing tokenized).

    Used to cut a single corpus file into document ranges of similar size.
    """
    p = Path(path)
    if format in ("line-docs", "line-sentences"):
        return [len(line) + 1 for _, _, line in _iter_line_units(p, format)]
    return [n for _, _, n in _iter_raw_documents(p, keep=False)]


class Corpus:
    """A raw-text corpus read lazily as a stream of tokenized documents.

    File formats (``format``, see :func:`load_corpus`): UTF-8 text, optionally gzip-compressed.
    ``"marked"``: a line ``@@DOC<TAB>idx<TAB>title`` starts a new document; text before the
    first marker (or a file without markers) forms one document titled with the file name.
    ``"line-docs"`` / ``"line-sentences"``: every non-blank line is one document, the unit
    inside which the view builders count word pairs. Every iteration re-reads the file
    (streaming, memory bounded by the largest document).

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
    format : str
        One of :data:`CORPUS_FORMATS` (``"folder"`` for a directory of marked files).
    normalize : str or None
        Unicode normalisation applied before tokenizing (``None`` for the bundled corpora,
        read as published).
    tokenizer : callable or None
        The user tokenizer, or ``None`` for :func:`tokenize`.
    language : str or None
        Language of the text (``"en"`` for the bundled corpora; what was given for user data).

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
        format: str = "marked",
        normalize: str | None = None,
        tokenizer: Tokenizer | None = None,
        language: str | None = None,
    ) -> None:
        self.name = name
        self.path = path
        self.files: tuple[Path, ...] = (path,) if files is None else tuple(files)
        if not self.files:
            raise ValueError("a corpus needs at least one file")
        self.lowercase = check_bool(lowercase, "lowercase")
        self.max_tokens: int | None = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
        self.format = check_choice(format, "format", CORPUS_FORMATS)
        self.normalize = _check_normalize(normalize)
        self.tokenizer = _check_tokenizer(tokenizer)
        self.language = _check_language(language)
        self._sha256: str | None = None
        self._n_counted: tuple[int, int] | None = None

    def __repr__(self) -> str:
        files = "" if self.files == (self.path,) else f", files={len(self.files)}"
        extra = "" if self.format in ("marked", "folder") else f", format={self.format!r}"
        return (
            f"Corpus(name={self.name!r}, path='{self.path}'{files}{extra}, "
            f"lowercase={self.lowercase}, max_tokens={self.max_tokens})"
        )

    @property
    def is_directory(self) -> bool:
        """True for a corpus read from a directory of files."""
        return self.files != (self.path,)

    @property
    def read_options(self) -> dict[str, Any]:
        """The keywords of :func:`iter_file_documents` that read this corpus' files as it does."""
        return {"format": self.format, "normalize": self.normalize, "tokenizer": self.tokenizer}

    @property
    def sha256(self) -> str:
        """Identity of the text read (computed once; the cache key of the view builders).

        The sha256 of the corpus file; for a directory, the sha256 of its ``sha256sum``
        listing, i.e. of the lines ``"<sha256 of the file>  <file name>\\n"`` of its files in
        reading order. When the text is read differently from a marked file as written (a
        line format, a normalisation, a tokenizer), the lines ``"format <f>\\n"``,
        ``"normalize <n>\\n"`` and ``"tokenizer <module.qualname>\\n"`` are appended to the
        listing (also for a single file) and the sha256 is that of the listing. A tokenizer is
        known by its name only: after changing its code, use a new cache folder.
        """
        if self._sha256 is None:
            options = ""
            if self.format not in ("marked", "folder"):
                options += f"format {self.format}\n"
            if self.normalize is not None:
                options += f"normalize {self.normalize}\n"
            if self.tokenizer is not None:
                t = self.tokenizer
                name = getattr(t, "__qualname__", type(t).__qualname__)
                options += f"tokenizer {getattr(t, '__module__', '?')}.{name}\n"
            if not self.is_directory and not options:
                self._sha256 = file_sha256(self.path)
            else:
                listing = "".join(f"{file_sha256(f)}  {f.name}\n" for f in self.files)
                self._sha256 = hashlib.sha256((listing + options).encode("utf-8")).hexdigest()
        return self._sha256

    def iter_documents(self) -> Iterator[Document]:
        """Yield :class:`Document` objects in file order (files in order for a directory)."""
        budget = self.max_tokens
        if budget == 0:
            return
        options = self.read_options
        for path in self.files:
            for doc in iter_file_documents(path, lowercase=self.lowercase, **options):
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


def _check_normalize(normalize: object) -> str | None:
    if normalize is None or (isinstance(normalize, str) and normalize in NORMALIZATIONS):
        return normalize
    listed = ", ".join(repr(n) for n in NORMALIZATIONS)
    raise ValueError(
        f"normalize must be one of {listed} (Unicode normalisation); got {normalize!r}"
    )


def _check_tokenizer(tokenizer: object) -> Tokenizer | None:
    if tokenizer is None or callable(tokenizer):
        return tokenizer  # type: ignore[return-value]
    raise TypeError(
        "tokenizer must be a callable taking a line of text (str) and returning its tokens "
        f"(a list of str), or None for the built-in tokenizer; got {tokenizer!r} "
        f"({type(tokenizer).__name__})"
    )


def _check_language(language: object) -> str | None:
    if language is None or (isinstance(language, str) and language.strip()):
        return language
    raise TypeError(
        f"language must be a language code such as 'en' or 'es' (a non-empty str) or None, "
        f"got {language!r}"
    )


def _check_file_format(fmt: str, path: Path) -> None:
    if fmt == "folder":
        raise ValueError(
            f"format='folder' needs a directory of *.txt / *.txt.gz files, but name_or_path is "
            f"the file {str(path)!r}; give its folder, or format='marked', 'line-docs' or "
            "'line-sentences' for one file"
        )


def load_corpus(
    name_or_path: str | os.PathLike[str] = "1M",
    *,
    format: str = "marked",
    lowercase: bool = True,
    max_tokens: int | None = None,
    normalize: str | None = "NFC",
    tokenizer: Tokenizer | None = None,
    language: str | None = None,
) -> Corpus:
    r"""Open a corpus as a lazy :class:`Corpus` (nothing is read until iterated).

    Parameters
    ----------
    name_or_path : {"1M", "5M", "25M"} or path
        Bundled Gutenberg samples (1.0M / 5.0M whitespace tokens) or the 25M sample read from
        :func:`shared_data_dir` (benchmarks only; not bundled), a user text / ``.gz`` file, or
        a user *directory* of corpus files.
    format : {"marked", "line-docs", "line-sentences", "folder"}
        How a user file is cut into documents (the view builders count word pairs inside a
        document, never across two):

        * ``"marked"`` (default): a line ``@@DOC<TAB>idx<TAB>title`` starts a document; a file
          without markers is ONE document (windows run across its line breaks).
        * ``"line-docs"``: every non-blank line is a document (titled ``<file>:<line>``).
        * ``"line-sentences"``: every non-blank line is a sentence (gensim's ``LineSentence``);
          paragraphs are runs of lines separated by blank lines. Each sentence is one document
          for the view builders (titled ``<file>:p<paragraph>:<line>``), so no window crosses
          a sentence boundary.
        * ``"folder"``: a directory of ``*.txt`` / ``*.txt.gz`` files, each marked (a
          directory given with ``"marked"`` is read the same way; with ``"line-docs"`` or
          ``"line-sentences"`` that mode applies to each file).

        Blank lines are skipped in the line formats.
    lowercase : bool
        Lowercase tokens (default), with ``str.lower`` after the normalisation.
    max_tokens : int, optional
        Truncate the stream after this many tokens.
    normalize : {"NFC", "NFKC", None}
        Unicode normalisation of a user text before tokenizing (default ``"NFC"``: a
        decomposed ``corazón`` reads as the precomposed one; ``"NFKC"`` also folds
        compatibility forms such as ligatures and full-width letters). Lowercasing comes after
        it and the text is normalised again, so ``"İstanbul"`` is the one token ``"i̇stanbul"``
        (``i`` + combining dot above); combining marks without a precomposed form stay in
        their word. The bundled corpora are read as published (checksum-verified, no
        normalisation, ``corpus.normalize`` is ``None``): the 5M sample holds 8 Greek letters
        with oxia that NFC would rewrite.
    tokenizer : callable, optional
        ``str -> list of str`` replacing :func:`tokenize`: it is called on every line (after
        the normalisation and lowercasing) and its tokens are the line's. Anything but a list
        of non-empty str is a ``TypeError`` naming the file and the line.
    language : str, optional
        Language code recorded as ``corpus.language`` (``"en"`` for the bundled corpora;
        ``None`` for user data unless given).

    Notes
    -----
    A ``pathlib.Path``, or a string with a ``/`` or a dot, is a path; a bare name such as
    ``"1M"`` that is also a file or folder in the current folder is refused (write ``./1M``
    for it); any other bare string is a path.

    A directory is read as ONE corpus: its files named ``*.txt`` or ``*.txt.gz``
    (:data:`CORPUS_FILE_SUFFIXES`; sub-folders, hidden files and other files are skipped) in
    sorted file-name order (code-point order: zero-pad numbers, ``part-002.txt``), each in the
    chosen format. The corpus' documents are the files' documents in that order: a marked
    file without markers is one document titled with its file name, and no document spans
    two files. Such a directory is also the natural input of the Dask backend of the view
    builders (:func:`workbench.views.shard_corpus`: one shard per file or group of files).

    Raises
    ------
    ValueError
        Unknown corpus name (the message lists the valid names), a bare name that is also a
        file or folder in the current folder, ``max_tokens`` < 0, an unknown ``format`` or
        ``normalize`` (the message lists the allowed ones), ``format="folder"`` for a file.
    TypeError
        ``max_tokens`` not an integer (e.g. the string ``'10'``), ``lowercase`` not a bool,
        ``tokenizer`` not callable; while iterating: a tokenizer returning anything but a list
        of str (file and line in the message).
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
    >>> _ = (folder / "s.txt").write_text("One here.\nTwo here.\n\nThree.\n")
    >>> lines = load_corpus(folder / "s.txt", format="line-sentences")
    >>> [(d.title, d.tokens) for d in lines.iter_documents()]
    [('s.txt:p1:1', ['one', 'here']), ('s.txt:p1:2', ['two', 'here']), ('s.txt:p2:4', ['three'])]
    >>> import shutil; shutil.rmtree(folder)
    """
    fmt = format
    if not isinstance(fmt, str) or fmt not in CORPUS_FORMATS:
        listed = ", ".join(repr(f) for f in CORPUS_FORMATS)
        raise ValueError(f"format must be one of {listed}; got {fmt!r}")
    lowercase = check_bool(lowercase, "lowercase")
    max_tokens = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
    normalize = _check_normalize(normalize)
    tokenizer = _check_tokenizer(tokenizer)
    language = _check_language(language)
    name, user = resolve_name_or_path(
        name_or_path,
        "name_or_path",
        tuple(CORPUS_NAMES),
        what="corpus",
        hint="or a file path",
        accept_dir=True,
    )
    options: dict[str, Any] = {
        "lowercase": lowercase,
        "max_tokens": max_tokens,
        "tokenizer": tokenizer,
    }
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
        _check_file_format(fmt, path)
        # read as published: no normalisation (see normalize above)
        return Corpus(name, path, format=fmt, **options, language=language or "en")
    assert user is not None
    p = user
    options.update(normalize=normalize, language=language)
    if p.is_dir() or (fmt == "folder" and not p.exists()):
        files = resolve_dir_files(
            p, CORPUS_FILE_SUFFIXES, name="name_or_path", what="corpus text files"
        )
        fmt = "folder" if fmt == "marked" else fmt
        return Corpus(p.name, p, files=files, format=fmt, **options)
    _check_file_format(fmt, p)
    path = resolve_file(p, name="name_or_path")
    stem = path.name.split(".")[0]
    return Corpus(stem, path, format=fmt, **options)
