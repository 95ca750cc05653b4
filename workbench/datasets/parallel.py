"""Aligned line files (one segment a line) as a :class:`ParallelCorpus` the Bible studies can use."""

from __future__ import annotations

import logging
import math
import os
import re
import unicodedata
from pathlib import Path

from workbench._validation import DataFormatError, check_bool, check_dir, check_int

from ._common import check_name_or_path, iter_lines, resolve_file
from .bible import ParallelCorpus
from .text import NORMALIZATIONS

logger = logging.getLogger(__name__)

__all__ = ["load_parallel", "parallel_name", "DOCUMENT_SIZE", "SPLIT_FRACTIONS"]

#: Consecutive segments (lines) forming one document of :func:`load_parallel`.
DOCUMENT_SIZE = 20
#: Fractions of the documents in train, dev and test (in file order).
SPLIT_FRACTIONS = (0.8, 0.1, 0.1)
_TEXT_SUFFIXES = (".txt", ".tsv")
_LANGUAGE = re.compile(r"^[a-z]{2,3}$")


def parallel_name(path: Path) -> tuple[str, str]:
    """``(name, language)`` of an aligned file: ``fake.en.tsv`` -> ``("fake.en", "en")``.

    ``.gz`` and then ``.txt`` / ``.tsv`` are dropped from the file name; the language is the
    last dotted part of what is left if it is 2 or 3 lowercase letters, else ``""``.
    """
    name = path.name
    if name.endswith(".gz"):
        name = name[:-3]
    for suffix in _TEXT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    last = name.rsplit(".", 1)[-1] if "." in name else ""
    return name, (last if _LANGUAGE.match(last) else "")


def _read_segments(path: Path, normalize: str | None) -> list[str]:
    out = []
    for _, line in iter_lines(path):
        text = line.strip()
        if normalize is not None and not text.isascii():
            text = unicodedata.normalize(normalize, text)  # type: ignore[arg-type]
        out.append(text)
    return out


def _folder_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """Files ``<stem>.<lang>`` of a folder paired by stem (two languages, sorted)."""
    by_lang: dict[str, dict[str, Path]] = {}
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if f.name.startswith(".") or not f.is_file():
            continue
        name, lang = parallel_name(f)
        if lang:
            by_lang.setdefault(lang, {})[name[: -len(lang) - 1]] = f
    if len(by_lang) != 2:
        found = ", ".join(sorted(by_lang)) or "none"
        raise FileNotFoundError(
            f"src {str(folder)!r} is a folder: it must hold aligned files <stem>.<lang> (e.g. "
            f"bible.en and bible.es) in exactly two languages; languages found: {found}"
        )
    (la, a), (lb, b) = sorted(by_lang.items())
    unmatched = sorted(set(a) ^ set(b))
    if unmatched:
        raise FileNotFoundError(
            f"src {str(folder)!r}: the files of {', '.join(unmatched)} have no counterpart in "
            f"the other language ({la} / {lb}); every <stem>.{la} needs a <stem>.{lb}"
        )
    return [(a[s], b[s]) for s in sorted(a)]


