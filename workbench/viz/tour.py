"""Figures of the tour notebook: Zipf plot, vocabulary growth, evaluation-set coverage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from workbench._validation import check_int
from workbench.coverage import PowerLawFit

__all__ = [
    "corpus_summary_table",
    "coverage_groups",
    "coverage_percent",
    "missing_words_table",
    "plot_coverage",
    "plot_vocabulary",
]


def _need_columns(table: object, name: str, columns: Sequence[str], source: str) -> None:
    """``table`` is a non-empty DataFrame with ``columns`` (as :func:`source` returns)."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame ({source}), got {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(
            f"{name} lacks the columns {missing} ({source}); has {list(table.columns)}"
        )
    if table.empty:
        raise ValueError(f"{name} is empty: nothing to plot")


def _readable(value: object) -> str:
    """A count with thousands separators, another number with three significant digits."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return str(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{float(value):.3g}"


def corpus_summary_table(summary: Mapping[str, object]) -> pd.DataFrame:
    """The corpus summary of the tour (a mapping quantity -> value) as a one-column table,
    counts written with thousands separators and fitted exponents with three digits."""
    return pd.DataFrame(
        {"value": [_readable(v) for v in summary.values()]},
        index=pd.Index(list(summary), name="quantity"),
    )


def coverage_percent(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`workbench.coverage.coverage_table` for reading: ``items`` unchanged, every
    cut-off column in % of items with one decimal."""
    _need_columns(table, "table", ("items",), "coverage_table")
    out = table.copy()
    cutoffs = [c for c in out.columns if c != "items"]
    out[cutoffs] = (100 * out[cutoffs].astype(float)).round(1)
    return out


def missing_words_table(missing: pd.DataFrame) -> pd.DataFrame:
    """The tour's missing-word table for reading: ``missing_fraction`` as ``missing (%)`` with
    one decimal; the ``examples`` kept whole (show it with
    :func:`workbench.viz.tables.folded_table`, whose HTML never cuts a cell)."""
    _need_columns(missing, "missing", ("words", "missing", "missing_fraction"), "run_tour")
    out = missing.copy()
    out["missing_fraction"] = (100 * out["missing_fraction"].astype(float)).round(1)
    return out.rename(columns={"missing_fraction": "missing (%)"})


def plot_vocabulary(
    counts: pd.Series,
    curve: pd.DataFrame,
    *,
    zipf: PowerLawFit | None = None,
    heaps: PowerLawFit | None = None,
    title: str = "",
) -> Figure:
    """Two panels: rank/frequency (log-log) and type/token growth (log-log), with fits.

    Parameters
    ----------
    counts : Series
        Word counts, most frequent first (:func:`workbench.coverage.vocabulary_counts`).
    curve : DataFrame
        ``tokens, types`` (:func:`workbench.coverage.type_token_curve`).
    zipf, heaps : PowerLawFit, optional
        Fitted laws drawn as dashed lines.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not isinstance(counts, pd.Series) or counts.empty:
        raise TypeError(
            "counts must be a non-empty Series of word counts (vocabulary_counts), "
            f"got {type(counts).__name__}" + (" (empty)" if isinstance(counts, pd.Series) else "")
        )
    _need_columns(curve, "curve", ("tokens", "types"), "type_token_curve")
    for name, fit in (("zipf", zipf), ("heaps", heaps)):
        if fit is not None and not isinstance(fit, PowerLawFit):
            raise TypeError(f"{name} must be a PowerLawFit or None, got {type(fit).__name__}")
    if not isinstance(title, str):
        raise TypeError(f"title must be a string, got {type(title).__name__}")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    # ranks evenly spaced in log(rank): a log-log line cannot show more, and the figure stays
    # small (a 5M-token corpus has about 75K types)
    pick = np.unique(np.geomspace(1, len(counts), min(len(counts), 600)).astype(int)) - 1
    ranks = pick + 1
    ax1.loglog(ranks, counts.to_numpy()[pick], lw=1.5, label="corpus")
    if zipf is not None:
        ax1.loglog(
            ranks,
            zipf.scale * ranks.astype(float) ** zipf.exponent,
            "--",
            lw=1,
            label=f"fit: count ∝ rank$^{{{zipf.exponent:.2f}}}$",
        )
    ax1.set(xlabel="frequency rank", ylabel="count", title="Zipf plot")
    ax1.legend()
    x = curve["tokens"].to_numpy(float)
    ax2.loglog(x, curve["types"].to_numpy(float), "o-", ms=3, lw=1.5, label="corpus")
    if heaps is not None:
        ax2.loglog(
            x,
            heaps.scale * x**heaps.exponent,
            "--",
            lw=1,
            label=f"fit: types ∝ tokens$^{{{heaps.exponent:.2f}}}$",
        )
    ax2.set(xlabel="tokens read", ylabel="distinct words (types)", title="Vocabulary growth")
    ax2.legend()
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


#: Okabe & Ito's colour-blind-safe palette (no yellow: it vanishes on white), with markers and
#: line styles so that lines stay distinguishable in grey-scale print.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINESTYLES = ("-", "--", "-.", ":")


def coverage_groups(
    table: pd.DataFrame, *, bounds: tuple[int, int] = (500, 200)
) -> dict[str, list[str]]:
    """Split the rows of a coverage table into panels of a few lines each.

    Analogy rows (names starting with ``analogy``) form one group; the rating sets are split by
    their number of items (``items`` column) at ``bounds`` (default: at least 500 pairs, 200 to
    499, fewer than 200). Empty groups are dropped; without an ``items`` column all rating sets
    form one group.

    Returns
    -------
    dict
        ``{panel title: [row names]}`` in table order.
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a DataFrame (coverage_table), got {type(table).__name__}")
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise TypeError(f"bounds must be a pair (hi, lo) of item counts, got {bounds!r}")
    hi, lo = (check_int(b, "bounds", low=1) for b in bounds)
    if not hi > lo > 0:
        raise ValueError(f"bounds must be decreasing positive sizes, got {bounds}")
    names = [str(n) for n in table.index]
    analogy = [n for n in names if n.lower().startswith("analogy")]
    rating = [n for n in names if n not in analogy]
    groups: dict[str, list[str]] = {}
    if "items" in table.columns:
        items = table["items"].astype(float)
        items.index = names
        groups[f"rating sets, ≥ {hi:,} pairs"] = [n for n in rating if items[n] >= hi]
        groups[f"rating sets, {lo:,}–{hi - 1:,} pairs"] = [n for n in rating if lo <= items[n] < hi]
        groups[f"rating sets, < {lo:,} pairs"] = [n for n in rating if items[n] < lo]
    else:
        groups["rating sets"] = rating
    groups["analogy questions"] = analogy
    return {k: v for k, v in groups.items() if v}


