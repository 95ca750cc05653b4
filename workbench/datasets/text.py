"""The tokenizer and the Gutenberg corpora as token streams."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from workbench._validation import check_bool, check_int

from ._common import (
    check_name_or_path,
    data_dir,
    fail,
    file_sha256,
    iter_lines,
    resolve_file,
    shared_data_dir,
)

__all__ = ["TOKEN_PATTERN", "tokenize", "Document", "Corpus", "load_corpus", "CORPUS_NAMES"]

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


class Corpus:
    """A raw-text corpus read lazily as a stream of tokenized documents.

    File format: UTF-8 text, optionally gzip-compressed. A line ``@@DOC<TAB>idx<TAB>title``
    starts a new document; text before the first marker (or a file without markers) forms one
    document titled with the file name. Every iteration re-reads the file (streaming, memory
    bounded by the largest document).

    Attributes
    ----------
    name : str
        ``"1M"``, ``"5M"``, ``"25M"`` or the file stem of a user file.
    path : Path
    lowercase : bool
    max_tokens : int or None
        Stop after this many tokens (the last document is cut).

    Iterating over a file that holds no token at all raises :class:`DataFormatError`.
    """

    def __init__(
        self, name: str, path: Path, *, lowercase: bool = True, max_tokens: int | None = None
    ) -> None:
        self.name = name
        self.path = path
        self.lowercase = check_bool(lowercase, "lowercase")
        self.max_tokens: int | None = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
        self._sha256: str | None = None
        self._n_documents: int | None = None
        self._n_tokens: int | None = None

    def __repr__(self) -> str:
        return (
            f"Corpus(name={self.name!r}, path='{self.path}', lowercase={self.lowercase}, "
            f"max_tokens={self.max_tokens})"
        )

    @property
    def sha256(self) -> str:
        """sha256 of the corpus file (computed once)."""
        if self._sha256 is None:
            self._sha256 = file_sha256(self.path)
        return self._sha256

    def iter_documents(self) -> Iterator[Document]:
        """Yield :class:`Document` objects in file order."""
        budget = self.max_tokens
        if budget == 0:
            return
        lower = self.lowercase
        title = self.path.name
        buf: list[str] = []
        seen_text = False
        n_tokens = 0

        def flush() -> Document:
            toks = _findall(("\n".join(buf)).lower() if lower else "\n".join(buf))
            return Document(title, toks)

        for lineno, line in iter_lines(self.path):
            if line.startswith("@@DOC"):
                if not line.startswith(DOC_MARKER):
                    raise fail(
                        self.path, lineno, "document marker must be '@@DOC<TAB>idx<TAB>title'"
                    )
                if buf or seen_text:
                    doc = flush()
                    n_tokens += len(doc.tokens)
                    if budget is not None:
                        if len(doc.tokens) >= budget:
                            yield Document(doc.title, doc.tokens[:budget])
                            return
                        budget -= len(doc.tokens)
                    yield doc
                parts = line.split("\t", 2)
                title = parts[2] if len(parts) == 3 else parts[-1]
                buf = []
                seen_text = True
            else:
                buf.append(line)
        if buf or seen_text:
            doc = flush()
            n_tokens += len(doc.tokens)
            if n_tokens == 0:
                raise fail(self.path, None, "no word tokens in the file")
            if budget is not None and len(doc.tokens) > budget:
                doc = Document(doc.title, doc.tokens[:budget])
            yield doc
        else:
            raise fail(self.path, None, "no word tokens in the file")

    def __iter__(self) -> Iterator[Document]:
        return self.iter_documents()

    def tokens(self) -> Iterator[str]:
        """Yield every token of the corpus in order (across documents)."""
        for doc in self.iter_documents():
            yield from doc.tokens

    @property
    def n_documents(self) -> int:
        """Number of documents (counted once; respects ``max_tokens``)."""
        if self._n_documents is None:
            self._count()
        assert self._n_documents is not None
        return self._n_documents

    @property
    def n_tokens(self) -> int:
        """Number of tokens (counted once by a pass over the file)."""
        if self._n_tokens is None:
            self._count()
        assert self._n_tokens is not None
        return self._n_tokens

    def _count(self) -> None:
        n_docs = n_tok = 0
        for doc in self.iter_documents():
            n_docs += 1
            n_tok += len(doc.tokens)
        self._n_documents, self._n_tokens = n_docs, n_tok


def load_corpus(
    name_or_path: str | os.PathLike[str] = "1M",
    *,
    lowercase: bool = True,
    max_tokens: int | None = None,
) -> Corpus:
    """Open a corpus as a lazy :class:`Corpus` (nothing is read until iterated).

    Parameters
    ----------
    name_or_path : {"1M", "5M", "25M"} or path
        Bundled Gutenberg samples (1.0M / 5.0M whitespace tokens) or the 25M sample read from
        :func:`shared_data_dir` (benchmarks only; not bundled), or a user text / ``.gz`` file.
    lowercase : bool
        Lowercase tokens (default).
    max_tokens : int, optional
        Truncate the stream after this many tokens.

    Raises
    ------
    ValueError
        Unknown corpus name (the message lists the valid names), ``max_tokens`` < 0.
    TypeError
        ``max_tokens`` not an integer (e.g. the string ``'10'``), ``lowercase`` not a bool.
    FileNotFoundError, IsADirectoryError
        Missing file, or a folder given.
    DataFormatError
        Empty file; while iterating: undecodable bytes, truncated gzip, a bad ``@@DOC`` marker,
        no token at all (file and line in the message).
    """
    key = check_name_or_path(name_or_path, "name_or_path")
    lowercase = check_bool(lowercase, "lowercase")
    max_tokens = check_int(max_tokens, "max_tokens", low=0, allow_none=True)
    if not isinstance(name_or_path, os.PathLike) and key.upper() in CORPUS_NAMES:
        name = key.upper()
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
    p = Path(key).expanduser()
    if not isinstance(name_or_path, os.PathLike) and p.suffix == "" and not p.exists():
        raise ValueError(
            f"unknown corpus {key!r}; valid names: {', '.join(CORPUS_NAMES)} (or a file path)"
        )
    path = resolve_file(p, name="name_or_path")
    stem = path.name.split(".")[0]
    return Corpus(stem, path, lowercase=lowercase, max_tokens=max_tokens)
