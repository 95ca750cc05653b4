r"""The a posteriori accuracy certificate of an :class:`~workbench.gcca.MVLSA` fit
(``accuracy_``, :class:`AccuracyCertificate`): a bound on the largest principal angle between the
fitted shared space and the exact MAX-VAR solution for the same views and settings, and on the
error of its eigenvalues, from residuals and gaps computed during the fit.

The exact solution is what :class:`~workbench.gcca.MVLSA` returns with exact rank-``m_j`` view
SVDs (the ``m_j`` of the fit, ``view_ranks_``) and the exact stacked step: the top-``k``
eigenvectors of :math:`M = \sum_j W_j A_j T_j^2 A_j^\top W_j` (:math:`W_j = D_j C^{-1/2}`, whose
entries are at most 1). The fit computes them for :math:`M'`, built from the factors it used.

**(a) the views.** Every route of :func:`~workbench.gcca.truncated_svd` returns ``U``, ``s``,
``V`` with :math:`L V = U S` (to rounding) and the explicitly computed residual
:math:`F = L^\top U - V S` (``residual`` :math:`= \|F\|_F / s_1`): they are exact singular
triplets of :math:`L + E`, :math:`E = -U F^\top`, :math:`\|E\|_2 \le f = \|F\|_F`. The singular
values of ``L + E`` beyond the returned ones are at most :math:`\tau = (\|L\|_F^2 - \sum_i
\tilde s_i^2 - \|F\|_F^2)^{1/2}` (their squares sum to that), so by Weyl
:math:`s_{m+1}(L) \le \tau + f` and, by Wedin's :math:`\sin\theta` theorem (residuals ``0`` and
``F``), the left subspaces obey :math:`\|P_j - \tilde P_j\|_2 = \sin\theta_j \le f / (\tilde s_m
- \tau - f)` (1 when the denominator is not positive: no certified gap). With
:math:`\varphi(t) = t / (t + r_j)`, :math:`A_j T_j^2 A_j^\top = P_j \varphi(L_j L_j^\top)`, and

.. math:: P\varphi(K) - \tilde P \varphi(\tilde K) = (P - \tilde P)
          - [P (1 - \varphi(K)) - \tilde P (1 - \varphi(\tilde K))],

where the bracket is a difference of two positive semidefinite matrices of norms at most
:math:`r_j / (s_m^2 + r_j)`, hence itself at most the larger one (:math:`s_m \ge \tilde s_m - f`).
Summed over the views, :math:`\|M - M'\|_2 \le \epsilon_a = \sum_j \min(1, \sin\theta_j + r_j /
((\tilde s_m - f)_+^2 + r_j))`.

**(b) the stacked step.** With ``H`` the fitted basis, :math:`\Lambda` the reported eigenvalues
and :math:`\rho \ge \|M' H - H \Lambda\|_2`: the exact step takes it from the eigensolver's
residual in the small space, :math:`\rho = \|\tilde M\|_2 \|G V - V \Lambda\|_F /
\lambda_k^{1/2}` (:math:`G = \tilde M^\top \tilde M`; first order in that residual, the rounding
of forming ``H`` from ``V`` not included) and bounds :math:`\lambda_{k+1}(M')` by the computed
:math:`\hat\lambda_{k+1}(G)` plus ``p eps lambda_1`` (LAPACK's backward error); the incremental
step (``stack_rank``) computes :math:`M' H` with one more sweep over the views and bounds
:math:`\lambda_{k+1}(M')` by the smaller of :math:`\|\tilde M\|_F^2 - \operatorname{tr}(H^\top
M' H) + \rho` (the trace of :math:`M'` outside ``H`` plus Weyl; crude when many directions carry
weight) and :math:`(\ell_{k+1}^{1/2} + \delta)^2`, with :math:`\ell` the eigenvalues of the
merges' final factorization :math:`L Z^\top` and :math:`\delta` the sum over the merges of the
square root of the largest eigenvalue each dropped (a dropped part keeps its norm through the
later merges, so :math:`\|\tilde M - L Z^\top\|_2 \le \delta`; Weyl).

**Combined** (Davis & Kahan's :math:`\sin\theta` theorem on ``M``, the residual of ``H`` for
``M`` being at most :math:`\rho + \epsilon_a` and its other eigenvalues at most
:math:`\lambda^{ub}_{k+1} + \epsilon_a`):

.. math:: \sin\Theta \le \frac{\rho + \epsilon_a}{\lambda_k - \lambda^{ub}_{k+1} - \epsilon_a},

``angle_bound`` = 90 degrees when the denominator is not positive (no gap certified). Each
eigenvalue is within ``eigenvalue_bound`` :math:`= \rho + \epsilon_a + (\lambda^{ub}_{k+1} -
\lambda_k)_+` of the exact one (Weyl). Everything is computed in floating point: the bounds hold
up to the rounding of the few products that form them (a relative ``eps``-sized slack is added
where it matters, not a rigorous interval analysis).

References
----------
C. Davis, W. M. Kahan (1970). The rotation of eigenvectors by a perturbation. III. SIAM J.
Numer. Anal. 7(1), 1-46.
P.-A. Wedin (1972). Perturbation bounds in connection with singular value decomposition. BIT
12, 99-111.
G. W. Stewart, J.-G. Sun (1990). Matrix Perturbation Theory. Academic Press (ch. IV, V).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class _ViewCheck:
    """What the certificate needs of one view's SVD (scale-free: ``residual`` relative,
    ``sin_theta`` and ``term`` dimensionless) and how the SVD stopped."""

    residual: float
    sin_theta: float
    term: float
    converged: bool
    stop_reason: str


def _view_check(
    s: np.ndarray, residual: float, tail: float, reg: float, converged: bool, stop_reason: str
) -> _ViewCheck:
    """Part (a) of the module docstring for one view (``s`` its singular values, ``residual``
    and ``tail`` from :class:`~workbench.gcca.TruncatedSVD`, ``reg`` its ``r_j``)."""
    if not s.size:
        return _ViewCheck(0.0, 1.0, 1.0, converged, stop_reason)
    f = residual * float(s[0])
    s_m = float(s[-1])
    gap = s_m - tail - f
    sin_t = min(1.0, f / gap) if gap > 0 else 1.0
    low = max(s_m - f, 0.0)
    if reg > 0:
        shrink = reg / (low * low + reg) if math.isfinite(reg) else 1.0
    else:
        shrink = 0.0 if low > 0 else 1.0
    term = min(1.0, sin_t + shrink)
    return _ViewCheck(float(residual), float(sin_t), float(term), converged, stop_reason)


@dataclass(frozen=True)
class _StackCheck:
    """Part (b): the residual bound ``rho`` of ``H`` for ``M'``, the reported eigenvalues' least
    one and an upper bound of :math:`\\lambda_{k+1}(M')` (inf: none)."""

    rho: float
    lam_k: float
    next_ub: float


_UNCERTIFIED = _StackCheck(float("inf"), 0.0, float("inf"))


def _stack_check_gram(
    gram: np.ndarray, vec: np.ndarray, lam: np.ndarray, nxt: float, eps: float
) -> _StackCheck:
    """Part (b) for the exact stacked step from the Gram matrix ``gram`` of :math:`\\tilde M`,
    its computed top-``k`` eigenpairs and the computed next eigenvalue ``nxt`` (0 when ``k``
    is the whole stacked rank)."""
    lam1 = max(float(lam[0]), 0.0)
    lam_k = float(lam[-1])
    r_g = gram @ vec - vec * lam
    rounding = gram.shape[0] * eps * lam1
    rho = math.sqrt(lam1) * float(np.linalg.norm(r_g)) / math.sqrt(max(lam_k, 1e-300)) + rounding
    return _StackCheck(rho, lam_k, max(nxt, 0.0) + rounding)


def _stack_check_product(
    h: np.ndarray, mh: np.ndarray, frob2: float, eps: float, next_ub: float = np.inf
) -> _StackCheck:
    """Part (b) from ``H`` and :math:`M' H` (one sweep): the Rayleigh quotient, its residual and
    the smaller of ``next_ub`` (from the merges) and the trace bound of :math:`\\lambda_{k+1}(M')` (``frob2``: :math:`\\|\\tilde M\\|_F^2`)."""
    h64 = np.asarray(h, dtype=np.float64)
    mh64 = np.asarray(mh, dtype=np.float64)
    ray = h64.T @ mh64
    ray = (ray + ray.T) / 2
    theta = np.linalg.eigvalsh(ray)
    r = mh64 - h64 @ ray
    lam1 = max(float(theta[-1]), 0.0)
    rho = float(np.linalg.norm(r)) + h.shape[0] * eps * lam1
    rest = frob2 - float(np.trace(ray)) + rho + eps * frob2 * 4
    return _StackCheck(rho, float(theta[0]), min(max(rest, 0.0), next_ub + frob2 * eps * 4))


@dataclass(frozen=True)
class AccuracyCertificate:
    r"""How far a fitted :class:`~workbench.gcca.MVLSA` is from the exact MAX-VAR solution
    for the same views and settings (``accuracy_``; derivation in
    :mod:`workbench.gcca._certificate`).

    Attributes
    ----------
    view_residuals : tuple of float
        Per view, :math:`\|L_j^\top U_j - V_j S_j\|_F / s_{j,1}`: the view's triplets are exact
        for a view within this fraction of its norm (rounding level on the exact routes).
    view_angle_bounds : tuple of float
        Per view, degrees: Wedin's bound on the angle between the view's fitted and exact
        rank-``m_j`` left singular subspaces (90: no gap certified at ``m_j``).
    view_converged : tuple of bool
        Per view, False when its adaptive SVD stopped at a cap before its tolerance.
    perturbation : float
        :math:`\epsilon_a \ge \|M - M'\|_2`, from the views.
    stack_residual : float
        :math:`\rho \ge \|M' H - H \Lambda\|_2`, from the stacked step (inf: not computed).
    gap : float
        :math:`\lambda_k - \lambda^{ub}_{k+1}(M') - \epsilon_a` (not positive: no gap certified).
    angle_bound : float
        Degrees, in [0, 90]: a bound on the largest principal angle between ``embedding_`` (on
        the kept rows) and the exact solution's; 90 when no gap is certified.
    eigenvalue_bound : float
        A bound on :math:`|\lambda_i(M) - \text{eigenvalues\_}[i]|` for every ``i`` (inf when
        the stacked step was not certified).
    """

    view_residuals: tuple[float, ...]
    view_angle_bounds: tuple[float, ...]
    view_converged: tuple[bool, ...]
    perturbation: float
    stack_residual: float
    gap: float
    angle_bound: float
    eigenvalue_bound: float

    def summary(self) -> str:
        """One line: the angle and eigenvalue bounds and the worst view."""
        worst = int(np.argmax(self.view_residuals)) if self.view_residuals else 0
        capped = [j for j, c in enumerate(self.view_converged) if not c]
        text = (
            f"MVLSA accuracy: angle to the exact solution <= {self.angle_bound:.3g} deg, "
            f"eigenvalues within {self.eigenvalue_bound:.3g}; views: max residual "
            f"{max(self.view_residuals, default=0.0):.2e} (view {worst}), max angle "
            f"{max(self.view_angle_bounds, default=0.0):.3g} deg"
        )
        if capped:
            text += f"; views stopped at a cap: {capped}"
        if self.angle_bound >= 90.0:
            text += " (no gap certified)"
        return text

    def __str__(self) -> str:
        return self.summary()


def _certificate(views: Sequence[_ViewCheck], stack: _StackCheck) -> AccuracyCertificate:
    """Combine parts (a) and (b) (see the module docstring)."""
    eps_a = float(sum(v.term for v in views))
    r_m = stack.rho + eps_a
    gap = stack.lam_k - stack.next_ub - eps_a
    if gap > 0 and math.isfinite(r_m):
        angle = math.degrees(math.asin(min(1.0, r_m / gap)))
    else:
        angle = 90.0
    eig = r_m + max(stack.next_ub - stack.lam_k, 0.0)
    return AccuracyCertificate(
        view_residuals=tuple(v.residual for v in views),
        view_angle_bounds=tuple(math.degrees(math.asin(v.sin_theta)) for v in views),
        view_converged=tuple(v.converged for v in views),
        perturbation=eps_a,
        stack_residual=float(stack.rho),
        gap=float(gap) if math.isfinite(gap) else -math.inf,
        angle_bound=float(angle),
        eigenvalue_bound=float(eig),
    )
