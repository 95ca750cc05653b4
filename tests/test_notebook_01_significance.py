"""Run notebooks/01_significance.ipynb at DATA_SIZE="small" with two seeds and check its recorded
numbers, its per-seed tables and the Discussion rendered from them."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from workbench.runner import run_notebooks
from workbench.significance import MVLSA_FOOTNOTE4_TOEFL, MVLSA_TABLE2

pytestmark = pytest.mark.notebooks


def _frame(d):
    return pd.DataFrame(d["data"], index=d["index"], columns=d["columns"])


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("significance")
    report = run_notebooks(
        ["01_significance"], parameters={"SEED": 0, "SEEDS": 2}, size="small", out=out,
        force=True, progress=False,
    )  # fmt: skip
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(
            f"01_significance failed at {result.failure.describe()}\n{result.failure.traceback}"
        )
    return result


def rendered_discussion(result) -> str:
    nb = json.loads((result.output_dir / f"{result.name}.ipynb").read_text())
    outputs = nb["cells"][-1]["outputs"]
    texts = [
        "".join(o["data"]["text/markdown"]) for o in outputs if "text/markdown" in o.get("data", {})
    ]
    assert texts, "the last cell must display the Discussion"
    return texts[-1]


def test_table2_reproduced_and_the_test_identified(run):
    rec = run.records
    table = _frame(rec["table2_reproduced"])
    assert list(table.index) == list(MVLSA_TABLE2.index)
    paper = MVLSA_TABLE2.drop(columns="n").to_numpy(float)
    ours = table.drop(columns="n").to_numpy(float)
    filled = ~np.isnan(paper)
    assert np.all(~np.isnan(ours[filled]))
    assert np.max(np.abs(ours[filled] - paper[filled])) <= 0.15
    assert rec["table2_max_abs_diff"] <= 0.15 and rec["table2_n_cells"] == 66
    worst = rec["table2_worst_cell"]
    assert abs(worst["difference"]) == pytest.approx(rec["table2_max_abs_diff"])
    assert worst["column"] in MVLSA_TABLE2.columns
    assert abs(rec["footnote4_toefl_sigma_005"] - MVLSA_FOOTNOTE4_TOEFL) <= 0.15
    err = rec["table2_variant_max_error"]
    assert err["williams1959, one-sided"] <= 0.15
    assert err["mvlsa2015 (script, df=n-2), one-sided"] <= 0.1
    assert err["williams1959, two-sided"] > 2 and err["steiger1980 z, one-sided"] > 0.5
    # the text's "for all theta" definition gives larger thresholds than the script's
    for name, forall in rec["accuracy_mrds_forall"].items():
        assert forall > MVLSA_TABLE2.loc[name, "p0.05_r0.9"], name
    assert -0.55 < rec["mrds_n_slope"] < -0.45  # about 1 / sqrt(n)
    assert 0.3 < rec["mrds_r_ratio"] < 0.7


def test_two_seeds_and_their_summary(run):
    rec = run.records
    assert rec["seeds"] == [0, 1]
    by_seed = {s: _frame(t) for s, t in rec["wordsim_comparison_by_seed"].items()}
    assert set(by_seed) == {"0", "1"}
    summary = _frame(rec["wordsim_comparison_seeds"]).set_index("dataset")
    assert (summary["n_seeds"] == 2).all() and len(summary) >= 10
    for d, row in summary.iterrows():
        per = [t.set_index("dataset").loc[d] for t in by_seed.values()]
        assert row["seeds_significant"] == sum(bool(p["significant"]) for p in per)
        assert row["gain"] == pytest.approx(np.mean([p["difference"] for p in per]))
        assert row["pvalue_adjusted_max"] >= row["pvalue_max"] - 1e-12  # Holm never lowers p
    for t in by_seed.values():
        assert t["pvalue"].between(0, 1).all() and (t["mrds"] > 0).all()
    # the two seeds differ only through the randomized SVD: the scores move, on MEN slightly
    g0, g1 = (t.set_index("dataset")["difference"] for t in by_seed.values())
    assert not np.allclose(g0, g1, atol=0) and abs(g0["MEN"] - g1["MEN"]) < 0.02
    agreement = rec["wordsim_significant_seeds"]
    assert set(agreement.values()) <= {0, 1, 2}
    men = summary.loc["MEN"]
    assert men["n"] > 300 and 0.1 < men["r_ab"] < 1
    tests = _frame(rec["men_all_tests"])
    assert len(tests) == 10
    p = tests["pvalue"].dropna()
    assert len(p) == 9 and p.max() - p.min() < 0.05  # all ten tests agree at this n


def test_analogies_per_seed(run):
    rec = run.records
    assert set(rec["analogy_comparison_by_seed"]) == {"0", "1"}
    for comp in rec["analogy_comparison_by_seed"].values():
        assert 0 <= comp["mcnemar_pvalue"] <= 1 and 0 <= comp["prob_b_better"] <= 1
        assert comp["mrds"] > 0 and comp["n"] > 100
    for acc in rec["analogy_accuracy_by_seed"].values():
        assert set(acc) == set(rec["systems"]) and all(0 <= a < 0.5 for a in acc.values())
    for sup in rec["superior_set_by_seed"].values():
        assert set(sup["members"]) <= set(rec["systems"]) and isinstance(sup["separated"], bool)


def test_executed_notebook_is_clean_and_in_points(run):
    from notebook_outputs import unclean_outputs

    executed = run.output_dir / "01_significance.ipynb"
    assert unclean_outputs(executed) == []
    nb = json.loads(executed.read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    html = "".join("".join(o["data"].get("text/html", "")) for o in outputs if "data" in o)
    assert "show all 66 rows (46 more)" in html  # Table 2 folded with its count
    assert "r_ab (points)" in html and "gain (points)" in html and "p Holm (max)" in html
    assert "Spearman (points)" in html and "Fisher z" in html
    assert not re.search(r"<td>-?0\.\d{4,}</td>", html)  # no raw fractions or 4-decimal p
    assert "inf" not in html.replace("info", "")


def test_discussion_and_outputs(run):
    rec = run.records
    text = rendered_discussion(run)
    assert f"{rec['table2_max_abs_diff']:.2f} points" in text
    assert "over 2 seeds of the randomized SVD" in text
    summary = _frame(rec["wordsim_comparison_seeds"]).set_index("dataset")
    if (summary["seeds_significant"] == 0).all():
        assert "No difference on the 13 rating sets is significant after Holm" in text
    assert "Holm's correction over the 13 rating sets of each seed" in text
    assert f"only {rec['coverage_pairs']['RW']['n_scored']:,} of RW's" in text
    assert "{{" not in text and "n/a" not in text
    folder = run.output_dir
    for table in ("wordsim_comparison", "wordsim_comparison_seeds", "wordsim_scores",
                  "results_table", "analogy_comparison", "table2_comparison"):  # fmt: skip
        assert (folder / "tables" / f"{table}.csv").stat().st_size > 0
    long = pd.read_csv(folder / "tables" / "wordsim_comparison.csv")
    assert {"seed", "pvalue", "pvalue_adjusted"} <= set(long.columns)  # uncorrected p kept
    for fig in ("mrds_curves", "table2_reproduced_vs_paper", "men_scatter"):
        assert (folder / "figures" / f"{fig}.png").stat().st_size > 1000
        assert (folder / "figures" / f"{fig}.pdf").exists()
