"""Figures and tables of the significance notebook: MRDS curves, Table 2 reproduction, and the
notebook's result tables formatted for reading (correlations in points, Spearman's rho x 100 with
one decimal; p-values as :func:`workbench.templating.pvalue` writes them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from workbench._validation import check_bool, check_int
from workbench.evaluation import WordSimResult
from workbench.significance import MVLSA_TABLE2, mrds_accuracy, mrds_correlation
from workbench.templating import dpts, pts, pvalue
from workbench.viz._axes import figure_and_axes

__all__ = [
    "analogy_frame",
    "bootstrap_frame",
    "comparison_seeds_frame",
    "dependent_tests_frame",
    "mrds_text",
    "plot_comparison_scatter",
    "plot_mrds_curves",
    "plot_table2_comparison",
    "table2_frame",
]


#: Okabe & Ito's colour-blind-safe palette (no yellow: it vanishes on white).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#000000")
LINESTYLES = ("-", "--", ":", "-.")
_METHOD_LABELS = {
    "williams1959": "Williams' $t$",
    "mvlsa2015": "Williams' $t$ (df $= n-2$)",
    "hotelling1940": "Hotelling's $t$",
    "steiger1980": "Steiger's $z$",
}


def _plain_log_ticks(axis: Axis, ticks: Sequence[float]) -> None:
    """Log axis labelled with plain numbers at ``ticks`` (30, 100, 300 ... instead of 10^k)."""
    axis.set_major_locator(FixedLocator(list(ticks)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def _ticks_within(lo: float, hi: float, steps: Sequence[float] = (1, 2, 5)) -> list[float]:
    out = []
    for e in range(int(np.floor(np.log10(lo))) - 1, int(np.ceil(np.log10(hi))) + 1):
        out += [m * 10.0**e for m in steps if lo <= m * 10.0**e <= hi]
    return out or [lo, hi]


def _table2_column(r: float, p0: float) -> str:
    return f"p{p0:g}_r{r:g}"


def _grid_and_ticks(ax: Axes, ns: Sequence[float], values: Sequence[float]) -> None:
    """Grid lines of a log-log MRDS panel and plain-number ticks spanning the item counts
    ``ns`` and the positive finite MRDS ``values``."""
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.12)
    _plain_log_ticks(ax.xaxis, _ticks_within(min(ns), max(ns), (1, 3)))
    finite = [v for v in values if np.isfinite(v) and v > 0]
    if finite:
        _plain_log_ticks(ax.yaxis, _ticks_within(min(finite), max(finite)))


def plot_mrds_curves(
    ns: Sequence[int] | None = None,
    r_values: Sequence[float] = (0.5, 0.7, 0.9),
    p0_values: Sequence[float] = (0.01, 0.05),
    *,
    method: str = "williams1959",
    accuracy: bool = True,
    paper: pd.DataFrame | None = None,
    axes: Axes | Sequence[Axes] | None = None,
) -> Figure:
    r"""MRDS (percentage points) against the number of items, log-log, with the paper's values.

    Left: correlation MRDS :math:`\sigma^{r}_{p_0}` (:func:`workbench.significance.mrds_correlation`,
    one-sided) for each inter-system correlation :math:`r_{AB}` (colour) and threshold
    :math:`p_0` (line style); right (if ``accuracy``): the Bayesian accuracy MRDS
    :math:`\sigma_{p_0}` (:func:`workbench.significance.mrds_accuracy`) for each :math:`p_0`.
    Open circles are the published values of ``paper`` (default: Table 2 of the MVLSA paper,
    :data:`workbench.significance.MVLSA_TABLE2`) at their data sets' sizes; pass an empty
    DataFrame to leave them out.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if paper is not None and not isinstance(paper, pd.DataFrame):
        raise TypeError(f"paper must be a DataFrame or None, got {type(paper).__name__}")
    paper = MVLSA_TABLE2 if paper is None else paper
    accuracy = check_bool(accuracy, "accuracy")
    for arg, vals in (("r_values", r_values), ("p0_values", p0_values)):
        if isinstance(vals, (str, bytes)) or not isinstance(vals, Sequence) or not len(vals):
            raise ValueError(f"{arg} must be a non-empty sequence of numbers, got {vals!r}")
    if ns is not None:
        if isinstance(ns, (str, bytes)) or np.ndim(ns) != 1 or not len(ns):
            raise ValueError(f"ns must be a non-empty sequence of item counts, got {ns!r}")
        ns = [check_int(n, "ns entries", low=1) for n in ns]
    grid = np.unique(np.geomspace(20, 20000, 16).astype(int)) if ns is None else np.asarray(ns)
    ncols = 2 if accuracy else 1
    if axes is None:
        fig, made = plt.subplots(1, ncols, figsize=(5.8 * ncols, 4.4), squeeze=False)
        panels = list(made[0])
    else:
        panels = [axes] if isinstance(axes, Axes) else list(axes)
        fig = cast(Figure, panels[0].figure)
    ax = panels[0]
    acc_rows = [i for i in ("AN-SYN", "AN-SEM", "TOEFL") if i in paper.index]
    corr = paper.drop(index=acc_rows) if len(paper) else paper
    values: list[float] = []
    for i, r in enumerate(r_values):
        color = PALETTE[i % len(PALETTE)]
        for j, p0 in enumerate(p0_values):
            y = [100 * mrds_correlation(int(n), r, p0, method=method) for n in grid]
            values += y
            ax.plot(grid, y, LINESTYLES[j % 4], color=color, lw=1.6)
            col = _table2_column(r, p0)
            if col in corr.columns:
                ax.plot(corr["n"], corr[col], "o", mfc="none", mec=color, ms=5, mew=1.1)
                values += [float(v) for v in corr[col]]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"number of rated pairs $n$")
    ax.set_ylabel(r"MRDS $\sigma^{r}_{p_0}$ (Spearman's $\rho \times 100$)")
    ax.set_title(f"rating sets: {_METHOD_LABELS.get(method, method)}, one-sided", fontsize=10)
    colour_handles = [Line2D([], [], color=PALETTE[i % len(PALETTE)], lw=2,
                             label=f"$r_{{AB}} = {r:g}$") for i, r in enumerate(r_values)]  # fmt: skip
    style_handles = [Line2D([], [], color="0.3", ls=LINESTYLES[j % 4], lw=1.6,
                            label=f"$p_0 = {p0:g}$") for j, p0 in enumerate(p0_values)]  # fmt: skip
    if len(corr):
        style_handles.append(Line2D([], [], ls="none", marker="o", mfc="none", mec="0.3",
                                    label="MVLSA paper, Table 2"))  # fmt: skip
    ax.legend(handles=colour_handles + style_handles, fontsize=8, loc="upper right",
              framealpha=0.9)  # fmt: skip
    _grid_and_ticks(ax, list(grid) + (list(corr["n"]) if len(corr) else []), values)
    if accuracy:
        ax = panels[1]
        acc = paper.loc[acc_rows] if acc_rows else paper.iloc[:0]
        values = []
        for j, p0 in enumerate(p0_values):
            y = [100 * mrds_accuracy(int(n), p0) for n in grid]
            values += y
            ax.plot(grid, y, LINESTYLES[j % 4], color=PALETTE[0], lw=1.6, label=f"$p_0 = {p0:g}$")
            col = _table2_column(0.9, p0)
            if len(acc) and col in acc.columns:
                ax.plot(acc["n"], acc[col], "o", mfc="none", mec=PALETTE[0], ms=5, mew=1.1)
                values += [float(v) for v in acc[col]]
                if j == 0:  # name the data sets once, above the first curve
                    ordered = acc.sort_values("n")
                    sizes = ordered["n"].to_numpy(float)
                    for k, (name, row) in enumerate(ordered.iterrows()):
                        # label to the left when the next data set is close, to the right else
                        left = k + 1 < len(sizes) and sizes[k + 1] < 2 * sizes[k]
                        ax.annotate(str(name), (row["n"], row[col]), textcoords="offset points",
                                    xytext=(-5 if left else 5, 5), ha="right" if left else "left",
                                    fontsize=8)  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(r"number of test items $n$")
        ax.set_ylabel(r"MRDS $\sigma_{p_0}$ (accuracy, points)")
        ax.set_title(r"accuracy: Beta(1, 1) posteriors, $\hat\theta_A \in [0.75, 0.90]$",
                     fontsize=10)  # fmt: skip
        handles, _ = ax.get_legend_handles_labels()
        if len(acc):
            handles.append(Line2D([], [], ls="none", marker="o", mfc="none", mec=PALETTE[0],
                                  label="MVLSA paper, Table 2"))  # fmt: skip
        ax.legend(handles=handles, fontsize=8, loc="upper right", framealpha=0.9)
        _grid_and_ticks(ax, list(grid) + (list(acc["n"]) if len(acc) else []), values)
    fig.tight_layout()
    return fig


