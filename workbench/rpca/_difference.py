"""Sense-wise difference matrix and the pseudo-sense elimination map.

Part of :mod:`workbench.rpca` (import the public names from there).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from workbench._validation import check_array, check_bool
from workbench.embeddings import MultiSenseVectors

SenseLabel = tuple[str, int, int]


# ----------------------------------------------------------------------------- difference matrix


def difference_matrix(
    msv: MultiSenseVectors, words: Iterable[str] | None = None
) -> tuple[np.ndarray, list[SenseLabel]]:
    """Sense-wise difference matrix of §2 with one label per column.

    For every word :math:`w` with :math:`n_w \\ge 2` senses, the columns are, in order,
    :math:`v_1-v_2, v_2-v_1, v_1-v_3, v_3-v_1, \\dots, v_{n_w-1}-v_{n_w}, v_{n_w}-v_{n_w-1}`
    (both orders of every pair, pairs in lexicographic order), so the matrix has
    :math:`\\sum_w n_w(n_w-1)` columns and a zero column mean.

    Parameters
    ----------
    msv : MultiSenseVectors
    words : iterable of str, optional
        Words to include, in this order. Default: every word of ``msv`` with at least
        two senses (words with one sense contribute no columns and are skipped).
        Explicitly listed words must exist and have at least two senses.

    Returns
    -------
    M : ndarray, shape (d, N)
    labels : list of (word, sense_a, sense_b)
        Column ``j`` is ``sense_vectors(word)[sense_a] - sense_vectors(word)[sense_b]``
        (0-based sense ids, as in the paper's tables).

    Raises
    ------
    KeyError
        A listed word is not in ``msv``.
    ValueError
        A listed word has a single sense (no columns), no word yields a column, or a
        sense vector contains NaN/inf.

    References
    ----------
    Shi, Sun & Hu (2018), §2.
    """
    explicit = words is not None
    word_list = list(msv.words) if words is None else list(words)
    if explicit and isinstance(words, str):
        raise TypeError("words must be an iterable of words, not a single string")
    blocks: list[np.ndarray] = []
    labels: list[SenseLabel] = []
    dim: int | None = None
    for w in word_list:
        if explicit and w not in msv:
            raise KeyError(f"word {w!r} is not in the multi-sense vectors")
        senses = np.asarray(msv.sense_vectors(w), dtype=np.float64)
        k = senses.shape[0]
        if k < 2:
            if explicit:
                raise ValueError(
                    f"word {w!r} has only {k} sense: it contributes no columns to the "
                    "difference matrix"
                )
            continue
        if not np.all(np.isfinite(senses)):
            raise ValueError(f"sense vectors of word {w!r} contain NaN or infinite values")
        dim = senses.shape[1]
        a, b = np.triu_indices(k, 1)
        first = np.empty(2 * a.size, dtype=np.intp)
        second = np.empty(2 * a.size, dtype=np.intp)
        first[0::2], first[1::2] = a, b
        second[0::2], second[1::2] = b, a
        blocks.append((senses[first] - senses[second]).T)
        labels.extend((w, int(i), int(j)) for i, j in zip(first, second))
    if not blocks:
        raise ValueError(
            "no word has two or more senses: the difference matrix would have no columns"
        )
    assert dim is not None
    return np.ascontiguousarray(np.hstack(blocks)), labels


# ----------------------------------------------------------------------------- elimination


def elimination_map(components: np.ndarray) -> np.ndarray:
    """The linear map :math:`T` of §3.3 / Appendix A.

    :math:`T x = 0` for :math:`x` in the span :math:`W` of ``components`` and
    :math:`T x = x` for :math:`x \\perp W`.

    Parameters
    ----------
    components : array_like, shape (d, k)
        Columns spanning :math:`W` (orthonormalised here if they are not).

    Returns
    -------
    T : ndarray, shape (d, d)

    Notes
    -----
    With :math:`A` the orthogonal matrix whose first :math:`k` rows are an orthonormal
    basis :math:`\\alpha_1,\\dots,\\alpha_k` of :math:`W`, Appendix A's unique solution
    :math:`T_i = A^{-1}c_i` equals the orthogonal projector onto :math:`W^\\perp`:

    .. math:: T = I - Q Q^\\top,\\qquad Q = (\\alpha_1,\\dots,\\alpha_k).

    References
    ----------
    Shi, Sun & Hu (2018), §3.3, eq. (7)-(11).
    """
    C = check_array(components, "components", ndim=(1, 2))
    if C.ndim == 1:
        C = C[:, None]
    if C.shape[1] == 0 or C.shape[0] == 0:
        raise ValueError(f"components must be a (d, k) array with d, k >= 1, got {C.shape}")
    d, k = C.shape
    if k > d:
        raise ValueError(f"{k} components exceed the dimension d={d}")
    Q, R = np.linalg.qr(C)
    diag = np.abs(np.diag(R))
    if diag.size and diag.min() <= 1e-10 * max(diag.max(), 1e-300):
        raise ValueError("components are linearly dependent (rank-deficient)")
    return np.eye(d) - Q @ Q.T


def eliminate_pseudo_senses(
    msv: MultiSenseVectors,
    components: np.ndarray,
    *,
    transform_global: bool = False,
) -> MultiSenseVectors:
    """Apply :func:`elimination_map` to every sense vector (eq. 7).

    Parameters
    ----------
    msv : MultiSenseVectors
    components : array_like, shape (d, k)
        Principal components to remove (e.g. ``ex_rpca(...).components`` or its first
        columns).
    transform_global : bool
        Also transform the global vectors (default False: as in the paper, only the sense
        vectors :math:`v_s^w` are mapped; global vectors and context centres, which select
        senses, are unchanged).

    Returns
    -------
    MultiSenseVectors
        New object; ``msv`` is unchanged.
    """
    transform_global = check_bool(transform_global, "transform_global")
    T = elimination_map(components)
    words = list(msv.words)
    if T.shape[0] != np.asarray(msv.sense_vectors(words[0])).shape[1]:
        raise ValueError(
            f"components have dimension {T.shape[0]} but the vectors have dimension "
            f"{np.asarray(msv.sense_vectors(words[0])).shape[1]}"
        )
    senses = [np.asarray(msv.sense_vectors(w), dtype=np.float64) @ T.T for w in words]
    centers = [np.asarray(msv.context_centers(w), dtype=np.float64) for w in words]
    glob = np.asarray(msv.as_word_vectors().vectors, dtype=np.float64)
    if transform_global:
        glob = glob @ T.T
    return MultiSenseVectors(words, glob, senses, centers)
