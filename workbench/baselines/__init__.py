"""Single-view baselines for MVLSA on the same corpus: LSA, skip-gram word2vec, GloVe.

All return :class:`workbench.embeddings.WordVectors`:

* :func:`lsa` -- truncated SVD of the summed (preprocessed) co-occurrence views;
* :func:`train_word2vec` -- gensim's skip-gram with negative sampling (seeded; ``workers=1``
  gives bit-reproducible vectors);
* :func:`train_glove` -- a vectorised implementation of GloVe (weighted least squares on
  ``log X_ij`` with AdaGrad), on a co-occurrence matrix such as
  ``workbench.views.window_view(corpus, vocab, 15, weighting="harmonic")``. The solver
  :func:`fit_glove` returns all parameters and the loss history as a frozen dataclass.
"""

from ._glove import GloVeFit, fit_glove, glove_objective, train_glove
from ._lsa import lsa
from ._word2vec import train_word2vec

__all__ = ["lsa", "train_word2vec", "GloVeFit", "fit_glove", "glove_objective", "train_glove"]
