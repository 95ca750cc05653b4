"""The MRDS figure of notebook 01 (workbench.viz.significance.plot_mrds_curves)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench.significance import MVLSA_TABLE2, mrds_correlation  # noqa: E402
from workbench.viz.significance import _ticks_within, plot_mrds_curves  # noqa: E402


def _is_yellow(color) -> bool:
    r, g, b, _ = matplotlib.colors.to_rgba(color)
    return r > 0.8 and g > 0.75 and b < 0.4


@pytest.fixture(scope="module")
def figure():
    fig = plot_mrds_curves([30, 300, 3000])
    yield fig
    plt.close(fig)


def test_curves_and_the_papers_values(figure):
    left, right = figure.axes
    curves = [ln for ln in left.get_lines() if ln.get_linestyle() != "None"]
    points = [ln for ln in left.get_lines() if ln.get_linestyle() == "None"]
    assert len(curves) == 6 and len(points) == 6  # 3 r x 2 p0, each with Table 2's ten sets
    assert all(len(p.get_xdata()) == 10 for p in points)
    # the first curve is r_AB = 0.5, p0 = 0.01 in points
    assert curves[0].get_ydata()[1] == pytest.approx(100 * mrds_correlation(300, 0.5, 0.01))
    assert list(points[0].get_ydata()) == MVLSA_TABLE2["p0.01_r0.5"].iloc[:10].tolist()
    acc_points = [ln for ln in right.get_lines() if ln.get_linestyle() == "None"]
    assert len(acc_points) == 2 and len(acc_points[0].get_xdata()) == 3
    assert {t.get_text() for t in right.texts} == {"AN-SYN", "AN-SEM", "TOEFL"}


def test_log_axes_with_plain_ticks_and_mathematical_labels(figure):
    for ax in figure.axes:
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
        figure.canvas.draw()
        ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        assert "30" in ticks and "1,000" in ticks  # plain numbers, not 10^k
        assert all("^" not in t for t in ticks)
        assert "$n$" in ax.get_xlabel() and "$" in ax.get_ylabel()
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "$r_{AB} = 0.9$" in legend and "$p_0 = 0.05$" in legend
    assert "MVLSA paper, Table 2" in legend


def test_no_yellow_on_white(figure):
    for ax in figure.axes:
        for ln in ax.get_lines():
            assert not _is_yellow(ln.get_color()) and not _is_yellow(ln.get_markeredgecolor())


def test_without_the_papers_values_and_ticks_helper():
    fig = plot_mrds_curves([30, 300], r_values=(0.5,), p0_values=(0.05,), paper=pd.DataFrame())
    assert all(ln.get_linestyle() != "None" for ax in fig.axes for ln in ax.get_lines())
    plt.close(fig)
    assert _ticks_within(20, 20000, (1, 3)) == [30, 100, 300, 1000, 3000, 10000]
    assert _ticks_within(0.6, 9) == [1, 2, 5]
