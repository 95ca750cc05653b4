"""Figures of the MVLSA notebooks: the dev-tuned path and the test comparison."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from workbench._validation import check_float
from workbench.studies.mvlsa import (
    AblationResult,
    AblationSeeds,
    FusionSeeds,
    SeedComparison,
    TestComparison,
    TuningResult,
)

__all__ = ["plot_tuning_path", "plot_test_comparison", "plot_ablation_drops", "plot_fusion_gains"]

#: Smallest font (points) of the figures, at the size they are saved at.
FONT_SIZE = 8
#: Widest figure (inches): a page's text width, so that the figure is printed at full size.
MAX_WIDTH = 7.2


def _check_kind(value: object, name: str, types: type | tuple[type, ...], what: str) -> None:
    """A ``TypeError`` naming ``name`` unless ``value`` is an instance of ``types``."""
    if not isinstance(value, types):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")


def plot_tuning_path(result: TuningResult, *, mrds: float | None = None) -> Figure:
    """One panel per step of a :class:`workbench.studies.mvlsa.TuningResult`: the mean dev
    Spearman (points) of every candidate, the chosen one filled, the previous choice's level as
    a dashed line and, when given, a band of +-``mrds`` around it (the MRDS of the largest dev
    set, a yardstick for differences). Returns the figure."""
    _check_kind(result, "result", TuningResult, "a TuningResult (from tuning_path)")
    if not result.steps:
        raise ValueError("result has no steps: nothing to plot")
    if mrds is not None and not (isinstance(mrds, numbers.Real) and math.isnan(mrds)):
        mrds = check_float(mrds, "mrds", low=0, allow_none=True)  # NaN: no MRDS band
    steps = result.steps
    n = len(steps)
    ncols = min(3, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(2.4 * ncols, 2.7 * nrows), squeeze=False,
                             sharey=True)  # fmt: skip
    for ax, st in zip(axes.ravel(), steps):
        labels = list(st.mean.index)
        vals = 100 * st.mean.to_numpy(dtype=float)
        x = np.arange(len(labels))
        prev = 100 * float(st.mean[st.previous])
        if mrds is not None and np.isfinite(mrds):
            ax.axhspan(prev - 100 * mrds, prev + 100 * mrds, color="0.9", zorder=0)
        ax.axhline(prev, color="0.4", ls="--", lw=1, zorder=1)
        chosen = np.array([lab == st.chosen for lab in labels])
        ax.plot(x, vals, color="0.3", lw=1, zorder=2)
        ax.scatter(x[~chosen], vals[~chosen], facecolors="white", edgecolors="C0", zorder=3)
        ax.scatter(x[chosen], vals[chosen], color="C0", zorder=4)
        ax.set_xticks(x, labels, rotation=40, ha="right", fontsize=FONT_SIZE)
        ax.tick_params(axis="y", labelsize=FONT_SIZE)
        ax.set_title(st.factor, fontsize=FONT_SIZE + 1)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(r"mean dev Spearman $\rho \times 100$", fontsize=FONT_SIZE)
    fig.tight_layout()
    return fig


def plot_test_comparison(comparison: TestComparison | SeedComparison) -> Figure:
    """Test-split Spearman of every system on every rating set (grouped bars), from a
    :class:`workbench.studies.mvlsa.TestComparison` or, over several seeds, a
    :class:`workbench.studies.mvlsa.SeedComparison` (bars: mean; error bars: sd over the
    seeds). A ``*`` above a bar marks a difference from the reference system that is
    significant after Holm correction (in every seed). Returns the figure."""
    _check_kind(
        comparison, "comparison", (TestComparison, SeedComparison),
        "a TestComparison or SeedComparison (from test_comparison / seed_comparison)",
    )  # fmt: skip
    if isinstance(comparison, SeedComparison):
        scores = comparison.scores.mean.drop(index="mean")
        sd = comparison.scores.sd.drop(index="mean") if comparison.scores.n_seeds > 1 else None
        n = comparison.scores.n_seeds
        sig = {(r["system"], r["test_set"]): int(r["better"]) + int(r["worse"]) == n
               for _, r in comparison.agreement.iterrows()}  # fmt: skip
        every = " in every seed" if n > 1 else ""
    else:
        scores = comparison.scores.drop(index="mean")
        sd = None
        sig = {(r["system"], r["test_set"]): bool(r["significant"])
               for _, r in comparison.tests.iterrows()} if len(comparison.tests) else {}  # fmt: skip
        every = ""
    systems = list(scores.columns)
    sets = list(scores.index)
    # at most a page's text width: the figure is printed without shrinking its fonts
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, max(5.0, 0.3 * len(sets) * len(systems))), 3.6))
    width = 0.8 / len(systems)
    hatches = ["", "//", "..", "xx", "\\\\", "--", "++"]
    for i, name in enumerate(systems):
        x = np.arange(len(sets)) + (i - (len(systems) - 1) / 2) * width
        vals = 100 * scores[name].to_numpy(dtype=float)
        err = None if sd is None else 100 * sd[name].to_numpy(dtype=float)
        ax.bar(x, vals, width, yerr=err, label=name, hatch=hatches[i % len(hatches)],
               edgecolor="0.2", color=f"C{i}", alpha=0.85, error_kw={"lw": 0.8})  # fmt: skip
        top = vals if err is None else vals + np.nan_to_num(err)
        for xi, v, s in zip(x, top, sets):
            if sig.get((name, s)):
                ax.text(xi, v + 1, "*", ha="center", va="bottom", fontsize=FONT_SIZE + 1)
    ax.set_xticks(np.arange(len(sets)), sets, rotation=30, ha="right", fontsize=FONT_SIZE)
    ax.tick_params(axis="y", labelsize=FONT_SIZE)
    ax.set_ylabel(r"test Spearman $\rho \times 100$", fontsize=FONT_SIZE)
    ax.axhline(0, color="0.3", lw=0.8)
    # the legend above the bars, outside the axes: it hides no bar
    ax.legend(fontsize=FONT_SIZE, ncols=min(len(systems), 3), frameon=False, loc="lower center",
              bbox_to_anchor=(0.5, 1.0))  # fmt: skip
    fig.suptitle(f"* = differs from {comparison.reference} (Williams' t, Holm, p < 0.05{every})",
                 fontsize=FONT_SIZE)  # fmt: skip
    fig.tight_layout()
    return fig


def _signed_bars(
    ax: Axes, frame: pd.DataFrame, significant: pd.DataFrame, ylabel: str, every: str
) -> None:
    """Grouped bars of ``frame`` (rows: groups, columns: test sets) in points; significant
    cells filled, others hatched and hollow; the title says what filled means (``every``:
    " in every seed" over several seeds)."""
    rows = list(frame.index)
    cols = list(frame.columns)
    width = 0.8 / max(len(rows), 1)
    handles = []
    for i, r in enumerate(rows):
        x = np.arange(len(cols)) + (i - (len(rows) - 1) / 2) * width
        vals = 100 * frame.loc[r].to_numpy(dtype=float)
        sig = significant.loc[r].reindex(cols, fill_value=False).to_numpy(dtype=bool)
        color = f"C{i % 10}"
        # one bar container per row (one legend entry): significant bars filled, the others
        # white and hatched, every bar outlined in the row's colour
        bars = ax.bar(x, vals, width, color=[color if s else "white" for s in sig],
                      edgecolor=color, label=f"{r}")  # fmt: skip
        for patch, s in zip(bars.patches, sig):
            patch.set_hatch("" if s else "///")
        handles.append(Patch(facecolor=color, edgecolor=color, label=f"{r}"))
    ax.axhline(0, color="0.3", lw=0.8)
    ax.set_xticks(np.arange(len(cols)), cols, rotation=30, ha="right", fontsize=FONT_SIZE)
    ax.tick_params(axis="y", labelsize=FONT_SIZE)
    ax.set_ylabel(ylabel, fontsize=FONT_SIZE)
    ax.legend(handles=handles, fontsize=FONT_SIZE, ncols=min(len(rows), 3), frameon=False,
              loc="lower center", bbox_to_anchor=(0.5, 1.0))  # fmt: skip
    ax.figure.suptitle(f"filled: significant (Williams / McNemar, Holm, p < 0.05{every}); "
                       "hatched: not significant", fontsize=FONT_SIZE)  # fmt: skip


def plot_ablation_drops(ablation: AblationResult | AblationSeeds) -> Figure:
    """Drops (points) of every removal on every test set from an ``AblationResult`` or, over
    seeds, an ``AblationSeeds`` (mean; filled when significant in every seed); filled bars are
    significant after the table's correction, hatched ones are not. Returns the figure."""
    _check_kind(
        ablation, "ablation", (AblationResult, AblationSeeds),
        "an AblationResult or AblationSeeds (from ablation_study / ablation_seeds)",
    )  # fmt: skip
    if isinstance(ablation, AblationSeeds):
        drops = ablation.drops.mean
        significant = (ablation.helped + ablation.hurt).reindex_like(drops).fillna(
            0
        ) == ablation.n_seeds
        every = " in every seed" if ablation.n_seeds > 1 else ""
    else:
        drops, significant, every = ablation.drops, ablation.significant, ""
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, max(5.0, 0.15 * drops.size)), 4))
    _signed_bars(ax, drops, significant,
                 r"drop: All views $-$ ablated ($\rho$ or accuracy $\times 100$)", every)  # fmt: skip
    fig.tight_layout()
    return fig


