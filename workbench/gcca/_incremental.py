r"""The stacked step of :class:`~workbench.gcca.MVLSA` in bounded memory: a truncated SVD of
:math:`\tilde M` built from the view blocks as they come (the incremental SVD of Brand, 2002,
which Rastogi et al. name for a :math:`\tilde M` too large for memory), merged pairwise.

A run of consecutive views is kept as :math:`[\tilde M_i, \dots, \tilde M_j] \approx L Z^\top`
with ``L`` (``N x r``) of orthogonal columns whose squared norms are the eigenvalues ``lam`` and
``Z`` orthonormal (a single view's block is its own, unorthogonalized, run). Two consecutive
runs ``a``, ``b`` are merged by the top-``r`` eigenpairs :math:`(\Lambda, V)` of

.. math:: P = [L_a, L_b]^\top [L_a, L_b] = \begin{pmatrix} L_a^\top L_a & L_a^\top L_b \\
          L_b^\top L_a & L_b^\top L_b \end{pmatrix}

(:math:`L^\top L = \operatorname{diag}(lam)` for a merged run): :math:`L \leftarrow [L_a, L_b]
V`, :math:`Z \leftarrow \operatorname{blockdiag}(Z_a, Z_b) V`. Runs are merged as a binary
counter adds (:class:`_MergeTree`): at most ``log2(J) + 1`` of them, ``N x r`` each, are in
memory instead of ``N sum_j m_j`` entries, and the merges of a balanced tree can run in
parallel on a cluster. While no direction of nonzero weight is dropped the result is the exact
one; a direction dropped in one merge cannot return, so with truncation the top-``k`` space is
an approximation, which the sweeps of :mod:`workbench.gcca._refine` (``stack_iter``) correct;
the benchmark measures both against the exact fit.

The local and the dask fits call the same :func:`_merge` in the same order, so they give the
same result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

import numpy as np

from ._linalg import _signed_embedding

T = TypeVar("T")


@dataclass(frozen=True)
class _Partial:
    """A factorization :math:`L Z^\\top` of the stacked blocks of a run of consecutive views.

    A *leaf* is one view's block as it is (``z`` and ``lam`` None: ``L`` is the block, ``Z`` the
    identity); a merged one has orthogonal columns in ``L`` (squared norms ``lam``) and
    orthonormal ones in ``Z``."""

    l: np.ndarray  # noqa: E741 -- (N_kept, r), working dtype
    z: np.ndarray | None  # (columns of the run, r), float64; None: the identity (a leaf)
    lam: np.ndarray | None  # (r,), float64, descending; None: a leaf
    dropped: float = 0.0  # >= ||[M~ of the run] - L Z^T||_2: sum of sqrt(dropped top eigenvalue)


def _leaf(block: np.ndarray) -> _Partial:
    """One view's block of :math:`\\tilde M` (``N_kept x m_j``, working dtype)."""
    return _Partial(l=block, z=None, lam=None)


def _diagonal_block(p: _Partial) -> np.ndarray:
    if p.lam is not None:
        return np.diag(p.lam)
    return np.asarray(p.l.T @ p.l, dtype=np.float64)  # in the data's precision, as the exact step


def _merge(parts: Sequence[_Partial], rank: int) -> _Partial:
    """The top ``rank`` directions of the columns of one or two consecutive factorizations
    (views in order: ``parts[0]`` before ``parts[1]``), keeping only eigenvalues resolved in
    the working precision; one part is just orthogonalized (a single leaf)."""
    dtype = parts[0].l.dtype
    widths = [p.l.shape[1] for p in parts]
    if len(parts) == 1:
        gram = _diagonal_block(parts[0])
    else:
        a, b = parts
        cross = np.asarray(a.l.T @ b.l, dtype=np.float64)
        gram = np.block([[_diagonal_block(a), cross], [cross.T, _diagonal_block(b)]])
    gram = (gram + gram.T) / 2
    lam, vec = np.linalg.eigh(gram)
    lam, vec = lam[::-1], vec[:, ::-1]
    top = max(float(lam[0]), 0.0) if lam.size else 0.0
    keep = lam > top * lam.size * np.finfo(dtype).eps * 10
    keep[rank:] = False
    lost = float(np.sqrt(max(float(lam[~keep].max()), 0.0))) if (~keep).any() else 0.0
    dropped = sum(p.dropped for p in parts) + lost  # the dropped parts keep their norms
    lam, vec = lam[keep], vec[:, keep]
    cuts = np.cumsum([0, *widths])
    new_l: np.ndarray | None = None
    zs = []
    for p, lo, hi in zip(parts, cuts[:-1], cuts[1:]):
        v = vec[lo:hi]
        prod = np.asarray(p.l @ v.astype(dtype))
        if new_l is None:
            new_l = prod
        else:
            new_l += prod
        del prod
        zs.append(v if p.z is None else p.z @ v)
    return _Partial(l=cast(np.ndarray, new_l), z=np.vstack(zs), lam=lam, dropped=dropped)


class _MergeTree(Generic[T]):
    """Merges items pushed in view order pairwise, as a binary counter does: two runs of the
    same size are merged as soon as both exist, so at most ``log2(J) + 1`` runs are pending,
    and runs of a balanced tree can be merged in parallel (on a cluster). ``merge(left, right)``
    gets the earlier run first. The local and the dask fits use this order, so they give the
    same answer."""

    def __init__(self, merge: Callable[[T, T], T]) -> None:
        self.merge = merge
        self.stack: list[tuple[int, T]] = []

    def push(self, item: T) -> None:
        level = 0
        while self.stack and self.stack[-1][0] == level:
            _, left = self.stack.pop()
            item = self.merge(left, item)
            level += 1
        self.stack.append((level, item))

    def result(self) -> T:
        """The merge of everything pushed (the pending runs merged from the latest back)."""
        _, item = self.stack.pop()
        while self.stack:
            _, left = self.stack.pop()
            item = self.merge(left, item)
        return item


def _next_bound(partial: _Partial, k: int) -> float:
    r"""An upper bound of :math:`\lambda_{k+1}(M')` from the merged factorization: the singular
    values of :math:`\tilde M` are within ``dropped`` of those of ``L Z^T`` (Weyl)."""
    lam = partial.lam
    nxt = float(lam[k]) if lam is not None and lam.size > k else 0.0
    return (float(np.sqrt(max(nxt, 0.0))) + partial.dropped) ** 2


def _finish(partial: _Partial, k: int, rank: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``H`` (Löwdin-corrected, sign-fixed), its eigenvalues and :math:`\\tilde M^\\top H`
    from the final factorization, as the exact fit forms them."""
    if partial.lam is None:  # a single view
        partial = _merge([partial], rank)
    lam = cast(np.ndarray, partial.lam)
    if lam.size < k:
        raise ValueError(
            f"n_components={k} but the views span only {lam.size} shared directions "
            "(zero eigenvalues of M); lower n_components"
        )
    lam_k = lam[:k]
    hk = np.asarray(partial.l[:, :k] / np.sqrt(lam_k).astype(partial.l.dtype))
    hk, mth = _signed_embedding(hk, cast(np.ndarray, partial.z)[:, :k], lam_k)
    return hk, lam_k, mth