def load_parallel(
    src: str | os.PathLike[str],
    tgt: str | os.PathLike[str] | None = None,
    *,
    lowercase: bool = True,
    normalize: str | None = "NFC",
    name: str | None = None,
    document_size: int = DOCUMENT_SIZE,
    fractions: tuple[float, float, float] = SPLIT_FRACTIONS,
) -> ParallelCorpus:
    """Aligned line files (one segment a line, line ``i`` of one = line ``i`` of the other).

    The result is a :class:`ParallelCorpus` at ``level="segment"`` that reads like the Bible
    one of :func:`load_parallel_bible` at verse level: ``ids`` are ``(document, document
    number, line)``, ``books`` the documents, and ``parts`` says which documents are train /
    dev / test (the Bible's book split does not apply).

    Parameters
    ----------
    src, tgt : path
        The two files (plain or ``.gz``, UTF-8), e.g. ``bible.en`` and ``bible.es``. Or ``src``
        a folder (``tgt`` left out) of files ``<stem>.<lang>`` (optionally ``.txt`` / ``.gz``)
        in exactly two languages, paired by stem: the pairs are read in sorted stem order,
        the languages in sorted order, and no document spans two files.
    lowercase : bool
        Default of :meth:`ParallelCorpus.tokens`.
    normalize : {"NFC", "NFKC", None}
        Unicode normalisation of the text (default NFC; see :func:`load_corpus`).
    name : str, optional
        Name of the pair (``corpus.name``); default the common part of the two names.
    document_size : int
        Consecutive segments forming one document (default 20; the last one may be shorter).
    fractions : (train, dev, test)
        Split of the documents in file order: the first ``train`` share is train, then dev,
        then test (``round`` of the shares, train taking the rest; default 0.8 / 0.1 / 0.1).

    Returns
    -------
    ParallelCorpus
        ``texts`` and ``languages`` keyed by the file names without ``.txt`` / ``.tsv`` /
        ``.gz`` (``fake.en.tsv`` -> ``"fake.en"``), the language being the last part of that
        name if it is a 2-3 letter code (``"en"``), else ``""``. An empty line is kept as an
        empty segment (the alignment is by line number): an empty line on one side only is
        logged.

    Raises
    ------
    FileNotFoundError, IsADirectoryError
        A missing file, or a folder without two languages of paired files.
    DataFormatError
        An empty file, or files of different numbers of lines (both files and both counts in
        the message).
    ValueError
        Two files with the same name, bad ``normalize``, ``document_size`` or ``fractions``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     en, es = Path(tmp) / "tale.en", Path(tmp) / "tale.es"
    ...     _ = en.write_text("In the beginning\\nAnd the earth\\n")
    ...     _ = es.write_text("En el principio\\nY la tierra\\n")
    ...     par = load_parallel(en, es, document_size=1, fractions=(0.5, 0.5, 0.0))
    >>> par.translations, par.languages["tale.es"]
    (('tale.en', 'tale.es'), 'es')
    >>> par.ids, par.parts
    ([('d00001', 1, 1), ('d00002', 2, 2)], {'d00001': 'train', 'd00002': 'dev'})
    """
    lowercase = check_bool(lowercase, "lowercase")
    if normalize is not None and normalize not in NORMALIZATIONS:
        listed = ", ".join(repr(n) for n in NORMALIZATIONS)
        raise ValueError(f"normalize must be one of {listed}; got {normalize!r}")
    document_size = check_int(document_size, "document_size", low=1)
    shares = _check_fractions(fractions)
    check_name_or_path(src, "src")
    src_path = Path(src).expanduser()
    if tgt is None:
        if not src_path.is_dir():
            raise TypeError(
                f"load_parallel needs two aligned files (src, tgt), or src a folder of "
                f"<stem>.<lang> files; got only src={str(src_path)!r}"
            )
        pairs = _folder_pairs(check_dir(src_path, "src"))
        names = tuple(f"{src_path.name}.{parallel_name(f)[1]}" for f in pairs[0])
        langs = tuple(parallel_name(f)[1] for f in pairs[0])
    else:
        check_name_or_path(tgt, "tgt")
        pairs = [(resolve_file(src_path, name="src"), resolve_file(tgt, name="tgt"))]
        (na, la), (nb, lb) = parallel_name(pairs[0][0]), parallel_name(pairs[0][1])
        if na == nb:
            raise ValueError(
                f"src and tgt have the same name {na!r} ({pairs[0][0]}, {pairs[0][1]}); name the "
                "files after their language, e.g. bible.en and bible.es"
            )
        names, langs = (na, nb), (la, lb)
    texts: dict[str, list[str]] = {names[0]: [], names[1]: []}
    ids: list[tuple[str, int, int]] = []
    n_docs = 0
    for a, b in pairs:
        sa, sb = _read_segments(a, normalize), _read_segments(b, normalize)
        if len(sa) != len(sb):
            raise DataFormatError(
                f"aligned files differ in length: {a.name} has {len(sa)} lines, {b.name} has "
                f"{len(sb)} lines; line i of one must be the translation of line i of the "
                f"other [{a}, {b}]"
            )
        one_sided = sum(1 for x, y in zip(sa, sb) if bool(x) != bool(y))
        if one_sided:
            logger.info("%s / %s: %d lines empty on one side only, kept", a.name, b.name, one_sided)
        for start in range(0, len(sa), document_size):
            n_docs += 1
            doc = f"d{n_docs:05d}"
            ids.extend(
                (doc, n_docs, i + 1) for i in range(start, min(start + document_size, len(sa)))
            )
        texts[names[0]].extend(sa)
        texts[names[1]].extend(sb)
    n_dev = round(shares[1] * n_docs)
    n_test = round(shares[2] * n_docs)
    n_train = n_docs - n_dev - n_test
    parts = {
        f"d{k:05d}": ("train" if k <= n_train else "dev" if k <= n_train + n_dev else "test")
        for k in range(1, n_docs + 1)
    }
    return ParallelCorpus(
        level="segment",
        ids=list(ids),
        books=[i[0] for i in ids],
        texts=texts,
        languages=dict(zip(names, langs)),
        dropped={n: 0 for n in names},
        parts=parts,
        lowercase=lowercase,
        name=name or _common_name(names),
    )


def _common_name(names: tuple[str, ...]) -> str:
    """``bible`` for ``bible.en`` / ``bible.es``: the dotted parts both names start with."""
    parts = [n.split(".") for n in names]
    common = []
    for items in zip(*parts):
        if len(set(items)) != 1:
            break
        common.append(items[0])
    return ".".join(common) or "-".join(names)


def _check_fractions(fractions: object) -> tuple[float, float, float]:
    if isinstance(fractions, (tuple, list)) and len(fractions) == 3:
        if all(isinstance(f, (int, float)) and not isinstance(f, bool) for f in fractions):
            a, b, c = (float(f) for f in fractions)
            if all(0 <= v <= 1 for v in (a, b, c)) and math.isclose(a + b + c, 1.0):
                return a, b, c
    raise ValueError(
        "fractions must be three shares (train, dev, test) between 0 and 1 that sum to 1, "
        f"e.g. (0.8, 0.1, 0.1); got {fractions!r}"
    )