def plot_fusion_gains(gains: pd.DataFrame | FusionSeeds, columns: Sequence[str]) -> Figure:
    """Gains (points) of Table 9 for the gain ``columns``: ``FusionResult.gains`` (filled bars
    are significant, their ``<column>_significant``) or, over seeds, a ``FusionSeeds`` (mean;
    filled when significant in every seed). Returns the figure."""
    _check_kind(
        gains, "gains", (pd.DataFrame, FusionSeeds),
        "FusionResult.gains (a DataFrame) or a FusionSeeds (from fusion_seeds)",
    )  # fmt: skip
    if isinstance(columns, (str, bytes)) or not isinstance(columns, (list, tuple, pd.Index)):
        raise TypeError(f"columns must be a list of gain columns, got {columns!r}")
    if not len(columns):
        raise ValueError("columns is empty: name at least one gain column, e.g. ['MV Gain']")
    frame_cols = gains.gains.mean.columns if isinstance(gains, FusionSeeds) else gains.columns
    have = [c for c in frame_cols if not str(c).endswith(("_pvalue", "_significant", "_holm"))]
    unknown = [c for c in columns if c not in have or (
        isinstance(gains, pd.DataFrame) and f"{c}_significant" not in gains.columns)]  # fmt: skip
    if unknown:
        raise ValueError(f"unknown gain columns {unknown}; gains has {have}")
    every = ""
    if isinstance(gains, FusionSeeds):
        frame = gains.gains.mean[list(columns)].T
        sig = ((gains.up + gains.down)[list(columns)] == gains.n_seeds).T
        every = " in every seed" if gains.n_seeds > 1 else ""
    else:
        frame = pd.DataFrame({c: gains[c] for c in columns}).T
        sig = pd.DataFrame({c: gains[f"{c}_significant"].astype(bool) for c in columns}).T
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, max(5.0, 0.25 * frame.size)), 4))
    _signed_bars(ax, frame, sig, r"gain ($\rho$ or accuracy $\times 100$)", every)
    fig.tight_layout()
    return fig
