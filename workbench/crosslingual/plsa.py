r"""Joint PLSA (JPLSA) and coupled PLSA (CPLSA) for aligned multilingual documents.

Both are fitted by MAP-EM over sparse count matrices. One EM iteration is one pass over the
nonzeros of ``X`` with ``n_topics`` floats each (a compiled kernel, :func:`_em_statistics`):
with ``R = X / (\Theta\Phi)`` evaluated at the nonzeros of ``X`` only, the E and M steps are

.. math::

    \Theta \leftarrow \operatorname{rownorm}\big(\Theta \odot (R\,\Phi^T) + \alpha - 1\big), \qquad
    \Phi \leftarrow \operatorname{rownorm}\big(\Phi \odot (\Theta^T R) + \beta - 1\big).

EM stops at ``n_iter`` iterations or earlier, when the last iteration changed the objective by
less than ``tol`` times its total change since the start (``stop_reason_`` says which). The
change is relative to the gain so far, not to the objective's size: EM from the
frequency-sorted start gains slowly at first and speeds up, so a change relative to the
objective's value would stop it on that first plateau. Folding in new documents uses
``fold_in_prior`` pseudo-counts per topic (default: the training prior, :math:`\alpha - 1`).

Inputs are *count* matrices (documents x joint terms, one per language), e.g. from
:func:`~workbench.crosslingual.documents.count_matrix`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Self, TypeAlias

import numba
import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from workbench._progress import finish_bar
from workbench._typing import Matrix
from workbench._validation import check_array, check_float, check_int

from .projections import Masks, check_aligned_views

__all__ = ["JPLSA", "CPLSA", "frequency_sorted_topics", "kl_project"]

logger = logging.getLogger(__name__)

#: ``callback(iteration, model) -> bool | None``; ``True`` stops EM early.
Callback: TypeAlias = "Callable[[int, _PLSABase], bool | None]"

#: Why EM ended: the relative change fell below ``tol``, the iteration cap, or the callback.
StopReason: TypeAlias = str

#: What :func:`_em_statistics` returns: the log-likelihood, R Phi^T and R^T Theta (on request).
_Statistics: TypeAlias = tuple[float, np.ndarray | None, np.ndarray | None]


def _counts(x: Matrix) -> sp.csr_matrix:
    c = sp.csr_matrix(x, dtype=np.float64)
    c.sum_duplicates()
    c.eliminate_zeros()
    return c


def _check_counts(
    views: Sequence[Matrix], min_views: int, masks: Masks | None
) -> list[sp.csr_matrix]:
    views = check_aligned_views(views, masks=masks, min_views=min_views)
    out = []
    for m, v in enumerate(views):
        c = _counts(v)
        if c.data.size and c.data.min() < 0:
            raise ValueError(f"view {m}: term counts must be non-negative")
        out.append(c)
    return out


@numba.njit(cache=True, nogil=True, fastmath=True)
def _em_kernel(
    indptr: np.ndarray,
    indices: np.ndarray,
    data: np.ndarray,
    theta: np.ndarray,
    phi_t: np.ndarray,
    row_acc: np.ndarray,
    col_acc: np.ndarray,
    rows_wanted: bool,
    cols_wanted: bool,
) -> float:  # pragma: no cover - compiled
    total = 0.0
    n_docs, n_topics = theta.shape
    for d in range(n_docs):
        for k in range(indptr[d], indptr[d + 1]):
            w = indices[k]
            s = 0.0
            for t in range(n_topics):
                s += theta[d, t] * phi_t[w, t]
            total += data[k] * np.log(s)
            r = data[k] / s
            if rows_wanted:
                for t in range(n_topics):
                    row_acc[d, t] += r * phi_t[w, t]
            if cols_wanted:
                for t in range(n_topics):
                    col_acc[w, t] += r * theta[d, t]
    return total


def _em_statistics(
    x: sp.csr_matrix,
    theta: np.ndarray,
    phi_t: np.ndarray,
    *,
    rows: bool = True,
    cols: bool = False,
) -> _Statistics:
    r"""One pass over the nonzeros of ``x``: :math:`\sum x \log(\Theta\Phi)` and, on request,
    :math:`R\,\Phi^T` (``rows``, documents x topics) and :math:`R^T\Theta` (``cols``, terms x
    topics), with :math:`R = X / (\Theta\Phi)` at the nonzeros.

    ``theta`` (documents x topics) and ``phi_t`` (terms x topics) must be positive; ``theta``
    need not be normalised (the tilted proportions of :func:`kl_project` are not).
    """
    theta = np.ascontiguousarray(theta, dtype=np.float64)
    phi_t = np.ascontiguousarray(phi_t, dtype=np.float64)
    row_acc = np.zeros(theta.shape if rows else (1, 1))
    col_acc = np.zeros(phi_t.shape if cols else (1, 1))
    total = _em_kernel(x.indptr, x.indices, x.data, theta, phi_t, row_acc, col_acc, rows, cols)
    return float(total), (row_acc if rows else None), (col_acc if cols else None)


def _normalize_rows(a: np.ndarray) -> np.ndarray:
    return a / a.sum(axis=1, keepdims=True)


def frequency_sorted_topics(term_counts: np.ndarray, n_topics: int) -> np.ndarray:
    """Deterministic initial topic of every term (Platt et al., 2010, footnote 2).

    Terms are sorted by decreasing frequency and cut into ``n_topics`` consecutive blocks of
    roughly equal token mass, so that each word belongs to exactly one topic, topics explain about
    the same number of tokens, and words of similar frequency share a topic. Terms never seen get
    the topics ``rank % n_topics`` (they carry no mass).

    Raises ``ValueError`` for ``n_topics < 1`` and for negative, NaN or infinite counts.
    """
    n_topics = check_int(n_topics, "n_topics", low=1)
    counts = check_array(term_counts, "term_counts").ravel()
    if (counts < 0).any():
        raise ValueError(f"term_counts must be >= 0; got {int((counts < 0).sum())} negative counts")
    order = np.argsort(-counts, kind="stable")
    sorted_counts = counts[order]
    total = sorted_counts.sum()
    topic_sorted = np.empty(len(counts), dtype=np.int64)
    if total > 0:
        mid = np.cumsum(sorted_counts) - sorted_counts / 2
        topic_sorted = np.minimum((mid / total * n_topics).astype(np.int64), n_topics - 1)
    zero = sorted_counts == 0
    topic_sorted[zero] = np.arange(int(zero.sum())) % n_topics
    topics = np.empty(len(counts), dtype=np.int64)
    topics[order] = topic_sorted
    return topics


def _init_params(
    views: Sequence[sp.csr_matrix], n_topics: int, alpha: float, beta: float
) -> tuple[list[np.ndarray], np.ndarray]:
    """M-step from the hard frequency-sorted assignment: (thetas per view, phi_t V x T)."""
    total = np.asarray(sum(np.asarray(v.sum(axis=0)).ravel() for v in views))
    topics = frequency_sorted_topics(total, n_topics)
    onehot = sp.csr_matrix(
        (np.ones(len(topics)), (np.arange(len(topics)), topics)), shape=(len(topics), n_topics)
    )
    thetas = [_normalize_rows(np.asarray((v @ onehot).todense()) + (alpha - 1)) for v in views]
    phi_t = onehot.multiply(total[:, None]).toarray() + (beta - 1)
    phi_t /= phi_t.sum(axis=0, keepdims=True)
    return thetas, phi_t


def _log_prior(thetas: Sequence[np.ndarray], phi_t: np.ndarray, alpha: float, beta: float) -> float:
    return float(
        (alpha - 1) * sum(np.log(t).sum() for t in thetas) + (beta - 1) * np.log(phi_t).sum()
    )


def _converged(objective: Sequence[float], tol: float) -> bool:
    """Whether the last step changed the objective by less than ``tol`` times its total change
    since the first value (never with ``tol == 0`` or fewer than three values)."""
    if tol <= 0 or len(objective) < 3:
        return False
    return abs(objective[-1] - objective[-2]) < tol * abs(objective[-1] - objective[0])


def _check_nonempty(views: Sequence[sp.csr_matrix]) -> list[np.ndarray]:
    lengths = []
    for m, v in enumerate(views):
        n = np.asarray(v.sum(axis=1)).ravel()
        empty = np.flatnonzero(n <= 0)
        if empty.size:
            raise ValueError(
                f"document {int(empty[0])} of view {m} is empty (no counted terms); "
                f"{empty.size} empty document(s) in that view"
            )
        lengths.append(n)
    return lengths


class _PLSABase(TransformerMixin, BaseEstimator):
    """The parameters, fold-in and ``fit_transform`` of :class:`JPLSA` and :class:`CPLSA` (the
    parameters' defaults are JPLSA's)."""

    topic_word_: np.ndarray
    n_features_in_: int

    def __init__(
        self,
        n_topics: int = 50,
        *,
        alpha: float = 1.1,
        beta: float = 1.01,
        n_iter: int = 100,
        fold_in_iter: int = 1,
        tol: float = 0.0,
        fold_in_prior: float | None = None,
    ) -> None:
        self.n_topics = n_topics
        self.alpha = alpha
        self.beta = beta
        self.n_iter = n_iter
        self.fold_in_iter = fold_in_iter
        self.tol = tol
        self.fold_in_prior = fold_in_prior

    def _validate_params(self, callback: Callback | None) -> None:
        """The parameters shared by :class:`JPLSA` and :class:`CPLSA` (MAP-EM needs
        ``alpha, beta >= 1``)."""
        check_int(self.n_topics, "n_topics", low=1)
        check_int(self.n_iter, "n_iter", low=0)
        check_float(self.alpha, "alpha", low=1)
        check_float(self.beta, "beta", low=1)
        check_int(self.fold_in_iter, "fold_in_iter", low=1)
        check_float(self.tol, "tol", low=0)
        check_float(self.fold_in_prior, "fold_in_prior", low=0, allow_none=True)
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable or None, got {type(callback).__name__}")

    def _fit(
        self,
        views: Sequence[Matrix],
        masks: Masks | None,
        callback: Callback | None,
        *,
        min_views: int,
    ) -> Self:
        """``fit``: check the parameters and the count matrices, then run :meth:`_em`."""
        self._validate_params(callback)
        self._em(_check_counts(views, min_views=min_views, masks=masks), callback)
        return self

    def _em(
        self, views: list[sp.csr_matrix], callback: Callback | None
    ) -> None:  # pragma: no cover
        """MAP-EM on the checked count matrices; sets the fitted attributes."""
        raise NotImplementedError

    def _progress_bar(self) -> tqdm:
        return tqdm(
            total=self.n_iter + 1, desc=f"{type(self).__name__} EM", disable=None, leave=False
        )

    def _set_trace(self, objective: list[float], loglik: list[float], stop: StopReason) -> None:
        """Store the EM trace: objective, log-likelihood, iterations run and why EM ended."""
        self.objective_ = objective
        self.log_likelihood_ = loglik
        self.n_iter_ = len(objective) - 1
        self.stop_reason_ = stop
        self.converged_ = stop == "converged"

    def _set_topic_word(self, phi_t: np.ndarray, n_terms: int) -> None:
        """Store the topic-word estimate (for a ``callback`` during EM, and at its end)."""
        self.topic_word_ = np.ascontiguousarray(phi_t.T)
        self.n_features_in_ = n_terms

    def transform(self, X: Matrix) -> np.ndarray:
        """Fold in documents (counts, documents x terms, any language): topic proportions.

        Starts from uniform proportions and runs ``fold_in_iter`` EM iterations (default 1, as in
        the paper) with :math:`\\Phi` fixed, adding ``fold_in_prior`` pseudo-counts per topic
        (``None``: the training prior ``alpha - 1``; 0: maximum likelihood). Compare the result
        with the L1 distance.
        """
        prior = check_float(self.fold_in_prior, "fold_in_prior", low=0, allow_none=True)
        prior = self.alpha - 1 if prior is None else prior
        check_is_fitted(self, "topic_word_")
        x = check_array(X, "X", ndim=(1, 2), accept_sparse=True)
        x = _counts(x if sp.issparse(x) else np.atleast_2d(x))
        if x.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {x.shape[1]} terms, the model was fitted on {self.n_features_in_}"
            )
        if x.data.size and x.data.min() < 0:
            raise ValueError("term counts must be non-negative")
        _check_nonempty([x])
        phi_t = np.ascontiguousarray(self.topic_word_.T)
        theta = np.full((x.shape[0], self.n_topics), 1.0 / self.n_topics)
        for _ in range(self.fold_in_iter):
            _, row_acc, _ = _em_statistics(x, theta, phi_t)
            theta = _normalize_rows(theta * row_acc + prior)
        return theta

    def fit_transform(  # type: ignore[override]
        self, views: Sequence[Matrix], y: object = None, *, masks: Masks | None = None
    ) -> list[np.ndarray]:
        """Fit, then fold in every view's documents: ``[transform(v) for v in views]`` (the
        training proportions are in ``doc_topic_``). ``y`` is ignored."""
        if isinstance(views, Iterator):  # (a one-shot iterator is read once)
            views = list(views)
        self.fit(views, masks=masks)
        return [self.transform(x) for x in views]


class JPLSA(_PLSABase):
    r"""Joint PLSA: one topic vector per aligned tuple, topics over the merged vocabulary.

    Parameters
    ----------
    n_topics : int
    alpha, beta : float, default 1.1, 1.01
        Symmetric Dirichlet concentrations of the topic proportions and topic-word distributions
        (the paper's values).
    n_iter : int, default 100
        EM iterations (the paper ran up to 500 with early stopping on dev).
    fold_in_iter : int, default 1
        EM iterations when folding in new documents.
    tol : float, default 0.0
        EM stops when an iteration changes the MAP objective by less than ``tol`` times its
        total change since the start (0: always run ``n_iter`` iterations).
    fold_in_prior : float or None, default None
        Pseudo-counts per topic when folding in (None: ``alpha - 1``; 0: no prior).

    Attributes
    ----------
    topic_word_ : ndarray (n_topics, n_terms)
        :math:`\phi_t`.
    doc_topic_ : ndarray (n_documents, n_topics)
        :math:`\theta_i` of the training tuples.
    objective_ : list of float
        MAP objective before every iteration and after the last (non-decreasing).
    log_likelihood_ : list of float
        :math:`\sum_{i,w} n_{iw}\log\sum_t\theta_{it}\phi_{tw}` at the same points.
    n_iter_ : int
        EM iterations run.
    stop_reason_ : str
        ``"converged"`` (relative change below ``tol``, see ``tol``), ``"cap"`` (``n_iter`` reached) or
        ``"callback"``.
    converged_ : bool
        ``stop_reason_ == "converged"``.

    Notes
    -----
    A tuple's documents are pooled into one document over the joint vocabulary; MAP-EM maximises

    .. math:: \sum_{i,w} n_{iw} \log \sum_t \theta_{it}\phi_{tw}
              + (\alpha-1)\sum_{i,t}\log\theta_{it} + (\beta-1)\sum_{t,w}\log\phi_{tw}.

    Initialisation: every term is assigned to one topic by
    :func:`frequency_sorted_topics` and the first M-step uses that hard assignment.

    References
    ----------
    T. Hofmann (1999). Probabilistic latent semantic analysis. UAI.
    J. C. Platt, K. Toutanova, W. Yih (2010), section 2.4.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> rng = np.random.default_rng(0)
    >>> en = sp.csr_matrix(rng.poisson(1.0, size=(8, 12)))  # 8 aligned documents, 12 joint terms
    >>> es = sp.csr_matrix(rng.poisson(1.0, size=(8, 12)))
    >>> from workbench.crosslingual import JPLSA
    >>> jplsa = JPLSA(n_topics=3, n_iter=20).fit([en, es])
    >>> jplsa.topic_word_.shape, jplsa.doc_topic_.shape
    ((3, 12), (8, 3))
    >>> bool(np.all(np.diff(jplsa.objective_) >= -1e-9))  # EM never lowers the MAP objective
    True
    >>> theta = jplsa.transform(es[:2])  # fold in two Spanish documents
    >>> theta.shape, bool(np.allclose(theta.sum(axis=1), 1))
    ((2, 3), True)
    """

    def fit(
        self,
        views: Sequence[Matrix],
        y: object = None,
        *,
        masks: Masks | None = None,
        callback: Callback | None = None,
    ) -> Self:
        """Fit on aligned count matrices (one per language, summed into joint documents).

        ``masks``: optional boolean vector per view of its observed documents; only the
        documents observed in every view are used. ``y`` is ignored. Returns ``self``.

        ``callback(iteration, model)`` is called after every EM iteration with ``topic_word_``
        set to the current estimate (e.g. to evaluate on dev for early stopping); returning
        ``True`` stops the iterations.
        """
        return self._fit(views, masks, callback, min_views=1)

    def _em(self, views: list[sp.csr_matrix], callback: Callback | None) -> None:
        """EM on the aligned documents summed into joint documents."""
        _check_nonempty([sum(views[1:], views[0])])
        x = sum(views[1:], views[0]).tocsr()
        (theta,), phi_t = _init_params([x], self.n_topics, self.alpha, self.beta)
        a1, b1 = self.alpha - 1, self.beta - 1
        objective: list[float] = []
        loglik_curve: list[float] = []
        stop: StopReason = "cap"
        bar = self._progress_bar()
        for _ in range(self.n_iter + 1):
            bar.update()
            last = len(objective) == self.n_iter
            loglik, row_acc, col_acc = _em_statistics(x, theta, phi_t, rows=not last, cols=not last)
            loglik_curve.append(loglik)
            objective.append(loglik + _log_prior([theta], phi_t, self.alpha, self.beta))
            if _converged(objective, self.tol):
                stop = "converged"
                break
            if last:
                break
            assert row_acc is not None and col_acc is not None
            new_theta = _normalize_rows(theta * row_acc + a1)
            phi_t = phi_t * col_acc + b1
            phi_t /= phi_t.sum(axis=0, keepdims=True)
            theta = new_theta
            if callback is not None:
                self._set_topic_word(phi_t, x.shape[1])
                if callback(len(objective), self):
                    loglik, _, _ = _em_statistics(x, theta, phi_t, rows=False)
                    loglik_curve.append(loglik)
                    objective.append(loglik + _log_prior([theta], phi_t, self.alpha, self.beta))
                    stop = "callback"
                    break
        finish_bar(bar)  # converged early (or the last iteration): complete, not failed
        self.doc_topic_ = theta
        self._set_topic_word(phi_t, x.shape[1])
        self._set_trace(objective, loglik_curve, stop)


def kl_project(
    thetas: Sequence[np.ndarray],
    phi_t: np.ndarray,
    views: Sequence[sp.csr_matrix],
    *,
    epsilon: float = 0.0,
    n_steps: int = 20,
    lam: np.ndarray | None = None,
    penalty: float | None = None,
) -> tuple[list[np.ndarray], np.ndarray, list[np.ndarray], list[_Statistics]]:
    r"""KL projection of the topic posteriors onto the CPLSA constraint set (projected gradient).

    For aligned documents :math:`d^m` (length :math:`n_m`) with posteriors
    :math:`p(z \mid d^m, w) \propto \theta_{mz}\phi_{zw}`, find

    .. math:: \min_q \mathrm{KL}(q \,\|\, p) \quad\text{s.t.}\quad
              \big| E_{q}[\tfrac{1}{n_m}\textstyle\sum_j 1(z^m_j=t)]
              - E_{q}[\tfrac{1}{n_{m'}}\textstyle\sum_j 1(z^{m'}_j=t)] \big| \le \epsilon

    for every topic ``t`` and every pair of languages ``m < m'``. The solution is
    :math:`q_\lambda(z^m_j=t) \propto p(z^m_j=t)\exp(-\ell_{mt}/n_m)` with
    :math:`\ell_m = \sum_{m'>m}\lambda_{mm'} - \sum_{m'<m}\lambda_{m'm}`, where
    :math:`\lambda = \lambda^+ - \lambda^-` maximises the concave dual
    :math:`-\log Z(\lambda) - \epsilon\,\|\lambda\|_1`; we run projected gradient ascent on
    :math:`\lambda^\pm \ge 0`, preconditioned by the diagonal majorizer of the dual's Hessian
    (:math:`\mathrm{Cov}_q(g) \preceq \mathrm{diag}(\sum_m E_q[\text{fraction}_m]/n_m)`) with a
    trust region (a topic's tilt changes by at most a factor :math:`e` per step)
    (Ganchev et al., 2010).

    With a finite ``penalty`` :math:`\sigma` the slack is not fixed but paid for, as in the
    paper's objective (:math:`-\|\epsilon\|`): the slack becomes
    :math:`\epsilon + \xi` with :math:`\xi \ge 0` and the term :math:`\sigma\|\xi\|_1` is
    added to the KL divergence. Its dual is the same with the box :math:`0 \le \lambda^\pm \le
    \sigma` (the dual norm of :math:`\ell_1` is :math:`\ell_\infty`): ``penalty=None`` (an
    infinite weight) is the hard constraint, ``penalty=0`` leaves the posteriors untouched
    (independent PLSA per language with shared topics). The tilt only rescales each document's topic proportions, so a step
    costs one pass over the nonzeros.

    Parameters
    ----------
    thetas : list of ndarray (n_documents, n_topics)
        Current topic proportions of each language's documents.
    phi_t : ndarray (n_terms, n_topics)
        Topic-word distributions, transposed.
    views : list of csr_matrix (n_documents, n_terms)
        Counts per language.
    epsilon : float
        Allowed difference of expected topic fractions.
    n_steps : int
        Projected-gradient steps.
    lam : ndarray (n_pairs, 2, n_documents, n_topics), optional
        Warm start :math:`(\lambda^+, \lambda^-)`.
    penalty : float or None
        Weight :math:`\sigma \ge 0` of the slack penalty (None: hard constraint).

    Returns
    -------
    tilted : list of ndarray
        Unnormalised tilted proportions :math:`\theta_m \exp(-\ell_m / n_m)`: the projected
        posterior is :math:`q(z \mid d^m, w) \propto \tilde\theta_{mz}\phi_{zw}`.
    lam : ndarray
        The dual variables (for warm starts).
    fractions : list of ndarray (n_documents, n_topics)
        Expected topic fractions under the projected posterior.
    statistics : list of (float, ndarray, ndarray)
        Per language, at the projected posterior: :math:`\sum x \log(\tilde\Theta_m\Phi)`,
        :math:`R_m\Phi^T` and :math:`R_m^T\tilde\Theta_m` with
        :math:`R_m = X_m / (\tilde\Theta_m\Phi)` at the nonzeros (the M-step's expected counts
        are ``tilted_m * R_m Phi^T`` and ``phi_t * R_m^T tilted_m``).

    Raises
    ------
    ValueError
        ``epsilon < 0``, ``n_steps < 0``, ``penalty < 0``, one ``thetas`` entry per view not given, or ``lam``
        of the wrong shape.
    """
    epsilon = check_float(epsilon, "epsilon", low=0)
    n_steps = check_int(n_steps, "n_steps", low=0)
    penalty = check_float(penalty, "penalty", low=0, allow_none=True)
    upper = np.inf if penalty is None else penalty
    if len(thetas) != len(views) or not views:
        raise ValueError(f"thetas has {len(thetas)} entries for {len(views)} views")
    n_views = len(views)
    n_docs, n_topics = thetas[0].shape
    pairs = [(a, b) for a in range(n_views) for b in range(a + 1, n_views)]
    lengths = [np.asarray(v.sum(axis=1)).ravel() for v in views]
    phi_t = np.ascontiguousarray(phi_t, dtype=np.float64)
    if lam is None:
        lam = np.zeros((len(pairs), 2, n_docs, n_topics))
    elif np.shape(lam) != (len(pairs), 2, n_docs, n_topics):
        raise ValueError(
            f"lam has shape {np.shape(lam)}, expected {(len(pairs), 2, n_docs, n_topics)}"
        )
    inv_len = [(1.0 / n)[:, None] for n in lengths]

    def tilted_and_fractions(
        final: bool,
    ) -> tuple[list[np.ndarray], list[np.ndarray], list[_Statistics]]:
        ell = [np.zeros((n_docs, n_topics)) for _ in range(n_views)]
        for p, (a, b) in enumerate(pairs):
            net = lam[p, 0] - lam[p, 1]
            ell[a] += net
            ell[b] -= net
        tilted, fracs, stats = [], [], []
        for m in range(n_views):
            e = -ell[m] * inv_len[m]
            e -= e.max(axis=1, keepdims=True)  # a per-document scale: cancels in q
            th = thetas[m] * np.exp(e)
            st = _em_statistics(views[m], th, phi_t, cols=final)
            fracs.append(th * st[1] * inv_len[m])
            tilted.append(th)
            stats.append(st)
        return tilted, fracs, stats

    tilted, fracs, stats = tilted_and_fractions(n_steps == 0)
    for step_no in range(n_steps):
        for p, (a, b) in enumerate(pairs):
            g = fracs[a] - fracs[b]
            # diagonal majorizer of the dual's Hessian Cov_q(g) <= diag(E_q[sum_j e_zj e_zj^T]/n^2)
            curv = (n_views - 1) * (fracs[a] * inv_len[a] + fracs[b] * inv_len[b])
            step = 1.0 / np.maximum(curv, 1e-12)
            # trust region: the tilt of a topic changes by at most a factor e per step
            cap = 1.0 / (inv_len[a] + inv_len[b])
            for sign, col in ((1.0, 0), (-1.0, 1)):
                delta = np.clip(step * (sign * g - epsilon), -cap, cap)
                lam[p, col] = np.clip(lam[p, col] + delta, 0.0, upper)
        tilted, fracs, stats = tilted_and_fractions(step_no == n_steps - 1)
    return tilted, lam, fracs, stats


class CPLSA(_PLSABase):
    r"""Coupled PLSA: separate topic vectors per language, coupled by posterior regularization.

    Parameters
    ----------
    n_topics : int
    alpha, beta : float, default 1.1, 1.01
    n_iter : int, default 30
        EM iterations (the paper: CPLSA needs about five times fewer than JPLSA).
    epsilon : float, default 0.0
        Free slack of the topic-proportion constraints (0: expected fractions equal).
    epsilon_penalty : float or None, default None
        Weight :math:`\sigma` of the paper's penalty :math:`\sigma\|\epsilon\|_1` on extra slack
        (see :func:`kl_project`): None is an infinite weight (the hard constraint with slack
        ``epsilon``); 0 removes the coupling (independent PLSA per language, shared topics).
    n_projection_steps : int, default 5
        Projected-gradient steps of the KL projection per EM iteration (warm-started).
    fold_in_iter : int, default 1
    tol : float, default 0.0
        As in :class:`JPLSA`: EM stops when an iteration changes the objective by less than
        ``tol`` times its total change since the start (0: run ``n_iter``).
    fold_in_prior : float or None, default None
        As in :class:`JPLSA`.

    Attributes
    ----------
    topic_word_ : ndarray (n_topics, n_terms)
    doc_topic_ : list of ndarray (n_documents, n_topics)
        :math:`\theta` of every language's training documents.
    objective_ : list of float
        Posterior-regularised MAP objective :math:`\sum_m \log P(d^m)` + log priors
        :math:`- \mathrm{KL}(q\,\|\,p)` (:math:`- \sigma\|\xi\|_1` with a finite
        ``epsilon_penalty``) at the (approximate) projection, per iteration.
    log_likelihood_, n_iter_, stop_reason_, converged_
        As in :class:`JPLSA`.
    constraint_violation_ : list of float
        Largest :math:`|E_q[\text{fraction}_m] - E_q[\text{fraction}_{m'}]| - \epsilon` per iteration.

    Notes
    -----
    Objective for a document pair (Platt et al., 2010, section 2.5), summed over pairs and plus the
    Dirichlet log priors:

    .. math:: \log P(d_1\mid\theta_1,\phi) + \log P(d_2\mid\theta_2,\phi)
              - \mathrm{KL}\big(Q \,\|\, P(z_1\mid d_1), P(z_2\mid d_2)\big)

    with :math:`Q` the posteriors whose expected topic fractions agree up to :math:`\epsilon`.
    EM-like fitting (Ganchev et al., 2009): E-step posteriors, KL projection onto :math:`Q`
    (:func:`kl_project`), M-step on the projected expected counts.

    References
    ----------
    K. Ganchev, J. Graca, J. Gillenwater, B. Taskar (2010). Posterior regularization for
    structured latent variable models. JMLR 11.
    J. C. Platt, K. Toutanova, W. Yih (2010), section 2.5.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> rng = np.random.default_rng(0)
    >>> en = sp.csr_matrix(rng.poisson(1.0, size=(8, 12)))  # 8 aligned documents, 12 joint terms
    >>> es = sp.csr_matrix(rng.poisson(1.0, size=(8, 12)))
    >>> from workbench.crosslingual import CPLSA
    >>> cplsa = CPLSA(n_topics=3, n_iter=10).fit([en, es])
    >>> cplsa.topic_word_.shape, [t.shape for t in cplsa.doc_topic_]
    ((3, 12), [(8, 3), (8, 3)])
    >>> theta = cplsa.transform(en[:2])
    >>> theta.shape, bool(np.allclose(theta.sum(axis=1), 1))
    ((2, 3), True)
    """

    def __init__(
        self,
        n_topics: int = 50,
        *,
        alpha: float = 1.1,
        beta: float = 1.01,
        n_iter: int = 30,
        epsilon: float = 0.0,
        epsilon_penalty: float | None = None,
        n_projection_steps: int = 5,
        fold_in_iter: int = 1,
        tol: float = 0.0,
        fold_in_prior: float | None = None,
    ) -> None:
        super().__init__(n_topics, alpha=alpha, beta=beta, n_iter=n_iter,
                         fold_in_iter=fold_in_iter, tol=tol, fold_in_prior=fold_in_prior)  # fmt: skip
        self.epsilon = epsilon
        self.epsilon_penalty = epsilon_penalty
        self.n_projection_steps = n_projection_steps

    def fit(
        self,
        views: Sequence[Matrix],
        y: object = None,
        *,
        masks: Masks | None = None,
        callback: Callback | None = None,
    ) -> Self:
        """Fit on aligned count matrices, one per language (at least two); ``masks``, ``y``
        and ``callback`` as in :meth:`JPLSA.fit`. Returns ``self``."""
        return self._fit(views, masks, callback, min_views=2)

    def _validate_params(self, callback: Callback | None) -> None:
        super()._validate_params(callback)
        check_float(self.epsilon, "epsilon", low=0)
        check_float(self.epsilon_penalty, "epsilon_penalty", low=0, allow_none=True)
        check_int(self.n_projection_steps, "n_projection_steps", low=0)

    def _em(self, views: list[sp.csr_matrix], callback: Callback | None) -> None:
        """EM with the KL projection of every iteration's posteriors."""
        _check_nonempty(views)
        thetas, phi_t = _init_params(views, self.n_topics, self.alpha, self.beta)
        a1, b1 = self.alpha - 1, self.beta - 1
        lam = None
        objective: list[float] = []
        loglik_curve: list[float] = []
        violation: list[float] = []
        stop: StopReason = "cap"
        penalty = self.epsilon_penalty
        bar = self._progress_bar()
        for it in range(self.n_iter + 1):
            bar.update()
            tilted, lam, fracs, stats = kl_project(
                thetas,
                phi_t,
                views,
                epsilon=self.epsilon,
                n_steps=self.n_projection_steps,
                lam=lam,
                penalty=penalty,
            )
            loglik = 0.0
            kl = 0.0
            for m, v in enumerate(views):
                loglik_p, _, _ = _em_statistics(v, thetas[m], phi_t, rows=False)
                loglik += loglik_p
                # KL(q||p) = E_q[log tilt] - log Z, per token; tilt_t = tilted_t / theta_t
                log_tilt = np.log(tilted[m] / thetas[m])
                n_m = np.asarray(v.sum(axis=1)).ravel()
                kl += float(np.sum(fracs[m] * n_m[:, None] * log_tilt))
                kl -= stats[m][0] - loglik_p
            pairs = [(a, b) for a in range(len(views)) for b in range(a + 1, len(views))]
            gaps = [np.abs(fracs[a] - fracs[b]) for a, b in pairs]
            slack = 0.0
            if penalty is not None:  # the paper's -||epsilon||: the slack used beyond epsilon
                slack = penalty * sum(float(np.maximum(g - self.epsilon, 0).sum()) for g in gaps)
            loglik_curve.append(loglik)
            objective.append(
                loglik + _log_prior(thetas, phi_t, self.alpha, self.beta) - max(kl, 0.0) - slack
            )
            violation.append(float(max(g.max() for g in gaps)) - float(self.epsilon))
            if _converged(objective, self.tol):
                stop = "converged"
                break
            if it == self.n_iter:
                break
            word_counts = np.zeros_like(phi_t)
            new_thetas = []
            for m in range(len(views)):
                _, row_acc, col_acc = stats[m]
                new_thetas.append(_normalize_rows(tilted[m] * row_acc + a1))
                word_counts += col_acc
            phi_t = phi_t * word_counts + b1
            phi_t /= phi_t.sum(axis=0, keepdims=True)
            thetas = new_thetas
            if callback is not None:
                self._set_topic_word(phi_t, views[0].shape[1])
                if callback(it + 1, self):
                    stop = "callback"
                    break
        finish_bar(bar)  # converged early (or the last iteration): complete, not failed
        self.doc_topic_ = thetas
        self._set_topic_word(phi_t, views[0].shape[1])
        self._set_trace(objective, loglik_curve, stop)
        if stop == "callback":  # (the objective after the callback's update was not evaluated)
            self.n_iter_ += 1
        self.constraint_violation_ = violation
