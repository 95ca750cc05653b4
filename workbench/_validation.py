"""Parameter, array and file checks shared by every public entry point.

Each check returns the validated (converted) value or raises an error whose message names
the parameter, the value given and what is allowed, e.g.::

    >>> check_int(-1, "n_iter", low=0)
    Traceback (most recent call last):
    ...
    ValueError: n_iter must be an integer >= 0, got -1

Numbers given as strings (``max_tokens='10'``), booleans given as numbers, floats given as
integers (``n_components=2.0``, as scikit-learn's ``check_scalar`` does) and NaN are refused with
a ``TypeError`` / ``ValueError`` rather than converted silently.

:func:`max_abs`, :func:`power_of_two_scale` and :func:`overflow_error` are the shared pieces of
the estimators' overflow handling: a scale-invariant method rescales an input whose largest
entry would overflow (or underflow) its products by a power of two (exact in floating point),
any other method raises :func:`overflow_error` naming the input and "overflow" instead of
blaming a finite input as "NaN or infinite".
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Literal, TypedDict, TypeVar, Unpack, overload

import numpy as np
import scipy.sparse as sp
from numpy.typing import DTypeLike

from workbench._typing import PathLikeStr

__all__ = [
    "DataFormatError",
    "IntegerParameterError",
    "check_int",
    "check_float",
    "check_bool",
    "check_choice",
    "check_instance",
    "check_sequence",
    "check_nan_policy",
    "check_array",
    "check_finite",
    "check_random_state",
    "max_abs",
    "power_of_two_scale",
    "overflow_error",
    "check_file",
    "check_dir",
    "format_error",
]

NanPolicy = Literal["raise", "omit", "propagate"]
_T = TypeVar("_T")


class DataFormatError(ValueError):
    """A data file is truncated or malformed; the message names the file and the line."""


class IntegerParameterError(TypeError, ValueError):
    """A float (even an integral one, ``2.0``) given for an integer parameter: a ``TypeError``
    and a ``ValueError``, as scikit-learn's ``InvalidParameterError`` is."""


def _range_text(
    low: float | None, high: float | None, low_open: bool = False, high_open: bool = False
) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low:g}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high:g}")
    return " and ".join(parts)


def _real_or_raise(value: Any, name: str, noun: str, rng: str, allow_none: bool) -> str:
    """What ``value`` must be (``noun``, the range ``rng``, "or None") for the error messages of
    :func:`check_int` / :func:`check_float`; ``TypeError`` saying so unless it is a real
    number (booleans and strings are not)."""
    what = f"{noun} {rng}" if rng else noun
    if allow_none:
        what += " or None"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    return what


class _IntBounds(TypedDict, total=False):
    low: int | None
    high: int | None


class _FloatBounds(TypedDict, total=False):
    low: float | None
    high: float | None
    low_open: bool
    high_open: bool


@overload
def check_int(
    value: Any, name: str, *, allow_none: Literal[False] = ..., **bounds: Unpack[_IntBounds]
) -> int: ...
@overload
def check_int(
    value: Any, name: str, *, allow_none: bool, **bounds: Unpack[_IntBounds]
) -> int | None: ...
def check_int(
    value: Any,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    allow_none: bool = False,
) -> int | None:
    """``value`` as a Python ``int`` in ``[low, high]`` (``None`` passes when ``allow_none``).

    Only integers are accepted: Python ``int`` and numpy integers (any
    :class:`numbers.Integral` but ``bool``). As in scikit-learn's ``check_scalar`` /
    ``_param_validation`` (where ``Integral`` excludes floats), a float is refused even when it
    is integral (``n_components=2.0``): ``TypeError`` naming ``name``, the value and its type.
    The error for a float is an :class:`IntegerParameterError`, both a ``TypeError`` and a
    ``ValueError`` (like scikit-learn's ``InvalidParameterError``). Strings and booleans get a
    ``TypeError``, an integer outside ``[low, high]`` a ``ValueError``.
    """
    if value is None and allow_none:
        return None
    what = _real_or_raise(value, name, "an integer", _range_text(low, high), allow_none)
    if not isinstance(value, numbers.Integral):
        v = float(value)
        hint = " (a float is not an integer, pass int(value))" if v.is_integer() else ""
        raise IntegerParameterError(
            f"{name} must be {what}, got {value!r} ({type(value).__name__}){hint}"
        )
    out = int(value)
    if (low is not None and out < low) or (high is not None and out > high):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return out


