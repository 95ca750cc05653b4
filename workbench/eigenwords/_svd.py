"""SVD step (eigenwords / CCAPrior) and the scikit-learn style estimators."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Self

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds
from sklearn.base import BaseEstimator
from sklearn.utils.extmath import randomized_svd
from sklearn.utils.validation import check_is_fitted

from workbench._typing import SeedLike
from workbench._validation import (
    check_array,
    check_choice,
    check_float,
    check_int,
    check_random_state,
)
from workbench.embeddings import WordVectors

from ._counts import (
    CooccurrenceCounts,
    Graph,
    TokenStream,
    _as_token_stream,
    _check_vocab_size,
    _symmetric_adjacency,
    chunk_documents,
    count_contexts,
    count_prior_pairs,
)
from ._lanczos import lanczos_svd

if TYPE_CHECKING:
    from workbench.views import Vocabulary

Transform = Literal["sqrt", "none"]
Which = Literal["largest", "smallest"]
Solver = Literal["svds", "lanczos", "randomized", "dense"]
_SOLVERS = ("svds", "lanczos", "randomized", "dense")
_TRANSFORMS = ("sqrt", "none")
_WHICH = ("largest", "smallest")


def _check_alpha(alpha: float) -> float:
    """The prior weight of Figure 3 of Osborne et al. (2016), in (0, 1]."""
    return float(check_float(alpha, "alpha", low=0, high=1, low_open=True))


# ----------------------------------------------------------------------------- SVD


@dataclass(frozen=True)
class EigenwordsResult:
    """Output of :func:`eigenwords_svd`.

    Attributes
    ----------
    word_embeddings : ndarray, shape (V, m)
        :math:`D_1^{-1/2} U` (rows of words never seen as pivots are zero).
    context_embeddings : ndarray, shape (2kV, m)
        :math:`D_2^{-1/2} V` (rows ordered by slot then word, like the count columns).
    singular_values : ndarray, shape (m,)
        Descending for ``which="largest"``, ascending for ``which="smallest"``.
    left_singular_vectors : ndarray, shape (V, m)
        ``U`` (sign-fixed: largest-|.| entry of each column positive).
    which : str
        ``"largest"`` or ``"smallest"``.
    alpha : float
        Prior weight (0.0 for plain eigenwords).
    """

    word_embeddings: np.ndarray
    context_embeddings: np.ndarray
    singular_values: np.ndarray
    left_singular_vectors: np.ndarray
    which: str
    alpha: float


def _fix_signs(U: np.ndarray, Vt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flip (u_i, v_i) so the largest-|.| entry of each u_i is positive."""
    if U.size == 0:
        return U, Vt
    idx = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[idx, np.arange(U.shape[1])])
    signs[signs == 0] = 1.0
    return U * signs, Vt * signs[:, None]


def _inv_sqrt(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x, dtype=np.float64)
    pos = x > 0
    out[pos] = 1.0 / np.sqrt(x[pos])
    return out


