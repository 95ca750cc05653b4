"""Bible translations (one verse a row) and chapter/verse-aligned parallel corpora."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd

from workbench._validation import check_choice

from ._common import bundled, fail, iter_lines, resolve_file, resolve_name_or_path
from .text import tokenize

logger = logging.getLogger(__name__)

__all__ = [
    "BIBLE_BOOKS",
    "BIBLE_DIVISIONS",
    "BIBLE_TRANSLATIONS",
    "load_bible",
    "ParallelCorpus",
    "load_parallel_bible",
]

#: translation -> (bundled file, ISO 639-1 language)
BIBLE_TRANSLATIONS: dict[str, tuple[str, str]] = {
    "KJV": ("parallel/engKJV2006eb.verses.tsv.gz", "en"),
    "RV1909": ("parallel/spaRV1909eb.verses.tsv.gz", "es"),
    "WEB": ("parallel/engWEB2015eb.verses.tsv.gz", "en"),
}

_DIVISIONS: tuple[tuple[str, str], ...] = (
    ("Law", "Gen Exod Lev Num Deut"),
    ("History", "Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth"),
    ("Wisdom/Poetry", "Job Ps Prov Eccl Song"),
    ("Prophets", "Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal"),
    ("Gospels/Acts", "Matt Mark Luke John Acts"),
    (
        "Epistles/Revelation",
        "Rom 1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet "
        "1John 2John 3John Jude Rev",
    ),
)

#: The 66 books of the Protestant canon, OSIS ids, in canonical order.
BIBLE_BOOKS: tuple[str, ...] = tuple(b for _, books in _DIVISIONS for b in books.split())
#: OSIS book id -> division (Law, History, Wisdom/Poetry, Prophets, Gospels/Acts,
#: Epistles/Revelation). WEB's deuterocanonical books are not in it.
BIBLE_DIVISIONS: dict[str, str] = {b: d for d, books in _DIVISIONS for b in books.split()}

_HEADER = ["book", "chapter", "verse", "text"]


def load_bible(translation: str | os.PathLike[str]) -> pd.DataFrame:
    """Load one Bible translation, one verse a row.

    Parameters
    ----------
    translation : {"KJV", "RV1909", "WEB"} or path
        Bundled translations (case-insensitive): King James (English, 31,102 verses),
        Reina-Valera 1909 (Spanish, same versification), World English Bible (English, 37,791
        verses including the deuterocanon). Or a user file (a ``pathlib.Path`` or a string
        with a ``/`` or a dot; a bare name that is also a file in the current folder is refused:
        write ``./KJV`` for the file), plain or ``.gz``, of tab-separated
        lines ``book<TAB>chapter<TAB>verse<TAB>text`` with an optional header line
        ``book chapter verse text``; chapter and verse are integers; text may be empty.

    Returns
    -------
    pandas.DataFrame
        Columns ``book`` (OSIS id), ``chapter`` (int), ``verse`` (int), ``text``, in file order;
        ``attrs["translation"]`` and ``attrs["language"]`` (``None`` for user files).

    Raises
    ------
    ValueError
        Unknown translation name (the message lists the valid ones).
    FileNotFoundError, IsADirectoryError
        Missing file, or a folder given.
    DataFormatError
        Empty file, a line without 4 fields, an empty book, a chapter / verse that is not an
        integer (chapter >= 1, verse >= 0), a duplicated verse (file and line in the message).

    Examples
    --------
    The bundled translations by name (``load_bible("KJV")``), or a file of the same layout:

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "genesis.tsv"
    ...     _ = path.write_text("Gen\\t1\\t1\\tIn the beginning God created the heaven.\\n"
    ...                         "Gen\\t1\\t2\\tAnd the earth was without form.\\n")
    ...     df = load_bible(path)
    >>> df
      book  chapter  verse                                     text
    0  Gen        1      1  In the beginning God created the heaven.
    1  Gen        1      2          And the earth was without form.
    """
    lang: str | None
    bundled_name, user = resolve_name_or_path(
        translation, "translation", tuple(BIBLE_TRANSLATIONS), what="Bible translation"
    )
    if bundled_name is not None:
        name = bundled_name
        rel, lang = BIBLE_TRANSLATIONS[name]
        path = bundled(rel)
    else:
        assert user is not None
        path = resolve_file(user, name="translation")
        name, lang = path.name.split(".")[0], None
    st = path.stat()
    cache_key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if cache_key in _CACHE:
        return _CACHE[cache_key].copy()
    books: list[str] = []
    chapters: list[int] = []
    verses: list[int] = []
    texts: list[str] = []
    seen: dict[tuple[str, int, int], int] = {}
    for lineno, line in iter_lines(path):
        if not line.strip():
            continue
        f = line.split("\t")
        if lineno == 1 and [x.strip().lower() for x in f] == _HEADER:
            continue
        if len(f) != 4:
            raise fail(path, lineno, f"expected 4 tab-separated fields, got {len(f)}")
        try:
            ch, vs = int(f[1]), int(f[2])
        except ValueError:
            raise fail(path, lineno, f"chapter/verse {f[1]!r}/{f[2]!r} are not integers") from None
        if not f[0].strip():
            raise fail(path, lineno, "empty book")
        if ch < 1 or vs < 0:
            raise fail(path, lineno, f"chapter {ch} / verse {vs}: need chapter >= 1 and verse >= 0")
        ident = (f[0], ch, vs)
        if ident in seen:
            raise fail(
                path, lineno, f"duplicated verse {f[0]} {ch}:{vs} (first on line {seen[ident]})"
            )
        seen[ident] = lineno
        books.append(f[0])
        chapters.append(ch)
        verses.append(vs)
        texts.append(f[3].strip())
    if not books:
        raise fail(path, None, "no verses found")
    df = pd.DataFrame({"book": books, "chapter": chapters, "verse": verses, "text": texts})
    df.attrs["translation"] = name
    df.attrs["language"] = lang
    df.attrs["path"] = str(path)
    if lang is not None:  # bundled translations are cached per process (copies are returned)
        _CACHE[cache_key] = df
        return df.copy()
    return df


_CACHE: dict[tuple[str, int, int], pd.DataFrame] = {}


@dataclass(frozen=True)
class ParallelCorpus:
    """Aligned documents of several translations.

    Attributes
    ----------
    level : {"chapter", "verse"}
    ids : list of tuple
        ``(book, chapter)`` or ``(book, chapter, verse)`` per document, in canonical order.
    books : list of str
        Book (OSIS id) of each document; ``BIBLE_DIVISIONS[book]`` gives its division.
    texts : dict
        Translation -> list of raw document texts aligned with ``ids`` (a chapter is its verses
        joined with spaces; a verse may be an empty string).
    languages : dict
        Translation -> ISO language code (``"en"``, ``"es"``).
    dropped : dict
        Translation -> number of its units left out by ``align="intersect"`` (all 0 when strict).
    parts : dict
        Data without Bible books (:func:`~workbench.datasets.load_parallel`): document (the
        "book" of ``ids``) -> ``"train"``, ``"dev"`` or ``"test"``; empty for the Bible.
    lowercase : bool
        Default of :meth:`tokens`.
    name : str
        Name of the data (``""`` for the Bible; the pair's name for :func:`load_parallel`).
    """

    level: str
    ids: list[tuple[str, int] | tuple[str, int, int]]
    books: list[str]
    texts: dict[str, list[str]]
    languages: dict[str, str]
    dropped: dict[str, int] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)
    lowercase: bool = True
    name: str = ""

    @property
    def translations(self) -> tuple[str, ...]:
        return tuple(self.texts)

    def __len__(self) -> int:
        return len(self.ids)

    def tokens(self, translation: str, *, lowercase: bool | None = None) -> list[list[str]]:
        """Documents of one translation tokenized with :func:`tokenize`.

        ``lowercase`` defaults to the corpus' ``lowercase`` (True for the Bible).
        """
        lower = self.lowercase if lowercase is None else lowercase
        return [tokenize(t, lowercase=lower) for t in self.texts[translation]]


def load_parallel_bible(
    level: Literal["chapter", "verse"] = "chapter",
    translations: tuple[str, ...] | list[str] = ("KJV", "RV1909"),
    *,
    align: Literal["strict", "intersect"] = "strict",
) -> ParallelCorpus:
    """Align Bible translations at chapter or verse level.

    KJV and RV1909 share versification and align one to one (31,102 verses, 1,189 chapters).
    WEB has a different verse set (deuterocanon, some verses split/merged), so combining it with
    the others needs ``align="intersect"``: only ids present in every translation are kept and
    the number dropped per translation is logged (warning) and stored in ``dropped``.
    Note: at chapter level, intersecting on chapter ids keeps chapters whose verse sets still
    differ slightly; use ``level="verse"`` for strict sentence alignment.

    Parameters
    ----------
    level : {"chapter", "verse"}
    translations : sequence of str
        At least two names from ``BIBLE_TRANSLATIONS`` (or user file paths, see :func:`load_bible`).
    align : {"strict", "intersect"}
        ``"strict"`` (default) raises ``ValueError`` if the id sets differ.

    Returns
    -------
    ParallelCorpus

    Examples
    --------
    The bundled KJV and Reina-Valera 1909 by default; two files of :func:`load_bible` here:

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     en, es = Path(tmp) / "en.tsv", Path(tmp) / "es.tsv"
    ...     _ = en.write_text("Gen\\t1\\t1\\tIn the beginning\\nGen\\t1\\t2\\tAnd the earth\\n")
    ...     _ = es.write_text("Gen\\t1\\t1\\tEn el principio\\nGen\\t1\\t2\\tY la tierra\\n")
    ...     par = load_parallel_bible("verse", (en, es))
    >>> par.ids
    [('Gen', 1, 1), ('Gen', 1, 2)]
    >>> par.texts["es"]
    ['En el principio', 'Y la tierra']
    """
    check_choice(level, "level", ("chapter", "verse"))
    check_choice(align, "align", ("strict", "intersect"))
    if isinstance(translations, (str, os.PathLike)) or not isinstance(translations, (tuple, list)):
        raise TypeError(
            "translations must be a list or tuple of at least two translation names or paths, "
            f"got {translations!r}"
        )
    if len(translations) < 2:
        raise ValueError(
            f"translations must name at least two translations, got {list(translations)!r}"
        )
    units: dict[str, dict[tuple, str]] = {}
    languages: dict[str, str] = {}
    for tr in translations:
        df = load_bible(tr)
        name = str(df.attrs["translation"])
        if name in units:
            raise ValueError(
                f"translations lists {name!r} twice ({list(translations)!r}); each translation "
                "(or file name) may appear once"
            )
        languages[name] = str(df.attrs["language"] or "")
        if level == "verse":
            keyed = {
                (b, int(c), int(v)): t
                for b, c, v, t in zip(df["book"], df["chapter"], df["verse"], df["text"])
            }
        else:
            grouped: dict[tuple, list[str]] = {}
            for b, c, t in zip(df["book"], df["chapter"], df["text"]):
                grouped.setdefault((b, int(c)), []).append(t)
            keyed = {k: " ".join(x for x in v if x) for k, v in grouped.items()}
        units[name] = keyed
    names = list(units)
    common = set(units[names[0]])
    for n in names[1:]:
        common &= set(units[n])
    dropped = {n: len(units[n]) - len(common) for n in names}
    if any(dropped.values()):
        msg = f"Bible translations {names} do not share {level} ids: " + ", ".join(
            f"{n} has {d} not in all others" for n, d in dropped.items()
        )
        if align == "strict":
            raise ValueError(msg + "; pass align='intersect' to keep only the common ids")
        logger.warning("%s; keeping the %d common ids", msg, len(common))
    first = units[names[0]]
    ids = [k for k in first if k in common]  # file order of the first translation
    return ParallelCorpus(
        level=level,
        ids=ids,
        books=[k[0] for k in ids],
        texts={n: [units[n][k] for k in ids] for n in names},
        languages=languages,
        dropped=dropped,
    )
