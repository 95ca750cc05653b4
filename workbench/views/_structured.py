"""Dependency-relation views (CoNLL-U) and bitext alignment views."""

from __future__ import annotations

import functools
import logging
import os
from collections import Counter
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from workbench._io import content_hash
from workbench._typing import PathLikeStr
from workbench._validation import check_bool, check_choice, check_int
from workbench.alignment import train_ibm1, viterbi_align
from workbench.datasets import Sentence, load_conllu, load_parallel_bible, tokenize

from . import _dask
from ._base import View, Vocabulary
from ._cooccurrence import BACKENDS, cached_matrices
from ._counting import count_pairs
from ._dependencies import (
    CONLLU_FILE_SUFFIXES,
    PAPER_RELATIONS,
    RELATION_MAP,
    _deprels,
    conllu_files,
    dependency_counts,
    relation_list,
)

logger = logging.getLogger(__name__)

__all__ = [
    "PAPER_RELATIONS",
    "RELATION_MAP",
    "CONLLU_FILE_SUFFIXES",
    "dependency_views",
    "bitext_view",
]


def dependency_views(
    sentences: Sequence[Sentence] | PathLikeStr,
    vocab: Vocabulary,
    relations: Sequence[str] | str = PAPER_RELATIONS,
    *,
    use_lemma: bool = False,
    lowercase: bool = True,
    min_edges: int = 1,
    cache: bool | str | os.PathLike[str] | None = False,
    backend: str = "local",
) -> list[View]:
    r"""One view per dependency relation: :math:`[Z_d]_{ij}` = times word ``j`` governed word ``i`` under ``d``.

    Parameters
    ----------
    sentences : sequence of Sentence, or path
        From :func:`workbench.datasets.load_conllu` (any CoNLL-U file: tokens with ``id, form,
        lemma, head, deprel``; multiword / empty nodes already skipped), or the path of a
        CoNLL-U file or of a folder of ``*.conllu`` / ``*.conllu.gz`` files (read in sorted
        file-name order, as one treebank).
    vocab : Vocabulary
        Rows (dependents) and columns (governors); edges with an out-of-vocabulary end are dropped.
    relations : sequence of str or "all"
        Paper relation names (default: the 21 of :data:`PAPER_RELATIONS`, mapped as below),
        and/or UD deprels used verbatim (e.g. ``"compound"``, ``"obl:tmod"``). ``"all"`` = every
        UD deprel occurring in ``sentences`` (except ``punct``, ``root``).
    use_lemma, lowercase : bool
        Word of a token: its lemma (else form), lower-cased.
    min_edges : int
        Relations with fewer in-vocabulary edges are dropped (logged).
    backend : {"local", "dask"}
        ``"dask"`` counts on the active ``dask.distributed`` Client: the files of a folder are
        read by the workers (one shard each), a list of sentences is cut into ranges scattered
        once; each shard's edge counts are summed by a tree reduction -- the same matrices as
        ``"local"`` (see :mod:`workbench.views._dask`; needs the ``scale`` extra).

    Returns
    -------
    list of View
        ``name = "dep_{relation}"``, family ``"dependency"``, ``meta = {"relation", "ud"}``.

    Notes
    -----
    The paper used Stanford *collapsed* dependencies from Annotated Gigaword; our data are
    basic UD v2 trees (EWT). Mapping (:data:`RELATION_MAP`):

    ==============  ==============================================================
    paper           UD v2
    ==============  ==============================================================
    nsubj, amod,    same name
    advmod
    rcmod           ``acl:relcl``
    dobj            ``obj``
    prep_X          ``nmod`` / ``obl`` (and subtypes, not ``nmod:poss``) whose dependent
                    has a ``case`` child with form X (UD attaches the preposition to
                    the noun, the collapsed relation skips it)
    xsubj           not in basic UD (enhanced ``nsubj:xsubj``); approximated by the
                    ``nsubj``/``nsubj:pass`` of an ``xcomp``'s governor, governed by the xcomp
    agent           ``obl:agent``
    conj_and/but    ``conj`` whose dependent has a ``cc`` child "and" / "but"
    pobj            no UD relation; the ``case`` edge inverted (noun row, preposition column)
    ==============  ==============================================================
    """
    use_lemma = check_bool(use_lemma, "use_lemma")
    lowercase = check_bool(lowercase, "lowercase")
    min_edges = check_int(min_edges, "min_edges", low=1)
    backend = check_choice(backend, "backend", BACKENDS)
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be a Vocabulary, got {type(vocab).__name__}")
    if backend == "dask":
        rel_list, mats, n_sent = _dask.dependency_counts(
            sentences, vocab, relations, use_lemma=use_lemma, lowercase=lowercase
        )
        mats = [m.astype(np.float64) for m in mats]
    else:
        sents: Sequence[Sentence]
        if isinstance(sentences, (str, os.PathLike)):
            sents = [s for f in conllu_files(sentences) for s in load_conllu(f)]
        else:
            sents = sentences
        rel_list = relation_list(relations, functools.partial(_deprels, sents))
        mats, n_sent = dependency_counts(
            sents, vocab.index, rel_list, use_lemma=use_lemma, lowercase=lowercase
        )
    if n_sent == 0:
        raise ValueError("no sentences given")
    views = []
    for rel, m in zip(rel_list, mats):
        n_edges = int(round(float(m.sum())))
        if n_edges < min_edges:
            logger.info("dependency relation %s: %d in-vocabulary edges, dropped", rel, n_edges)
            continue
        views.append(
            View(
                f"dep_{rel}",
                m,
                vocab.words,
                np.diff(m.indptr) > 0,
                "dependency",
                vocab,
                {"relation": rel, "ud": RELATION_MAP.get(rel, rel)},
            )
        )
    if not views:
        raise ValueError(
            f"no relation of {rel_list[:5]}... has an in-vocabulary edge in the {n_sent} sentences"
        )
    return views


