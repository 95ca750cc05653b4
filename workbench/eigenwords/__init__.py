"""Eigenwords (CCA word embeddings) and CCA with prior knowledge.

Implements the two-view CCA word embeddings of Dhillon et al. (2015) ("eigenwords") as
described in §3 of Osborne, Narayan and Cohen (2016), and their CCA with prior knowledge
(Figure 3 of that paper): a local Laplacian over token pairs within ``N`` positions adds
``alpha``-weighted word/context counts for pairs of tokens whose words are adjacent in a
lexicon graph. Everything is computed from token id streams; the one-hot matrices ``W``
(pivot words) and ``C`` (contexts) are never materialised (except by
:func:`one_hot_views`, a reference for small examples and tests).

Also here: the exact Laplacian formulation of §4.1 (:func:`lemma1_laplacian`,
:func:`laplacian_cca`, :func:`token_laplacian`) used to check Lemma 1 and the
smallest-vs-largest singular vector choice of §4.2, and graph-only embeddings (Table 2 of
the paper, :func:`graph_embeddings`).

The SVDs can use :func:`lanczos_svd` (block Lanczos with full reorthogonalization), which
converges to the same subspace as ARPACK.
The experiment of notebook 06 (its settings, every embedding of its tables scored in parallel
jobs, the tests against eigenwords and the Discussion) is the study
:mod:`workbench.studies.eigenwords`.

Conventions
-----------
Token streams are 1-d integer arrays of word ids in ``[0, V)`` with ``-1`` for
out-of-vocabulary tokens, plus ``doc_starts`` (offsets of the documents; ``None`` means
one document). Out-of-vocabulary tokens keep their position (they count in distances)
but are never a pivot, a context word or a member of a graph pair. Windows never cross
document boundaries. Context column ``slot * V + w`` holds context word ``w`` at slot
``slot``, slots ordered ``-k, ..., -1, +1, ..., +k``.
"""

from ._counts import (
    CooccurrenceCounts,
    chunk_documents,
    count_contexts,
    count_prior_pairs,
    similarity_laplacian_counts,
)
from ._lanczos import lanczos_svd
from ._laplacian import (
    GraphEmbeddingResult,
    LaplacianCCAResult,
    graph_embeddings,
    laplacian_cca,
    lemma1_laplacian,
    one_hot_views,
    token_laplacian,
)
from ._svd import CCAPrior, Eigenwords, EigenwordsResult, eigenwords_svd

__all__ = [
    "CooccurrenceCounts",
    "EigenwordsResult",
    "LaplacianCCAResult",
    "GraphEmbeddingResult",
    "Eigenwords",
    "CCAPrior",
    "count_contexts",
    "count_prior_pairs",
    "similarity_laplacian_counts",
    "chunk_documents",
    "eigenwords_svd",
    "one_hot_views",
    "token_laplacian",
    "lemma1_laplacian",
    "laplacian_cca",
    "graph_embeddings",
    "lanczos_svd",
]
