"""Linear translingual projections: CL-LSI, Oriented PCA (OPCA) and CCA for documents.

All three take a list of aligned document-term matrices ``views`` (``views[m][i]`` is document
``i`` in language ``m``; documents as rows, all over ONE joint term space) and learn a projection
``components_`` (terms x n_components).

Solvers. The term covariances are ``V x V`` (``V`` = joint vocabulary, ~10K), but every signal
and noise matrix here has the form "low rank on the span of the training rows + multiple of the
identity". The generalized eigenproblem :math:`S v = \\lambda N v` is therefore solved *exactly* on
an orthonormal basis ``U`` of the row space of the training documents (``r <= M n`` dimensions):
outside that span :math:`S = 0` and :math:`N = \\gamma I`, so every eigenvector with
:math:`\\lambda \\neq 0` lies in it. The reduced problem :math:`U^T S U a = \\lambda U^T N U a` is
symmetric-definite and solved with ``scipy.linalg.eigh(S_u, N_u, subset_by_index=...)`` (Cholesky
of ``N_u``, no explicit inverse). ``solver="dense"`` builds the ``V x V`` matrices instead
(small vocabularies, tests).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Self, TypeAlias

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from workbench._typing import Matrix
from workbench._validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_int,
    max_abs,
    overflow_error,
    power_of_two_scale,
)

__all__ = ["CLLSI", "OPCA", "CrossLingualCCA", "check_aligned_views"]

logger = logging.getLogger(__name__)

_SOLVERS = ("auto", "reduced", "dense")

#: How to fix an overflow in OPCA / CCA, which are not rescaled for you.
_NOT_INVARIANT = (
    "the method is not scale-invariant (the ridge gamma is absolute), so the view is not "
    "rescaled for you: rescale the views (and gamma with the square of the factor)"
)

#: One boolean vector per view marking its observed documents (``None``: all observed).
Masks: TypeAlias = "Sequence[np.ndarray | None]"


def check_aligned_views(
    views: Iterable[Matrix], *, masks: Masks | None = None, min_views: int = 2
) -> list[Matrix]:
    """Validate a list of aligned document-term matrices (documents x joint terms).

    Returns the views as float64 ``scipy.sparse.csr_matrix`` (sparse input) or C-contiguous
    ``ndarray``. ``masks`` (optional) holds one boolean vector per view marking the documents
    observed in that view (``None`` entries: all observed); the aligned estimators need complete
    tuples, so only the documents observed in *every* view are returned. Raises ``ValueError``
    naming the problem: not a list, too few views, misaligned document counts, different term
    spaces, NaN/inf, masks of the wrong number / type / length, an empty view; ``TypeError`` for
    complex or non-numeric views.
    """
    min_views = check_int(min_views, "min_views", low=1)
    if sp.issparse(views) or isinstance(views, (np.ndarray, str)):
        raise ValueError("views must be a list of document-term matrices, not a single matrix")
    try:
        views = list(views)
    except TypeError:
        raise ValueError(f"views must be a list of matrices, got {type(views).__name__}") from None
    if len(views) < min_views:
        raise ValueError(f"need at least {min_views} aligned views (languages), got {len(views)}")
    out = []
    for m, v in enumerate(views):
        x = check_array(v, f"view {m} (documents x terms)", ndim=2, accept_sparse=True)
        if sp.issparse(x):
            x.sum_duplicates()
        else:
            x = np.ascontiguousarray(x)
        out.append(x)
    rows = [x.shape[0] for x in out]
    if len(set(rows)) != 1:
        raise ValueError(
            f"misaligned views: documents per view {rows}; row i of every view must be "
            "the same document in each language"
        )
    cols = [x.shape[1] for x in out]
    if len(set(cols)) != 1:
        raise ValueError(
            f"views have different numbers of terms {cols}; build all of them in one joint "
            "term space"
        )
    if masks is not None:
        out = _complete_tuples(out, masks)
        rows = [x.shape[0] for x in out]
    if rows[0] < 2:
        raise ValueError(f"need at least 2 aligned documents, got {rows[0]}")
    for m, x in enumerate(out):
        if (x.nnz if sp.issparse(x) else np.count_nonzero(x)) == 0:
            raise ValueError(f"view {m} is empty (all zeros)")
    return out


def _complete_tuples(views: list[Matrix], masks: Masks) -> list[Matrix]:
    """The rows of ``views`` observed in every view according to ``masks`` (see
    :func:`check_aligned_views`)."""
    if isinstance(masks, (str, bytes)) or not hasattr(masks, "__iter__"):
        raise ValueError(f"masks must be a list of boolean vectors (one per view), got {masks!r}")
    masks = list(masks)
    if len(masks) != len(views):
        raise ValueError(f"got {len(masks)} masks for {len(views)} views")
    n = views[0].shape[0]
    keep = np.ones(n, dtype=bool)
    for m, mask in enumerate(masks):
        if mask is None:
            continue
        a = np.asarray(mask)
        if a.dtype != bool:
            raise ValueError(f"mask of view {m} must be boolean, got dtype {a.dtype}")
        if a.shape != (n,):
            raise ValueError(f"mask of view {m} has shape {a.shape}, expected ({n},)")
        keep &= a
    if keep.all():
        return views
    return [x[np.flatnonzero(keep)] for x in views]


def _fix_signs(vectors: np.ndarray) -> np.ndarray:
    """Make the largest-|.| entry of every column positive."""
    if vectors.size == 0:
        return vectors
    idx = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[idx, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    return vectors * signs


def _dense(x: Matrix) -> np.ndarray:
    return np.asarray(x) if isinstance(x, np.ndarray) else x.toarray()


def _row_basis(
    blocks: Sequence[Matrix], rtol: float = 1e-10, *, method: str = "OPCA"
) -> tuple[Matrix, np.ndarray, np.ndarray]:
    """Orthonormal basis of the row space of the stacked ``blocks``, by the Gram matrix.

    Returns ``(Z, W_scaled, inv_sqrt)`` such that ``U = Z.T @ (W * inv_sqrt)`` is orthonormal
    (V x r) and the projections of the rows are ``Z @ U = W_scaled`` (stacked rows x r).
    A Gram matrix that overflows raises a ``ValueError`` naming ``method``'s view.
    """
    z = sp.vstack(blocks, format="csr") if sp.issparse(blocks[0]) else np.vstack(blocks)
    gram = _dense(z @ z.T)
    if not np.isfinite(gram).all():
        if len(blocks) == 1:
            raise overflow_error(
                method, "the Gram matrix of the documents", max_abs(blocks[0]), fix=_NOT_INVARIANT
            )
        _check_finite_products([gram], blocks, method, "the Gram matrix of the documents")
    gram = (gram + gram.T) / 2
    w, vecs = la.eigh(gram)
    keep = w > rtol * max(float(w[-1]), np.finfo(float).tiny)
    w, vecs = w[keep], vecs[:, keep]
    sq = np.sqrt(w)
    return z, vecs * sq, vecs / sq


def _check_finite_products(
    products: Sequence[np.ndarray], views: Sequence[Matrix], method: str, what: str
) -> None:
    """``ValueError`` naming overflow and the view with the largest entry when a product of
    finite views (``views`` were checked for NaN / inf) is not finite. OPCA and CCA are not
    scale-invariant (the ridge ``gamma`` is absolute), so the views are not rescaled."""
    if all(np.isfinite(p).all() for p in products):
        return
    largest = [max_abs(v) for v in views]
    m = int(np.argmax(largest))
    raise overflow_error(f"{method} view {m}", what, largest[m], fix=_NOT_INVARIANT)


def _top_generalized(s: np.ndarray, n: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` solutions of ``s v = lam n v`` (descending), ``n`` symmetric positive definite."""
    r = s.shape[0]
    s = (s + s.T) / 2
    n = (n + n.T) / 2
    vals, vecs = la.eigh(s, n, subset_by_index=[r - k, r - 1])
    return vals[::-1], vecs[:, ::-1]


