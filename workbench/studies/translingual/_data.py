"""The data of notebook 07: aligned chapters (documents) and verses (segments) with a split.

:func:`prepare_bible` reads the bundled KJV and Reina-Valera 1909 and splits them by book
(:func:`~workbench.crosslingual.documents.split_books`); :func:`prepare_parallel` reads a
user's aligned line files (the ``PARALLEL`` parameter, :func:`workbench.datasets.load_parallel`):
its documents of 20 lines take the place of chapters, its lines the place of verses, and its
split in file order (80 / 10 / 10 %) the place of the book split; :func:`prepare` chooses from
the settings. The vocabulary and idf come from the training chapters.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench._validation import check_int
from workbench.crosslingual import (
    BookSplit,
    TermSpace,
    build_term_space,
    count_matrix,
    log_tf_idf,
    split_books,
)
from workbench.datasets import (
    BIBLE_DIVISIONS,
    ParallelCorpus,
    load_parallel,
    load_parallel_bible,
)
from workbench.datasets.parallel import DOCUMENT_SIZE, SPLIT_FRACTIONS

from ._settings import ExperimentConfig

__all__ = ["BibleData", "prepare", "prepare_bible", "prepare_parallel"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class BibleData:
    """Chapters of two aligned Bible translations as documents, with a book split.

    Attributes
    ----------
    ids : list of (book, chapter)
    books, divisions : ndarray of str (per chapter)
    languages : tuple of str
        ``("en", "es")``.
    tokens : dict language -> list of token lists (chapters)
    verse_tokens : dict language -> list of token lists (verses of the training books)
    split : BookSplit
    parts : dict "train"/"dev"/"test" -> ndarray of chapter indices
    space : TermSpace
        Built from the training chapters.
    counts, weighted : dict language -> csr (all chapters x joint terms)
        Raw counts and log(tf)-idf (eq. 8).
    verse_ids : list of (book, chapter, verse)
        The verses of the dev and test books (the verse-level evaluation's items).
    verse_part : ndarray of str
        ``"dev"`` or ``"test"`` per verse of ``verse_ids``.
    verse_counts, verse_weighted : dict language -> csr (those verses x joint terms)
        Counts and log(tf)-idf with the training chapters' idf; a verse may be empty.
    halves : dict language -> (csr, csr)
        Counts of every chapter's first ``ceil(n / 2)`` verses and of its other verses (all
        chapters x joint terms; a half may be empty): the comparable-document condition pairs
        one language's first half with the other's second half.
    """

    ids: list[tuple[str, int]]
    books: np.ndarray
    divisions: np.ndarray
    languages: tuple[str, ...]
    tokens: dict[str, list[list[str]]]
    verse_tokens: dict[str, list[list[str]]]
    split: BookSplit
    parts: dict[str, np.ndarray]
    space: TermSpace
    counts: dict[str, sp.csr_matrix]
    weighted: dict[str, sp.csr_matrix] = field(repr=False)
    verse_ids: list[tuple[str, int, int]] = field(repr=False, default_factory=list)
    verse_part: np.ndarray = field(repr=False, default_factory=lambda: np.array([], dtype=object))
    verse_counts: dict[str, sp.csr_matrix] = field(repr=False, default_factory=dict)
    verse_weighted: dict[str, sp.csr_matrix] = field(repr=False, default_factory=dict)
    halves: dict[str, tuple[sp.csr_matrix, sp.csr_matrix]] = field(repr=False,
                                                                   default_factory=dict)  # fmt: skip
    name: str = "Bible (KJV / RV1909)"
    labelled: bool = True

    def summary(self) -> pd.DataFrame:
        """Chapters, books, divisions and verses per part."""
        rows = []
        for name, idx in self.parts.items():
            rows.append(
                {
                    "part": name,
                    "books": len(getattr(self.split, name)),
                    "chapters": len(idx),
                    "divisions": len(set(self.divisions[idx])),
                    "verses": len(self.verse_tokens[self.languages[0]])
                    if name == "train"
                    else int(np.sum(self.verse_part == name)),
                }
            )
        return pd.DataFrame(rows)


def prepare_bible(
    *,
    n_drop: int = 50,
    n_terms: int = 5000,
    translations: tuple[str, str] = ("KJV", "RV1909"),
) -> BibleData:
    """Load, tokenize and split the parallel Bible; build the term space and matrices."""
    n_drop = check_int(n_drop, "n_drop", low=0)
    n_terms = check_int(n_terms, "n_terms", low=1)
    corpus = load_parallel_bible("verse", translations)
    books = [str(v[0]) for v in corpus.ids]
    split = split_books(list(dict.fromkeys(books)), BIBLE_DIVISIONS)
    return _prepare(corpus, tuple(translations), split, BIBLE_DIVISIONS, n_drop=n_drop,
                    n_terms=n_terms, name="Bible (KJV / RV1909)", labelled=True)  # fmt: skip


def prepare_parallel(
    paths: Sequence[str | os.PathLike[str]], *, n_drop: int = 50, n_terms: int = 5000
) -> BibleData:
    """A user's aligned texts as the experiment's data (the ``PARALLEL`` parameter).

    ``paths`` are two aligned line files ``[source, target]`` or one folder of ``<stem>.<lang>``
    pairs, read by :func:`workbench.datasets.load_parallel`: its documents (20 consecutive
    lines) take the place of the Bible's chapters and its lines the place of verses. Without
    Bible books the split is load_parallel's: the documents in file order, the first 80 % train,
    the next 10 % dev, the last 10 % test (``split.rule`` says so). There are no book divisions,
    so the classification of Table 3 is not run (``labelled`` is False).
    """
    paths = [str(p) for p in paths]
    if len(paths) not in (1, 2):
        raise ValueError(
            "PARALLEL must be two aligned files [source, target] or one folder of pairs, "
            f"got {len(paths)} paths: {paths}"
        )
    n_drop = check_int(n_drop, "n_drop", low=0)
    n_terms = check_int(n_terms, "n_terms", low=1)
    corpus = load_parallel(*paths)
    parts = corpus.parts
    by = {p: tuple(d for d, q in parts.items() if q == p) for p in ("train", "dev", "test")}
    empty = [p for p, docs in by.items() if not docs]
    if empty:
        raise ValueError(
            f"PARALLEL={paths}: {len(parts)} documents of {DOCUMENT_SIZE} lines leave no "
            f"{' and no '.join(empty)} document (split {SPLIT_FRACTIONS} in file order); give "
            f"at least {int(np.ceil(1 / min(SPLIT_FRACTIONS[1:])))} documents "
            f"({DOCUMENT_SIZE * int(np.ceil(1 / min(SPLIT_FRACTIONS[1:])))} aligned lines)"
        )
    tr, dv, te = (int(round(100 * f)) for f in SPLIT_FRACTIONS)
    split = BookSplit(
        train=by["train"], dev=by["dev"], test=by["test"],
        rule=(f"documents of {DOCUMENT_SIZE} aligned lines in file order: the first {tr} % "
              f"train, the next {dv} % dev, the last {te} % test (load_parallel)"),
    )  # fmt: skip
    return _prepare(corpus, corpus.translations, split, None, n_drop=n_drop, n_terms=n_terms,
                    name=corpus.name, labelled=False)  # fmt: skip


def _prepare(
    corpus: ParallelCorpus,
    translations: tuple[str, ...],
    split: BookSplit,
    divisions: Mapping[str, str] | None,
    *,
    n_drop: int,
    n_terms: int,
    name: str,
    labelled: bool,
) -> BibleData:
    """Chapters (documents), the term space and the matrices of an aligned verse-level corpus."""
    langs = tuple(corpus.languages[t] for t in translations)
    if len(set(langs)) != len(langs) or not all(langs):
        langs = tuple(translations)
    verse_tok = {lang: corpus.tokens(t) for lang, t in zip(langs, translations)}
    chap_ids: list[tuple[str, int]] = []
    chap_of_verse = np.empty(len(corpus.ids), dtype=np.int64)
    index: dict[tuple[str, int], int] = {}
    for i, vid in enumerate(corpus.ids):
        key = (str(vid[0]), int(vid[1]))
        if key not in index:
            index[key] = len(chap_ids)
            chap_ids.append(key)
        chap_of_verse[i] = index[key]
    tokens: dict[str, list[list[str]]] = {lang: [[] for _ in chap_ids] for lang in langs}
    for lang in langs:
        for c, toks in zip(chap_of_verse.tolist(), verse_tok[lang]):
            tokens[lang][c].extend(toks)
    books = np.array([b for b, _ in chap_ids], dtype=object)
    divs = np.array([divisions[b] if divisions else "" for b in books], dtype=object)
    masks = split.masks(list(books))
    parts = {k: np.flatnonzero(v) for k, v in masks.items()}
    train = parts["train"]
    space = build_term_space(
        {lang: [tokens[lang][i] for i in train] for lang in langs},
        n_drop=n_drop,
        n_terms=n_terms,
    )
    counts = {lang: count_matrix(space, tokens[lang], lang) for lang in langs}
    weighted = {lang: log_tf_idf(space, counts[lang]) for lang in langs}
    verse_books = [str(v[0]) for v in corpus.ids]
    verse_train = np.array([b in set(split.train) for b in verse_books])
    verse_tokens = {
        lang: [t for t, keep in zip(verse_tok[lang], verse_train) if keep] for lang in langs
    }
    held_out = {b: p for p in ("dev", "test") for b in getattr(split, p)}
    keep = [i for i, b in enumerate(verse_books) if b in held_out]
    # verse ids are (book, chapter, verse)
    verse_ids = [(str(v[0]), int(v[1]), int(v[-1])) for v in (corpus.ids[i] for i in keep)]
    verse_part = np.array([held_out[verse_books[i]] for i in keep], dtype=object)
    verse_counts = {
        lang: count_matrix(space, [verse_tok[lang][i] for i in keep], lang, allow_empty=True)
        for lang in langs
    }
    verse_weighted = {lang: log_tf_idf(space, verse_counts[lang]) for lang in langs}
    n_verses = np.bincount(chap_of_verse, minlength=len(chap_ids))
    seen = np.zeros(len(chap_ids), dtype=np.int64)
    first = np.empty(len(chap_of_verse), dtype=bool)
    for i, c in enumerate(chap_of_verse.tolist()):
        first[i] = seen[c] < (n_verses[c] + 1) // 2
        seen[c] += 1
    halves = {}
    for lang in langs:
        parts_tok: tuple[list[list[str]], list[list[str]]] = ([[] for _ in chap_ids],
                                                              [[] for _ in chap_ids])  # fmt: skip
        for c, f, toks in zip(chap_of_verse.tolist(), first.tolist(), verse_tok[lang]):
            parts_tok[0 if f else 1][c].extend(toks)
        halves[lang] = (count_matrix(space, parts_tok[0], lang, allow_empty=True),
                        count_matrix(space, parts_tok[1], lang, allow_empty=True))  # fmt: skip
    logger.info(
        "%s: %d chapters (%s), %d joint terms, %d held-out verses",
        name,
        len(chap_ids),
        {k: len(v) for k, v in parts.items()},
        len(space),
        len(verse_ids),
    )
    return BibleData(
        ids=chap_ids,
        books=books,
        divisions=divs,
        languages=langs,
        tokens=tokens,
        verse_tokens=verse_tokens,
        split=split,
        parts=parts,
        space=space,
        counts=counts,
        weighted=weighted,
        verse_ids=verse_ids,
        verse_part=verse_part,
        verse_counts=verse_counts,
        verse_weighted=verse_weighted,
        halves=halves,
        name=name,
        labelled=labelled,
    )


def prepare(config: ExperimentConfig) -> BibleData:
    """The data of ``config``: the user's aligned texts (``config.data.parallel``,
    :func:`prepare_parallel`) or the bundled Bible (:func:`prepare_bible`)."""
    if not isinstance(config, ExperimentConfig):
        raise TypeError(
            "config must be an ExperimentConfig (workbench.studies.translingual.settings(size)), "
            f"got {type(config).__name__}"
        )
    if config.data.parallel:
        return prepare_parallel(config.data.parallel, n_drop=config.n_drop,
                                n_terms=config.n_terms)  # fmt: skip
    return prepare_bible(n_drop=config.n_drop, n_terms=config.n_terms)
