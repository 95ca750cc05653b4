"""Lexicon views for multiview learning: WordNet morphology / synonyms, PPDB, FrameNet, any graph.

Word x context :class:`workbench.views.View` matrices over a :class:`workbench.views.Vocabulary`
(the lexicon family of MVLSA's views): membership of a word in a group (a WordNet root or
synset, a FrameNet frame) or a word x word lexicon adjacency
(:func:`workbench.lexicons.lexicon_adjacency`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from nltk.corpus.reader import WordNetCorpusReader

from workbench._validation import check_bool, check_int
from workbench.datasets import load_framenet_frames, load_lexicon, load_wordnet
from workbench.views import View, Vocabulary, count_pairs

from ._adjacency import lexicon_adjacency
from ._graphs import _WN_POS

__all__ = [
    "LEXICON_KINDS",
    "lexicon_view",
    "morphology_view",
    "synonym_view",
    "graph_view",
    "membership_view",
]


def membership_view(
    groups: Mapping[str, Iterable[str]],
    vocab: Vocabulary,
    *,
    name: str,
    family: str,
    min_members: int = 1,
    binary: bool = True,
) -> View:
    """Word x group view: ``[Z]_{ig} = 1`` if word ``i`` belongs to group ``g`` (e.g. a frame).

    Groups with fewer than ``min_members`` in-vocabulary words are dropped (they cannot relate
    two words). With ``binary=False`` repeated memberships are counted.

    Examples
    --------
    >>> from workbench.views import Vocabulary
    >>> vocab = Vocabulary.from_words(["sit", "stand", "run"])
    >>> frames = {"Posture": ["sit", "stand"], "Self_motion": ["run"]}
    >>> view = membership_view(frames, vocab, name="framenet", family="framenet")
    >>> view.contexts, view.matrix.toarray()
    (('Posture', 'Self_motion'), array([[1., 0.],
           [1., 0.],
           [0., 1.]]))
    """
    min_members = check_int(min_members, "min_members", low=1)
    binary = check_bool(binary, "binary")
    rows: list[int] = []
    cols: list[int] = []
    labels: list[str] = []
    index = vocab.index
    for g in sorted(groups):
        members = [index[w] for w in groups[g] if w in index]
        if len(set(members)) < min_members or not members:
            continue
        c = len(labels)
        labels.append(str(g))
        rows.extend(members)
        cols.extend([c] * len(members))
    if not labels:
        raise ValueError(f"{name}: no group has >= {max(min_members, 1)} vocabulary words")
    m = count_pairs(np.asarray(rows), np.asarray(cols), len(vocab), len(labels))
    if binary:
        m.data[:] = 1.0
    return View(name, m, tuple(labels), np.diff(m.indptr) > 0, family, vocab,
                {"binary": binary, "min_members": min_members})  # fmt: skip


def graph_view(
    adjacency: Mapping[str, Iterable[str]],
    vocab: Vocabulary,
    *,
    name: str,
    family: str,
    symmetric: bool = True,
) -> View:
    """Word x word adjacency view of a lexicon graph (columns = the vocabulary).

    ``[Z]_{ij} = 1`` if ``j`` is listed as a neighbour of ``i`` (or vice versa when
    ``symmetric``); edges with an out-of-vocabulary end and self-loops are dropped. This is
    the "graph-only" use of a lexicon (e.g. the retrofitting PPDB / FrameNet graphs).

    Examples
    --------
    >>> from workbench.views import Vocabulary
    >>> vocab = Vocabulary.from_words(["car", "auto", "bike"])
    >>> view = graph_view({"car": ["auto"]}, vocab, name="ppdb", family="ppdb")
    >>> view.matrix.toarray(), view.observed
    (array([[0., 1., 0.],
           [1., 0., 0.],
           [0., 0., 0.]]), array([ True,  True, False]))
    """
    symmetric = check_bool(symmetric, "symmetric")
    r, c = lexicon_adjacency(vocab.words, adjacency, symmetric=symmetric).nonzero()
    if not r.size:
        raise ValueError(f"{name}: no edge between two vocabulary words")
    m = count_pairs(r, c, len(vocab), len(vocab))
    m.data[:] = 1.0
    return View(
        name, m, vocab.words, np.diff(m.indptr) > 0, family, vocab, {"symmetric": symmetric}
    )


def morphology_view(
    vocab: Vocabulary,
    *,
    wordnet: WordNetCorpusReader | None = None,
    derivational: bool = True,
    name: str = "morphology",
) -> View:
    """Word x morphological-root view from WordNet.

    Row ``i`` has a 1 in column ``r`` for every base form ``r`` that ``wordnet.morphy`` gives
    for word ``i`` under any part of speech (``dogs -> dog``, ``ran -> run``), and, with
    ``derivational``, for every derivationally related lemma of those base forms
    (``run -> runner``). Words sharing a root or a derivation share a column. The paper combined
    CatVar, morpha and morphy; only morphy (plus WordNet's derivational links) is bundled here.
    Contexts used by a single vocabulary word are dropped.

    Examples
    --------
    >>> from workbench.views import Vocabulary
    >>> view = morphology_view(Vocabulary.from_words(["run", "ran", "runner", "dog"]))
    >>> view.contexts
    ('run', 'runner', 'running', 'runny')
    >>> view.matrix.toarray()
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [1., 1., 0., 0.],
           [0., 0., 0., 0.]])
    """
    if wordnet is None:
        wordnet = load_wordnet()
    groups: dict[str, set[str]] = {}
    for w in vocab.words:
        roots = set()
        for pos in _WN_POS:
            b = wordnet.morphy(w, pos)
            if b is not None:
                roots.add(b)
        ctx = set(roots)
        if derivational:
            for b in roots:
                for lem in wordnet.lemmas(b):
                    for d in lem.derivationally_related_forms():
                        ctx.add(d.name().lower())
        for r in ctx:
            groups.setdefault(r, set()).add(w)
    return membership_view(groups, vocab, name=name, family="morphology", min_members=2)


def synonym_view(
    vocab: Vocabulary, *, wordnet: WordNetCorpusReader | None = None, name: str = "wordnet_synonyms"
) -> View:
    """Word x synset view: ``[Z]_{is} = 1`` if word ``i`` (through ``morphy``) is a lemma of synset ``s``.

    Synsets with fewer than two vocabulary words are dropped (they relate no pair).

    Examples
    --------
    >>> from workbench.views import Vocabulary
    >>> view = synonym_view(Vocabulary.from_words(["dog", "hound", "car", "automobile"]))
    >>> view.contexts
    ('cad.n.01', 'car.n.01')
    >>> view.matrix.toarray()
    array([[1., 0.],
           [1., 0.],
           [0., 1.],
           [0., 1.]])
    """
    if wordnet is None:
        wordnet = load_wordnet()
    groups: dict[str, set[str]] = {}
    for w in vocab.words:
        for s in wordnet.synsets(w):
            groups.setdefault(s.name(), set()).add(w)
    return membership_view(groups, vocab, name=name, family="synonyms", min_members=2)


LEXICON_KINDS = ("morphology", "synonyms", "ppdb", "framenet", "framenet_graph")


def lexicon_view(kind: str, vocab: Vocabulary, *, source: Any = None, **kwargs: Any) -> View:
    """Build a lexicon view by kind.

    Parameters
    ----------
    kind : {"morphology", "synonyms", "ppdb", "framenet", "framenet_graph"}
        ``morphology`` / ``synonyms``: WordNet (:func:`morphology_view`, :func:`synonym_view`;
        ``source`` = a WordNet reader, default :func:`workbench.datasets.load_wordnet`).
        ``ppdb``: PPDB-XL paraphrase graph, word x word (:func:`graph_view`, ``source`` = an
        adjacency dict, default ``load_lexicon("ppdb")``). ``framenet``: word x frame from the
        FrameNet lexical units (``source`` = frame -> lemmas, default
        :func:`workbench.datasets.load_framenet_frames`), as in the paper.
        ``framenet_graph``: the retrofitting FrameNet graph (``load_lexicon("framenet")``).
    vocab : Vocabulary
    **kwargs
        Passed to the underlying builder.

    Examples
    --------
    >>> from workbench.views import Vocabulary
    >>> vocab = Vocabulary.from_words(["car", "auto", "automobile", "bike"])
    >>> view = lexicon_view("ppdb", vocab, source={"car": ["auto", "automobile"]})
    >>> view.name, view.family, view.shape
    ('ppdb', 'ppdb', (4, 4))
    >>> view.matrix.toarray()
    array([[0., 1., 1., 0.],
           [1., 0., 0., 0.],
           [1., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """
    if kind == "morphology":
        return morphology_view(vocab, wordnet=source, **kwargs)
    if kind == "synonyms":
        return synonym_view(vocab, wordnet=source, **kwargs)
    if kind in ("ppdb", "framenet_graph"):
        if source is None:
            source = load_lexicon("ppdb" if kind == "ppdb" else "framenet")
        kwargs.setdefault("name", kind)
        return graph_view(source, vocab, family=kind.split("_")[0], **kwargs)
    if kind == "framenet":
        if source is None:
            source = load_framenet_frames()
        kwargs.setdefault("name", "framenet")
        return membership_view(source, vocab, family="framenet", **kwargs)
    raise ValueError(f"unknown lexicon kind {kind!r}; expected one of {LEXICON_KINDS}")