def plot_table2_comparison(comparison: pd.DataFrame, *, ax: Axes | None = None) -> Figure:
    """Reproduced vs published MRDS values (output of
    :func:`workbench.significance.mvlsa_table2_comparison`), log-log with the identity line."""
    if not isinstance(comparison, pd.DataFrame):
        raise TypeError(
            "comparison must be a DataFrame (mvlsa_table2_comparison), "
            f"got {type(comparison).__name__}"
        )
    missing = [c for c in ("r", "paper", "reproduced", "difference") if c not in comparison]
    if missing:
        raise ValueError(f"comparison lacks the columns {missing} (mvlsa_table2_comparison)")
    vals = comparison[["paper", "reproduced"]].to_numpy(dtype=float)
    if comparison.empty or not (np.isfinite(vals).all() and (vals > 0).all()):
        raise ValueError(
            "comparison must have rows with finite positive paper / reproduced MRDS values "
            "(they are drawn on log axes)"
        )
    fig, ax = figure_and_axes(ax, (4.5, 4.5))
    acc = comparison["r"].isna()
    ax.scatter(
        comparison.loc[~acc, "paper"],
        comparison.loc[~acc, "reproduced"],
        s=14,
        label="correlation rows",
    )
    ax.scatter(
        comparison.loc[acc, "paper"],
        comparison.loc[acc, "reproduced"],
        s=24,
        marker="s",
        label="accuracy rows",
    )
    lo = float(min(comparison["paper"].min(), comparison["reproduced"].min())) * 0.8
    hi = float(max(comparison["paper"].max(), comparison["reproduced"].max())) * 1.2
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("MVLSA paper, Table 2 (MRDS, points)")
    ax.set_ylabel("reproduced (MRDS, points)")
    ax.set_title(f"max |difference| = {comparison['difference'].abs().max():.2f} points")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_comparison_scatter(
    result_a: WordSimResult,
    result_b: WordSimResult,
    *,
    ax: Axes | None = None,
    labels: tuple[str, str] = ("A", "B"),
) -> Figure:
    """Per-pair cosines of two systems on one rating set, coloured by the gold rating."""
    for name, res in (("result_a", result_a), ("result_b", result_b)):
        if not (hasattr(res, "pred") and hasattr(res, "gold")):
            raise TypeError(
                f"{name} must be a WordSimResult (evaluate_wordsim), got {type(res).__name__}"
            )
    if np.shape(result_a.pred) != np.shape(result_b.pred):
        raise ValueError(
            "result_a and result_b must score the same pairs (one rating set); got "
            f"{np.size(result_a.pred)} and {np.size(result_b.pred)} pairs"
        )
    if (isinstance(labels, (str, bytes)) or not isinstance(labels, (tuple, list))
            or len(labels) != 2):  # fmt: skip
        raise TypeError(f"labels must be a pair of strings, got {labels!r}")
    fig, ax = figure_and_axes(ax, (4.5, 4))
    pa, pb = np.asarray(result_a.pred, float), np.asarray(result_b.pred, float)
    ok = ~np.isnan(pa) & ~np.isnan(pb)
    sc = ax.scatter(pa[ok], pb[ok], c=np.asarray(result_a.gold, float)[ok], s=8, cmap="coolwarm")
    fig.colorbar(sc, ax=ax, label="gold rating")
    ax.set_xlabel(f"{labels[0]} cosine")
    ax.set_ylabel(f"{labels[1]} cosine")
    ax.set_title(str(getattr(result_a, "name", "")))
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- tables for reading


