"""Figures and tables of the views notebook: density per view, the views of every family side by
side, and the notebook's tables formatted for reading (counts with thousands separators, never
``1e+03``; densities in % with three significant digits, never in scientific notation)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import scipy.sparse as sp
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.colors import Colormap, ListedColormap
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, NullLocator

from workbench._validation import check_int
from workbench.views import View
from workbench.viz._axes import figure_and_axes

__all__ = [
    "context_value",
    "contexts_text",
    "density_percent",
    "family_table",
    "plot_view_density",
    "plot_view_family",
    "plot_view_families",
    "plot_view_heatmaps",
    "relation_table",
    "row_nnz_ccdf",
]


def context_value(value: float) -> str:
    """A view entry for reading: a whole number with thousands separators (``1,024``, never
    ``1e+03``), another number with three significant digits."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.3g}"


def contexts_text(pairs: Iterable[tuple[str, float]]) -> str:
    """``[("dios", 341.0), ("señor", 2.5)]`` -> ``"dios (341), señor (2.5)"``."""
    return ", ".join(f"{c} ({context_value(x)})" for c, x in pairs)


def density_percent(fraction: float) -> str:
    """A density (a fraction) in % with three significant digits, written positionally
    (``9.26e-06`` -> ``"0.000926"``)."""
    return np.format_float_positional(
        100 * float(fraction), precision=3, unique=False, fractional=False, trim="-"
    )


def family_table(family_stats: pd.DataFrame) -> pd.DataFrame:
    """The per-family statistics of the views notebook for reading: ``nnz`` with thousands
    separators, the mean density in % (:func:`density_percent`) and the mean observed share of
    the vocabulary in % with one decimal."""
    out = pd.DataFrame(index=family_stats.index)
    out["views"] = family_stats["views"].astype(int)
    out["nnz"] = [f"{int(n):,}" for n in family_stats["nnz"]]
    out["mean density (%)"] = [density_percent(x) for x in family_stats["mean_density"]]
    out["mean observed (%)"] = [
        f"{100 * float(x):.1f}" for x in family_stats["mean_observed_fraction"]
    ]
    return out


def relation_table(views: Sequence[View]) -> pd.DataFrame:
    """The dependency views' relations: the paper's (Stanford collapsed) name and how it is
    read from Universal Dependencies v2 (``meta["relation"]``, ``meta["ud"]``)."""
    return pd.DataFrame(
        {"UD v2 (how it is read)": [str(v.meta.get("ud", "")) for v in views]},
        index=pd.Index([str(v.meta.get("relation", v.name)) for v in views], name="paper"),
    )


#: Okabe & Ito's colour-blind-safe palette (no yellow: it vanishes on white).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000")


