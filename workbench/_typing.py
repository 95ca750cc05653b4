"""Type aliases shared by the public API (annotations only; nothing here runs at fit time)."""

from __future__ import annotations

from os import PathLike
from typing import TypeAlias

import numpy as np
import scipy.sparse as sp

__all__ = ["Matrix", "PathLikeStr", "SeedLike", "Views"]

#: A view or data matrix: dense, or any ``scipy.sparse`` matrix / array.
Matrix: TypeAlias = np.ndarray | sp.spmatrix | sp.sparray

#: What seeds numpy's generators (see :func:`workbench._validation.check_random_state`).
SeedLike: TypeAlias = (
    None | int | np.integer | np.random.Generator | np.random.RandomState | np.random.SeedSequence
)

#: A list of views (the input of every multiview estimator).
Views: TypeAlias = "list[Matrix]"

#: A file or folder path.
PathLikeStr: TypeAlias = "str | PathLike[str]"
