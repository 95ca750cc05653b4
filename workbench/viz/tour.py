"""Figures of the tour notebook: Zipf plot, vocabulary growth, evaluation-set coverage."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from workbench.coverage import PowerLawFit

__all__ = ["plot_coverage", "plot_vocabulary"]


def plot_vocabulary(
    counts: pd.Series,
    curve: pd.DataFrame,
    *,
    zipf: PowerLawFit | None = None,
    heaps: PowerLawFit | None = None,
    title: str = "",
) -> Any:
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
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ranks = np.arange(1, len(counts) + 1)
    ax1.loglog(ranks, counts.to_numpy(), lw=1.5, label="corpus")
    if zipf is not None:
        ax1.loglog(
            ranks,
            zipf.scale * ranks.astype(float) ** zipf.exponent,
            "--",
            lw=1,
            label=f"fit: count ∝ rank^{zipf.exponent:.2f}",
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
            label=f"fit: types ∝ tokens^{heaps.exponent:.2f}",
        )
    ax2.set(xlabel="tokens read", ylabel="distinct words (types)", title="Vocabulary growth")
    ax2.legend()
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_coverage(table: pd.DataFrame, *, title: str = "") -> Any:
    """Coverage (fraction of items with all words in vocabulary) against vocabulary cut-off.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`workbench.coverage.coverage_table` (an ``items`` column is ignored).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    values = table.drop(columns=["items"], errors="ignore")
    fig, ax = plt.subplots(figsize=(9, 5))
    xs = np.arange(values.shape[1])
    cmap = plt.get_cmap("tab20")
    for i, (name, row) in enumerate(values.iterrows()):
        ax.plot(xs, row.to_numpy(float), "o-", color=cmap(i % 20), label=str(name))
    ax.set_xticks(xs, [str(c) for c in values.columns])
    ax.set(
        xlabel="vocabulary cut-off (most frequent words kept)",
        ylabel="fraction of items fully covered",
        ylim=(0, 1.02),
        title=title or "Evaluation-set coverage by the corpus vocabulary",
    )
    ax.grid(alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    fig.tight_layout()
    return fig
