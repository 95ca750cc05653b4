"""Every figure of workbench.viz is print-ready: one legend entry per plotted series, in the
series' colour; no empty panel; fonts of at least MIN_POINTS at the saved size; titles that
count seeds in the right number.

Each figure is built from small constructed inputs (as the tests/test_viz_*.py do); the checks
are the same for all of them (:func:`check_print_ready`).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from types import SimpleNamespace  # noqa: E402

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.collections import Collection  # noqa: E402
from matplotlib.container import Container  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402
from matplotlib.text import Annotation, Text  # noqa: E402

from workbench import coverage as cov  # noqa: E402
from workbench.significance import SeedSummary, mvlsa_table2_comparison  # noqa: E402
from workbench.studies.mvlsa import (  # noqa: E402
    AblationResult,
    AblationSeeds,
    FusionSeeds,
    SeedComparison,
    TuningResult,
    TuningStep,
)
from workbench.studies.mvlsa import TestComparison as _TestComparison  # noqa: E402
from workbench.studies.senses import SensePairStudy, SparseNoiseStudy  # noqa: E402
from workbench.views import View, Vocabulary  # noqa: E402
from workbench.viz import eigenwords as vz_eigen  # noqa: E402
from workbench.viz import mvlsa as vz_mvlsa  # noqa: E402
from workbench.viz import senses as vz_senses  # noqa: E402
from workbench.viz import significance as vz_sig  # noqa: E402
from workbench.viz import tour as vz_tour  # noqa: E402
from workbench.viz import translingual as vz_tl  # noqa: E402
from workbench.viz import views as vz_views  # noqa: E402

#: Smallest font (points) at the size the figure is saved at (save_figure keeps the figsize).
MIN_POINTS = 8.0


# ------------------------------------------------------------------------- the checks
def _blank(rgba) -> bool:
    r, g, b, a = mcolors.to_rgba(rgba)
    return a == 0 or (r, g, b) == (1.0, 1.0, 1.0)


def _rgb(color) -> tuple[float, ...]:
    return tuple(round(v, 3) for v in mcolors.to_rgb(color))


def _colours(artist) -> set[tuple[float, ...]]:
    """The colour(s) an artist is seen in: a line's colour (its markers' for a marker-only
    line), a patch's face colour (its edge colour when the face is white or empty)."""
    if isinstance(artist, Container):
        out: set[tuple[float, ...]] = set()
        for child in artist.get_children():
            out |= _colours(child)
        return out
    if isinstance(artist, Line2D):
        if artist.get_linestyle() in ("None", "none", "") or artist.get_linewidth() == 0:
            face = artist.get_markerfacecolor()
            return {_rgb(artist.get_markeredgecolor() if _blank(face) else face)}
        return {_rgb(artist.get_color())}
    if isinstance(artist, Patch):
        face = artist.get_facecolor()
        return {_rgb(artist.get_edgecolor() if _blank(face) else face)}
    if isinstance(artist, Collection):
        faces = artist.get_facecolor()
        if len(faces) and not all(_blank(f) for f in faces):
            return {_rgb(f) for f in faces if not _blank(f)}
        return {_rgb(e) for e in artist.get_edgecolor()}
    return set()


def _series(ax: Axes) -> dict[str, list]:
    """The labelled series of an axes (label -> artists; bar containers count once)."""
    out: dict[str, list] = {}
    for art in [*ax.containers, *ax.lines, *ax.collections, *ax.patches]:
        label = art.get_label()
        if label and not str(label).startswith("_"):
            out.setdefault(str(label), []).append(art)
    return out


def _drawn_colours(axes: list[Axes]) -> set[tuple[float, ...]]:
    out: set[tuple[float, ...]] = set()
    for ax in axes:
        for art in [*ax.lines, *ax.collections, *ax.patches]:
            out |= _colours(art)
    return out


def _grey(colours: set[tuple[float, ...]]) -> bool:
    return all(r == g == b for r, g, b in colours)


