"""Word-similarity graphs over a vocabulary from lexical resources (prior knowledge).

Builds the undirected graphs of §5.1 of Osborne, Narayan and Cohen (2016) as
``scipy.sparse`` adjacency matrices aligned with a vocabulary:

* WordNet: an edge if one word is a synonym, hypernym or hyponym of the other, on base
  forms (WordNet's ``morphy``), :func:`wordnet_graph`;
* PPDB: an edge if one word is a paraphrase of the other (the PPDB-XL lexicon of the
  retrofitting package), :func:`ppdb_graph`;
* FrameNet: an edge if the two words (base forms) evoke a common frame,
  :func:`framenet_graph`;
* any ``word -> neighbours`` mapping, :func:`graph_from_lexicon`.

Words are matched exactly (case-sensitive) except for WordNet and FrameNet, whose indexes
are lower-case: there a word is looked up lower-cased. Two vocabulary words that share a
base form (``dog``/``dogs``) are not linked unless ``link_inflections=True`` (on base
forms they are one node, and a graph has no self-loops).

The term adjacency of a lexicon is :func:`workbench.lexicons.lexicon_adjacency` (the one
builder of an adjacency from a ``word -> neighbours`` lexicon). The lexicon *views* of
:mod:`workbench.lexicons._views` (WordNet synset membership, PPDB adjacency, FrameNet
membership) are word x context matrices for multiview learning; the similarity graphs here
add hypernym/hyponym edges and base-form matching and are what CCA with prior knowledge and
retrofitting consume.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from nltk.corpus.reader import WordNetCorpusReader
from nltk.corpus.reader.wordnet import Synset

from workbench._validation import check_array, check_bool, check_int
from workbench.datasets import load_framenet_frames, load_lexicon, load_wordnet

from ._adjacency import lexicon_adjacency

logger = logging.getLogger(__name__)

__all__ = [
    "LexiconGraph",
    "LEXICON_GRAPHS",
    "graph_from_lexicon",
    "wordnet_graph",
    "wordnet_relations",
    "ppdb_graph",
    "framenet_graph",
    "lexicon_graph",
    "base_forms",
]

LEXICON_GRAPHS = ("wordnet", "ppdb", "framenet")
_WN_POS = ("n", "v", "a", "r")
WORDNET_RELATIONS = ("synonym", "hypernym", "hyponym")


@dataclass(frozen=True)
class LexiconGraph:
    """An undirected, unweighted similarity graph over a list of words.

    Parameters
    ----------
    name : str
        E.g. ``"wordnet"``.
    words : tuple of str
        Node labels (usually a vocabulary, in id order).
    adjacency : scipy.sparse matrix, shape (len(words), len(words))
        Symmetrised and binarised on construction; the diagonal is dropped.

    Attributes
    ----------
    index : dict
        word -> row.
    degree : ndarray
        Number of neighbours of each word.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> graph = LexiconGraph("toy", ("car", "auto", "bike"), sp.csr_matrix([[0, 1, 0], [0, 0, 0], [0, 0, 0]]))
    >>> graph.neighbors("auto"), graph.degree.tolist(), graph.n_edges
    (['car'], [1, 1, 0], 1)
    """

    name: str
    words: tuple[str, ...]
    adjacency: sp.csr_matrix
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        words = tuple(str(w) for w in self.words)
        if len(set(words)) != len(words):
            raise ValueError(f"LexiconGraph {self.name!r}: words must be unique")
        A = self.adjacency
        if not (sp.issparse(A) or isinstance(A, np.ndarray)):
            raise TypeError("adjacency must be a scipy.sparse matrix or a numpy array")
        if A.shape != (len(words), len(words)):
            raise ValueError(
                f"LexiconGraph {self.name!r}: adjacency shape {A.shape} does not match "
                f"{len(words)} words"
            )
        A = sp.csr_matrix(check_array(A, "adjacency", ndim=2, accept_sparse=True))
        A = ((abs(A) + abs(A.T)) > 0).astype(np.float64).tocsr()
        A.setdiag(0)
        A.eliminate_zeros()
        A.sort_indices()
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "adjacency", A)
        object.__setattr__(self, "index", {w: i for i, w in enumerate(words)})

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    @property
    def degree(self) -> np.ndarray:
        return np.diff(self.adjacency.indptr)

    @property
    def n_edges(self) -> int:
        """Number of undirected edges."""
        return int(self.adjacency.nnz // 2)

    def neighbors(self, word: str) -> list[str]:
        """Neighbours of ``word`` (sorted); ``KeyError`` naming the word if it is not a node."""
        if word not in self.index:
            raise KeyError(f"{word!r} is not a word of graph {self.name!r}")
        i = self.index[word]
        A = self.adjacency
        return sorted(self.words[j] for j in A.indices[A.indptr[i] : A.indptr[i + 1]])

    def coverage(self, words: Iterable[str]) -> float:
        """Fraction of ``words`` that have at least one neighbour."""
        ws = list(words)
        if not ws:
            return 0.0
        deg = self.degree
        return float(np.mean([w in self.index and deg[self.index[w]] > 0 for w in ws]))

    def reindex(self, words: Sequence[str]) -> LexiconGraph:
        """The graph over ``words`` (e.g. another vocabulary): edges between words present
        in both; words unknown to this graph are isolated nodes."""
        words = tuple(str(w) for w in words)
        src = np.array([self.index.get(w, -1) for w in words], dtype=np.int64)
        ok = np.flatnonzero(src >= 0)
        P = sp.csr_matrix((np.ones(ok.size), (ok, src[ok])), shape=(len(words), len(self.words)))
        return LexiconGraph(self.name, words, (P @ self.adjacency @ P.T).tocsr())

    def to_dict(self) -> dict[str, set[str]]:
        """Adjacency as ``word -> set of neighbours`` (words with neighbours only)."""
        A = self.adjacency
        return {
            self.words[i]: {self.words[j] for j in A.indices[A.indptr[i] : A.indptr[i + 1]]}
            for i in np.flatnonzero(np.diff(A.indptr) > 0)
        }


# ----------------------------------------------------------------------------- helpers


def _word_list(words: Any) -> list[str]:
    """``words`` as a list of str; a single string is refused (it would be split into letters)."""
    if isinstance(words, (str, bytes)) or not hasattr(words, "__iter__"):
        raise TypeError(f"words must be a sequence of words, got {words!r}")
    return [str(w) for w in words]


def base_forms(word: str, wordnet: WordNetCorpusReader, *, include_word: bool = True) -> set[str]:
    """WordNet base forms of ``word`` (lower-cased) for every part of speech via ``morphy``.

    ``include_word`` adds the lower-cased word itself (so a word that is not in WordNet
    still matches itself in a lexicon).

    Examples
    --------
    >>> from workbench.datasets import load_wordnet
    >>> sorted(base_forms("dogs", load_wordnet())), sorted(base_forms("ran", load_wordnet()))
    (['dog', 'dogs'], ['ran', 'run'])
    """
    w = word.lower()
    out = {w} if include_word else set()
    for pos in _WN_POS:
        try:
            b = wordnet.morphy(w, pos)
        except Exception:  # noqa: BLE001 - nltk raises odd errors on odd strings
            b = None
        if b:
            out.add(b)
    return out


def _keys_matrix(
    words: Sequence[str], keys: Sequence[set[str]], term_index: dict[str, int]
) -> sp.csr_matrix:
    rows, cols = [], []
    for i, ks in enumerate(keys):
        for k in ks:
            j = term_index.get(k)
            if j is not None:
                rows.append(i)
                cols.append(j)
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(words), len(term_index)))


def graph_from_lexicon(
    words: Sequence[str],
    lexicon: Mapping[str, Iterable[str]],
    *,
    name: str = "lexicon",
    wordnet: WordNetCorpusReader | None = None,
    use_base_forms: bool = False,
    link_inflections: bool = False,
) -> LexiconGraph:
    """Similarity graph over ``words`` from a ``term -> neighbour terms`` mapping.

    Parameters
    ----------
    words : sequence of str
        The vocabulary (node order).
    lexicon : mapping
        ``term -> iterable of terms`` (symmetrised here; self-loops dropped).
    name : str
    wordnet : WordNetCorpusReader, optional
        Needed with ``use_base_forms`` (default: :func:`workbench.datasets.load_wordnet`).
    use_base_forms : bool, default False
        Match a word through its WordNet base forms (and itself, lower-cased) instead of
        exactly.
    link_inflections : bool, default False
        With base forms, also link two words that share a base form.

    Returns
    -------
    LexiconGraph

    Notes
    -----
    With :math:`K` the word x term key incidence and :math:`S` the symmetrised term
    adjacency, :math:`A = [K S K^\\top > 0]` with the diagonal removed (and the pairs with
    :math:`K K^\\top > 0` removed unless ``link_inflections``).

    Examples
    --------
    >>> graph = graph_from_lexicon(["car", "auto", "bike"], {"car": ["auto"]})
    >>> graph.adjacency.toarray()
    array([[0., 1., 0.],
           [1., 0., 0.],
           [0., 0., 0.]])
    """
    if not isinstance(lexicon, Mapping):
        raise TypeError(
            f"lexicon must be a mapping term -> iterable of terms, got {type(lexicon).__name__}"
        )
    use_base_forms = check_bool(use_base_forms, "use_base_forms")
    link_inflections = check_bool(link_inflections, "link_inflections")
    words = _word_list(words)
    if use_base_forms:
        if wordnet is None:
            wordnet = load_wordnet()
        keys = [base_forms(w, wordnet) for w in words]
    else:
        keys = [{w} for w in words]
    needed = set().union(*keys) if keys else set()
    # the keys the lexicon knows (as an entry or a neighbour): other keys link nothing, and
    # two words sharing only such a key are not inflections of each other here
    present: set[str] = set()
    for t, nbrs in lexicon.items():
        if t in needed:
            present.add(t)
        if isinstance(nbrs, Iterable) and not isinstance(nbrs, str):
            present.update(u for u in nbrs if u in needed)
    terms = sorted(present)
    term_index = {t: i for i, t in enumerate(terms)}
    S = lexicon_adjacency(terms, lexicon, symmetric=True)
    K = _keys_matrix(words, keys, term_index)
    A = (K @ S @ K.T).tocsr()
    A.data[:] = 1.0
    if use_base_forms and not link_inflections:
        same = (K @ K.T).tocsr()
        same.data[:] = 1.0
        A = (A - A.multiply(same)).tocsr()
    elif use_base_forms and link_inflections:
        same = (K @ K.T).tocsr()
        A = ((A + same) > 0).astype(np.float64).tocsr()
    A.eliminate_zeros()
    g = LexiconGraph(name, tuple(words), A)
    logger.info(
        "%s graph: %d words, %d edges, %.1f%% of words connected",
        name,
        len(words),
        g.n_edges,
        100.0 * float(np.mean(g.degree > 0)) if len(words) else 0.0,
    )
    return g


def wordnet_relations(
    wordnet: WordNetCorpusReader,
    *,
    relations: Sequence[str] = WORDNET_RELATIONS,
    terms: Iterable[str] | None = None,
    _force_api: bool = False,
) -> dict[str, set[str]]:
    """``lemma -> related lemmas`` from WordNet (lower-cased lemma names, ``_`` for spaces).

    ``relations`` ⊆ {"synonym", "hypernym", "hyponym"}: lemmas of the same synset; lemmas
    of a direct hypernym synset; lemmas of a direct hyponym synset (instance relations are
    not included). ``terms`` restricts the keys (faster for a vocabulary).

    The WordNet database files (``data.noun`` ...) are parsed directly in one pass when the
    reader can open them (much faster than building nltk synset objects); otherwise nltk's
    synset API gives the same relation.

    Parameters
    ----------
    wordnet : nltk WordNetCorpusReader
        From :func:`workbench.datasets.load_wordnet`.
    relations : sequence of {"synonym", "hypernym", "hyponym"}
        The relations that link two lemmas.
    terms : iterable of str, optional
        Only these lemmas as keys (all lemmas when None).

    Returns
    -------
    dict
        ``lemma -> set of related lemmas`` (a lemma is never related to itself).

    References
    ----------
    G. A. Miller (1995). WordNet: a lexical database for English. CACM 38(11).

    Examples
    --------
    >>> from workbench.datasets import load_wordnet
    >>> wn = load_wordnet()
    >>> rel = wordnet_relations(wn, relations=("synonym",), terms={"car", "dog"})
    >>> sorted(rel), sorted(rel["car"])[:4]
    (['car', 'dog'], ['auto', 'automobile', 'cable_car', 'elevator_car'])
    >>> "canine" in wordnet_relations(wn, relations=("hypernym",), terms={"dog"})["dog"]
    True
    """
    if isinstance(relations, str):
        raise TypeError(
            f"relations must be a sequence of relation names, not a string ({relations!r}); "
            f"e.g. ({relations!r},)"
        )
    bad = set(relations) - set(WORDNET_RELATIONS)
    if bad or not relations:
        raise ValueError(
            f"relations must be a non-empty subset of {WORDNET_RELATIONS}, got {relations!r}"
        )
    out: dict[str, set[str]] = {}

    def related_of(syn: Synset) -> set[str]:
        related: set[str] = set()
        if "synonym" in relations:
            related.update(x.lower() for x in syn.lemma_names())
        if "hypernym" in relations:
            for h in syn.hypernyms():
                related.update(x.lower() for x in h.lemma_names())
        if "hyponym" in relations:
            for h in syn.hyponyms():
                related.update(x.lower() for x in h.lemma_names())
        return related

    if hasattr(wordnet, "open") and not _force_api:
        try:
            return _relations_from_data_files(wordnet, relations, terms)
        except (OSError, ValueError, IndexError) as exc:  # pragma: no cover - odd readers
            logger.info("WordNet data files not parsable (%s); using the nltk API", exc)
    if terms is None:
        for syn in wordnet.all_synsets():
            related = related_of(syn)
            for lem in syn.lemma_names():
                lem = lem.lower()
                out.setdefault(lem, set()).update(related - {lem})
        return out
    for term in sorted(set(terms)):
        seen = set()
        for lemma in wordnet.lemmas(term):
            syn = lemma.synset()
            if syn.name() in seen:
                continue
            seen.add(syn.name())
            out.setdefault(term, set()).update(related_of(syn) - {term})
    return out


_ADJ_MARKER = re.compile(r"\([a-z]+\)$")


def _relations_from_data_files(
    wordnet: WordNetCorpusReader, relations: Sequence[str], terms: Iterable[str] | None
) -> dict[str, set[str]]:
    """Parse WordNet's ``data.*`` files: synset lemmas and @ (hypernym) / ~ (hyponym) pointers."""
    lemmas: dict[tuple[str, int], list[str]] = {}
    pointers: list[tuple[tuple[str, int], str, tuple[str, int]]] = []
    for pos, fname in (
        ("n", "data.noun"),
        ("v", "data.verb"),
        ("a", "data.adj"),
        ("r", "data.adv"),
    ):
        with wordnet.open(fname) as fh:
            for line in fh:
                if not line or line.startswith(" "):
                    continue  # licence header
                parts = line.split(" | ", 1)[0].split()
                key = (pos, int(parts[0]))
                n_words = int(parts[3], 16)
                names = [_ADJ_MARKER.sub("", parts[4 + 2 * i]).lower() for i in range(n_words)]
                lemmas[key] = names
                at = 4 + 2 * n_words
                n_ptr = int(parts[at])
                for p in range(n_ptr):
                    sym, off, tpos = parts[at + 1 + 4 * p : at + 4 + 4 * p]
                    if sym in ("@", "~"):
                        pointers.append((key, sym, ("a" if tpos == "s" else tpos, int(off))))
    keep = None if terms is None else set(terms)
    related: dict[tuple[str, int], set[str]] = {}
    if "synonym" in relations:
        for key, names in lemmas.items():
            related[key] = set(names)
    for src, sym, tgt in pointers:
        if (sym == "@" and "hypernym" in relations) or (sym == "~" and "hyponym" in relations):
            related.setdefault(src, set()).update(lemmas.get(tgt, ()))
    out: dict[str, set[str]] = {}
    for key, names in lemmas.items():
        rel = related.get(key)
        if not rel:
            continue
        for lem in names:
            if keep is not None and lem not in keep:
                continue
            out.setdefault(lem, set()).update(rel - {lem})
    return out


