"""Every lexicon graph and adjacency: WordNet, PPDB and FrameNet as graphs and as views.

The lexicon *files* are read by :mod:`workbench.datasets` (:func:`~workbench.datasets.load_lexicon`,
:func:`~workbench.datasets.load_framenet_frames`, :func:`~workbench.datasets.load_wordnet`);
everything built from them over a vocabulary lives here:

* :func:`lexicon_adjacency` -- the one 0/1 adjacency of a ``word -> neighbours`` lexicon over a
  word list (exact matching, directed or symmetric); used by the graphs, the graph views and
  retrofitting (:func:`workbench.retrofit.retrofit`);
* :class:`LexiconGraph` and its builders -- the similarity graphs of §5.1 of Osborne, Narayan
  & Cohen (2016) that CCA with prior knowledge (:mod:`workbench.eigenwords`) and retrofitting
  consume: :func:`wordnet_graph` (the one WordNet adjacency: synonyms, hypernyms, hyponyms on
  base forms, :func:`wordnet_relations`), :func:`ppdb_graph`, :func:`framenet_graph`, any
  mapping (:func:`graph_from_lexicon`), by name (:func:`lexicon_graph`);
* lexicon views for multiview learning (:class:`workbench.views.View` matrices, the lexicon
  family of MVLSA): :func:`lexicon_view` by kind (:data:`LEXICON_KINDS`),
  :func:`morphology_view`, :func:`synonym_view`, :func:`graph_view`, :func:`membership_view`.
"""

from __future__ import annotations

from ._adjacency import lexicon_adjacency
from ._graphs import (
    LEXICON_GRAPHS,
    WORDNET_RELATIONS,
    LexiconGraph,
    base_forms,
    framenet_graph,
    graph_from_lexicon,
    lexicon_graph,
    ppdb_graph,
    wordnet_graph,
    wordnet_relations,
)
from ._views import (
    LEXICON_KINDS,
    graph_view,
    lexicon_view,
    membership_view,
    morphology_view,
    synonym_view,
)

__all__ = [
    "lexicon_adjacency",
    "LexiconGraph",
    "LEXICON_GRAPHS",
    "WORDNET_RELATIONS",
    "base_forms",
    "graph_from_lexicon",
    "wordnet_graph",
    "wordnet_relations",
    "ppdb_graph",
    "framenet_graph",
    "lexicon_graph",
    "LEXICON_KINDS",
    "lexicon_view",
    "morphology_view",
    "synonym_view",
    "graph_view",
    "membership_view",
]
