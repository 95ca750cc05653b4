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

from __future__ import annotations

import logging
import numbers
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

logger = logging.getLogger(__name__)

__all__ = ["lsa", "train_word2vec", "GloVeFit", "fit_glove", "glove_objective", "train_glove"]


def _word_vectors(words: Sequence[str], vectors: np.ndarray) -> Any:
    from workbench.embeddings import WordVectors

    return WordVectors(list(words), vectors)


def _words_of(views: Sequence[Any], words: Sequence[str] | None, n: int) -> list[str]:
    if words is None:
        for v in views:
            vocab = getattr(v, "vocab", None)
            if vocab is not None:
                words = list(vocab.words)
                break
        else:
            raise ValueError("words is required when the views carry no vocabulary")
    words = list(words)
    if len(words) != n:
        raise ValueError(f"got {len(words)} words for {n} rows")
    return words


def _positive_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


# ------------------------------------------------------------------------------------ LSA
def lsa(
    views: Sequence[Any],
    words: Sequence[str] | None = None,
    n_components: int = 300,
    *,
    center: bool = False,
    singular_value_power: float = 1.0,
    n_iter: int = 5,
    random_state: Any = 0,
) -> Any:
    r"""Single-view LSA: truncated SVD of the sum of the (preprocessed) views.

    Parameters
    ----------
    views : list of View / sparse / dense over the same rows
        E.g. the 15 positional views after ``workbench.views.preprocess``; they are summed
        into one word x context matrix :math:`Y = \sum_j Y_j`. :class:`View` objects are
        summed by context label (so views truncated to different top-t contexts add up
        correctly); plain matrices must have the same columns.
    words : sequence of str, optional
        Row labels (default: the views' vocabulary).
    n_components : int
        ``k``.
    center : bool
        Mean-centre :math:`Y` (implicitly) first, i.e. PCA instead of plain LSA.
    singular_value_power : float
        Vectors are :math:`U_k S_k^p` (``p = 1`` classic LSA; ``0`` or ``0.5`` often work
        better for similarity, Levy et al. 2015).
    n_iter : int
        Power iterations of the randomized SVD.

    Returns
    -------
    WordVectors
        Rows of :math:`Y` that are all zero are left out.

    References
    ----------
    S. Deerwester et al. (1990). Indexing by latent semantic analysis. JASIS 41(6).
    Rastogi et al. (2015), Sec. 2 (LSA as the single-view special case).
    """
    from workbench.gcca import _check_views, truncated_svd

    xs, _ = _check_views(views)
    k = _positive_int(n_components, "n_components")
    raw = [getattr(v, "contexts", None) for v in views]
    labels: list[tuple[str, ...]] = [tuple(lab) for lab in raw if lab is not None]
    if len(labels) == len(raw) and len(set(labels)) > 1:
        # Views (e.g. truncated to their own top-t contexts) are summed by context label.
        union = list(dict.fromkeys(c for lab in labels for c in lab))
        col = {c: i for i, c in enumerate(union)}
        total: Any = None
        for x, lab in zip(xs, labels):
            remap = sp.csr_array(
                (np.ones(len(lab)), (np.arange(len(lab)), [col[c] for c in lab])),
                shape=(len(lab), len(union)),
            )
            part = sp.csr_array(x) @ remap
            total = part if total is None else total + part
    else:
        d = {x.shape[1] for x in xs}
        if len(d) != 1:
            raise ValueError(
                f"LSA sums the views, which needs the same columns; got widths {sorted(d)} "
                "(pass View objects to sum by context label)"
            )
        total = xs[0].copy()
        for x in xs[1:]:
            total = total + x
    if sp.issparse(total):
        total = sp.csr_array(total)
        nz = np.diff(total.indptr) > 0
    else:
        nz = np.any(total != 0, axis=1)
    names = _words_of(views, words, total.shape[0])
    if k > min(int(nz.sum()), total.shape[1]):
        raise ValueError(
            f"n_components={k} exceeds min(non-zero rows, columns) = "
            f"{min(int(nz.sum()), total.shape[1])}"
        )
    y = total[nz] if not nz.all() else total
    res = truncated_svd(y, k, center=center, method="randomized", n_iter=n_iter, random_state=random_state)
    vec = res.U * (res.s**singular_value_power).astype(res.U.dtype)
    keep = np.flatnonzero(nz)
    return _word_vectors([names[i] for i in keep], vec)


# ------------------------------------------------------------------------------- word2vec
def _stable_hash(s: str) -> int:
    """Process-independent string hash for gensim's seeded vectors (``hash`` is salted)."""
    return zlib.crc32(s.encode("utf-8"))


