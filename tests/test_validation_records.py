"""Bad input at the public entry points of workbench.records, workbench.coverage (and the tour
study's Discussion), workbench.significance.seeds and workbench.viz.

Every case asserts the error type and that the message names the problem. No figure is drawn:
each call fails before plotting.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench import coverage as cov  # noqa: E402
from workbench import records  # noqa: E402
from workbench.records import (  # noqa: E402
    find_records,
    read_records,
    record,
    save_figure,
    save_table,
)
from workbench.significance import seeds  # noqa: E402
from workbench.studies import tour  # noqa: E402
from workbench.viz import eigenwords as vz_eig  # noqa: E402
from workbench.viz import mvlsa as vz_mvlsa  # noqa: E402
from workbench.viz import senses as vz_senses  # noqa: E402
from workbench.viz import significance as vz_sig  # noqa: E402
from workbench.viz import tour as vz_tour  # noqa: E402
from workbench.viz import translingual as vz_tl  # noqa: E402
from workbench.viz import views as vz_views  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_records(monkeypatch, tmp_path):
    """record() writes nowhere and forgets; outputs go to tmp_path; the checkout is the cwd."""
    monkeypatch.delenv(records.RECORD_FILE_ENV, raising=False)
    monkeypatch.setenv(records.OUTPUT_DIR_ENV, str(tmp_path / "out"))
    monkeypatch.setattr(records, "_RECORDED", {})
    monkeypatch.chdir(ROOT)


def _ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [case[0] for case in cases]


# ------------------------------------------------------------------------- records
RECORD_CASES = [
    ("name None", lambda p: record(None, 1), TypeError, "name must be a non-empty string"),
    ("name empty", lambda p: record("", 1), ValueError, "name must be a non-empty string"),
    ("unsupported value", lambda p: record("x", object()), TypeError,
     r"record\('x'\): cannot store the value of type object"),
    ("unsupported nested value", lambda p: record("x", {"a": {"b": 1 + 2j}}), TypeError,
     r"record\('x'\): cannot store the value\['a'\]\['b'\] of type complex"),
    ("keys colliding as JSON", lambda p: record("x", {1: "a", "1": "b"}), ValueError,
     r"record\('x'\): .*two keys that are both '1'"),
    ("Series with duplicate index", lambda p: record("x", pd.Series([1, 2], index=["a", "a"])),
     ValueError, "two keys that are both 'a'"),
    ("read_records None", lambda p: read_records(None), TypeError, "path must be a path"),
    ("read_records missing", lambda p: read_records(p / "none.json"), FileNotFoundError,
     "no records at"),
    ("read_records a folder", lambda p: read_records(p), IsADirectoryError, "is a directory"),
    ("read_records bad JSON", lambda p: read_records(p / "bad.json"), ValueError,
     r"bad.json line 1: not valid JSON"),
    ("read_records JSON list", lambda p: read_records(p / "list.json"), ValueError,
     "list.json: expected a JSON object, got a list"),
    ("read_records other suffix", lambda p: read_records(p / "a.txt"), ValueError,
     "expected a .json records file or an executed .ipynb"),
    ("find_records unknown notebook", lambda p: find_records("nope", "small"), ValueError,
     "unknown notebook 'nope'; notebooks: 00_tour"),
    ("find_records glob in name", lambda p: find_records("**", "small"), ValueError,
     "notebook must be a notebook name"),
    ("find_records notebook None", lambda p: find_records(None, "small"), TypeError,
     "notebook must be a non-empty string"),
    ("find_records size None", lambda p: find_records("03_mvlsa", None), TypeError,
     "size must be a non-empty string"),
    ("find_records missing root", lambda p: find_records("03_mvlsa", "small", root=p / "nope"),
     FileNotFoundError, "root .* does not exist"),
    ("find_records current_only str",
     lambda p: find_records("03_mvlsa", "small", current_only="no"), TypeError,
     "current_only must be True or False"),
    ("save_table name None", lambda p: save_table(None, pd.DataFrame({"a": [1]})), TypeError,
     r"save_table\(\): name must be a string"),
    ("save_table name with a folder", lambda p: save_table("../x", pd.DataFrame({"a": [1]})),
     ValueError, "without '/'"),
    ("save_table index str", lambda p: save_table("t", pd.DataFrame({"a": [1]}), index="no"),
     TypeError, "index must be True or False"),
    ("save_table a Series", lambda p: save_table("t", pd.Series([1])), TypeError,
     "expected a pandas DataFrame, got Series"),
    ("save_figure fig a string", lambda p: save_figure("f", "x"), TypeError,
     "fig must be a matplotlib Figure"),
    ("save_figure name empty", lambda p: save_figure("", None), ValueError,
     "name must be a non-empty file name"),
]  # fmt: skip


@pytest.mark.parametrize("label, call, exc, match", RECORD_CASES, ids=_ids(RECORD_CASES))
def test_records(tmp_path, label, call, exc, match):
    (tmp_path / "bad.json").write_text("{oops")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(exc, match=match):
        call(tmp_path)


def test_record_stores_undefined_numbers_as_null(tmp_path, monkeypatch):
    """NaN / inf / pd.NA are recorded as null on purpose (documented in record()): notebooks
    record undefined p-values and one-seed standard deviations, read back as None ("n/a")."""
    path = tmp_path / "records.json"
    monkeypatch.setenv(records.RECORD_FILE_ENV, str(path))
    assert record("p", float("nan")) is None
    assert record("sd", {"MEN": np.float32("nan"), "RW": 0.1, "X": np.inf}) == {
        "MEN": None, "RW": pytest.approx(0.1), "X": None}  # fmt: skip
    assert record("n", pd.Series([1, None], dtype="Int64")) == {"0": 1, "1": None}
    assert json.loads(path.read_text())["p"] is None


# ------------------------------------------------------------------------- coverage
ITEMS = {"x": [("a", "b"), ("a", "c")]}
CURVE = pd.DataFrame({"tokens": [10, 100, 1000, 10000], "types": [5, 30, 200, 1000]})

COVERAGE_CASES = [
    ("data_inventory None", lambda p: cov.data_inventory(None), TypeError, "root must be a path"),
    ("data_inventory a file", lambda p: cov.data_inventory(p / "a.txt"), NotADirectoryError,
     "is a file, not a directory"),
    ("data_inventory count_lines str", lambda p: cov.data_inventory(p, count_lines="no"),
     TypeError, "count_lines must be True or False"),
    ("vocabulary_counts a string", lambda p: cov.vocabulary_counts("abc"), TypeError,
     "not a single string"),
    ("vocabulary_counts None", lambda p: cov.vocabulary_counts(None), TypeError,
     "tokens must be an iterable"),
    ("vocabulary_counts numbers", lambda p: cov.vocabulary_counts(["a", 1]), TypeError,
     "tokens must be strings, got 1"),
    ("type_token_curve n_points str", lambda p: cov.type_token_curve(["a"], n_points="5"),
     TypeError, "n_points must be an integer >= 2"),
    ("type_token_curve n_points fractional",
     lambda p: cov.type_token_curve(["a"], n_points=2.5), ValueError, "n_points"),
    ("fit_heaps None", lambda p: cov.fit_heaps(None), TypeError,
     "curve must be a DataFrame with columns tokens, types"),
    ("fit_heaps NaN types", lambda p: cov.fit_heaps(CURVE.assign(types=[5, np.nan, 200, 1000]),
                                                    min_tokens=1),
     ValueError, r"curve\['types'\] contains 1 NaN"),
    ("fit_heaps negative types", lambda p: cov.fit_heaps(CURVE.assign(types=[5, -3, 200, 1000]),
                                                         min_tokens=1),
     ValueError, "negative counts"),
    ("fit_heaps min_tokens < 0", lambda p: cov.fit_heaps(CURVE, min_tokens=-1), ValueError,
     "min_tokens must be an integer >= 0"),
    ("fit_zipf NaN counts", lambda p: cov.fit_zipf([5.0, np.nan, 2, 1]), ValueError,
     "counts contains 1 NaN"),
    ("fit_zipf negative counts", lambda p: cov.fit_zipf([5, -3, 2, 1]), ValueError,
     "counts has 1 negative"),
    ("fit_zipf 2-D counts", lambda p: cov.fit_zipf([[5, 3], [2, 1]]), ValueError,
     "counts must be 1-dimensional"),
    ("fit_zipf ranks an int", lambda p: cov.fit_zipf([5, 3, 2, 1], ranks=5), TypeError,
     r"ranks must be a pair \(lo, hi\)"),
    ("fit_zipf ranks fractional", lambda p: cov.fit_zipf([5, 3, 2, 1], ranks=(1.5, 5)),
     ValueError, r"ranks\[0\] must be an integer"),
    ("items_of a string", lambda p: cov.items_of("ab"), TypeError,
     "dataset must be a DataFrame or a sequence of word tuples"),
    ("items_of a string item", lambda p: cov.items_of([("a", "b"), "bc"]), TypeError,
     r"dataset\[1\] must be a tuple of words"),
    ("items_of NaN word", lambda p: cov.items_of(pd.DataFrame({"word1": ["a", None],
                                                               "word2": ["b", "c"]})),
     ValueError, r"missing words \(NaN\) in rows \[1\]"),
    ("item_max_ranks empty item", lambda p: cov.item_max_ranks(["a"], [[]]), ValueError,
     "empty item"),
    ("cutoff_label < 1", lambda p: cov.cutoff_label(-5), ValueError,
     "cutoff must be an integer >= 1, got -5"),
    ("cutoff_label bool", lambda p: cov.cutoff_label(True), TypeError, "cutoff"),
    ("coverage_table cutoffs empty", lambda p: cov.coverage_table(["a", "b"], ITEMS, []),
     ValueError, "cutoffs is empty"),
    ("coverage_table cutoffs an int", lambda p: cov.coverage_table(["a", "b"], ITEMS, 5),
     TypeError, "cutoffs must be a sequence"),
    ("coverage_table cutoffs duplicated",
     lambda p: cov.coverage_table(["a", "b"], ITEMS, [1, 1]), ValueError,
     "cutoffs has duplicates"),
    ("coverage_table datasets a list",
     lambda p: cov.coverage_table(["a", "b"], [("a", "b")], [1]), TypeError,
     "datasets must be a mapping"),
    ("coverage_table no dataset", lambda p: cov.coverage_table(["a", "b"], {}, [1]), ValueError,
     "datasets is empty"),
    ("coverage_table vocabulary a string", lambda p: cov.coverage_table("ab", ITEMS, [1]),
     TypeError, "vocabulary must be a sequence of words"),
    ("coverage_table empty vocabulary", lambda p: cov.coverage_table([], ITEMS, [1]),
     ValueError, "vocabulary is empty"),
    ("coverage_table duplicate word", lambda p: cov.coverage_table(["a", "a", "b"], ITEMS, [2]),
     ValueError, "vocabulary lists 'a' twice"),
    ("coverage_table lowercase str",
     lambda p: cov.coverage_table(["a", "b"], ITEMS, [1], lowercase="no"), TypeError,
     "lowercase must be True or False"),
    ("missing_words cutoff 0", lambda p: cov.missing_words(["a", "b"], ITEMS, cutoff=0),
     ValueError, "cutoff must be an integer >= 1 or None, got 0"),
    ("missing_words examples < 0", lambda p: cov.missing_words(["a", "b"], ITEMS, examples=-1),
     ValueError, "examples must be an integer >= 0"),
    ("missing_words empty set", lambda p: cov.missing_words(["a", "b"], {"s": []}), ValueError,
     "'s' has no items"),
    ("discussion_00 no records", lambda p: tour.discussion_00({}), KeyError,
     "lacks the records .*'coverage'"),
    ("discussion_00 None", lambda p: tour.discussion_00(None), TypeError,
     "rec must be the records of a run of notebook 00"),
]  # fmt: skip


@pytest.mark.parametrize("label, call, exc, match", COVERAGE_CASES, ids=_ids(COVERAGE_CASES))
def test_coverage(tmp_path, label, call, exc, match):
    (tmp_path / "a.txt").write_text("x\n")
    with pytest.raises(exc, match=match):
        call(tmp_path)


# ------------------------------------------------------------------------- seeds
def _frame(values: Any, index: Any = ("x",)) -> pd.DataFrame:
    return pd.DataFrame({"a": values}, index=list(index))


SEED_CASES = [
    ("seed_list seed str", lambda: seeds.seed_list("0", 2), TypeError,
     "seed must be an integer >= 0, got '0'"),
    ("seed_list no seed", lambda: seeds.seed_list(0, 0), ValueError, "SEEDS"),
    ("seed_summary no numeric column", lambda: seeds.seed_summary({0: _frame(["s"])}),
     ValueError, r"tables\[0\] has no numeric column"),
    ("seed_summary duplicate rows",
     lambda: seeds.seed_summary({0: _frame([1.0, 2.0], index=("x", "x"))}), ValueError,
     r"tables\[0\] has duplicate row labels \['x'\]"),
    ("seed_summary table an int", lambda: seeds.seed_summary({0: 1}), TypeError,
     r"tables\[0\] must be a DataFrame or Series"),
    ("seed_agreement None", lambda: seeds.seed_agreement({0: None}), TypeError,
     r"flags\[0\] must be a boolean DataFrame"),
    ("seed_agreement a string", lambda: seeds.seed_agreement({0: "abc"}), TypeError,
     r"flags\[0\] must be a boolean"),
    ("seed_agreement NaN", lambda: seeds.seed_agreement({0: pd.Series([np.nan, 1.0])}),
     ValueError, r"flags\[0\] has NaN entries"),
    ("seed_agreement strings", lambda: seeds.seed_agreement({0: pd.Series(["False", "True"])}),
     TypeError, "must hold booleans"),
    ("seed_agreement mixed kinds",
     lambda: seeds.seed_agreement({0: pd.Series([True]), 1: pd.DataFrame({"a": [True]})}),
     TypeError, "all Series or all DataFrames"),
    ("format_mean_sd None", lambda: seeds.format_mean_sd(None, None), TypeError,
     "mean must be a DataFrame or Series"),
    ("format_mean_sd strings", lambda: seeds.format_mean_sd(_frame(["s"]), None), TypeError,
     "mean must hold numbers"),
    ("format_mean_sd sd a list", lambda: seeds.format_mean_sd(pd.Series([0.1]), [0.1]),
     TypeError, "sd must be None or a Series"),
    ("format_mean_sd sd missing labels",
     lambda: seeds.format_mean_sd(pd.Series([0.1], index=["a"]), pd.Series([0.1], index=["b"])),
     ValueError, r"sd lacks the labels \['a'\]"),
    ("format_mean_sd negative sd",
     lambda: seeds.format_mean_sd(pd.Series([0.1]), pd.Series([-0.1])), ValueError,
     "sd has negative entries"),
    ("format_mean_sd decimals < 0",
     lambda: seeds.format_mean_sd(pd.Series([0.1]), None, decimals=-1), ValueError, "decimals"),
]  # fmt: skip


@pytest.mark.parametrize("label, call, exc, match", SEED_CASES, ids=_ids(SEED_CASES))
def test_seeds(label, call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------------- viz
COUNTS = pd.Series([100, 50, 20, 10, 5], index=list("abcde"))
COV = pd.DataFrame({"items": [600, 300], "10K": [0.5, 0.6], "all": [0.9, 0.95]},
                   index=["MEN", "WS"])  # fmt: skip
GAINS = pd.DataFrame({"MV Gain": [0.1], "MV Gain_significant": [True]}, index=["MEN"])
STATS = pd.DataFrame({"family": ["a", "b"], "density": [0.1, 0.01]}, index=["v1", "v2"])
PRIOR = pd.DataFrame({"method": ["CCAPrior"], "lexicon": ["WN"], "alpha": [0.1], "gain": [0.1],
                      "better": [1]})  # fmt: skip


class _Result:
    def __init__(self, n: int) -> None:
        self.pred, self.gold, self.name = np.arange(n, dtype=float), np.arange(n), "x"


def _view() -> Any:
    from test_studies_mvlsa import _planted

    return _planted()[0].views[0]


VIZ_CASES = [
    ("tuning path of None", lambda: vz_mvlsa.plot_tuning_path(None), TypeError,
     "result must be a TuningResult"),
    ("test comparison of None", lambda: vz_mvlsa.plot_test_comparison(None), TypeError,
     "comparison must be a TestComparison or SeedComparison"),
    ("ablation drops of None", lambda: vz_mvlsa.plot_ablation_drops(None), TypeError,
     "ablation must be an AblationResult or AblationSeeds"),
    ("fusion gains columns a string", lambda: vz_mvlsa.plot_fusion_gains(GAINS, "MV Gain"),
     TypeError, "columns must be a list of gain columns"),
    ("fusion gains unknown column", lambda: vz_mvlsa.plot_fusion_gains(GAINS, ["zz"]),
     ValueError, r"unknown gain columns \['zz'\]; gains has \['MV Gain'\]"),
    ("fusion gains no column", lambda: vz_mvlsa.plot_fusion_gains(GAINS, []), ValueError,
     "columns is empty"),
    ("vocabulary empty counts", lambda: vz_tour.plot_vocabulary(pd.Series([], dtype=int), CURVE),
     TypeError, r"counts must be a non-empty Series.*\(empty\)"),
    ("vocabulary curve columns",
     lambda: vz_tour.plot_vocabulary(COUNTS, pd.DataFrame({"a": [1]})), ValueError,
     r"curve lacks the columns \['tokens', 'types'\]"),
    ("vocabulary zipf a string", lambda: vz_tour.plot_vocabulary(COUNTS, CURVE, zipf="x"),
     TypeError, "zipf must be a PowerLawFit"),
    ("coverage_groups bounds an int", lambda: vz_tour.coverage_groups(COV, bounds=5), TypeError,
     "bounds must be a pair"),
    ("coverage empty table", lambda: vz_tour.plot_coverage(COV.iloc[:0]), ValueError,
     "table is empty"),
    ("coverage no group", lambda: vz_tour.plot_coverage(COV, groups={}), ValueError,
     "groups must have at least one panel"),
    ("coverage groups a list", lambda: vz_tour.plot_coverage(COV, groups=["MEN"]), TypeError,
     "groups must be a dict"),
    ("coverage max_single < 1", lambda: vz_tour.plot_coverage(COV, max_single=-1), ValueError,
     "max_single must be an integer >= 1"),
    ("coverage strings", lambda: vz_tour.plot_coverage(pd.DataFrame({"10K": ["a"]})),
     TypeError, "not coverage fractions"),
    ("view density NaN", lambda: vz_views.plot_view_density(STATS.assign(density=[np.nan, 0.1])),
     ValueError, r"stats\['density'\] must hold finite numbers >= 0"),
    ("view density negative", lambda: vz_views.plot_view_density(STATS.assign(density=[-1, 0.1])),
     ValueError, "finite numbers >= 0"),
    ("view density empty", lambda: vz_views.plot_view_density(STATS.iloc[:0]), ValueError,
     "stats is empty"),
    ("ccdf of None", lambda: vz_views.row_nnz_ccdf(None), TypeError, "view must be a View"),
    ("ccdf max_points fractional", lambda: vz_views.row_nnz_ccdf(_view(), max_points=2.5),
     ValueError, "max_points"),
    ("view family of one View", lambda: vz_views.plot_view_family(_view()), TypeError,
     r"got a single View; use \[view\]"),
    ("view family n_top 0", lambda: vz_views.plot_view_family([_view()], n_top=0), ValueError,
     "n_top must be an integer >= 1"),
    ("view families n_cols 0", lambda: vz_views.plot_view_families([_view()], n_cols=0),
     ValueError, "n_cols must be an integer >= 1"),
    ("view families of strings", lambda: vz_views.plot_view_families(["x"]), TypeError,
     "views must hold View objects"),
    ("heatmaps n_top 0", lambda: vz_views.plot_view_heatmaps([_view()], n_top=0), ValueError,
     "n_top"),
    ("mrds curves no n", lambda: vz_sig.plot_mrds_curves(ns=[]), ValueError,
     "ns must be a non-empty sequence"),
    ("mrds curves n string", lambda: vz_sig.plot_mrds_curves(ns=["a"]), TypeError,
     "ns entries must be an integer"),
    ("mrds curves no r", lambda: vz_sig.plot_mrds_curves(r_values=[]), ValueError,
     "r_values must be a non-empty sequence"),
    ("mrds curves accuracy str", lambda: vz_sig.plot_mrds_curves(accuracy="no"), TypeError,
     "accuracy must be True or False"),
    ("mrds curves paper a list", lambda: vz_sig.plot_mrds_curves(paper=[1]), TypeError,
     "paper must be a DataFrame or None"),
    ("table2 comparison columns", lambda: vz_sig.plot_table2_comparison(pd.DataFrame({"x": [1]})),
     ValueError, r"lacks the columns \['r', 'paper', 'reproduced', 'difference'\]"),
    ("table2 comparison empty", lambda: vz_sig.plot_table2_comparison(
        pd.DataFrame({"r": [], "paper": [], "reproduced": [], "difference": []})),
     ValueError, "finite positive"),
    ("scatter of None", lambda: vz_sig.plot_comparison_scatter(None, None), TypeError,
     "result_a must be a WordSimResult"),
    ("scatter different pairs", lambda: vz_sig.plot_comparison_scatter(_Result(3), _Result(2)),
     ValueError, "must score the same pairs.*3 and 2"),
    ("scatter labels", lambda: vz_sig.plot_comparison_scatter(_Result(3), _Result(3),
                                                              labels="ABC"),
     TypeError, "labels must be a pair of strings"),
    ("prior gains None", lambda: vz_eig.plot_prior_gains(None), TypeError,
     "gains must be a DataFrame"),
    ("prior gains unknown method", lambda: vz_eig.plot_prior_gains(PRIOR.assign(method=["zz"])),
     ValueError, r"unknown methods \['zz'\]; known: \['CCAPrior'"),
    ("prior gains strings", lambda: vz_eig.plot_prior_gains(PRIOR.assign(gain=["a"])),
     TypeError, r"gains\['gain'\] must hold numbers"),
    ("prior gains title an int", lambda: vz_eig.plot_prior_gains(PRIOR, title=3), TypeError,
     "title must be a string or None"),
    ("dev MRR index not dimensions",
     lambda: vz_tl.plot_dev_mrr_curves(pd.DataFrame({"OPCA": [0.1, 0.2]}, index=[0, 10])),
     ValueError, r"indexed by dimensions \(integers >= 1\)"),
    ("dev MRR flat a list",
     lambda: vz_tl.plot_dev_mrr_curves(pd.DataFrame({"OPCA": [0.1]}, index=[10]), flat=[1]),
     TypeError, "flat must be a mapping"),
    ("dev MRR flat string value",
     lambda: vz_tl.plot_dev_mrr_curves(pd.DataFrame({"OPCA": [0.1]}, index=[10]),
                                       flat={"a": "x"}),
     TypeError, r"flat\['a'\] must be a number"),
    ("dev MRR sd a list",
     lambda: vz_tl.plot_dev_mrr_curves(pd.DataFrame({"OPCA": [0.1]}, index=[10]), sd=[1]),
     TypeError, "sd must be a DataFrame like mean"),
    ("verse retrieval letters None",
     lambda: vz_tl.plot_verse_retrieval(pd.DataFrame({"OPCA": [0.1]}), None), TypeError,
     "letters must be a mapping"),
    ("verse retrieval NaN", lambda: vz_tl.plot_verse_retrieval(pd.DataFrame({"OPCA": [np.nan]}),
                                                               {"OPCA": "a"}),
     ValueError, "per_seed has NaN"),
    ("verse retrieval pool_size < 1",
     lambda: vz_tl.plot_verse_retrieval(pd.DataFrame({"OPCA": [0.1]}), {"OPCA": "a"},
                                        pool_size=-1),
     ValueError, "pool_size must be an integer >= 1"),
    ("method_style None", lambda: vz_tl.method_style(None), TypeError,
     "method must be a method name"),
    ("senses component variance", lambda: vz_senses.plot_component_variance(None), TypeError,
     r"plot_component_variance\(\): study must be a workbench.studies.senses.SensePairStudy"),
    ("senses listed pairs", lambda: vz_senses.plot_listed_pairs(None), TypeError,
     "SensePairStudy"),
    ("senses removal curve", lambda: vz_senses.plot_removal_curve(None), TypeError,
     "SparseNoiseStudy"),
    ("senses elimination gains", lambda: vz_senses.plot_elimination_gains(None), TypeError,
     "SparseNoiseStudy"),
    ("senses wordnet signals", lambda: vz_senses.plot_wordnet_signals(None), TypeError,
     "SparseNoiseStudy"),
]  # fmt: skip


@pytest.mark.parametrize("label, call, exc, match", VIZ_CASES, ids=_ids(VIZ_CASES))
def test_viz(label, call, exc, match):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    with pytest.raises(exc, match=match):
        call()
    assert plt.get_fignums() == before  # refused before drawing