def _check_legend(legend, axes: list[Axes], where: str) -> None:
    labels = [t.get_text() for t in legend.get_texts()]
    assert len(labels) == len(set(labels)), f"{where}: legend labels repeat: {labels}"
    series: dict[str, list] = {}
    for ax in axes:
        for label, arts in _series(ax).items():
            series.setdefault(label, []).extend(arts)
    drawn = _drawn_colours(axes)
    for label, handle in zip(labels, legend.legend_handles):
        colour = _colours(handle)
        if label in series:
            arts = series[label]
            assert len(arts) == 1, f"{where}: {len(arts)} series are labelled {label!r}"
            assert colour == _colours(arts[0]), (
                f"{where}: legend entry {label!r} is drawn in {colour}, its series in "
                f"{_colours(arts[0])}"
            )
        else:  # a key (proxy handle): its colour is one the panel draws, or a neutral grey
            assert colour <= drawn or _grey(colour), (
                f"{where}: legend entry {label!r} in {colour}, a colour no series has"
            )
    if legend.axes is not None and legend.axes in axes:  # an axes' own legend names them all
        missing = [s for s in _series(legend.axes) if s not in labels]
        assert not missing, f"{where}: labelled series {missing} are not in the legend"


def _shows_data(ax: Axes) -> bool:
    """True when the axes draws some data: a line or points in data coordinates, a bar of
    non-zero size, a filled area, an image or a value written at a data point (reference lines
    spanning the axes, like axhline, do not count)."""
    for line in ax.lines:
        x = np.asarray(line.get_xdata(), float)
        if line.get_transform() == ax.transData and np.isfinite(x).any():
            return True
    for patch in ax.patches:
        if not isinstance(patch, Rectangle) or (patch.get_width() and patch.get_height()):
            if patch.get_data_transform() == ax.transData:
                return True
    for coll in ax.collections:
        if len(coll.get_offsets()) or len(coll.get_paths()):
            return True
    if ax.images:
        return True
    for text in ax.texts:
        if isinstance(text, Annotation) and text.xycoords == "data":
            return True
        if text.get_transform() == ax.transData:
            return True
    return False


def check_print_ready(fig: Figure, name: str) -> None:
    """The checks of this module on one figure."""
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert panels, f"{name}: no panel"
    for i, ax in enumerate(panels):
        where = f"{name}, panel {i} ({ax.get_title()!r})"
        assert _shows_data(ax), f"{where} is empty"
        if ax.get_legend() is not None:
            _check_legend(ax.get_legend(), [ax], where)
    for legend in fig.legends:
        _check_legend(legend, panels, f"{name}, figure legend")
    fig.canvas.draw()
    for text in fig.findobj(Text):
        if text.get_visible() and text.get_text().strip():
            assert text.get_fontsize() >= MIN_POINTS, (
                f"{name}: text {text.get_text()!r} is {text.get_fontsize()} pt "
                f"(< {MIN_POINTS} pt)"
            )


# ------------------------------------------------------------------------- inputs
def _summary(mean: pd.DataFrame, n: int) -> SeedSummary:
    return SeedSummary(mean, mean.abs() * 0.1, {}, n)


SETS = ["MEN", "RW", "SCWS", "AN-SYN"]
REMOVALS = ["!positional", "!dependency", "!bitext", "!ppdb", "!framenet"]


def _drops() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.normal(0, 0.1, (len(REMOVALS), len(SETS))), REMOVALS, SETS)


def _significant(frame: pd.DataFrame) -> pd.DataFrame:
    """Mixed significance: some rows with no significant cell, some with all."""
    sig = pd.DataFrame(False, frame.index, frame.columns)
    sig.iloc[0, :] = True
    sig.iloc[2, 1] = True
    return sig


def _tuning() -> TuningResult:
    steps = tuple(
        TuningStep(f, None, pd.Series({"a": 0.3, "b": 0.35, "c": 0.2}), "a", "b", None, 0.0)
        for f in ("views", "positional", "n_j", "W_j", "r", "m", "k")
    )
    return TuningResult(steps, None, None, (), ())  # type: ignore[arg-type]


SYSTEMS = ["MVLSA (paper config)", "MVLSA (tuned)", "PPMI-SVD", "SGNS", "GloVe"]


def _scores() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    scores = pd.DataFrame(rng.uniform(0.1, 0.6, (8, len(SYSTEMS))),
                          [f"set{i}" for i in range(8)], SYSTEMS)  # fmt: skip
    scores.loc["mean"] = scores.mean()
    return scores


