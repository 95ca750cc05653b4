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


def test_tables_for_reading_are_in_points_with_one_p_format():
    from workbench.significance import dependent_corr_table, mvlsa_table2_comparison
    from workbench.viz.significance import (
        analogy_frame,
        bootstrap_frame,
        comparison_seeds_frame,
        dependent_tests_frame,
        mrds_text,
        table2_frame,
    )

    assert mrds_text(0.0391) == "3.9 points"
    assert (
        mrds_text(float("inf"))
        == mrds_text(1.0)
        == ("none — no difference is significant at this size")
    )
    assert mrds_text(154.0, scale=100) == mrds_text(1.54)
    seeds = pd.DataFrame({"n": [786], "r_ab": [0.4192], "gain": [0.0342], "gain_sd": [float("nan")],
                          "mrds": [1.0], "pvalue_max": [0.00001], "pvalue_adjusted_max": [1.0],
                          "seeds_significant": [0], "seeds_exceeding_mrds": [0], "n_seeds": [1]},
                         index=["MEN"])  # fmt: skip
    row = comparison_seeds_frame(seeds).loc["MEN"]
    assert (row["r_ab (points)"], row["gain (points)"], row["gain sd"]) == ("41.9", "+3.4", "")
    assert row["MRDS"].startswith("none") and row["p (max)"] == "< 0.001"
    assert row["p Holm (max)"] == "1.000"
    tests = dependent_tests_frame(dependent_corr_table(0.5, 0.3, 0.6, 200))
    assert set(tests["test"]) >= {"williams1959", "zou2007"}
    zou = tests.set_index("test").loc["zou2007"]
    assert zou["p"] == "" and zou["95 % interval"].endswith("points")
    assert tests.set_index("test").loc["williams1959", "df"] == "197"
    boot = pd.DataFrame({"estimate": [0.245664], "low": [0.173569], "high": [0.317355],
                         "confidence_level": [0.95], "n_resamples": [1000],
                         "method": ["percentile"]}, index=["LSA-w2"])  # fmt: skip
    b = bootstrap_frame(boot).loc["LSA-w2"]
    assert (b["Spearman (points)"], b["interval (points)"], b["level"], b["resamples"]) == (
        "24.6",
        "[17.4, 31.7]",
        "95 %",
        "1,000",
    )
    table2 = table2_frame(mvlsa_table2_comparison())
    assert len(table2) == 66 and (table2["r"] == "").sum() == 6  # accuracy rows have no r
    assert table2.loc[0, "n"] == "3,000"
    ana = pd.DataFrame({"B - A (points)": [-0.36], "McNemar p": [0.371], "P(B > A)": [0.1771],
                        "MRDS (points)": [float("inf")], "exceeds MRDS": [False]})  # fmt: skip
    a = analogy_frame(ana).iloc[0]
    assert (a["B - A (points)"], a["McNemar p"], a["P(B > A)"]) == ("-0.4", "0.371", "0.177")
    assert a["MRDS"].startswith("none")
