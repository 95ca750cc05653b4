r"""Preprocessing of views: :math:`f_j = n_j \circ t_j` (column truncation, then a nonlinearity)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
import scipy.sparse as sp

from workbench._typing import Matrix
from workbench._validation import check_array, check_choice, check_float, check_int

from ._base import View

__all__ = ["TRANSFORMS", "PreprocessSpec", "ppmi", "preprocess", "preprocess_views"]

TRANSFORMS = ("identity", "log", "pow", "ppmi")


@dataclass(frozen=True)
class PreprocessSpec:
    r"""Declared preprocessing of one view: :math:`f = n \circ t`.

    Attributes
    ----------
    transform : {"identity", "log", "pow", "ppmi"}
        :math:`n(x) = x`, :math:`\log(1 + x)` or :math:`x^p` (applied to the stored entries,
        sign-preserving for negative values: :math:`\mathrm{sign}(x) n(|x|)`; zeros stay zero
        so sparse stays sparse), or the (shifted) positive PMI of the counts with context
        distribution smoothing (:func:`ppmi`; needs non-negative counts).
    power : float
        :math:`p` of ``"pow"`` (the paper's best: 1/4).
    top_t : int or None
        :math:`t`: keep only the ``top_t`` columns with the largest column sums of
        :math:`|Z|` (before the nonlinearity); ``None`` keeps all.
    cds : float
        Context-distribution smoothing exponent :math:`\alpha` of ``"ppmi"`` (1 = none;
        Levy et al. 2015: 0.75).
    shift : float
        :math:`k` of ``"ppmi"``: :math:`\max(\mathrm{PMI} - \log k, 0)` (1 = no shift).
    """

    transform: str = "identity"
    power: float = 0.25
    top_t: int | None = None
    cds: float = 0.75
    shift: float = 1.0

    def __post_init__(self) -> None:
        check_choice(self.transform, "transform", TRANSFORMS)
        check_float(self.power, "power", low=0, low_open=True)
        check_float(self.cds, "cds", low=0, low_open=True)
        check_float(self.shift, "shift", low=0, low_open=True)
        check_int(self.top_t, "top_t", low=1, allow_none=True)

    def apply(self, view: View) -> View:
        """Apply to a :class:`View`, returning a new view (same name, ``meta["preprocess"]`` set)."""
        return preprocess(view, spec=self)


def ppmi(counts: Matrix, *, cds: float = 0.75, shift: float = 1.0) -> sp.csr_array:
    r"""(Shifted) positive pointwise mutual information of a word x context count matrix.

    Parameters
    ----------
    counts : sparse matrix or ndarray, shape (n_words, n_contexts)
        Non-negative (possibly weighted) co-occurrence counts :math:`\#(w, c)`.
    cds : float, default 0.75
        Context-distribution smoothing exponent :math:`\alpha`; 1 gives plain PMI.
    shift : float, default 1.0
        :math:`k` (the number of negative samples SGNS implicitly factorizes with); 1 = no shift.

    Returns
    -------
    scipy.sparse.csr_array, float64
        Same shape; only the positive entries are stored.

    Notes
    -----
    With :math:`D = \sum_{w,c} \#(w,c)`, :math:`\#(w) = \sum_c \#(w,c)` and
    :math:`\#(c) = \sum_w \#(w,c)`,

    .. math::
        \mathrm{PMI}_\alpha(w, c) = \log \frac{\#(w,c)\, \sum_{c'} \#(c')^\alpha}
                                        {\#(w)\, \#(c)^\alpha}, \qquad
        \mathrm{SPPMI}_{\alpha,k}(w, c) = \max\big(\mathrm{PMI}_\alpha(w, c) - \log k,\ 0\big),

    computed on the stored entries only (unseen pairs have PMI :math:`-\infty` and give 0).

    References
    ----------
    O. Levy, Y. Goldberg, I. Dagan (2015). Improving distributional similarity with lessons
    learned from word embeddings. TACL 3 (Sec. 3.2--3.3, "cds" and "neg").
    O. Levy, Y. Goldberg (2014). Neural word embedding as implicit matrix factorization. NIPS.
    """
    cds = check_float(cds, "cds", low=0, low_open=True)
    shift = check_float(shift, "shift", low=0, low_open=True)
    counts = check_array(counts, "counts", ndim=2, accept_sparse=True)
    m = sp.csr_array(counts, dtype=np.float64, copy=True)
    m.sum_duplicates()
    m.eliminate_zeros()
    if m.nnz and m.data.min() < 0:
        raise ValueError("PPMI needs non-negative counts; got negative entries")
    if m.nnz == 0:
        return m
    row = np.asarray(m.sum(axis=1)).ravel()
    col = np.asarray(m.sum(axis=0)).ravel()
    col_a = np.power(col, float(cds))
    log_norm = np.log(col_a.sum())
    rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
    pmi = np.log(m.data) + log_norm - np.log(row[rows]) - np.log(col_a[m.indices])
    pmi -= np.log(float(shift))
    np.maximum(pmi, 0.0, out=pmi)
    m.data = pmi
    m.eliminate_zeros()
    return m


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
    cds: float = 0.75,
    shift: float = 1.0,
    spec: PreprocessSpec | None = None,
) -> View:
    r"""Preprocess a view: :math:`Y = n(t(Z))` without densifying.

    Parameters
    ----------
    view : View
    transform, power, top_t, cds, shift
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
        spec = PreprocessSpec(transform, power, top_t, cds, shift)
    if not isinstance(view, View):
        raise TypeError(f"preprocess expects a View, got {type(view).__name__}")
    m = view.matrix
    contexts = view.contexts
    if spec.top_t is not None and spec.top_t < m.shape[1]:
        colsum = np.asarray(abs(m).sum(axis=0)).ravel()
        keep = np.sort(np.argsort(-colsum, kind="stable")[: spec.top_t])
        m = m[:, keep]
        contexts = tuple(contexts[i] for i in keep)
    if spec.transform == "ppmi":
        m = ppmi(m, cds=spec.cds, shift=spec.shift)
        has = np.diff(m.indptr) > 0
    elif sp.issparse(m):
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