def wordnet_graph(
    words: Sequence[str],
    *,
    wordnet: WordNetCorpusReader | None = None,
    relations: Sequence[str] = WORDNET_RELATIONS,
    link_inflections: bool = False,
) -> LexiconGraph:
    """WordNet graph: an edge if one word's base form is a synonym, hypernym or hyponym of
    the other's (§5.1 of Osborne et al. 2016). Matching is case-insensitive (WordNet's
    index is lower-case).

    Parameters
    ----------
    words : sequence of str
        The graph's vertices, in order.
    wordnet : nltk WordNetCorpusReader, optional
        Default: :func:`workbench.datasets.load_wordnet`.
    relations : sequence of {"synonym", "hypernym", "hyponym"}
        See :func:`wordnet_relations`.
    link_inflections : bool
        Also link words with the same base form (e.g. ``runs`` and ``ran``).

    Returns
    -------
    LexiconGraph

    References
    ----------
    D. Osborne, S. Narayan, S. B. Cohen (2016). Encoding prior knowledge with eigenword
    embeddings. TACL 4.

    Examples
    --------
    >>> graph = wordnet_graph(["car", "automobile", "dog", "canine", "cat", "runs"])
    >>> graph.neighbors("car"), graph.neighbors("dog"), graph.n_edges
    (['automobile'], ['canine'], 2)
    """
    words = _word_list(words)
    if wordnet is None:
        wordnet = load_wordnet()
    keys = set().union(*(base_forms(w, wordnet) for w in words)) if len(words) else set()
    lex = wordnet_relations(wordnet, relations=relations, terms=keys)
    return graph_from_lexicon(
        words, lex, name="wordnet", wordnet=wordnet, use_base_forms=True,
        link_inflections=link_inflections,
    )  # fmt: skip


