"""PCA and Extended Robust PCA (Ex-RPCA) of sense-wise difference matrices.

Implements Shi, Sun & Hu (2018), *Understanding and Improving Multi-Sense Word
Embeddings via Extended Robust Principal Component Analysis*:

* :func:`difference_matrix` -- the sense-wise difference matrix :math:`M` of §2;
* :func:`pca` -- :math:`M = L + E` at a fixed rank (eq. 1);
* :func:`ex_rpca` -- :math:`M = L + E + S` either by the iterative 3-sigma solution
  (Algorithm 1, eqs. 5-6) or by the inexact augmented Lagrangian method for the
  convex problem (4) (Algorithm 2, Appendix B, eqs. 12-19);
* :func:`elimination_map` / :func:`eliminate_pseudo_senses` -- the linear map of
  §3.3 / Appendix A that sends the chosen components to zero and fixes their
  orthogonal complement;
* :func:`make_planted` and :func:`support_scores` -- planted-structure problems and
  their scoring, used by the tests, the notebooks and ``bench/bench_rpca.py``.

Matrices are oriented as in the paper: one column per sense pair, one row per
embedding dimension, so ``M`` is ``d x N`` and the principal components are
``d``-dimensional (columns of ``components``).

Implementation modules: ``_solvers`` (PCA, Ex-RPCA), ``_difference`` (difference matrix,
elimination), ``_planted`` (planted problems and scores).
"""

from __future__ import annotations

from workbench.rpca._difference import (
    SenseLabel,  # noqa: F401  (type alias, not in __all__; importable as before the split)
    difference_matrix,
    eliminate_pseudo_senses,
    elimination_map,
)
from workbench.rpca._planted import (
    PlantedProblem,
    make_planted,
    pca_sparse_support,
    principal_angles,
    support_scores,
)
from workbench.rpca._solvers import (
    RPCAConvergenceWarning,
    RPCAResult,
    SVDSolver,  # noqa: F401  (type alias, not in __all__; importable as before the split)
    ex_rpca,
    pca,
)

__all__ = [
    "RPCAConvergenceWarning",
    "RPCAResult",
    "PlantedProblem",
    "difference_matrix",
    "pca",
    "ex_rpca",
    "elimination_map",
    "eliminate_pseudo_senses",
    "make_planted",
    "support_scores",
    "principal_angles",
    "pca_sparse_support",
]
