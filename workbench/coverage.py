"""Describing the data: file inventory, vocabulary statistics, evaluation-set coverage.

These pure functions back the tour notebook (``notebooks/00_tour.ipynb``, whose settings and
Discussion are the study :mod:`workbench.studies.tour`):

* :func:`data_inventory` -- every file of a data folder with its size and line count;
* :func:`vocabulary_counts` -- word frequencies ranked by count;
* :func:`type_token_curve` and :func:`fit_heaps` -- vocabulary growth (Heaps' law);
* :func:`fit_zipf` -- the rank/frequency exponent (Zipf's law);
* :func:`coverage_table` -- the fraction of each evaluation set's items (word pairs,
  analogy questions) whose words are *all* inside the ``k`` most frequent corpus words, for
  several cut-offs ``k``. An item is covered at cut-off ``k`` iff the largest frequency rank
  among its words is below ``k``; coverage is therefore non-decreasing in ``k``.
"""

from __future__ import annotations

import gzip
import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench._validation import check_array, check_bool, check_dir, check_int

__all__ = [
    "PowerLawFit",
    "coverage_table",
    "cutoff_label",
    "data_inventory",
    "fit_heaps",
    "fit_zipf",
    "item_max_ranks",
    "items_of",
    "missing_words",
    "type_token_curve",
    "vocabulary_counts",
]


@dataclass(frozen=True)
class PowerLawFit:
    """Least-squares fit of ``y = scale * x ** exponent`` in log-log space.

    ``r2`` is the coefficient of determination of the log-log regression; ``n_points`` the
    number of points used.
    """

    exponent: float
    scale: float
    r2: float
    n_points: int


def _loglog_fit(x: np.ndarray, y: np.ndarray) -> PowerLawFit:
    keep = (x > 0) & (y > 0)
    lx, ly = np.log(x[keep]), np.log(y[keep])
    if lx.size < 2 or np.ptp(lx) == 0:
        raise ValueError("need at least two distinct positive points to fit a power law")
    slope, intercept = np.polyfit(lx, ly, 1)
    resid = ly - (slope * lx + intercept)
    ss_tot = float(np.sum((ly - ly.mean()) ** 2))
    r2 = 1.0 - float(np.sum(resid**2)) / ss_tot if ss_tot > 0 else 1.0
    return PowerLawFit(float(slope), float(math.exp(intercept)), r2, int(lx.size))


# --------------------------------------------------------------------------- inventory