class _Projection(TransformerMixin, BaseEstimator):
    """Shared ``transform`` for a single projection matrix."""

    components_: np.ndarray
    n_features_in_: int

    def fit(
        self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None
    ) -> Self:  # pragma: no cover
        raise NotImplementedError  # (each projection defines its fit)

    def transform(self, X: Matrix) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError  # (each projection defines its transform)

    def _transform_view(self, x: Matrix, m: int) -> np.ndarray:
        """Project the documents of training view ``m`` (the language's own projection)."""
        return self.transform(x)

    def fit_transform(  # type: ignore[override]
        self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None
    ) -> list[np.ndarray]:
        """Fit, then project every view's documents: ``[transform(views[m]) for m ...]``
        (:class:`CrossLingualCCA`: with ``view=m``). ``y`` is ignored."""
        if isinstance(views, Iterator):  # (a one-shot iterator is read once)
            views = list(views)
        self.fit(views, masks=masks)
        return [self._transform_view(x, m) for m, x in enumerate(views)]

    def _check_x(self, x: Matrix) -> Matrix:
        check_is_fitted(self, "components_")
        x = check_array(x, "X", ndim=(1, 2), accept_sparse=True)
        if x.ndim == 1:
            x = x[None, :]
        if x.ndim != 2 or x.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has shape {x.shape}; expected (n_documents, {self.n_features_in_}) "
                "in the term space used for fit"
            )
        return x


