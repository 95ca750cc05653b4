"""Figures of the sense-pair notebooks (08, 09): components, listed pairs, elimination.

Every function takes a study of :mod:`workbench.studies.senses`
(:class:`~workbench.studies.senses.SensePairStudy` or
:class:`~workbench.studies.senses.SparseNoiseStudy`) and draws means over the seeds with error bars or
bands of one standard deviation (none with a single seed); numbers the paper reports are drawn as
open black markers. Each returns the matplotlib figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.studies.senses import SensePairStudy, SparseNoiseStudy

__all__ = [
    "plot_component_variance",
    "plot_listed_pairs",
    "plot_removal_curve",
    "plot_elimination_gains",
    "plot_wordnet_signals",
]

_METHOD_STYLE = {
    "PCA": {"color": "C0", "marker": "o", "ls": "-"},
    "Ex-RPCA": {"color": "C3", "marker": "s", "ls": "--"},
}


#: Axis labels of the WordNet signals (mathematical notation for the norms).
_SIGNAL_LABELS = {
    "mean ||S_p|| (Ex-RPCA)": r"mean $\|S_p\|_2$ (Ex-RPCA)",
    "mean ||M_p|| (raw difference)": r"mean $\|M_p\|_2$ (raw difference)",
    "frequency (minus rank)": "frequency (minus rank)",
    "any non-zero S": r"any non-zero entry of $S$",
    "||S_p|| given frequency (partial)": r"$\|S_p\|_2$ given frequency (partial)",
}


def _check_study(study: object, kind: type, fn: str) -> None:
    """``study`` is a :mod:`workbench.studies.senses` study of class ``kind``; ``TypeError``
    otherwise."""
    if not isinstance(study, kind):
        raise TypeError(
            f"{fn}(): study must be a workbench.studies.senses.{kind.__name__}, "
            f"got {type(study).__name__}"
        )


def _check_paper(paper: object, fn: str) -> None:
    if paper is not None and not isinstance(paper, pd.DataFrame):
        raise TypeError(f"{fn}(): paper must be a DataFrame or None, got {type(paper).__name__}")


def _sd(frame: pd.Series, n_seeds: int) -> pd.Series | None:
    return frame if n_seeds > 1 else None


def _seeds(n_seeds: int) -> str:
    """``"1 seed"``, ``"3 seeds"``."""
    return f"{n_seeds} seed" + ("s" if n_seeds != 1 else "")


def _mean_over(n_seeds: int) -> str:
    """The title naming the seeds averaged (and the error bars, with several)."""
    return f"Mean over {_seeds(n_seeds)}" + ("; error bars: sd" if n_seeds > 1 else "")


def _value_labels(ax: Axes, values: np.ndarray, y: np.ndarray, fmt: str) -> None:
    """The value of every horizontal bar written at its end, so that a bar of length zero
    still shows its value (a panel never looks empty)."""
    for v, yi in zip(values, y):
        ax.annotate(format(float(v), fmt), (float(v), float(yi)), xytext=(3, 0),
                    textcoords="offset points", va="center", ha="left", fontsize=8)  # fmt: skip


def _finish_panels(
    fig: Figure, axes: Sequence[Axes], n_seeds: int, grid: Literal["x", "y"]
) -> Figure:
    """Grid lines along ``grid`` ("x" or "y") on ``axes``, the title of the seeds averaged,
    tight layout."""
    for ax in axes:
        ax.grid(axis=grid, alpha=0.3)
    fig.suptitle(_mean_over(n_seeds), fontsize=9)
    fig.tight_layout()
    return fig


def plot_component_variance(study: SensePairStudy, *, paper: pd.DataFrame | None = None) -> Figure:
    """Table 2 as a figure: (a) explained variance of the first components of PCA and of the
    first Ex-RPCA decomposition, with the paper's :math:`\\rho_{var}` when ``paper`` (its
    Table 2) is given; (b) the spectrum of the difference matrix :math:`M`."""
    _check_study(study, SensePairStudy, "plot_component_variance")
    _check_paper(paper, "plot_component_variance")
    runs = list(study.runs.values())
    n = len(runs)
    t2 = study.table2
    ex_name = next(m for m in runs[0].evr if m.startswith("Ex-RPCA r="))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.0, 3.3))
    comps = sorted({c for _, c in t2.mean.index})
    x = np.arange(len(comps))
    width = 0.38
    for off, (name, label, key) in zip(
        (-width / 2, width / 2), (("PCA", "PCA", "PCA"), (ex_name, ex_name, "Ex-RPCA"))
    ):
        m = np.array([100 * t2.mean.loc[(name, c), "evr"] for c in comps])
        s = np.array([100 * t2.sd.loc[(name, c), "evr"] for c in comps]) if n > 1 else None
        ax1.bar(x + off, m, width, yerr=s, capsize=3, color=_METHOD_STYLE[key]["color"],
                alpha=0.8, label=f"{label} (ours)")  # fmt: skip
        if paper is not None:
            rows = [f"{key}#{c}" for c in comps]
            if all(r in paper.index for r in rows):
                ax1.scatter(x + off, paper.loc[rows, "rho_var"].astype(float), marker="D",
                            facecolors="none", edgecolors="black", zorder=3,
                            label="paper (Table 2)" if key == "PCA" else None)  # fmt: skip
    ax1.set_xticks(x, [f"component {c}" for c in comps])
    ax1.set_ylabel(r"explained variance $\rho_{var} \times 100$")
    ax1.set_title("(a) first components")
    ax1.legend(fontsize=8, frameon=False, loc="upper right")
    spec = np.vstack([r.spectrum for r in runs]) * 100
    k = np.arange(1, spec.shape[1] + 1)
    ax2.bar(k, spec.mean(axis=0), yerr=spec.std(axis=0, ddof=1) if n > 1 else None,
            capsize=2, color="0.5")  # fmt: skip
    ax2.set_xticks(k[:: max(1, len(k) // 10)])
    ax2.set_xlabel("principal component of $M$")
    ax2.set_ylabel(r"explained variance $\times 100$")
    ax2.set_title("(b) spectrum of $M$")
    return _finish_panels(fig, (ax1, ax2), n, "y")


def plot_listed_pairs(study: SensePairStudy) -> Figure:
    """Table 1's listed pairs against controls: (a) their mean :math:`|\\cos|` with the
    component, per decomposition and for random directions; (b) the share judged pseudo by the
    neighbour-overlap criterion, with the base rate over all sense pairs (dashed line, band of
    one sd over the seeds)."""
    _check_study(study, SensePairStudy, "plot_listed_pairs")

    s = study.summary
    n = study.n_seeds
    models = [m for m in s.mean.index if m != "all sense pairs (base rate)"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.0, 3.4), sharey=False)
    y = np.arange(len(models))
    colors = ["0.6" if m == "random directions" else "C0" for m in models]
    ax1.barh(y, s.mean.loc[models, "avg_cos"], xerr=_sd(s.sd.loc[models, "avg_cos"], n),
             color=colors, capsize=3)  # fmt: skip
    ax1.set_yticks(y, models)
    ax1.invert_yaxis()
    _value_labels(ax1, s.mean.loc[models, "avg_cos"].to_numpy(dtype=float), y, ".2f")
    ax1.set_xlim(0, 1.2 * max(float(s.mean.loc[models, "avg_cos"].max()), 0.1))
    ax1.set_xlabel(r"mean $|\cos|$ of listed pair and component")
    ax1.set_title("(a) alignment")
    ax2.barh(y, 100 * s.mean.loc[models, "pseudo_fraction"],
             xerr=_sd(100 * s.sd.loc[models, "pseudo_fraction"], n), color=colors, capsize=3)  # fmt: skip
    base = 100 * float(s.mean.loc["all sense pairs (base rate)", "pseudo_fraction"])  # type: ignore[arg-type]
    ax2.axvline(base, color="black", ls="--", lw=1, label="base rate (all pairs)")
    if n > 1:
        bsd = 100 * float(s.sd.loc["all sense pairs (base rate)", "pseudo_fraction"])  # type: ignore[arg-type]
        ax2.axvspan(base - bsd, base + bsd, color="0.85", zorder=0)
    _value_labels(ax2, 100 * s.mean.loc[models, "pseudo_fraction"].to_numpy(dtype=float), y,
                  ".1f")  # fmt: skip
    top = max(100 * float(s.mean.loc[models, "pseudo_fraction"].max()), base)
    ax2.set_xlim(0, 1.3 * top + 1.0)
    ax2.set_yticks(y, [""] * len(models))
    ax2.invert_yaxis()
    ax2.set_xlabel("listed pairs judged pseudo (%)")
    ax2.set_title("(b) pseudo multi-senses")
    ax2.legend(fontsize=8, frameon=False, loc="lower right")
    return _finish_panels(fig, (ax1, ax2), n, "x")


def plot_removal_curve(study: SparseNoiseStudy) -> Figure:
    """Figure 2 analogue: SCWS maxSimC (Spearman x 100) on the **dev** split against the number
    of removed dimensions, PCA and Ex-RPCA (mean line, band of one sd over the seeds); the
    original vectors' level dotted; the numbers chosen for Table 4 marked with triangles."""
    _check_study(study, SparseNoiseStudy, "plot_removal_curve")

    c = study.curve
    n = study.n_seeds
    x = c.mean.index.to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=(5.6, 3.5))
    for m, st in _METHOD_STYLE.items():
        mean = 100 * c.mean[m].to_numpy(dtype=float)
        ax.plot(x, mean, color=st["color"], ls=st["ls"], marker=st["marker"], ms=3, label=m)
        if n > 1:
            sd = 100 * c.sd[m].to_numpy(dtype=float)
            ax.fill_between(x, mean - sd, mean + sd, color=st["color"], alpha=0.15, lw=0)
        chosen = [r.chosen[m] for r in study.runs.values()]
        ys = [100 * float(c.mean.loc[k, m]) for k in chosen]  # type: ignore[arg-type]
        ax.scatter(chosen, ys, marker="v", s=40, color=st["color"], edgecolors="black", zorder=4)
    ax.axhline(100 * float(c.mean.iloc[0]["PCA"]), color="0.3", ls=":", lw=1, label="original")
    ax.set_xlabel("number of removed dimensions")
    ax.set_ylabel(r"SCWS dev maxSimC, Spearman $\rho \times 100$")
    ax.set_title(f"Dev split; mean over {_seeds(n)}" + (", band: sd" if n > 1 else "")
                 + r"; $\blacktriangledown$ chosen", fontsize=9)  # fmt: skip
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def plot_elimination_gains(study: SparseNoiseStudy, *, paper: pd.DataFrame | None = None) -> Figure:
    """Table 4 as a figure: the gain (points) of the eliminated vectors over the original ones
    on the SCWS test split (maxSimC) and WS-353 (avgSim), mean and sd over the seeds; above each
    bar the number of seeds in which the gain is significant after Holm (``k/n``, a star when
    every seed); the paper's gains (``paper``: its Table 4) as open diamonds."""
    _check_study(study, SparseNoiseStudy, "plot_elimination_gains")
    _check_paper(paper, "plot_elimination_gains")

    runs = list(study.runs.values())
    n = len(runs)
    rows = ["V~ PCA", "V~ Ex-RPCA"]
    sets = [("SCWS gain", "p_holm (SCWS)", "SCWS"), ("WS-353 gain", "p_holm (WS-353)", "WS353")]
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    width = 0.38
    x = np.arange(len(sets))
    for off, row in zip((-width / 2, width / 2), rows):
        key = row.split()[-1]
        vals = np.array([[100 * float(r.table4.loc[row, g]) for g, _, _ in sets] for r in runs])  # type: ignore[arg-type]
        mean = vals.mean(axis=0)
        sd = vals.std(axis=0, ddof=1) if n > 1 else None
        ax.bar(x + off, mean, width, yerr=sd, capsize=3, color=_METHOD_STYLE[key]["color"],
               alpha=0.8, label=key)  # fmt: skip
        for j, (_, pcol, _) in enumerate(sets):
            k = sum(float(r.table4.loc[row, pcol]) < 0.05 for r in runs)  # type: ignore[arg-type]
            top = max(mean[j] + (sd[j] if sd is not None else 0.0), 0.0)
            ax.text(x[j] + off, top + 0.2, f"{k}/{n}" + ("*" if k == n else ""), ha="center",
                    va="bottom", fontsize=8)  # fmt: skip
        if paper is not None:
            prow = f"V~_{key}"
            if prow in paper.index:
                gains = [
                    float(paper.loc[prow, col]) - float(paper.loc["V", col])  # type: ignore[arg-type]
                    for _, _, col in sets
                ]
                ax.scatter(x + off, gains, marker="D", facecolors="none", edgecolors="black",
                           zorder=3, label="paper (Table 4)" if key == "PCA" else None)  # fmt: skip
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x, ["SCWS test (maxSimC)", "WS-353 (avgSim)"])
    ax.set_ylabel(r"gain over original, $\Delta\rho \times 100$")
    ax.set_title(_mean_over(n) + ";\nk/n: seeds with a gain significant after Holm (* all)",
                 fontsize=9)  # fmt: skip
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def plot_wordnet_signals(study: SparseNoiseStudy) -> Figure:
    """The WordNet check of §4.2's claim: Spearman correlation of every per-word signal with
    the number of WordNet synsets (mean and sd over the seeds); filled bars are significant after
    Holm in every seed, hatched ones in some, open ones in none."""
    _check_study(study, SparseNoiseStudy, "plot_wordnet_signals")

    wn = study.wordnet
    n = study.n_seeds
    sig = study.significant["significant (Holm)"]
    names = list(wn.mean.index)
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(6.0, 3.0))
    for i, name in enumerate(names):
        k = int(sig.get(name, 0))
        face = "C0" if k == n else ("white" if k == 0 else "C0")
        ax.barh(i, float(wn.mean.loc[name, "spearman"]),
                xerr=float(wn.sd.loc[name, "spearman"]) if n > 1 else None, capsize=3,
                color=face, edgecolor="C0", hatch="//" if 0 < k < n else None,
                alpha=0.9 if k == n else 0.6)  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [_SIGNAL_LABELS.get(name, name) for name in names])
    ax.invert_yaxis()
    ax.set_xlabel(r"Spearman $\rho$ with number of WordNet synsets")
    ax.set_title(_mean_over(n)
                 + ".\nSignificant after Holm: filled in every seed, hatched in some, open in none",
                 fontsize=9)  # fmt: skip
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
