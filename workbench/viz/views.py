"""Figures of the views notebook: density per view and one figure per view family."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench.views import View

__all__ = ["plot_view_density", "plot_view_family"]


def plot_view_density(stats: pd.DataFrame, *, ax: Any = None) -> Any:
    """Horizontal bars of the density (nnz / (rows x columns)) of each view, log scale, by family.

    ``stats`` is :func:`workbench.views.view_statistics` output. Returns the figure.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 0.22 * len(stats) + 1.2))
    else:
        fig = ax.figure
    families = list(dict.fromkeys(stats["family"]))
    cmap = plt.get_cmap("tab10")
    colors = [cmap(families.index(f) % 10) for f in stats["family"]]
    y = np.arange(len(stats))
    ax.barh(y, stats["density"].clip(lower=1e-12), color=colors)
    ax.set_yticks(y, list(stats.index), fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("density (nnz / (rows x columns))")
    handles = [plt.Rectangle((0, 0), 1, 1, color=cmap(i % 10)) for i in range(len(families))]
    ax.legend(handles, families, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def _row_nnz(v: View) -> np.ndarray:
    m = v.matrix
    if sp.issparse(m):
        return np.diff(sp.csr_array(m).indptr)
    return np.count_nonzero(m, axis=1)


def plot_view_family(views: Sequence[View], *, title: str | None = None, n_top: int = 60) -> Any:
    """One figure for a view family: nonzeros per row (CCDF) for each view, and a heatmap.

    Left: for each view, the fraction of observed words with at least ``x`` nonzero contexts
    (log-log). Right: ``log(1 + |Z|)`` of the family's first view on its ``n_top`` heaviest
    rows and columns. Returns the figure.
    """
    import matplotlib.pyplot as plt

    views = list(views)
    if not views:
        raise ValueError("no views to plot")
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.8))
    cmap = plt.get_cmap("viridis")
    for i, v in enumerate(views):
        k = _row_nnz(v)[v.observed]
        if k.size == 0:
            continue
        xs = np.sort(k)
        ccdf = 1.0 - np.arange(xs.size) / xs.size
        a0.step(np.maximum(xs, 1), ccdf, where="post", color=cmap(i / max(len(views) - 1, 1)),
                label=v.name if len(views) <= 8 else None, lw=1)  # fmt: skip
    a0.set_xscale("log")
    a0.set_yscale("log")
    a0.set_xlabel("nonzero contexts per observed word")
    a0.set_ylabel("fraction of observed words ≥ x")
    if len(views) <= 8:
        a0.legend(fontsize=7)
    else:
        a0.set_title(f"{len(views)} views (colour = order)", fontsize=9)
    v = views[0]
    m = v.matrix
    dense_abs = abs(m)
    rs = np.asarray(dense_abs.sum(axis=1)).ravel()
    cs = np.asarray(dense_abs.sum(axis=0)).ravel()
    r = np.sort(np.argsort(-rs, kind="stable")[:n_top])
    c = np.sort(np.argsort(-cs, kind="stable")[:n_top])
    block = m[r][:, c]
    block = block.toarray() if sp.issparse(block) else np.asarray(block)
    im = a1.imshow(np.log1p(np.abs(block)), aspect="auto", cmap="magma_r", interpolation="nearest")
    fig.colorbar(im, ax=a1, label="log(1 + |z|)")
    a1.set_title(f"{v.name}: top {len(r)} rows x {len(c)} columns", fontsize=9)
    a1.set_xlabel("contexts (heaviest)")
    a1.set_ylabel("words (heaviest)")
    if v.vocab is not None and len(r) <= 40:
        a1.set_yticks(range(len(r)), [v.vocab.words[i] for i in r], fontsize=6)
    fig.suptitle(title or f"{v.family} views")
    fig.tight_layout()
    return fig