class CLLSI(_Projection):
    r"""Cross-language latent semantic indexing (Dumais et al., 1997).

    LSA of the concatenated multilingual documents: the top right singular vectors of the
    document-term matrix :math:`D` (eq. 5; here: the sum of the aligned views, i.e. one document
    per aligned tuple in the joint term space).

    Parameters
    ----------
    n_components : int

    Attributes
    ----------
    components_ : ndarray (n_terms, n_components)
        Right singular vectors (eigenvectors of :math:`C = D^T D`, eqs. 1 and 3), signs fixed.
    singular_values_ : ndarray (n_components,)

    Notes
    -----
    Maximises the Rayleigh quotient :math:`v^T D^T D v / v^T v` (eq. 2). Solved through the
    ``n x n`` Gram matrix :math:`D D^T = W \Sigma^2 W^T`, :math:`V = D^T W \Sigma^{-1}` (exact;
    components with :math:`\sigma < 10^{-5}\sigma_{\max}` lose relative precision).
    ``fit([D])`` with a single matrix uses it as the concatenated matrix (pass
    :func:`~workbench.crosslingual.documents.joint_log_tf_idf` for exactly eq. 5).

    References
    ----------
    S. T. Dumais, T. A. Letsche, M. L. Littman, T. K. Landauer (1997). Automatic cross-language
    retrieval using latent semantic indexing. AAAI Spring Symposium.
    J. C. Platt, K. Toutanova, W. Yih (2010). Translingual document representations from
    discriminative projections. EMNLP, section 2.1.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> topics = rng.random((20, 3))  # 20 aligned documents; terms 0-9 English, 10-19 Spanish
    >>> en = np.hstack([topics @ rng.random((3, 10)), np.zeros((20, 10))])
    >>> es = np.hstack([np.zeros((20, 10)), topics @ rng.random((3, 10))])
    >>> from workbench.crosslingual import CLLSI
    >>> lsi = CLLSI(n_components=3).fit([en, es])
    >>> lsi.components_.shape
    (20, 3)
    >>> lsi.transform(en[:4]).shape  # documents of either language, in the joint term space
    (4, 3)
    >>> [x.shape for x in lsi.fit_transform([en, es])]  # every training view, projected
    [(20, 3), (20, 3)]
    """

    def __init__(self, n_components: int = 100) -> None:
        self.n_components = n_components

    def fit(self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None) -> Self:
        """Fit on aligned views (summed into concatenated documents) or one joint matrix.

        ``masks``: optional boolean vector per view of its observed documents; only the
        documents observed in every view are used. ``y`` is ignored. Returns ``self``.
        """
        check_int(self.n_components, "n_components", low=1)
        views = check_aligned_views(views, masks=masks, min_views=1)
        d = views[0]
        for v in views[1:]:
            d = d + v
        # LSA is scale-invariant (components unchanged, singular values times c): a matrix
        # whose Gram matrix would overflow or underflow is decomposed at a power-of-two scale
        largest = max_abs(d)
        c = power_of_two_scale(largest, d.shape[1])
        if c != 1.0:
            logger.info(
                "CLLSI: largest |entry| %.3g; decomposing the documents times %g", largest, c
            )
            d = d * c
        gram = _dense(d @ d.T)
        gram = (gram + gram.T) / 2
        n = gram.shape[0]
        k = int(self.n_components)
        if k > n:
            raise ValueError(f"n_components={k} exceeds the number of training documents ({n})")
        w, vecs = la.eigh(gram, subset_by_index=[n - k, n - 1])
        w, vecs = w[::-1], vecs[:, ::-1]
        if w[-1] <= 1e-12 * w[0]:
            raise ValueError(
                f"n_components={k} exceeds the rank of the training documents "
                f"({int(np.sum(w > 1e-12 * w[0]))})"
            )
        sv = np.sqrt(w)
        comps = np.asarray(d.T @ (vecs / sv))
        with np.errstate(over="ignore"):
            sv_out = sv / c
        if not np.isfinite(sv_out).all():
            raise overflow_error(
                "CLLSI",
                "the largest singular value of the documents",
                largest,
                fix="rescale the views",
            )
        self.components_ = _fix_signs(comps)
        self.singular_values_ = sv_out
        self.n_features_in_ = d.shape[1]
        return self

    def transform(self, X: Matrix) -> np.ndarray:
        """Project documents: ``X @ components_``."""
        x = self._check_x(X)
        return np.asarray(x @ self.components_)