def mrds_text(value: float, *, scale: float = 1.0) -> str:
    """An MRDS in points (one decimal), or the words saying no difference can be significant:
    ``inf`` (:func:`~workbench.significance.mrds_accuracy`) or the whole range, 1
    (:func:`~workbench.significance.mrds_correlation`). ``scale``: the unit of ``value``
    (1 for fractions, 100 for values already in points)."""
    v = float(value) / scale
    if not math.isfinite(v) or v >= 1.0:
        return "none — no difference is significant at this size"
    return f"{pts(v)} points"


def _fmt(x: Any, spec: str) -> str:
    """``x`` formatted by ``spec``; an empty cell for None / NaN."""
    return "" if x is None or not math.isfinite(float(x)) else format(float(x), spec)


def table2_frame(comparison: pd.DataFrame) -> pd.DataFrame:
    """:func:`~workbench.significance.mvlsa_table2_comparison` for reading: ``n`` with thousands
    separators, ``r`` empty for the accuracy rows, the MRDS values (points) with two decimals,
    the difference signed."""
    return pd.DataFrame(
        {
            "dataset": comparison["dataset"],
            "n": [f"{int(n):,}" for n in comparison["n"]],
            "p0": [f"{p:g}" for p in comparison["p0"]],
            "r": [_fmt(r, "g") for r in comparison["r"]],
            "paper (points)": [_fmt(x, ".2f") for x in comparison["paper"]],
            "reproduced (points)": [_fmt(x, ".2f") for x in comparison["reproduced"]],
            "difference (points)": [_fmt(x, "+.2f") for x in comparison["difference"]],
        }
    )