def _truncated_svd(
    A: sp.csr_matrix | np.ndarray,
    m: int,
    *,
    which: str,
    solver: str,
    random_state: SeedLike,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top/bottom-m SVD with signs fixed; returns ``(U, s, Vt)``."""
    check_choice(solver, "solver", _SOLVERS)
    random_state = check_random_state(random_state)
    rmin = min(A.shape)
    if m > rmin:
        raise ValueError(f"n_components={m} exceeds min(matrix shape)={rmin}")
    if solver == "dense" or (solver == "svds" and m >= rmin - 1):
        dense = np.asarray(A.toarray()) if sp.issparse(A) else np.asarray(A)  # type: ignore[union-attr]
        U, s, Vt = np.linalg.svd(dense, full_matrices=False)
        if which == "largest":
            U, s, Vt = U[:, :m], s[:m], Vt[:m]
        else:
            U, s, Vt = U[:, ::-1][:, :m], s[::-1][:m], Vt[::-1][:m]
    elif solver == "svds":
        v0 = np.random.default_rng(random_state).standard_normal(rmin)
        U, s, Vt = svds(A, k=m, which="LM" if which == "largest" else "SM", v0=v0)
        order = np.argsort(-s) if which == "largest" else np.argsort(s)
        U, s, Vt = U[:, order], s[order], Vt[order]
    elif solver == "lanczos":
        if which != "largest":
            raise ValueError('solver="lanczos" only computes the largest singular vectors')
        U, s, Vt = lanczos_svd(A, m, random_state=random_state)
    elif solver == "randomized":
        if which != "largest":
            raise ValueError('solver="randomized" only computes the largest singular vectors')
        U, s, Vt = randomized_svd(
            A, m, n_iter=7, random_state=check_random_state(random_state, legacy=True)
        )
    U, Vt = _fix_signs(np.asarray(U), np.asarray(Vt))
    return U, np.asarray(s), Vt


def eigenwords_svd(
    counts: CooccurrenceCounts,
    n_components: int,
    *,
    prior: sp.spmatrix | None = None,
    alpha: float | None = None,
    transform: Transform = "sqrt",
    which: Which = "largest",
    solver: Solver = "svds",
    random_state: SeedLike = None,
) -> EigenwordsResult:
    """Eigenwords (and CCA with prior knowledge) from counts: SVD of :math:`D_1^{-1/2} M D_2^{-1/2}`.

    Parameters
    ----------
    counts : CooccurrenceCounts
        From :func:`count_contexts`.
    n_components : int
        ``m``.
    prior : sparse (V, 2kV), optional
        Unweighted prior counts ``P`` from :func:`count_prior_pairs`; requires ``alpha``.
    alpha : float in (0, 1], optional
        Weight of the prior counts.
    transform : {"sqrt", "none"}, default "sqrt"
        ``"sqrt"`` applies the square-root transform of Dhillon et al. (2015) to every
        count (``M``, ``D_1`` and ``D_2``), as in Stratos et al. (2015) with ``a = 1/2``.
    which : {"largest", "smallest"}, default "largest"
        Singular vectors of the largest singular values (CCA; Figure 3) or of the smallest
        ones (§4.2: the minimisation used when ``-L`` encodes similarities). With
        ``solver="svds"`` the smallest ones use ARPACK's ``which="SM"``, which is slow and
        may not converge on large vocabularies; use ``solver="dense"`` for small problems.
    solver : {"svds", "lanczos", "randomized", "dense"}, default "svds"
        ARPACK (:func:`scipy.sparse.linalg.svds`), Lanczos with full reorthogonalization
        (:func:`lanczos_svd`; largest only, the same subspace as ARPACK), sklearn's ``randomized_svd`` (largest only; an
        approximation whose result moves with the seed when the spectrum decays slowly)
        or a dense LAPACK SVD (small problems, tests).
    random_state : int, Generator, RandomState or None
        Seed of the solver's start vector (of the random test matrix for "randomized").

    Returns
    -------
    EigenwordsResult

    Raises
    ------
    ValueError
        ``n_components`` < 1 or above the matrix size, an unknown ``which``, ``transform`` or
        ``solver``, ``alpha`` outside (0, 1] or without ``prior``, ``prior`` of another shape
        than the counts, NaN / inf counts, negative counts with ``transform="sqrt"``, no
        counts at all.

    Notes
    -----
    With :math:`f(x) = x^{a}` (``a = 1/2`` for ``"sqrt"``, ``1`` for ``"none"``) applied
    element-wise,

    .. math:: D_1^{-1/2} f(M + \\alpha P) D_2^{-1/2} \\approx U \\Sigma V^\\top,\\quad
              D_1 = f(\\mathrm{diag}(W^\\top W)),\\ D_2 = f(\\mathrm{diag}(C^\\top C)),

    word embeddings :math:`D_1^{-1/2} U`, context embeddings :math:`D_2^{-1/2} V`. As in
    Figure 3 ("calculate D1 and D2 as specified in §3"), ``D_1`` and ``D_2`` do not
    include the prior counts. Rows/columns with zero counts get zero scaling.

    References
    ----------
    Dhillon, Foster and Ungar (2015), JMLR 16. Stratos, Collins and Hsu (2015), ACL.
    Osborne, Narayan and Cohen (2016), TACL 4, §3, §4.2 and Figure 3.
    """
    if not isinstance(counts, CooccurrenceCounts):
        raise TypeError("counts must be a CooccurrenceCounts (from count_contexts)")
    m = check_int(n_components, "n_components", low=1)
    check_choice(which, "which", _WHICH)
    check_choice(transform, "transform", _TRANSFORMS)
    check_choice(solver, "solver", _SOLVERS)
    random_state = check_random_state(random_state)
    M = check_array(counts.counts, "counts.counts", ndim=2, accept_sparse=True)
    if not sp.issparse(M):
        M = sp.csr_matrix(M)
    a_used = 0.0
    if prior is not None:
        if alpha is None:
            raise ValueError("alpha is required when prior counts are given")
        a_used = _check_alpha(alpha)
        prior = check_array(prior, "prior", ndim=2, accept_sparse=True)
        if prior.shape != M.shape:
            raise ValueError(f"prior has shape {prior.shape}, counts have shape {M.shape}")
        M = (M + a_used * sp.csr_matrix(prior)).tocsr()
    elif alpha is not None:
        raise ValueError("alpha given without prior counts (pass prior=count_prior_pairs(...))")
    if M.nnz == 0:
        raise ValueError("the co-occurrence matrix is empty (no in-vocabulary context pairs)")
    power = 0.5 if transform == "sqrt" else 1.0
    M = M.copy().astype(np.float64)
    if power != 1.0 and M.nnz and M.data.min() < 0:
        raise ValueError(
            'transform="sqrt" needs non-negative counts; use transform="none" for signed '
            "matrices such as similarity_laplacian_counts"
        )
    if power != 1.0:
        M.data = M.data**power
    d1 = _inv_sqrt(counts.word_counts**power)
    d2 = _inv_sqrt(counts.context_counts**power)
    A = sp.diags(d1) @ M @ sp.diags(d2)
    U, s, Vt = _truncated_svd(A.tocsr(), m, which=which, solver=solver, random_state=random_state)
    return EigenwordsResult(
        word_embeddings=d1[:, None] * U,
        context_embeddings=d2[:, None] * Vt.T,
        singular_values=s,
        left_singular_vectors=U,
        which=which,
        alpha=a_used,
    )


# ----------------------------------------------------------------------------- estimators


def _vocab_words(vocabulary: Vocabulary | Sequence[str] | None) -> list[str] | None:
    if vocabulary is None:
        return None
    words = getattr(vocabulary, "words", vocabulary)
    return [str(w) for w in words]


class _EigenBase(BaseEstimator):
    """Shared parameters/fitted-state helpers of :class:`Eigenwords` and :class:`CCAPrior`.

    ``get_params`` / ``set_params`` / ``clone`` / ``repr`` come from scikit-learn's
    ``BaseEstimator``. Not a ``TransformerMixin``: :meth:`transform` maps context windows, not
    the token stream ``fit`` takes, so ``fit_transform`` would have no meaning.
    """

    n_components: int
    window: int
    count_transform: str
    solver: str
    random_state: SeedLike
    chunk_length: int | None

    def __init__(
        self,
        n_components: int = 300,
        *,
        window: int = 2,
        count_transform: Transform = "sqrt",
        solver: Solver = "svds",
        random_state: SeedLike = None,
        chunk_length: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.window = window
        self.count_transform = count_transform
        self.solver = solver
        self.random_state = random_state
        self.chunk_length = chunk_length

    def _check_params(self) -> None:
        """The parameters shared by :class:`Eigenwords` and :class:`CCAPrior` (run in fit)."""
        check_int(self.n_components, "n_components", low=1)
        check_int(self.window, "window", low=1)
        check_choice(self.count_transform, "count_transform", _TRANSFORMS)
        check_choice(self.solver, "solver", _SOLVERS)
        check_random_state(self.random_state)
        check_int(self.chunk_length, "chunk_length", low=1, allow_none=True)

    def _prepare(
        self, X: TokenStream, vocabulary: Vocabulary | Sequence[str] | None
    ) -> tuple[np.ndarray, np.ndarray, int, list[str] | None]:
        self._check_params()
        ids, starts = _as_token_stream(X)
        words = _vocab_words(vocabulary)
        if words is not None:
            V = len(words)
        elif ids.size and ids.max() >= 0:
            V = int(ids.max()) + 1
        else:
            raise ValueError("tokens contain no in-vocabulary word ids")
        _check_vocab_size(V, ids)
        if self.chunk_length is not None:
            starts = chunk_documents(starts, ids.size, self.chunk_length)
        return ids, starts, V, words

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Project contexts of new data: ``X`` is an (n, 2k) array of context word ids.

        Columns are the slots ``-k..-1, +1..+k``; ``-1`` marks a missing context word.
        Returns the (n, m) sum of the corresponding context embeddings
        (:math:`D_2^{-1/2} V` rows), i.e. the CCA projection of the context view.
        """
        check_is_fitted(self, "word_embeddings_")
        X = check_array(X, "X", ndim=2, dtype=None)
        if X.size and X.dtype.kind not in "iu":
            raise TypeError(f"X must hold integer context word ids, got dtype {X.dtype}")
        two_k = 2 * self.window
        if X.ndim != 2 or X.shape[1] != two_k:
            raise ValueError(f"X must have shape (n, {two_k}) (context word ids), got {X.shape}")
        V = self.word_embeddings_.shape[0]
        if X.size and (X.min() < -1 or X.max() >= V):
            raise ValueError(f"context ids must be in [-1, {V})")
        out = np.zeros((X.shape[0], self.context_embeddings_.shape[1]))
        for slot in range(two_k):
            ok = X[:, slot] >= 0
            out[ok] += self.context_embeddings_[slot * V + X[ok, slot]]
        return out

    def to_word_vectors(self) -> WordVectors:
        """The word embeddings as :class:`workbench.embeddings.WordVectors`."""
        check_is_fitted(self, "word_embeddings_")
        if self.words_ is None:
            raise ValueError("fit was called without a vocabulary; words are unknown")
        return WordVectors(list(self.words_), self.word_embeddings_)

    def _store(
        self, res: EigenwordsResult, counts: CooccurrenceCounts, words: list[str] | None
    ) -> None:
        self.word_embeddings_ = res.word_embeddings
        self.context_embeddings_ = res.context_embeddings
        self.singular_values_ = res.singular_values
        self.counts_ = counts
        self.words_ = words
        self.n_features_in_ = counts.vocab_size


