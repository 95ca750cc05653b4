"""Retrofitting word vectors to a semantic lexicon (Faruqui et al. 2015).

A post-processing step for any :class:`workbench.embeddings.WordVectors`: each vector is
pulled towards its lexicon neighbours while staying close to its original value. Used in
the eigenwords notebook for "Eigen + RF", "CCAPrior + RF", "GloVe + RF", ... rows.
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Iterable, Mapping
from typing import Literal

import numpy as np
import scipy.sparse as sp

from workbench._validation import check_array, check_choice, check_float, check_int, max_abs
from workbench.embeddings import WordVectors
from workbench.lexicons import LexiconGraph, lexicon_adjacency

logger = logging.getLogger(__name__)

__all__ = ["retrofit", "retrofit_matrix"]

Method = Literal["jacobi", "gauss-seidel"]


def retrofit_matrix(
    X: np.ndarray,
    adjacency: sp.spmatrix,
    *,
    n_iter: int = 10,
    alpha: float = 1.0,
    beta: float | Literal["inverse_degree"] = "inverse_degree",
    method: Method = "jacobi",
) -> np.ndarray:
    """Retrofit the rows of ``X`` along a (possibly directed) 0/1 adjacency; see :func:`retrofit`."""
    X = check_array(X, "X (the word vectors)", ndim=2)
    n_iter = check_int(n_iter, "n_iter", low=0)
    a = check_float(alpha, "alpha", low=0, low_open=True)
    check_choice(method, "method", ("jacobi", "gauss-seidel"))
    A = sp.csr_matrix(check_array(adjacency, "adjacency", ndim=2, accept_sparse=True))
    if A.shape != (X.shape[0], X.shape[0]):
        raise ValueError(f"adjacency shape {A.shape} does not match {X.shape[0]} vectors")
    deg = np.diff(A.indptr).astype(np.float64)
    if beta == "inverse_degree":
        b = np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    else:
        if isinstance(beta, str):
            raise ValueError(f"beta must be 'inverse_degree' or a number > 0, got {beta!r}")
        b = np.where(deg > 0, check_float(beta, "beta", low=0, low_open=True), 0.0)
    active = deg > 0
    denom = a + b * deg  # alpha + sum_j beta_ij
    growth = float(denom.max(initial=a))
    if not math.isfinite(growth):
        raise ValueError(
            f"alpha + beta * degree overflows float64 (alpha={a:g}, largest degree "
            f"{int(deg.max(initial=0))}); only the ratio of alpha and beta matters: use smaller ones"
        )
    # Q is linear in X (each q_i a weighted average of vectors): a matrix whose sums
    # alpha x_i + beta sum_j q_j would overflow is retrofitted at a power-of-two scale
    largest = max_abs(X)
    scale = 1.0
    if largest * growth > np.finfo(np.float64).max / 16:
        scale = math.ldexp(1.0, -math.frexp(largest)[1])
        logger.info(
            "retrofit: largest |entry| %.3g; retrofitting the vectors times %g", largest, scale
        )
        X = X * scale
    Q = X.copy()
    if method == "jacobi":
        B = sp.diags(b) @ A
        for _ in range(int(n_iter)):
            new = (a * X + B @ Q) / denom[:, None]
            Q = np.where(active[:, None], new, X)
    elif method == "gauss-seidel":
        rows = np.flatnonzero(active)
        indptr, indices = A.indptr, A.indices
        for _ in range(int(n_iter)):
            for i in rows:
                nb = indices[indptr[i] : indptr[i + 1]]
                Q[i] = (a * X[i] + b[i] * Q[nb].sum(axis=0)) / denom[i]
    return Q if scale == 1.0 else Q / scale


def retrofit(
    vectors: WordVectors,
    lexicon: LexiconGraph | Mapping[str, Iterable[str]],
    *,
    n_iter: int = 10,
    alpha: float = 1.0,
    beta: float | Literal["inverse_degree"] = "inverse_degree",
    method: Method = "jacobi",
) -> WordVectors:
    """Retrofit word vectors to a lexicon graph (Faruqui et al. 2015).

    Parameters
    ----------
    vectors : WordVectors
        Any embedding (:class:`workbench.embeddings.WordVectors`).
    lexicon : LexiconGraph or mapping word -> iterable of neighbours
        Matched case-sensitively against ``vectors.words`` (the reference implementation
        lower-cases everything; we do not).
    n_iter : int, default 10
    alpha : float, default 1.0
        :math:`\\alpha_i`, weight of the original vector.
    beta : "inverse_degree" or float, default "inverse_degree"
        :math:`\\beta_{ij}`; ``"inverse_degree"`` is :math:`1/\\deg(i)` as in the paper.
    method : {"jacobi", "gauss-seidel"}, default "jacobi"
        ``"jacobi"`` updates all vectors from the previous iteration (vectorised,
        order-independent). ``"gauss-seidel"`` updates in place in vocabulary order, like the
        reference code (which iterates a Python ``set``, so its order is arbitrary). Both
        converge to the same minimiser.

    Returns
    -------
    WordVectors
        Same words and order; float64 vectors.

    Notes
    -----
    Minimises :math:`\\Psi(Q)=\\sum_i \\alpha_i\\lVert q_i-\\hat q_i\\rVert^2+\\sum_{(i,j)\\in E}
    \\beta_{ij}\\lVert q_i-q_j\\rVert^2` by iterating

    .. math:: q_i \\leftarrow \\frac{\\alpha \\hat q_i + \\sum_{j:(i,j)\\in E} \\beta_{ij} q_j}
              {\\alpha + \\sum_{j:(i,j)\\in E}\\beta_{ij}}

    for words with at least one neighbour among ``vectors.words``. Documented behaviour:
    words absent from the lexicon (or whose neighbours all lack vectors) keep their
    vectors; lexicon words without a vector are ignored (no vectors are created). If no
    word has a neighbour, a ``UserWarning`` is issued and the vectors are returned
    unchanged.

    References
    ----------
    Faruqui, Dodge, Jauhar, Dyer, Hovy and Smith (2015), "Retrofitting word vectors to
    semantic lexicons", NAACL. Reference code: github.com/mfaruqui/retrofitting.

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.embeddings import WordVectors
    >>> vectors = WordVectors(["car", "auto", "bike"], np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    >>> retrofit(vectors, {"car": ["auto"], "auto": ["car"]}).vectors.round(3)
    array([[0.667, 0.333],
           [0.333, 0.667],
           [1.   , 1.   ]])
    """
    if not (hasattr(vectors, "words") and hasattr(vectors, "vectors")):
        raise TypeError(f"vectors must be a WordVectors, got {type(vectors).__name__}")
    check_int(n_iter, "n_iter", low=0)
    check_float(alpha, "alpha", low=0, low_open=True)
    check_choice(method, "method", ("jacobi", "gauss-seidel"))
    words = list(vectors.words)
    A = lexicon_adjacency(words, lexicon)
    if A.nnz == 0:
        warnings.warn(
            "retrofit: no word of the vectors has a lexicon neighbour with a vector "
            "(empty graph or no overlap; check case); vectors returned unchanged",
            UserWarning,
            stacklevel=2,
        )
    Q = retrofit_matrix(
        np.asarray(vectors.vectors), A, n_iter=n_iter, alpha=alpha, beta=beta, method=method
    )
    logger.info(
        "retrofit: %d of %d words have lexicon neighbours",
        int((np.diff(A.indptr) > 0).sum()),
        len(words),
    )
    return WordVectors(words, Q)