def _test_comparison() -> _TestComparison:
    scores = _scores()
    tests = pd.DataFrame([{"system": s, "test_set": t, "significant": (i + j) % 3 == 0}
                          for i, s in enumerate(SYSTEMS[:-1] + SYSTEMS[-1:]) if s != "MVLSA (tuned)"
                          for j, t in enumerate(scores.index[:-1])])  # fmt: skip
    return _TestComparison(scores, tests, "MVLSA (tuned)", None, {})  # type: ignore[arg-type]


def _seed_comparison(n: int = 3) -> SeedComparison:
    t = _test_comparison().tests
    agreement = t.assign(better=t["significant"] * n, worse=0, n_seeds=n)
    return SeedComparison({}, _summary(_scores(), n), t, agreement, "MVLSA (tuned)")


def _ablation() -> AblationResult:
    d = _drops()
    return AblationResult(None, d, None, None, _significant(d), None, {}, ())  # type: ignore[arg-type]


def _ablation_seeds(n: int = 3) -> AblationSeeds:
    d = _drops()
    helped = _significant(d).astype(int) * n
    return AblationSeeds(_summary(d, n), helped, helped * 0, n, {})


GAIN_COLS = ["MV Gain", "G-WSG Gain", "Combined Gain"]


def _gains() -> pd.DataFrame:
    d = _drops().T.iloc[:, :3]
    d.columns = GAIN_COLS
    sig = _significant(d.T).T
    for c in GAIN_COLS:
        d[f"{c}_significant"] = sig[c]
    return d


def _fusion_seeds(n: int = 3) -> FusionSeeds:
    g = _gains()[GAIN_COLS]
    up = _significant(g.T).T.astype(int) * n
    return FusionSeeds(None, _summary(g, n), None, up, up * 0, n, {})  # type: ignore[arg-type]


MODELS = ["PCA", "Ex-RPCA r=3", "Ex-RPCA r=5", "random directions", "all sense pairs (base rate)"]


def _sense_pairs(n: int = 1, pseudo: float = 0.0) -> SensePairStudy:
    summary = pd.DataFrame({"avg_cos": [0.9, 0.9, 0.92, 0.3, np.nan],
                            "pseudo_fraction": [pseudo] * 4 + [0.02]}, index=MODELS)  # fmt: skip
    t2 = pd.DataFrame({"evr": [0.1, 0.05, 0.2, 0.1]},
                      index=pd.MultiIndex.from_tuples([("PCA", 1), ("PCA", 2),
                                                       ("Ex-RPCA r=3", 1), ("Ex-RPCA r=3", 2)]))  # fmt: skip
    run = SimpleNamespace(evr={"PCA": 0, "Ex-RPCA r=3": 0}, spectrum=np.linspace(0.2, 0.01, 12))
    paper = None
    return SensePairStudy({s: run for s in range(n)}, _summary(t2, n), _summary(summary, n),
                          paper, paper, pd.DataFrame())  # type: ignore[arg-type]


TABLE2_PAPER = pd.DataFrame({"rho_var": [12.0, 6.0, 25.0, 11.0]},
                            index=["PCA#1", "PCA#2", "Ex-RPCA#1", "Ex-RPCA#2"])  # fmt: skip


def _sparse_noise(n: int = 3) -> SparseNoiseStudy:
    table4 = pd.DataFrame({"SCWS gain": [0.01, 0.02], "p_holm (SCWS)": [0.01, 0.3],
                           "WS-353 gain": [0.03, -0.01], "p_holm (WS-353)": [0.2, 0.01]},
                          index=["V~ PCA", "V~ Ex-RPCA"])  # fmt: skip
    run = SimpleNamespace(chosen={"PCA": 2, "Ex-RPCA": 4}, table4=table4)
    curve = pd.DataFrame({"PCA": [0.5, 0.52, 0.53, 0.5], "Ex-RPCA": [0.5, 0.51, 0.55, 0.54]},
                         index=[0, 2, 4, 6])  # fmt: skip
    names = ["mean ||S_p|| (Ex-RPCA)", "frequency (minus rank)", "any non-zero S"]
    wordnet = pd.DataFrame({"spearman": [0.2, 0.1, -0.05]}, index=names)
    sig = pd.DataFrame({"significant (Holm)": [n, 1, 0]}, index=names)
    return SparseNoiseStudy({s: run for s in range(n)}, _summary(wordnet, n),
                            _summary(curve, n), None, sig)  # type: ignore[arg-type]