class Eigenwords(_EigenBase):
    """Eigenwords: CCA between a word and its ``2k`` context words (Dhillon et al. 2015).

    Parameters
    ----------
    n_components : int, default 300
    window : int, default 2
        ``k`` context words each side.
    count_transform : {"sqrt", "none"}, default "sqrt"
        Count transform (``transform`` of :func:`eigenwords_svd`).
    solver : {"svds", "lanczos", "randomized", "dense"}, default "svds"
        See :func:`eigenwords_svd`.
    random_state : int, optional
    chunk_length : int, optional
        Treat consecutive chunks of this many tokens as documents (paper §5.1 uses 13).

    Attributes
    ----------
    word_embeddings_ : ndarray (V, m)
    context_embeddings_ : ndarray (2kV, m)
    singular_values_ : ndarray (m,)
    counts_ : CooccurrenceCounts
    words_ : list of str or None

    Notes
    -----
    See :func:`eigenwords_svd` for the objective. ``fit(X, vocabulary=...)`` takes token
    ids (``EncodedCorpus``, 1-d array or list of per-document arrays).

    References
    ----------
    Dhillon, Foster and Ungar (2015), "Eigenwords: spectral word embeddings", JMLR 16.

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.eigenwords import Eigenwords
    >>> ids = np.random.default_rng(0).integers(0, 20, size=2000)  # 2,000 tokens, 20 word types
    >>> words = [f"w{i}" for i in range(20)]
    >>> ew = Eigenwords(n_components=4, window=2, solver="dense").fit(ids, vocabulary=words)
    >>> ew.word_embeddings_.shape, ew.context_embeddings_.shape  # (V, m), (2kV, m)
    ((20, 4), (80, 4))
    >>> ew.transform(np.array([[0, 1, -1, 3]])).shape  # one context window; -1: no word
    (1, 4)
    >>> ew.to_word_vectors()
    WordVectors(n_words=20, dim=4, dtype=float64)
    """

    def fit(
        self,
        X: TokenStream,
        y: object = None,
        *,
        vocabulary: Vocabulary | Sequence[str] | None = None,
    ) -> Self:
        """Count contexts of the token ids ``X`` and take the SVD; returns self."""
        ids, starts, V, words = self._prepare(X, vocabulary)
        counts = count_contexts(ids, V, window=self.window, doc_starts=starts)
        res = eigenwords_svd(
            counts,
            self.n_components,
            transform=self.count_transform,  # type: ignore[arg-type]
            solver=self.solver,  # type: ignore[arg-type]
            random_state=self.random_state,
        )
        self._store(res, counts, words)
        return self