class _GeneralizedProjection(_Projection):
    """Shared parameters and ``fit`` of :class:`OPCA` and :class:`CrossLingualCCA`: the top
    solutions of a generalized eigenproblem :math:`S v = \\lambda N v` whose noise matrix carries
    the ridge ``gamma`` (each class builds and solves its problem in :meth:`_solve`)."""

    #: Name in the log line of ``fit``.
    _log_name = ""

    def __init__(
        self,
        n_components: int = 100,
        gamma: float = 0.1,
        *,
        solver: str = "auto",
        center: bool = False,
    ) -> None:
        self.n_components = n_components
        self.gamma = gamma
        self.solver = solver
        self.center = center

    def _fit(self, views: Sequence[Matrix], masks: Masks | None) -> Self:
        """``fit``: check the parameters and views, choose the solver, :meth:`_solve`."""
        check_int(self.n_components, "n_components", low=1)
        check_float(self.gamma, "gamma", low=0, low_open=True)
        check_choice(self.solver, "solver", _SOLVERS)
        check_bool(self.center, "center")
        checked = check_aligned_views(views, masks=masks, min_views=2)
        n, n_terms = checked[0].shape
        n_views = len(checked)
        means = [np.asarray(v.mean(axis=0)).ravel() for v in checked]
        solver = self.solver
        if solver == "auto":
            solver = "dense" if self._dense_is_smaller(n, n_terms, n_views) else "reduced"
        # an overflow is reported by the explicit checks of the products, not as a warning
        with np.errstate(over="ignore", invalid="ignore"):
            self._solve(checked, means, solver, int(self.n_components), float(self.gamma))
        self.n_features_in_ = n_terms
        logger.info(
            "%s: %d views, %d docs, %d terms, solver=%s",
            self._log_name,
            n_views,
            n,
            n_terms,
            solver,
        )
        return self

    def _dense_is_smaller(self, n: int, n_terms: int, n_views: int) -> bool:  # pragma: no cover
        """Whether the ``V x V`` problem is smaller than the reduced one (``solver="auto"``)."""
        raise NotImplementedError

    def _solve(
        self, views: list[Matrix], means: list[np.ndarray], solver: str, k: int, gamma: float
    ) -> None:  # pragma: no cover
        """Solve for ``k`` components with ``solver`` ("dense" or "reduced"); set the fitted
        attributes other than ``n_features_in_``."""
        raise NotImplementedError