def plot_view_density(stats: pd.DataFrame, *, ax: Axes | None = None) -> Figure:
    """Horizontal bars of the density (nnz / (rows x columns), in %) of each view, log scale, by
    family; the axis is labelled with plain numbers (0.001, 0.01, ...), not powers of ten.

    ``stats`` is :func:`workbench.views.view_statistics` output. Returns the figure.
    """
    if not isinstance(stats, pd.DataFrame):
        raise TypeError(f"stats must be a DataFrame (view_statistics), got {type(stats).__name__}")
    missing = [c for c in ("family", "density") if c not in stats.columns]
    if missing:
        raise ValueError(f"stats lacks the columns {missing} (view_statistics)")
    if stats.empty:
        raise ValueError("stats is empty: no view to plot")
    density = pd.to_numeric(stats["density"], errors="coerce").to_numpy(dtype=float)
    if not np.isfinite(density).all() or (density < 0).any():
        raise ValueError("stats['density'] must hold finite numbers >= 0 (nnz / (rows x columns))")
    fig, ax = figure_and_axes(ax, (7, 0.22 * len(stats) + 1.2))
    families = list(dict.fromkeys(stats["family"]))
    palette = PALETTE + ("#999999", "#882255", "#44AA99")
    colors = [palette[families.index(f) % len(palette)] for f in stats["family"]]
    y = np.arange(len(stats))
    ax.barh(y, 100 * stats["density"].clip(lower=1e-12), color=colors)
    ax.set_yticks(y, list(stats.index), fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: density_percent(v / 100)))
    ax.set_xlabel("density (% of the cells nonzero: nnz / (rows × columns))")
    ax.grid(axis="x", which="major", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=palette[i % len(palette)])
               for i in range(len(families))]  # fmt: skip
    ax.legend(handles, families, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def _row_nnz(v: View) -> np.ndarray:
    m = v.matrix
    if sp.issparse(m):
        return np.diff(sp.csr_array(m).indptr)
    return np.count_nonzero(m, axis=1)


def row_nnz_ccdf(view: View, *, max_points: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """The complementary CDF of the nonzero contexts per *observed* word of ``view``.

    Parameters
    ----------
    view : View
    max_points : int
        At most this many points, spread evenly in log(x) (the curve is drawn as steps, so
        thinning only drops points that a log-log figure cannot resolve).

    Returns
    -------
    x, fraction : ndarray
        ``fraction[i]`` is the share of observed words with at least ``x[i]`` nonzero contexts;
        ``x`` is increasing and starts at the smallest count (empty arrays if nothing is
        observed).
    """
    max_points = check_int(max_points, "max_points", low=2)
    if not isinstance(view, View):
        raise TypeError(f"view must be a View, got {type(view).__name__}")
    k = np.sort(_row_nnz(view)[np.asarray(view.observed, bool)])
    if k.size == 0:
        return np.empty(0), np.empty(0)
    xs, first = np.unique(k, return_index=True)
    frac = 1.0 - first / k.size
    if xs.size > max_points:
        grid = np.geomspace(max(xs[0], 1), xs[-1], max_points)
        pick = np.unique(np.clip(np.searchsorted(xs, grid), 0, xs.size - 1))
        pick = np.union1d(pick, [0, xs.size - 1])
        xs, frac = xs[pick], frac[pick]
    return xs.astype(float), frac


def _plain_log_axis(axis: Axis) -> None:
    """Log-axis tick labels as plain numbers (1, 10, 100, 1,000) rather than powers of ten."""
    axis.set_major_locator(LogLocator(base=10, numticks=12))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
    axis.set_minor_locator(NullLocator())


def plot_view_family(views: Sequence[View], *, title: str | None = None, n_top: int = 60) -> Figure:
    """One figure for a view family: nonzeros per row (CCDF) for each view, and a heatmap.

    Left: for each view, the fraction of observed words with at least ``x`` nonzero contexts
    (log-log). Right: ``log(1 + |Z|)`` of the family's first view on its ``n_top`` heaviest
    rows and columns. Returns the figure.
    """
    views = _check_views(views, "views")
    n_top = check_int(n_top, "n_top", low=1)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}")
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.8))
    _ccdf_panel(a0, views)
    a0.set_xlabel("nonzero contexts per observed word")
    a0.set_ylabel("fraction of observed words ≥ x")
    im = _heatmap_panel(a1, views[0], n_top, normalise=False)
    fig.colorbar(im, ax=a1, label="log(1 + |z|)")
    a1.set_xlabel("contexts (heaviest)")
    a1.set_ylabel("words (heaviest)")
    fig.suptitle(title or f"{views[0].family} views")
    fig.tight_layout()
    return fig


def _ccdf_panel(ax: Axes, views: Sequence[View], legend_max: int = 6) -> None:
    many = len(views) > legend_max
    cmap = plt.get_cmap("viridis")
    for i, v in enumerate(views):
        xs, frac = row_nnz_ccdf(v)
        if xs.size == 0:
            continue
        color: str | tuple[float, float, float, float]
        if many:  # a sequence (offsets 1..15, relations): purple to green, stopping before yellow
            color, style = cmap(0.75 * i / max(len(views) - 1, 1)), "-"
        else:
            color, style = PALETTE[i % len(PALETTE)], ("-", "--", ":", "-.")[i % 4]
        label = None if many else v.name
        if xs.size == 1:  # every observed word has the same count (a dense embedding view)
            ax.plot(np.maximum(xs, 1), frac, "o", color=color, ms=4, label=label)
        else:
            ax.step(np.maximum(xs, 1), frac, where="post", color=color, ls=style, lw=1.2,
                    label=label)  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    if many:
        ax.text(0.97, 0.95, f"{len(views)} views,\npurple → green in order", ha="right", va="top",
                fontsize=8, transform=ax.transAxes)  # fmt: skip
    elif views:
        ax.legend(fontsize=8, loc="lower left", frameon=False)


def _heat_cmap() -> Colormap:
    """Light to dark blue for nonzero cells; zeros (masked) are white."""
    cmap = ListedColormap(plt.get_cmap("Blues")(np.linspace(0.25, 1.0, 256)), name="heat")
    return cmap.with_extremes(bad="white")


def _heatmap_panel(ax: Axes, v: View, n_top: int, *, normalise: bool) -> AxesImage:
    m = v.matrix
    dense_abs = abs(m)
    rs = np.asarray(dense_abs.sum(axis=1)).ravel()
    cs = np.asarray(dense_abs.sum(axis=0)).ravel()
    r = np.sort(np.argsort(-rs, kind="stable")[:n_top])
    c = np.sort(np.argsort(-cs, kind="stable")[:n_top])
    block = m[r][:, c]
    block = block.toarray() if sp.issparse(block) else np.asarray(block)
    z = np.log1p(np.abs(block))
    if normalise and z.max() > 0:
        z = z / z.max()
    im = ax.imshow(np.ma.masked_equal(z, 0), aspect="auto", cmap=_heat_cmap(),
                   interpolation="nearest", vmin=0, vmax=1 if normalise else None)  # fmt: skip
    ax.set_title(f"{v.name}: top {len(r)} × {len(c)}", fontsize=8)
    if v.vocab is not None and len(r) <= 20 and not normalise:  # 8-pt labels that fit
        ax.set_yticks(range(len(r)), [v.vocab.words[i] for i in r], fontsize=8)
    return im