def plot_coverage(
    table: pd.DataFrame,
    *,
    title: str = "",
    groups: dict[str, list[str]] | None = None,
    max_single: int = 6,
) -> Figure:
    """Coverage (% of items with all words in the vocabulary) against vocabulary cut-off.

    One panel per group of evaluation sets (:func:`coverage_groups`), each line with its own
    colour, marker and line style and labelled with its number of items; a table of at most
    ``max_single`` rows is drawn in a single panel.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`workbench.coverage.coverage_table` (the ``items`` column labels the
        lines and groups the rating sets by size).
    title : str
        Figure title.
    groups : dict, optional
        ``{panel title: [row names]}``; default :func:`coverage_groups`.
    max_single : int
        Up to this many rows, one panel.

    Returns
    -------
    matplotlib.figure.Figure
    """
    _need_columns(table, "table", (), "coverage_table")
    max_single = check_int(max_single, "max_single", low=1)
    if not isinstance(title, str):
        raise TypeError(f"title must be a string, got {type(title).__name__}")
    values = table.drop(columns=["items"], errors="ignore")
    values.index = [str(n) for n in values.index]
    bad = [c for c in values.columns if not pd.api.types.is_numeric_dtype(values[c])]
    if bad:
        raise TypeError(f"table columns {bad} are not coverage fractions (numbers)")
    if groups is None:
        groups = {"": list(values.index)} if len(values) <= max_single else coverage_groups(table)
    if not isinstance(groups, dict):
        raise TypeError(f"groups must be a dict {{panel title: [row names]}}, got {groups!r}")
    if not groups or any(not rows for rows in groups.values()):
        raise ValueError(f"groups must have at least one panel and no empty panel, got {groups}")
    if any(isinstance(rows, str) for rows in groups.values()):
        raise TypeError("groups values must be lists of row names, not single strings")
    unknown = [n for rows in groups.values() for n in rows if n not in values.index]
    if unknown:
        raise KeyError(f"groups name rows that are not in the table: {unknown}")
    n_panels = len(groups)
    n_cols = 1 if n_panels == 1 else 2
    n_rows = int(np.ceil(n_panels / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(9 if n_cols == 1 else 10.5, 3.6 * n_rows + 0.6),
                             squeeze=False, sharex=True, sharey=True)  # fmt: skip
    xs = np.arange(values.shape[1])
    items = table["items"].to_numpy() if "items" in table.columns else None
    for ax, (panel, rows) in zip(axes.ravel(), groups.items()):
        for i, name in enumerate(rows):
            label = (
                name if items is None else f"{name} ({int(items[values.index.get_loc(name)]):,})"
            )
            ax.plot(xs, 100 * values.loc[name].to_numpy(float), color=PALETTE[i % len(PALETTE)],
                    marker=MARKERS[i % len(MARKERS)], ls=LINESTYLES[i % len(LINESTYLES)],
                    ms=5, lw=1.6, label=label)  # fmt: skip
        if panel:
            ax.set_title(panel, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=8, title="set (items)", title_fontsize=8, framealpha=0.9)
    for ax in axes.ravel()[n_panels:]:
        ax.set_visible(False)
    for i, ax in enumerate(axes.ravel()[:n_panels]):
        ax.set_xticks(xs, [str(c) for c in values.columns])
        if i + n_cols >= n_panels:
            ax.set_xlabel("vocabulary cut-off (most frequent words kept)")
            ax.tick_params(labelbottom=True)
        if i % n_cols == 0:
            ax.set_ylabel("items fully covered (%)")
    axes[0, 0].set_ylim(0, 102)
    fig.suptitle(title or "Evaluation-set coverage by the corpus vocabulary")
    fig.tight_layout()
    return fig