def _block_problem(
    blocks: Sequence[np.ndarray], n: int, gamma: float
) -> tuple[np.ndarray, np.ndarray]:
    """CCA's generalized eigenproblem of centred ``blocks`` (documents x each view's own
    coordinates): ``S`` holds the cross-covariances off the diagonal, ``N`` the auto-covariances
    plus ``gamma I`` on it (eqs. 12-13)."""
    sizes = [b.shape[1] for b in blocks]
    offs = np.concatenate([[0], np.cumsum(sizes)])
    big = int(offs[-1])
    s = np.zeros((big, big))
    noise = np.zeros((big, big))
    for i in range(len(blocks)):
        si = slice(offs[i], offs[i + 1])
        for j in range(len(blocks)):
            sj = slice(offs[j], offs[j + 1])
            c = blocks[i].T @ blocks[j] / n
            if i == j:
                noise[si, sj] = c + gamma * np.eye(sizes[i])
            else:
                s[si, sj] = c
    return s, noise


class OPCA(_GeneralizedProjection):
    r"""Oriented principal component analysis for translingual documents (Platt et al., 2010).

    Parameters
    ----------
    n_components : int
    gamma : float, default 0.1
        Ridge :math:`\gamma` on the noise covariance (eq. 10); the paper uses 0.1 for log(tf)-idf.
    solver : {"auto", "reduced", "dense"}
        "reduced" solves exactly on the span of the training documents (see the module notes);
        "dense" builds the ``V x V`` matrices; "auto" picks the smaller problem.
    center : bool, default False
        Subtract the mean training document before projecting in :meth:`transform`.

    Attributes
    ----------
    components_ : ndarray (n_terms, n_components)
        Generalized eigenvectors, :math:`N`-orthonormal (:math:`V^T N V = I`), signs fixed.
    eigenvalues_ : ndarray (n_components,)
        Signal-to-noise ratios, descending.
    mean_ : ndarray (n_terms,)
        Mean training document over all languages.

    Notes
    -----
    With per-language weighted matrices :math:`D_m` (eq. 8), :math:`M` languages, ``n`` aligned
    documents, column means :math:`\mu_m` and :math:`\bar D = \frac1M\sum_m D_m` (eq. 11):

    .. math::

        S = \sum_m D_m^T D_m / n - \mu_m^T \mu_m, \qquad
        N = \sum_m (D_m - \bar D)^T (D_m - \bar D)/n + \gamma I,

    (eqs. 9, 10) and the projections maximise :math:`v^T S v / v^T N v` (eq. 6), i.e. they are the
    top generalized eigenvectors of :math:`S v = \lambda N v` (eq. 7).

    References
    ----------
    K. I. Diamantaras, S. Y. Kung (1996). Principal Component Neural Networks. Wiley.
    J. C. Platt, K. Toutanova, W. Yih (2010). Translingual document representations from
    discriminative projections. EMNLP, section 2.2.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> topics = rng.random((20, 3))  # 20 aligned documents; terms 0-9 English, 10-19 Spanish
    >>> en = np.hstack([topics @ rng.random((3, 10)), np.zeros((20, 10))])
    >>> es = np.hstack([np.zeros((20, 10)), topics @ rng.random((3, 10))])
    >>> from workbench.crosslingual import OPCA
    >>> opca = OPCA(n_components=3, gamma=0.01).fit([en, es])
    >>> opca.components_.shape
    (20, 3)
    >>> bool(np.all(np.diff(opca.eigenvalues_) <= 0))  # signal-to-noise ratios, descending
    True
    >>> opca.transform(es[:4]).shape
    (4, 3)
    """

    _log_name = "OPCA"

    def fit(self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None) -> Self:
        """Fit on ``views``: a list of >= 2 aligned document-term matrices (one per language).

        ``masks``: optional boolean vector per view of its observed documents; only the
        documents observed in every view are used. ``y`` is ignored. Returns ``self``.
        """
        return self._fit(views, masks)

    def _dense_is_smaller(self, n: int, n_terms: int, n_views: int) -> bool:
        return n_terms <= n_views * n

    def _solve(
        self, views: list[Matrix], means: list[np.ndarray], solver: str, k: int, gamma: float
    ) -> None:
        n, n_terms = views[0].shape
        n_views = len(views)
        if solver == "dense":
            if k > n_terms:
                raise ValueError(f"n_components={k} exceeds the number of terms ({n_terms})")
            dense = [_dense(v) for v in views]
            dbar = sum(dense) / n_views
            s = sum(v.T @ v / n - np.outer(mu, mu) for v, mu in zip(dense, means))
            noise = sum((v - dbar).T @ (v - dbar) / n for v in dense) + gamma * np.eye(n_terms)
            _check_finite_products([s, noise], views, "OPCA", "the covariance of the documents")
            vals, vecs = _top_generalized(s, noise, k)
        else:
            z, proj, inv = _row_basis(views, method="OPCA")
            r = proj.shape[1]
            if k > r:
                raise ValueError(
                    f"n_components={k} exceeds the rank of the training documents ({r}); "
                    "further directions have zero signal"
                )
            blocks = [proj[m * n : (m + 1) * n] for m in range(n_views)]
            pbar = sum(blocks) / n_views
            s = sum(b.T @ b / n - np.outer(b.mean(0), b.mean(0)) for b in blocks)
            noise = sum((b - pbar).T @ (b - pbar) / n for b in blocks) + gamma * np.eye(r)
            _check_finite_products([s, noise], views, "OPCA", "the covariance of the documents")
            vals, a = _top_generalized(s, noise, k)
            vecs = np.asarray(z.T @ (inv @ a))
        self.components_ = _fix_signs(np.asarray(vecs))
        self.eigenvalues_ = np.asarray(vals)
        self.mean_ = sum(means) / n_views

    def transform(self, X: Matrix) -> np.ndarray:
        """Project documents of any language: ``(X - mean_ if center) @ components_``."""
        x = self._check_x(X)
        out = np.asarray(x @ self.components_)
        if self.center:
            out = out - self.mean_ @ self.components_
        return out


