"""LSA: truncated SVD of the summed (preprocessed) co-occurrence views."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from workbench._typing import Matrix, SeedLike
from workbench._validation import (
    check_bool,
    check_float,
    check_int,
    check_random_state,
)
from workbench.embeddings import WordVectors
from workbench.gcca import truncated_svd
from workbench.views import View, check_views

from ._common import _word_vectors, _words_of

logger = logging.getLogger(__name__)


def lsa(
    views: Sequence[Matrix | View],
    words: Sequence[str] | None = None,
    n_components: int = 300,
    *,
    center: bool = False,
    singular_value_power: float = 1.0,
    n_iter: int = 5,
    random_state: SeedLike = 0,
) -> WordVectors:
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
    random_state : int, Generator, RandomState or None
        Seeds the randomized SVD.

    Returns
    -------
    WordVectors
        Rows of :math:`Y` that are all zero are left out.

    References
    ----------
    S. Deerwester et al. (1990). Indexing by latent semantic analysis. JASIS 41(6).
    Rastogi et al. (2015), Sec. 2 (LSA as the single-view special case).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> counts = sp.csr_matrix(np.array([[2, 1, 0], [1, 2, 0], [0, 0, 3], [0, 1, 1]], float))
    >>> vectors = lsa([counts], words=["a", "b", "c", "d"], n_components=2, random_state=0)
    >>> vectors, vectors.words
    (WordVectors(n_words=4, dim=2, dtype=float64), ['a', 'b', 'c', 'd'])
    """
    k = check_int(n_components, "n_components", low=1)
    center = check_bool(center, "center")
    power = check_float(singular_value_power, "singular_value_power")
    n_iter = check_int(n_iter, "n_iter", low=0)
    random_state = check_random_state(random_state)
    xs, _ = check_views(views)
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
    res = truncated_svd(
        y, k, center=center, method="randomized", n_iter=n_iter, random_state=random_state
    )
    vec = res.U * (res.s**power).astype(res.U.dtype)
    keep = np.flatnonzero(nz)
    return _word_vectors([names[i] for i in keep], vec)