@overload
def check_float(
    value: Any, name: str, *, allow_none: Literal[False] = ..., **bounds: Unpack[_FloatBounds]
) -> float: ...
@overload
def check_float(
    value: Any, name: str, *, allow_none: bool, **bounds: Unpack[_FloatBounds]
) -> float | None: ...
def check_float(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_none: bool = False,
) -> float | None:
    """``value`` as a finite Python ``float`` in the given range (``None`` when ``allow_none``).

    ``low_open`` / ``high_open`` exclude the bound itself (``low=0, low_open=True``: > 0).
    """
    if value is None and allow_none:
        return None
    rng = _range_text(low, high, low_open, high_open)
    what = _real_or_raise(value, name, "a finite number", rng, allow_none)
    v = float(value)
    bad = not math.isfinite(v)
    if low is not None:
        bad |= v <= low if low_open else v < low
    if high is not None:
        bad |= v >= high if high_open else v > high
    if bad:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return v


def check_bool(value: Any, name: str) -> bool:
    """``value`` as ``bool``; only ``True`` / ``False`` (and numpy booleans) are accepted."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return bool(value)


def check_choice(value: Any, name: str, choices: Collection[_T]) -> _T:
    """``value`` if it is one of ``choices``; the error lists them."""
    try:
        ok = value in choices
    except TypeError:  # unhashable value against a set
        ok = False
    if not ok:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def check_instance(value: Any, name: str, types: type[_T], what: str) -> _T:
    """``value`` if it is an instance of ``types``, else a ``TypeError`` naming ``name``,
    ``what`` is expected (e.g. ``"a ViewSet (from build_view_set)"``) and what was given."""
    if not isinstance(value, types):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    return value


def check_sequence(values: Any, name: str, *, allow_empty: bool = False) -> tuple[Any, ...]:
    """``values`` as a tuple; a single string (which would iterate by character), a non-iterable
    or (unless ``allow_empty``) an empty collection is refused with an error naming ``name``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Collection):
        hint = "; wrap a single name in a list" if isinstance(values, (str, bytes)) else ""
        raise TypeError(
            f"{name} must be a list or tuple, got {values!r} ({type(values).__name__}){hint}"
        )
    if not values and not allow_empty:
        raise ValueError(f"{name} is empty")
    return tuple(values)


def check_nan_policy(nan_policy: Any) -> NanPolicy:
    """``nan_policy`` as in :mod:`scipy.stats`: ``'raise'``, ``'omit'`` or ``'propagate'``."""
    return check_choice(nan_policy, "nan_policy", ("raise", "omit", "propagate"))


