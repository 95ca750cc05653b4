"""Figures of notebook 02 (workbench.viz.views): the per-family CCDF panels and heatmaps."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402

from workbench.views import (  # noqa: E402
    View,
    Vocabulary,
    view_statistics,  # noqa: E402
)
from workbench.viz.views import (
    context_value,
    contexts_text,
    density_percent,
    family_table,
    plot_view_density,
    plot_view_families,
    plot_view_heatmaps,
    relation_table,  # noqa: E402
    row_nnz_ccdf,
)

VOCAB = Vocabulary.from_words([f"w{i}" for i in range(6)])


def _view(name: str, family: str, rows: list[list[float]]) -> View:
    m = sp.csr_array(np.asarray(rows, float))
    return View(name, m, tuple(f"c{j}" for j in range(m.shape[1])), np.diff(m.indptr) > 0,
                family, VOCAB)  # fmt: skip


def _views(seed: int = 0) -> list[View]:
    rng = np.random.default_rng(seed)
    pos = [_view(f"offset_{k}", "positional", (rng.random((6, 8)) < 0.3 + 0.05 * k) * 1.0)
           for k in range(1, 9)]  # fmt: skip
    lex = [_view("morphology", "morphology", np.eye(6)[:, :4] * (np.arange(6) < 4)[:, None])]
    emb = [_view("glove", "embedding", rng.standard_normal((6, 3)))]
    return pos + lex + emb


def test_row_nnz_ccdf_counts_observed_rows_only():
    v = _view("v", "x", [[1, 1, 0], [1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 1, 0], [0, 0, 0]])
    x, frac = row_nnz_ccdf(v)
    assert list(x) == [1, 2, 3]  # 4 observed rows with 1, 1, 2, 3 nonzeros
    assert list(frac) == [1.0, 0.5, 0.25]
    empty = _view("e", "x", np.zeros((6, 2)))
    assert row_nnz_ccdf(empty)[0].size == 0
    with pytest.raises(ValueError, match="max_points"):
        row_nnz_ccdf(v, max_points=1)


def test_row_nnz_ccdf_thins_long_tails_keeping_the_ends():
    counts = np.arange(1, 2001)
    m = sp.csr_array((np.ones(counts.sum()), (np.repeat(np.arange(2000), counts),
                      np.concatenate([np.arange(c) for c in counts]))), shape=(2000, 2000))  # fmt: skip
    vocab = Vocabulary.from_words([f"w{i}" for i in range(2000)])
    v = View("big", m, tuple(map(str, range(2000))), np.ones(2000, bool), "x", vocab)
    x, frac = row_nnz_ccdf(v, max_points=50)
    assert len(x) <= 52 and x[0] == 1 and x[-1] == 2000
    assert frac[0] == 1.0 and frac[-1] == pytest.approx(1 / 2000)
    assert np.all(np.diff(x) > 0) and np.all(np.diff(frac) < 0)


def test_plot_view_families_one_panel_per_family():
    views = _views()
    fig = plot_view_families(views, n_cols=2)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 3 and len(fig.axes) == 4  # 2 x 2 grid, one hidden
    titles = [ax.get_title() for ax in panels]
    assert titles[0].startswith("positional: 8 views") and titles[2].startswith("embedding: 1 view")
    pos, lex, emb = panels
    assert len(pos.get_lines()) == 8 and pos.get_legend() is None  # > 6 views: a ramp, no legend
    assert any("purple → green" in t.get_text() for t in pos.texts)
    for ln in pos.get_lines():
        r, g, b, _ = matplotlib.colors.to_rgba(ln.get_color())
        assert not (r > 0.8 and g > 0.75 and b < 0.4)  # the ramp stops before yellow
    assert [t.get_text() for t in lex.get_legend().get_texts()] == ["morphology"]
    (dot,) = emb.get_lines()  # every observed word has 3 contexts: one point, not an empty step
    assert dot.get_marker() == "o" and list(dot.get_xdata()) == [3.0]
    assert pos.get_xscale() == "log" and pos.get_yscale() == "log"
    assert panels[1].get_xlabel() and not panels[0].get_xlabel()  # x labels under the last row
    plt.close(fig)


def test_plot_view_heatmaps_and_density():
    views = _views()
    fig = plot_view_heatmaps(views, n_cols=3, n_top=4)
    images = [im for ax in fig.axes for im in ax.get_images()]
    assert len(images) == 3
    morph = images[1].get_array()
    assert np.ma.isMaskedArray(morph) and morph.mask.sum() > 0  # zeros are masked (white)
    assert float(morph.max()) == pytest.approx(1.0)  # normalised by the panel maximum
    assert len(fig.axes) == 4  # three panels and one shared colour bar
    plt.close(fig)
    stats = view_statistics(views)
    fig = plot_view_density(stats)
    ax = fig.axes[0]
    assert len(ax.patches) == len(views)
    widths = sorted(p.get_width() for p in ax.patches)
    assert widths == pytest.approx(sorted(100 * stats["density"].clip(lower=1e-12)))  # in %
    assert "%" in ax.get_xlabel()
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and not any("^" in t or "e" in t for t in labels)  # plain numbers
    plt.close(fig)
    with pytest.raises(ValueError, match="no views"):
        plot_view_families([])


def test_tables_for_reading_have_plain_counts_and_densities_in_percent():
    assert context_value(1024.0) == "1,024" and context_value(0.1234) == "0.123"
    assert contexts_text([("dios", 341.0), ("señor", 2.5)]) == "dios (341), señor (2.5)"
    assert density_percent(9.26e-06) == "0.000926" and density_percent(0.5) == "50"
    stats = pd.DataFrame({"views": [21, 1], "nnz": [4477, 229800],
                          "mean_density": [9.26e-06, 0.9192],
                          "mean_observed_fraction": [0.019762, 0.9192]},
                         index=pd.Index(["dependency", "embedding"], name="family"))  # fmt: skip
    table = family_table(stats)
    assert table.loc["embedding", "nnz"] == "229,800"
    assert table.loc["dependency", "mean density (%)"] == "0.000926"
    assert table.loc["dependency", "mean observed (%)"] == "2.0"
    views = _views()
    for v in views:
        v.meta.update(relation=f"rel_{v.name}", ud="nsubj")
    rel = relation_table(views)
    assert list(rel.index) == [f"rel_{v.name}" for v in views]
    assert set(rel["UD v2 (how it is read)"]) == {"nsubj"}
