"""Single-view baselines for MVLSA on the same corpus: LSA, skip-gram word2vec, GloVe.

All return :class:`workbench.embeddings.WordVectors`:

* :func:`ppmi_svd` -- SVD of the (shifted) PPMI matrix of window counts with context
  distribution smoothing (Levy, Goldberg & Dagan 2015, the "hyperwords" recipe);

* :func:`lsa` -- truncated SVD of the summed (preprocessed) co-occurrence views;
* :func:`train_word2vec` -- gensim's skip-gram with negative sampling (seeded; ``workers=1``
  gives bit-reproducible vectors);
* :func:`train_glove` -- GloVe (weighted least squares on ``log X_ij``) trained as
  ``glove.c`` trains it: one AdaGrad update per co-occurrence in shuffled order, compiled
  with numba (single-threaded and seeded, so reproducible), on a co-occurrence matrix such as
  ``workbench.views.window_view(corpus, vocab, 15, weighting="harmonic")``. The solver
  :func:`fit_glove` returns all parameters and the per-epoch cost as a frozen dataclass.
"""

from ._glove import (
    GloVeFit,
    GloVeStop,
    fit_glove,
    glove_objective,
    glove_stop,
    glove_stopping,
    train_glove,
)
from ._lsa import lsa
from ._ppmi import PPMISVDFit, fit_ppmi_svd, ppmi_svd, window_counts
from ._word2vec import train_word2vec

__all__ = [
    "ppmi_svd",
    "fit_ppmi_svd",
    "PPMISVDFit",
    "window_counts",
    "lsa",
    "train_word2vec",
    "GloVeFit",
    "fit_glove",
    "glove_objective",
    "glove_stop",
    "GloVeStop",
    "glove_stopping",
    "train_glove",
]