@overload
def check_array(
    X: Any,
    name: str,
    *,
    ndim: int | Sequence[int] | None = ...,
    accept_sparse: Literal[False] = ...,
    allow_complex: bool = ...,
    finite: bool = ...,
    min_rows: int = ...,
    min_cols: int = ...,
    dtype: DTypeLike | None = ...,
) -> np.ndarray: ...
@overload
def check_array(
    X: Any,
    name: str,
    *,
    ndim: int | Sequence[int] | None = ...,
    accept_sparse: bool,
    allow_complex: bool = ...,
    finite: bool = ...,
    min_rows: int = ...,
    min_cols: int = ...,
    dtype: DTypeLike | None = ...,
) -> Any: ...  # ndarray or csr_matrix: callers branch on sp.issparse, opaque to mypy
def check_array(
    X: Any,
    name: str,
    *,
    ndim: int | Sequence[int] | None = None,
    accept_sparse: bool = False,
    allow_complex: bool = False,
    finite: bool = True,
    min_rows: int = 0,
    min_cols: int = 0,
    dtype: DTypeLike | None = np.float64,
) -> np.ndarray | sp.csr_matrix:
    """``X`` as a real ``dtype`` array (or CSR sparse matrix when ``accept_sparse``).

    With ``accept_sparse``, every ``scipy.sparse`` format is accepted, as ``spmatrix`` or
    ``sparray`` (csr, csc, coo, lil, dok, dia, bsr): its dtype is read from the matrix itself
    (not from ``.data``, an object array for LIL) and it is converted to a ``csr_matrix``
    (duplicate COO entries summed), so the result does not depend on the input's format.

    Raises ``TypeError`` for non-numeric, complex (unless ``allow_complex``) or sparse (unless
    ``accept_sparse``) input, and ``ValueError`` for the wrong number of dimensions, too few
    rows / columns, or NaN / inf entries when ``finite``. The message names ``name``.
    """
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name} must be a dense array; got a sparse {type(X).__name__}")
        kind = np.dtype(X.dtype).kind
        shape = X.shape
    else:
        if isinstance(X, (str, bytes)):
            raise TypeError(f"{name} must be a numeric array, got a string")
        try:
            arr = np.asarray(X)
        except Exception as exc:  # ragged lists etc.
            raise ValueError(f"{name} could not be read as an array: {exc}") from None
        kind = arr.dtype.kind
        shape = arr.shape
    if kind == "c" and not allow_complex:
        raise TypeError(f"{name} must be real-valued; got complex entries")
    if kind not in "biufc":
        raise TypeError(f"{name} must be numeric; got dtype {kind!r} (an object or string array)")
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if len(shape) not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise ValueError(f"{name} must be {want}-dimensional; got shape {shape}")
    if shape and shape[0] < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows; got shape {shape}")
    if len(shape) > 1 and shape[1] < min_cols:
        raise ValueError(f"{name} needs at least {min_cols} columns; got shape {shape}")
    if sp.issparse(X):
        out = sp.csr_matrix(X, dtype=dtype if kind != "c" else None)
        if finite and out.nnz and not np.isfinite(out.data).all():
            bad = int((~np.isfinite(out.data)).sum())
            raise ValueError(f"{name} contains {bad} NaN or infinite entries")
        return out
    target = dtype if (dtype is not None and kind != "c") else None
    out_arr = np.asarray(X, dtype=target)
    if finite and out_arr.size and not np.isfinite(out_arr).all():
        bad = int((~np.isfinite(out_arr)).sum())
        raise ValueError(f"{name} contains {bad} NaN or infinite entries")
    return out_arr


def check_finite(values: Any, name: str, *, nan_policy: str = "raise") -> np.ndarray:
    """Mask of the finite entries of ``values`` under ``nan_policy``.

    ``'raise'`` raises a ``ValueError`` naming ``name`` and the count of NaN / inf entries;
    ``'omit'`` returns the mask of finite entries; ``'propagate'`` returns an all-True mask.
    """
    policy = check_nan_policy(nan_policy)
    arr = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(arr)
    if policy == "raise" and not finite.all():
        raise ValueError(
            f"{name} contains {int((~finite).sum())} NaN or infinite values "
            "(pass nan_policy='omit' to skip them)"
        )
    if policy == "propagate":
        return np.ones(arr.shape, dtype=bool)
    return finite


def check_random_state(value: Any, name: str = "random_state", *, legacy: bool = False) -> Any:
    """``value`` if it can seed numpy's generators, else an error naming ``name``.

    Accepted: ``None``, an integer ``>= 0``, a :class:`numpy.random.Generator`,
    :class:`numpy.random.RandomState` or :class:`numpy.random.SeedSequence` (returned
    unchanged, integers as Python ``int``), so the caller can pass it on to
    :func:`numpy.random.default_rng`. With ``legacy=True`` the result is one that
    :class:`numpy.random.RandomState` and scikit-learn accept: a ``Generator`` or
    ``SeedSequence`` gives an integer seed drawn from it, an integer must be below ``2**32``.
    """
    if isinstance(value, (np.random.Generator, np.random.SeedSequence)):
        return int(np.random.default_rng(value).integers(2**31 - 1)) if legacy else value
    if value is None or isinstance(value, np.random.RandomState):
        return value
    what = "None, an integer >= 0, a numpy Generator, RandomState or SeedSequence"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}; got {value!r} ({type(value).__name__})")
    seed = int(value)
    if seed < 0 or (legacy and seed >= 2**32):
        limit = " (below 2**32)" if legacy else ""
        raise ValueError(f"{name} must be {what}{limit}; got {value!r}")
    return seed


