"""Figure of the eigenwords-with-prior-knowledge notebook (06): CCAPrior against retrofitting.

:func:`plot_prior_gains` draws, per lexicon, the gain of CCAPrior, of CCAPrior followed by
retrofitting and of retrofitted eigenwords over eigenwords without prior knowledge, as a
function of the prior weight :math:`\\alpha`, next to the same gains in the paper's Table 1.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

__all__ = ["plot_prior_gains"]

_STYLE: dict[str, dict[str, str | None]] = {
    "CCAPrior": {"color": "C0", "marker": "o"},
    "CCAPrior + RF": {"color": "C3", "marker": "s"},
    "Eigen + RF": {"color": "C2", "marker": None},
}
_LEXICONS = {"WN": "WordNet", "PD": "PPDB", "FN": "FrameNet"}


def plot_prior_gains(gains: pd.DataFrame, *, title: str | None = None) -> Figure:
    r"""Gains over Eigen against :math:`\alpha`, one panel per lexicon, ours and the paper's.

    Parameters
    ----------
    gains : DataFrame
        :func:`workbench.studies.eigenwords.prior_gains`: columns ``method`` (``"CCAPrior"``,
        ``"CCAPrior + RF"``, ``"Eigen + RF"``), ``lexicon``, ``alpha`` (NaN for Eigen + RF),
        ``gain`` (average Spearman minus Eigen's), ``better`` (rating sets significantly above
        Eigen after Holm's correction) and optionally ``paper gain``.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Solid lines: this run (filled markers: significantly above Eigen on at least one
        rating set after Holm's correction; open: on none). Dotted lines with crosses:
        the paper. Eigen + RF does not depend on :math:`\alpha` and is a horizontal line.
    """
    if not isinstance(gains, pd.DataFrame):
        raise TypeError(f"gains must be a DataFrame (prior_gains), got {type(gains).__name__}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}")
    need = {"method", "lexicon", "alpha", "gain", "better"}
    missing = need - set(gains.columns)
    if missing:
        raise ValueError(f"gains lacks the columns {sorted(missing)}")
    unknown = sorted(set(gains["method"]) - set(_STYLE))
    if unknown:
        raise ValueError(f"gains has unknown methods {unknown}; known: {list(_STYLE)}")
    for col in ("alpha", "gain"):
        if pd.to_numeric(gains[col], errors="coerce").isna().ne(gains[col].isna()).any():
            raise TypeError(f"gains[{col!r}] must hold numbers")
    lexicons = [k for k in _LEXICONS if k in set(gains["lexicon"])]
    if not lexicons:
        raise ValueError("gains has no row for WN, PD or FN")
    has_paper = "paper gain" in gains.columns and gains["paper gain"].notna().any()
    fig, axes = plt.subplots(1, len(lexicons), figsize=(3.2 * len(lexicons) + 0.6, 3.4),
                             sharey=True, squeeze=False)  # fmt: skip
    alphas = np.sort(gains["alpha"].dropna().astype(float).unique())
    lo, hi = (alphas.min(), alphas.max()) if alphas.size else (0.0, 1.0)
    pad = 0.05 * max(hi - lo, 0.1)
    for ax, lex in zip(axes[0], lexicons):
        sub = gains[gains["lexicon"] == lex]
        ax.axhline(0.0, color="0.3", lw=0.8)
        for method in ("CCAPrior", "CCAPrior + RF"):
            rows = sub[sub["method"] == method].sort_values("alpha")
            if rows.empty:
                continue
            st = _STYLE[method]
            x = rows["alpha"].to_numpy(float)
            y = 100 * rows["gain"].to_numpy(float)
            ax.plot(x, y, color=st["color"], lw=1.8, zorder=3)
            sig = rows["better"].fillna(0).to_numpy(float) > 0
            ax.scatter(x[sig], y[sig], marker=st["marker"], s=36, color=st["color"], zorder=4)
            ax.scatter(x[~sig], y[~sig], marker=st["marker"], s=36, facecolors="white",
                       edgecolors=st["color"], linewidths=1.4, zorder=4)  # fmt: skip
            if has_paper:
                py = 100 * rows["paper gain"].to_numpy(float)
                ax.plot(x, py, color=st["color"], ls=":", lw=1.4, marker="x", ms=5, alpha=0.8,
                        zorder=2)  # fmt: skip
        rf = sub[sub["method"] == "Eigen + RF"]
        if not rf.empty:
            c = _STYLE["Eigen + RF"]["color"]
            ax.axhline(100 * float(rf["gain"].iloc[0]), color=c, lw=1.8, ls="--")
            if has_paper and np.isfinite(float(rf["paper gain"].iloc[0])):
                ax.axhline(100 * float(rf["paper gain"].iloc[0]), color=c, lw=1.4, ls=":")
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_xticks(alphas)
        ax.set_xticklabels([f"{a:g}" for a in alphas])
        ax.set_xlabel(r"prior weight $\alpha$")
        ax.set_title(_LEXICONS[lex])
        ax.grid(axis="y", color="0.9", lw=0.6)
    axes[0][0].set_ylabel("gain over Eigen\n(points of mean Spearman)")
    handles = [
        Line2D([], [], color=_STYLE["CCAPrior"]["color"], marker="o", lw=1.8, label="CCAPrior"),
        Line2D([], [], color=_STYLE["CCAPrior + RF"]["color"], marker="s", lw=1.8,
               label="CCAPrior + RF"),
        Line2D([], [], color=_STYLE["Eigen + RF"]["color"], ls="--", lw=1.8, label="Eigen + RF"),
        Line2D([], [], color="0.4", marker="o", ls="none", label="above Eigen on ≥ 1 set (Holm)"),
        Line2D([], [], color="0.4", marker="o", mfc="white", ls="none",
               label="above Eigen on no set (Holm)"),
    ]  # fmt: skip
    if has_paper:
        handles.append(
            Line2D([], [], color="0.4", ls=":", lw=1.4, marker="x", ms=5, label="paper (Table 1)")
        )
    fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False,
               bbox_to_anchor=(0.5, -0.02))  # fmt: skip
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig
