r"""Preprocessing of views: :math:`f_j = n_j \circ t_j` (column truncation, then a nonlinearity)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
import scipy.sparse as sp

from ._base import View

__all__ = ["TRANSFORMS", "PreprocessSpec", "preprocess", "preprocess_views"]

TRANSFORMS = ("identity", "log", "pow")


@dataclass(frozen=True)
class PreprocessSpec:
    r"""Declared preprocessing of one view: :math:`f = n \circ t`.

    Attributes
    ----------
    transform : {"identity", "log", "pow"}
        :math:`n(x) = x`, :math:`\log(1 + x)` or :math:`x^p` (applied to the stored entries,
        sign-preserving for negative values: :math:`\mathrm{sign}(x) n(|x|)`; zeros stay zero
        so sparse stays sparse).
    power : float
        :math:`p` of ``"pow"`` (the paper's best: 1/4).
    top_t : int or None
        :math:`t`: keep only the ``top_t`` columns with the largest column sums of
        :math:`|Z|` (before the nonlinearity); ``None`` keeps all.
    """

    transform: str = "identity"
    power: float = 0.25
    top_t: int | None = None

    def __post_init__(self) -> None:
        if self.transform not in TRANSFORMS:
            raise ValueError(f"transform must be one of {TRANSFORMS}, got {self.transform!r}")
        if not (np.isfinite(self.power) and self.power > 0):
            raise ValueError(f"power must be a positive finite number, got {self.power!r}")
        if self.top_t is not None and (
            not isinstance(self.top_t, (int, np.integer)) or self.top_t < 1
        ):
            raise ValueError(f"top_t must be a positive integer or None, got {self.top_t!r}")

    def apply(self, view: View) -> View:
        """Apply to a :class:`View`, returning a new view (same name, ``meta["preprocess"]`` set)."""
        return preprocess(view, spec=self)


def _nonlinear(values: np.ndarray, transform: str, power: float) -> np.ndarray:
    if transform == "identity":
        return values
    a = np.abs(values)
    out = np.log1p(a) if transform == "log" else np.power(a, power)
    return np.copysign(out, values)


def preprocess(
    view: View,
    transform: str = "identity",
    power: float = 0.25,
    top_t: int | None = None,
    *,
    spec: PreprocessSpec | None = None,
) -> View:
    r"""Preprocess a view: :math:`Y = n(t(Z))` without densifying.

    Parameters
    ----------
    view : View
    transform, power, top_t
        See :class:`PreprocessSpec` (ignored when ``spec`` is given).
    spec : PreprocessSpec, optional

    Returns
    -------
    View
        Same name, rows and observed mask; columns restricted by ``top_t`` (kept in their
        original order, context labels follow); ``meta["preprocess"]`` records the spec.
        Rows left without any entry after truncation become unobserved.

    Notes
    -----
    Rastogi et al. (2015, Sec. 3.1, Table 3--4): :math:`f_j = n_j \circ t_j` with :math:`t_j`
    the truncation to the top-:math:`t` contexts and :math:`n_j \in \{\mathrm{id},
    \log(1+x), x^{1/4}\}`.
    """
    if spec is None:
        spec = PreprocessSpec(transform, power, top_t)
    if not isinstance(view, View):
        raise TypeError(f"preprocess expects a View, got {type(view).__name__}")
    m = view.matrix
    contexts = view.contexts
    if spec.top_t is not None and spec.top_t < m.shape[1]:
        colsum = np.asarray(abs(m).sum(axis=0)).ravel()
        keep = np.sort(np.argsort(-colsum, kind="stable")[: spec.top_t])
        m = m[:, keep]
        contexts = tuple(contexts[i] for i in keep)
    if sp.issparse(m):
        m = sp.csr_array(m, dtype=np.float64 if m.dtype.kind != "f" else m.dtype, copy=True)
        m.data = _nonlinear(m.data, spec.transform, spec.power)
        m.eliminate_zeros()
        has = np.diff(m.indptr) > 0
    else:
        m = _nonlinear(
            np.asarray(m, dtype=np.float64 if m.dtype.kind != "f" else m.dtype),
            spec.transform,
            spec.power,
        )
        has = np.any(m != 0, axis=1)
    out = view.with_matrix(m, contexts, preprocess=asdict(spec))
    if view.family != "embedding":  # embeddings: zero rows can be genuine observations
        out.observed[:] = view.observed & has
    return out


def preprocess_views(
    views: Sequence[View],
    spec: PreprocessSpec
    | Mapping[str, PreprocessSpec]
    | Callable[[View], PreprocessSpec | None]
    | None,
) -> list[View]:
    """Preprocess each view with its declared spec.

    ``spec`` is one :class:`PreprocessSpec` for all views, a mapping from view name *or*
    family to spec (name wins; views not listed are left as they are), or a callable
    ``view -> spec | None``.
    """
    out = []
    for v in views:
        if spec is None:
            s = None
        elif isinstance(spec, PreprocessSpec):
            s = spec
        elif callable(spec):
            s = spec(v)
        else:
            s = spec.get(v.name, spec.get(v.family))
        out.append(v if s is None else preprocess(v, spec=s))
    return out
