"""Helpers the figures of :mod:`workbench.viz` share."""

from __future__ import annotations

from typing import cast

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["figure_and_axes"]


def figure_and_axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """``ax`` and its figure, or a new figure of ``figsize`` with one axes when ``ax`` is None."""
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize)
        return fig, ax
    return cast(Figure, ax.figure), ax