class _Sentences:
    """Re-iterable token lists of a corpus, split into pieces gensim accepts (<= 10,000 tokens)."""

    def __init__(self, corpus: Any, max_len: int = 10_000) -> None:
        if isinstance(corpus, (str, bytes)):
            raise TypeError("corpus must be a Corpus or an iterable of token lists, not a string")
        if isinstance(corpus, Iterator):
            corpus = list(corpus)  # a one-shot iterator cannot be read once per epoch
        self.corpus = corpus
        self.max_len = max_len

    def __iter__(self) -> Iterator[list[str]]:
        docs: Iterable[Any]
        if hasattr(self.corpus, "iter_documents"):
            docs = (doc.tokens for doc in self.corpus.iter_documents())
        else:
            docs = self.corpus
        for i, toks in enumerate(docs):
            if isinstance(toks, str):
                raise TypeError(f"corpus document {i} is a string; pass token lists")
            toks = list(toks)
            for s in range(0, len(toks), self.max_len):
                yield toks[s : s + self.max_len]


def train_word2vec(
    corpus: Any,
    *,
    words: Sequence[str] | None = None,
    vector_size: int = 300,
    window: int = 10,
    min_count: int = 5,
    negative: int = 5,
    sample: float = 1e-3,
    epochs: int = 5,
    seed: int = 0,
    workers: int = 1,
) -> Any:
    """Skip-gram word2vec with negative sampling (gensim), as the paper's WSG baseline.

    Parameters
    ----------
    corpus : Corpus or iterable of token lists
        E.g. ``workbench.datasets.load_corpus("5M")`` (documents longer than 10,000 tokens are
        split, gensim's limit).
    words : sequence of str, optional
        Restrict the vocabulary to these words (the paper gave word2vec the MVLSA vocabulary):
        other tokens are discarded before windowing, as word2vec does with rare words, and
        ``min_count`` is ignored. The result follows this order (words absent from the corpus
        are left out).
    vector_size, window, min_count, negative, sample, epochs :
        gensim ``Word2Vec`` parameters (paper: symmetric window 10).
    seed, workers : int
        ``workers=1`` with a fixed ``seed`` gives identical vectors run to run.

    Returns
    -------
    WordVectors

    References
    ----------
    T. Mikolov et al. (2013). Distributed representations of words and phrases and their
    compositionality. NIPS. R. Řehůřek, P. Sojka (2010), gensim.
    """
    from gensim.models import Word2Vec
    from gensim.utils import RULE_DISCARD, RULE_KEEP

    _positive_int(vector_size, "vector_size")
    _positive_int(window, "window")
    _positive_int(epochs, "epochs")
    _positive_int(workers, "workers")
    sentences = _Sentences(corpus)
    trim_rule = None
    keep: set[str] | None = None
    if words is not None:
        keep = set(words)
        if not keep:
            raise ValueError("words is empty")

        def trim_rule(word: str, count: int, min_count: int) -> int:
            return RULE_KEEP if word in keep else RULE_DISCARD  # type: ignore[operator]

    model = Word2Vec(
        vector_size=vector_size,
        window=window,
        min_count=1 if keep is not None else min_count,
        sg=1,
        hs=0,
        negative=negative,
        sample=sample,
        epochs=epochs,
        seed=seed,
        workers=workers,
        hashfxn=_stable_hash,
    )
    model.build_vocab(sentences, trim_rule=trim_rule)
    if len(model.wv) == 0:
        raise ValueError("word2vec learned no words: the corpus is empty or shares no word with `words`")
    model.train(sentences, total_examples=model.corpus_count, epochs=model.epochs)
    kv = model.wv
    if words is None:
        names = list(kv.index_to_key)
    else:
        names = [w for w in dict.fromkeys(words) if w in kv.key_to_index]
        missing = len(set(words)) - len(names)
        if missing:
            logger.info("train_word2vec: %d of the given words do not occur in the corpus", missing)
    vecs = np.stack([kv[w] for w in names]) if names else np.zeros((0, vector_size))
    return _word_vectors(names, vecs)


# ---------------------------------------------------------------------------------- GloVe
@dataclass(frozen=True)
class GloVeFit:
    """Parameters of a GloVe fit (:func:`fit_glove`).

    Attributes
    ----------
    W, W_context : ndarray, shape (V, d)
        Word and context vectors (``w_i``, ``w~_j``).
    b, b_context : ndarray, shape (V,)
        Biases.
    loss_history : ndarray, shape (epochs,)
        Mean of :math:`\\tfrac12 f(X_{ij})(\\cdot)^2` over the non-zeros accumulated during each
        epoch (what ``glove.c`` prints as ``cost``).
    """

    W: np.ndarray
    W_context: np.ndarray
    b: np.ndarray
    b_context: np.ndarray
    loss_history: np.ndarray

    @property
    def vectors(self) -> np.ndarray:
        """``W + W_context`` (GloVe's default output, ``-model 2``)."""
        return self.W + self.W_context


