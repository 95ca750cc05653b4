"""Figures of the significance notebook: MRDS curves and Table 2 reproduction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from workbench.significance import mrds_accuracy, mrds_correlation

__all__ = ["plot_mrds_curves", "plot_table2_comparison", "plot_comparison_scatter"]


def plot_mrds_curves(
    ns: Sequence[int] | None = None,
    r_values: Sequence[float] = (0.5, 0.7, 0.9),
    p0_values: Sequence[float] = (0.01, 0.05),
    *,
    method: str = "williams1959",
    accuracy: bool = True,
    axes: Any = None,
) -> Any:
    """MRDS (percentage points) against the number of items, log-log.

    Left: correlation MRDS (:func:`workbench.significance.mrds_correlation`, one-sided) for each
    ``r_ab`` (colour) and ``p0`` (line style); right (if ``accuracy``): the Bayesian accuracy
    MRDS (:func:`workbench.significance.mrds_accuracy`) for each ``p0``. Returns the figure.
    """
    import matplotlib.pyplot as plt

    grid = np.unique(np.geomspace(20, 20000, 16).astype(int)) if ns is None else np.asarray(ns)
    ncols = 2 if accuracy else 1
    if axes is None:
        fig, axes = plt.subplots(1, ncols, figsize=(5.5 * ncols, 4), squeeze=False)
        axes = axes[0]
    else:
        axes = np.atleast_1d(axes)
        fig = axes[0].figure
    styles = ["-", "--", ":", "-."]
    cmap = plt.get_cmap("viridis")
    for i, r in enumerate(r_values):
        for j, p0 in enumerate(p0_values):
            y = [100 * mrds_correlation(int(n), r, p0, method=method) for n in grid]
            axes[0].plot(
                grid,
                y,
                styles[j % 4],
                color=cmap(i / max(1, len(r_values) - 1)),
                label=f"r_AB={r}, p0={p0}",
            )
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel("number of rated pairs n")
    axes[0].set_ylabel("MRDS (points of Spearman x 100)")
    axes[0].set_title(f"correlation MRDS ({method}, one-sided)")
    axes[0].legend(fontsize=7)
    axes[0].grid(True, which="both", alpha=0.3)
    if accuracy:
        for j, p0 in enumerate(p0_values):
            y = [100 * mrds_accuracy(int(n), p0) for n in grid]
            axes[1].plot(grid, y, styles[j % 4], color="C3", label=f"p0={p0}, beta(1,1)")
        axes[1].set_xscale("log")
        axes[1].set_yscale("log")
        axes[1].set_xlabel("number of test items n")
        axes[1].set_ylabel("MRDS (accuracy points)")
        axes[1].set_title("accuracy MRDS (Bayesian, theta_A in [0.75, 0.90])")
        axes[1].legend(fontsize=7)
        axes[1].grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return fig


def plot_table2_comparison(comparison: pd.DataFrame, *, ax: Any = None) -> Any:
    """Reproduced vs published MRDS values (output of
    :func:`workbench.significance.mvlsa_table2_comparison`), log-log with the identity line."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(4.5, 4.5))
    else:
        fig = ax.figure
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
    ax.set_xlabel("MVLSA paper, Table 2")
    ax.set_ylabel("reproduced")
    ax.set_title(f"max |difference| = {comparison['difference'].abs().max():.3f} points")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_comparison_scatter(
    result_a: Any, result_b: Any, *, ax: Any = None, labels: tuple[str, str] = ("A", "B")
) -> Any:
    """Per-pair cosines of two systems on one rating set, coloured by the gold rating."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(4.5, 4))
    else:
        fig = ax.figure
    pa, pb = np.asarray(result_a.pred, float), np.asarray(result_b.pred, float)
    ok = ~np.isnan(pa) & ~np.isnan(pb)
    sc = ax.scatter(pa[ok], pb[ok], c=np.asarray(result_a.gold, float)[ok], s=8, cmap="coolwarm")
    fig.colorbar(sc, ax=ax, label="gold rating")
    ax.set_xlabel(f"{labels[0]} cosine")
    ax.set_ylabel(f"{labels[1]} cosine")
    ax.set_title(str(getattr(result_a, "name", "")))
    fig.tight_layout()
    return fig
