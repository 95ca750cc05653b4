"""GloVe: weighted least squares on log co-occurrence counts, fitted by AdaGrad (as ``glove.c``)."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import scipy.sparse as sp
from numpy.typing import DTypeLike
from tqdm.auto import tqdm

from workbench._progress import finish_bar
from workbench._typing import Matrix
from workbench._validation import (
    check_array,
    check_bool,
    check_float,
    check_int,
    check_random_state,
)
from workbench.embeddings import WordVectors
from workbench.views import View

from ._common import _word_vectors, _words_of

logger = logging.getLogger(__name__)

#: :func:`fit_glove`'s default number of epochs.
DEFAULT_EPOCHS = 25


@dataclass(frozen=True)
class GloVeFit:
    """Parameters of a GloVe fit (:func:`fit_glove`).

    Attributes
    ----------
    W, W_context : ndarray, shape (V, d)
        Word and context vectors (``w_i``, ``w~_j``).
    b, b_context : ndarray, shape (V,)
        Biases.
    loss_history : ndarray of float64, shape (n_epochs_run,)
        Mean of :math:`\\tfrac12 f(X_{ij})(\\cdot)^2` over the non-zeros accumulated during each
        epoch (what ``glove.c`` prints as ``cost``). One value per epoch run: ``epochs``
        values unless ``tol`` stopped the fit earlier.
    stopped_by : {"tolerance", "epochs"}
        What ended the fit: ``"tolerance"`` when an epoch lowered the cost by less than ``tol``
        relative to the previous one (:func:`glove_stop`), ``"epochs"`` when the cap ``epochs``
        was reached first (always without ``tol``).
    """

    W: np.ndarray
    W_context: np.ndarray
    b: np.ndarray
    b_context: np.ndarray
    loss_history: np.ndarray
    stopped_by: str = "epochs"

    @property
    def vectors(self) -> np.ndarray:
        """``W + W_context`` (GloVe's default output, ``-model 2``)."""
        return self.W + self.W_context


def glove_stop(loss_history: Sequence[float] | np.ndarray, tol: float | None, epochs: int) -> str:
    """What ended a GloVe fit with this per-epoch cost: ``"tolerance"`` when its last epoch
    lowered the cost by less than ``tol`` relative to the epoch before (the rule of
    :func:`fit_glove`), ``"epochs"`` when the cap was reached first (or ``tol`` is None).

    Raises
    ------
    ValueError
        An empty history, one longer than ``epochs``, or one that ends before the cap without
        meeting the tolerance (not a history of :func:`fit_glove` with these settings).
    """
    loss = np.asarray(loss_history, dtype=np.float64)
    epochs = check_int(epochs, "epochs", low=1)
    tol = check_float(tol, "tol", low=0, allow_none=True)
    if loss.ndim != 1 or not loss.size or loss.size > epochs:
        raise ValueError(
            f"loss_history must hold 1 to epochs={epochs} per-epoch costs, got {loss.size}"
        )
    met = False
    if tol is not None and loss.size > 1:
        prev, last = loss[-2], loss[-1]
        met = bool(((prev - last) / prev if prev > 0 else 0.0) < tol)
    if loss.size < epochs and not met:
        raise ValueError(
            f"the fit ran {loss.size} of {epochs} epochs but its last relative change does not "
            f"meet tol={tol}: not a history of fit_glove with these settings"
        )
    return "tolerance" if met else "epochs"


@dataclass(frozen=True)
class GloVeStop:
    """How a GloVe fit ended (:func:`glove_stopping`).

    Attributes
    ----------
    stopped_by : {"tolerance", "epochs"}
        :func:`glove_stop` of the history.
    epochs_run : int
        Epochs the fit ran (the history's length).
    tol : float or None
        The stopping tolerance it ran with.
    max_epochs : int
        The cap ``epochs`` it ran with.
    last_change : float or None
        Relative fall of the cost in the last epoch (None after a single epoch).
    """

    stopped_by: str
    epochs_run: int
    tol: float | None
    max_epochs: int
    last_change: float | None


def glove_stopping(loss_history: Sequence[float] | np.ndarray, config: Mapping[str, Any]
                   ) -> GloVeStop:  # fmt: skip
    """How a fit with the per-epoch cost ``loss_history`` ended, read with the stopping rule of
    its :func:`fit_glove` keyword arguments ``config`` (``tol``, default None; ``epochs``, default
    :func:`fit_glove`'s); see :func:`glove_stop`.

    Raises
    ------
    ValueError
        As :func:`glove_stop`.

    Examples
    --------
    >>> stop = glove_stopping([1.0, 0.5, 0.499], {"tol": 0.01, "epochs": 10})
    >>> stop.stopped_by, stop.epochs_run, stop.max_epochs
    ('tolerance', 3, 10)
    """
    loss = np.asarray(loss_history, dtype=np.float64)
    tol = config.get("tol")
    cap = int(config.get("epochs", DEFAULT_EPOCHS))
    by = glove_stop(loss, tol, cap)
    last = float((loss[-2] - loss[-1]) / loss[-2]) if loss.size > 1 and loss[-2] > 0 else None
    return GloVeStop(stopped_by=by, epochs_run=int(loss.size),
                     tol=None if tol is None else float(tol), max_epochs=cap, last_change=last)  # fmt: skip


def _cooc_triplets(cooccurrence: Matrix | View) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Row indices, column indices and values (float64) of the positive entries, row-major."""
    m = getattr(cooccurrence, "matrix", cooccurrence)
    m = check_array(m, "cooccurrence (a sparse matrix, ndarray or View)", ndim=2,
                    accept_sparse=True)  # fmt: skip
    if m.shape[0] != m.shape[1]:
        raise ValueError(f"cooccurrence must be square (words x words), got shape {m.shape}")
    coo = sp.coo_array(m)
    coo.sum_duplicates()
    x = coo.data.astype(np.float64)
    if np.any(x < 0):
        raise ValueError("cooccurrence counts must be non-negative")
    pos = x > 0
    if not pos.any():
        raise ValueError("cooccurrence has no positive entry")
    return coo.row[pos].astype(np.int32), coo.col[pos].astype(np.int32), x[pos], m.shape[0]


def _float_dtype(dtype: DTypeLike) -> np.dtype:
    """``numpy.float32`` or ``numpy.float64`` as a dtype, else a ValueError."""
    try:
        real = np.dtype(dtype) if dtype is not None else None
    except TypeError:
        real = None
    if real is None or real.type not in (np.float32, np.float64):
        raise ValueError(f"dtype must be numpy.float32 or numpy.float64, got {dtype!r}")
    return real


def _weights(x: np.ndarray, x_max: float, alpha: float) -> np.ndarray:
    """:math:`f(x) = (x/x_{max})^\\alpha` below ``x_max``, 1 above (as ``glove.c``)."""
    return np.where(x > x_max, 1.0, (x / x_max) ** alpha)


def glove_objective(
    fit: GloVeFit, cooccurrence: Matrix | View, *, x_max: float = 100.0, alpha: float = 0.75
) -> float:
    r"""Mean over non-zeros of :math:`\tfrac12 f(X_{ij})(w_i^\top \tilde w_j + b_i + \tilde b_j - \log X_{ij})^2`."""
    i, j, x, _ = _cooc_triplets(cooccurrence)
    x_max = check_float(x_max, "x_max", low=0, low_open=True)
    alpha = check_float(alpha, "alpha", low=0)
    f = _weights(x, x_max, alpha)
    total = 0.0
    for s in range(0, x.size, 1 << 16):
        sl = slice(s, s + (1 << 16))
        diff = (
            np.einsum("ij,ij->i", fit.W[i[sl]], fit.W_context[j[sl]], dtype=np.float64)
            + fit.b[i[sl]]
            + fit.b_context[j[sl]]
            - np.log(x[sl])
        )
        total += 0.5 * float(np.sum(f[sl] * diff**2))
    return total / x.size


def _initial_parameters(
    n_words: int, d: int, rng: np.random.Generator, dtype: DTypeLike
) -> tuple[np.ndarray, ...]:
    """``glove.c``'s start: parameters uniform in [-0.5, 0.5)/d.

    Returns ``(W, W_context, b, b_context)``, drawn in this order from ``rng`` (the AdaGrad
    accumulators start at 1, :func:`_pack`).
    """
    w = ((rng.random((n_words, d)) - 0.5) / d).astype(dtype)
    wc = ((rng.random((n_words, d)) - 0.5) / d).astype(dtype)
    b = ((rng.random(n_words) - 0.5) / d).astype(dtype)
    bc = ((rng.random(n_words) - 0.5) / d).astype(dtype)
    return w, wc, b, bc


def _pack(w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rows ``[w_i, b_i, G_i (d ones), g_i (one)]``: one contiguous block per word."""
    n, d = w.shape
    out = np.ones((n, 2 * (d + 1)), w.dtype)
    out[:, :d] = w
    out[:, d] = b
    return out


@numba.njit(nogil=True, cache=True)
def _gather(
    order: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    logx: np.ndarray,
    fx: np.ndarray,
    out_rows: np.ndarray,
    out_cols: np.ndarray,
    out_logx: np.ndarray,
    out_fx: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """The non-zeros in ``order`` (one pass, so the epoch then reads them sequentially)."""
    for t in range(order.shape[0]):
        k = order[t]
        out_rows[t] = rows[k]
        out_cols[t] = cols[k]
        out_logx[t] = logx[k]
        out_fx[t] = fx[k]


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _glove_epoch(
    rows: np.ndarray,
    cols: np.ndarray,
    logx: np.ndarray,
    fx: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
    eta: float,
    grad_clip: float,
) -> tuple[float, int]:  # pragma: no cover - compiled; checked against a Python reference
    """One pass of ``glove.c``'s per-co-occurrence AdaGrad over the non-zeros, in order.

    ``p`` and ``q`` hold the word and context rows packed by :func:`_pack` and are updated in
    place. Returns (summed cost, number of skipped updates).
    """
    d = p.shape[1] // 2 - 1
    up1 = np.empty(d, p.dtype)
    up2 = np.empty(d, p.dtype)
    step = np.empty(1, p.dtype)  # eta f delta in the parameters' precision
    cost = 0.0
    skipped = 0
    for t in range(rows.shape[0]):
        wi = p[rows[t]]
        wj = q[cols[t]]
        diff = 0.0
        for a in range(d):
            diff += wi[a] * wj[a]
        diff += wi[d] + wj[d] - logx[t]
        fdiff = fx[t] * diff
        if not (np.isfinite(diff) and np.isfinite(fdiff)):
            skipped += 1
            continue
        cost += 0.5 * fdiff * diff
        fdiff *= eta
        step[0] = fdiff
        g = step[0]
        finite = True
        for a in range(d):
            t1 = min(max(g * wj[a], -grad_clip), grad_clip)
            t2 = min(max(g * wi[a], -grad_clip), grad_clip)
            u1 = t1 / np.sqrt(wi[d + 1 + a])
            u2 = t2 / np.sqrt(wj[d + 1 + a])
            up1[a] = u1
            up2[a] = u2
            finite &= np.isfinite(u1) & np.isfinite(u2)
            wi[d + 1 + a] += t1 * t1
            wj[d + 1 + a] += t2 * t2
        if finite:
            for a in range(d):
                wi[a] -= up1[a]
                wj[a] -= up2[a]
        else:
            skipped += 1
        ub1 = fdiff / math.sqrt(wi[2 * d + 1])
        ub2 = fdiff / math.sqrt(wj[2 * d + 1])
        wi[d] -= ub1 if np.isfinite(ub1) else 0.0
        wj[d] -= ub2 if np.isfinite(ub2) else 0.0
        fdiff *= fdiff
        wi[2 * d + 1] += fdiff
        wj[2 * d + 1] += fdiff
    return cost, skipped


def fit_glove(
    cooccurrence: Matrix | View,
    n_components: int = 100,
    *,
    x_max: float = 100.0,
    alpha: float = 0.75,
    learning_rate: float = 0.05,
    epochs: int = DEFAULT_EPOCHS,
    grad_clip: float = 100.0,
    tol: float | None = None,
    dtype: DTypeLike = np.float32,
    random_state: int | None = 0,
    progress: bool | None = None,
) -> GloVeFit:
    r"""Fit GloVe by ``glove.c``'s AdaGrad: one update per co-occurrence, shuffled each epoch.

    Parameters
    ----------
    cooccurrence : sparse matrix, ndarray or View, shape (V, V)
        :math:`X_{ij}`, e.g. 1/distance-weighted counts in a symmetric window of 10 or 15
        words (GloVe's ``cooccur -symmetric 1 -window-size 15``):
        ``window_view(corpus, vocab, 15, symmetric=True, weighting="harmonic")``. The paper's
        experiments used the 10 previous words only (``symmetric=False``). Zeros are not
        fitted.
    n_components : int
        Vector size ``d``.
    x_max, alpha : float
        Weighting :math:`f(x) = \min(1, (x/x_{max})^\alpha)` (``glove.c``: 100 and 3/4; its
        ``demo.sh`` uses ``x_max = 10`` for a small corpus).
    learning_rate : float
        Initial AdaGrad step :math:`\eta` (``glove.c``: 0.05).
    epochs : int
        Passes over the non-zeros (paper: 50 below 300 dimensions; ``demo.sh``: 15).
    grad_clip : float
        Each gradient component :math:`\eta g` is clipped to ``[-grad_clip, grad_clip]``
        (``glove.c -grad-clip``, default 100).
    tol : float or None
        Stop after an epoch whose cost fell by less than ``tol`` relative to the previous
        epoch's (``epochs`` is then the cap); None runs all ``epochs``. The result's
        ``stopped_by`` says which ended the fit.
    dtype : {numpy.float32, numpy.float64}
        Precision of the parameters and of :math:`\log X`, :math:`f(X)` (``glove.c``:
        double; float32 is ``glove.c`` built with ``real`` = float). Dot products and costs
        accumulate in float64. float32 is faster and gives the same vectors to about three
        digits.
    random_state : int or None
        Seeds the initial parameters and the per-epoch shuffles; the loop is single-threaded,
        so a fixed seed gives identical results run to run.
    progress : bool or None
        tqdm bar over epochs (None: automatic).

    Returns
    -------
    GloVeFit

    Notes
    -----
    Objective (Pennington et al. 2014, eq. 8), over the non-zeros of :math:`X`:

    .. math:: J = \sum_{X_{ij} > 0} f(X_{ij})
              \left(w_i^\top \tilde w_j + b_i + \tilde b_j - \log X_{ij}\right)^2 .

    Each epoch visits the non-zeros in a fresh random order and, for each, does what
    ``glove.c`` does: with :math:`\delta = w_i^\top \tilde w_j + b_i + \tilde b_j - \log
    X_{ij}`, add :math:`\tfrac12 f \delta^2` to the cost, set :math:`g = \eta f \delta`, step
    every parameter by its clipped gradient :math:`\eta \partial J / \partial \theta` divided
    by :math:`\sqrt{G_\theta}` (the accumulator *before* this step) and then add the squared
    clipped gradient to :math:`G_\theta`. Parameters start uniform in
    :math:`[-0.5, 0.5)/d`, accumulators at 1. Updates whose cost or step is NaN or infinite
    are skipped (as ``glove.c``; counted in a warning). ``glove.c`` shuffles the co-occurrence
    file once and runs Hogwild threads; here the order is reshuffled every epoch and one
    thread runs, which makes the fit reproducible.

    References
    ----------
    J. Pennington, R. Socher, C. D. Manning (2014). GloVe: Global vectors for word
    representation. EMNLP. J. Duchi, E. Hazan, Y. Singer (2011). Adaptive subgradient methods
    for online learning and stochastic optimization. JMLR 12.
    """
    d = check_int(n_components, "n_components", low=1)
    n_epochs = check_int(epochs, "epochs", low=1)
    x_max = check_float(x_max, "x_max", low=0, low_open=True)
    alpha = check_float(alpha, "alpha", low=0)
    eta = check_float(learning_rate, "learning_rate", low=0, low_open=True)
    clip = check_float(grad_clip, "grad_clip", low=0, low_open=True)
    tol = check_float(tol, "tol", low=0, allow_none=True)
    random_state = check_random_state(random_state)
    if progress is not None:
        progress = check_bool(progress, "progress")
    real = _float_dtype(dtype)
    rows, cols, x, n_words = _cooc_triplets(cooccurrence)
    logx = np.log(x).astype(real)
    fx = _weights(x, x_max, alpha).astype(real)
    del x
    rng = np.random.default_rng(random_state)
    w, wc, b, bc = _initial_parameters(n_words, d, rng, real)
    p, q = _pack(w, b), _pack(wc, bc)
    del w, wc, b, bc
    buffers = (np.empty_like(rows), np.empty_like(cols), np.empty_like(logx), np.empty_like(fx))
    history: list[float] = []
    stopped_by = "epochs"
    skipped = 0
    disable = None if progress is None else not progress
    bar = tqdm(total=n_epochs, desc="GloVe epochs", disable=disable, leave=False)
    for epoch in range(n_epochs):
        bar.update()
        _gather(rng.permutation(logx.size), rows, cols, logx, fx, *buffers)
        cost, n_skip = _glove_epoch(*buffers, p, q, real.type(eta), real.type(clip))
        skipped += n_skip
        history.append(cost / logx.size)
        if not math.isfinite(history[-1]):
            raise FloatingPointError(
                f"GloVe diverged in epoch {epoch + 1}; lower learning_rate or grad_clip"
            )
        logger.debug("GloVe epoch %d cost %.6f", epoch + 1, history[-1])
        bar.set_postfix(cost=f"{history[-1]:.4f}", refresh=False)
        if tol is not None and epoch > 0:
            change = (history[-2] - history[-1]) / history[-2] if history[-2] > 0 else 0.0
            if change < tol:
                stopped_by = "tolerance"
                logger.info(
                    "GloVe stopped after epoch %d: relative cost change %.2e < tol %.2e",
                    epoch + 1, change, tol,
                )  # fmt: skip
                break
    finish_bar(bar)  # stopped at tol: complete, not failed (a red bar reads as a failure)
    if skipped:
        logger.warning("GloVe skipped %d updates with NaN or infinite values", skipped)
    return GloVeFit(
        p[:, :d].copy(), q[:, :d].copy(), p[:, d].copy(), q[:, d].copy(),
        np.asarray(history, dtype=np.float64), stopped_by,
    )  # fmt: skip


def train_glove(
    cooccurrence: Matrix | View,
    words: Sequence[str] | None = None,
    n_components: int = 100,
    **kwargs: Any,
) -> WordVectors:
    """GloVe word vectors (``W + W_context``) from a co-occurrence matrix or View.

    ``words`` defaults to the View's vocabulary. Keyword arguments go to :func:`fit_glove`.
    Words without any co-occurrence (all-zero row and column) are left out.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> cooc = sp.csr_matrix(np.array([[0, 4, 1, 0], [4, 0, 2, 1], [1, 2, 0, 3], [0, 1, 3, 0]], float))
    >>> vectors = train_glove(cooc, ["a", "b", "c", "d"], n_components=2, random_state=0, progress=False)
    >>> vectors, vectors.words
    (WordVectors(n_words=4, dim=2, dtype=float32), ['a', 'b', 'c', 'd'])
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
