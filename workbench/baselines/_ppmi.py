"""PPMI-SVD: the count-based baseline of Levy, Goldberg & Dagan (2015) ("hyperwords")."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds

from workbench._typing import SeedLike
from workbench._validation import check_choice, check_float, check_int, check_random_state
from workbench.embeddings import WordVectors
from workbench.gcca import fix_signs, truncated_svd
from workbench.views import (
    WINDOW_WEIGHTINGS,
    EncodedCorpus,
    TokenCorpus,
    Vocabulary,
    count_offset,
    encode_corpus,
    ppmi,
    vocabulary_and_encoding,
    window_weight,
)

logger = logging.getLogger(__name__)

__all__ = [
    "PPMISVDFit",
    "PPMISVDParams",
    "fit_ppmi_svd",
    "ppmi_svd",
    "window_counts",
    "SVD_SOLVERS",
]

#: ``"arpack"``: exact truncated SVD (scipy's ``svds``, as hyperwords' ``sparsesvd``);
#: ``"randomized"``: randomized subspace iteration (:func:`workbench.gcca.truncated_svd`).
SVD_SOLVERS = ("arpack", "randomized")


def window_counts(
    encoded: EncodedCorpus, window: int = 5, *, weighting: str = "uniform"
) -> sp.csr_array:
    r"""Symmetric window co-occurrence counts :math:`\sum_{k=1}^{w} a_k (Z_k + Z_k^\top)`.

    Parameters
    ----------
    encoded : EncodedCorpus
        The corpus as vocabulary ids (:func:`workbench.views.vocabulary_and_encoding`);
        out-of-vocabulary tokens (id ``-1``) keep their positions and form no pair; no pair
        crosses a document boundary.
    window : int
        Half-width :math:`w \ge 1`.
    weighting : {"uniform", "harmonic", "dynamic"}
        :math:`a_k` (:func:`workbench.views.window_weight`).

    Returns
    -------
    scipy.sparse.csr_array, shape (V, V)
        Rows are words, columns contexts.
    """
    w = check_int(window, "window", low=1)
    check_choice(weighting, "weighting", WINDOW_WEIGHTINGS)
    if not isinstance(encoded, EncodedCorpus):
        raise TypeError(f"encoded must be an EncodedCorpus, got {type(encoded).__name__}")
    pos = encoded.position_in_document()
    total: sp.csr_array | None = None
    for k in range(1, w + 1):
        m = count_offset(encoded, k, _pos=pos)
        a_k = window_weight(k, w, weighting)
        if a_k != 1.0:
            m = m * a_k
        total = m if total is None else total + m
    assert total is not None
    return sp.csr_array(total + total.T)


@dataclass(frozen=True)
class PPMISVDFit:
    """Result of :func:`fit_ppmi_svd`.

    Attributes
    ----------
    words : tuple of str
        Row labels of ``U`` (vocabulary words with at least one positive PPMI entry).
    U : ndarray, shape (n_words, n_components)
        Left singular vectors of the PPMI matrix (sign-fixed).
    s : ndarray, shape (n_components,)
        Singular values, descending.
    n_pairs : float
        Total (weighted) number of word--context pairs counted, :math:`D`.
    nnz : int
        Positive entries of the PPMI matrix.
    """

    words: tuple[str, ...]
    U: np.ndarray
    s: np.ndarray
    n_pairs: float
    nnz: int

    def vectors(self, eig: float = 0.5) -> WordVectors:
        r"""Word vectors :math:`U_k \Sigma_k^{p}` with ``p = eig``."""
        p = check_float(eig, "eig", low=0)
        return WordVectors(list(self.words), self.U * self.s**p)


class PPMISVDParams(TypedDict, total=False):
    """The keyword arguments of :func:`fit_ppmi_svd` (documented in :func:`ppmi_svd`)."""

    vocab: Vocabulary | Sequence[str] | None
    max_vocab: int | None
    min_count: int
    window: int
    weighting: str
    cds: float
    shift: float
    n_components: int
    svd_solver: str
    n_iter: int
    random_state: SeedLike


def fit_ppmi_svd(
    corpus: TokenCorpus | EncodedCorpus,
    *,
    vocab: Vocabulary | Sequence[str] | None = None,
    max_vocab: int | None = None,
    min_count: int = 1,
    window: int = 5,
    weighting: str = "uniform",
    cds: float = 0.75,
    shift: float = 1.0,
    n_components: int = 300,
    svd_solver: str = "arpack",
    n_iter: int = 5,
    random_state: SeedLike = None,
) -> PPMISVDFit:
    r"""Count window pairs, take the (shifted) PPMI with context-distribution smoothing, SVD it.

    Parameters are those of :func:`ppmi_svd` (without ``eig``: the fit keeps ``U`` and ``s``
    so that several exponents can be tried without refitting).

    Returns
    -------
    PPMISVDFit
    """
    k = check_int(n_components, "n_components", low=1)
    w = check_int(window, "window", low=1)
    mc = check_int(min_count, "min_count", low=1)
    max_vocab = check_int(max_vocab, "max_vocab", low=1, allow_none=True)
    cds = check_float(cds, "cds", low=0, low_open=True)
    shift = check_float(shift, "shift", low=0, low_open=True)
    q = check_int(n_iter, "n_iter", low=0)
    check_choice(weighting, "weighting", WINDOW_WEIGHTINGS)
    check_choice(svd_solver, "svd_solver", SVD_SOLVERS)
    seed = check_random_state(random_state)
    if isinstance(corpus, (str, bytes)):
        raise TypeError("corpus must be a Corpus or an iterable of token lists, not a string")
    if isinstance(corpus, EncodedCorpus):
        if vocab is None or not isinstance(vocab, Vocabulary):
            raise ValueError("an EncodedCorpus needs the Vocabulary it was encoded with (vocab=)")
        voc, enc = vocab, corpus
    elif vocab is not None:
        voc = vocab if isinstance(vocab, Vocabulary) else Vocabulary.from_words(list(vocab))
        enc = encode_corpus(corpus, voc)
    else:
        try:
            voc, enc = vocabulary_and_encoding(corpus, max_size=max_vocab, min_count=mc)
        except ValueError as exc:
            if "no word has count" not in str(exc):
                raise
            raise ValueError(
                f"cannot build a vocabulary: the corpus is empty or no word occurs "
                f"min_count={mc} times"
            ) from None
    if enc.n_tokens == 0 or not (enc.ids >= 0).any():
        raise ValueError("the corpus is empty (no in-vocabulary token)")
    counts = window_counts(enc, w, weighting=weighting)
    if counts.nnz == 0:
        raise ValueError(
            f"no pair of in-vocabulary words occurs within window={w} of each other; "
            "use a larger window or a larger corpus"
        )
    n_pairs = float(counts.sum())
    pm = ppmi(counts, cds=cds, shift=shift)
    has = np.diff(pm.indptr) > 0
    n_rows = int(has.sum())
    if k > min(n_rows, pm.shape[1]):
        raise ValueError(
            f"n_components={k} exceeds the size of the PPMI matrix: {n_rows} words with a "
            f"positive entry x {pm.shape[1]} contexts; lower n_components"
        )
    x = pm[has]
    if svd_solver == "arpack" and k < min(x.shape):
        rng = np.random.default_rng(seed)
        u, s, _ = svds(x, k=k, v0=rng.standard_normal(min(x.shape)))
        order = np.argsort(-s)
        u, s = np.ascontiguousarray(u[:, order]), s[order]
    else:
        res = truncated_svd(
            x, k, center=False, method="randomized", n_iter=int(q), random_state=seed
        )
        u, s = np.array(res.U), np.asarray(res.s)
    if s.size < k or s[-1] <= 0:
        raise ValueError(f"the PPMI matrix has rank < n_components={k}; lower n_components")
    fix_signs(u)
    words = tuple(voc.words[i] for i in np.flatnonzero(has))
    logger.info("PPMI-SVD: %d words, %d positive entries, %g pairs", len(words), pm.nnz, n_pairs)
    return PPMISVDFit(words, u, s, n_pairs, int(pm.nnz))


def ppmi_svd(
    corpus: TokenCorpus | EncodedCorpus, *, eig: float = 0.5, **params: Unpack[PPMISVDParams]
) -> WordVectors:
    r"""Word vectors from the SVD of a (shifted) PPMI matrix -- the "hyperwords" recipe.

    Parameters
    ----------
    corpus : Corpus, iterable of token lists, or EncodedCorpus
        E.g. ``workbench.datasets.load_corpus("5M")``. An :class:`EncodedCorpus` needs ``vocab``.
    vocab : Vocabulary or sequence of str, optional
        Words (rows and contexts). Default: built from the corpus with ``max_vocab`` /
        ``min_count``. Out-of-vocabulary tokens keep their positions and form no pair.
    max_vocab : int or None
        Keep the ``max_vocab`` most frequent words.
    min_count : int
        Minimum corpus frequency of a word.
    window : int
        Symmetric window half-width (hyperwords ``win``).
    weighting : {"uniform", "harmonic", "dynamic"}
        Weight of a context ``k`` words away: 1, :math:`1/k`, or :math:`(w-k+1)/w` (word2vec's
        dynamic window in expectation, hyperwords ``dyn``).
    cds : float
        Context-distribution smoothing exponent :math:`\alpha` (1: none).
    shift : float
        :math:`k` of shifted PPMI (hyperwords ``neg``; 1: no shift).
    eig : float
        Exponent :math:`p` of the singular values in :math:`U_k \Sigma_k^p` (0.5: symmetric
        weighting; 0: :math:`U_k` alone; 1: classic SVD).
    n_components : int
        Dimensions :math:`k`.
    svd_solver : {"arpack", "randomized"}
        ``"arpack"`` (exact, scipy's ``svds``) or ``"randomized"``
        (:func:`workbench.gcca.truncated_svd`; the flat spectrum of a PPMI matrix needs many
        iterations for the trailing dimensions).
    n_iter : int
        Subspace iterations of the randomized SVD.
    random_state : int, Generator or None
        Seeds the ARPACK start vector or the randomized SVD (results are reproducible for a
        fixed seed; singular vectors are sign-fixed: largest entry positive).

    Returns
    -------
    WordVectors
        Words with at least one positive PPMI entry, in vocabulary order.

    Notes
    -----
    With window counts :math:`\#(w, c) = \sum_{k=1}^{\mathrm{window}} a_k
    (\#_k(w, c) + \#_k(c, w))` (:func:`window_counts`) the matrix
    :math:`M_{wc} = \max(\mathrm{PMI}_\alpha(w, c) - \log k, 0)` (:func:`workbench.views.ppmi`)
    is factorized by a truncated SVD :math:`M \approx U_k \Sigma_k V_k^\top` and the word vectors
    are :math:`U_k \Sigma_k^{p}`. Everything stays sparse.

    References
    ----------
    O. Levy, Y. Goldberg, I. Dagan (2015). Improving distributional similarity with lessons
    learned from word embeddings. TACL 3, 211--225.
    J. Bullinaria, J. Levy (2007). Extracting semantic representations from word
    co-occurrence statistics: a computational study. Behavior Research Methods 39(3).

    Examples
    --------
    >>> docs = [["the", "cat", "sat", "on", "the", "mat"], ["the", "dog", "sat", "on", "the", "log"],
    ...         ["a", "cat", "and", "a", "dog"]]
    >>> vectors = ppmi_svd(docs, window=2, n_components=2, random_state=0)
    >>> vectors
    WordVectors(n_words=9, dim=2, dtype=float64)
    >>> vectors.words[:4]
    ['the', 'a', 'cat', 'dog']
    """
    check_float(eig, "eig", low=0)
    return fit_ppmi_svd(corpus, **params).vectors(eig)
