"""The CCAPrior / retrofitting figure of notebook 06 (workbench.viz.eigenwords)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench.viz.eigenwords import plot_prior_gains  # noqa: E402

ALPHAS = [0.1, 0.5, 0.9]


def _gains(lexicons=("WN", "PD", "FN"), paper=True):
    rows = []
    for i, lex in enumerate(lexicons):
        rows.append({"method": "Eigen + RF", "lexicon": lex, "alpha": np.nan, "gain": 0.05 + 0.01 * i,
                     "better": 3, "paper gain": 0.027})  # fmt: skip
        for j, a in enumerate(ALPHAS):
            rows.append({"method": "CCAPrior", "lexicon": lex, "alpha": a, "gain": 0.01 * j,
                         "better": int(j == 2), "paper gain": 0.004 * j})  # fmt: skip
            rows.append({"method": "CCAPrior + RF", "lexicon": lex, "alpha": a,
                         "gain": 0.06 + 0.01 * j, "better": 2, "paper gain": 0.03})  # fmt: skip
    out = pd.DataFrame(rows)
    return out if paper else out.drop(columns="paper gain")


def test_one_panel_per_lexicon_with_ours_and_the_papers_curves():
    fig = plot_prior_gains(_gains(), title="t")
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["WordNet", "PPDB", "FrameNet"]
    ax = axes[0]
    # two solid curves of ours and two dotted curves of the paper, in points
    solid = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-" and len(ln.get_xdata()) == 3]
    dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":" and len(ln.get_xdata()) == 3]
    assert len(solid) == 2 and len(dotted) == 2
    assert np.allclose(sorted(solid[0].get_ydata()), [0.0, 1.0, 2.0])
    # filled markers exactly where a configuration is significantly above Eigen
    filled = [c for c in ax.collections if len(c.get_offsets()) and
              c.get_facecolors().size and c.get_facecolors()[0][:3].tolist() != [1.0, 1.0, 1.0]]  # fmt: skip
    n_filled = sum(len(c.get_offsets()) for c in filled)
    assert n_filled == 1 + 3  # CCAPrior at the largest alpha, CCAPrior + RF everywhere
    # Eigen + RF: horizontal lines at its gain (ours) and the paper's
    horiz = [ln.get_ydata()[0] for ln in ax.get_lines() if len(set(ln.get_ydata())) == 1]
    assert any(np.isclose(h, 5.0) for h in horiz) and any(np.isclose(h, 2.7) for h in horiz)
    assert "paper (Table 1)" in [t.get_text() for t in fig.legends[0].get_texts()]
    assert ax.get_xlabel() == r"prior weight $\alpha$"
    plt.close(fig)


def test_without_the_paper_and_with_fewer_lexicons():
    fig = plot_prior_gains(_gains(("PD",), paper=False))
    assert len(fig.axes) == 1 and fig.axes[0].get_title() == "PPDB"
    assert "paper (Table 1)" not in [t.get_text() for t in fig.legends[0].get_texts()]
    assert not [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == ":"]
    plt.close(fig)


def test_bad_input():
    with pytest.raises(ValueError, match="lacks the columns"):
        plot_prior_gains(_gains().drop(columns="better"))
    with pytest.raises(ValueError, match="no row"):
        plot_prior_gains(_gains().assign(lexicon="XX"))