TABLE4_PAPER = pd.DataFrame({"SCWS": [60.0, 61.0, 62.0], "WS353": [65.0, 66.0, 64.0]},
                            index=["V", "V~_PCA", "V~_Ex-RPCA"])  # fmt: skip

VOCAB = Vocabulary.from_words([f"w{i}" for i in range(6)])


def _view(name: str, family: str, seed: int) -> View:
    rng = np.random.default_rng(seed)
    m = sp.csr_array((rng.random((6, 8)) < 0.4) * 1.0)
    return View(name, m, tuple(f"c{j}" for j in range(8)), np.diff(m.indptr) > 0, family, VOCAB)


VIEWS = [_view(f"offset_{k}", "positional", k) for k in range(1, 9)] + [
    _view("dep", "dependency", 20), _view("morph", "morphology", 21)]  # fmt: skip
TOKENS = ("the cat sat on the mat the dog sat on the log a cat and a dog " * 50).split()


def _prior_gains() -> pd.DataFrame:
    rows = []
    for lex in ("WN", "PD"):
        rows.append({"method": "Eigen + RF", "lexicon": lex, "alpha": np.nan, "gain": 0.05,
                     "better": 3, "paper gain": 0.027})  # fmt: skip
        for j, a in enumerate([0.1, 0.5, 0.9]):
            for m in ("CCAPrior", "CCAPrior + RF"):
                rows.append({"method": m, "lexicon": lex, "alpha": a, "gain": 0.01 * j,
                             "better": int(j == 2), "paper gain": 0.004 * j})  # fmt: skip
    return pd.DataFrame(rows)


MRR = pd.DataFrame({"OPCA": [0.3, 0.4, 0.5], "CCA": [0.2, 0.3, 0.35], "JPLSA": [0.1, 0.2, 0.3]},
                   index=[10, 50, 100])  # fmt: skip
PER_SEED = pd.DataFrame({"OPCA": [0.5, 0.55], "CCA": [0.4, 0.42], "Untranslated": [0.1, 0.12]})


def _scatter_results():
    n = 30
    rng = np.random.default_rng(3)
    a = SimpleNamespace(pred=rng.random(n), gold=rng.random(n) * 10, name="MEN")
    b = SimpleNamespace(pred=rng.random(n), gold=a.gold, name="MEN")
    return a, b


def _counts_curve():
    counts = cov.vocabulary_counts(TOKENS)
    return counts, cov.type_token_curve(TOKENS, n_points=10)