def comparison_seeds_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The notebook's B-against-A table over seeds for reading: ``r_ab``, ``gain``,
    ``gain_sd`` and ``mrds`` in points, the MRDS as :func:`mrds_text` writes it (in words when
    no difference can be significant), p-values as :func:`~workbench.templating.pvalue`."""
    out = pd.DataFrame(index=table.index)
    out["n"] = [f"{int(n):,}" for n in table["n"]]
    out["r_ab (points)"] = [pts(x) for x in table["r_ab"]]
    out["gain (points)"] = [dpts(x) for x in table["gain"]]
    out["gain sd"] = ["" if not math.isfinite(x) else pts(x) for x in table["gain_sd"]]
    out["MRDS"] = [mrds_text(x) for x in table["mrds"]]
    out["p (max)"] = [pvalue(x) for x in table["pvalue_max"]]
    out["p Holm (max)"] = [pvalue(x) for x in table["pvalue_adjusted_max"]]
    for col in ("seeds_significant", "seeds_exceeding_mrds", "n_seeds"):
        if col in table:
            out[col] = table[col].astype(int)
    return out


def dependent_tests_frame(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`~workbench.significance.dependent_corr_table` for reading: statistic with two
    decimals, df as an integer, p as :func:`~workbench.templating.pvalue` writes it, the interval
    of ``zou2007`` in points (of the difference) and that of ``meng1992`` on Fisher's z scale;
    an empty cell where a test gives no such value."""

    def interval(row: pd.Series) -> str:
        lo, hi = float(row["ci_low"]), float(row["ci_high"])
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return ""
        if row["method"] == "zou2007":
            return f"[{dpts(lo)}, {dpts(hi)}] points"
        return f"[{lo:+.3f}, {hi:+.3f}] Fisher z"

    return pd.DataFrame(
        {
            "test": table["method"],
            "distribution": table["distribution"].fillna("").astype(str),
            "df": [_fmt(x, ".0f") for x in table["df"]],
            "statistic": [_fmt(x, ".2f") for x in table["statistic"]],
            "p": ["" if not math.isfinite(float(x)) else pvalue(x) for x in table["pvalue"]],
            "95 % interval": [interval(row) for _, row in table.iterrows()],
        }
    )


def bootstrap_frame(table: pd.DataFrame) -> pd.DataFrame:
    """Bootstrap intervals of each system's Spearman for reading: estimate and interval in
    points, the level in %, the number of resamples."""
    out = pd.DataFrame(index=table.index)
    out["Spearman (points)"] = [pts(float(x)) for x in table["estimate"]]
    out["interval (points)"] = [
        f"[{pts(float(lo))}, {pts(float(hi))}]" for lo, hi in zip(table["low"], table["high"])
    ]
    out["level"] = [f"{100 * float(x):g} %" for x in table["confidence_level"]]
    out["resamples"] = [f"{int(x):,}" for x in table["n_resamples"]]
    out["method"] = table["method"]
    return out


def analogy_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The notebook's per-seed analogy comparison for reading: B - A in points with one decimal,
    McNemar p as :func:`~workbench.templating.pvalue` writes it, P(B > A) with three decimals,
    the MRDS (given in points) as :func:`mrds_text` writes it."""
    out = table.copy()
    out["B - A (points)"] = [f"{float(x):+.1f}" for x in table["B - A (points)"]]
    out["McNemar p"] = [pvalue(x) for x in table["McNemar p"]]
    out["P(B > A)"] = [f"{float(x):.3f}" for x in table["P(B > A)"]]
    out["MRDS (points)"] = [mrds_text(x, scale=100) for x in table["MRDS (points)"]]
    return out.rename(columns={"MRDS (points)": "MRDS"})
