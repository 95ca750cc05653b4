"""Figures of the translingual notebook (workbench.viz.translingual)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench.viz.translingual import (  # noqa: E402
    METHOD_STYLES,
    method_style,
    plot_dev_mrr_curves,
    plot_verse_retrieval,
)


def curves():
    dims = [10, 50, 200]
    mean = pd.DataFrame({"OPCA": [0.5, 0.8, 0.9], "CL-LSI": [0.4, 0.7, 0.9]}, index=dims)
    return mean, mean * 0 + 0.02


def test_dev_curves_lines_bands_and_flat_methods():
    mean, sd = curves()
    fig = plot_dev_mrr_curves(mean, {"Word-by-word": 0.95}, sd=sd, title="t")
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["OPCA", "CL-LSI", "Word-by-word (no dimension)"]
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "50", "200"]
    assert len(ax.collections) == 2  # one sd band per method
    # a generative method is dashed, its discriminative counterpart solid, in one hue family
    assert ax.lines[0].get_linestyle() == "-" and ax.lines[1].get_linestyle() == "--"
    # in points: MRR x 100 on the axis, its label says so
    assert list(ax.lines[0].get_ydata()) == pytest.approx([50.0, 80.0, 90.0])
    assert ax.lines[2].get_ydata()[0] == pytest.approx(95.0)
    assert "× 100" in ax.get_ylabel()
    plt.close(fig)
    with pytest.raises(ValueError, match="non-empty"):
        plot_dev_mrr_curves(pd.DataFrame())


def test_verse_figure_bars_dots_and_letters():
    per_seed = pd.DataFrame(
        {"OPCA": [0.8, 0.82, 0.81], "Untranslated": [0.05, 0.06, 0.05]}, index=[0, 1, 2]
    )
    mean, sd = curves()
    flat = pd.DataFrame({"mean": [0.9], "sd": [0.01]}, index=["Word-by-word"])
    fig = plot_verse_retrieval(
        per_seed, {"OPCA": "a", "Untranslated": "b"}, dev_mean=mean, dev_sd=sd,
        dev_flat=flat, pool_size=100,
    )  # fmt: skip
    ax_dev, ax = fig.axes
    assert "100 verses" in ax.get_title() and "3 seeds" in ax.get_title()
    # best method on top, bars at the mean in percent
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Untranslated", "OPCA"]
    widths = sorted(p.get_width() for p in ax.patches)
    np.testing.assert_allclose(widths, [100 * per_seed["Untranslated"].mean(),
                                        100 * per_seed["OPCA"].mean()])  # fmt: skip
    texts = [t.get_text() for t in ax.texts]
    assert "a" in texts and "b" in texts
    plt.close(fig)
    one = plot_verse_retrieval(per_seed.iloc[:1], {"OPCA": "a", "Untranslated": "b"})
    assert len(one.axes) == 1 and "one seed" in one.axes[0].get_title()
    plt.close(one)
    with pytest.raises(ValueError, match="no letters"):
        plot_verse_retrieval(per_seed, {"OPCA": "a"})


def test_method_styles_are_distinct_and_avoid_yellow():
    colors = [(s["color"], s["linestyle"]) for s in METHOD_STYLES.values()]
    assert len(set(colors)) == len(colors)
    assert all(s["color"].upper() != "#F0E442" for s in METHOD_STYLES.values())
    assert method_style("unknown")["color"] == "#444444"


def test_table_in_points_formats_scores_p_values_and_flags():
    from workbench.viz.translingual import table_in_points

    t = pd.DataFrame({"method": ["OPCA", "CCA"], "top1": [0.91234, 0.5], "mcnemar p": [0.0001, 0.25],
                      "superior top1": [True, False], "fit seconds": [1.23456, 2.0], "dim": [10, 20]})  # fmt: skip
    out = table_in_points(t)
    assert out["top1"].tolist() == ["91.2", "50.0"]
    assert out["mcnemar p"].tolist() == ["< 0.001", "0.250"]
    assert out["superior top1"].tolist() == ["yes", "no"]
    assert out["fit seconds"].tolist() == [1.235, 2.0] and out["dim"].tolist() == [10, 20]
    with pytest.raises(TypeError, match="DataFrame"):
        table_in_points([1, 2])