def _tokenize_all(texts: Sequence[str], lowercase: bool) -> list[list[str]]:
    return [tokenize(t, lowercase=lowercase) for t in texts]


def bitext_view(
    vocab: Vocabulary,
    bitext: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] | None = None,
    *,
    translations: tuple[str, str] = ("KJV", "RV1909"),
    n_iter: int = 5,
    max_sentences: int | None = None,
    target_max_size: int | None = None,
    target_min_count: int = 1,
    lowercase: bool = True,
    name: str | None = None,
    cache: bool | str | os.PathLike[str] | None = False,
) -> View:
    r"""Bitext view: :math:`[Z]_{ij}` = times English word ``i`` was aligned to foreign word ``j``.

    Parameters
    ----------
    vocab : Vocabulary
        English rows.
    bitext : (source_sentences, target_sentences), optional
        Aligned token lists (source = English). Default: the verse-aligned Bible
        ``translations`` from :func:`workbench.datasets.load_parallel_bible` (31,102 verses of
        KJV and Reina-Valera 1909), tokenised with :func:`workbench.datasets.tokenize`.
    max_sentences : int, optional
        Use only the first ``max_sentences`` aligned sentences (verses), e.g. for quick runs.
    n_iter : int
        EM iterations of IBM Model 1 (:func:`workbench.alignment.train_ibm1`, with NULL).
    target_max_size, target_min_count : int
        Foreign context vocabulary (columns): most frequent foreign words.
    cache : bool or path
        Cache the matrix keyed by the bitext content and the parameters.

    Returns
    -------
    View
        Family ``"bitext"``, name ``"bitext_{target}"`` (``"bitext_RV1909"`` by default),
        columns = foreign words.

    Notes
    -----
    IBM Model 1 :math:`t(f\mid e)` is trained by EM on all tokens of the bitext; each foreign
    token is then linked to its Viterbi English word :math:`\arg\max_i t(f_j\mid e_i)`
    (:func:`workbench.alignment.viterbi_align`; NULL-aligned tokens are dropped) and links
    between in-vocabulary words are counted. The paper used PPDB's word-aligned bitexts in six
    languages; we have one (Spanish) and a much smaller corpus (~0.8M tokens a side).

    References
    ----------
    P. F. Brown et al. (1993). The mathematics of statistical machine translation.
    Computational Linguistics 19(2).
    """
    n_iter = check_int(n_iter, "n_iter", low=1)
    max_sentences = check_int(max_sentences, "max_sentences", low=1, allow_none=True)
    target_max_size = check_int(target_max_size, "target_max_size", low=1, allow_none=True)
    target_min_count = check_int(target_min_count, "target_min_count", low=1)
    lowercase = check_bool(lowercase, "lowercase")
    if bitext is None:
        par = load_parallel_bible(level="verse", translations=tuple(translations))
        src = _tokenize_all(par.texts[translations[0]], lowercase)
        tgt = _tokenize_all(par.texts[translations[1]], lowercase)
        label = translations[1]
    else:
        src_in, tgt_in = bitext
        if len(src_in) != len(tgt_in):
            raise ValueError(
                f"bitext sides differ in length: {len(src_in)} vs {len(tgt_in)} sentences"
            )
        src = [list(s) for s in src_in]
        tgt = [list(t) for t in tgt_in]
        label = "target"
    if max_sentences is not None:
        if max_sentences < 1:
            raise ValueError(f"max_sentences must be positive, got {max_sentences}")
        src, tgt = src[:max_sentences], tgt[:max_sentences]
    if not src:
        raise ValueError("the bitext is empty")
    if n_iter < 1:
        raise ValueError(f"n_iter must be >= 1, got {n_iter}")
    tcount: Counter[str] = Counter()
    for t in tgt:
        tcount.update(t)
    tvocab = Vocabulary.from_counts(tcount, max_size=target_max_size, min_count=target_min_count)
    if len(tvocab) == 0:
        raise ValueError("no target word passes target_min_count")
    params = {"kind": "bitext", "n_iter": n_iter, "max_sentences": max_sentences, "target_max_size": target_max_size,
              "target_min_count": target_min_count}  # fmt: skip

    def build() -> list[sp.csr_array]:
        model = train_ibm1(src, tgt, n_iter=n_iter)
        links = viterbi_align(model, src, tgt)
        rows: list[int] = []
        cols: list[int] = []
        eidx, fidx = vocab.index, tvocab.index
        for s, t, lk in zip(src, tgt, links):
            for i, j in lk:
                a = eidx.get(s[i])
                b = fidx.get(t[j])
                if a is not None and b is not None:
                    rows.append(a)
                    cols.append(b)
        if not rows:
            raise ValueError("no alignment link between in-vocabulary words")
        return [count_pairs(np.asarray(rows), np.asarray(cols), len(vocab), len(tvocab))]

    content = content_hash(vocab, tvocab, [" ".join(s) for s in src], [" ".join(t) for t in tgt])
    (m,) = cached_matrices(cache, content, params, ["bitext"], build)
    return View(
        name or f"bitext_{label}",
        m,
        tvocab.words,
        np.diff(m.indptr) > 0,
        "bitext",
        vocab,
        {**params, "translations": list(translations) if bitext is None else None},
    )