def _grid(
    n: int, n_cols: int, size: tuple[float, float], *, sharex: bool = False, sharey: bool = False
) -> tuple[Figure, np.ndarray]:
    n_cols = max(1, min(n_cols, n))
    n_rows = int(np.ceil(n / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(size[0] * n_cols, size[1] * n_rows),
                             squeeze=False, sharex=sharex, sharey=sharey)  # fmt: skip
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes


def _check_views(views: object, name: str) -> list[View]:
    """``views`` as a non-empty list of :class:`View` (a single View is refused by name)."""
    if isinstance(views, View) and name == "views":
        raise TypeError("views must be a list of View objects, got a single View; use [view]")
    if isinstance(views, (str, bytes)) or not isinstance(views, (Sequence, tuple, list)):
        raise TypeError(f"{name} must be a list of View objects, got {type(views).__name__}")
    views = list(views)
    if not views:
        raise ValueError("no views to plot")
    bad = [v for v in views if not isinstance(v, View)]
    if bad:
        raise TypeError(f"{name} must hold View objects, got {type(bad[0]).__name__}")
    return views


def _by_family(views: Sequence[View]) -> dict[str, list[View]]:
    views = _check_views(views, "views")
    out: dict[str, list[View]] = {}
    for v in views:
        out.setdefault(v.family, []).append(v)
    return out


def plot_view_families(views: Sequence[View], *, n_cols: int = 3) -> Figure:
    """How many contexts each word has, one panel per view family, on shared log-log axes.

    Each panel shows, for every view of the family, the fraction of *observed* words with at
    least ``x`` nonzero contexts (:func:`row_nnz_ccdf`); families of more than six views (offsets,
    relations) are drawn as a dark-to-light ramp in view order, the others with a legend. The
    panel title gives the number of views and the mean share of the vocabulary observed.

    Returns
    -------
    matplotlib.figure.Figure
    """
    families = _by_family(views)
    n_cols = check_int(n_cols, "n_cols", low=1)
    fig, axes = _grid(len(families), n_cols, (3.6, 2.8), sharex=True, sharey=True)
    for ax, (family, vs) in zip(axes.ravel(), families.items()):
        _ccdf_panel(ax, vs)
        observed = float(np.mean([np.mean(v.observed) for v in vs]))
        ax.set_title(f"{family}: {len(vs)} view{'s' if len(vs) > 1 else ''}, "
                     f"{observed:.0%} of words observed", fontsize=9)  # fmt: skip
        ax.grid(alpha=0.25, which="major")
    first = axes.ravel()[0]  # the axes are shared: locators and formatters set once
    _plain_log_axis(first.xaxis)
    _plain_log_axis(first.yaxis)
    for ax in axes.ravel()[: len(families)]:
        ax.minorticks_off()  # minor ticks of many log-log panels are slow to draw and add nothing
    for ax in axes[:, 0]:
        ax.set_ylabel("share of observed words ≥ x")
    for i, ax in enumerate(axes.ravel()[: len(families)]):
        if i + axes.shape[1] >= len(families):  # nothing drawn below this panel
            ax.set_xlabel("nonzero contexts per word")
            ax.tick_params(labelbottom=True)
    fig.tight_layout()
    return fig


def plot_view_heatmaps(views: Sequence[View], *, n_cols: int = 3, n_top: int = 40) -> Figure:
    """The first view of every family on its ``n_top`` heaviest rows and columns.

    Cells show ``log(1 + |z|)`` divided by the panel's maximum (views have very different
    scales: counts, 0/1 memberships, embedding coordinates), so one colour bar serves all
    panels; zeros are white. Returns the figure.
    """
    families = _by_family(views)
    n_cols = check_int(n_cols, "n_cols", low=1)
    n_top = check_int(n_top, "n_top", low=1)
    fig, axes = _grid(len(families), n_cols, (2.6, 2.4))
    im = None
    for ax, vs in zip(axes.ravel(), families.values()):
        im = _heatmap_panel(ax, vs[0], n_top, normalise=True)
        ax.set_xticks([])
        ax.set_yticks([])
    for ax in axes[:, 0]:
        ax.set_ylabel("heaviest words", fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("heaviest contexts", fontsize=8)
    fig.tight_layout()
    if im is not None:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.6,
                     label="log(1 + |z|) / panel maximum")  # fmt: skip
    return fig