def _count_lines(path: Path) -> int | None:
    name = path.name
    if name.endswith((".tar.gz", ".tgz", ".zip")):
        return None
    opener = gzip.open if name.endswith(".gz") else open
    n = 0
    with opener(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            n += block.count(b"\n")
    return n


def data_inventory(root: str | os.PathLike[str], *, count_lines: bool = True) -> pd.DataFrame:
    """List the files below ``root`` with their sizes.

    Parameters
    ----------
    root : path
        Data folder (e.g. :func:`workbench.datasets.data_dir`).
    count_lines : bool
        Also count text lines (decompressing ``.gz`` files; archives get ``NA``).

    Returns
    -------
    pandas.DataFrame
        Columns ``folder, file, bytes, lines``, sorted by path. Hidden files are skipped.
    """
    count_lines = check_bool(count_lines, "count_lines")
    try:
        root = check_dir(root, "root")
    except FileNotFoundError:
        raise FileNotFoundError(f"data folder not found: {root}") from None
    rows = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        rows.append(
            {
                "folder": rel.parts[0] if len(rel.parts) > 1 else ".",
                "file": rel.as_posix(),
                "bytes": path.stat().st_size,
                "lines": _count_lines(path) if count_lines else None,
            }
        )
    table = pd.DataFrame(rows, columns=["folder", "file", "bytes", "lines"])
    table["lines"] = table["lines"].astype("Int64")
    return table


# --------------------------------------------------------------------------- vocabulary


def _tokens(tokens: Any, name: str) -> Iterable[str]:
    """``tokens`` if it is an iterable of tokens other than a single string."""
    if isinstance(tokens, (str, bytes)):
        raise TypeError(f"{name} must be an iterable of word tokens, not a single string")
    if not isinstance(tokens, Iterable):
        raise TypeError(f"{name} must be an iterable of word tokens, got {type(tokens).__name__}")
    return tokens  # type: ignore[no-any-return]


def vocabulary_counts(tokens: Iterable[str]) -> pd.Series:
    """Word frequencies, most frequent first (ties broken alphabetically).

    Returns
    -------
    pandas.Series
        Index = word, values = count (int64), name ``"count"``; ``series.index`` is the
        frequency-ranked vocabulary used by :func:`coverage_table`.

    Raises
    ------
    TypeError
        ``tokens`` is a single string (it would be counted by character), not iterable, or holds
        something other than strings.
    """
    counts = Counter(_tokens(tokens, "tokens"))
    bad = next((t for t in counts if not isinstance(t, str)), None)
    if bad is not None:
        raise TypeError(f"tokens must be strings, got {bad!r} ({type(bad).__name__})")
    if not counts:
        return pd.Series([], dtype="int64", name="count")
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    words, values = zip(*items)
    return pd.Series(np.asarray(values, dtype=np.int64), index=list(words), name="count")


def type_token_curve(tokens: Iterable[str], *, n_points: int = 50) -> pd.DataFrame:
    """Number of distinct words (types) after the first ``n`` tokens, at log-spaced ``n``.

    Returns
    -------
    pandas.DataFrame
        Columns ``tokens`` (increasing, ending at the corpus size) and ``types``.
    """
    n_points = check_int(n_points, "n_points", low=2)
    index: dict[str, int] = {}
    ids = np.fromiter(
        (index.setdefault(t, len(index)) for t in _tokens(tokens, "tokens")), dtype=np.int64
    )
    if ids.size == 0:
        raise ValueError("type_token_curve: no tokens")
    # ids are assigned in order of first appearance, so #types in ids[:n] = max(ids[:n]) + 1
    types = np.maximum.accumulate(ids) + 1
    points = np.unique(np.geomspace(1, ids.size, n_points).round().astype(np.int64))
    return pd.DataFrame({"tokens": points, "types": types[points - 1]})


def fit_heaps(curve: pd.DataFrame, *, min_tokens: int = 1000) -> PowerLawFit:
    """Fit Heaps' law ``types = K * tokens ** beta`` to a :func:`type_token_curve`.

    Notes
    -----
    Least squares on :math:`\\log V(n) = \\log K + \\beta \\log n` over points with
    :math:`n \\ge` ``min_tokens`` (the first few hundred tokens are not in the power-law
    regime). English text typically gives :math:`0.4 \\lesssim \\beta \\lesssim 0.7`.

    References
    ----------
    H. S. Heaps. Information Retrieval: Computational and Theoretical Aspects. 1978.
    """
    if not isinstance(curve, pd.DataFrame) or not {"tokens", "types"} <= set(curve.columns):
        got = list(curve.columns) if isinstance(curve, pd.DataFrame) else type(curve).__name__
        raise TypeError(
            f"curve must be a DataFrame with columns tokens, types (type_token_curve), got {got}"
        )
    min_tokens = check_int(min_tokens, "min_tokens", low=0)
    for col in ("tokens", "types"):
        vals = check_array(curve[col], f"curve[{col!r}]", ndim=1)
        if (vals < 0).any():
            raise ValueError(f"curve[{col!r}] has negative counts")
    part = curve[curve["tokens"] >= min_tokens]
    return _loglog_fit(part["tokens"].to_numpy(float), part["types"].to_numpy(float))


def fit_zipf(
    counts: pd.Series | Sequence[int], *, ranks: tuple[int, int] = (10, 10_000)
) -> PowerLawFit:
    """Fit Zipf's law ``count = C * rank ** (-s)``; the returned exponent is ``-s``.

    Notes
    -----
    Least squares on :math:`\\log f(r) = \\log C - s \\log r` for ranks
    ``ranks[0] <= r <= ranks[1]`` (1-based), where the head (function words) and the tail
    (hapaxes, ties) bend away from a straight line. Natural text gives :math:`s \\approx 1`.

    References
    ----------
    G. K. Zipf. Human Behavior and the Principle of Least Effort. 1949.
    """
    values = check_array(counts, "counts", ndim=1)
    if (values < 0).any():
        raise ValueError(f"counts has {int((values < 0).sum())} negative entries")
    values = np.sort(values)[::-1]
    if isinstance(ranks, (str, bytes)) or not isinstance(ranks, Sequence) or len(ranks) != 2:
        raise TypeError(f"ranks must be a pair (lo, hi) of 1-based ranks, got {ranks!r}")
    lo, hi = check_int(ranks[0], "ranks[0]"), check_int(ranks[1], "ranks[1]")
    if lo < 1 or hi < lo:
        raise ValueError(f"ranks must satisfy 1 <= lo <= hi, got {ranks}")
    r = np.arange(1, values.size + 1, dtype=float)
    keep = (r >= lo) & (r <= hi)
    return _loglog_fit(r[keep], values[keep])


# --------------------------------------------------------------------------- coverage

_ITEM_COLUMNS = (("a", "b", "c", "d"), ("word1", "word2"))


def items_of(dataset: pd.DataFrame | Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """The word tuples of an evaluation set.

    Accepts an analogy DataFrame (columns ``a, b, c, d``), a rating DataFrame (columns
    ``word1, word2``) or a sequence of word tuples.

    Raises
    ------
    TypeError
        ``dataset`` is a string or not iterable, an item is not a tuple / list of strings.
    ValueError
        The DataFrame lacks the columns, or has missing words (NaN), or an item is empty.
    """
    if isinstance(dataset, pd.DataFrame):
        for cols in _ITEM_COLUMNS:
            if set(cols) <= set(dataset.columns):
                part = dataset[list(cols)]
                if part.isna().any(axis=None):
                    rows = list(part.index[part.isna().any(axis=1)][:5])
                    raise ValueError(
                        f"evaluation set has missing words (NaN) in rows {rows}; drop those rows"
                    )
                return [tuple(str(w) for w in row) for row in part.itertuples(index=False)]
        raise ValueError(
            "evaluation set DataFrame needs columns a, b, c, d (analogies) or word1, word2 "
            f"(ratings); got {list(dataset.columns)}"
        )
    return _check_items(dataset, "dataset")


def _check_items(items: Any, name: str) -> list[tuple[str, ...]]:
    """``items`` (a sequence of word tuples) as a list of tuples of strings."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise TypeError(
            f"{name} must be a DataFrame or a sequence of word tuples, got {type(items).__name__}"
        )
    out = []
    for j, item in enumerate(items):
        if isinstance(item, (str, bytes)) or not isinstance(item, (tuple, list)):
            raise TypeError(f"{name}[{j}] must be a tuple of words, got {item!r}")
        if not item:
            raise ValueError(f"{name}[{j}] is an empty item (no word)")
        bad = [w for w in item if not isinstance(w, str)]
        if bad:
            raise TypeError(f"{name}[{j}] holds a non-string word {bad[0]!r}")
        out.append(tuple(item))
    return out


def _check_vocabulary(vocabulary: Any) -> list[str]:
    """``vocabulary`` (a frequency-ranked sequence of distinct words) as a list."""
    if isinstance(vocabulary, (str, bytes)) or not isinstance(vocabulary, Iterable):
        raise TypeError(
            "vocabulary must be a sequence of words ranked by frequency, "
            f"got {type(vocabulary).__name__}"
        )
    vocab = list(vocabulary)
    if not vocab:
        raise ValueError("vocabulary is empty")
    bad = next((w for w in vocab if not isinstance(w, str)), None)
    if bad is not None:
        raise TypeError(f"vocabulary must hold strings, got {bad!r} ({type(bad).__name__})")
    if len(set(vocab)) != len(vocab):
        seen: set[str] = set()
        dup = next(w for w in vocab if w in seen or seen.add(w))  # type: ignore[func-returns-value]
        raise ValueError(f"vocabulary lists {dup!r} twice: each word must have one rank")
    return vocab


def item_max_ranks(
    vocabulary: Sequence[str], items: Sequence[Sequence[str]], *, lowercase: bool = True
) -> np.ndarray:
    """For each item, the largest 0-based frequency rank among its words (``inf`` if OOV)."""
    lowercase = check_bool(lowercase, "lowercase")
    items = _check_items(items, "items")
    rank = {w: i for i, w in enumerate(_check_vocabulary(vocabulary))}
    out = np.empty(len(items), dtype=float)
    for j, item in enumerate(items):
        worst = -1.0
        for w in item:
            r = rank.get(w.lower() if lowercase else w)
            if r is None:
                worst = math.inf
                break
            worst = max(worst, float(r))
        out[j] = worst
    return out


def cutoff_label(cutoff: int | None) -> str:
    """``10000 -> "10K"``, ``1500000 -> "1.5M"``, ``None -> "all"``."""
    if cutoff is None:
        return "all"
    cutoff = check_int(cutoff, "cutoff", low=1)
    if cutoff >= 1_000_000 and cutoff % 100_000 == 0:
        return f"{cutoff / 1_000_000:g}M"
    if cutoff >= 1000 and cutoff % 100 == 0:
        return f"{cutoff / 1000:g}K"
    return str(cutoff)


def _check_datasets(datasets: Any) -> None:
    """``datasets`` is a non-empty mapping ``{name: evaluation set}``."""
    if not isinstance(datasets, Mapping):
        raise TypeError(
            f"datasets must be a mapping {{name: evaluation set}}, got {type(datasets).__name__}"
        )
    if not datasets:
        raise ValueError("datasets is empty: give at least one evaluation set")


def coverage_table(
    vocabulary: Sequence[str],
    datasets: Mapping[str, pd.DataFrame | Sequence[Sequence[str]]],
    cutoffs: Sequence[int | None] = (10_000, 25_000, 50_000, 100_000, None),
    *,
    lowercase: bool = True,
) -> pd.DataFrame:
    """Fraction of each evaluation set's items fully covered by the top-``k`` vocabulary.

    Parameters
    ----------
    vocabulary : sequence of str
        Corpus words ranked by frequency (e.g. ``vocabulary_counts(tokens).index``).
    datasets : mapping name -> DataFrame or sequence of word tuples
        Evaluation sets (see :func:`items_of`).
    cutoffs : sequence of int or None
        Vocabulary sizes; ``None`` means the whole vocabulary. Must be positive.
    lowercase : bool
        Lowercase the evaluation words before look-up (as the corpus loader does).

    Returns
    -------
    pandas.DataFrame
        One row per dataset (index = name) with columns ``items`` (number of items) and one
        column per cut-off labelled by :func:`cutoff_label`, holding coverage in [0, 1].

    Notes
    -----
    With :math:`r(w)` the 0-based frequency rank of word :math:`w`, an item
    :math:`(w_1, \\dots, w_m)` is covered at cut-off :math:`k` iff
    :math:`\\max_i r(w_i) < k`; coverage is :math:`\\frac{1}{n}\\sum_j
    [\\max_i r(w_{ji}) < k]`, non-decreasing in :math:`k`.
    """
    if isinstance(cutoffs, (str, bytes)) or not isinstance(cutoffs, Iterable):
        raise TypeError(f"cutoffs must be a sequence of sizes (or None), got {cutoffs!r}")
    cutoffs = list(cutoffs)
    if not cutoffs:
        raise ValueError("cutoffs is empty: give at least one vocabulary size (None: all words)")
    for k in cutoffs:
        if k is not None and (
            isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k <= 0
        ):
            raise ValueError(f"cut-offs must be positive integers or None, got {k!r}")
    lowercase = check_bool(lowercase, "lowercase")
    vocab = _check_vocabulary(vocabulary)
    _check_datasets(datasets)
    labels = [cutoff_label(k) for k in cutoffs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"cutoffs has duplicates: {cutoffs}")
    rows = []
    for name, dataset in datasets.items():
        items = items_of(dataset)
        if not items:
            raise ValueError(f"evaluation set {name!r} has no items")
        worst = item_max_ranks(vocab, items, lowercase=lowercase)
        row: dict[str, float | int] = {"items": len(items)}
        for label, k in zip(labels, cutoffs):
            limit = len(vocab) if k is None else min(int(k), len(vocab))
            row[label] = float(np.mean(worst < limit))
        rows.append(pd.Series(row, name=name))
    table = pd.DataFrame(rows)
    table["items"] = table["items"].astype(int)
    table.index.name = "dataset"
    return table


def missing_words(
    vocabulary: Sequence[str],
    datasets: Mapping[str, pd.DataFrame | Sequence[Sequence[str]]],
    *,
    cutoff: int | None = None,
    examples: int = 8,
    lowercase: bool = True,
) -> pd.DataFrame:
    """The evaluation words outside the top-``cutoff`` vocabulary, per dataset.

    Returns
    -------
    pandas.DataFrame
        Index = dataset; columns ``words`` (distinct words), ``missing`` (how many are out of
        vocabulary), ``missing_fraction`` and ``examples`` (the first ``examples`` missing
        words, most often used in the set first, as a comma-separated string).
    """
    cutoff = check_int(cutoff, "cutoff", low=1, allow_none=True)
    examples = check_int(examples, "examples", low=0)
    lowercase = check_bool(lowercase, "lowercase")
    vocab = _check_vocabulary(vocabulary)
    _check_datasets(datasets)
    limit = len(vocab) if cutoff is None else min(int(cutoff), len(vocab))
    kept = set(vocab[:limit])
    rows = []
    for name, dataset in datasets.items():
        items = items_of(dataset)
        if not items:
            raise ValueError(f"evaluation set {name!r} has no items")
        usage = Counter(w.lower() if lowercase else w for item in items for w in item)
        gone = sorted((w for w in usage if w not in kept), key=lambda w: (-usage[w], w))
        rows.append(
            pd.Series(
                {
                    "words": len(usage),
                    "missing": len(gone),
                    "missing_fraction": len(gone) / len(usage) if usage else 0.0,
                    "examples": ", ".join(gone[:examples]),
                },
                name=name,
            )
        )
    table = pd.DataFrame(rows)
    table.index.name = "dataset"
    return table
