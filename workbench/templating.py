"""Discussion templates: Markdown (Jinja2) filled from a run's records and facts.

A notebook's Discussion is a Markdown template next to its study
(``workbench/studies/<study>/templates/discussion_NN.md.j2``, or
``workbench/studies/templates/`` for the one-module studies). A study renders it with
:func:`render` from two things only:

* the run's **records** (what :func:`workbench.records.record_all` wrote), for numbers;
* its **facts** (:mod:`workbench.studies.facts` and the study's ``_facts`` module), pure functions
  of the records that decide every qualitative word, each with its rule in its docstring.

Templates never compute; they choose words by ``{% if %}`` over facts and print numbers through
the filters below. Editing a sentence needs no Python. There is one formatting pass: what Jinja
prints is the Markdown shown (no brace escaping, no second ``str.format``).

Filters
-------
``pts``
    a fraction as points with one decimal (``0.4213`` -> ``42.1``); ``n/a`` for None/NaN.
``dpts``
    a signed difference in points (``-0.012`` -> ``-1.2``).
``p``
    a p-value: ``< 0.001`` below one in a thousand, else three decimals; ``n/a`` for None.
``mpts`` / ``mdpts``
    per-seed values (a list, or a mapping keyed by seed) as ``mean ± sd`` in points (one value:
    the value alone); ``mdpts`` signs the mean.
``num(digits=3)``
    a number with ``digits`` significant digits (``g`` format); ``n/a`` for None.
``int``-like counts
    ``count(total)`` -> ``"3 of 11"``; ``plural(word, plural=None)`` -> ``"1 set"``, ``"2 sets"``.
``join_and``
    ``["a", "b", "c"]`` -> ``"a, b and c"``.
``seeds``
    a :class:`~workbench.studies.facts.SeedCount` (or ``(k, n)``) as ``in every seed`` /
    ``in 2 of 3 seeds`` / ``in no seed`` (empty for a one-seed run).
"""

from __future__ import annotations

import functools
import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
from IPython.display import Markdown

__all__ = [
    "FILTERS",
    "count",
    "dpts",
    "join_and",
    "mean_sd",
    "mdpts",
    "mpts",
    "num",
    "plural",
    "pts",
    "pvalue",
    "render",
    "render_text",
    "seeds_phrase",
]


def _finite(value: Any, what: str) -> float | None:
    """``value`` as a float; None for None / NaN / inf; TypeError naming ``what`` otherwise."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} needs a number or None, got {value!r} ({type(value).__name__})")
    v = float(value)
    return v if math.isfinite(v) else None


def pts(value: Any) -> str:
    """A fraction as points with one decimal (``0.4213`` -> ``"42.1"``); ``"n/a"`` for None."""
    v = _finite(value, "pts")
    return "n/a" if v is None else f"{100 * v:.1f}"


def dpts(value: Any) -> str:
    """A signed difference in points with one decimal (``-0.012`` -> ``"-1.2"``)."""
    v = _finite(value, "dpts")
    return "n/a" if v is None else f"{100 * v:+.1f}"


def pvalue(value: Any) -> str:
    """A p-value: ``"< 0.001"`` below one in a thousand, else three decimals; ``"n/a"`` for None.

    Raises ValueError for a number outside [0, 1].
    """
    v = _finite(value, "p")
    if v is None:
        return "n/a"
    if not 0.0 <= v <= 1.0 + 1e-12:
        raise ValueError(f"p needs a p-value in [0, 1], got {value!r}")
    return "< 0.001" if v < 0.001 else f"{v:.3f}"


def _values(obj: Any) -> np.ndarray:
    """Per-seed numbers (a list, a mapping keyed by seed, or one number) as floats; None -> NaN."""
    if isinstance(obj, Mapping):
        obj = list(obj.values())
    if not isinstance(obj, (Sequence, np.ndarray)) or isinstance(obj, (str, bytes)):
        obj = [obj]
    out = []
    for v in obj:
        f = _finite(v, "per-seed values")
        out.append(np.nan if f is None else f)
    return np.asarray(out, dtype=float)


def mean_sd(values: Any, *, scale: float = 100.0, decimals: int = 1, sign: bool = False) -> str:
    """``mean ± sd`` (sample sd) of the finite per-seed ``values`` times ``scale``; the mean alone
    for one value, ``"n/a"`` for none."""
    a = _values(values)
    a = a[np.isfinite(a)]
    if a.size == 0:
        return "n/a"
    text = f"{scale * a.mean():{'+' if sign else ''}.{decimals}f}"
    if a.size > 1:
        text += f" ± {scale * a.std(ddof=1):.{decimals}f}"
    return text


def mpts(values: Any) -> str:
    """Per-seed fractions as ``mean ± sd`` in points (:func:`mean_sd`)."""
    return mean_sd(values)


def mdpts(values: Any) -> str:
    """Per-seed differences as a signed ``mean ± sd`` in points (:func:`mean_sd`)."""
    return mean_sd(values, sign=True)


def num(value: Any, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits (``g`` format); ``"n/a"`` for None/NaN."""
    v = _finite(value, "num")
    return "n/a" if v is None else f"{v:.{digits}g}"