class CrossLingualCCA(_GeneralizedProjection):
    r"""Canonical correlation analysis of aligned documents (Vinokourov et al., 2003).

    Parameters
    ----------
    n_components : int
    gamma : float, default 1.0
        Ridge :math:`\gamma` on each auto-covariance (eq. 13); tuned on dev (paper: 3-10).
    solver : {"auto", "reduced", "dense"}
    center : bool, default False
        Subtract the language's mean training document before projecting.

    Attributes
    ----------
    view_components_ : list of ndarray (n_terms, n_components)
        Projection of each language (the sections of the generalized eigenvectors). Terms never
        seen in a language's training documents get weight 0 in that language's projection.
    components_ : ndarray (n_terms, n_components)
        Sum of ``view_components_``: equals each language's projection on the terms only that
        language uses; for a shared surface form it adds the languages' weights. Use
        ``transform(X, view=m)`` for the exact per-language projection.
    eigenvalues_ : ndarray (n_components,)
    means_ : list of ndarray (n_terms,)

    Notes
    -----
    Generalised to :math:`M` languages with centred covariances :math:`C_{ij}`:

    .. math::

        S = \begin{bmatrix} 0 & C_{12} & \cdots \\ C_{21} & 0 & \\ \vdots & & \ddots
        \end{bmatrix}, \qquad
        N = \operatorname{diag}(C_{11} + \gamma I, \dots, C_{MM} + \gamma I)

    (eqs. 12-13), top generalized eigenvectors of :math:`S v = \lambda N v` split into per-language
    sections. CCA cannot use the fact that a shared term occurs on both sides: each language has
    its own weights.

    References
    ----------
    A. Vinokourov, J. Shawe-Taylor, N. Cristianini (2003). Inferring a semantic representation of
    text via cross-language correlation analysis. NIPS 15.
    J. C. Platt, K. Toutanova, W. Yih (2010), section 2.3.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> topics = rng.random((20, 3))  # 20 aligned documents; terms 0-9 English, 10-19 Spanish
    >>> en = np.hstack([topics @ rng.random((3, 10)), np.zeros((20, 10))])
    >>> es = np.hstack([np.zeros((20, 10)), topics @ rng.random((3, 10))])
    >>> from workbench.crosslingual import CrossLingualCCA
    >>> cca = CrossLingualCCA(n_components=3, gamma=0.01).fit([en, es])
    >>> cca.eigenvalues_.round(2)  # canonical correlations
    array([0.98, 0.87, 0.84])
    >>> a, b = cca.transform(en, view=0), cca.transform(es, view=1)
    >>> bool(np.corrcoef(a[:, 0], b[:, 0])[0, 1] > 0.95)  # the translations agree
    True
    """

    _log_name = "CCA"

    def __init__(
        self,
        n_components: int = 100,
        gamma: float = 1.0,
        *,
        solver: str = "auto",
        center: bool = False,
    ) -> None:
        super().__init__(n_components, gamma, solver=solver, center=center)

    def fit(self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None) -> Self:
        """Fit the per-language projections on >= 2 aligned document-term matrices ``views``;
        ``masks`` and ``y`` as in :meth:`OPCA.fit`. Returns ``self``."""
        return self._fit(views, masks)

    def _dense_is_smaller(self, n: int, n_terms: int, n_views: int) -> bool:
        return n_terms <= n

    def _solve(
        self, views: list[Matrix], means: list[np.ndarray], solver: str, k: int, gamma: float
    ) -> None:
        n, n_terms = views[0].shape
        n_views = len(views)
        if solver == "dense":
            big = n_views * n_terms
            if k > big:
                raise ValueError(f"n_components={k} exceeds the problem size ({big})")
            s, noise = _block_problem([_dense(v) - mu for v, mu in zip(views, means)], n, gamma)
            _check_finite_products([s, noise], views, "CCA", "the covariance of the documents")
            vals, vecs = _top_generalized(s, noise, k)
            sections = [vecs[m * n_terms : (m + 1) * n_terms] for m in range(n_views)]
        else:
            bases = []
            cproj = []
            for m, v in enumerate(views):
                z, proj, inv = _row_basis([v], method=f"CCA view {m}")
                bases.append((z, inv))
                cproj.append(proj - proj.mean(axis=0))
            offs = np.concatenate([[0], np.cumsum([p.shape[1] for p in cproj])])
            big = int(offs[-1])
            if k > big:
                raise ValueError(
                    f"n_components={k} exceeds the rank of the training documents ({big})"
                )
            s, noise = _block_problem(cproj, n, gamma)
            _check_finite_products([s, noise], views, "CCA", "the covariance of the documents")
            vals, a = _top_generalized(s, noise, k)
            sections = [
                np.asarray(z.T @ (inv @ a[offs[m] : offs[m + 1]]))
                for m, (z, inv) in enumerate(bases)
            ]
        # one sign per component for all sections (keeps the languages consistent)
        stacked = _fix_signs(np.vstack(sections))
        self.view_components_ = [stacked[m * n_terms : (m + 1) * n_terms] for m in range(n_views)]
        self.components_ = np.sum(self.view_components_, axis=0)
        self.eigenvalues_ = np.asarray(vals)
        self.means_ = means

    def _transform_view(self, x: Matrix, m: int) -> np.ndarray:
        return self.transform(x, view=m)

    def transform(self, X: Matrix, view: int | None = None) -> np.ndarray:
        """Project documents of language ``view`` (index into the fitted views).

        With ``view=None`` the summed ``components_`` is used (exact except on shared terms).
        """
        x = self._check_x(X)
        if view is None:
            return np.asarray(x @ self.components_)
        view = check_int(view, "view", low=0, high=len(self.view_components_) - 1)
        out = np.asarray(x @ self.view_components_[view])
        if self.center:
            out = out - self.means_[view] @ self.view_components_[view]
        return out
