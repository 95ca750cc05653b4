r"""Refinement of the incremental stacked step of :class:`~workbench.gcca.MVLSA`
(``stack_iter``): subspace iteration on :math:`M = \tilde M \tilde M^\top`, started from the
basis the merges of :mod:`workbench.gcca._incremental` end with, every view's block of
:math:`\tilde M` recomputed from the view and its factor instead of kept.

A view's block on its observed kept rows is :math:`\tilde M_j = D_j A_j T_j`, with
:math:`D_j = \operatorname{diag}(d_{ij} / \sqrt{C_{ii}})` and the left singular vectors
:math:`A_j = L_j B_j S_j^{-1}` of the weighted, centred view :math:`L_j` (every route of
:func:`~workbench.gcca.truncated_svd` forms ``U`` as ``L V S^{-1}``, so this holds to rounding).
Two sparse products with ``r`` columns give what the iteration needs, far less than the view's
SVD:

.. math:: W_j = \tilde M_j^\top Q = T_j S_j^{-1} B_j^\top L_j^\top (D_j Q), \qquad
          \tilde M_j W_j = D_j L_j (B_j S_j^{-1} T_j W_j).

A *sweep* over the views gives :math:`Z = \sum_j \tilde M_j W_j = M Q`, summed pairwise in view
order as a binary counter adds (:class:`~workbench.gcca._incremental._MergeTree`; the local and
the dask fits use this order). ``stack_iter`` sweeps replace ``Q`` by an orthonormal basis of
``Z``; a last half sweep gives :math:`B = Q^\top \tilde M = [W_1^\top, \dots, W_J^\top]`
(``r x sum_j m_j``), and the Rayleigh-Ritz step :math:`B = U_B \Sigma V_B^\top` gives
:math:`H = Q U_B`, the eigenvalues :math:`\Sigma^2` and :math:`\tilde M^\top H = V_B \Sigma`
(top ``k`` of each). Each sweep shrinks the error of the ``i`` th direction by about
:math:`\lambda_{r+1} / \lambda_i` (Saad, 2011, ch. 5); started from the merges' basis, which
already holds the leading directions, a few sweeps correct the last ones.

References
----------
Saad, Y. (2011). *Numerical Methods for Large Eigenvalue Problems*, 2nd ed., SIAM, ch. 5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from workbench._typing import Matrix

from ._linalg import _thin_svd
from ._svd import _ImplicitOperator, _RowOperand

if TYPE_CHECKING:
    from ._stacked import _ViewFactor


class _ViewBlock:
    """A view's block :math:`\\tilde M_j` of the stacked matrix as an operator, recomputed from
    the view (its observed kept rows ``x``) and its factor, never formed."""

    def __init__(
        self,
        x: Matrix | _RowOperand,
        factor: _ViewFactor,
        weights: np.ndarray | None,
        scale: np.ndarray,
        dtype: np.dtype,
        n_threads: int = 1,
    ) -> None:
        self.op = _ImplicitOperator(x, factor.mean, weights, dtype, n_threads)
        self.vt = factor.vt
        self.coef = factor.t.astype(np.float64) / factor.s  # T_j S_j^{-1}
        self.scale = scale
        self.dtype = dtype

    def rmatmat(self, q: np.ndarray) -> np.ndarray:
        """:math:`W_j = \\tilde M_j^\\top q` (``m_j x r``, float64) for ``q`` on the view's rows."""
        y = self.op.rmatmat(np.ascontiguousarray(q * self.scale[:, None], dtype=self.dtype))
        return self.coef[:, None] * np.asarray(self.vt @ y, dtype=np.float64)

    def matmat(self, w: np.ndarray) -> np.ndarray:
        """:math:`\\tilde M_j w` on the view's rows (working dtype)."""
        b = np.ascontiguousarray(self.vt.T @ (self.coef[:, None] * w).astype(self.dtype))
        z = np.asarray(self.op.matmat(b), dtype=self.dtype)
        z *= self.scale[:, None]
        return z


def _rows_of(q: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The rows of ``q`` (``N_kept x r``) at a view's kept-row positions ``pos`` (sorted)."""
    return q if pos.size == q.shape[0] else q[pos]


def _on_kept_rows(z: np.ndarray, pos: np.ndarray, n_kept: int) -> np.ndarray:
    """A view's rows ``z`` placed at their kept-row positions ``pos`` (sorted) of ``N_kept``."""
    if pos.size == n_kept:
        return z
    out = np.zeros((n_kept, z.shape[1]), dtype=z.dtype)
    out[pos] = z
    return out


def _add_into(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b``, written into ``a`` (a partial sum of a sweep, owned by the caller)."""
    a += b
    return a


def _basis(z: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of ``z`` (``N x r``) in ``z``'s dtype, by the
    float64 Gram matrix (:func:`_thin_svd`; directions not resolved there are dropped)."""
    return _thin_svd(z, z.shape[1])[0]


def _ritz(
    ws: list[np.ndarray], k: int, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rayleigh-Ritz from :math:`B = Q^\\top \\tilde M` (the views' ``W_j``, in view order):
    ``U_B`` of its top ``k`` singular triplets, the eigenvalues :math:`\\sigma^2` and ``V_B``
    (float64); ``H = Q U_B`` and :math:`\\tilde M^\\top H = V_B \\Sigma`. Eigenvalues are
    resolved as in the exact step (above ``p eps 10 lambda_1`` in the working precision)."""
    b = np.vstack(ws).T  # r x sum_j m_j
    ub, s, vbt = np.linalg.svd(b, full_matrices=False)
    lam = s**2
    tol = (lam[0] if lam.size else 0.0) * b.shape[1] * np.finfo(dtype).eps * 10
    n_pos = int(np.count_nonzero(lam > tol))
    if n_pos < k:
        raise ValueError(
            f"n_components={k} but the views span only {n_pos} shared directions (zero "
            "eigenvalues of M); lower n_components"
        )
    return ub[:, :k], lam[:k], vbt[:k].T