def count(n: Any, total: Any) -> str:
    """``"n of total"``."""
    return f"{int(n)} of {int(total)}"


def plural(n: Any, word: str, plural_word: str | None = None) -> str:
    """``"1 set"``, ``"2 sets"`` (``plural_word`` for irregular plurals)."""
    k = int(n)
    return f"{k} {word if k == 1 else (plural_word or word + 's')}"


def join_and(items: Iterable[Any]) -> str:
    """``"a, b and c"`` (``""`` for no items)."""
    parts = [str(i) for i in items]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def seeds_phrase(value: Any) -> str:
    """A seed count as words: ``"in every seed"``, ``"in 2 of 3 seeds"``, ``"in no seed"``;
    ``""`` for a one-seed run. ``value`` is a ``SeedCount`` (``k``, ``n`` attributes) or ``(k, n)``.
    """
    k, n = (value.k, value.n) if hasattr(value, "k") else value
    k, n = int(k), int(n)
    if n <= 1:
        return ""
    if k == n:
        return "in every seed"
    if k == 0:
        return "in no seed"
    return f"in {k} of {n} seeds"


#: The filters every Discussion template can use.
FILTERS: dict[str, Any] = {
    "pts": pts,
    "dpts": dpts,
    "p": pvalue,
    "mpts": mpts,
    "mdpts": mdpts,
    "num": num,
    "count": count,
    "plural": plural,
    "join_and": join_and,
    "seeds": seeds_phrase,
}


def _strict(fn: Any) -> Any:
    """``fn`` as a filter that raises Jinja's UndefinedError (naming the name) for an undefined
    value, instead of formatting it."""

    @functools.wraps(fn)
    def wrapped(value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, jinja2.Undefined):
            value._fail_with_undefined_error()
        return fn(value, *args, **kwargs)

    return wrapped


@functools.cache
def _environment(folder: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update({name: _strict(fn) for name, fn in FILTERS.items()})
    return env


def render_text(folder: str | os.PathLike[str], name: str, /, **context: Any) -> str:
    """The template ``name`` of ``folder`` filled with ``context``, as Markdown text.

    Undefined names raise (``jinja2.UndefinedError`` naming the name), so a template cannot print
    a value the run did not produce.
    """
    path = Path(folder)
    if not (path / name).is_file():
        raise FileNotFoundError(f"no Discussion template {name!r} in {path}")
    text = _environment(str(path.resolve())).get_template(name).render(**context)
    # a blank line at most between paragraphs, whatever the template's control lines left
    lines: list[str] = []
    for line in text.strip().splitlines():
        if line.strip() or (lines and lines[-1].strip()):
            lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def render(folder: str | os.PathLike[str], name: str, /, **context: Any) -> Markdown:
    """:func:`render_text` as an IPython ``Markdown`` object (displayed as a cell's result)."""
    return Markdown(render_text(folder, name, **context))
