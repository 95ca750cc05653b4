"""Document-term matrices in a joint multilingual term space, log(tf)-idf weighting, book splits.

Vocabulary selection and weighting follow Platt, Toutanova & Yih (2010), section 3.2 and
eqs. (4), (5), (8): per language, the ``n_drop`` most frequent training terms are removed and the
next ``n_terms`` kept; the per-language term lists are merged into ONE joint term space in which a
surface form selected in several languages (names such as "abraham") has a single column.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from workbench._validation import check_array, check_bool, check_int

__all__ = [
    "TermSpace",
    "BookSplit",
    "build_term_space",
    "count_matrix",
    "log_tf_idf",
    "joint_log_tf_idf",
    "split_books",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class TermSpace:
    """A joint term space over several languages, with idf weights from training documents.

    Attributes
    ----------
    terms : tuple of str
        Column labels of every document-term matrix.
    languages : tuple of str
    language_columns : dict of str -> ndarray of int
        The columns selected for each language (a shared surface form appears in several).
    idf : ndarray of float, shape (n_terms,)
        :math:`\\log_2(n / d_j)`, ``n`` training documents (aligned tuples), ``d_j`` the number
        of training tuples in which term ``j`` occurs in any language (eq. 5).
    n_documents : int
        Number of training tuples ``n``.
    """

    terms: tuple[str, ...]
    languages: tuple[str, ...]
    language_columns: dict[str, np.ndarray]
    idf: np.ndarray
    n_documents: int
    index: dict[str, int] = field(repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.index:
            object.__setattr__(self, "index", {w: i for i, w in enumerate(self.terms)})

    def __len__(self) -> int:
        return len(self.terms)

    def check_language(self, language: str) -> None:
        """Raise ``ValueError`` naming the known languages if ``language`` is not one of them."""
        if language not in self.language_columns:
            raise ValueError(
                f"unknown language {language!r}; this term space has {list(self.languages)}"
            )

    def language_mask(self, language: str) -> np.ndarray:
        """Boolean mask of the columns selected for ``language``."""
        self.check_language(language)
        mask = np.zeros(len(self.terms), dtype=bool)
        mask[self.language_columns[language]] = True
        return mask


def _check_docs(docs: Sequence[Sequence[str]], language: str, allow_empty: bool) -> None:
    if isinstance(docs, str) or not isinstance(docs, Sequence):
        raise TypeError(f"documents of {language!r} must be a list of token lists")
    for i, d in enumerate(docs):
        if isinstance(d, str) or not isinstance(d, Sequence):
            raise TypeError(
                f"document {i} of {language!r} must be a list of tokens, got {type(d).__name__}"
            )
        if not allow_empty and len(d) == 0:
            raise ValueError(f"document {i} of {language!r} is empty (no tokens)")


def build_term_space(
    documents: Mapping[str, Sequence[Sequence[str]]],
    *,
    n_drop: int = 50,
    n_terms: int = 5000,
) -> TermSpace:
    """Select terms per language and merge them into a joint term space with idf weights.

    Parameters
    ----------
    documents : mapping language -> list of token lists
        Aligned training documents (``documents[lang][i]`` are translations of each other); at
        least two languages.
    n_drop : int, default 50
        Most frequent terms (by training token count) dropped per language (paper: 50).
    n_terms : int, default 5000
        Terms kept per language after the dropped ones (paper: 20,000).

    Returns
    -------
    TermSpace
        Columns ordered by language, then by decreasing frequency; a term already present from an
        earlier language is not added twice.
    """
    if not isinstance(documents, Mapping):
        raise TypeError("documents must be a mapping language -> list of token lists")
    langs = tuple(documents)
    if len(langs) < 2:
        raise ValueError(f"need documents in at least two languages, got {list(langs)}")
    n_drop = check_int(n_drop, "n_drop", low=0)
    n_terms = check_int(n_terms, "n_terms", low=1)
    lengths = {lang: len(documents[lang]) for lang in langs}
    if len(set(lengths.values())) != 1:
        raise ValueError(f"misaligned document lists: number of documents per language {lengths}")
    n = lengths[langs[0]]
    if n == 0:
        raise ValueError("no training documents")
    terms: list[str] = []
    index: dict[str, int] = {}
    language_columns: dict[str, np.ndarray] = {}
    for lang in langs:
        _check_docs(documents[lang], lang, allow_empty=False)
        counts: Counter[str] = Counter()
        for d in documents[lang]:
            counts.update(d)
        ranked = sorted(counts, key=lambda w: (-counts[w], w))
        chosen = ranked[n_drop : n_drop + n_terms]
        cols = []
        for w in chosen:
            if w not in index:
                index[w] = len(terms)
                terms.append(w)
            cols.append(index[w])
        language_columns[lang] = np.asarray(cols, dtype=np.int64)
        logger.info("term space: %s keeps %d of %d terms", lang, len(chosen), len(counts))
    space = TermSpace(
        terms=tuple(terms),
        languages=langs,
        language_columns=language_columns,
        idf=np.ones(len(terms)),
        n_documents=n,
        index=index,
    )
    counts_list = [count_matrix(space, documents[lang], lang) for lang in langs]
    present = sum((c > 0).astype(np.int64) for c in counts_list)
    df = np.asarray((present > 0).sum(axis=0)).ravel()
    idf = np.log2(n / np.maximum(df, 1))
    return TermSpace(
        terms=space.terms,
        languages=langs,
        language_columns=language_columns,
        idf=idf,
        n_documents=n,
        index=index,
    )


def count_matrix(
    space: TermSpace,
    documents: Sequence[Sequence[str]],
    language: str,
    *,
    allow_empty: bool = False,
) -> sp.csr_matrix:
    """Raw term counts ``f_ij`` of ``documents`` (documents x joint terms) for one language.

    Only the columns selected for ``language`` receive counts; other tokens are ignored.

    Raises
    ------
    ValueError
        Unknown ``language``, or a document without any token (unless ``allow_empty``).
    """
    space.check_language(language)
    allow_empty = check_bool(allow_empty, "allow_empty")
    _check_docs(documents, language, allow_empty)
    allowed = space.language_mask(language)
    rows: list[int] = []
    cols: list[int] = []
    get = space.index.get
    for i, d in enumerate(documents):
        for w in d:
            j = get(w)
            if j is not None and allowed[j]:
                rows.append(i)
                cols.append(j)
    data = np.ones(len(rows))
    m = sp.csr_matrix((data, (rows, cols)), shape=(len(documents), len(space.terms)))
    m.sum_duplicates()
    return m


def log_tf_idf(space: TermSpace, counts: sp.spmatrix | sp.sparray) -> sp.csr_matrix:
    r"""Per-language log(tf)-idf weighting, eq. (8): :math:`D_{ij} = \log_2(f_{ij}+1)\,\log_2(n/d_j)`."""
    c = sp.csr_matrix(check_array(counts, "counts", ndim=2, accept_sparse=True))
    if c.nnz and c.data.min() < 0:
        raise ValueError(f"counts must be >= 0; got {int((c.data < 0).sum())} negative entries")
    if c.shape[1] != len(space.terms):
        raise ValueError(f"counts have {c.shape[1]} columns, the term space has {len(space.terms)}")
    out = c.copy()
    out.data = np.log2(out.data + 1.0) * space.idf[out.indices]
    out.eliminate_zeros()
    return out


def joint_log_tf_idf(
    space: TermSpace, counts_list: Sequence[sp.spmatrix | sp.sparray]
) -> sp.csr_matrix:
    r"""Concatenated-document weighting of CL-LSI, eq. (5): :math:`\log_2(\sum_m f^m_{ij}+1)\log_2(n/d_j)`."""
    if len(counts_list) == 0:
        raise ValueError("need at least one count matrix")
    shapes = {c.shape for c in counts_list}
    if len(shapes) != 1:
        raise ValueError(f"misaligned count matrices: shapes {sorted(shapes)}")
    checked = [
        check_array(c, f"counts_list[{m}]", ndim=2, accept_sparse=True)
        for m, c in enumerate(counts_list)
    ]
    total = sp.csr_matrix(checked[0])
    for c in checked[1:]:
        total = total + sp.csr_matrix(c)
    return log_tf_idf(space, total)


@dataclass(frozen=True)
class BookSplit:
    """A train/dev/test assignment of books.

    Attributes
    ----------
    train, dev, test : tuple of str
        Book ids in canonical order.
    rule : str
        How the assignment was made (for the notebook's documentation).
    """

    train: tuple[str, ...]
    dev: tuple[str, ...]
    test: tuple[str, ...]
    rule: str

    def part_of(self, book: str) -> str:
        """``"train"``, ``"dev"`` or ``"test"`` for ``book`` (KeyError if unassigned)."""
        for name in ("train", "dev", "test"):
            if book in getattr(self, name):
                return name
        raise KeyError(f"book {book!r} is in no part of the split")

    def masks(self, books: Sequence[str]) -> dict[str, np.ndarray]:
        """Boolean document masks ``{"train", "dev", "test"}`` for per-document book ids."""
        arr = np.asarray(books, dtype=object)
        return {
            name: np.isin(arr, np.asarray(getattr(self, name), dtype=object))
            for name in ("train", "dev", "test")
        }


def split_books(
    books: Sequence[str], divisions: Mapping[str, str], *, period: int = 5
) -> BookSplit:
    """Fixed, deterministic book split in which every division occurs in train, dev and test.

    Within each division, books are taken in canonical order and numbered ``k = 0, 1, ...``;
    book ``k`` goes to *dev* if ``k % period == 1``, to *test* if ``k % period == 3`` and to
    *train* otherwise (about 60/20/20 by books). A division with fewer than 4 books has no test
    book (and fewer than 2 no dev book): the Bible's six traditional divisions all have >= 5.

    Parameters
    ----------
    books : sequence of str
        Book ids in canonical order (duplicates ignored: per-document lists are accepted).
    divisions : mapping book -> division
    period : int, default 5
        At least 4 (with a smaller period no book would go to *test*).
    """
    period = check_int(period, "period", low=4)
    seen: dict[str, None] = {}
    for b in books:
        seen.setdefault(b, None)
    missing = [b for b in seen if b not in divisions]
    if missing:
        raise ValueError(f"books without a division: {missing[:5]}")
    by_div: dict[str, list[str]] = {}
    for b in seen:
        by_div.setdefault(divisions[b], []).append(b)
    part: dict[str, str] = {}
    for members in by_div.values():
        for k, b in enumerate(members):
            part[b] = "dev" if k % period == 1 else "test" if k % period == 3 else "train"
    order = list(seen)
    return BookSplit(
        train=tuple(b for b in order if part[b] == "train"),
        dev=tuple(b for b in order if part[b] == "dev"),
        test=tuple(b for b in order if part[b] == "test"),
        rule=(
            f"within each division, books in canonical order k=0,1,...: k % {period} == 1 -> dev, "
            f"k % {period} == 3 -> test, otherwise train"
        ),
    )