def ppdb_graph(
    words: Sequence[str],
    *,
    lexicon: Mapping[str, Iterable[str]] | None = None,
    use_base_forms: bool = False,
    wordnet: WordNetCorpusReader | None = None,
) -> LexiconGraph:
    """PPDB graph: an edge if one word is a paraphrase of the other (PPDB-XL lexicon of the
    retrofitting package, ``load_lexicon("ppdb")``). PPDB lists inflected forms, so words
    are matched exactly by default.

    Examples
    --------
    The bundled PPDB-XL lexicon by default; a small paraphrase lexicon here:

    >>> graph = ppdb_graph(["car", "auto", "automobile", "bike"],
    ...                    lexicon={"car": ["auto"], "automobile": ["car"]})
    >>> graph.neighbors("car"), graph.degree.tolist()
    (['auto', 'automobile'], [2, 1, 1, 0])
    """
    if lexicon is None:
        lexicon = load_lexicon("ppdb")
    return graph_from_lexicon(
        words, lexicon, name="ppdb", use_base_forms=use_base_forms, wordnet=wordnet
    )


def framenet_graph(
    words: Sequence[str],
    *,
    frames: Mapping[str, Iterable[str]] | None = None,
    use_base_forms: bool = True,
    wordnet: WordNetCorpusReader | None = None,
    link_inflections: bool = False,
    max_frame_size: int | None = None,
) -> LexiconGraph:
    """FrameNet graph: an edge if the two words (base forms) evoke a common frame.

    ``frames`` is ``frame -> lemmas`` (default :func:`workbench.datasets.load_framenet_frames`,
    lower-cased lemmas). ``max_frame_size`` optionally skips huge frames.

    Examples
    --------
    The bundled FrameNet frames by default; two frames here:

    >>> frames = {"Posture": ["sit", "stand"], "Self_motion": ["run"]}
    >>> graph = framenet_graph(["sit", "stand", "run"], frames=frames, use_base_forms=False)
    >>> graph.neighbors("sit"), graph.degree.tolist()
    (['stand'], [1, 1, 0])
    """
    use_base_forms = check_bool(use_base_forms, "use_base_forms")
    link_inflections = check_bool(link_inflections, "link_inflections")
    max_frame_size = check_int(max_frame_size, "max_frame_size", low=1, allow_none=True)
    words = _word_list(words)
    if frames is None:
        frames = load_framenet_frames()
    if use_base_forms:
        if wordnet is None:
            wordnet = load_wordnet()
        keys = [base_forms(w, wordnet) for w in words]
    else:
        keys = [{w.lower()} for w in words]
    term_index: dict[str, int] = {}
    rows, cols = [], []
    frame_names = sorted(frames)
    for f, fname in enumerate(frame_names):
        members = {str(x).lower() for x in frames[fname]}
        if max_frame_size is not None and len(members) > max_frame_size:
            continue
        for lem in members:
            rows.append(term_index.setdefault(lem, len(term_index)))
            cols.append(f)
    F = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(term_index), len(frame_names)))
    K = _keys_matrix(words, keys, term_index)
    WF = (K @ F).tocsr()
    WF.data[:] = 1.0
    A = (WF @ WF.T).tocsr()
    A.data[:] = 1.0
    if not link_inflections:
        same = (K @ K.T).tocsr() if use_base_forms else sp.identity(len(words), format="csr")
        same.data[:] = 1.0
        A = (A - A.multiply(same)).tocsr()
    A.eliminate_zeros()
    g = LexiconGraph("framenet", tuple(words), A)
    logger.info("framenet graph: %d words, %d edges", len(words), g.n_edges)
    return g


def lexicon_graph(name: str, words: Sequence[str], **kwargs: Any) -> LexiconGraph:
    """Build the graph ``name`` in {"wordnet", "ppdb", "framenet"} over ``words``.

    Examples
    --------
    >>> graph = lexicon_graph("ppdb", ["car", "auto"], lexicon={"car": ["auto"]})
    >>> graph.name, graph.words, graph.n_edges
    ('ppdb', ('car', 'auto'), 1)
    """
    key = str(name).lower()
    if key == "wordnet":
        return wordnet_graph(words, **kwargs)
    if key == "ppdb":
        return ppdb_graph(words, **kwargs)
    if key == "framenet":
        return framenet_graph(words, **kwargs)
    raise ValueError(f"unknown lexicon graph {name!r}; expected one of {LEXICON_GRAPHS}")
