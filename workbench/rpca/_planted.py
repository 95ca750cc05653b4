"""Planted ``M = L + E + S`` problems and the scores used to check recovery.

Part of :mod:`workbench.rpca` (import the public names from there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from workbench._validation import check_array, check_float, check_int, check_random_state
from workbench.rpca._solvers import RPCAResult, _fix_signs


@dataclass(frozen=True)
class PlantedProblem:
    """A planted ``M = low_rank + noise + sparse`` with known parts (see :func:`make_planted`)."""

    M: np.ndarray
    low_rank: np.ndarray
    noise: np.ndarray
    sparse: np.ndarray
    components: np.ndarray

    @property
    def support(self) -> np.ndarray:
        """Boolean mask of the planted sparse entries."""
        return self.sparse != 0


def make_planted(
    n_rows: int,
    n_cols: int,
    rank: int,
    *,
    signal: float = 1.0,
    noise: float = 0.05,
    sparse_fraction: float = 0.02,
    sparse_scale: float = 2.0,
    random_state: int | np.random.Generator | None = 0,
) -> PlantedProblem:
    """Planted ``M = L0 + G + S0`` with known parts.

    ``L0 = U diag(s) W^T`` with a random orthonormal ``U`` (``n_rows x rank``), singular
    values ``signal * sqrt(n_cols) * (1, 0.8, 0.6, ...)``-like decreasing (so columns of
    ``L0`` have norm about ``signal``); ``G`` i.i.d. Gaussian with standard deviation
    ``noise``; ``S0`` has a uniformly random support of ``sparse_fraction`` of the
    entries with values ``± sparse_scale * U(1, 2)``.
    """
    n_rows = check_int(n_rows, "n_rows", low=1)
    n_cols = check_int(n_cols, "n_cols", low=1)
    rank = check_int(rank, "rank", low=1, high=min(n_rows, n_cols))
    signal = check_float(signal, "signal", low=0)
    noise = check_float(noise, "noise", low=0)
    sparse_fraction = check_float(sparse_fraction, "sparse_fraction", low=0, high=1, high_open=True)
    sparse_scale = check_float(sparse_scale, "sparse_scale", low=0)
    rng = np.random.default_rng(check_random_state(random_state))
    U, _ = np.linalg.qr(rng.standard_normal((n_rows, rank)))
    U = _fix_signs(U)
    weights = np.linspace(1.0, 0.5, rank)
    coef = rng.standard_normal((rank, n_cols)) * (signal * weights / math.sqrt(rank))[:, None]
    L0 = U @ coef
    G = rng.standard_normal((n_rows, n_cols)) * noise
    S0 = np.zeros((n_rows, n_cols))
    n_sparse = int(round(sparse_fraction * n_rows * n_cols))
    if n_sparse:
        idx = rng.choice(n_rows * n_cols, size=n_sparse, replace=False)
        vals = sparse_scale * rng.uniform(1.0, 2.0, n_sparse) * rng.choice([-1.0, 1.0], n_sparse)
        S0.flat[idx] = vals
    return PlantedProblem(M=L0 + G + S0, low_rank=L0, noise=G, sparse=S0, components=U)


def principal_angles(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Principal angles (radians, decreasing) between the column spaces of ``A`` and ``B``."""
    A = check_array(A, "A", ndim=2, min_rows=1, min_cols=1)
    B = check_array(B, "B", ndim=2, min_rows=1, min_cols=1)
    if A.shape[0] != B.shape[0]:
        raise ValueError(f"A and B must have the same number of rows; got {A.shape} and {B.shape}")
    return np.asarray(scipy.linalg.subspace_angles(A, B))


def support_scores(
    estimated: np.ndarray, true_support: np.ndarray, *, atol: float = 0.0
) -> tuple[float, float]:
    """Precision and recall of the support ``|estimated| > atol`` against a boolean mask."""
    atol = check_float(atol, "atol", low=0)
    est = np.abs(check_array(estimated, "estimated")) > atol
    truth = np.asarray(true_support, dtype=bool)
    if est.shape != truth.shape:
        raise ValueError(f"shape mismatch: {est.shape} vs {truth.shape}")
    tp = float(np.sum(est & truth))
    precision = tp / float(est.sum()) if est.any() else 0.0
    recall = tp / float(truth.sum()) if truth.any() else 1.0
    return precision, recall


def pca_sparse_support(result: RPCAResult, *, n_sigma: float = 3.0) -> np.ndarray:
    """Baseline sparse estimate for PCA: residual entries beyond ``n_sigma`` standard deviations."""
    n_sigma = check_float(n_sigma, "n_sigma", low=0, low_open=True)
    E = result.noise
    return np.where(np.abs(E) > n_sigma * E.std(), E, 0.0)
