"""Views for multiview learning (MVLSA): sparse word x context matrices over one vocabulary.

A :class:`View` is an ``N x d`` matrix whose row ``i`` belongs to word ``i`` of a shared
:class:`Vocabulary`, with context labels, a mask of observed rows and a family name. Builders:

* :func:`positional_views` / :func:`window_view` -- co-occurrence at fixed offsets / windows;
  ``backend="dask"`` counts a sharded corpus (:func:`shard_corpus`) on a ``dask.distributed``
  cluster, exactly as locally (:mod:`workbench.views._dask`; Dask itself is imported only
  when a Dask function runs);
* :func:`dependency_views` -- one view per dependency relation from CoNLL-U parses;
* :func:`bitext_view` -- English words x aligned Spanish words (IBM Model 1, KJV--RV1909);
* lexicon views (WordNet morphology / synonyms, PPDB, FrameNet) live in :mod:`workbench.lexicons`;
* :func:`embedding_view` -- any :class:`workbench.embeddings.WordVectors` aligned to the vocabulary;
* :func:`preprocess` -- :math:`f_j = n_j \\circ t_j` (identity / log / power, top-t columns).

:func:`check_views` is the one validator of multiview input used by every estimator.

References
----------
P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: representation learning via
generalized CCA. NAACL-HLT.
"""

from ._base import (
    DocumentSource,
    EncodedCorpus,
    TokenCorpus,
    View,
    Vocabulary,
    WordIndexed,
    check_views,
    iter_token_documents,
    view_statistics,
)
from ._cooccurrence import (
    BACKENDS,
    WINDOW_WEIGHTINGS,
    count_offset,
    count_pairs,
    encode_corpus,
    positional_views,
    views_cache_dir,
    vocabulary_and_encoding,
    window_view,
    window_weight,
)
from ._embedding import embedding_view
from ._preprocess import TRANSFORMS, PreprocessSpec, ppmi, preprocess, preprocess_views
from ._shards import CorpusShard, ShardedCorpus, shard_corpus
from ._structured import PAPER_RELATIONS, RELATION_MAP, bitext_view, dependency_views

__all__ = [
    "Vocabulary",
    "WordIndexed",
    "iter_token_documents",
    "EncodedCorpus",
    "DocumentSource",
    "TokenCorpus",
    "View",
    "check_views",
    "encode_corpus",
    "vocabulary_and_encoding",
    "count_offset",
    "count_pairs",
    "positional_views",
    "window_view",
    "window_weight",
    "WINDOW_WEIGHTINGS",
    "BACKENDS",
    "shard_corpus",
    "ShardedCorpus",
    "CorpusShard",
    "ppmi",
    "views_cache_dir",
    "PAPER_RELATIONS",
    "RELATION_MAP",
    "dependency_views",
    "bitext_view",
    "embedding_view",
    "TRANSFORMS",
    "PreprocessSpec",
    "preprocess",
    "preprocess_views",
    "view_statistics",
]
