"""Figures (workbench.viz.tour) and the widget (workbench.explore.tour) of the tour notebook."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench import coverage as cov  # noqa: E402
from workbench.explore.tour import coverage_explorer  # noqa: E402
from workbench.viz.tour import coverage_groups, plot_coverage, plot_vocabulary  # noqa: E402

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
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx(
        [100 * x for x in table.loc["pairs", ["2", "5", "all"]]]
    )  # in % of items
    assert ax.get_ylabel() == "items fully covered (%)" and ax.get_ylim() == (0, 102)
    plt.close(fig)


def _is_yellow(color) -> bool:
    r, g, b, _ = matplotlib.colors.to_rgba(color)
    return r > 0.8 and g > 0.75 and b < 0.4


def _sixteen_sets() -> pd.DataFrame:
    sizes = {"MEN": 3000, "RW": 2034, "SCWS": 2003, "SIMLEX": 999, "WS": 353, "WS-SIM": 203,
             "WS-REL": 252, "MTURK-287": 287, "MTURK-771": 771, "RG": 65, "MC": 30,
             "YP-130": 130, "VERB-143": 144, "analogy": 19544, "analogy semantic": 8869,
             "analogy syntactic": 10675}  # fmt: skip
    rows = {name: {"items": n, "10K": 0.3 + 0.01 * i, "all": 0.6 + 0.02 * i}
            for i, (name, n) in enumerate(sizes.items())}  # fmt: skip
    return pd.DataFrame(rows).T.astype({"items": int})


def test_coverage_groups_split_by_size_and_kind():
    groups = coverage_groups(_sixteen_sets())
    assert list(groups) == ["rating sets, ≥ 500 pairs", "rating sets, 200–499 pairs",
                            "rating sets, < 200 pairs", "analogy questions"]  # fmt: skip
    assert groups["rating sets, ≥ 500 pairs"] == ["MEN", "RW", "SCWS", "SIMLEX", "MTURK-771"]
    assert groups["analogy questions"] == ["analogy", "analogy semantic", "analogy syntactic"]
    assert sum(len(v) for v in groups.values()) == 16
    assert list(coverage_groups(_sixteen_sets().drop(columns="items"))) == [
        "rating sets",
        "analogy questions",
    ]
    with pytest.raises(ValueError, match="decreasing"):
        coverage_groups(_sixteen_sets(), bounds=(100, 200))


def test_plot_coverage_sixteen_sets_are_distinguishable():
    table = _sixteen_sets()
    fig = plot_coverage(table, title="t")
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 4
    n_lines = 0
    for ax in panels:
        lines = ax.get_lines()
        assert 1 <= len(lines) <= 6
        styles = {(ln.get_color(), ln.get_marker(), ln.get_linestyle()) for ln in lines}
        assert len(styles) == len(lines)  # colour, marker and dash differ within a panel
        assert len({ln.get_color() for ln in lines}) == len(lines)
        assert not any(_is_yellow(ln.get_color()) for ln in lines)
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert all("(" in lab for lab in labels)  # the set's size is in its label
        n_lines += len(lines)
    assert n_lines == 16
    assert "MEN (3,000)" in [t.get_text() for t in panels[0].get_legend().get_texts()]
    men = panels[0].get_lines()[0]
    assert list(men.get_ydata()) == pytest.approx(
        [100 * x for x in table.loc["MEN", ["10K", "all"]]]
    )
    plt.close(fig)
    with pytest.raises(KeyError, match="not in the table"):
        plot_coverage(table, groups={"x": ["nope"]})


def test_coverage_explorer_widget():
    counts = cov.vocabulary_counts(TOKENS)
    box = coverage_explorer(counts.index, SETS)
    controls, output = box.children
    slider, dropdown = controls.children
    assert list(dropdown.options) == ["pairs", "questions"]
    slider.value = slider.max  # callbacks run without error
    dropdown.value = "questions"


def test_tables_for_reading():
    from workbench.viz.tour import corpus_summary_table, coverage_percent, missing_words_table

    summary = corpus_summary_table({"corpus": "1M", "tokens": 500000, "Heaps beta": 0.6312})
    assert list(summary["value"]) == ["1M", "500,000", "0.631"]
    table = cov.coverage_table(["cat", "dog", "log"], SETS, [2, None])
    pct = coverage_percent(table)
    assert list(pct.columns) == ["items", "2", "all"] and pct.loc["pairs", "all"] == 66.7
    missing = pd.DataFrame({"words": [751], "missing": [152], "missing_fraction": [0.202397],
                            "examples": ["a, " * 40]}, index=["MEN"])  # fmt: skip
    out = missing_words_table(missing)
    assert out.loc["MEN", "missing (%)"] == 20.2 and "..." not in out.to_html()
