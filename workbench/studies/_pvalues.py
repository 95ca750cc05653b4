"""Multiple-testing corrections over the tests a study could compute."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from workbench.significance import holm

__all__ = ["adjust_finite"]


def adjust_finite(
    pvalues: npt.ArrayLike, correction: Callable[[np.ndarray], npt.ArrayLike] = holm
) -> np.ndarray:
    """``correction`` (Holm's by default) over the finite p-values of ``pvalues``, as an array
    of the same shape; NaN where a test could not be computed (NaN p-value).

    >>> adjust_finite([0.01, np.nan, 0.04])
    array([0.02, nan, 0.04])
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = np.asarray(correction(p[ok]))
    return out
