"""Generalized CCA (MAX-VAR) and Multiview LSA.

Two estimators with one interface (``fit(views, y=None, *, masks=None)``, ``embedding_``,
``transform(views, *, masks=None)``):

* :class:`GCCA` -- the exact MAX-VAR GCCA of dense ``N x N`` matrices, for small problems; the
  reference :class:`MVLSA` is tested against.
* :class:`MVLSA` -- the fast approximate regularized GCCA of Rastogi, Van Durme & Arora (2015):
  per-view rank-``m`` truncated SVDs of the (implicitly) mean-centred views, the stacked
  ``[A_j T_j]`` and its top left singular vectors, computed exactly through the eigenvectors of
  its ``(sum_j m_j) x (sum_j m_j)`` Gram matrix.

MVLSA by parts -- :func:`view_factor` (one view's truncated SVD, :class:`ViewFactor`) and
:func:`combine_factors` / :class:`StackedFactors` (the shared space of any selection of factors,
for tuning paths that combine the same views many ways) -- and one solver, :func:`truncated_svd` (SVD of an implicitly centred, row-weighted sparse or dense
matrix -- by default adaptive randomized block Krylov, stopped when the residual of the wanted
triplets is below ``tol``; a pure function returning a frozen dataclass).

Views are validated by :func:`workbench.views.check_views` (a list of dense arrays, scipy.sparse
matrices or :class:`workbench.views.View` objects over the same ``N`` rows).
"""

from ._base import glove_row_weights
from ._certificate import AccuracyCertificate
from ._factors import StackedFactors, ViewFactor, combine_factors, view_factor
from ._gcca import GCCA, GCCA_MAX_ROWS
from ._linalg import fix_signs
from ._mvlsa import MVLSA
from ._svd import (
    GRAM_MAX_COLS,
    GRAM_RANK_RATIO,
    SVD_TOL,
    SVDConvergenceWarning,
    TruncatedSVD,
    truncated_svd,
)

__all__ = [
    "AccuracyCertificate",
    "SVDConvergenceWarning",
    "GCCA",
    "MVLSA",
    "TruncatedSVD",
    "truncated_svd",
    "glove_row_weights",
    "GCCA_MAX_ROWS",
    "GRAM_MAX_COLS",
    "GRAM_RANK_RATIO",
    "SVD_TOL",
    "StackedFactors",
    "ViewFactor",
    "combine_factors",
    "fix_signs",
    "view_factor",
]
