"""Dependency edges of CoNLL-U sentences and their count matrices (the kernel of the dependency views).

:func:`workbench.views.dependency_views` counts them over a treebank; on a Dask cluster each
worker counts its shard with the same function (:mod:`workbench.views._dask`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from numpy.typing import DTypeLike

from workbench.datasets import Sentence, Token, resolve_dir_files, resolve_file

from ._counting import count_pairs

__all__ = [
    "PAPER_RELATIONS",
    "RELATION_MAP",
    "CONLLU_FILE_SUFFIXES",
    "conllu_files",
    "relation_list",
    "dependency_counts",
]

#: The 21 relations of Rastogi et al. (2015, footnote 2), Stanford collapsed dependencies.
PAPER_RELATIONS: tuple[str, ...] = (
    "nsubj", "amod", "advmod", "rcmod", "dobj", "prep_of", "prep_in", "prep_to", "prep_on",
    "prep_for", "prep_with", "prep_from", "prep_at", "prep_by", "prep_as", "prep_between",
    "xsubj", "agent", "conj_and", "conj_but", "pobj",
)  # fmt: skip

#: How each paper relation is read off basic UD v2 trees (see :func:`dependency_views`).
RELATION_MAP: dict[str, str] = {
    "nsubj": "nsubj",
    "amod": "amod",
    "advmod": "advmod",
    "rcmod": "acl:relcl",
    "dobj": "obj",
    **{
        f"prep_{p}": f"nmod|obl (any subtype but nmod:poss) with a case child '{p}'"
        for p in ("of", "in", "to", "on", "for", "with", "from", "at", "by", "as", "between")
    },
    "xsubj": "approximation: nsubj of the governor of an xcomp, governed by the xcomp (enhanced UD nsubj:xsubj)",
    "agent": "obl:agent",
    "conj_and": "conj whose dependent has a cc child 'and'",
    "conj_but": "conj whose dependent has a cc child 'but'",
    "pobj": "no UD relation (prepositions are case dependents): inverted case edge, noun row x preposition column",
}
_PREP_BASE = ("nmod", "obl")
#: Files of a treebank directory given to :func:`dependency_views` (sorted by file name).
CONLLU_FILE_SUFFIXES = (".conllu", ".conllu.gz")


def _word(tok: Token, use_lemma: bool, lowercase: bool) -> str:
    w = tok.lemma if use_lemma and tok.lemma not in (None, "_") else tok.form
    return w.lower() if lowercase else w


def _sentence_edges(
    sent: Sentence, rels: set[str], use_lemma: bool, lowercase: bool
) -> Iterator[tuple[str, str, str]]:
    """Yield ``(relation, dependent_word, governor_word)`` for one sentence."""
    toks = {t.id: t for t in sent.tokens}
    children: dict[int, list[Token]] = {}
    for t in sent.tokens:
        children.setdefault(t.head, []).append(t)

    def w(t: Token) -> str:
        return _word(t, use_lemma, lowercase)

    for t in sent.tokens:
        h = toks.get(t.head)
        rel = t.deprel
        base = rel.split(":", 1)[0]
        if h is None:  # root or dangling head
            continue
        if rel in rels:  # direct UD relation name
            yield rel, w(t), w(h)
        for paper, ud in (("nsubj", "nsubj"), ("amod", "amod"), ("advmod", "advmod"),
                          ("rcmod", "acl:relcl"), ("dobj", "obj"), ("agent", "obl:agent")):  # fmt: skip
            if paper in rels and rel == ud and paper != ud:
                yield paper, w(t), w(h)
        if base in _PREP_BASE and rel not in ("nmod:poss", "obl:agent"):
            for c in children.get(t.id, ()):
                if c.deprel == "case":
                    name = f"prep_{c.form.lower()}"
                    if name in rels:
                        yield name, w(t), w(h)
        if base == "conj":
            for c in children.get(t.id, ()):
                if c.deprel == "cc":
                    name = f"conj_{c.form.lower()}"
                    if name in rels:
                        yield name, w(t), w(h)
        if rel == "case" and "pobj" in rels:
            yield "pobj", w(h), w(t)
        if rel == "xcomp" and "xsubj" in rels:
            for s in children.get(h.id, ()):
                if s.deprel in ("nsubj", "nsubj:pass"):
                    yield "xsubj", w(s), w(t)


def conllu_files(path: str | os.PathLike[str], name: str = "sentences") -> list[Path]:
    """A CoNLL-U file as ``[path]``, or the ``*.conllu`` / ``*.conllu.gz`` files of a folder.

    Files of a folder are sorted by file name; a folder without such a file raises
    ``IsADirectoryError``, a missing path ``FileNotFoundError``, an empty file
    :class:`~workbench.datasets.DataFormatError`.
    """
    if Path(path).expanduser().is_dir():
        return resolve_dir_files(path, CONLLU_FILE_SUFFIXES, name=name, what="CoNLL-U files")
    return [resolve_file(path, name=name)]


def _deprels(sentences: Iterable[Sentence]) -> Counter[str]:
    return Counter(t.deprel for s in sentences for t in s.tokens)


def relation_list(
    relations: Sequence[str] | str, deprels: Callable[[], Iterable[str]]
) -> list[str]:
    """The relations to build; ``deprels()`` gives the UD deprels found (only for ``"all"``)."""
    if isinstance(relations, str):
        if relations == "all":
            found = deprels()
            rel_list = sorted(r for r in found if r not in ("punct", "root"))
        elif relations == "paper":
            rel_list = list(PAPER_RELATIONS)
        else:
            rel_list = [relations]
    else:
        rel_list = list(relations)
    if not rel_list:
        raise ValueError("relations is empty")
    return rel_list


def dependency_counts(
    sentences: Iterable[Sentence],
    index: Mapping[str, int],
    rel_list: Sequence[str],
    *,
    use_lemma: bool = False,
    lowercase: bool = True,
    dtype: DTypeLike = np.float64,
) -> tuple[list[sp.csr_array], int]:
    """Edge count matrix of each relation of ``rel_list`` (rows and columns ``index``) and the
    number of sentences; what :func:`dependency_views` counts (on a worker: of one shard)."""
    rels = set(rel_list)
    rows: dict[str, list[int]] = {r: [] for r in rel_list}
    cols: dict[str, list[int]] = {r: [] for r in rel_list}
    n_sent = 0
    for sent in sentences:
        n_sent += 1
        for rel, dep, gov in _sentence_edges(sent, rels, use_lemma, lowercase):
            i = index.get(dep)
            j = index.get(gov)
            if i is not None and j is not None:
                rows[rel].append(i)
                cols[rel].append(j)
    n = len(index)
    mats = [
        count_pairs(
            np.asarray(rows[r], dtype=np.int64), np.asarray(cols[r], dtype=np.int64), n, n,
            dtype=dtype,
        )
        for r in rel_list
    ]  # fmt: skip
    return mats, n_sent
