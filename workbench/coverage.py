"""Describing the data: file inventory, vocabulary statistics, evaluation-set coverage.

These pure functions back the tour notebook (``notebooks/00_tour.ipynb``):

* :func:`data_inventory` -- every file of a data folder with its size and line count;
* :func:`vocabulary_counts` -- word frequencies ranked by count;
* :func:`type_token_curve` and :func:`fit_heaps` -- vocabulary growth (Heaps' law);
* :func:`fit_zipf` -- the rank/frequency exponent (Zipf's law);
* :func:`discussion_00` -- the notebook's Discussion, rendered from its records;
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
    "discussion_00",
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


# ============================================================================================
# the Discussion of the tour notebook, from its records
# ============================================================================================

#: Rating sets built from web text that a books corpus covers well but not completely.
_COMMON_SETS = ("MEN", "SCWS", "WS", "MTURK-287", "MTURK-771")


def _pct(v: float) -> str:
    return f"{100 * float(v):.0f} %"


def _pct_range(values: Sequence[float]) -> str:
    lo, hi = round(100 * min(values)), round(100 * max(values))
    return f"{lo} %" if lo == hi else f"{lo}–{hi} %"


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _cutoff_value(label: str) -> float:
    """Inverse of :func:`cutoff_label` (``"10K" -> 10000``, ``"all" -> inf``)."""
    if label == "all":
        return math.inf
    scale = {"K": 1e3, "M": 1e6}.get(label[-1:], 1.0)
    return float(label[:-1] if scale != 1.0 else label) * scale


def discussion_00(rec: Mapping[str, Any]) -> str:
    """The Discussion of the tour notebook (``00_tour``) from its records.

    Every number is read from ``rec`` (the values the notebook recorded:
    :func:`workbench.records.recorded`) and every qualitative word ("hold", "essentially
    complete", "the exception") is chosen by comparing them, so a run on other data or other
    cut-offs cannot contradict its own text.

    Parameters
    ----------
    rec : mapping
        Needs ``corpus, n_tokens, n_types, n_hapax, n_documents, zipf_exponent, heaps_beta,
        cutoffs, coverage`` and optionally ``missing_examples`` (``{set: "w1, w2, ..."}``).

    Returns
    -------
    str
        Markdown with braces escaped for :func:`workbench.records.narrate`.
    """
    if not isinstance(rec, Mapping):
        raise TypeError(
            "rec must be the records of a run of notebook 00 (a mapping, e.g. "
            f"workbench.records.recorded()), got {type(rec).__name__}"
        )
    need = ("corpus", "n_tokens", "n_types", "n_hapax", "n_documents", "zipf_exponent",
            "heaps_beta", "cutoffs", "coverage")  # fmt: skip
    missing = [k for k in need if k not in rec]
    if missing:
        raise KeyError(
            f"rec lacks the records {missing} that notebook 00 writes; pass the records of a "
            "complete run of notebook 00"
        )
    cov: Mapping[str, Mapping[str, float]] = rec["coverage"]
    labels = [str(c) for c in rec["cutoffs"]]
    first, full = labels[0], labels[-1]
    zipf, beta = float(rec["zipf_exponent"]), float(rec["heaps_beta"])
    n_types, n_hapax = int(rec["n_types"]), int(rec["n_hapax"])
    lines = []
    holds = -1.4 < zipf < -0.8 and 0.3 < beta < 0.9
    lines.append(
        f"* **Zipf and Heaps {'hold as expected' if holds else 'do not hold as expected'}** "
        f"(the {rec['corpus']} corpus: {int(rec['n_tokens']):,} tokens, {n_types:,} types, "
        f"{int(rec['n_documents'])} books). The rank/frequency slope is {zipf:.2f} over ranks "
        f"10–10,000 and the vocabulary keeps growing as roughly tokens^{beta:.2f}: there is no "
        f'corpus size at which "all words" are covered, and {_pct(n_hapax / n_types)} of the '
        "types are hapaxes, which carry almost no distributional signal. The vocabulary cap / "
        "`min_count` of every view builder is therefore a real modelling choice, not a detail."
    )
    rating = [n for n in cov if not str(n).lower().startswith("analogy")]
    complete = [n for n in rating if cov[n][full] >= 0.97]
    common = [n for n in _COMMON_SETS if n in cov and n not in complete]
    if common:
        # the largest cut-off that is smaller than the vocabulary (others equal "all")
        below = [c for c in labels[:-1] if _cutoff_value(c) < n_types]
        worst = min(cov[n][full] for n in common)
        how = ("well covered, but not completely" if worst >= 0.8 else
               "only partly covered" if worst >= 0.5 else "poorly covered")  # fmt: skip
        text = f"* **The common rating sets are {how}.** {_and(common)} reach "
        if below:
            text += (
                f"{_pct_range([cov[n][below[-1]] for n in common])} pair coverage at a "
                f"{below[-1]} vocabulary and {_pct_range([cov[n][full] for n in common])} with "
                f"all {n_types:,} types"
            )
        else:
            text += f"{_pct_range([cov[n][full] for n in common])} pair coverage with all {n_types:,} types"
        if complete:
            verb = "is" if len(complete) == 1 else "are"
            text += f"; {_and(complete)} {verb} essentially complete (at least 97 %)."
        else:
            text += "."
        lost = [n for n in ("MEN", "WS") if n in cov]
        if lost:
            text += (
                f" A {first} vocabulary loses "
                + " and ".join(f"{_pct(1 - cov[n][first])} of {n}" for n in lost)
                + "."
            )
        text += (
            " Every score reported later is on the covered pairs and comes with its coverage, "
            "so methods are compared on the same pairs."
        )
        lines.append(text)
    examples = rec.get("missing_examples") or {}
    words: list[str] = []
    for name in ("MEN", "WS", "MTURK-771", "SIMLEX"):
        for w in str(examples.get(name, "")).split(", "):
            if w and w not in words:
                words.append(w)
    if words:
        lines.append(
            "* **What is missing.** The most used words of the rating sets that the whole "
            f"vocabulary lacks include *{', '.join(words[:6])}* (table above). The rating sets "
            "were built from web text and our corpus is public-domain books, a genuine limitation "
            "of the bundled data relative to the papers' Wikipedia / newswire corpora."
        )
    if "RW" in cov:
        rw = cov["RW"][full]
        others = [cov[n][full] for n in rating if n != "RW"]
        exception = others and rw < 0.75 * min(others)
        lines.append(
            f"* **RW (rare words) {'is the exception' if exception else 'is covered like the rest'}"
            f"**: {_pct(rw)} of its pairs are covered by the whole vocabulary"
            + (
                ", so RW results on this corpus are computed on a small, biased subset and should "
                "be read with that caveat."
                if exception
                else "."
            )  # fmt: skip
        )
    if "analogy semantic" in cov and "analogy syntactic" in cov:
        sem, syn = cov["analogy semantic"][full], cov["analogy syntactic"][full]
        lines.append(
            f"* **The semantic analogies are {'mostly out of reach' if sem < 0.5 else 'reachable'}"
            f"**: {_pct(sem)} of the semantic questions are answerable with the whole vocabulary, "
            f"against {_pct(syn)} of the syntactic ones"
            + (
                " (capitals, countries, currencies and US states are rare or absent in these "
                "books). Analogy accuracies later are reported on scorable questions and "
                "separately for the two halves; they are not comparable with the papers' absolute "
                "numbers."
                if sem < syn
                else "."
            )  # fmt: skip
        )
    lines.append(
        "* **Nothing here is random**: the counts, fits and coverage are exact, so the notebook "
        "has no `SEEDS` parameter and one run is the result."
    )
    return "\n".join(lines).replace("{", "{{").replace("}", "}}")