class CCAPrior(_EigenBase):
    """CCA with prior knowledge (Figure 3 of Osborne, Narayan and Cohen 2016).

    Parameters
    ----------
    n_components : int, default 300
    alpha : float in (0, 1], default 0.5
        Weight of counts from graph-adjacent token pairs.
    n_neighbors : int, default 12
        ``N``, the reach of the local Laplacian.
    window : int, default 2
    which : {"largest", "smallest"}, default "largest"
        §4.2 variant: ``"smallest"`` keeps the singular vectors of the smallest singular
        values.
    count_transform, solver, random_state, chunk_length
        As in :class:`Eigenwords`.

    Attributes
    ----------
    word_embeddings_, context_embeddings_, singular_values_, counts_, words_
        As in :class:`Eigenwords`.
    prior_counts_ : scipy.sparse.csr_matrix (V, 2kV)
        Unweighted prior counts ``P``.

    Notes
    -----
    ``fit(X, graph=..., vocabulary=...)``: ``graph`` is a
    :class:`workbench.lexicons.LexiconGraph` (re-indexed to ``vocabulary`` when its
    words differ) or a V x V adjacency aligned with the word ids. Vocabulary words absent
    from the graph have no edges (they only get their ordinary counts). A graph without any
    edge among the vocabulary raises ``ValueError``. The objective is

    .. math:: \\max_{U,V}\\ \\mathrm{tr}\\, U^\\top D_1^{-1/2} f(W^\\top L C) D_2^{-1/2} V,\\quad
              L_{ii}=1,\\ L_{ij}=\\alpha [0<|i-j|\\le N,\\ w_i\\sim_G w_j].

    References
    ----------
    Osborne, Narayan and Cohen (2016), "Encoding prior knowledge with eigenword
    embeddings", TACL 4, 417-430.

    Examples
    --------
    A lexicon graph linking words ``2i`` and ``2i + 1`` (a V x V adjacency over the word ids):

    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from workbench.eigenwords import CCAPrior
    >>> ids = np.random.default_rng(0).integers(0, 20, size=2000)
    >>> pairs = np.arange(0, 20, 2)
    >>> graph = sp.coo_matrix((np.ones(10), (pairs, pairs + 1)), shape=(20, 20))
    >>> est = CCAPrior(n_components=4, alpha=0.5, n_neighbors=3, solver="dense")
    >>> est = est.fit(ids, graph=graph + graph.T)
    >>> est.word_embeddings_.shape, est.prior_counts_.shape
    ((20, 4), (20, 80))
    >>> est.words_ is None  # no vocabulary given: to_word_vectors() needs one
    True
    """

    def __init__(
        self,
        n_components: int = 300,
        *,
        alpha: float = 0.5,
        n_neighbors: int = 12,
        window: int = 2,
        which: Which = "largest",
        count_transform: Transform = "sqrt",
        solver: Solver = "svds",
        random_state: SeedLike = None,
        chunk_length: int | None = None,
    ) -> None:
        super().__init__(
            n_components,
            window=window,
            count_transform=count_transform,
            solver=solver,
            random_state=random_state,
            chunk_length=chunk_length,
        )
        self.alpha = alpha
        self.n_neighbors = n_neighbors
        self.which = which

    def fit(
        self,
        X: TokenStream,
        y: object = None,
        *,
        graph: Graph,
        vocabulary: Vocabulary | Sequence[str] | None = None,
    ) -> Self:
        """Count contexts and graph-adjacent pairs of ``X``, take the SVD; returns self."""
        alpha = _check_alpha(self.alpha)
        check_int(self.n_neighbors, "n_neighbors", low=1)
        check_choice(self.which, "which", _WHICH)
        ids, starts, V, words = self._prepare(X, vocabulary)
        if (
            not isinstance(graph, np.ndarray)
            and hasattr(graph, "reindex")
            and words is not None
            and list(graph.words) != words
        ):
            graph = graph.reindex(words)
        A = _symmetric_adjacency(graph, V)
        if A.nnz == 0:
            raise ValueError(
                "graph has no edges among the vocabulary words (check that the graph and the "
                "vocabulary use the same word forms / case)"
            )
        counts = count_contexts(ids, V, window=self.window, doc_starts=starts)
        prior = count_prior_pairs(
            ids, A, window=self.window, n_neighbors=self.n_neighbors, doc_starts=starts
        )
        res = eigenwords_svd(
            counts,
            self.n_components,
            prior=prior,
            alpha=alpha,
            transform=self.count_transform,  # type: ignore[arg-type]
            which=self.which,  # type: ignore[arg-type]
            solver=self.solver,  # type: ignore[arg-type]
            random_state=self.random_state,
        )
        self._store(res, counts, words)
        self.prior_counts_ = prior
        return self
