"""Figures of the translingual notebook (07): dev MRR against dimension (the paper's Figures 3
and 4) and the verse-level retrieval comparison."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench._validation import check_int
from workbench.templating import pvalue
from workbench.viz._axes import figure_and_axes

__all__ = [
    "METHOD_STYLES",
    "method_style",
    "plot_dev_mrr_curves",
    "plot_verse_retrieval",
    "table_in_points",
]

#: Colour (Okabe-Ito, no yellow), line style and marker per method: a discriminative model and
#: its generative counterpart share a hue family, generative ones are dashed.
METHOD_STYLES: dict[str, dict[str, str]] = {
    "OPCA": {"color": "#0072B2", "linestyle": "-", "marker": "o"},
    "CL-LSI": {"color": "#56B4E9", "linestyle": "--", "marker": "s"},
    "CCA": {"color": "#009E73", "linestyle": "-", "marker": "^"},
    "CPLSA": {"color": "#D55E00", "linestyle": "-", "marker": "P"},
    "JPLSA": {"color": "#CC79A7", "linestyle": "--", "marker": "X"},
    "Word-by-word+LSA": {"color": "#000000", "linestyle": "-", "marker": "D"},
    "Word-by-word": {"color": "#000000", "linestyle": "--", "marker": "d"},
    "Untranslated": {"color": "#888888", "linestyle": ":", "marker": "."},
}


def method_style(method: str) -> dict[str, str]:
    """Plot keywords (``color``, ``linestyle``, ``marker``) of a method; grey for unknown ones."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a method name (str), got {method!r}")
    return dict(METHOD_STYLES.get(method, {"color": "#444444", "linestyle": "-.", "marker": "*"}))


def plot_dev_mrr_curves(
    mean: pd.DataFrame,
    flat: Mapping[str, float] | pd.DataFrame | None = None,
    *,
    sd: pd.DataFrame | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    ylabel: str = "dev MRR × 100 (both directions)",
) -> Figure:
    """MRR against dimension (log axis), one line per method (a band of one sd if given), in
    points (MRR × 100).

    Parameters
    ----------
    mean : DataFrame
        Dimensions (index; topics for PLSA) x methods, MRR as fractions (plotted × 100).
    flat : mapping or DataFrame, optional
        Methods without a dimension: ``{method: value}`` or a frame with ``mean`` (and ``sd``)
        columns, drawn as horizontal lines.
    sd : DataFrame, optional
        Same layout as ``mean``: a shaded band of plus/minus one sd.
    ax : matplotlib Axes, optional
    title, ylabel : str

    Returns
    -------
    matplotlib Figure
    """
    if not isinstance(mean, pd.DataFrame) or mean.empty:
        raise ValueError("mean must be a non-empty DataFrame (dimensions x methods)")
    dims_ok = all(
        isinstance(d, (int, np.integer, float, np.floating)) and not isinstance(d, bool)
        and np.isfinite(d) and d >= 1 and float(d).is_integer() for d in mean.index
    )  # fmt: skip
    if not dims_ok:
        raise ValueError(
            f"mean must be indexed by dimensions (integers >= 1), got {list(mean.index)[:5]}"
        )
    if sd is not None and not isinstance(sd, pd.DataFrame):
        raise TypeError(f"sd must be a DataFrame like mean or None, got {type(sd).__name__}")
    if flat is not None:
        if isinstance(flat, pd.DataFrame):
            if "mean" not in flat.columns:
                raise ValueError(f"flat must have a 'mean' column, got {list(flat.columns)}")
        elif not isinstance(flat, Mapping):
            raise TypeError(
                "flat must be a mapping {method: value} or a DataFrame, "
                f"got {type(flat).__name__}"
            )
        values = dict(flat["mean"]) if isinstance(flat, pd.DataFrame) else dict(flat)
        for method, value in values.items():
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (int, float, np.number)
            ):
                raise TypeError(f"flat[{method!r}] must be a number, got {value!r}")
    fig, ax = figure_and_axes(ax, (6.5, 4.2))
    known = [m for m in METHOD_STYLES if m in mean.columns]
    for method in known + [m for m in mean.columns if m not in known]:
        y = mean[method].dropna()
        if y.empty:
            continue
        style = method_style(str(method))
        ax.plot(y.index, 100 * y.to_numpy(), label=str(method), linewidth=1.6, markersize=5,
                color=style["color"], linestyle=style["linestyle"], marker=style["marker"])  # fmt: skip
        if sd is not None and method in sd.columns:
            s = sd[method].reindex(y.index).to_numpy(dtype=float)
            if np.isfinite(s).any():
                s = np.nan_to_num(s)
                ax.fill_between(y.index, 100 * (y - s), 100 * (y + s), color=style["color"],
                                alpha=0.15, lw=0)  # fmt: skip
    if flat is not None:
        values = dict(flat["mean"]) if isinstance(flat, pd.DataFrame) else dict(flat)
        for method, value in values.items():
            style = method_style(str(method))
            ax.axhline(100 * float(value), color=style["color"], linestyle=style["linestyle"],
                       linewidth=1.2, label=f"{method} (no dimension)")  # fmt: skip
    ax.set_xscale("log")
    dims = sorted({int(d) for d in mean.index})
    ax.set_xticks(dims)
    ax.set_xticklabels([str(d) for d in dims])
    ax.minorticks_off()
    ax.set_xlabel("dimension (number of topics for JPLSA, CPLSA)")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)
    return fig