def _cooc_triplets(cooccurrence: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    m = getattr(cooccurrence, "matrix", cooccurrence)
    if not (sp.issparse(m) or isinstance(m, np.ndarray)) or m.ndim != 2:
        raise ValueError("cooccurrence must be a 2-D sparse matrix, ndarray or View")
    if m.shape[0] != m.shape[1]:
        raise ValueError(f"cooccurrence must be square (words x words), got shape {m.shape}")
    coo = sp.coo_array(m)
    coo.sum_duplicates()
    x = coo.data.astype(np.float64)
    if not np.isfinite(x).all():
        raise ValueError("cooccurrence contains NaN or infinite values")
    if np.any(x < 0):
        raise ValueError("cooccurrence counts must be non-negative")
    pos = x > 0
    if not pos.any():
        raise ValueError("cooccurrence has no positive entry")
    return coo.row[pos].astype(np.int64), coo.col[pos].astype(np.int64), x[pos], m.shape[0]


def glove_objective(fit: GloVeFit, cooccurrence: Any, *, x_max: float = 100.0, alpha: float = 0.75) -> float:
    r"""Mean over non-zeros of :math:`\tfrac12 f(X_{ij})(w_i^\top \tilde w_j + b_i + \tilde b_j - \log X_{ij})^2`."""
    i, j, x, _ = _cooc_triplets(cooccurrence)
    f = np.minimum(1.0, (x / x_max) ** alpha)
    total = 0.0
    for s in range(0, x.size, 1 << 16):
        sl = slice(s, s + (1 << 16))
        diff = (
            np.einsum("ij,ij->i", fit.W[i[sl]], fit.W_context[j[sl]])
            + fit.b[i[sl]]
            + fit.b_context[j[sl]]
            - np.log(x[sl])
        )
        total += 0.5 * float(np.sum(f[sl] * diff**2))
    return total / x.size


def _scatter_add(idx: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum rows of ``values`` sharing an index: (unique indices, summed rows).

    A sparse (unique x batch) indicator times ``values``: ~5x faster than ``np.add.at`` or
    ``np.add.reduceat`` on sorted rows.
    """
    uniq, inv = np.unique(idx, return_inverse=True)
    b = idx.shape[0]
    ind = sp.csr_array((np.ones(b), (inv, np.arange(b))), shape=(uniq.size, b))
    return uniq, np.asarray(ind @ values)


def fit_glove(
    cooccurrence: Any,
    n_components: int = 100,
    *,
    x_max: float = 100.0,
    alpha: float = 0.75,
    learning_rate: float = 0.05,
    epochs: int = 25,
    batch_size: int = 4096,
    random_state: int | None = 0,
    progress: bool | None = None,
) -> GloVeFit:
    r"""Fit GloVe by AdaGrad on the weighted least-squares objective (vectorised mini-batches).

    Parameters
    ----------
    cooccurrence : sparse matrix, ndarray or View, shape (V, V)
        :math:`X_{ij}` (e.g. 1/distance-weighted counts within 15 previous words, as the paper
        gave GloVe: ``window_view(corpus, vocab, 15, symmetric=False, weighting="harmonic")``;
        GloVe's own default is symmetric). Zeros are not fitted.
    n_components : int
        Vector size ``d``.
    x_max, alpha : float
        Weighting :math:`f(x) = \min(1, (x/x_{max})^\alpha)` (GloVe: 100, 3/4).
    learning_rate : float
        AdaGrad :math:`\eta` (GloVe: 0.05).
    epochs : int
        Passes over the shuffled non-zeros (paper: 25).
    batch_size : int
        Non-zeros per vectorised update.
    random_state : int or None

    Returns
    -------
    GloVeFit

    Notes
    -----
    Objective (Pennington et al. 2014, eq. 8):

    .. math:: J = \sum_{X_{ij} > 0} f(X_{ij})
              \left(w_i^\top \tilde w_j + b_i + \tilde b_j - \log X_{ij}\right)^2 .

    Initialisation and AdaGrad follow ``glove.c``: parameters uniform in
    :math:`[-0.5, 0.5)/d`, squared-gradient accumulators start at 1, the accumulated quantity is
    :math:`(\eta g)^2` and the step is :math:`\eta g / \sqrt{\mathrm{acc}}`. Differences:
    ``glove.c`` updates after every co-occurrence (Hogwild threads); here gradients of a batch
    of ``batch_size`` shuffled co-occurrences are summed per parameter and the accumulator is
    updated *before* the step (standard AdaGrad), which keeps steps bounded when a frequent
    word appears many times in one batch.

    References
    ----------
    J. Pennington, R. Socher, C. D. Manning (2014). GloVe: Global vectors for word
    representation. EMNLP. J. Duchi, E. Hazan, Y. Singer (2011). Adaptive subgradient methods.
    JMLR 12.
    """
    d = _positive_int(n_components, "n_components")
    n_epochs = _positive_int(epochs, "epochs")
    bs = _positive_int(batch_size, "batch_size")
    if x_max <= 0 or alpha < 0 or learning_rate <= 0:
        raise ValueError(
            f"need x_max > 0, alpha >= 0, learning_rate > 0; got {x_max}, {alpha}, {learning_rate}"
        )
    i, j, x, n_words = _cooc_triplets(cooccurrence)
    logx = np.log(x)
    fx = np.minimum(1.0, (x / x_max) ** alpha)
    rng = np.random.default_rng(random_state)
    w = (rng.random((n_words, d)) - 0.5) / d
    wc = (rng.random((n_words, d)) - 0.5) / d
    b = (rng.random(n_words) - 0.5) / d
    bc = (rng.random(n_words) - 0.5) / d
    gw, gwc = np.ones((n_words, d)), np.ones((n_words, d))
    gb, gbc = np.ones(n_words), np.ones(n_words)
    eta = float(learning_rate)
    history = np.zeros(n_epochs)
    disable = None if progress is None else not progress
    for epoch in tqdm(range(n_epochs), desc="GloVe epochs", disable=disable, leave=False):
        perm = rng.permutation(x.size)
        cost = 0.0
        for s in range(0, x.size, bs):
            sel = perm[s : s + bs]
            ii, jj = i[sel], j[sel]
            wi, wj = w[ii], wc[jj]
            diff = np.einsum("ij,ij->i", wi, wj) + b[ii] + bc[jj] - logx[sel]
            fdiff = fx[sel] * diff
            cost += 0.5 * float(np.dot(fdiff, diff))
            g = eta * fdiff
            ui, gi = _scatter_add(ii, np.column_stack([g[:, None] * wj, g]))
            uj, gj = _scatter_add(jj, np.column_stack([g[:, None] * wi, g]))
            gw[ui] += gi[:, :d] ** 2
            gb[ui] += gi[:, d] ** 2
            gwc[uj] += gj[:, :d] ** 2
            gbc[uj] += gj[:, d] ** 2
            w[ui] -= gi[:, :d] / np.sqrt(gw[ui])
            b[ui] -= gi[:, d] / np.sqrt(gb[ui])
            wc[uj] -= gj[:, :d] / np.sqrt(gwc[uj])
            bc[uj] -= gj[:, d] / np.sqrt(gbc[uj])
        history[epoch] = cost / x.size
        if not np.isfinite(history[epoch]):
            raise FloatingPointError(
                f"GloVe diverged in epoch {epoch + 1}; lower learning_rate or batch_size"
            )
        logger.debug("GloVe epoch %d cost %.6f", epoch + 1, history[epoch])
    return GloVeFit(w, wc, b, bc, history)


def train_glove(
    cooccurrence: Any,
    words: Sequence[str] | None = None,
    n_components: int = 100,
    **kwargs: Any,
) -> Any:
    """GloVe word vectors (``W + W_context``) from a co-occurrence matrix or View.

    ``words`` defaults to the View's vocabulary. Keyword arguments go to :func:`fit_glove`.
    Words without any co-occurrence (all-zero row and column) are left out.
    """
    m = getattr(cooccurrence, "matrix", cooccurrence)
    n = m.shape[0] if hasattr(m, "shape") else 0
    names = _words_of([cooccurrence], words, n)
    fit = fit_glove(cooccurrence, n_components, **kwargs)
    if sp.issparse(m):
        a = sp.csr_array(m)
        seen = (np.diff(a.indptr) > 0) | (np.diff(sp.csc_array(m).indptr) > 0)
    else:
        arr = np.asarray(m)
        seen = np.any(arr != 0, axis=1) | np.any(arr != 0, axis=0)
    keep = np.flatnonzero(seen)
    return _word_vectors([names[t] for t in keep], fit.vectors[keep])