def max_abs(X: Any) -> float:
    """Largest absolute entry of a dense array or scipy.sparse matrix (0.0 when empty), as a
    Python float; one pass, no temporary copy of a dense ``X``."""
    if sp.issparse(X):
        data = sp.csr_array(X).data if not hasattr(X, "indptr") else X.data
        if data.size == 0:
            return 0.0
        return float(max(np.max(data), -np.min(data)))
    arr = np.asarray(X)
    if arr.size == 0:
        return 0.0
    return float(max(np.max(arr), -np.min(arr)))


def power_of_two_scale(largest: float, length: int, dtype: DTypeLike = np.float64) -> float:
    """A power of two ``c`` such that the products of an input scaled by ``c`` neither overflow
    nor underflow ``dtype``; ``1.0`` when the input is safe as it is.

    ``largest`` is the largest absolute entry of the input and ``length`` the longest sum of
    products formed from it (e.g. the rows of a Gram matrix ``X^T X``). The input is safe when
    ``length * largest**2`` stays below ``max / 16`` and ``largest**2`` above ``tiny / eps``
    of ``dtype``; otherwise ``c = 2**-e`` brings the largest entry to ``[0.5, 1)``. Multiplying by
    a power of two is exact in floating point (save for entries pushed into the subnormal
    range, which are negligible next to the largest), so a scale-invariant method gives the
    same result on the rescaled input.
    """
    info = np.finfo(np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.float64)
    if largest == 0 or not math.isfinite(largest):
        return 1.0
    hi = math.sqrt(float(info.max) / 16.0 / max(int(length), 1))
    lo = math.sqrt(float(info.tiny) / float(info.eps))
    if lo <= largest <= hi:
        return 1.0
    return math.ldexp(1.0, -math.frexp(largest)[1])


def overflow_error(
    name: str,
    what: str,
    largest: float,
    dtype: DTypeLike = np.float64,
    *,
    fix: str = "rescale it",
) -> ValueError:
    """The ``ValueError`` for a finite input whose products overflow: ``"<name>: <what>
    overflows <dtype> although the input is finite (largest |entry| <largest>); <fix>"``
    (never "NaN or infinite", which would blame the input)."""
    return ValueError(
        f"{name}: {what} overflows {np.dtype(dtype).name} although the input is finite "
        f"(largest |entry| {largest:.3g}); {fix}"
    )


def _as_path(path: Any, name: str) -> Path:
    """``path`` as an expanded :class:`~pathlib.Path`; ``TypeError`` unless a str or path-like."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {type(path).__name__}")
    return Path(path).expanduser()


def check_file(path: Any, name: str = "path", *, allow_empty: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path` to an existing, readable, non-empty regular file.

    A directory, a missing file and an empty file each get their own message.
    """
    p = _as_path(path, name)
    if p.is_dir():
        raise IsADirectoryError(f"{name} {str(p)!r} is a directory, not a file")
    if not p.exists():
        raise FileNotFoundError(f"{name} {str(p)!r} does not exist")
    if not p.is_file():
        raise ValueError(f"{name} {str(p)!r} is not a regular file")
    if not os.access(p, os.R_OK):
        raise PermissionError(f"{name} {str(p)!r} is not readable")
    if not allow_empty and p.stat().st_size == 0:
        raise format_error(p, None, "the file is empty")
    return p


def check_dir(path: Any, name: str = "path") -> Path:
    """``path`` as a :class:`~pathlib.Path` to an existing directory."""
    p = _as_path(path, name)
    if p.is_file():
        raise NotADirectoryError(f"{name} {str(p)!r} is a file, not a directory")
    if not p.exists():
        raise FileNotFoundError(f"{name} {str(p)!r} does not exist")
    return p


def format_error(path: PathLikeStr, lineno: int | None, message: str) -> DataFormatError:
    """A :class:`DataFormatError` reading ``"<file name> line <n>: <message> [<full path>]"``."""
    p = Path(path)
    where = f"{p.name} line {lineno}" if lineno is not None else p.name
    return DataFormatError(f"{where}: {message} [{p}]")