def plot_verse_retrieval(
    per_seed: pd.DataFrame,
    letters: Mapping[str, str],
    *,
    dev_mean: pd.DataFrame | None = None,
    dev_sd: pd.DataFrame | None = None,
    dev_flat: pd.DataFrame | Mapping[str, float] | None = None,
    pool_size: int | None = None,
) -> Figure:
    """The verse-level comparison: dev MRR against dimension (left) and test Top-1 (right).

    Parameters
    ----------
    per_seed : DataFrame
        Seeds (rows) x methods (columns): test Top-1 at each method's dev-chosen setting.
    letters : mapping method -> str
        Compact letter display: methods sharing a letter do not differ significantly.
    dev_mean, dev_sd, dev_flat :
        Dev-pool MRR against dimension (see :func:`plot_dev_mrr_curves`); without ``dev_mean``
        only the right panel is drawn.
    pool_size : int, optional
        Verses per pool, for the titles.

    Returns
    -------
    matplotlib Figure
    """
    if not isinstance(per_seed, pd.DataFrame) or per_seed.empty:
        raise ValueError("per_seed must be a non-empty DataFrame (seeds x methods)")
    if not isinstance(letters, Mapping):
        raise TypeError(
            f"letters must be a mapping {{method: letters}}, got {type(letters).__name__}"
        )
    missing = [m for m in per_seed.columns if m not in letters]
    if missing:
        raise ValueError(f"no letters for {missing}")
    if not np.isfinite(per_seed.to_numpy(dtype=float)).all():
        raise ValueError("per_seed has NaN or infinite Top-1 values; every cell must be scored")
    if pool_size is not None:
        pool_size = check_int(pool_size, "pool_size", low=1)
    n_seeds = len(per_seed)
    pool = f" among {pool_size} verses" if pool_size else ""
    if dev_mean is not None:
        fig, (ax_dev, ax) = plt.subplots(1, 2, figsize=(12, 4.6),
                                         gridspec_kw={"width_ratios": [1.1, 1]})  # fmt: skip
        plot_dev_mrr_curves(dev_mean, dev_flat, sd=dev_sd, ax=ax_dev,
                            title=f"(a) dev verses: MRR vs dimension{pool}",
                            ylabel="dev MRR × 100 (both directions)")  # fmt: skip
    else:
        fig, ax = plt.subplots(figsize=(6, 4.6))
    mean = per_seed.mean(axis=0).sort_values(ascending=True, kind="stable")
    sd = per_seed.std(axis=0, ddof=1) if n_seeds > 1 else pd.Series(0.0, index=mean.index)
    y = np.arange(len(mean))
    for i, method in enumerate(mean.index):
        style = method_style(str(method))
        ax.barh(i, 100 * mean[method], color=style["color"], alpha=0.35, height=0.7)
        ax.errorbar(100 * mean[method], i, xerr=100 * float(np.nan_to_num(sd[method])),
                    color=style["color"], capsize=3, linewidth=1.4)  # fmt: skip
        ax.scatter(100 * per_seed[method].to_numpy(), np.full(n_seeds, i), s=14,
                   color=style["color"], marker=style["marker"], zorder=3)  # fmt: skip
        right = max(per_seed[method].max(), mean[method] + float(np.nan_to_num(sd[method])))
        ax.text(100 * right + 2.0, i, letters[method], va="center",
                fontsize=10, fontweight="bold")  # fmt: skip
    ax.set_yticks(y)
    ax.set_yticklabels([str(m) for m in mean.index])
    ax.set_xlim(0, 108)
    ax.set_xlabel("test Top-1 × 100 (both directions)")
    seeds = "one seed" if n_seeds == 1 else f"mean ± sd over {n_seeds} seeds (dots: seeds)"
    ax.set_title(f"(b) test verses{pool}: {seeds}", fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.text(1.0, -0.16, "Letters: a difference counts if significant in every seed (exact McNemar\n"
            "on Top-1 hits, Holm over all pairs, p < 0.05); methods sharing a letter have none.",
            transform=ax.transAxes, ha="right", va="top", fontsize=8)  # fmt: skip
    fig.tight_layout()
    return fig


def table_in_points(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` formatted for reading: Top-1, MRR, accuracies and their differences in points
    (× 100, one decimal), p-values as :func:`workbench.templating.pvalue` writes them, other
    numbers with three significant decimals at most, booleans as ``yes`` / ``no``.

    A column counts as a score when its name contains ``top1``, ``mrr`` or ``accuracy`` or is
    ``difference``; as a p-value when its name is ``p`` or ends in `` p``.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame, got {type(frame).__name__}")
    out = frame.copy()
    for col in out.columns:
        name = str(col).lower()
        values = out[col]
        if values.dtype == bool:
            out[col] = np.where(values.to_numpy(), "yes", "no")
        elif not pd.api.types.is_numeric_dtype(values):
            continue
        elif name == "p" or name.endswith(" p"):
            out[col] = [pvalue(v) if pd.notna(v) else "n/a" for v in values]
        elif any(k in name for k in ("top1", "mrr", "accuracy")) or name == "difference":
            out[col] = [f"{100 * v:.1f}" if pd.notna(v) else "n/a" for v in values]
        elif pd.api.types.is_float_dtype(values):
            out[col] = values.round(3)
    return out
