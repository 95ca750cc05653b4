"""Figures (workbench.viz.tour) and the widget (workbench.explore.tour) of the tour notebook."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from workbench import coverage as cov  # noqa: E402
from workbench.viz.tour import plot_coverage, plot_vocabulary  # noqa: E402

TOKENS = ("the cat sat on the mat the dog sat on the log a cat and a dog " * 50).split()
SETS = {
    "pairs": pd.DataFrame({"word1": ["cat", "dog", "emu"], "word2": ["dog", "log", "cat"]}),
    "questions": [("cat", "dog", "mat", "log")],
}


def test_plot_vocabulary_and_coverage():
    counts = cov.vocabulary_counts(TOKENS)
    curve = cov.type_token_curve(TOKENS, n_points=10)
    fig = plot_vocabulary(counts, curve, zipf=cov.fit_zipf(counts, ranks=(1, 10)), title="t")
    assert len(fig.axes) == 2 and fig.axes[0].get_xscale() == "log"
    assert "fit" in fig.axes[0].get_legend().get_texts()[1].get_text()
    plt.close(fig)
    table = cov.coverage_table(counts.index, SETS, [2, 5, None])
    fig = plot_coverage(table)
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "5", "all"]
    assert len(ax.get_lines()) == 2
    assert list(ax.get_lines()[0].get_ydata()) == table.loc["pairs", ["2", "5", "all"]].tolist()
    plt.close(fig)


def test_coverage_explorer_widget():
    from workbench.explore.tour import coverage_explorer

    counts = cov.vocabulary_counts(TOKENS)
    box = coverage_explorer(counts.index, SETS)
    controls, output = box.children
    slider, dropdown = controls.children
    assert list(dropdown.options) == ["pairs", "questions"]
    slider.value = slider.max  # callbacks run without error
    dropdown.value = "questions"