FIGURES = {
    "tuning_path": lambda: vz_mvlsa.plot_tuning_path(_tuning(), mrds=0.03),
    "test_comparison": lambda: vz_mvlsa.plot_test_comparison(_test_comparison()),
    "test_comparison, seeds": lambda: vz_mvlsa.plot_test_comparison(_seed_comparison()),
    "ablation_drops": lambda: vz_mvlsa.plot_ablation_drops(_ablation()),
    "ablation_drops, seeds": lambda: vz_mvlsa.plot_ablation_drops(_ablation_seeds()),
    "fusion_gains": lambda: vz_mvlsa.plot_fusion_gains(_gains(), GAIN_COLS),
    "fusion_gains, seeds": lambda: vz_mvlsa.plot_fusion_gains(_fusion_seeds(), GAIN_COLS),
    "component_variance": lambda: vz_senses.plot_component_variance(_sense_pairs(3),
                                                                    paper=TABLE2_PAPER),
    "listed_pairs, none pseudo": lambda: vz_senses.plot_listed_pairs(_sense_pairs(1)),
    "listed_pairs, seeds": lambda: vz_senses.plot_listed_pairs(_sense_pairs(3, 0.01)),
    "removal_curve": lambda: vz_senses.plot_removal_curve(_sparse_noise()),
    "elimination_gains": lambda: vz_senses.plot_elimination_gains(_sparse_noise(),
                                                                  paper=TABLE4_PAPER),
    "wordnet_signals": lambda: vz_senses.plot_wordnet_signals(_sparse_noise()),
    "mrds_curves": lambda: vz_sig.plot_mrds_curves([30, 300, 3000]),
    "table2_comparison": lambda: vz_sig.plot_table2_comparison(mvlsa_table2_comparison()),
    "comparison_scatter": lambda: vz_sig.plot_comparison_scatter(*_scatter_results()),
    "vocabulary": lambda: vz_tour.plot_vocabulary(
        *_counts_curve(), zipf=cov.fit_zipf(_counts_curve()[0], ranks=(1, 10))),
    "coverage": lambda: vz_tour.plot_coverage(cov.coverage_table(
        _counts_curve()[0].index,
        {"pairs": pd.DataFrame({"word1": ["cat", "dog"], "word2": ["dog", "emu"]})}, [2, None])),
    "view_density": lambda: vz_views.plot_view_density(
        pd.DataFrame({"family": [v.family for v in VIEWS],
                      "density": [v.matrix.nnz / 48 for v in VIEWS]},
                     index=[v.name for v in VIEWS])),
    "view_family": lambda: vz_views.plot_view_family(VIEWS[:3]),
    "view_families": lambda: vz_views.plot_view_families(VIEWS),
    "view_heatmaps": lambda: vz_views.plot_view_heatmaps(VIEWS),
    "prior_gains": lambda: vz_eigen.plot_prior_gains(_prior_gains()),
    "dev_mrr_curves": lambda: vz_tl.plot_dev_mrr_curves(MRR, {"Word-by-word": 0.25}),
    "verse_retrieval": lambda: vz_tl.plot_verse_retrieval(
        PER_SEED, {"OPCA": "a", "CCA": "b", "Untranslated": "c"}, dev_mean=MRR, pool_size=100),
}  # fmt: skip


# ------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", list(FIGURES))
def test_figure_is_print_ready(name):
    fig = FIGURES[name]()
    try:
        check_print_ready(fig, name)
    finally:
        plt.close(fig)


def test_every_figure_function_is_checked():
    """A new figure function of workbench.viz gets a case in FIGURES."""
    modules = (vz_mvlsa, vz_senses, vz_sig, vz_tour, vz_views, vz_eigen, vz_tl)
    functions = {f for m in modules for f in m.__all__ if f.startswith("plot_")}
    checked = {"plot_" + n.split(",")[0] for n in FIGURES}
    assert functions == checked


@pytest.mark.parametrize("seeds", [1, 3])
def test_ablation_legend_has_one_entry_per_removal_in_its_colour(seeds):
    fig = vz_mvlsa.plot_ablation_drops(_ablation() if seeds == 1 else _ablation_seeds(seeds))
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == REMOVALS
    for i, handle in enumerate(ax.get_legend().legend_handles):
        assert _colours(handle) == {_rgb(f"C{i}")}
    plt.close(fig)


def test_listed_pairs_panel_shows_zero_shares():
    """No listed pair judged pseudo: the bars have length zero, their values are written."""
    fig = vz_senses.plot_listed_pairs(_sense_pairs(1, pseudo=0.0))
    ax2 = fig.axes[1]
    values = [t.get_text() for t in ax2.texts]
    assert values == ["0.0"] * 4
    plt.close(fig)


@pytest.mark.parametrize("n, words", [(1, "Mean over 1 seed"), (3, "Mean over 3 seeds")])
def test_titles_count_seeds_in_the_right_number(n, words):
    figs = [vz_senses.plot_listed_pairs(_sense_pairs(n)), vz_senses.plot_wordnet_signals(
        _sparse_noise(n)), vz_senses.plot_removal_curve(_sparse_noise(n))]  # fmt: skip
    for fig in figs:
        titles = [t.get_text() for t in fig.findobj(Text)]
        assert not any("seed(s)" in t for t in titles), titles
        assert any(words.lower() in t.lower() and (n > 1 or "seeds" not in t) for t in titles)
        plt.close(fig)


@pytest.mark.parametrize("make", [lambda: vz_mvlsa.plot_tuning_path(_tuning()),
                                  lambda: vz_mvlsa.plot_test_comparison(_test_comparison())])
def test_wide_figures_fit_a_page(make):
    """At most a page's text width: printed at that width, the 8-pt fonts stay 8 pt."""
    fig = make()
    assert fig.get_figwidth() <= vz_mvlsa.MAX_WIDTH
    plt.close(fig)
